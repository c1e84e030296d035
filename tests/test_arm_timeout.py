"""The arm timeout on the real embedded server: PostgreSQL cancels an arm that runs past
the policy's ``limits.timeout_ms``, the arm degrades and the recall still returns."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from recallflow import Memory
from recallflow.adapters.postgres.pool import RECALL_BACKSTOP_TIMEOUT_MS
from recallflow.cli import demo
from recallflow.evaluation.gates import RecallAudit
from recallflow.models.request import RecallRequest
from recallflow.models.result import Arm
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy
from tests.helpers import request as make_request
from tests.test_recall import AS_OF, demo_memory, recall_demo  # noqa: F401  (fixture)

QUESTION = "How are money amounts represented in cents?"


@pytest.fixture
def quick_policy() -> RetrievalPolicy:
    """The default policy with a short arm timeout (still far above a healthy arm's)."""
    limits = DEFAULT_POLICY.limits.model_copy(update={"timeout_ms": 250})
    return DEFAULT_POLICY.model_copy(update={"limits": limits})


#: How long another session holds the belief edges: well past the policy's timeout, and
#: short of the recall pool's backstop timeout, so only the policy's timeout can cancel
#: the arm before the lock goes (an arm that merely waited would end with hits).
LOCK_HELD_S = 1.5


@contextmanager
def edges_locked(memory: Memory) -> Iterator[None]:
    """Another session holds an exclusive lock on the belief edges for ``LOCK_HELD_S``, as
    a long migration would: only graph expansion reads them, so only that arm waits. On
    exit, the lock has been released."""
    locked = threading.Event()

    def hold() -> None:
        with memory.pool.connection() as conn, conn.transaction():
            conn.execute("LOCK TABLE belief_edges IN ACCESS EXCLUSIVE MODE")
            locked.set()
            time.sleep(LOCK_HELD_S)

    holder = threading.Thread(target=hold, name="edges-lock")
    holder.start()
    try:
        assert locked.wait(timeout=30)
        yield
    finally:
        holder.join()


def test_postgres_cancels_a_slow_arm_and_the_recall_goes_on(
    demo_memory: Memory,  # noqa: F811
    quick_policy: RetrievalPolicy,
) -> None:
    assert quick_policy.limits.timeout_ms < LOCK_HELD_S * 1000 < RECALL_BACKSTOP_TIMEOUT_MS
    with edges_locked(demo_memory):
        result = recall_demo(demo_memory, QUESTION, policy=quick_policy)
    assert result.trace.degraded_arms == (Arm.GRAPH_EXPANDED,)
    arm = next(a for a in result.trace.arms if a.arm is Arm.GRAPH_EXPANDED)
    assert arm.error == "timeout after 250 ms"
    assert "b-mob-money" in result.rendered_ids
    assert result.block.startswith("<memory>")
    # The cancelled arm's connection went back to the pool usable: with the lock gone,
    # every arm runs again, on whichever connections the pool hands out.
    for _ in range(4):
        again = recall_demo(demo_memory, QUESTION, policy=quick_policy)
        assert not again.degraded
        assert any(a.hits for a in again.trace.arms if a.arm is Arm.GRAPH_EXPANDED)


def test_the_eval_audit_counts_a_recall_that_ran_without_an_arm(
    demo_memory: Memory,  # noqa: F811
    quick_policy: RetrievalPolicy,
) -> None:
    """An evaluation run on a loaded machine must say that some of its recalls lost an arm
    (their figures are then lower than the code's), naming the arm and why."""
    audit = RecallAudit()
    request = RecallRequest.model_validate(
        make_request(demo.TENANT, demo.PRINCIPAL, QUESTION, project=demo.MOBILE, as_of=AS_OF)
    )
    audit.observe(request, demo_memory.recall(request, policy=quick_policy))
    assert audit.degraded().degraded == 0
    with edges_locked(demo_memory):
        slow = demo_memory.recall(request, policy=quick_policy)
    audit.observe(request, slow)
    counted = audit.degraded()
    assert (counted.recalls, counted.degraded) == (2, 1)
    assert counted.by_part == {f"arm {Arm.GRAPH_EXPANDED.value}": 1}
    assert len(counted.examples) == 1 and "timeout after 250 ms" in counted.examples[0]
