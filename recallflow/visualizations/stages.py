"""Stage graphs of a moment's DAG: DOT always; SVG or PNG through the
``pygraphviz`` wheel (extra ``viz``), which bundles Graphviz, so no system package is
needed. Nodes are grouped and coloured by their ``stage`` tag and, when a trace is
given, labelled with their wall time in that recall.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from recallflow.errors import ConfigurationError
from recallflow.models.result import RecallTrace

_COLOURS = {
    "wiring": "#eeeeee",
    "query_forming": "#dbe9f6",
    "hard_filter": "#f8d7da",
    "arm": "#d4edda",
    "fusion": "#fff3cd",
    "candidates": "#fff3cd",
    "scoring": "#fde2c8",
    "resolution": "#fde2c8",
    "floor": "#e2d9f3",
    "trust": "#f8d7da",
    "budget": "#e2d9f3",
    "render": "#d1ecf1",
    "trace": "#d1ecf1",
    "result": "#d1ecf1",
}


def stage_dot(driver: Any, trace: RecallTrace | None = None) -> str:
    """The DOT text of ``driver``'s graph, styled by stage (and timed by ``trace``)."""
    timings = {n.node: n.wall_ms for n in trace.lineage} if trace else {}
    lines = [
        "digraph recallflow {",
        '  rankdir=TB; node [shape=box, style="rounded,filled", fontname="Helvetica"];',
    ]
    nodes = driver.graph.nodes
    used = {d.name for n in nodes.values() for d in n.dependencies}
    for name in sorted(nodes):
        node_ = nodes[name]
        stage = node_.tags.get("stage")
        if stage is None:
            if name in used:  # an input; config values feed no node and are left out
                lines.append(f'  "{name}" [label="{name}", shape=ellipse, fillcolor="#ffffff"];')
            continue
        label = f"{name}\\n[{stage}]"
        if name in timings:
            label += f"\\n{timings[name]:.2f} ms"
        lines.append(f'  "{name}" [label="{label}", fillcolor="{_COLOURS.get(stage, "#ffffff")}"];')
    for name in sorted(nodes):
        for dep in sorted(d.name for d in nodes[name].dependencies):
            lines.append(f'  "{dep}" -> "{name}";')
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_stage_graph(driver: Any, out: Path, trace: RecallTrace | None = None) -> Path:
    """Write the stage graph to ``out``: ``.dot`` as text, ``.svg``/``.png`` via pygraphviz."""
    dot = stage_dot(driver, trace)
    suffix = out.suffix.lower()
    if suffix in ("", ".dot", ".gv"):
        out.write_text(dot)
        return out
    try:
        import pygraphviz
    except ImportError as exc:
        raise ConfigurationError(
            "rendering SVG/PNG needs pygraphviz: pip install 'recallflow[viz]' (or write .dot)"
        ) from exc
    graph = pygraphviz.AGraph(string=dot)
    graph.draw(str(out), format=suffix.lstrip("."), prog="dot")
    return out
