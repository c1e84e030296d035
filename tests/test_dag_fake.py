"""The recall DAG, through the real built driver, on an in-memory belief search: the floor,
the hard filter, the order and the budget as a user of the block sees them. No database:
each recall takes milliseconds."""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.scanning import LayeredInjectionScanner
from recallflow.core.query_forming import DeterministicQueryFormer
from recallflow.dataflows.runner import RecallFlow
from recallflow.models.request import Moment, RecallRequest, Surface, WorkingState
from recallflow.models.result import Arm, RecallResult
from recallflow.models.store import Belief, LifecycleState, Sensitivity
from recallflow.policy import DEFAULT_POLICY, SURFACE_CEILINGS, Budget, RetrievalPolicy, match_only
from recallflow.ports import RecallPorts
from tests.fakes import InMemoryBeliefSearch, WordCounter, fake_belief

AS_OF = datetime(2026, 3, 1, tzinfo=UTC)
EMBEDDER = HashingEmbedder()
QUESTION = "Where does the user deploy billing-api?"


def _belief(belief_id: str, statement: str, subject: str, **fields: Any) -> Belief:
    return fake_belief(belief_id, statement, subject, AS_OF - timedelta(days=30), **fields)


DEPLOY = _belief(
    "b-deploy",
    "billing-api deploys to Fly.io every Tuesday.",
    "deploy-target",
    entities=("billing-api", "fly-io"),
)
UNRELATED = (
    _belief("b-bread", "The user bakes sourdough bread on weekends.", "baking"),
    _belief("b-cat", "The user has a cat named Miso.", "pets"),
    _belief("b-jazz", "The user listens to jazz while coding.", "music"),
)


@pytest.fixture(scope="module")
def flows() -> Iterator[dict[str, RecallFlow]]:
    """Built drivers, one per policy version, shut down at the end."""
    built: dict[str, RecallFlow] = {}
    yield built
    for flow in built.values():
        if flow.arm_pool is not None:
            flow.arm_pool.shutdown()


def _recall(
    flows: dict[str, RecallFlow],
    beliefs: list[Belief],
    goal: str = QUESTION,
    *,
    policy: RetrievalPolicy = DEFAULT_POLICY,
    **request: Any,
) -> RecallResult:
    flow = flows.get(policy.version)
    if flow is None:
        flow = flows[policy.version] = RecallFlow(Moment.IN_TURN, policy=policy)
    ports = RecallPorts(
        belief_search=InMemoryBeliefSearch(beliefs, embedder=EMBEDDER),
        embedder=EMBEDDER,
        token_counter=WordCounter(),
        query_former=DeterministicQueryFormer(),
        injection_scanner=LayeredInjectionScanner(),
    )
    req = RecallRequest(
        tenant_id="t",
        principal_id="p1",
        as_of=AS_OF,
        known_as_of=AS_OF,
        working_state=WorkingState(goal=goal),
        **request,
    )
    return flow.run({"request": req, "trace_id": "tr-fake", "ports": ports})


def _traced(result: RecallResult) -> set[str]:
    """Every belief id the trace mentions anywhere."""
    t = result.trace
    ids = {h.belief_id for arm in t.arms for h in arm.hits}
    ids |= {c.belief_id for c in t.fused} | {s.belief_id for s in t.scored}
    return ids | set(t.ranked_ids) | set(t.rendered_ids)


# --- the floor ----------------------------------------------------------------------------


def test_the_floor_drops_weak_matches_whatever_budget_remains(
    flows: dict[str, RecallFlow],
) -> None:
    # Twelve beliefs share only "user" with the question: the lexical arm ranks them all,
    # behind the one belief that is about it.
    others = [
        _belief(f"b-other-{i:02d}", f"The user mentioned hobby number {i}.", f"hobby-{i}")
        for i in range(12)
    ]
    budgets = {Moment.IN_TURN: Budget(max_items=40, max_tokens=2000)}
    roomy = DEFAULT_POLICY.model_copy(update={"budgets": budgets})
    result = _recall(flows, [DEPLOY, *others], policy=roomy)
    trace, floor = result.trace, roomy.floor
    assert result.rendered_ids[0] == "b-deploy"
    assert trace.floor_dropped_ids and trace.budget_dropped_ids == ()
    assert trace.floor_inputs is not None
    inputs = trace.floor_inputs
    best = inputs.best_score
    assert inputs.odds_min_probability == floor.odds.min_probability > 0
    evidence = {s.belief_id: s.relevance for s in trace.scored}
    score = {s.belief_id: s.score for s in trace.scored}
    place = 0  # candidates within the distances so far: the last cut reads it
    for belief_id in trace.ranked_ids:
        relevance = evidence[belief_id]
        assert relevance is not None
        strong = relevance.coverage >= floor.strong_coverage or (
            relevance.standing is not None and relevance.standing >= floor.strong_standing
        )
        if relevance.clears:
            distance = floor.strong_near_best if strong else floor.near_best
        else:
            partial = relevance.coverage >= floor.partial_coverage or (
                relevance.standing is not None and relevance.standing >= floor.partial_standing
            )
            distance = floor.partial_near_best if partial and best > 0 else -1.0
        near_best = score[belief_id] >= max(floor.relative * best, best - distance)
        within = near_best and score[belief_id] >= floor.score
        # The last cut, recomputed from what the trace records: the estimated log-odds
        # that a candidate within the distances is evidence.
        assert inputs.odds_intercept is not None and inputs.odds_distance is not None
        assert inputs.odds_place is not None and inputs.odds_support is not None
        log_odds = (
            inputs.odds_intercept
            + inputs.odds_distance * (best - score[belief_id])
            + inputs.odds_place * math.log(1 + max(0, place - (inputs.goal_parts - 1)))
            + inputs.odds_support * relevance.support
        )
        clears = within and 1 / (1 + math.exp(-log_odds)) >= inputs.odds_min_probability
        place += within
        assert clears == (belief_id in result.rendered_ids), belief_id
        assert clears != (belief_id in trace.floor_dropped_ids), belief_id


