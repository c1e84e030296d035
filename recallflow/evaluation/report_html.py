"""The evaluation report as one self-contained HTML page, written next to
``eval-report.json``: recall@10 per question category and split for recallflow and every
baseline and peer, their latency, the hard gates, and this run against the previous one
(the ``eval-report.json`` the run replaced).

It reads the report as JSON (a mapping), not the pydantic model, so a previous run written
by an older version still compares as far as the two share figures.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from recallflow.visualizations.charts import bar_chart, figure, note, page, preformatted

#: The metric the charts compare systems on (each row of the report has it).
METRIC = "r10"


def _row_labels(dataset: Mapping[str, Any], split: str) -> list[str]:
    labels: list[str] = []
    for system in dataset.get("systems") or ():
        for label in (system.get("rows") or {}).get(split) or {}:
            if label not in labels:
                labels.append(label)
    return labels


def _metric(system: Mapping[str, Any], split: str, label: str, metric: str) -> float | None:
    row = ((system.get("rows") or {}).get(split) or {}).get(label)
    value = row.get(metric) if isinstance(row, Mapping) else None
    return float(value) if isinstance(value, int | float) else None


def _splits(dataset: Mapping[str, Any]) -> list[str]:
    splits: list[str] = []
    for system in dataset.get("systems") or ():
        for split in system.get("rows") or {}:
            if split not in splits:
                splits.append(split)
    return splits


def quality_charts(dataset: Mapping[str, Any]) -> list[str]:
    """One chart per split: recall@10 per category and aggregate, one bar per system."""
    charts = []
    for split in _splits(dataset):
        labels = _row_labels(dataset, split)
        series = {
            str(s["system"]): [_metric(s, split, label, METRIC) for label in labels]
            for s in dataset.get("systems") or ()
        }
        charts.append(
            bar_chart(
                f"{dataset['name']}, split {split}: recall@10 per category",
                labels,
                series,
                y_title="recall@10",
            )
        )
    return charts


def latency_chart(dataset: Mapping[str, Any]) -> str | None:
    """p50 and p95 per system over the widest aggregate of the first split."""
    splits = _splits(dataset)
    if not splits:
        return None
    labels = _row_labels(dataset, splits[0])
    if not labels:
        return None
    widest = labels[-1]
    systems = list(dataset.get("systems") or ())
    return bar_chart(
        f"{dataset['name']}: latency per system ({widest}, split {splits[0]})",
        [str(s["system"]) for s in systems],
        {
            "p50 ms": [_metric(s, splits[0], widest, "p50_ms") for s in systems],
            "p95 ms": [_metric(s, splits[0], widest, "p95_ms") for s in systems],
        },
        y_title="ms",
    )


def comparison_chart(report: Mapping[str, Any], previous: Mapping[str, Any]) -> str | None:
    """recall@10 of every system on every dataset's aggregates, last run against this one."""
    labels: list[str] = []
    before: list[float | None] = []
    now: list[float | None] = []
    earlier = {d["name"]: d for d in previous.get("datasets") or ()}
    for dataset in report.get("datasets") or ():
        old = earlier.get(dataset["name"])
        if old is None:
            continue
        old_systems = {s["system"]: s for s in old.get("systems") or ()}
        for split in _splits(dataset):
            for label in dataset.get("aggregates") or {}:
                for system in dataset.get("systems") or ():
                    value = _metric(system, split, label, METRIC)
                    if value is None:
                        continue
                    prior = old_systems.get(system["system"])
                    labels.append(f"{dataset['name']} {split} {label}: {system['system']}")
                    now.append(value)
                    before.append(_metric(prior, split, label, METRIC) if prior else None)
    if not labels:
        return None
    return bar_chart(
        "recall@10: the previous run against this one",
        labels,
        {"previous run": before, "this run": now},
        y_title="recall@10",
        horizontal=True,
    )


def _gates(report: Mapping[str, Any]) -> str:
    rows = "".join(
        "<tr>"
        + "".join(
            f"<td>{html.escape(str(g.get(k, '')))}</td>" for k in ("name", "status", "detail")
        )
        + "</tr>"
        for g in report.get("gates") or ()
    )
    return f"<table><tr><th>gate</th><th>status</th><th>detail</th></tr>{rows}</table>"


def render_eval_html(
    report: Mapping[str, Any],
    previous: Mapping[str, Any] | None = None,
    markdown: str = "",
) -> str:
    """The whole evaluation report as a self-contained HTML page."""
    sections: list[tuple[str, str]] = []
    for dataset in report.get("datasets") or ():
        if dataset.get("status") != "ran":
            sections.append((dataset["name"], note(f"not measured: {dataset.get('message', '')}")))
            continue
        body = "".join(figure(c) for c in quality_charts(dataset))
        latency = latency_chart(dataset)
        if latency:
            body += figure(latency)
        sections.append((dataset["name"], body))
    sections.append(("Hard gates", _gates(report)))
    if previous is None:
        compared = note("no previous eval-report.json to compare with")
    else:
        chart = comparison_chart(report, previous)
        compared = figure(chart) if chart else note("no figure in common with the previous run")
    sections.append(("Against the previous run", compared))
    if markdown:
        sections.append(("The report", preformatted(markdown)))
    source = (
        f"embedder {report.get('embedder', '?')} · policy "
        + ", ".join(_strings(report.get("retrieval_policy_versions")))
        + f" · {report.get('created_at', '')}"
    )
    return page("recallflow evaluation report", sections, source=source)


def _strings(values: Sequence[Any] | None) -> list[str]:
    return [str(v) for v in values or ()]


def previous_report(path: Path) -> dict[str, Any] | None:
    """The report a run is about to replace, if there is a readable one at ``path``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # none readable: nothing to compare with
        return None
    return data if isinstance(data, dict) else None


def write_eval_html(
    report: Mapping[str, Any], out: Path, previous: Mapping[str, Any] | None, markdown: str = ""
) -> Path:
    """Write ``eval-report.html`` into ``out`` (beside ``eval-report.json``)."""
    path = out / "eval-report.html"
    path.write_text(render_eval_html(report, previous, markdown), encoding="utf-8")
    return path
