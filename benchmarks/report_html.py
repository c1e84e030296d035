"""The benchmark report as one self-contained HTML page: the Markdown report's figures as
charts (inline SVG), written next to the saved run's JSON by ``make bench``.

Charts: each tier's time per node and arm; ``moment:in_turn`` p50/p95 per tier against
the targets; each group's p50 from the smallest tier to the largest; and this run against
the previous saved one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchmarks.report import (
    IN_TURN,
    TARGET_IN_TURN_MS,
    Row,
    _lookup,
    _tiers,
    render,
    rows,
)
from recallflow.visualizations.charts import bar_chart, figure, line_chart, note, page, preformatted

#: Groups drawn across tiers and against the previous run: the whole recalls and the floor.
_HEADLINE = ("moment:", "floor", "peer:")


def node_charts(items: Sequence[Row]) -> list[str]:
    """One chart per tier: the p50 of every node and arm benchmark at that tier."""
    nodes = [r for r in items if r.group.startswith(("node:", "arm:"))]
    charts = []
    for tier in _tiers(nodes):
        at = sorted((r for r in nodes if r.tier == tier), key=lambda r: -r.p50_ms)
        charts.append(
            bar_chart(
                f"time per node and arm at {tier} (p50 ms)",
                [r.group for r in at],
                {"p50 ms": [r.p50_ms for r in at], "p95 ms": [r.p95_ms for r in at]},
                y_title="ms",
                horizontal=True,
            )
        )
    return charts


def target_chart(items: Sequence[Row]) -> str | None:
    """``moment:in_turn`` p50 and p95 per tier beside the targets of the tiers that have one."""
    tiers = [t for t in _tiers(items) if _lookup(items, IN_TURN, t)]
    if not tiers:
        return None
    targets = {t: (p50, p95) for t, p50, p95 in TARGET_IN_TURN_MS}
    found = [_lookup(items, IN_TURN, t) for t in tiers]
    return bar_chart(
        "in-turn recall against the targets (ms)",
        tiers,
        {
            "p50": [r.p50_ms if r else None for r in found],
            "target p50": [targets[t][0] if t in targets else None for t in tiers],
            "p95": [r.p95_ms if r else None for r in found],
            "target p95": [targets[t][1] if t in targets else None for t in tiers],
        },
        y_title="ms",
    )


def growth_chart(items: Sequence[Row]) -> str | None:
    """Each headline group's p50 across the tiers (1k → 100k and beyond)."""
    tiered = [r for r in items if r.tier != "-" and r.group.startswith(_HEADLINE)]
    tiers = _tiers(tiered)
    if len(tiers) < 2:
        return None
    series = {
        group: [(r.p50_ms if (r := _lookup(tiered, group, t)) else None) for t in tiers]
        for group in sorted({r.group for r in tiered})
    }
    return line_chart("p50 growth with the store (ms)", tiers, series, y_title="ms")


def comparison_chart(items: Sequence[Row], previous: Sequence[Row]) -> str | None:
    """This run's p50 against the previous run's, per headline group and tier."""
    keys = sorted(
        {(r.group, r.tier) for r in items if r.group.startswith(_HEADLINE)}
        & {(r.group, r.tier) for r in previous}
    )
    if not keys:
        return None
    before = [(r.p50_ms if (r := _lookup(previous, g, t)) else None) for g, t in keys]
    now = [(r.p50_ms if (r := _lookup(items, g, t)) else None) for g, t in keys]
    return bar_chart(
        "this run against the previous one (p50 ms)",
        [f"{g} @ {t}" for g, t in keys],
        {"previous run": before, "this run": now},
        y_title="ms",
        horizontal=True,
    )


def render_html(
    run: dict[str, Any], source: str = "", previous: dict[str, Any] | None = None
) -> str:
    """The whole report as a self-contained HTML page."""
    items = rows(run)
    sections: list[tuple[str, str]] = []
    targets = target_chart(items)
    sections.append(
        ("Targets", figure(targets) if targets else note("no in-turn benchmarks in this run"))
    )
    nodes = node_charts(items)
    sections.append(
        (
            "Time per node and arm, per tier",
            "".join(figure(c) for c in nodes) or note("no node or arm benchmarks in this run"),
        )
    )
    growth = growth_chart(items)
    sections.append(
        ("Growth across tiers", figure(growth) if growth else note("only one tier in this run"))
    )
    if previous is None:
        compared = note("no previous saved run to compare with")
    else:
        chart = comparison_chart(items, rows(previous))
        compared = figure(chart) if chart else note("no benchmark in common with the previous run")
    sections.append(("Against the previous run", compared))
    sections.append(("The report", preformatted(render(run, source))))
    return page("recallflow benchmark report", sections, source=source)