def test_a_block_holds_what_is_about_as_good_as_its_best_item(
    flows: dict[str, RecallFlow],
) -> None:
    # Both beliefs are about the question; the second covers only part of it. Kept when
    # the floor lets a block reach far under its best item, dropped when it does not.
    partial = _belief("b-partial", "billing-api has a staging copy.", "staging")
    roomy = DEFAULT_POLICY.model_copy(
        update={"floor": DEFAULT_POLICY.floor.model_copy(update={"near_best": 1.0})}
    )
    no_distance = {"near_best": 0.0, "strong_near_best": 0.0, "partial_near_best": 0.0}
    tight = DEFAULT_POLICY.model_copy(
        update={"floor": DEFAULT_POLICY.floor.model_copy(update=no_distance)}
    )
    wide = _recall(flows, [DEPLOY, partial, *UNRELATED], policy=roomy)
    assert wide.rendered_ids == ("b-deploy", "b-partial")
    narrow = _recall(flows, [DEPLOY, partial, *UNRELATED], policy=tight)
    assert narrow.rendered_ids == ("b-deploy",)
    assert "b-partial" in narrow.trace.floor_dropped_ids
    assert narrow.trace.floor_inputs is not None
    assert narrow.trace.floor_inputs.near_best == 0.0


def test_an_unrelated_question_gets_an_empty_block(flows: dict[str, RecallFlow]) -> None:
    result = _recall(flows, [DEPLOY, *UNRELATED], "What is a good name for a boat?")
    assert result.block == "" and result.items == ()


def test_a_slimmed_arm_set_is_normalised_by_the_arms_that_run(
    flows: dict[str, RecallFlow],
) -> None:
    # One arm's first hit is a full match: the normaliser counts the policy's arms, which
    # are the arms that run (config can no longer change one without the other).
    lexical_only = DEFAULT_POLICY.model_copy(
        update={"arms": (Arm.LEXICAL,), "graph_expansion": False}
    )
    result = _recall(flows, [DEPLOY, *UNRELATED], policy=lexical_only)
    assert [a.arm for a in result.trace.arms] == [Arm.LEXICAL]
    assert result.rendered_ids[0] == "b-deploy"
    top = result.trace.scored[0]
    assert top.belief_id == "b-deploy"
    assert top.breakdown.match == pytest.approx(lexical_only.task.match)
    assert result.trace.retrieval_policy_version == lexical_only.version


# --- the hard filter ------------------------------------------------------------------------

#: Copies of DEPLOY that the hard filter must keep out of an in-turn recall on the direct
#: surface as of AS_OF, each for one reason.
OUTSIDE: dict[str, dict[str, Any]] = {
    "another principal": {"principal_id": "p2"},
    "another tenant": {"tenant_id": "t2"},
    "superseded": {"state": LifecycleState.SUPERSEDED, "superseded_by": "b-deploy"},
    "retired": {"state": LifecycleState.RETIRED},
    "not yet valid": {"valid_from": AS_OF + timedelta(days=1)},
    "no longer valid": {"valid_to": AS_OF},
    "recorded later": {"recorded_at": AS_OF + timedelta(seconds=1)},
    "retracted": {"retracted_at": AS_OF - timedelta(days=1)},
    "above the surface": {"sensitivity": Sensitivity.SECRET},
}


@pytest.mark.parametrize("reason", OUTSIDE)
def test_the_hard_filter_keeps_a_belief_out_of_every_stage(
    flows: dict[str, RecallFlow], reason: str
) -> None:
    outside = DEPLOY.model_copy(update={"id": "b-outside", **OUTSIDE[reason]})
    result = _recall(flows, [DEPLOY, outside, *UNRELATED])
    assert "b-deploy" in result.rendered_ids
    assert "b-outside" not in _traced(result)


