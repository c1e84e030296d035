"""The Markdown rendering of an :class:`~recallflow.evaluation.runner.EvalReport`
(``eval-report.md``, written beside ``eval-report.json``).

Sections: versions (``retrieval_policy_version`` and DAG version, so two runs can be
compared), the hard gates, each dataset's headline tables per split (dev / test / all)
with the published anchor beside them, per-category tables, recallflow's block metrics,
the scenario metrics and per-request results, notes and timings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from recallflow.evaluation.results import MetricRow

if TYPE_CHECKING:
    from recallflow.evaluation.offtopic import OffTopicReport
    from recallflow.evaluation.reports import DatasetReport, EvalReport, SystemTable
    from recallflow.evaluation.scenarios import ScenarioSummary
    from recallflow.evaluation.sessions import SessionsReport

_SPLITS = ("dev", "test", "all")


def _f(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _row_cells(row: MetricRow | None) -> list[str]:
    if row is None:
        return ["–"] * 7
    return [
        str(row.n),
        _f(row.r5),
        _f(row.r10),
        _f(row.ndcg10),
        _f(row.mrr),
        _f(row.p50_ms, 1),
        _f(row.p95_ms, 1),
    ]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def _headline(dataset: DatasetReport, label: str, split: str) -> list[str]:
    header = ["system", "n", "R@5", "R@10", "nDCG@10", "MRR", "p50 ms", "p95 ms"]
    rows: list[list[str]] = []
    for table in dataset.systems:
        row = table.rows.get(split, {}).get(label)
        rows.append([table.system, *_row_cells(row)])
    if dataset.anchor is not None and split == "all":
        for anchor_row in dataset.anchor.rows:
            if anchor_row.label == label:
                v = anchor_row.values
                rows.append(
                    [
                        f"*{dataset.anchor.name}* (published)",
                        "1986",
                        _f(v.get("r5", 0) / 100),
                        _f(v.get("r10", 0) / 100),
                        "–",
                        "–",
                        "–",
                        "–",
                    ]
                )
    return _table(header, rows)


def _per_category(dataset: DatasetReport, table: SystemTable, split: str) -> list[str]:
    header = ["category", "n", "R@5", "R@10", "nDCG@10", "MRR", "p50 ms", "p95 ms"]
    labels = [*dataset.category_names.values(), *dataset.aggregates]
    rows = [[label, *_row_cells(table.rows.get(split, {}).get(label))] for label in labels]
    return _table(header, rows)


def _anchor(dataset: DatasetReport) -> list[str]:
    if dataset.anchor is None:
        return []
    lines = [f"**Published anchor: {dataset.anchor.name}.** {dataset.anchor.note}", ""]
    rows = [
        [r.label, _f(r.values.get("r5"), 1), _f(r.values.get("r10"), 1)]
        for r in dataset.anchor.rows
    ]
    return lines + _table(["category", "R@5 %", "R@10 %"], rows) + [""]


def _sizes(sizes: dict[int, int] | None) -> str:
    """``{0: 12, 1: 40, …}`` as ``0:12 1:40 …`` (items per block: how many blocks)."""
    return " ".join(f"{k}:{v}" for k, v in sorted((sizes or {}).items())) or "–"


def _blocks(dataset: DatasetReport) -> list[str]:
    lines: list[str] = []
    for table in dataset.systems:
        split_rows = []
        for split in _SPLITS:
            for label in dataset.aggregates:
                row = table.rows.get(split, {}).get(label)
                if row is not None and row.block_size is not None:
                    split_rows.append(
                        [
                            split,
                            label,
                            str(row.n),
                            _f(row.block_recall),
                            _f(row.block_precision),
                            _f(row.block_size, 2),
                            str(row.empty_blocks),
                            _f(row.floor_loss),
                            _sizes(row.block_sizes),
                        ]
                    )
        if split_rows:
            lines += [f"Rendered block of **{table.system}** (after floor and budget):", ""]
            header = [
                "split",
                "categories",
                "n",
                "block recall",
                "block precision",
                "mean items",
                "empty blocks",
                "evidence lost to the floor",
                "items per block: blocks",
            ]
            lines += [*_table(header, split_rows), ""]
    return lines


def _dataset(dataset: DatasetReport) -> list[str]:
    lines = [f"## {dataset.name}", ""]
    if dataset.status == "skipped":
        return [*lines, f"**Skipped:** {dataset.message}", ""]
    groups = "; ".join(f"{split}: {', '.join(keys)}" for split, keys in dataset.groups.items())
    lines += [
        f"Groups — {groups}. Questions evaluated: {dataset.cases}; skipped (no resolvable "
        f"evidence): {dataset.skipped_cases}.",
        "",
    ]
    for label in dataset.aggregates:
        for split in _SPLITS:
            if not any(split in t.rows for t in dataset.systems):
                continue
            lines += [f"### Categories {label}, split {split}", ""]
            lines += [*_headline(dataset, label, split), ""]
    lines += _anchor(dataset)
    lines += _blocks(dataset)
    lines += ["### Per category (split all)", ""]
    for table in dataset.systems:
        if "all" not in table.rows:
            continue
        note = f" — {table.note}" if table.note else ""
        lines += [f"**{table.system}**{note}", ""]
        lines += [*_per_category(dataset, table, "all"), ""]
    if dataset.notes:
        lines += ["Notes:", ""] + [f"- {n}" for n in dataset.notes] + [""]
    if dataset.timings_s:
        timing = ", ".join(f"{k} {v:.1f} s" for k, v in dataset.timings_s.items())
        lines += [f"Timings: {timing}.", ""]
    return lines


def _scenario_summary(summary: ScenarioSummary) -> list[str]:
    rows = [
        ["requests passed", f"{summary.passed} / {summary.requests}"],
        ["must-include recall", _f(summary.must_include_recall)],
        ["must-exclude violations (must be 0)", str(summary.must_exclude_violations)],
        ["block precision", _f(summary.block_precision)],
        ["transfer precision", _f(summary.transfer_precision)],
        [
            "transfer lift",
            _f(summary.transfer_lift) if summary.transfer_lift is not None else "not measured",
        ],
    ]
    lines = _table(["metric", "value"], rows)
    lines += ["", f"({summary.transfer_lift_note})", ""]
    detail = [
        [
            o.scenario,
            o.request,
            "pass" if o.passed else "FAIL",
            ", ".join(o.rendered) or "(empty)",
            "; ".join(o.failures) or "",
        ]
        for o in summary.outcomes
    ]
    return lines + _table(["scenario", "request", "result", "rendered", "failures"], detail)


def _offtopic(report: OffTopicReport) -> list[str]:
    if report.status != "ran":
        return [f"**{report.status}**: {report.message}", ""]
    lines = [
        f"{report.queries} queries × {len(report.targets)} principals; a recall passes when "
        "its block is empty.",
        "",
    ]
    rows = [[k.kind, str(k.recalls), str(k.passed), _f(k.pass_rate)] for k in report.kinds]
    rows.append(["all", str(report.recalls), str(report.passed), _f(report.pass_rate)])
    lines += _table(["principals", "recalls", "empty blocks", "pass rate"], rows)
    if report.failures:
        lines += ["", f"Non-empty blocks ({report.items_rendered} items in all):", ""]
        lines += _table(
            ["principal", "query", "rendered"],
            [[f.target, f.query, ", ".join(f.rendered)] for f in report.failures],
        )
    return [*lines, ""]


def _sessions(report: SessionsReport) -> list[str]:
    from recallflow.cli.budget import budget_table

    lines = [
        "## Sessions",
        "",
        "Scripted sessions (turns in the table), rows changed between turns (supersessions, "
        "retirements, a conflict and its resolution, new beliefs, sensitivity both ways, a "
        "retraction, a flag, a restatement, an expiry). Cached-prefix ratio = memory tokens "
        "served from the unchanged prefix ÷ all memory tokens sent; the rejected alternative "
        "re-injects the top-k (the session's caps) every turn and can reuse only the part of "
        "each block identical to the previous one from its first byte.",
        "",
    ]
    header = [
        "kind",
        "turns",
        "snapshot items",
        "prefix identical",
        "resumed (process / other process)",
        "corrections expected / rendered",
        "prefix tokens",
        "in-turn tokens",
        "cached-prefix ratio",
        "re-inject tokens",
        "re-inject cached ratio",
        "relevant snapshot items",
        "misses",
    ]
    rows = [
        [
            s.kind.value,
            str(s.turns),
            str(s.snapshot_items),
            f"{s.prefix_stable_turns}/{s.turns}",
            f"{'yes' if s.resumed_identical else 'NO'} / "
            f"{'yes' if s.other_process_identical else 'NO'}",
            f"{s.corrections_expected} / {s.corrections_rendered}",
            str(s.prefix_tokens),
            str(s.in_turn_tokens),
            _f(s.cached_prefix_ratio),
            str(s.reinject_tokens),
            _f(s.reinject_ratio),
            str(s.relevant),
            str(s.misses),
        ]
        for s in report.scripted
    ]
    lines += [*_table(header, rows), ""]
    totals = report.totals()
    lines += [
        f"Over all scripted sessions: cached-prefix ratio **{_f(totals['cached_prefix_ratio'])}**"
        f" ({totals['memory_tokens_sessions']:.0f} memory tokens sent, "
        f"{totals['uncached_tokens_sessions']:.0f} of them outside the cached prefix) against "
        f"**{_f(totals['reinject_ratio'])}** for re-injecting the top-k every turn "
        f"({totals['memory_tokens_reinject']:.0f} memory tokens sent, "
        f"{totals['uncached_tokens_reinject']:.0f} of them uncacheable).",
        "",
        "Snapshot budget over the scripted sessions (utilization = snapshot items a later turn "
        "found relevant ÷ snapshot items; per-turn utilization = the mean share of the snapshot "
        "one turn found relevant; miss rate = durable beliefs a turn rendered that the snapshot "
        "lacked ÷ durable beliefs the turns needed):",
        "",
        *budget_table(report.scripted_budget),
        "",
    ]
    if report.dataset is not None:
        lines += [
            f"### {report.dataset}: each group as a session",
            "",
            f"Snapshot at the group's start (opening goal: {report.opening_goal}); its questions "
            "as turns. The dataset holds no user-model or preference beliefs, so the snapshot is "
            "all priming set and no turn can miss a durable belief (miss rate n/a).",
            "",
        ]
        header = [
            "group",
            "snapshot items",
            "turns",
            "relevant",
            "utilization",
            "per-turn utilization",
            "needed cap",
            "prefix tokens",
            "in-turn tokens",
        ]
        rows = [
            [
                g.group,
                str(g.snapshot_items),
                str(g.turns),
                str(g.relevant),
                _f(g.utilization),
                _f(g.turn_utilization),
                str(g.needed_cap),
                str(g.prefix_tokens),
                str(g.in_turn_tokens),
            ]
            for g in report.groups
        ]
        lines += [*_table(header, rows), "", *budget_table(report.groups_budget), ""]
    return lines


def _joined(values: tuple[str, ...]) -> str:
    return ", ".join(values) or "n/a (no recall made)"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def degraded_line(report: EvalReport) -> str:
    """How many of the run's recalls ran degraded, and where (one line)."""
    degraded = report.degraded
    if degraded is None:
        return "degraded recalls: not counted"
    line = f"degraded recalls: {degraded.degraded} of {degraded.recalls}"
    if not degraded.degraded:
        return line
    parts = ", ".join(f"{part} {count}" for part, count in degraded.by_part.items())
    return (
        f"{line} ({parts}) — an arm or a stage failed or ran past its timeout, so these"
        " recalls are poorer than the code gives on an idle store; rerun on a quiet"
        " machine before comparing figures"
    )


