"""The floor's distances from the best item: how far under the best candidate that clears
a candidate may score and still be kept, by how much of the query its own evidence holds
(see "Relevance floor" in docs/architecture.md). Stage-level: the scores and the evidence
are given, the floor node decides."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from recallflow.models.result import (
    ConfidenceBand,
    FusedCandidate,
    RelevanceEvidence,
    ScoreBreakdown,
)
from recallflow.models.stages import ScoredCandidate
from recallflow.nodes.floor import above_floor
from recallflow.policy import DEFAULT_POLICY
from tests.fakes import fake_belief

FLOOR = DEFAULT_POLICY.floor
WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def _scored(belief_id: str, score: float) -> ScoredCandidate:
    breakdown = ScoreBreakdown(
        match=0.0,
        confidence_state=0.0,
        corroboration=0.0,
        authority=0.0,
        scope_affinity=0.0,
        utility=0.0,
        penalties={},
        total=score,
    )
    return ScoredCandidate(
        belief=fake_belief(belief_id, f"statement {belief_id}", belief_id, WHEN),
        fused=FusedCandidate(belief_id=belief_id, rrf_score=0.01, arm_ranks={}),
        breakdown=breakdown,
        band=ConfidenceBand.HIGH,
        transferred=False,
    )


def _evidence(*, standing: float | None, coverage: float, clears: bool) -> RelevanceEvidence:
    return RelevanceEvidence(
        cosine=0.5,
        standing=standing,
        coverage=coverage,
        own=0.5,
        support=0.0,
        relevance=0.5,
        clears=clears,
    )


CLEARS = _evidence(standing=2.0, coverage=0.45, clears=True)
STRONG = _evidence(standing=FLOOR.strong_standing + 0.5, coverage=0.2, clears=True)
STRONG_WORDS = _evidence(standing=0.5, coverage=FLOOR.strong_coverage, clears=True)
PARTIAL = _evidence(standing=FLOOR.partial_standing + 0.1, coverage=0.0, clears=False)
NOTHING = _evidence(
    standing=FLOOR.partial_standing - 0.5, coverage=FLOOR.partial_coverage / 2, clears=False
)


def _kept(candidates: dict[str, tuple[float, RelevanceEvidence]]) -> list[str]:
    units = tuple(_scored(i, score) for i, (score, _) in candidates.items())
    relevance = {i: ev for i, (_, ev) in candidates.items()}
    outcome = above_floor(units, relevance, DEFAULT_POLICY)
    kept = [u.belief_id for u in outcome.kept if isinstance(u, ScoredCandidate)]
    assert sorted(kept + list(outcome.dropped_ids)) == sorted(candidates)
    return kept


def test_partial_evidence_is_kept_only_near_a_candidate_that_clears() -> None:
    best = 0.7
    near = best - FLOOR.partial_near_best / 2
    far = best - FLOOR.partial_near_best - 0.02
    assert _kept({"best": (best, CLEARS), "near": (near, PARTIAL), "far": (far, PARTIAL)}) == [
        "best",
        "near",
    ]
    # The same candidates with nothing that clears: the block is empty, however high the
    # partial evidence scores (an off-topic query stays empty).
    assert _kept({"near": (best, PARTIAL), "far": (far, PARTIAL)}) == []


def test_a_candidate_with_no_evidence_is_not_kept_even_at_the_best_score() -> None:
    assert _kept({"best": (0.7, CLEARS), "tied": (0.7, NOTHING)}) == ["best"]


def test_strong_evidence_is_kept_further_from_the_best_than_ordinary_evidence() -> None:
    # A goal naming several things: each part's belief stands far above unrelated text but
    # scores well under the belief that covers most of the goal.
    assert FLOOR.strong_near_best > FLOOR.near_best
    best = 0.7
    gap = best - (FLOOR.near_best + FLOOR.strong_near_best) / 2
    assert _kept({"best": (best, CLEARS), "part": (gap, STRONG), "other": (gap, CLEARS)}) == [
        "best",
        "part",
    ]
    # Or holds most of the goal's rare words ("the user's drink and cup": the tea belief).
    assert _kept({"best": (best, CLEARS), "words": (gap, STRONG_WORDS)}) == ["best", "words"]


_KINDS = st.sampled_from([PARTIAL, NOTHING, STRONG, CLEARS])


@given(st.lists(st.tuples(st.floats(0.0, 1.0), _KINDS), min_size=1, max_size=12))
def test_the_floor_keeps_nothing_when_nothing_clears_and_never_more_than_it_is_given(
    drawn: list[tuple[float, RelevanceEvidence]],
) -> None:
    candidates = {f"b-{i}": pair for i, pair in enumerate(drawn)}
    kept = _kept(candidates)
    assert kept == [i for i in candidates if i in kept]  # rank order is kept
    if not any(ev.clears and score >= FLOOR.score for score, ev in drawn):
        assert kept == []
    for i in kept:
        score, ev = candidates[i]
        assert score >= FLOOR.score
        assert ev is not NOTHING
