"""Lineage moves when behaviour moves: a node's version covers the helpers and constants it
draws on, dag_version covers the search SQL and the policy, and an ablation's traces name
the policy it actually ranked with (see "The trace" in docs/architecture.md)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from recallflow.adapters.lifecycle.lineage import function_version, sources_digest
from recallflow.dataflows.runner import RecallFlow
from recallflow.policy import DEFAULT_POLICY, match_only

NODE = """
from tmp_pipeline.core import stage


def rendered(x: int) -> int:
    return stage.helper(x)
"""
CORE = """
LIMIT = {limit}


def helper(x: int) -> int:
    return min(x, LIMIT)
"""
SQL = """
LEXICAL = "SELECT id FROM beliefs WHERE {predicate}"
"""


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = tmp_path / "tmp_pipeline"
    for sub in ("", "core", "nodes"):
        (root / sub).mkdir(exist_ok=True)
        (root / sub / "__init__.py").write_text("")
    (root / "nodes" / "stage.py").write_text(NODE)
    (root / "core" / "stage.py").write_text(CORE.format(limit=3))
    (root / "search.py").write_text(SQL.format(predicate="statement @@ q"))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield root
    for name in [m for m in sys.modules if m.startswith("tmp_pipeline")]:
        del sys.modules[name]


def _fresh(name: str) -> ModuleType:
    for loaded in [m for m in sys.modules if m.startswith("tmp_pipeline")]:
        del sys.modules[loaded]
    importlib.invalidate_caches()
    return importlib.import_module(name)


def test_editing_a_constant_in_a_helper_module_moves_the_node_version(package: Path) -> None:
    before = function_version(_fresh("tmp_pipeline.nodes.stage").rendered)
    assert before == function_version(_fresh("tmp_pipeline.nodes.stage").rendered)
    (package / "core" / "stage.py").write_text(CORE.format(limit=4))
    after = function_version(_fresh("tmp_pipeline.nodes.stage").rendered)
    assert after != before


def test_editing_an_sql_string_moves_the_sql_digest(package: Path) -> None:
    before = sources_digest([_fresh("tmp_pipeline.search")])
    (package / "search.py").write_text(SQL.format(predicate="statement % q"))
    assert sources_digest([_fresh("tmp_pipeline.search")]) != before


def test_dag_version_moves_with_the_policy_and_ablations_name_their_own() -> None:
    base = RecallFlow(concurrent_arms=False)
    other = RecallFlow(
        concurrent_arms=False, policy=DEFAULT_POLICY.model_copy(update={"rrf_k": 61})
    )
    ablation = RecallFlow(concurrent_arms=False, policy=match_only(DEFAULT_POLICY))
    assert base.dag_version != other.dag_version
    assert ablation.policy.version == match_only(DEFAULT_POLICY).version != DEFAULT_POLICY.version
