"""Stored traces on the real server: the faithfulness gate reads them back and fails on a
tampered one; retention nulls the operator fields after the tuning window and keeps the
user's view (see "The trace" in docs/architecture.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from psycopg_pool import ConnectionPool

from recallflow import Memory
from recallflow.adapters.postgres.traces import PostgresTraceStore
from recallflow.errors import NotFoundError
from recallflow.evaluation.gates import GateStatus, RecallAudit
from recallflow.models.request import RecallRequest
from recallflow.models.result import RecallResult
from recallflow.policy import Retention
from tests.helpers import belief, patient_policy, request

AS_OF = datetime(2025, 6, 1, tzinfo=UTC)


def _recalled(memory: Memory, tenant: str, days: float = 30.0) -> RecallResult:
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-tea", subject="drink", statement="The user drinks green tea."),
            belief(tenant, id="b-cup", subject="drink-cup", statement="The user uses a blue cup."),
        ]
    )
    policy = patient_policy().model_copy(update={"retention": Retention(operator_days=days)})
    result = memory.recall(
        request(tenant, goal="the user's drink and cup", as_of=AS_OF), policy=policy
    )
    assert {"b-tea", "b-cup"} <= set(result.rendered_ids)
    return result


def _gate(memory: Memory, result: RecallResult) -> RecallAudit:
    audit = RecallAudit()
    audit.observe(RecallRequest.model_validate(request(result.trace.tenant_id)), result)
    return audit


@pytest.mark.parametrize(
    "tamper",
    [
        # the stored bytes edited
        "UPDATE recall_traces SET user_view = jsonb_set(user_view, '{block}',"
        " to_jsonb(replace(user_view ->> 'block', 'green', 'black')))",
        # the recorded ids reordered
        "UPDATE recall_traces SET user_view = jsonb_set(user_view, '{rendered_ids}',"
        " (SELECT jsonb_agg(x ORDER BY x DESC) FROM jsonb_array_elements(user_view"
        " -> 'rendered_ids') x))",
        # the recorded hash replaced
        "UPDATE recall_traces SET rendered_sha256 = repeat('0', 64)",
    ],
)
def test_the_faithfulness_gate_fails_on_a_tampered_stored_trace(
    memory: Memory, tenant: str, tamper: str
) -> None:
    result = _recalled(memory, tenant)
    assert _gate(memory, result).faithfulness(memory.pool).status is GateStatus.PASS
    with memory.pool.connection() as conn:
        changed = conn.execute(
            tamper + " WHERE tenant_id = %s AND id = %s", (tenant, result.trace_id)
        ).rowcount
    assert changed == 1
    gate = _gate(memory, result).faithfulness(memory.pool)
    assert gate.status is GateStatus.FAIL and result.trace_id in gate.detail


def test_retention_nulls_the_operator_fields_after_the_window_and_keeps_the_users(
    memory: Memory, tenant: str
) -> None:
    result = _recalled(memory, tenant, days=2.0)
    trace_id = result.trace_id
    before = memory._traces.stored_size(tenant, "p1", trace_id)
    view = memory.explain(tenant, "p1", trace_id)
    now = datetime.now(UTC)

    # A simulated clock: days ahead of now.
    memory.run_retention(now + timedelta(days=1), allow_future=True)  # inside the window
    assert memory.trace(tenant, "p1", trace_id).rendered_ids == result.rendered_ids

    later = now + timedelta(days=3)
    assert memory.run_retention(later, allow_future=True).operator_expired >= 1
    assert memory.run_retention(later, allow_future=True).operator_expired == 0  # idempotent
    with pytest.raises(NotFoundError):
        memory.trace(tenant, "p1", trace_id)
    assert memory.explain(tenant, "p1", trace_id) == view  # the user's view is untouched
    after = memory._traces.stored_size(tenant, "p1", trace_id)
    assert after < before
    print(f"stored trace: {before} bytes before retention, {after} after")
    # The gate still holds on what is left, and feedback still works against it.
    assert _gate(memory, result).faithfulness(memory.pool).status is GateStatus.PASS
    memory.cite(tenant, "p1", trace_id, ["b-tea"])
    assert [
        i.cited for i in memory.explain(tenant, "p1", trace_id).items if i.belief_id == "b-tea"
    ] == [True]


def test_forgetting_a_belief_scrubs_the_stored_block_and_the_view(
    memory: Memory, tenant: str
) -> None:
    memory.beliefs.add(
        belief(tenant, id="b-odd", subject="drink-odd", statement="The user  drinks <mate>.")
    )
    result = _recalled(memory, tenant)
    assert "b-odd" in result.rendered_ids
    memory.forget_belief(tenant, "p1", "b-odd")
    stored = memory._traces.stored_block(tenant, "p1", result.trace_id)
    assert stored.block is not None and "mate" not in stored.block and "b-odd" not in stored.block
    view = memory.explain(tenant, "p1", result.trace_id)
    assert "mate" not in view.model_dump_json() and "b-odd" not in view.model_dump_json()
    gate = _gate(memory, result).faithfulness(memory.pool)
    assert gate.status is GateStatus.PASS and "erased since" in gate.detail


def test_a_trace_written_through_a_pool_without_autocommit_is_stored(
    memory: Memory, tenant: str
) -> None:
    """The trace's write commits in a pool the caller made (not in autocommit) as in the
    store's own (autocommit, where the pipeline's implicit transaction commits it)."""
    result = _recalled(memory, tenant)
    trace = result.trace.model_copy(update={"id": "tr-own-pool"})
    with ConnectionPool(memory._pool.conninfo, min_size=1, max_size=1) as pool:
        with pool.connection() as conn:
            assert not conn.autocommit
        PostgresTraceStore(pool).save_trace(trace, result.block, result.items, timeout_ms=1000)
    assert memory.trace(tenant, trace.principal_id, "tr-own-pool") == trace
    assert memory.trace(tenant, trace.principal_id, result.trace_id) == result.trace
