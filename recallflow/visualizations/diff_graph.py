"""What an experiment changed, as one picture: two sides — two policies, two module sets,
or two stored traces — drawn over the union of their stage graphs (see "Experiments" in
docs/architecture.md).

A node only one side has is drawn as added or removed; a node both have whose function
differs (another module or another source version) as swapped; the config that differs
(policy fields, experiment switches) is listed in a table; and for two traces, each node's
latency on both sides and the items gained, lost and moved in rank.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from recallflow.models.result import RecallTrace

_ADDED = "#c7e9c0"
_REMOVED = "#fcbba1"
_SWAPPED = "#fdd49e"
_SAME = "#f7f7f7"
#: At most this many rows of a table (config fields, items) are drawn; the rest are counted.
TABLE_ROWS = 30


@dataclass(frozen=True)
class DiffSide:
    """One side of a diff: a built DAG and what produced it."""

    label: str
    driver: Any
    policy: Any = None
    config: Mapping[str, Any] = field(default_factory=dict)
    trace: RecallTrace | None = None


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(_flat(v, f"{prefix}{k}."))
        return out
    return {prefix.rstrip("."): value}


def config_changes(a: DiffSide, b: DiffSide) -> list[tuple[str, Any, Any]]:
    """The policy fields and experiment switches that differ: (path, A's value, B's)."""
    left: dict[str, Any] = {}
    right: dict[str, Any] = {}
    if a.policy is not None and b.policy is not None:
        left.update(_flat(a.policy.model_dump(mode="json"), "policy."))
        right.update(_flat(b.policy.model_dump(mode="json"), "policy."))
    left.update({f"config.{k}": v for k, v in a.config.items()})
    right.update({f"config.{k}": v for k, v in b.config.items()})
    return [
        (path, left.get(path, "–"), right.get(path, "–"))
        for path in sorted(left.keys() | right.keys())
        if left.get(path) != right.get(path)
    ]


def item_changes(a: RecallTrace, b: RecallTrace) -> dict[str, list[str]]:
    """Items gained (rendered by B only), lost (by A only) and moved (``id a→b``, ranks
    1-based in the rendered order)."""
    rank_a = {i: n for n, i in enumerate(a.rendered_ids, start=1)}
    rank_b = {i: n for n, i in enumerate(b.rendered_ids, start=1)}
    return {
        "gained": [f"{i} (#{rank_b[i]})" for i in b.rendered_ids if i not in rank_a],
        "lost": [f"{i} (#{rank_a[i]})" for i in a.rendered_ids if i not in rank_b],
        "moved": [
            f"{i} #{rank_a[i]}→#{rank_b[i]}"
            for i in b.rendered_ids
            if i in rank_a and rank_a[i] != rank_b[i]
        ],
    }


def _identities(side: DiffSide) -> dict[str, tuple[str, str]]:
    from recallflow.adapters.lifecycle.lineage import node_identity

    return {name: node_identity(n) for name, n in side.driver.graph.nodes.items()}


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _table(title: str, rows: Sequence[tuple[str, ...]], colour: str) -> str:
    shown = rows[:TABLE_ROWS]
    width = max((len(r) for r in shown), default=1)
    body = "".join(
        "<TR>" + "".join(f'<TD ALIGN="LEFT">{html.escape(str(c))}</TD>' for c in r) + "</TR>"
        for r in shown
    )
    if len(rows) > TABLE_ROWS:
        body += f'<TR><TD COLSPAN="{width}">… and {len(rows) - TABLE_ROWS} more</TD></TR>'
    if not rows:
        body = f'<TR><TD COLSPAN="{width}">none</TD></TR>'
    return (
        f'<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" BGCOLOR="{colour}">'
        f'<TR><TD COLSPAN="{width}"><B>{html.escape(title)}</B></TD></TR>{body}</TABLE>>'
    )


def diff_dot(a: DiffSide, b: DiffSide) -> str:
    """The DOT text of the diff of ``a`` (before) and ``b`` (after)."""
    from recallflow.visualizations.stages import graph_nodes

    stages_a, inputs_a, edges_a = graph_nodes(a.driver)
    stages_b, inputs_b, edges_b = graph_nodes(b.driver)
    ident_a, ident_b = _identities(a), _identities(b)
    wall_a = {n.node: n.wall_ms for n in a.trace.lineage} if a.trace else {}
    wall_b = {n.node: n.wall_ms for n in b.trace.lineage} if b.trace else {}
    lines = [
        "digraph recall_diff {",
        '  rankdir=TB; node [shape=box, style="rounded,filled", fontname="Helvetica",'
        ' fontsize=11]; edge [color="#888888"];',
        f'  labelloc=t; fontname="Helvetica"; label="{_quote(f"A: {a.label}   B: {b.label}")}";',
    ]
    for name in sorted(set(inputs_a) | set(inputs_b)):
        lines.append(f'  "{name}" [label="{name}", shape=ellipse, fillcolor="#ffffff"];')
    counts = {"added": 0, "removed": 0, "swapped": 0}
    for name in sorted(stages_a.keys() | stages_b.keys()):
        stage = stages_b.get(name) or stages_a[name]
        label = [name, f"[{stage}]"]
        style = "rounded,filled"
        if name not in stages_a:
            fill, what = _ADDED, "added (B only)"
            counts["added"] += 1
        elif name not in stages_b:
            fill, what = _REMOVED, "removed (A only)"
            style = "rounded,filled,dashed"
            counts["removed"] += 1
        elif ident_a[name] != ident_b[name]:
            fill = _SWAPPED
            module_a, module_b = ident_a[name][0], ident_b[name][0]
            what = (
                f"swapped: {module_a} → {module_b}"
                if module_a != module_b
                else "swapped: another version"
            )
            counts["swapped"] += 1
        else:
            fill, what = _SAME, ""
        if what:
            label.append(what)
        if name in wall_a or name in wall_b:
            ms_a = f"{wall_a[name]:.2f}" if name in wall_a else "–"
            ms_b = f"{wall_b[name]:.2f}" if name in wall_b else "–"
            label.append(f"{ms_a} → {ms_b} ms")
        lines.append(
            f'  "{name}" [label="{_quote(chr(10).join(label))}", fillcolor="{fill}",'
            f' style="{style}", tooltip="{_quote(name)}"];'
        )
    edges_in_a, edges_in_b = set(edges_a), set(edges_b)
    for dep, name in sorted(edges_in_a | edges_in_b):
        colour = "" if (dep, name) in edges_in_a & edges_in_b else ', color="#d62728"'
        lines.append(f'  "{dep}" -> "{name}" [{colour.lstrip(", ")}];')
    changes = config_changes(a, b)
    lines.append(
        '  "config changes" [shape=plaintext, style="", label='
        + _table(
            f"config differing ({len(changes)})",
            [(p, _short(x), _short(y)) for p, x, y in changes],
            "#ffffff",
        )
        + "];"
    )
    if a.trace is not None and b.trace is not None:
        items = item_changes(a.trace, b.trace)
        for kind, colour in (("gained", _ADDED), ("lost", _REMOVED), ("moved", _SWAPPED)):
            rows = [(i,) for i in items[kind]]
            lines.append(
                f'  "items {kind}" [shape=plaintext, style="", label='
                + _table(f"items {kind} ({len(rows)})", rows, colour)
                + "];"
            )
    summary = ", ".join(f"{n} {k}" for k, n in counts.items())
    lines.append(f'  "summary" [shape=plaintext, style="", label="{_quote("nodes: " + summary)}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _short(value: Any, limit: int = 60) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
