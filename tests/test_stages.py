"""Pure stages on hand-built inputs: fusion, query forming, ranking, floor, budget and
rendering (no database)."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recallflow.adapters.tokens import default_token_counter
from recallflow.core.calibration import CalibrationRef
from recallflow.core.corrections import SHOWS_STATEMENT, render_corrections
from recallflow.core.floor import estimate_place
from recallflow.core.fusion import reciprocal_rank_fusion
from recallflow.core.query_forming import MAX_QUERIES, DeterministicQueryFormer
from recallflow.core.relevance import _clamp, candidate_relevance
from recallflow.core.render import render_block
from recallflow.core.scoring import score_candidate, score_candidates
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.result import (
    Arm,
    ArmHit,
    ArmResult,
    ConfidenceBand,
    Correction,
    CorrectionKind,
    CorrectionPeer,
    FusedCandidate,
    RecalledItem,
)
from recallflow.models.stages import (
    CandidateEvidence,
    ConflictGroup,
    EvidenceSet,
    RenderUnit,
    ScoredCandidate,
    TextCoverage,
    TrustOutcome,
)
from recallflow.models.store import Belief
from recallflow.nodes.budget import budgeted_corrections, budgeted_items
from recallflow.nodes.floor import above_floor
from recallflow.policy import DEFAULT_POLICY, Floor, FloorOdds

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def _arm(name: Arm, ids: list[str], error: str | None = None) -> ArmResult:
    hits = tuple(ArmHit(belief_id=i, rank=r, raw_score=0.0) for r, i in enumerate(ids, start=1))
    return ArmResult(arm=name, hits=hits, error=error)


def test_rrf_matches_a_hand_computation() -> None:
    fused = reciprocal_rank_fusion(
        [
            _arm(Arm.LEXICAL, ["x", "y", "z"]),
            _arm(Arm.SEMANTIC, ["y", "x"]),
            _arm(Arm.TRIGRAM, ["z"]),
        ],
        k=60,
    )
    # x: 1/61 + 1/62; y: 1/62 + 1/61; z: 1/63 + 1/61. x and y tie: id order breaks it.
    expected = {"x": 1 / 61 + 1 / 62, "y": 1 / 62 + 1 / 61, "z": 1 / 63 + 1 / 61}
    assert [c.belief_id for c in fused] == ["x", "y", "z"]
    for c in fused:
        assert c.rrf_score == pytest.approx(expected[c.belief_id], abs=1e-12)
    assert fused[2].arm_ranks == {Arm.LEXICAL: 3, Arm.TRIGRAM: 1}


def test_a_failed_arm_contributes_nothing_to_fusion() -> None:
    fused = reciprocal_rank_fusion(
        [_arm(Arm.LEXICAL, ["x"]), _arm(Arm.SEMANTIC, ["y"], error="boom")], k=60
    )
    assert [c.belief_id for c in fused] == ["x"]


def test_adding_an_arm_needs_no_change_to_fusion() -> None:
    arms = [_arm(Arm.LEXICAL, ["x", "y"]), _arm(Arm.SEMANTIC, ["y"])]
    two = reciprocal_rank_fusion(arms, k=60)
    three = reciprocal_rank_fusion([*arms, _arm(Arm.EXTERNAL, ["x"])], k=60)
    assert [c.belief_id for c in two] == ["y", "x"]
    assert [c.belief_id for c in three] == ["x", "y"]


def _text(max_size: int) -> st.SearchStrategy[str]:
    """Any text a working state accepts (a NUL or a lone surrogate is refused)."""
    return st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=max_size)


states = st.builds(
    WorkingState,
    goal=st.one_of(st.none(), _text(200)),
    query=st.one_of(st.none(), _text(100)),
    entities=st.lists(_text(20), max_size=10).map(tuple),
    files=st.lists(_text(30), max_size=5).map(tuple),
    tools=st.lists(_text(15), max_size=5).map(tuple),
    recent_turns=st.lists(_text(80), max_size=4).map(tuple),
)


@given(states)
def test_query_forming_is_deterministic_small_and_deduplicated(state: WorkingState) -> None:
    former = DeterministicQueryFormer()
    first, second = former.form(state), DeterministicQueryFormer().form(state.model_copy())
    assert first == second
    assert len(first) <= MAX_QUERIES
    texts = [q.text.lower() for q in first if q.kind == "text"]
    assert len(texts) == len(set(texts))
    for q in first:
        assert len(q.keys) == len(set(q.keys))


def test_queries_come_from_the_working_state_not_just_the_last_message() -> None:
    state = WorkingState(
        goal="Fix the rounding bug in invoice totals",
        entities=("billing-api",),
        files=("src/invoices/totals.py",),
        tools=("pytest",),
        recent_turns=("Earlier: we looked at VAT per line", "User: it still fails for Stripe"),
    )
    queries = DeterministicQueryFormer().form(state)
    sources = {q.source for q in queries}
    assert {"goal", "recent_turn", "keys"} <= sources
    keys = next(q for q in queries if q.kind == "structured").keys
    assert {"billing-api", "totals.py", "totals", "pytest", "stripe"} <= set(keys)


def _belief(**fields: object) -> Belief:
    data: dict[str, object] = {
        "id": "b-1",
        "tenant_id": "t",
        "principal_id": "p",
        "statement": "s",
        "subject": "s",
        "scope": "project",
        "origin_project": "home",
        "recorded_at": NOW,
    }
    data.update(fields)
    return Belief.model_validate(data)


def _score(belief: Belief, project: str | None, rrf: float = 2 / 61) -> float:
    fused = FusedCandidate(belief_id=belief.id, rrf_score=rrf, arm_ranks={})
    return score_candidate(
        fused,
        belief,
        project=project,
        as_of=NOW,
        weights=DEFAULT_POLICY.task,
        policy=DEFAULT_POLICY,
        best_fused=5 / 61,
    ).score


def test_portability_orders_transferred_beliefs() -> None:
    portable = _score(_belief(portability="portable"), "away")
    contextual = _score(_belief(portability="contextual"), "away")
    local = _score(_belief(portability="local"), "away")
    assert portable > contextual > local
    assert local < DEFAULT_POLICY.floor.score  # below the floor by construction
    assert _score(_belief(portability="local"), "home") > portable


def test_local_corroboration_removes_the_transfer_discount() -> None:
    plain = _score(_belief(portability="contextual"), "away")
    corroborated = _score(
        _belief(portability="contextual", corroborating_projects=["away"]), "away"
    )
    assert corroborated > plain


def test_penalties_lower_the_score() -> None:
    base = _score(_belief(), "home")
    assert _score(_belief(state="provisional"), "home") < base
    assert _score(_belief(flagged=True), "home") < base


_CANDIDATE = st.fixed_dictionaries(
    {
        "state": st.sampled_from(["active", "provisional", "conflicted"]),
        "flagged": st.booleans(),
        "portability": st.sampled_from(["portable", "contextual", "local"]),
        "origin_project": st.sampled_from(["home", "away"]),
        "corroborating_projects": st.sampled_from([[], ["home"]]),
        "confidence": st.floats(0.0, 1.0),
        "utility": st.floats(0.0, 5.0),
    }
)


@given(st.lists(st.tuples(_CANDIDATE, st.floats(0.0, 0.1), st.floats(0.0, 1.0)), max_size=8))
def test_a_candidates_score_does_not_depend_on_the_others_scored_with_it(
    candidates: list[tuple[dict[str, object], float, float]],
) -> None:
    """Scoring a recall's candidates in one call gives each the breakdown, band and
    transfer flag it gets scored alone."""
    triples = []
    for i, (fields, rrf, relevance) in enumerate(candidates):
        extra = {"conflict_set_id": "cs-1"} if fields["state"] == "conflicted" else {}
        belief = _belief(id=f"b-{i}", **fields, **extra)
        fused = FusedCandidate(belief_id=belief.id, rrf_score=rrf, arm_ranks={})
        triples.append((fused, belief, relevance))
    policy = DEFAULT_POLICY
    together = score_candidates(
        triples, project="home", as_of=NOW, weights=policy.task, policy=policy, best_fused=5 / 61
    )
    alone = [
        score_candidate(
            f,
            b,
            project="home",
            as_of=NOW,
            weights=policy.task,
            policy=policy,
            best_fused=5 / 61,
            relevance=r,
        )
        for f, b, r in triples
    ]
    assert together == alone


def _item(i: int, text: str = "short") -> RecalledItem:
    return RecalledItem(belief_id=f"b-{i}", text=text, band=ConfidenceBand.HIGH, score=1 - i / 100)


def test_the_floor_holds_even_with_budget_to_spare() -> None:
    def scored(belief_id: str, relevance: float) -> ScoredCandidate:
        # Both ranked first by every arm alike: rank does not carry either over the floor.
        return score_candidate(
            FusedCandidate(belief_id=belief_id, rrf_score=5 / 61, arm_ranks={}),
            _belief(id=belief_id),
            project="home",
            as_of=NOW,
            weights=DEFAULT_POLICY.task,
            policy=DEFAULT_POLICY,
            best_fused=5 / 61,
            relevance=relevance,
        )

    calibration = CalibrationRef(embedder="e", corpus_version="v", pair_mean=0.1, pair_std=0.1)
    evidence = EvidenceSet(
        by_id={
            "b-s": CandidateEvidence(cosines=(0.8,), texts=(TextCoverage(held=0.9, total=1.0),)),
            "b-w": CandidateEvidence(cosines=(0.3,), texts=(TextCoverage(held=0.1, total=1.0),)),
        }
    )
    null = (0.35,)  # the query's most similar unrelated sentence
    relevance = candidate_relevance(evidence, null, calibration, DEFAULT_POLICY)
    strong = scored("b-s", relevance["b-s"].relevance)
    weak = scored("b-w", relevance["b-w"].relevance)
    outcome = above_floor(
        (strong, weak),
        relevance,
        DEFAULT_POLICY,
        goal_parts=1,
        query_keys=(),
        named_entities=(),
        profile_types=(),
    )
    assert [c.belief_id for c in outcome.kept if not isinstance(c, ConflictGroup)] == ["b-s"]
    assert outcome.dropped_ids == ("b-w",)
    lenient = DEFAULT_POLICY.model_copy(
        update={
            "floor": Floor(
                lexical_coverage=0.0,
                relative=0.0,
                near_best=1.0,
                score=-1.0,
                odds=FloorOdds(min_probability=0.0),
            )
        }
    )
    relevance = candidate_relevance(evidence, null, calibration, lenient)
    assert (
        len(
            above_floor(
                (strong, weak),
                relevance,
                lenient,
                goal_parts=1,
                query_keys=(),
                named_entities=(),
                profile_types=(),
            ).kept
        )
        == 2
    )


def _request(**fields: object) -> RecallRequest:
    return RecallRequest.model_validate(
        {"tenant_id": "t", "principal_id": "p", "working_state": {}, **fields}
    )


def test_budget_item_cap_first_then_token_cap() -> None:
    counter = default_token_counter()
    units = tuple(RenderUnit(items=(_item(i),), score=1 - i / 100) for i in range(10))
    trusted = TrustOutcome(units=units, blocked_ids=(), redacted_ids=(), scanner_version="t")
    by_items = budgeted_items(trusted, counter, _request(max_items=3), DEFAULT_POLICY)
    assert [u.ids[0] for u in by_items.units] == ["b-0", "b-1", "b-2"]
    by_tokens = budgeted_items(
        trusted, counter, _request(max_items=10, max_tokens=40), DEFAULT_POLICY
    )
    assert 0 < len(by_tokens.units) < 10 and by_tokens.tokens <= 40


def test_a_long_item_does_not_starve_shorter_ones() -> None:
    counter = default_token_counter()
    units = (
        RenderUnit(items=(_item(0, "word " * 400),), score=0.9),
        RenderUnit(items=(_item(1),), score=0.8),
    )
    trusted = TrustOutcome(units=units, blocked_ids=(), redacted_ids=(), scanner_version="t")
    outcome = budgeted_items(trusted, counter, _request(max_tokens=100), DEFAULT_POLICY)
    assert [u.ids[0] for u in outcome.units] == ["b-1"]
    assert outcome.dropped_ids == ("b-0",)


@st.composite
def _corrections(draw: st.DrawFn) -> tuple[Correction, ...]:
    """Corrections of every shape a line can take, with statements of random length."""
    out: list[Correction] = []
    for i in range(draw(st.integers(1, 12))):
        words = " ".join(["word"] * draw(st.integers(1, 150)))
        kind = draw(st.sampled_from(sorted(CorrectionKind)))
        peer = CorrectionPeer(belief_id=f"n-{i}", text=f"New {words}.")
        out.append(
            Correction(
                belief_id=f"b-{i}",
                kind=kind,
                text=f"Now {words}." if kind in SHOWS_STATEMENT else None,
                replacement=peer if kind is CorrectionKind.SUPERSEDED else None,
                conflict_set_id="cs-1" if kind is CorrectionKind.CONFLICTED else None,
                peers=(peer,) if kind is CorrectionKind.CONFLICTED else (),
            )
        )
    return tuple(out)


@given(
    corrections=_corrections(),
    cap=st.integers(1, 600),  # a request's token cap is at least 1
    share=st.sampled_from((0.0, 0.1, 0.5, 1.0)),
    units=st.integers(0, 8),
)
def test_corrections_and_items_share_the_token_cap(
    corrections: tuple[Correction, ...], cap: int, share: float, units: int
) -> None:
    """The corrections take a prefix of their queue within their share (the first one
    always, shortened when its line does not fit), the items what they leave: the whole
    text is within the cap, its count is the two stages' sum, and only a first short line
    that with the section's frame and count line exceeds the cap alone can pass it."""
    counter = default_token_counter()
    sessions = DEFAULT_POLICY.sessions.model_copy(update={"correction_share": share})
    policy = DEFAULT_POLICY.model_copy(update={"sessions": sessions})
    request = _request(max_tokens=cap)
    told = budgeted_corrections(corrections, counter, request, policy)
    taken = told.corrections
    assert taken and [c.belief_id for c in taken] == [
        c.belief_id for c in corrections[: len(taken)]
    ]
    assert told.deferred == len(corrections) - len(taken)
    assert not any(c.abridged for c in taken[1:])
    assert all(c.model_copy(update={"abridged": False}) in corrections for c in taken)
    section = render_corrections(taken, told.deferred)
    assert counter.count(section) == told.tokens
    trusted = TrustOutcome(
        units=tuple(RenderUnit(items=(_item(i, "word " * 20),), score=1) for i in range(units)),
        blocked_ids=(),
        redacted_ids=(),
        scanner_version="t",
    )
    items = budgeted_items(trusted, counter, request, policy, None, told)
    block = render_block([(u.items, u.conflict_set_id) for u in items.units])
    assert counter.count(block + section) == items.tokens + told.tokens
    if len(taken) > 1:  # past the first, only what fits the share
        assert told.tokens <= int(cap * share)
    whole = render_corrections(corrections[:1], len(corrections) - 1)
    if counter.count(whole) <= int(cap * share):  # shortened only when it does not fit
        assert not taken[0].abridged
    alone = render_corrections(taken[:1], len(corrections) - 1)
    if counter.count(alone) <= cap:
        assert items.tokens + told.tokens <= cap
    else:  # the one case past the cap: nothing but that line goes
        assert len(taken) == 1 and not items.units