def render_markdown(report: EvalReport) -> str:
    """The whole report as Markdown."""
    from recallflow.evaluation.gates import GateStatus

    status = "FAILED" if report.failed else "passed"
    lines = [
        "# recallflow evaluation report",
        "",
        f"- Created: {report.created_at.isoformat(timespec='seconds')}; "
        f"duration {report.duration_s:.1f} s; hard gates **{status}**",
        f"- retrieval_policy_version: {_joined(report.retrieval_policy_versions)}",
        f"- DAG version: {_joined(report.dag_versions)}",
        f"- Embedder: {report.embedder}; run tenant {report.run_tenant}",
        f"- Recall: {report.recall.note}",
        f"- {_sentence(degraded_line(report))}",
        "",
        "## Hard gates",
        "",
    ]
    marks = {
        GateStatus.PASS: "pass",
        GateStatus.FAIL: "**FAIL**",
        GateStatus.NOT_BUILT: "not built",
    }
    lines += _table(
        ["gate", "status", "detail"],
        [[g.name, marks[g.status], g.detail] for g in report.gates],
    )
    lines.append("")
    for dataset in report.datasets:
        lines += _dataset(dataset)
    lines += ["## Scenario suites", ""]
    scenarios = report.scenarios
    if scenarios.summary is None:
        lines += [f"**{scenarios.status}**: {scenarios.message}", ""]
        if scenarios.scenarios:
            lines += [f"Scenarios on file: {', '.join(scenarios.scenarios)}", ""]
    else:
        lines += [*_scenario_summary(scenarios.summary), ""]
    lines += ["## Off-topic suite", "", *_offtopic(report.offtopic)]
    if report.sessions is not None:
        lines += _sessions(report.sessions)
    return "\n".join(lines).rstrip() + "\n"


