"""Ingestion on the real embedded server: typed errors, all-or-nothing batches."""

from __future__ import annotations

import warnings
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from recallflow import (
    Belief,
    ConflictError,
    ConstraintViolation,
    InvalidInputError,
    LifecycleState,
    Memory,
    NotFoundError,
)
from recallflow.adapters.postgres.beliefs import PostgresBeliefStore
from recallflow.models.store import BeliefDraft
from tests.helpers import belief


def _count(memory: Memory, tenant: str) -> int:
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM beliefs WHERE tenant_id = %s", (tenant,)
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_add_then_get_round_trips_every_field(memory: Memory, tenant: str) -> None:
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    draft = belief(
        tenant,
        id="b-1",
        statement="Deploys go through Fly.io.",
        subject="Deploy Target",
        entities=["Fly.io", "fly.io", "deploy"],
        scope="project",
        origin_project="billing",
        portability="local",
        belief_type="procedure",
        confidence=0.8,
        valid_from=when,
        sensitivity="personal",
        corroborating_projects=["b", "a", "b"],
    )
    stored = memory.beliefs.add(draft)
    loaded = memory.beliefs.get(tenant, "p1", "b-1")
    assert loaded == stored
    assert loaded.subject == "deploy-target"
    assert loaded.entities == ("fly.io", "deploy")
    assert loaded.corroborating_projects == ("a", "b")
    assert loaded.valid_from == when and loaded.valid_to is None
    assert int(loaded.sensitivity) == 2


def test_generated_ids_are_unique(memory: Memory, tenant: str) -> None:
    stored = memory.beliefs.add_many([belief(tenant) for _ in range(50)])
    assert len({b.id for b in stored}) == 50
    assert _count(memory, tenant) == 50


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"confidence": 1.5}, "confidence"),
        ({"statement": "   "}, "statement"),
        ({"state": "forgotten"}, "state"),
        ({"subject": "!!!"}, "subject"),
        ({"tenant_id": ""}, "tenant_id"),
        ({"sensitivity": "top-secret"}, "sensitivity"),
        ({"scope": "project"}, None),  # no origin_project: a model-level rule
    ],
)
def test_invalid_item_in_a_batch_names_item_and_field_and_writes_nothing(
    memory: Memory, tenant: str, bad: dict[str, Any], field: str | None
) -> None:
    batch = [belief(tenant), belief(tenant), belief(tenant, **bad), belief(tenant)]
    with pytest.raises(InvalidInputError) as info:
        memory.beliefs.add_many(batch)
    assert info.value.item_index == 2
    if field is not None:
        assert info.value.field == field
        assert field in str(info.value)
    assert _count(memory, tenant) == 0


def test_database_check_constraint_is_typed_and_rolls_back(memory: Memory, tenant: str) -> None:
    # Bypass model validation to prove the database itself refuses a bad row.
    good = memory.beliefs.add(belief(tenant, id="b-good"))
    bad = Belief.model_construct(**{**good.model_dump(), "id": "b-bad", "confidence": 7.0})
    fresh = Belief.model_construct(**{**good.model_dump(), "id": "b-fresh"})
    store = PostgresBeliefStore(memory.pool)
    vectors = np.zeros((2, memory.embedder.dimension), dtype=np.float32)
    with pytest.raises(ConstraintViolation) as info:
        store.write_beliefs([fresh, bad], vectors)
    assert info.value.field == "confidence"
    assert info.value.item_index == 1 and info.value.item_id == "b-bad"
    assert info.value.constraint == "beliefs_confidence_check"
    assert _count(memory, tenant) == 1


