"""A conflict ends when it has one live member left, on the real embedded server: however
the other member leaves — forgotten, retired, retracted, expired, superseded or rejected as
not true — the survivor is no longer disputed. It returns to the state it would have
without the conflict, a recall shows it as a plain item, and its history says why (see
"Lifecycle writes" in docs/corrections.md)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from recallflow import LifecycleState, Memory
from tests.helpers import belief, patient_policy, request

GOAL = "Which queue do billing jobs run on?"
SIDES = {
    "b-queue-sidekiq": "Billing jobs run on the Sidekiq queue.",
    "b-queue-resque": "Billing jobs run on the Resque queue.",
    "b-queue-celery": "Billing jobs run on the Celery queue.",
}


def store_conflict(memory: Memory, tenant: str, principal: str, members: int = 2) -> None:
    memory.beliefs.add_many(
        [
            belief(tenant, principal, id=bid, statement=text, subject="billing-queue",
                   state="conflicted", conflict_set_id="c-queue", confidence=0.9)
            for bid, text in list(SIDES.items())[:members]
        ]
    )  # fmt: skip


def rows_of(memory: Memory, tenant: str, principal: str) -> dict[str, list[str]]:
    out = {}
    with memory.pool.connection() as conn:
        for table in ("beliefs", "belief_events"):
            out[table] = sorted(
                str(r[0])
                for r in conn.execute(
                    f"SELECT t::text FROM {table} t WHERE tenant_id = %s AND principal_id = %s",
                    (tenant, principal),
                ).fetchall()
            )
    return out


def _forget(memory: Memory, tenant: str) -> None:
    memory.forget_belief(tenant, "p1", "b-queue-sidekiq")


def _retire(memory: Memory, tenant: str) -> None:
    memory.retire(tenant, "p1", "b-queue-sidekiq", reason="moved off Sidekiq")


def _retract(memory: Memory, tenant: str) -> None:
    memory.retract(tenant, "p1", "b-queue-sidekiq", reason="recorded by mistake")


def _expire(memory: Memory, tenant: str) -> None:
    memory.expire(tenant, "p1", "b-queue-sidekiq", at=datetime.now(UTC))


def _supersede(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(
        belief(tenant, id="b-queue-later", statement="Nightly exports run on cron.",
               subject="exports", supersedes="b-queue-sidekiq")
    )  # fmt: skip


def _reject_not_true(memory: Memory, tenant: str) -> None:
    traced = memory.recall(request(tenant, goal=GOAL), policy=patient_policy())
    assert "b-queue-sidekiq" in traced.rendered_ids
    memory.reject(tenant, "p1", traced.trace_id, "b-queue-sidekiq", "not_true")


LEAVES: dict[str, Callable[[Memory, str], None]] = {
    "forgotten": _forget,
    "retired": _retire,
    "retracted": _retract,
    "expired": _expire,
    "superseded": _supersede,
    "rejected": _reject_not_true,
}


@pytest.mark.parametrize("how", sorted(LEAVES))
def test_the_other_member_of_a_conflict_of_two_is_no_longer_disputed(
    memory: Memory, tenant: str, how: str
) -> None:
    store_conflict(memory, tenant, "p1")
    store_conflict(memory, tenant, "p2")
    before = rows_of(memory, tenant, "p2")
    LEAVES[how](memory, tenant)

    survivor = memory.beliefs.get(tenant, "p1", "b-queue-resque")
    assert survivor.state is LifecycleState.ACTIVE and survivor.conflict_set_id is None
    last = memory.beliefs.history(tenant, "p1", "b-queue-resque").events[-1]
    assert last.kind == "resolved"
    assert last.reason is not None and "c-queue" in last.reason
    assert "b-queue-sidekiq" not in last.reason and last.related_id is None

    result = memory.recall(request(tenant, goal=GOAL), policy=patient_policy())
    assert "b-queue-resque" in result.rendered_ids
    assert "- conflict" not in result.block and "  - [b-queue-resque]" not in result.block
    assert "b-queue-sidekiq" not in result.rendered_ids
    # Handed to the agent as undisputed: no conflict set on the item (a tool result, the
    # trace's "in conflict" mark) and no conflicted discount in its score.
    item = next(i for i in result.items if i.belief_id == "b-queue-resque")
    assert item.conflict_set_id is None
    assert rows_of(memory, tenant, "p2") == before  # another principal's conflict stands
    assert memory.beliefs.get(tenant, "p2", "b-queue-resque").state is LifecycleState.CONFLICTED


def test_forgetting_one_of_three_leaves_a_conflict_of_two(memory: Memory, tenant: str) -> None:
    store_conflict(memory, tenant, "p1", members=3)
    memory.forget_belief(tenant, "p1", "b-queue-sidekiq")
    for bid in ("b-queue-resque", "b-queue-celery"):
        stored = memory.beliefs.get(tenant, "p1", bid)
        assert stored.state is LifecycleState.CONFLICTED and stored.conflict_set_id == "c-queue"
        assert [e.kind for e in memory.beliefs.history(tenant, "p1", bid).events] == ["created"]
    result = memory.recall(request(tenant, goal=GOAL), policy=patient_policy())
    assert "- conflict c-queue" in result.block
    assert {"b-queue-resque", "b-queue-celery"} <= set(result.rendered_ids)


def test_a_conflict_whose_survivor_has_ended_returns_it_expired(
    memory: Memory, tenant: str
) -> None:
    """The survivor's own validity already ended: without the conflict it would be
    expired, never live again."""
    ended = datetime(2026, 6, 1, tzinfo=UTC)
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-queue-sidekiq", statement=SIDES["b-queue-sidekiq"],
                   subject="billing-queue", state="conflicted", conflict_set_id="c-queue"),
            belief(tenant, id="b-queue-resque", statement=SIDES["b-queue-resque"],
                   subject="billing-queue", state="conflicted", conflict_set_id="c-queue",
                   valid_to=ended),
        ]
    )  # fmt: skip
    memory.retire(tenant, "p1", "b-queue-sidekiq")
    assert memory.beliefs.get(tenant, "p1", "b-queue-resque").state is LifecycleState.EXPIRED
