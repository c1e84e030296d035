"""The floor's distances from the best item: how far under the best candidate that clears
a candidate may score and still be kept, by how much of the query its own evidence holds
(see "Relevance floor" in docs/architecture.md). Stage-level: the scores and the evidence
are given, the floor node decides."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from recallflow.core.floor import goal_parts
from recallflow.models.result import (
    ConfidenceBand,
    FusedCandidate,
    RelevanceEvidence,
    ScoreBreakdown,
)
from recallflow.models.stages import ScoredCandidate
from recallflow.nodes.floor import above_floor
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy
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


def _evidence(
    *, standing: float | None, coverage: float, clears: bool, support: float = 0.0
) -> RelevanceEvidence:
    return RelevanceEvidence(
        cosine=0.5,
        standing=standing,
        coverage=coverage,
        own=0.5,
        support=support,
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


def _with_odds(min_probability: float) -> RetrievalPolicy:
    odds = FLOOR.odds.model_copy(update={"min_probability": min_probability})
    return DEFAULT_POLICY.model_copy(update={"floor": FLOOR.model_copy(update={"odds": odds})})


#: The floor with its last cut off: the distances alone decide.
NO_CUT = _with_odds(0.0)


def _kept(
    candidates: dict[str, tuple[float, RelevanceEvidence]],
    policy: RetrievalPolicy = DEFAULT_POLICY,
    parts: int = 1,
) -> list[str]:
    units = tuple(_scored(i, score) for i, (score, _) in candidates.items())
    relevance = {i: ev for i, (_, ev) in candidates.items()}
    outcome = above_floor(
        units,
        relevance,
        policy,
        goal_parts=parts,
        query_keys=(),
        named_entities=(),
        profile_types=(),
    )
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
    two = {"best": (best, CLEARS), "part": (gap, STRONG), "other": (gap, CLEARS)}
    assert _kept(two, parts=2) == ["best", "part"]
    # Or holds most of the goal's rare words ("the user's drink and cup": the tea belief).
    words = {"best": (best, CLEARS), "words": (gap, STRONG_WORDS)}
    assert _kept(words, parts=2) == ["best", "words"]


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


# --- the last cut: the estimated odds that a candidate within the distances is evidence ---


def test_a_clear_single_answer_renders_fewer_items_than_a_question_whose_parts_score_close() -> (
    None
):
    best = 0.8
    # One turn answers; five more share the question's rare word and clear, but score well
    # under it (still within the distance): the distances alone keep all six.
    crowd = best - FLOOR.near_best * 0.9
    single = {"answer": (best, CLEARS)} | {
        f"echo-{i}": (crowd - i / 1000, CLEARS) for i in range(5)
    }
    # Four parts of one question, each close under the best.
    parts = {"part-0": (best, CLEARS)} | {f"part-{i}": (best - i / 100, CLEARS) for i in (1, 2, 3)}
    assert _kept(single, NO_CUT) == list(single)
    kept_single = _kept(single)
    kept_parts = _kept(parts)
    assert kept_single[0] == "answer"
    assert kept_parts == list(parts)
    assert len(kept_single) < len(kept_parts)


def test_a_reply_its_question_supports_is_kept_where_one_without_support_is_not() -> None:
    best = 0.8
    far = best - FLOOR.partial_near_best * 0.95  # within the distance, at the fourth place
    first = {
        "answer": (best, CLEARS),
        "next": (best - 0.01, CLEARS),
        "third": (best - 0.02, CLEARS),
    }
    alone = _evidence(standing=0.5, coverage=0.0, clears=False)
    replied = _evidence(standing=0.5, coverage=0.0, clears=False, support=1.0)
    assert "reply" not in _kept(first | {"reply": (far, alone)})
    assert "reply" in _kept(first | {"reply": (far, replied)})


def test_a_goal_that_lists_several_things_keeps_a_candidate_for_each() -> None:
    # "project name, release day, where the maintainer works and where the key is": the
    # belief that holds the key scores best, each other part's belief well under it.
    best = 0.63
    parts = {"key": (best, STRONG)} | {
        f"part-{i}": (best - FLOOR.strong_near_best * 0.6, STRONG) for i in (1, 2, 3)
    }
    goal = "Prepare the release: project name, release day, where she works and the key"
    assert goal_parts(goal) == 4
    assert _kept(parts, parts=goal_parts(goal)) == list(parts)
    # The same candidates for a question that asks one thing: the fourth is cut.
    assert _kept(parts, parts=1) != list(parts)


@pytest.mark.parametrize(
    ("goal", "parts"),
    [
        (None, 1),
        ("", 1),
        ("Where does the user deploy billing-api?", 1),
        ("What did Caroline and Melanie paint?", 2),
        ("Plan the trip: flights, hotel, a car or a train", 4),
    ],
)
def test_a_goal_counts_the_things_it_lists(goal: str | None, parts: int) -> None:
    assert goal_parts(goal) == parts


@given(
    st.lists(st.tuples(st.floats(0.0, 1.0), _KINDS), min_size=1, max_size=12),
    st.floats(0.0, 0.5),
    st.floats(0.0, 0.5),
)
def test_the_last_cut_only_removes_and_a_higher_bar_never_keeps_more(
    drawn: list[tuple[float, RelevanceEvidence]], low: float, high: float
) -> None:
    low, high = min(low, high), max(low, high)
    candidates = {f"b-{i}": pair for i, pair in enumerate(drawn)}
    within = _kept(candidates, NO_CUT)
    loose = _kept(candidates, _with_odds(low))
    strict = _kept(candidates, _with_odds(high))
    assert set(strict) <= set(loose) <= set(within)
    # A goal that lists more things never keeps fewer.
    assert set(strict) <= set(_kept(candidates, _with_odds(high), parts=3)) <= set(within)


def test_a_turn_that_mostly_asks_is_not_kept_beside_the_one_that_tells() -> None:
    # "What made you pick pottery?" matches a question about pottery as well as the turn
    # that answers it, and tells none of the answer: it stays out of the block, a turn
    # that tells and asks back ("I love pottery. Why?") does not.
    best = 0.7
    asks = CLEARS.model_copy(update={"asking": FLOOR.mostly_asking})
    asks_back = CLEARS.model_copy(update={"asking": FLOOR.mostly_asking / 2})
    candidates = {"tells": (best, CLEARS), "asks": (best, asks), "asks-back": (best, asks_back)}
    assert _kept(candidates) == ["tells", "asks-back"]
    off = DEFAULT_POLICY.model_copy(
        update={"floor": FLOOR.model_copy(update={"mostly_asking": 1.5})}
    )
    assert _kept(candidates, off) == ["tells", "asks", "asks-back"]


def test_a_mostly_asking_cut_at_share_zero_is_refused_by_name() -> None:
    # At 0 every candidate would "mostly ask" (a telling turn's share is 0) and every block
    # would be empty: the policy refuses it and names the field.
    raw = DEFAULT_POLICY.model_dump()
    raw["floor"]["mostly_asking"] = 0
    with pytest.raises(ValidationError, match="mostly_asking"):
        RetrievalPolicy.model_validate(raw)
