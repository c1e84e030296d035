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


def graph_nodes(driver: Any) -> tuple[dict[str, str], list[str], list[tuple[str, str]]]:
    """``driver``'s graph as drawn: the stage nodes (name → ``stage`` tag), the inputs
    some node uses (config values feed no node and are left out), and the edges
    (dependency, node), all sorted."""
    nodes = driver.graph.nodes
    used = {d.name for n in nodes.values() for d in n.dependencies}
    stages: dict[str, str] = {}
    inputs: list[str] = []
    for name in sorted(nodes):
        stage = nodes[name].tags.get("stage")
        if stage is not None:
            stages[name] = str(stage)
        elif name in used:
            inputs.append(name)
    edges = [
        (dep, name)
        for name in sorted(nodes)
        for dep in sorted(d.name for d in nodes[name].dependencies)
    ]
    return stages, inputs, edges


def stage_dot(driver: Any, trace: RecallTrace | None = None) -> str:
    """The DOT text of ``driver``'s graph, styled by stage (and timed by ``trace``)."""
    timings = {n.node: n.wall_ms for n in trace.lineage} if trace else {}
    lines = [
        "digraph recallflow {",
        '  rankdir=TB; node [shape=box, style="rounded,filled", fontname="Helvetica"];',
    ]
    stages, inputs, edges = graph_nodes(driver)
    for name in inputs:
        lines.append(f'  "{name}" [label="{name}", shape=ellipse, fillcolor="#ffffff"];')
    for name, stage in stages.items():
        label = f"{name}\\n[{stage}]"
        if name in timings:
            label += f"\\n{timings[name]:.2f} ms"
        lines.append(f'  "{name}" [label="{label}", fillcolor="{_COLOURS.get(stage, "#ffffff")}"];')
    for dep, name in edges:
        lines.append(f'  "{dep}" -> "{name}";')
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_dot(dot: str, out: Path) -> Path:
    """Write DOT text to ``out``: ``.dot`` as text, ``.svg``/``.png`` laid out by the
    Graphviz that the ``pygraphviz`` wheel bundles."""
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


def write_stage_graph(driver: Any, out: Path, trace: RecallTrace | None = None) -> Path:
    """Write the stage graph to ``out``: ``.dot`` as text, ``.svg``/``.png`` via pygraphviz."""
    return write_dot(stage_dot(driver, trace), out)