def test_a_stored_id_with_other_content_is_a_conflict(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(belief(tenant, id="b-1"))
    with pytest.raises(ConflictError) as info:
        memory.beliefs.add_many(
            [belief(tenant, id="b-2"), belief(tenant, id="b-1", statement="Light mode.")]
        )
    assert info.value.field == "statement" and info.value.item_index == 1
    assert _count(memory, tenant) == 1


def test_duplicate_id_within_a_batch_is_refused_before_writing(memory: Memory, tenant: str) -> None:
    with pytest.raises(InvalidInputError, match="duplicate") as info:
        memory.beliefs.add_many([belief(tenant, id="b-1"), belief(tenant, id="b-1")])
    assert info.value.item_index == 1
    assert _count(memory, tenant) == 0


def test_reference_to_a_missing_episode_names_the_item(memory: Memory, tenant: str) -> None:
    with pytest.raises(ConstraintViolation) as info:
        memory.beliefs.add_many(
            [belief(tenant, id="b-1"), belief(tenant, id="b-2", source_episode_id="e-none")]
        )
    assert info.value.field == "source_episode_id"
    assert info.value.item_index == 1
    assert _count(memory, tenant) == 0


def test_references_cannot_cross_principals(memory: Memory, tenant: str) -> None:
    memory.episodes.add(
        {
            "id": "e-1",
            "tenant_id": tenant,
            "principal_id": "p1",
            "occurred_at": datetime.now(UTC),
            "content": "hello",
        }
    )
    memory.beliefs.add(belief(tenant, principal="p1", id="b-ok", source_episode_id="e-1"))
    with pytest.raises(ConstraintViolation):
        memory.beliefs.add(belief(tenant, principal="p2", id="b-x", source_episode_id="e-1"))


def test_supersession_links_within_one_batch_in_any_order(memory: Memory, tenant: str) -> None:
    old = belief(tenant, id="b-old", state="superseded", superseded_by="b-new")
    new = belief(tenant, id="b-new", supersedes="b-old")
    memory.beliefs.add_many([old, new])
    assert memory.beliefs.get(tenant, "p1", "b-old").state is LifecycleState.SUPERSEDED


def test_validity_interval_must_be_ordered(memory: Memory, tenant: str) -> None:
    now = datetime.now(UTC)
    with pytest.raises(InvalidInputError, match="valid_from must be before valid_to"):
        memory.beliefs.add(belief(tenant, valid_from=now, valid_to=now - timedelta(days=1)))


def test_a_draft_with_no_scope_and_no_project_is_told_both_ways_out(
    memory: Memory, tenant: str
) -> None:
    """``scope`` defaults to ``project``, so a first draft with a statement and a subject
    alone was refused as "origin_project is required when scope is 'project'": a scope
    its writer never set, and no word of the other way out, ``scope='user'``."""
    draft = {
        "tenant_id": tenant,
        "principal_id": "p1",
        "statement": "Ada likes tea.",
        "subject": "tea",
    }
    with pytest.raises(InvalidInputError) as refused:
        memory.beliefs.add(draft)
    assert refused.value.field == "origin_project"
    assert "(the default)" in str(refused.value) and "scope to 'user'" in str(refused.value)
    assert _count(memory, tenant) == 0
    assert memory.beliefs.add({**draft, "scope": "user"}).scope.value == "user"


def test_naive_datetimes_are_refused(memory: Memory, tenant: str) -> None:
    with pytest.raises(InvalidInputError, match="timezone-aware"):
        memory.beliefs.add(belief(tenant, valid_from=datetime(2026, 1, 1)))


def test_embedding_of_wrong_dimension_names_the_field(memory: Memory, tenant: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        memory.beliefs.add_many([belief(tenant), belief(tenant, embedding=[0.1, 0.2])])
    assert info.value.field == "embedding" and info.value.item_index == 1
    assert _count(memory, tenant) == 0


@pytest.mark.parametrize(
    ("first", "message"),
    [(float("nan"), "contains NaN or infinity"), (0.5, "has length 0.5, not 1")],
)
def test_the_first_bad_given_vector_is_named_whatever_follows_it(
    memory: Memory, tenant: str, first: float, message: str
) -> None:
    """Given vectors are checked as one array; the error still names the first bad item,
    not a later one of the wrong length nor one whose fault is checked first. The vectors
    are set with ``model_copy``, as a formation process adding them to drafts may, which
    does not validate them."""
    dim = memory.embedder.dimension
    rows = [
        [1.0] + [0.0] * (dim - 1),
        [first] + [0.0] * (dim - 1),
        [0.1, 0.2],
        [float("inf")] + [0.0] * (dim - 1),
    ]
    batch = [
        BeliefDraft.model_validate(belief(tenant, id=f"b-{i}")).model_copy(
            update={"embedding": row}
        )
        for i, row in enumerate(rows)
    ]
    with pytest.raises(InvalidInputError, match=message) as info:
        memory.beliefs.add_many(batch)
    assert (info.value.field, info.value.item_index, info.value.item_id) == ("embedding", 1, "b-1")
    assert _count(memory, tenant) == 0


def test_a_given_vector_beyond_a_32_bit_floats_range_is_refused_without_a_warning(
    memory: Memory, tenant: str
) -> None:
    """A finite number past ±3.4e38 overflowed to infinity as the vector was read into the
    store's 32-bit floats, with numpy's RuntimeWarning on the caller's stderr (an exception
    in a program that turns warnings into errors, and then no typed error at all)."""
    vector = [1e300] + [0.0] * (memory.embedder.dimension - 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(InvalidInputError, match="32-bit float") as info:
            memory.beliefs.add_many([belief(tenant), belief(tenant, id="b-far", embedding=vector)])
    assert (info.value.field, info.value.item_index, info.value.item_id) == (
        "embedding",
        1,
        "b-far",
    )
    assert _count(memory, tenant) == 0


def test_precomputed_embedding_is_stored_as_given(memory: Memory, tenant: str) -> None:
    vector = [0.0] * memory.embedder.dimension
    vector[3] = 1.0
    memory.beliefs.add(belief(tenant, id="b-v", embedding=vector))
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT embedding FROM beliefs WHERE tenant_id = %s AND id = 'b-v'", (tenant,)
        ).fetchone()
    assert row is not None
    assert np.allclose(row[0].to_numpy(), vector)


def test_computed_embedding_matches_the_embedder(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(belief(tenant, id="b-e", statement="Ada deploys with Fly.io"))
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT embedding FROM beliefs WHERE tenant_id = %s AND id = 'b-e'", (tenant,)
        ).fetchone()
    assert row is not None
    expected = memory.embedder.embed(["Ada deploys with Fly.io"])[0]
    assert np.allclose(row[0].to_numpy(), expected, atol=1e-6)


def test_get_unknown_id_raises_not_found(memory: Memory, tenant: str) -> None:
    with pytest.raises(NotFoundError):
        memory.beliefs.get(tenant, "p1", "b-missing")


def test_edges_batch_is_all_or_nothing(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many([belief(tenant, id="b-1"), belief(tenant, id="b-2")])
    edge = {"tenant_id": tenant, "principal_id": "p1", "src_id": "b-1", "dst_id": "b-2"}
    with pytest.raises(ConstraintViolation) as info:
        memory.edges.add_many([edge, {**edge, "dst_id": "b-missing"}])
    assert info.value.field == "dst_id" and info.value.item_index == 1
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM belief_edges WHERE tenant_id = %s", (tenant,)
        ).fetchone()
    assert row is not None and row[0] == 0


def test_the_same_edge_twice_in_a_batch_is_refused_before_writing(
    memory: Memory, tenant: str
) -> None:
    """As the same belief id twice in a batch is: refused naming the later item and the
    earlier one, whether the edge is new (the server's unique key refused it, in its own
    words) or already stored (both copies were taken silently), and nothing is written."""
    memory.beliefs.add_many([belief(tenant, id=f"b-{i}") for i in range(4)])
    edge = {"tenant_id": tenant, "principal_id": "p1", "src_id": "b-0", "dst_id": "b-1"}
    memory.edges.add(edge)
    for twice in ({**edge, "src_id": "b-2"}, edge):
        batch = [{**edge, "dst_id": "b-3"}, twice, {**edge, "src_id": "b-3"}, dict(twice)]
        with pytest.raises(InvalidInputError, match="duplicate edge in the batch") as info:
            memory.edges.add_many(batch)
        assert (info.value.item_index, info.value.field) == (3, "src_id")
        assert "item 1" in str(info.value)
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM belief_edges WHERE tenant_id = %s", (tenant,)
        ).fetchone()
    assert row is not None and row[0] == 1


def test_feedback_events_are_append_only(memory: Memory, tenant: str) -> None:
    import psycopg

    memory.beliefs.add(belief(tenant, id="b-1"))
    with memory.pool.connection() as conn:
        conn.execute(
            "INSERT INTO feedback_events (tenant_id, principal_id, belief_id, kind)"
            " VALUES (%s, 'p1', 'b-1', 'cited')",
            (tenant,),
        )
    with (
        pytest.raises(psycopg.errors.IntegrityConstraintViolation),
        memory.pool.connection() as conn,
    ):
        conn.execute("DELETE FROM feedback_events WHERE tenant_id = %s", (tenant,))


def test_a_retraction_before_the_belief_was_recorded_names_the_field(
    memory: Memory, tenant: str
) -> None:
    """A draft without ``recorded_at`` is recorded now, so a ``retracted_at`` in the past
    is refused by the belief's own check of the two, which has no field of its own: the
    error named none (``field`` None, no ``field '...'`` in its line)."""
    with pytest.raises(InvalidInputError) as info:
        draft = belief(tenant, retracted_at="2000-01-01T00:00:00Z")
        del draft["recorded_at"]
        memory.beliefs.add(draft)
    assert info.value.field == "recorded_at" and "retracted_at" in str(info.value)
    assert _count(memory, tenant) == 0