def _summary_rows(dataset: DatasetReport, split: str) -> list[list[str]]:
    headline = list(dataset.aggregates)[-1]
    rows: list[list[str]] = []
    for table in dataset.systems:
        by_label = table.rows.get(split, {})
        total = by_label.get(headline)
        if total is None:
            continue
        cells = [table.system, str(total.n), _f(total.r5), _f(total.r10), _f(total.mrr)]
        for name in dataset.category_names.values():
            row = by_label.get(name)
            cells.append("–" if row is None else f"{_f(row.r5)}/{_f(row.r10)}")
        cells.append(_f(total.p50_ms, 1))
        rows.append(cells)
    return rows


def render_summary(report: EvalReport) -> str:
    """Every figure of the run, compactly, for the terminal: per dataset and split the
    headline and per-category recall of every system with its p50 latency, the rendered
    block (recall, precision, size and its distribution), then the scenario and off-topic
    suites and the gates."""
    lines = [
        f"embedder {report.embedder}; policy {_joined(report.retrieval_policy_versions)}; "
        f"DAG {_joined(report.dag_versions)}",
    ]
    for dataset in report.datasets:
        if dataset.status != "ran":
            lines += ["", f"{dataset.name}: NOT MEASURED — {dataset.message}"]
            continue
        headline = list(dataset.aggregates)[-1]
        header = [
            "system",
            "n",
            f"R@5 {headline}",
            f"R@10 {headline}",
            "MRR",
            *[f"{name} R@5/R@10" for name in dataset.category_names.values()],
            "p50 ms",
        ]
        for split in _SPLITS:
            rows = _summary_rows(dataset, split)
            if rows:
                lines += ["", f"{dataset.name}, split {split}:", *_table(header, rows)]
        if dataset.anchor is not None:
            anchor = next((r for r in dataset.anchor.rows if r.label == headline), None)
            if anchor is not None:
                lines.append(
                    f"published {dataset.anchor.name}: R@5 {anchor.values.get('r5', 0) / 100:.3f}"
                    f" R@10 {anchor.values.get('r10', 0) / 100:.3f}"
                )
        lines += ["", *_blocks(dataset)]
    summary = report.scenarios.summary
    if summary is not None:
        lines.append(
            f"scenarios: {summary.passed}/{summary.requests} requests pass; must-include recall "
            f"{_f(summary.must_include_recall)}; must-exclude violations "
            f"{summary.must_exclude_violations}; block precision {_f(summary.block_precision)}"
        )
    else:
        lines.append(f"scenarios: NOT MEASURED — {report.scenarios.message}")
    off = report.offtopic
    if off.status == "ran":
        per_kind = ", ".join(f"{k.kind} {k.passed}/{k.recalls}" for k in off.kinds)
        lines.append(
            f"off-topic suite: {off.passed}/{off.recalls} empty blocks ({_f(off.pass_rate)}; "
            f"{per_kind}); {off.items_rendered} items rendered in all"
        )
    else:
        lines.append(f"off-topic suite: NOT MEASURED — {off.message}")
    for gate in report.gates:
        lines.append(f"gate {gate.name}: {gate.status.value} — {gate.detail}")
    lines.append(degraded_line(report))
    if report.degraded is not None:
        lines += [f"  {example}" for example in report.degraded.examples]
    return "\n".join(lines)
