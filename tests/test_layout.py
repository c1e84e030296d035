"""The package's module graph has no import cycle: every module can be read, and loaded,
on its own terms (imports inside functions, made lazily for speed, are not part of it)."""

from __future__ import annotations

import ast
import re
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


#: A statement's first word and a word it needs, as SQL writes them (upper case).
_STATEMENT = re.compile(
    r"^\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|DROP|ALTER|TRUNCATE|ANALYZE|VACUUM)\b"
    r".*\b(?:FROM|INTO|SET|TABLE|DATABASE|INDEX|AS|VALUES)\b",
    re.DOTALL,
)


def _sql_outside_adapters() -> list[str]:
    found: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "adapters":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            where = f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', 0)}"
            if (
                isinstance(node, ast.ImportFrom)
                and node.module == "psycopg"
                and any(alias.name == "sql" for alias in node.names)
            ):
                found.append(f"{where}: imports psycopg.sql")
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and _STATEMENT.match(node.value)
            ):
                found.append(f"{where}: {node.value[:40]!r}")
    return found


def test_sql_is_written_only_in_the_adapters() -> None:
    """Statements live in ``recallflow/adapters/`` (and the migrations), where each is
    parameterized and keyed by its tenant and principal in one place to read; a stage, a
    command or the evaluation asks a port."""
    assert _sql_outside_adapters() == []
