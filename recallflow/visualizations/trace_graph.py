"""Where one stored recall spent its time: the stage graph of the DAG that served it, each
node labelled with its measured wall time and the rows it produced, and coloured by its
share of the recall's node time; degraded and skipped arms are marked (see "The trace" in
docs/architecture.md).

The graph's shape comes from the DAG rebuilt for the trace's moment, policy and experiment
(config switches and replacement modules); the numbers come only from the trace. A node
the trace ran that the rebuilt DAG lacks is drawn too, marked, so nothing measured is ever
left out; a node of the DAG the trace did not run is drawn dashed as "not run".
"""

from __future__ import annotations

import json
from typing import Any

from recallflow.models.result import Arm, RecallTrace

#: Fill colours by share of the recall's node time, lightest first (ColorBrewer YlOrRd).
SHARE_COLOURS = ("#ffffcc", "#ffeda0", "#fed976", "#feb24c", "#fd8d3c", "#f03b20", "#bd0026")
#: The upper bounds of the shares each colour stands for (the last is everything above).
SHARE_BOUNDS = (0.01, 0.03, 0.06, 0.10, 0.20, 0.35)
_DEGRADED = "#d62728"
_NOT_RUN = "#bbbbbb"


def share_colour(share: float) -> str:
    """The fill colour of a node taking ``share`` (0..1) of the recall's node time."""
    for bound, colour in zip(SHARE_BOUNDS, SHARE_COLOURS, strict=False):
        if share <= bound:
            return colour
    return SHARE_COLOURS[-1]


def _text_colour(fill: str) -> str:
    return "#ffffff" if fill in SHARE_COLOURS[-2:] else "#000000"


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _attr(key: str, value: str) -> str:
    return f'{key}="' + _quote(value).replace("\n", "\\n") + '"'


def row_counts(trace: RecallTrace) -> dict[str, str]:
    """What each stage produced, in the trace's own numbers, by node name."""
    ranked = len(trace.ranked_ids)
    rows = {
        "recall_queries": f"{len(trace.queries)} queries",
        "fused_candidates": f"{len(trace.fused)} fused",
        "candidate_beliefs": f"{len(trace.fused)} candidates",
        "scored_candidates": f"{len(trace.scored)} scored",
        "resolved_candidates": f"{ranked} ranked",
        "above_floor": f"{ranked - trace.floor_dropped} kept, {trace.floor_dropped} below floor",
        "trusted_items": f"{trace.blocked} blocked, {trace.redacted} redacted",
        "budgeted_items": f"{len(trace.rendered_ids)} kept, {trace.budget_dropped} over budget",
        "rendered_block": f"{len(trace.rendered_ids)} items, {trace.rendered_tokens} tokens",
    }
    if trace.session_id is not None and trace.snapshot is None:  # a session turn
        rows["budgeted_corrections"] = (
            f"{len(trace.corrections)} told, {trace.corrections_deferred} wait,"
            f" {trace.corrections_tokens} tokens"
        )
    for arm in trace.arms:
        rows[arm.arm.value] = f"{len(arm.hits)} hits"
    return rows


