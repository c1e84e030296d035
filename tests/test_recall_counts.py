"""A recall's candidates' load reads the counts of the caller's view its lexical and
structured arms made (how many visible beliefs hold each word and key, and how many are
visible) instead of counting them again: the evidence is the same as the load's own
count, beliefs the caller may not see still move nothing, and counts made for another
view are never read."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool

from recallflow import Memory
from recallflow.adapters.postgres.rarity import RecallCounts
from recallflow.adapters.postgres.search import PostgresBeliefSearch
from recallflow.models.stages import EvidenceSet, HardFilter
from recallflow.models.store import LifecycleState, Sensitivity
from recallflow.policy import DEFAULT_POLICY, ArmLimits
from tests.helpers import belief

NOW = datetime(2030, 1, 1, tzinfo=UTC)
EARLY = datetime(2025, 6, 1, tzinfo=UTC)
LATER = datetime(2026, 1, 1, tzinfo=UTC)
AFTER = datetime(2031, 1, 1, tzinfo=UTC)
QUERY = "which green tea does the user drink"
KEYS = ["tea", "green-tea"]
# Rarity counted over the view as it is (a view of four beliefs is not taken for ten), from
# the per-class counts less the beliefs the time predicates leave out, or row by row.
CLASS_COUNTS = DEFAULT_POLICY.limits.model_copy(update={"coverage_min_view": 1})
ROW_BY_ROW = CLASS_COUNTS.model_copy(update={"rarity_exclusion_cap": 0})

# What every caller sees: three beliefs on tea, two of them only true from LATER on.
VISIBLE = [
    {"id": "b-green", "statement": "The user drinks green tea", "subject": "green-tea"},
    {"id": "b-black", "statement": "The user drinks black tea at noon", "subject": "tea"},
    {"id": "b-mint", "statement": "Mint tea helps the user sleep", "subject": "tea"},
    {"id": "b-bike", "statement": "The user rides a bike to work", "subject": "commute"},
]
LATE = {"b-black", "b-mint"}
# What no caller at the PERSONAL ceiling sees, now: all hold the query's words and keys.
HIDDEN = [
    {"id": "h-secret", "statement": "Green tea green tea", "subject": "tea", "sensitivity": 3},
    {"id": "h-future", "statement": "Green tea again", "subject": "tea", "valid_from": AFTER},
    {
        "id": "h-retracted",
        "statement": "Green tea, retracted",
        "subject": "green-tea",
        "retracted_at": EARLY,
    },
]


def _filter(tenant: str, principal: str, as_of: datetime) -> HardFilter:
    return HardFilter(
        tenant_id=tenant,
        principal_id=principal,
        states=(LifecycleState.ACTIVE,),
        as_of=as_of,
        known_as_of=as_of,
        sensitivity_ceiling=Sensitivity.PERSONAL,
    )


@pytest.fixture
def pool(memory: Memory, tenant: str) -> Iterator[ConnectionPool]:
    visible = [
        belief(tenant, principal, **b, valid_from=LATER if b["id"] in LATE else None)
        for principal in ("p1", "p2")
        for b in VISIBLE
    ]
    memory.beliefs.add_many(visible + [belief(tenant, "p1", **b) for b in HIDDEN])
    connections: ConnectionPool = ConnectionPool(
        memory.uri,
        min_size=1,
        max_size=2,
        kwargs={"autocommit": True},
        configure=register_vector,
        open=True,
    )
    try:
        yield connections
    finally:
        connections.close()


@pytest.fixture(params=[CLASS_COUNTS, ROW_BY_ROW], ids=["class-counts", "row-by-row"])
def limits(request: pytest.FixtureRequest) -> ArmLimits:
    value: ArmLimits = request.param
    return value


def _evidence(
    memory: Memory, search: PostgresBeliefSearch, f: HardFilter, limits: ArmLimits
) -> EvidenceSet:
    ids = [str(b["id"]) for b in VISIBLE + HIDDEN]
    vectors = memory.embedder.embed([QUERY])
    _, evidence = search.load_with_evidence(f, ids, [QUERY], vectors, KEYS, limits)
    assert isinstance(evidence, EvidenceSet)
    return evidence


def _after_arms(pool: ConnectionPool, f: HardFilter, limits: ArmLimits) -> PostgresBeliefSearch:
    """One recall's search whose lexical and structured arms have run for ``f``."""
    search = PostgresBeliefSearch(pool, counts=RecallCounts())
    assert search.lexical(f, [QUERY], limits)
    assert search.structured(f, KEYS, limits)
    return search


