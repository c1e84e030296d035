"""The command line: recall prints a block and a trace summary; graph writes the stages."""

from __future__ import annotations

from pathlib import Path

import pytest

from recallflow import Memory
from recallflow.cli import demo
from recallflow.cli.main import main
from tests.test_recall import demo_memory  # noqa: F401  (fixture)

CONTRACT_NODES = (
    "recall_queries",
    "hard_filter",
    "structured_hits",
    "lexical_hits",
    "trigram_hits",
    "semantic_hits",
    "external_hits",
    "graph_expanded_hits",
    "fused_candidates",
    "candidate_beliefs",
    "scored_candidates",
    "resolved_candidates",
    "above_floor",
    "trusted_items",
    "budgeted_items",
    "rendered_block",
    "recall_trace",
    "recall_result",
)


def test_graph_writes_every_stage_of_the_contract(tmp_path: Path) -> None:
    out = tmp_path / "stages.dot"
    assert main(["graph", "in_turn", "--out", str(out)]) == 0
    dot = out.read_text()
    for name in CONTRACT_NODES:
        assert f'"{name}" [label="{name}' in dot


def test_graph_renders_svg_without_a_system_graphviz(tmp_path: Path) -> None:
    pytest.importorskip("pygraphviz")
    out = tmp_path / "stages.svg"
    assert main(["graph", "in_turn", "--out", str(out)]) == 0
    assert out.read_text().lstrip().startswith(("<?xml", "<svg"))


def test_recall_prints_the_block_and_the_trace(
    demo_memory: Memory,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")  # the test store's embedder
    code = main(
        [
            "recall",
            "How are money amounts represented in cents?",
            "--dsn",
            demo_memory.uri,
            "--tenant",
            demo.TENANT,
            "--principal",
            demo.PRINCIPAL,
            "--project",
            demo.MOBILE,
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "<memory>" in out and "[b-mob-money]" in out
    assert "rendered_sha256" in out and "lexical_hits" in out


def test_trace_shows_the_user_view_and_the_operator_view_on_request(
    demo_memory: Memory,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    result = demo_memory.recall(
        {
            "tenant_id": demo.TENANT,
            "principal_id": demo.PRINCIPAL,
            "project": demo.MOBILE,
            "working_state": {"goal": "How are money amounts represented in cents?"},
        }
    )
    base = ["trace", result.trace_id, "--dsn", demo_memory.uri, "--tenant", demo.TENANT]
    base += ["--principal", demo.PRINCIPAL]
    assert main([*base, "--json"]) == 0
    user = capsys.readouterr().out
    assert '"belief_id": "b-mob-money"' in user
    assert "rrf_score" not in user and "latency_ms" not in user
    assert main([*base, "--view", "operator", "--json"]) == 0
    operator = capsys.readouterr().out
    assert "latency_ms" in operator and result.trace_id in operator
    assert main([*base[:-1], "someone-else"]) == 1
    assert "no trace" in capsys.readouterr().err