def trace_dot(driver: Any, trace: RecallTrace) -> str:
    """The DOT text of ``driver``'s graph annotated with ``trace``'s measurements."""
    from recallflow.visualizations.stages import graph_nodes

    lineage = {n.node: n for n in trace.lineage}
    total = sum(n.wall_ms for n in trace.lineage) or 1.0
    rows = row_counts(trace)
    arms = {a.arm.value: a for a in trace.arms}
    arm_nodes = {a.value for a in Arm}
    stages, inputs, edges = graph_nodes(driver)
    lines = [
        "digraph recall_trace {",
        '  rankdir=TB; node [shape=box, style="rounded,filled", fontname="Helvetica",'
        ' fontsize=11]; edge [color="#888888"];',
        f'  labelloc=t; fontname="Helvetica"; label="{_quote(_title(trace, total))}";',
    ]
    for name in inputs:
        lines.append(f'  "{name}" [label="{name}", shape=ellipse, fillcolor="#ffffff"];')
    drawn = set(inputs)
    for name, stage in [*stages.items(), *((n, "?") for n in lineage if n not in stages)]:
        if name in drawn:
            continue
        drawn.add(name)
        label = [name, f"[{stage}]"]
        attrs: dict[str, str] = {}
        run = lineage.get(name)
        if run is None:
            skipped = name in arm_nodes and name not in arms
            label.append("skipped arm" if skipped else "not run")
            attrs.update(style="rounded,dashed", color=_NOT_RUN, fontcolor="#777777")
        else:
            share = run.wall_ms / total
            fill = share_colour(share)
            label.append(f"{run.wall_ms:.2f} ms ({share:.0%})")
            attrs.update(fillcolor=fill, fontcolor=_text_colour(fill))
            if not run.ok:
                label.append(f"FAILED: {(run.error or '')[:40]}")
                attrs.update(color=_DEGRADED, penwidth="3")
        if name in rows:
            label.append(rows[name])
        arm = arms.get(name)
        if arm is not None and not arm.ok:
            label.append(f"DEGRADED: {(arm.error or '')[:40]}")
            attrs.update(color=_DEGRADED, penwidth="3")
        if stage == "?":
            label.append("(not in the rebuilt DAG)")
            attrs.setdefault("color", _DEGRADED)
        attrs["label"] = "\n".join(label)
        attrs["tooltip"] = name
        lines.append(f'  "{name}" [' + ", ".join(_attr(k, v) for k, v in attrs.items()) + "];")
    for dep, name in edges:
        lines.append(f'  "{dep}" -> "{name}";')
    lines.extend(_legend())
    lines.append("}")
    return "\n".join(lines) + "\n"


def _title(trace: RecallTrace, total: float) -> str:
    experiment = f"  experiment {trace.experiment.name}" if trace.experiment else ""
    degraded = (
        "  degraded: " + ", ".join(a.value for a in trace.degraded_arms)
        if trace.degraded_arms
        else ""
    )
    return (
        f"trace {trace.id}  {trace.moment.value}  {total:.2f} ms of node time  "
        f"policy {trace.retrieval_policy_version}  dag {trace.dag_version}{experiment}{degraded}"
    )


def _legend() -> list[str]:
    cells = []
    low = 0.0
    for bound, colour in zip((*SHARE_BOUNDS, 1.0), SHARE_COLOURS, strict=True):
        cells.append(
            f'<TD BGCOLOR="{colour}"><FONT COLOR="{_text_colour(colour)}">'
            f"{low:.0%}–{bound:.0%}</FONT></TD>"
        )
        low = bound
    table = (
        '<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0"><TR><TD>share of node time</TD>'
        + "".join(cells)
        + f'<TD COLOR="{_DEGRADED}">degraded</TD><TD STYLE="dashed">not run / skipped</TD>'
        "</TR></TABLE>>"
    )
    return [f'  "legend" [shape=plaintext, style="", label={table}];']


def experiment_inputs(trace: RecallTrace) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The config switches and replacement module names of the experiment that served
    ``trace`` (empty when it was the library's DAG)."""
    if trace.experiment is None:
        return {}, ()
    config = {k: json.loads(v) for k, v in trace.experiment.config.items()}
    return config, trace.experiment.modules


def trace_driver(trace: RecallTrace, policy: Any = None) -> Any:
    """The DAG that served ``trace``, rebuilt: its moment, its experiment's config and the
    replacement modules that can still be imported."""
    import importlib

    from recallflow.dataflows.snapshot import build
    from recallflow.policy import DEFAULT_POLICY

    config, module_names = experiment_inputs(trace)
    modules = []
    for name in module_names:
        try:
            modules.append(importlib.import_module(name))
        except ImportError:
            continue  # its nodes are still drawn from the lineage, marked
    return build(
        trace.moment,
        config or None,
        policy=policy or DEFAULT_POLICY,
        extra_modules=tuple(modules),
    )