def test_rendering_has_no_volatile_fields_and_is_stable() -> None:
    items = [_item(0, "The user prefers tabs."), _item(1, "Deploys use  Fly.io\nweekly.")]
    block = render_block([((i,), None) for i in items])
    assert block == render_block([((i,), None) for i in items])
    assert block == (
        "<memory>\n- [b-0] (high) The user prefers tabs.\n"
        "- [b-1] (high) Deploys use Fly.io weekly.\n</memory>\n"
    )
    assert render_block([]) == ""


def test_a_cached_former_asks_its_inner_former_once_per_state() -> None:
    from recallflow.core.query_forming import CachedQueryFormer
    from recallflow.models.result import RecallQuery

    calls: list[WorkingState] = []

    class CountingFormer:
        def form(self, state: WorkingState) -> tuple[RecallQuery, ...]:
            calls.append(state)
            return DeterministicQueryFormer().form(state)

    cached = CachedQueryFormer(CountingFormer(), maxsize=2)
    a, b, c = (WorkingState(goal=g) for g in ("alpha beta", "gamma delta", "epsilon"))
    assert cached.form(a) == cached.form(a.model_copy()) == DeterministicQueryFormer().form(a)
    cached.form(b)
    cached.form(c)  # evicts a (least recently used)
    cached.form(a)
    assert calls == [a, b, c, a]


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_the_relevance_clamp_is_the_builtins_to_the_bit(x: float) -> None:
    # Written out in the loops (the builtins parse keywords on every call); it must decide
    # as they do: the first argument kept unless a later one is strictly beyond it.
    ours, builtins = _clamp(x), min(1.0, max(0.0, x))
    assert math.copysign(1.0, ours) == math.copysign(1.0, builtins)
    assert ours == builtins or (math.isnan(ours) and math.isnan(builtins))


@given(st.integers(min_value=0, max_value=50), st.integers(min_value=-3, max_value=20))
def test_the_floors_place_is_the_builtins(place: int, parts: int) -> None:
    assert estimate_place(place, parts) == max(0, place - (max(parts, 1) - 1))
