"""The Postgres :class:`~recallflow.ports.TraceStore` (ADR-0019 decisions 14, 15).

One row per recall: the operator view (the whole trace, nullable so a retention job can
expire it after the tuning window) and the user-safe view (rendered ids and counts only:
no scores, latencies, candidate ids or policy internals) side by side.

A trace is written on the recall's path, before the block is handed over, and committed
without waiting for the WAL flush (``synchronous_commit = off`` for that transaction
only): the row is in the database, visible and ordered like any other, and only a crash
of the *server* within a fraction of a second (three times ``wal_writer_delay``) can lose it;
a belief write is never committed that way. Waiting for the flush costs an fsync per
recall (2–4 ms on the development box's disk, more than the rest of the trace's write);
``PostgresTraceStore(pool, durable=True)`` waits for it.
"""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from recallflow.errors import NotFoundError
from recallflow.models.result import RecallTrace
from recallflow.policy import RetrievalPolicy


def user_view(trace: RecallTrace) -> dict[str, Any]:
    """The user-safe projection stored beside the operator view."""
    return {
        "rendered_ids": list(trace.rendered_ids),
        "dropped_below_floor": trace.floor_dropped,
        "dropped_by_budget": trace.budget_dropped,
        "blocked": trace.blocked,
    }


class PostgresTraceStore:
    """RecallTraces in the ``recall_traces`` table."""

    def __init__(self, pool: ConnectionPool, *, durable: bool = False) -> None:
        self._pool = pool
        self._durable = durable

    def save_trace(self, trace: RecallTrace) -> None:
        operator = trace.model_dump_json()  # sent as text and cast: serialised once
        # BEGIN, SET LOCAL, INSERT and COMMIT travel in one round trip.
        with self._pool.connection() as conn, conn.pipeline(), conn.transaction():
            if not self._durable:
                conn.execute("SET LOCAL synchronous_commit = off")
            conn.execute(
                "INSERT INTO recall_traces (tenant_id, principal_id, id, session_id, moment,"
                " surface, as_of, rendered_sha256, retrieval_policy_version, degraded,"
                " user_view, operator_view)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb)",
                (
                    trace.tenant_id,
                    trace.principal_id,
                    trace.id,
                    trace.session_id,
                    trace.moment.value,
                    trace.surface.value,
                    trace.as_of,
                    trace.rendered_sha256,
                    trace.retrieval_policy_version,
                    trace.degraded,
                    Jsonb(user_view(trace)),
                    operator,
                ),
            )

    def record_policy(self, policy: RetrievalPolicy) -> None:
        """Record the policy a ``retrieval_policy_version`` stands for (once per version)."""
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO policy_versions (version, policy) VALUES (%s, %s)"
                " ON CONFLICT (version) DO NOTHING",
                (policy.version, Jsonb(policy.model_dump(mode="json"))),
            )

    def get_trace(self, tenant_id: str, principal_id: str, trace_id: str) -> RecallTrace:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT operator_view FROM recall_traces"
                " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
                (tenant_id, principal_id, trace_id),
            ).fetchone()
        if row is None or row[0] is None:
            raise NotFoundError(f"no trace {trace_id!r} for {tenant_id}/{principal_id}")
        return RecallTrace.model_validate(row[0])
