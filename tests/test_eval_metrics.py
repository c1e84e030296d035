"""The harness's metric code against hand-computed values, and the
LoCoMo helpers (the evidence-id repair, session times, turn text)."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from recallflow.evaluation.locomo import parse_session_time, repair_evidence_ids, turn_text
from recallflow.evaluation.metrics import (
    ndcg_at_k,
    percentile,
    recall_at_k,
    reciprocal_rank,
    rrf_fuse,
    rrf_scores,
)
from recallflow.evaluation.results import outcome, summarise


def test_recall_at_k_is_the_fraction_of_relevant_in_top_k() -> None:
    ranked = ["a", "b", "c", "d", "e"]
    relevant = {"b", "e", "x"}
    assert recall_at_k(ranked, relevant, 1) == 0.0
    assert recall_at_k(ranked, relevant, 2) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, relevant, 5) == pytest.approx(2 / 3)
    assert recall_at_k(ranked, relevant, 50) == pytest.approx(2 / 3)
    assert recall_at_k(ranked, set(), 5) == 0.0


def test_ndcg_uses_binary_gains_and_the_ideal_ordering() -> None:
    # relevant at ranks 2 and 3: DCG = 1/log2(3) + 1/log2(4); IDCG = 1 + 1/log2(3)
    dcg = 1 / math.log2(3) + 1 / math.log2(4)
    idcg = 1 + 1 / math.log2(3)
    assert ndcg_at_k(["a", "b", "c"], {"b", "c"}, 10) == pytest.approx(dcg / idcg)
    assert ndcg_at_k(["b", "c", "a"], {"b", "c"}, 10) == pytest.approx(1.0)
    # only one relevant fits in k = 1, so the ideal is 1 relevant at rank 1
    assert ndcg_at_k(["b", "c"], {"b", "c", "d"}, 1) == pytest.approx(1.0)
    assert ndcg_at_k(["a", "b"], {"b"}, 1) == 0.0
    # 3 relevant, one found at rank 2: (1/log2 3) / (1 + 1/log2 3 + 1/2)
    assert ndcg_at_k(["a", "b"], {"b", "x", "y"}, 10) == pytest.approx(
        (1 / math.log2(3)) / (1 + 1 / math.log2(3) + 0.5)
    )


def test_reciprocal_rank_is_over_the_full_ranking() -> None:
    assert reciprocal_rank(["a", "b", "c"], {"c"}) == pytest.approx(1 / 3)
    assert reciprocal_rank(["a", "b", "c"], {"b", "c"}) == pytest.approx(1 / 2)
    assert reciprocal_rank([f"n{i}" for i in range(99)] + ["r"], {"r"}) == pytest.approx(0.01)
    assert reciprocal_rank(["a"], {"z"}) == 0.0


def test_rrf_fuses_with_k_60_and_breaks_ties_by_id() -> None:
    scores = dict(rrf_scores([["a", "b", "c"], ["c", "a", "d"]]))
    assert scores["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert scores["b"] == pytest.approx(1 / 62)
    assert scores["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert scores["d"] == pytest.approx(1 / 63)
    assert rrf_fuse([["a", "b", "c"], ["c", "a", "d"]]) == ["a", "c", "b", "d"]
    # equal scores: id order decides
    assert rrf_fuse([["y"], ["x"]]) == ["x", "y"]
    assert rrf_fuse([["a", "b"]], k=1) == ["a", "b"]


def test_percentile_interpolates_linearly() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == pytest.approx(2.5)
    assert percentile([1.0, 2.0, 3.0, 4.0], 95) == pytest.approx(3.85)
    assert percentile([7.0], 95) == 7.0
    assert percentile([], 50) == 0.0


def test_summarise_means_per_question_and_scores_blocks() -> None:
    a = outcome(
        system="s",
        group="g",
        split="dev",
        category=1,
        case_id="q1",
        ranked=["x", "r1"],
        relevant=["r1"],
        ms=10.0,
        rendered=["x", "r1"],
    )
    b = outcome(
        system="s",
        group="g",
        split="dev",
        category=1,
        case_id="q2",
        ranked=["r2"],
        relevant=["r2", "r3"],
        ms=30.0,
        rendered=[],
    )
    assert (a.r5, a.mrr) == (1.0, 0.5)
    assert (b.r5, b.mrr) == (0.5, 1.0)
    row = summarise([a, b])
    assert row is not None
    assert row.n == 2
    assert row.r5 == pytest.approx(0.75)
    assert row.mrr == pytest.approx(0.75)
    assert row.p50_ms == pytest.approx(20.0)
    assert row.block_recall == pytest.approx(0.5)  # (1 + 0) / 2
    assert row.block_precision == pytest.approx(0.5)  # only the non-empty block counts
    assert row.empty_blocks == 1
    assert summarise([]) is None


def test_evidence_ids_are_repaired_by_the_one_documented_function() -> None:
    assert repair_evidence_ids(["D1:3"]) == ("D1:3",)
    assert repair_evidence_ids(["D8:6; D9:17"]) == ("D8:6", "D9:17")
    assert repair_evidence_ids(["D9:1 D4:4 D4:6"]) == ("D9:1", "D4:4", "D4:6")
    assert repair_evidence_ids(["D30:05"]) == ("D30:5",)
    assert repair_evidence_ids(["D:11:26"]) == ("D11:26",)
    assert repair_evidence_ids(["D", ""]) == ()
    assert repair_evidence_ids(["D1:3", "D1:03"]) == ("D1:3",)


def test_session_times_and_turn_text() -> None:
    assert parse_session_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_session_time("10:04 am on 19 December, 2023").hour == 10
    with pytest.raises(ValueError):
        parse_session_time("yesterday")
    turn = {"speaker": "Ann", "dia_id": "D1:1", "text": "Look!", "blip_caption": "a cat"}
    assert turn_text(turn) == "Ann: Look! [image: a cat]"
    assert turn_text({"speaker": "Bo", "text": "Hi"}) == "Bo: Hi"