def test_the_load_reads_the_arms_counts_and_the_evidence_is_unchanged(
    memory: Memory, tenant: str, pool: ConnectionPool, limits: ArmLimits
) -> None:
    f = _filter(tenant, "p1", NOW)
    counted_alone = _evidence(memory, PostgresBeliefSearch(pool), f, limits)
    search = _after_arms(pool, f, limits)
    counts = search._counts.counts(f, limits) if search._counts is not None else None
    assert counts is not None and {"green", "tea"} <= set(counts.lexemes)
    assert set(KEYS) <= set(counts.keys)
    assert counts.direct == (limits is ROW_BY_ROW)
    assert _evidence(memory, search, f, limits) == counted_alone
    # the words held weigh something, and not all of the query
    black = counted_alone.by_id["b-black"].texts[0]
    assert 0 < black.held < black.total


def test_beliefs_the_caller_cannot_see_move_no_evidence_read_from_the_arms_counts(
    memory: Memory, tenant: str, pool: ConnectionPool, limits: ArmLimits
) -> None:
    # p1 also holds beliefs above the ceiling, not yet true and retracted, all on green tea;
    # p2 holds only what p1's caller sees: both read the same coverage and subject matches
    f, g = _filter(tenant, "p1", NOW), _filter(tenant, "p2", NOW)
    with_hidden = _evidence(memory, _after_arms(pool, f, limits), f, limits)
    without = _evidence(memory, _after_arms(pool, g, limits), g, limits)
    assert set(with_hidden.by_id) == set(without.by_id) == {b["id"] for b in VISIBLE}
    for i, evidence in without.by_id.items():
        assert with_hidden.by_id[i].texts == evidence.texts
        assert with_hidden.by_id[i].subject_match == evidence.subject_match


def test_counts_made_for_another_view_are_not_read(
    memory: Memory, tenant: str, pool: ConnectionPool, limits: ArmLimits
) -> None:
    # the arms counted the view of now; a load of an earlier view, where the late beliefs
    # on tea were not yet true (so "tea" was rarer), counts its own
    early, now = _filter(tenant, "p1", EARLY), _filter(tenant, "p1", NOW)
    search = _after_arms(pool, now, limits)
    read = _evidence(memory, search, early, limits)
    assert read == _evidence(memory, PostgresBeliefSearch(pool), early, limits)
    assert read != _evidence(memory, search, now, limits)


def test_words_and_keys_the_arms_did_not_count_are_counted_by_the_load(
    memory: Memory, tenant: str, pool: ConnectionPool, limits: ArmLimits
) -> None:
    # the arms counted the view for other words and keys than the load weighs (as for a
    # name's words, or an entity the structured arm was not asked about): the load counts
    # those itself, in the view, as a load alone counts them (beliefs not yet true now or
    # retracted before it hold "green" and "tea" and are not counted)
    f = _filter(tenant, "p1", NOW)
    search = PostgresBeliefSearch(pool, counts=RecallCounts())
    assert search.lexical(f, ["a bike to work"], limits)
    assert search.structured(f, ["commute"], limits)
    counts = search._counts.counts(f, limits) if search._counts is not None else None
    assert counts is not None and counts.direct == (limits is ROW_BY_ROW)
    assert not {"green", "tea"} & set(counts.lexemes) and not set(KEYS) & set(counts.keys)
    read = _evidence(memory, search, f, limits)
    assert read == _evidence(memory, PostgresBeliefSearch(pool), f, limits)
    assert read.by_id["b-green"].subject_match
