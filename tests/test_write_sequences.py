"""Random sequences of writes on one principal, then the store's invariants after each: a
refused write leaves every row as it was, no supersession chain has a cycle or a belief
two successors, what a write returns is what a read gives back, and a belief's history
is the belief as stored (see "Lifecycle and history" in docs/architecture.md)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import LifecycleState, Memory, NotFoundError, RecallflowError
from recallflow.models.store import Belief
from tests.helpers import belief

SEQUENCES = settings(
    max_examples=int(os.environ.get("RECALLFLOW_SEQUENCE_EXAMPLES", "12")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
T0 = datetime(2026, 3, 1, tzinfo=UTC)
IDS = [f"b-{i}" for i in range(5)]
_ids = st.sampled_from(IDS)
_day = st.integers(0, 30)


def _draft(tenant: str, bid: str, version: int, day: int, **fields: Any) -> dict[str, Any]:
    return belief(
        tenant,
        id=bid,
        statement=f"The service {bid} runs release {version}.",
        subject="release",
        recorded_at=T0 + timedelta(days=day),
        **fields,
    )


_add = st.tuples(
    st.just("add"),
    st.lists(st.tuples(_ids, st.integers(0, 1), _day, st.none() | _ids), min_size=1, max_size=3),
)
_supersede = st.tuples(st.just("supersede"), _ids, _ids, st.integers(0, 1), _day)
_one = st.tuples(st.sampled_from(["retract", "retire", "forget"]), _ids)
_expire = st.tuples(st.just("expire"), _ids, st.integers(1, 60))
_edge = st.tuples(st.just("edge"), _ids, _ids, st.sampled_from([0.5, 1.0]))
OPERATIONS = st.lists(st.one_of(_add, _supersede, _one, _expire, _edge), min_size=3, max_size=12)


def _snapshot(memory: Memory, tenant: str) -> tuple[Any, ...]:
    """Every row of the tenant in the tables these writes touch."""
    with memory.pool.connection() as conn:
        beliefs = conn.execute(
            "SELECT id, statement, state, supersedes, superseded_by, valid_to::text,"
            " retracted_at::text, flagged"
            " FROM beliefs WHERE tenant_id = %s ORDER BY id",
            (tenant,),
        ).fetchall()
        events = conn.execute(
            "SELECT belief_id, kind, related_id FROM belief_events WHERE tenant_id = %s"
            " ORDER BY id",
            (tenant,),
        ).fetchall()
        edges = conn.execute(
            "SELECT src_id, dst_id, relation, weight FROM belief_edges WHERE tenant_id = %s"
            " ORDER BY 1, 2, 3",
            (tenant,),
        ).fetchall()
    return (beliefs, events, edges)


def _check_chains(stored: dict[str, Belief]) -> None:
    for b in stored.values():
        assert (b.state is LifecycleState.SUPERSEDED) <= (b.superseded_by is not None), b.id
        if b.superseded_by is not None:
            assert b.superseded_by in stored, f"{b.id} names a missing successor"
        seen = {b.id}
        step = b.superseded_by
        while step is not None:
            assert step not in seen, f"supersession cycle through {b.id}"
            seen.add(step)
            step = stored[step].superseded_by if step in stored else None
    for b in stored.values():
        if b.supersedes is not None and b.supersedes in stored:
            # The predecessor a belief names has that belief as its successor: never another,
            # and none once retired (it never held, so nothing replaced it).
            before = stored[b.supersedes]
            named = None if before.state is LifecycleState.RETIRED else b.id
            assert before.superseded_by == named, (b.id, b.supersedes)


def _run(memory: Memory, tenant: str, op: tuple[Any, ...]) -> Callable[[], Any]:
    kind = op[0]
    if kind == "add":
        drafts = [
            _draft(tenant, bid, version, day, supersedes=pred)
            for bid, version, day, pred in op[1]
            if pred != bid
        ]
        return lambda: memory.beliefs.add_many(drafts)
    if kind == "supersede":
        _, old, new, version, day = op
        return lambda: memory.supersede(old, _draft(tenant, new, version, day))
    if kind == "retract":
        return lambda: memory.retract(tenant, "p1", op[1], reason="wrong")
    if kind == "retire":
        return lambda: memory.retire(tenant, "p1", op[1])
    if kind == "forget":
        return lambda: memory.forget_belief(tenant, "p1", op[1])
    if kind == "expire":
        at = T0 + timedelta(days=op[2])
        return lambda: memory.expire(tenant, "p1", op[1], at=at)
    edge = {"tenant_id": tenant, "principal_id": "p1", "src_id": op[1], "dst_id": op[2]}
    return lambda: memory.edges.add({**edge, "weight": op[3]})


@pytest.mark.filterwarnings("ignore::hypothesis.errors.NonInteractiveExampleWarning")
@SEQUENCES
@given(operations=OPERATIONS)
def test_random_write_sequences_keep_the_stores_invariants(
    memory: Memory, operations: list[tuple[Any, ...]]
) -> None:
    tenant = f"t-seq-{uuid.uuid4().hex[:10]}"
    for op in operations:
        before = _snapshot(memory, tenant)
        try:
            returned = _run(memory, tenant, op)()
        except RecallflowError:
            assert _snapshot(memory, tenant) == before, f"{op} was refused but wrote"
            returned = None
        stored = {b.id: b for b in memory.beliefs.list(tenant, "p1")}
        _check_chains(stored)
        written = returned if isinstance(returned, list) else [returned]
        for b in written:
            if isinstance(b, Belief):
                assert b.model_dump() == stored[b.id].model_dump(), (op, b.id)
        for bid in IDS:
            if bid not in stored:
                with pytest.raises(NotFoundError):
                    memory.beliefs.history(tenant, "p1", bid)
                continue
            history = memory.beliefs.history(tenant, "p1", bid)
            assert history.belief.model_dump() == stored[bid].model_dump()
            assert [link.id for link in history.successors][:1] == (
                [stored[bid].superseded_by] if stored[bid].superseded_by else []
            )
