"""Read-path correctness on the real embedded server.

- History: at a past ``as_of`` a now-superseded or now-expired belief is recalled as it
  stood then, and its successor only once it took over (world time) and was known
  (system time).
- Graph expansion never walks through a belief the hard filter excludes, and such a
  belief never takes a neighbour's place.
- Rarity statistics see only the caller's view: beliefs outside the hard filter (too
  sensitive, recorded later, retracted, invalid at ``as_of``, retired, superseded, another
  principal's) never change an arm's ranking.
- The trace never names a belief the caller's filter excludes, even one an external
  provider suggested.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import Memory, open_memory
from recallflow.models.request import Surface
from recallflow.models.result import RecallQuery, RecallResult
from recallflow.models.stages import HardFilter
from recallflow.models.store import LifecycleState, Sensitivity
from recallflow.policy import DEFAULT_POLICY, ArmLimits
from recallflow.ports import BeliefSearch, RawHits
from tests.helpers import belief, request

T0 = datetime(2025, 1, 1, tzinfo=UTC)
DAY = timedelta(days=1)
#: Known to the store at the end of every test's story.
LATER = T0 + 400 * DAY
LIVE = (LifecycleState.ACTIVE, LifecycleState.PROVISIONAL, LifecycleState.CONFLICTED)


def traced_ids(result: RecallResult) -> set[str]:
    """Every belief id the trace mentions anywhere."""
    t = result.trace
    ids = {h.belief_id for arm in t.arms for h in arm.hits}
    ids |= {c.belief_id for c in t.fused} | {s.belief_id for s in t.scored}
    ids |= set(t.floor_dropped_ids) | set(t.budget_dropped_ids)
    return ids | set(t.ranked_ids) | set(t.rendered_ids)


def arm_hits(result: RecallResult, arm: str) -> list[str]:
    return [h.belief_id for a in result.trace.arms if a.arm == arm for h in a.hits]


def view(tenant: str, **fields: Any) -> HardFilter:
    """The in-turn hard filter of principal ``p1`` of ``tenant``, as of ``LATER``."""
    data: dict[str, Any] = {
        "tenant_id": tenant,
        "principal_id": "p1",
        "states": LIVE,
        "as_of": LATER,
        "known_as_of": LATER,
        "sensitivity_ceiling": Sensitivity.PERSONAL,
    }
    data.update(fields)
    return HardFilter.model_validate(data)


# --- history at a past as_of ------------------------------------------------------------

DEPLOY_GOAL = "Where does the billing service deploy to?"


def _supersession(memory: Memory, tenant: str, successor: dict[str, Any]) -> None:
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id="b-old",
                statement="The billing service deploys to Heroku.",
                subject="billing-deploy",
                state="superseded",
                superseded_by="b-new",
                recorded_at=T0,
            ),
            belief(
                tenant,
                id="b-new",
                statement="The billing service deploys to Fly.io.",
                subject="billing-deploy",
                supersedes="b-old",
                **successor,
            ),
        ]
    )


def _deploy(memory: Memory, tenant: str, as_of: datetime, known: datetime) -> RecallResult:
    return memory.recall(request(tenant, goal=DEPLOY_GOAL, as_of=as_of, known_as_of=known))


def test_a_superseded_belief_is_recalled_while_it_was_still_true(
    memory: Memory, tenant: str
) -> None:
    # The deploy target changed on day 100, and the store learned it that day.
    _supersession(memory, tenant, {"valid_from": T0 + 100 * DAY, "recorded_at": T0 + 100 * DAY})
    before = _deploy(memory, tenant, T0 + 50 * DAY, LATER)
    assert before.rendered_ids == ("b-old",)
    after = _deploy(memory, tenant, T0 + 150 * DAY, LATER)
    assert after.rendered_ids == ("b-new",)
    assert "b-old" not in traced_ids(after)


def test_history_read_at_the_default_known_as_of_sees_the_old_belief(
    memory: Memory, tenant: str
) -> None:
    _supersession(memory, tenant, {"valid_from": T0 + 100 * DAY, "recorded_at": T0 + 100 * DAY})
    result = memory.recall(request(tenant, goal=DEPLOY_GOAL, as_of=T0 + 50 * DAY))
    assert result.rendered_ids == ("b-old",)


def test_a_supersession_the_store_did_not_know_yet_leaves_the_old_belief_live(
    memory: Memory, tenant: str
) -> None:
    # The change happened on day 100 but was only recorded on day 200.
    _supersession(memory, tenant, {"valid_from": T0 + 100 * DAY, "recorded_at": T0 + 200 * DAY})
    known_then = _deploy(memory, tenant, T0 + 150 * DAY, T0 + 150 * DAY)
    assert known_then.rendered_ids == ("b-old",)
    known_now = _deploy(memory, tenant, T0 + 150 * DAY, LATER)
    assert known_now.rendered_ids == ("b-new",)


def test_a_correction_replaces_the_old_belief_at_every_world_time_once_known(
    memory: Memory, tenant: str
) -> None:
    # The successor was true from before the old belief began, so the old one never was.
    # (A successor with no valid_from is a change at the time it was recorded.)
    _supersession(memory, tenant, {"recorded_at": T0 + 100 * DAY, "valid_from": T0 - 400 * DAY})
    corrected = _deploy(memory, tenant, T0 + 50 * DAY, LATER)
    assert corrected.rendered_ids == ("b-new",)
    assert "b-old" not in traced_ids(corrected)
    before_the_correction = _deploy(memory, tenant, T0 + 50 * DAY, T0 + 50 * DAY)
    assert before_the_correction.rendered_ids == ("b-old",)


def test_a_recalled_superseded_belief_is_scored_as_the_active_belief_it_was(
    memory: Memory, tenant: str
) -> None:
    _supersession(memory, tenant, {"valid_from": T0 + 100 * DAY, "recorded_at": T0 + 100 * DAY})
    old = _deploy(memory, tenant, T0 + 50 * DAY, LATER)
    new = _deploy(memory, tenant, T0 + 150 * DAY, LATER)
    (old_entry,) = old.trace.scored
    (new_entry,) = new.trace.scored
    assert old_entry.breakdown.confidence_state == new_entry.breakdown.confidence_state > 0
    assert old_entry.breakdown.penalties == new_entry.breakdown.penalties


def test_an_expired_belief_is_recalled_before_its_valid_to_and_not_after(
    memory: Memory, tenant: str
) -> None:
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id="b-freeze",
                statement="The billing code freeze for the audit is in effect.",
                subject="billing-freeze",
                state="expired",
                valid_from=T0,
                valid_to=T0 + 100 * DAY,
                recorded_at=T0,
            ),
            belief(
                tenant,
                id="b-freeze-unknown-end",
                statement="The billing code freeze for the launch is in effect.",
                subject="billing-freeze",
                state="expired",
                recorded_at=T0,
            ),
        ]
    )
    goal = "Is the billing code freeze in effect?"
    during = memory.recall(request(tenant, goal=goal, as_of=T0 + 50 * DAY, known_as_of=LATER))
    assert during.rendered_ids == ("b-freeze",)
    after = memory.recall(request(tenant, goal=goal, as_of=T0 + 150 * DAY, known_as_of=LATER))
    assert traced_ids(after) == set()


def test_a_retired_belief_stays_out_at_every_as_of(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(
        belief(
            tenant,
            id="b-retired",
            statement="The billing service deploys to Heroku.",
            subject="billing-deploy",
            state="retired",
            recorded_at=T0,
        )
    )
    for day in (1, 50, 300):
        assert traced_ids(_deploy(memory, tenant, T0 + day * DAY, LATER)) == set()


# --- graph expansion --------------------------------------------------------------------


def _graph_store(memory: Memory, tenant: str) -> None:
    """A seed, and beyond it: a secret bridge, a retired bridge, a public neighbour."""

    def unrelated(belief_id: str, statement: str, **fields: Any) -> dict[str, Any]:
        subject = "-".join(statement.lower().rstrip(".").split()[1:3])
        return belief(tenant, id=belief_id, statement=statement, subject=subject, **fields)

    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id="b-seed",
                statement="The payments service retries webhooks with exponential backoff.",
                subject="payments-webhooks",
                sensitivity="public",
            ),
            unrelated("b-secret", "Vault unseal shares need three officers.", sensitivity="secret"),
            unrelated(
                "b-behind-secret", "Office plants get water on Fridays.", sensitivity="public"
            ),
            unrelated(
                "b-retired",
                "Lunch comes from the noodle bar.",
                state="retired",
                sensitivity="public",
            ),
            unrelated(
                "b-behind-retired", "The espresso machine descales monthly.", sensitivity="public"
            ),
            unrelated("b-side", "The lobby piano was tuned in spring.", sensitivity="public"),
        ]
    )

    def edge(src: str, dst: str, weight: float) -> dict[str, Any]:
        return {
            "tenant_id": tenant,
            "principal_id": "p1",
            "src_id": src,
            "dst_id": dst,
            "weight": weight,
        }

    memory.edges.add_many(
        [
            edge("b-seed", "b-secret", 1.0),
            edge("b-secret", "b-behind-secret", 1.0),
            edge("b-seed", "b-retired", 0.9),
            edge("b-behind-retired", "b-retired", 1.0),
            edge("b-seed", "b-side", 0.5),
        ]
    )


def test_graph_expansion_never_walks_through_a_filtered_belief(memory: Memory, tenant: str) -> None:
    _graph_store(memory, tenant)
    public = view(tenant, sensitivity_ceiling=Sensitivity.PUBLIC)
    reached = {
        i
        for i, _ in _search(memory).neighbours(
            public, ["b-seed"], _limits(graph_depth=2, graph_fanout=8)
        )
    }
    assert reached == {"b-side"}
    # The bridges are real: a filter that admits them walks through them.
    vault = view(tenant, sensitivity_ceiling=Sensitivity.SECRET, states=tuple(LifecycleState))
    everything = {
        i
        for i, _ in _search(memory).neighbours(
            vault, ["b-seed"], _limits(graph_depth=2, graph_fanout=8)
        )
    }
    assert {"b-behind-secret", "b-behind-retired"} <= everything


def test_a_filtered_neighbour_does_not_take_a_visible_ones_place(
    memory: Memory, tenant: str
) -> None:
    _graph_store(memory, tenant)
    public = view(tenant, sensitivity_ceiling=Sensitivity.PUBLIC)
    # Fan-out 1: the heaviest edges lead to the secret and the retired belief.
    assert [
        i
        for i, _ in _search(memory).neighbours(
            public, ["b-seed"], _limits(graph_depth=1, graph_fanout=1)
        )
    ] == ["b-side"]


def test_a_filtered_seed_is_not_expanded(memory: Memory, tenant: str) -> None:
    _graph_store(memory, tenant)
    public = view(tenant, sensitivity_ceiling=Sensitivity.PUBLIC)
    assert (
        _search(memory).neighbours(
            public, ["b-secret", "b-retired"], _limits(graph_depth=2, graph_fanout=8)
        )
        == []
    )


def test_graph_expansion_in_a_recall_stays_inside_the_filter(memory: Memory, tenant: str) -> None:
    _graph_store(memory, tenant)
    limits = DEFAULT_POLICY.limits.model_copy(update={"graph_depth": 2})
    policy = DEFAULT_POLICY.model_copy(update={"limits": limits})
    goal = "How does the payments service retry webhooks?"
    public = memory.recall(
        request(tenant, goal=goal, surface=Surface.PUBLIC, as_of=LATER), policy=policy
    )
    assert "b-seed" in public.rendered_ids
    assert set(arm_hits(public, "graph_expanded_hits")) == {"b-side"}
    assert traced_ids(public) <= {"b-seed", "b-side"}
    vault = memory.recall(
        request(tenant, goal=goal, surface=Surface.VAULT, as_of=LATER), policy=policy
    )
    assert "b-behind-secret" in arm_hits(vault, "graph_expanded_hits")


# --- rarity statistics see only the caller's view ---------------------------------------

STONES = [
    ("b-quartz", "The lobby floor is quartz.", "quartz"),
    ("b-marble-1", "The kitchen counter is marble.", "marble"),
    ("b-marble-2", "The bathroom sink is marble.", "marble"),
]


def _stones(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id=belief_id,
                statement=text,
                subject=f"stone-{belief_id}",
                entities=[stone],
                sensitivity="public",
                recorded_at=T0,
            )
            for belief_id, text, stone in STONES
        ]
    )


def _rarity_arms(memory: Memory, f: HardFilter) -> dict[str, RawHits]:
    search = _search(memory)
    return {
        "lexical": search.lexical(f, ["quartz or marble?"], _limits()),
        "structured": search.structured(f, ["quartz", "marble"], _limits()),
    }


@pytest.mark.parametrize(
    "outside",
    [
        {"sensitivity": "secret"},
        {"recorded_at": T0 + 10 * DAY},
        {"state": "retired"},
        {"principal_id": "p2"},
    ],
    ids=["secret", "recorded-later", "retired", "other-principal"],
)
def test_beliefs_outside_the_filter_do_not_change_the_ranking(
    memory: Memory, tenant: str, outside: dict[str, Any]
) -> None:
    _stones(memory, tenant)
    f = view(tenant, sensitivity_ceiling=Sensitivity.PUBLIC, known_as_of=T0 + DAY)
    before = _rarity_arms(memory, f)
    assert next(i for i, _ in before["lexical"]) == "b-quartz"  # the rarer word counts more
    fields = {"recorded_at": T0, **outside}
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id=f"b-out-{i}",
                statement=f"The quartz sample {i} is in the lab.",
                subject="quartz-samples",
                entities=["quartz"],
                **fields,
            )
            for i in range(6)
        ]
    )
    assert _rarity_arms(memory, f) == before


def test_a_public_recall_ranks_the_same_with_or_without_secrets(
    memory: Memory, tenant: str
) -> None:
    _stones(memory, tenant)
    ask = request(tenant, goal="quartz or marble?", surface=Surface.PUBLIC, as_of=T0 + DAY)
    before = memory.recall(ask)
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id=f"b-secret-{i}",
                statement=f"The quartz sample {i} is in the vault.",
                subject="quartz-samples",
                entities=["quartz"],
                sensitivity="secret",
                recorded_at=T0,
            )
            for i in range(6)
        ]
    )
    after = memory.recall(ask)
    for arm in ("lexical_hits", "structured_hits"):
        assert arm_hits(after, arm) == arm_hits(before, arm)
    assert after.trace.ranked_ids == before.trace.ranked_ids
    assert after.rendered_ids == before.rendered_ids


@pytest.mark.parametrize("places", [1, 2, 5], ids=["one-place", "two-places", "room-for-all"])
def test_a_key_only_filtered_beliefs_carry_never_takes_a_trigram_place(
    memory: Memory, tenant: str, places: int
) -> None:
    """Keys spelled like the query term, the most alike first, one carried only by a
    secret belief, one only as a visible belief's entity: whether or not more keys match
    than the arm has places, the places go to keys that are a visible belief's subject,
    and the beliefs whose subject the key is come back. (A key held only as an entity
    took the one place and returned nothing.)"""
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id="b-secret",
                statement="The ledger is sealed.",
                subject="ledger",
                sensitivity="secret",
                recorded_at=T0,
            ),
            belief(
                tenant,
                id="b-entity",
                statement="The close uses the ledger app.",
                subject="month-close",
                entities=["ledger-app"],
                recorded_at=T0,
            ),
            belief(
                tenant,
                id="b-subject",
                statement="The ledger sync runs nightly.",
                subject="ledger-sync",
                recorded_at=T0,
            ),
        ]
    )
    f = view(tenant, sensitivity_ceiling=Sensitivity.INTERNAL)
    hits = _search(memory).trigram(f, ["ledger"], _limits(per_arm=places, trigram_threshold=0.5))
    # Neither "ledger" (secret only) nor "ledger-app" (no belief's subject) takes a place.
    assert [i for i, _ in hits] == ["b-subject"]


def test_a_term_near_more_keys_than_the_bound_is_matched_to_its_own_key(
    memory: Memory, tenant: str
) -> None:
    """A query term that shares its first letters with many of the principal's keys (each
    within the threshold, tied there) returns the beliefs of the key it spells, not a
    page of the others in alphabetical order; a term near few keys is still forgiven its
    typo."""
    near = DEFAULT_POLICY.limits.trigram_term_matches + 8
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-react", statement="The web app uses React.", subject="react"),
            *(
                belief(
                    tenant,
                    id=f"b-realtime-{i}",
                    statement=f"Realtime channel {i} is fed by the queue.",
                    subject=f"realtime-channel-{i}",
                )
                for i in range(near)
            ),
            belief(tenant, id="b-k8s", statement="Jobs run on Kubernetes.", subject="kubernetes"),
        ]
    )
    search = _search(memory)
    limits = _limits(per_arm=20, trigram_threshold=0.5)
    assert [i for i, _ in search.trigram(view(tenant), ["react"], limits)] == ["b-react"]
    assert [i for i, _ in search.trigram(view(tenant), ["kubernets"], limits)] == ["b-k8s"]


_WORDS = ["quartz", "marble", "granite", "slate", "basalt", "cedar", "walnut", "maple"]
_OUTSIDE: dict[str, dict[str, Any]] = {
    "secret": {"sensitivity": "secret"},
    "recorded_later": {"recorded_at": T0 + 100 * DAY},
    "retracted": {"retracted_at": T0 + 20 * DAY},
    "not_yet_valid": {"valid_from": T0 + 100 * DAY},
    "no_longer_valid": {"valid_from": T0 - 50 * DAY, "valid_to": T0 + 10 * DAY},
    "retired": {"state": "retired"},
    "expired": {"state": "expired", "valid_to": T0 + 10 * DAY},
    "other_principal": {"principal_id": "p2"},
}
_words = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4)


def _stone(tenant: str, belief_id: str, words: list[str], **fields: Any) -> dict[str, Any]:
    data = {"recorded_at": T0, "sensitivity": "internal", **fields}
    return belief(
        tenant,
        id=belief_id,
        statement="The " + " and ".join(words) + " pieces.",
        subject=words[0],
        entities=words[1:],
        **data,
    )


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    inside=st.lists(_words, min_size=1, max_size=12),
    outside=st.lists(st.tuples(_words, st.sampled_from(sorted(_OUTSIDE))), min_size=1, max_size=15),
    query=_words,
)
def test_no_out_of_filter_belief_changes_any_rarity_ranking(
    memory: Memory,
    inside: list[list[str]],
    outside: list[tuple[list[str], str]],
    query: list[str],
) -> None:
    tenant = f"rar-{uuid.uuid4().hex[:10]}"
    memory.beliefs.add_many([_stone(tenant, f"b-in-{i}", w) for i, w in enumerate(inside)])
    f = view(
        tenant,
        sensitivity_ceiling=Sensitivity.INTERNAL,
        as_of=T0 + 30 * DAY,
        known_as_of=T0 + 30 * DAY,
    )
    search = _search(memory)

    def ranks() -> tuple[RawHits, RawHits, RawHits]:
        return (
            search.lexical(f, [" ".join(query)], _limits()),
            search.structured(f, query, _limits()),
            search.trigram(f, query, _limits(per_arm=2, trigram_threshold=0.3)),
        )

    before = ranks()
    memory.beliefs.add_many(
        [
            _stone(tenant, f"b-out-{i}", w, **_OUTSIDE[reason])
            for i, (w, reason) in enumerate(outside)
        ]
    )
    assert ranks() == before


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    inside=st.lists(_words, min_size=1, max_size=12),
    outside=st.lists(st.tuples(_words, st.sampled_from(sorted(_OUTSIDE))), max_size=10),
    query=_words,
    past=st.booleans(),
)
def test_rarity_from_kept_counts_equals_counting_the_view(
    memory: Memory,
    inside: list[list[str]],
    outside: list[tuple[list[str], str]],
    query: list[str],
    past: bool,
) -> None:
    """The view's counts taken from the per-class statistics (less what the time predicates
    leave out) rank exactly as counting the view belief by belief, now and in the past."""
    tenant = f"rar-{uuid.uuid4().hex[:10]}"
    memory.beliefs.add_many([_stone(tenant, f"b-in-{i}", w) for i, w in enumerate(inside)])
    memory.beliefs.add_many(
        [_stone(tenant, f"b-out-{i}", w, **_OUTSIDE[r]) for i, (w, r) in enumerate(outside)]
    )
    at = T0 + (15 if past else 30) * DAY
    f = view(tenant, sensitivity_ceiling=Sensitivity.INTERNAL, as_of=at, known_as_of=at)
    search = _search(memory)

    def ranks(limits: ArmLimits) -> tuple[RawHits, RawHits]:
        return (
            search.lexical(f, [" ".join(query)], limits),
            search.structured(f, query, limits),
        )

    assert ranks(_limits()) == ranks(_limits(rarity_exclusion_cap=0))


def test_rarity_follows_lifecycle_changes(memory: Memory, tenant: str) -> None:
    """A retired, expired or erased belief stops counting, however it was changed: the
    ranking is the one of a memory that never held it."""
    kept = [_stone(tenant, "b-1", ["quartz"]), _stone(tenant, "b-2", ["quartz", "marble"])]
    gone = [_stone(tenant, f"b-{i}", ["marble", "slate"]) for i in (3, 4, 5)]
    memory.beliefs.add_many([*kept, *gone])
    memory.retire(tenant, "p1", "b-3")
    memory.expire(tenant, "p1", "b-4", at=T0 + DAY)
    memory.forget_belief(tenant, "p1", "b-5")
    never = f"{tenant}-never"
    memory.beliefs.add_many([{**b, "tenant_id": never} for b in kept])
    search = _search(memory)

    def structured(t: str) -> RawHits:
        f = view(t, sensitivity_ceiling=Sensitivity.INTERNAL)
        return search.structured(f, ["quartz", "marble", "slate"], _limits())

    assert structured(tenant) == structured(never)


# --- the trace names only beliefs the caller may see ------------------------------------


class _Provider:
    """An external provider that suggests whatever ids it was given."""

    def __init__(self, hits: RawHits) -> None:
        self.hits = hits

    @property
    def name(self) -> str:
        return "suggests-anything"

    def search(self, f: HardFilter, queries: Sequence[RecallQuery], limit: int) -> RawHits:
        return self.hits


def test_provider_ids_outside_the_filter_never_reach_the_trace(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-mine", statement="Invoices are stored in cents.", subject="money"),
            belief(
                tenant,
                id="b-my-secret",
                statement="The vault code is 1234.",
                subject="vault",
                sensitivity="secret",
            ),
            belief(
                tenant,
                "p-other",
                id="b-theirs",
                statement="Their salary is private.",
                subject="salary",
            ),
        ]
    )
    provider = _Provider(
        [("b-theirs", 1.0), ("b-my-secret", 0.9), ("b-mine", 0.8), ("b-nowhere", 0.7)]
    )
    policy = DEFAULT_POLICY.model_copy(update={"arms": (*DEFAULT_POLICY.arms, "external_hits")})
    with open_memory(memory.uri, embedder=memory.embedder, external_provider=provider) as m:
        result = m.recall(request(tenant, goal="How are invoices stored?"), policy=policy)
    external = next(a for a in result.trace.arms if a.arm == "external_hits")
    assert external.error is None
    assert [(h.belief_id, h.rank) for h in external.hits] == [("b-mine", 1)]
    assert not {"b-theirs", "b-my-secret", "b-nowhere"} & traced_ids(result)
    stored = memory.trace(tenant, "p1", result.trace_id)
    assert {h.belief_id for a in stored.arms for h in a.hits} <= {"b-mine"}


def _search(memory: Memory) -> BeliefSearch:
    """The store's own hard-filtered search (the database is not mocked)."""
    return memory._ports.belief_search


def _limits(**update: object) -> ArmLimits:
    return DEFAULT_POLICY.limits.model_copy(update=update)
