"""The package's module graph has no import cycle: every module can be read, and loaded,
on its own terms (imports inside functions, made lazily for speed, are not part of it)."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "recallflow"


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_module_level_import_cycle() -> None:
    graph: nx.DiGraph[str] = nx.DiGraph()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("recallflow"):
                graph.add_edge(_module(path), str(node.module))
    cycles = [c for c in nx.simple_cycles(graph) if len(c) > 1]
    assert cycles == []