@given(
    owners=st.lists(st.sampled_from(["p1", "p2", "p3"]), min_size=1, max_size=12),
    surface=st.sampled_from(list(Surface)),
    levels=st.lists(st.sampled_from(list(Sensitivity)), min_size=12, max_size=12),
)
@settings(max_examples=40, deadline=None)
def test_a_recall_only_ever_mentions_the_principals_visible_beliefs(
    flows: dict[str, RecallFlow],
    owners: list[str],
    surface: Surface,
    levels: list[Sensitivity],
) -> None:
    beliefs = [
        DEPLOY.model_copy(
            update={"id": f"b-{i:02d}", "principal_id": owner, "sensitivity": levels[i]}
        )
        for i, owner in enumerate(owners)
    ]
    result = _recall(flows, beliefs, surface=surface)
    visible = {
        b.id
        for b in beliefs
        if b.principal_id == "p1" and b.sensitivity <= SURFACE_CEILINGS[surface]
    }
    assert _traced(result) <= visible
    assert bool(result.rendered_ids) == bool(visible)  # the same statement: all relevant


# --- the order ------------------------------------------------------------------------------


@given(goal=st.sampled_from([QUESTION, "billing-api Fly.io", "user jazz bread", "deploy notes"]))
@settings(max_examples=10, deadline=None)
def test_items_come_in_score_order_ties_by_id(flows: dict[str, RecallFlow], goal: str) -> None:
    twins = [DEPLOY.model_copy(update={"id": f"b-twin-{c}"}) for c in "dcab"]
    result = _recall(flows, [DEPLOY, *twins, *UNRELATED], goal)
    keys = [(-item.score, item.belief_id) for item in result.items]
    assert keys == sorted(keys)
    assert list(result.trace.ranked_ids[: len(result.items)]) == list(result.rendered_ids)


def test_the_ranking_ablation_is_its_own_policy_and_ranks_by_match_alone(
    flows: dict[str, RecallFlow],
) -> None:
    ablation = match_only(DEFAULT_POLICY)
    result = _recall(flows, [DEPLOY, *UNRELATED], policy=ablation)
    assert result.trace.retrieval_policy_version == ablation.version != DEFAULT_POLICY.version
    assert all(s.breakdown.total == s.breakdown.match for s in result.trace.scored)


# --- the budget -----------------------------------------------------------------------------

NOTES = [
    _belief(
        f"b-note-{i}",
        f"billing-api deploys to Fly.io; release note {i}.",
        "deploy-target",
        entities=("billing-api",),
    )
    for i in range(10)
]


def test_the_policy_budget_caps_the_items(flows: dict[str, RecallFlow]) -> None:
    budgets = {Moment.IN_TURN: Budget(max_items=3, max_tokens=600)}
    # The floor's last cut off, so that the ten near-identical notes all reach the budget.
    odds = DEFAULT_POLICY.floor.odds.model_copy(update={"min_probability": 0.0})
    floor = DEFAULT_POLICY.floor.model_copy(update={"odds": odds})
    three = DEFAULT_POLICY.model_copy(update={"budgets": budgets, "floor": floor})
    result = _recall(flows, NOTES, policy=three)
    assert len(result.items) == 3
    assert result.rendered_ids == result.trace.ranked_ids[:3]
    assert set(result.trace.budget_dropped_ids) == set(result.trace.ranked_ids[3:])


def test_a_request_can_ask_for_fewer_items_or_tokens(flows: dict[str, RecallFlow]) -> None:
    assert len(_recall(flows, NOTES, max_items=2).items) == 2
    full = _recall(flows, NOTES)
    tight = _recall(flows, NOTES, max_tokens=30)
    assert 0 < len(tight.items) < len(full.items)
    assert tight.trace.rendered_tokens <= 30


# --- the trigram arm ----------------------------------------------------------------------


def test_the_project_a_goal_names_is_not_spelled_against_the_subjects(
    flows: dict[str, RecallFlow],
) -> None:
    """The project is where the agent works, read exactly by the project weight: a goal
    that names it does not pull in beliefs whose subject is merely spelled like it, and a
    key the goal names besides is still spelled against them."""
    look_alike = _belief("b-billing", "Billing runs nightly batch jobs.", "billing")
    typo = _belief("b-ledger", "The ledger service keeps daily balances.", "ledger-service")
    beliefs = [look_alike, typo, *UNRELATED]
    goal = "Fix the retry loop of ledger-servce in billing-api"

    def trigram_ids(**request: Any) -> set[str]:
        result = _recall(flows, beliefs, goal, **request)
        arms = {a.arm: a for a in result.trace.arms}
        return {h.belief_id for h in arms[Arm.TRIGRAM].hits}

    assert trigram_ids(project="billing-api") == {"b-ledger"}
    assert trigram_ids(project="other") == {"b-billing", "b-ledger"}
