"""The miss-hint queue in PostgreSQL (``miss_hints``): the
:class:`~recallflow.ports.FormationSink` a recall reports misses to, and the pending hints
formation reads and acknowledges (see "Feedback and corrections" in docs/architecture.md).
The counting rule is :func:`recallflow.core.misses.after_miss`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from recallflow.adapters.postgres.locks import lock_principals
from recallflow.adapters.postgres.traces import unless_erased_values
from recallflow.core.misses import MissState, after_miss
from recallflow.errors import NotFoundError
from recallflow.models.corrections import MissHint
from recallflow.policy import Feedback

_COLUMNS = (
    "tenant_id, principal_id, subject, miss_count, first_missed_at, last_missed_at,"
    " queued_at, acknowledged_at"
)


class PostgresMissHints:
    """Miss hints in PostgreSQL, through the store pool."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    def record_miss(
        self,
        tenant_id: str,
        principal_id: str,
        subjects: Sequence[str],
        *,
        at: datetime,
        rule: Feedback,
        read_since: datetime | None = None,
    ) -> None:
        with self._pool.connection() as conn, conn.transaction():
            lock_principals(conn, [(tenant_id, principal_id)])
            # An erasure holds the same lock until it commits, so a statement after it sees
            # one that finished while the recall ran; the miss would outlive it.
            if read_since is not None:
                erased = conn.execute(
                    "SELECT EXISTS (SELECT 1 FROM erasures WHERE tenant_id = %s"
                    " AND principal_sha256 = %s AND erased_at >= %s AND scope = 'principal')",
                    unless_erased_values(tenant_id, principal_id, read_since),
                ).fetchone()
                if erased is not None and erased[0]:
                    return
            for subject in dict.fromkeys(subjects):
                row = conn.execute(
                    "SELECT miss_count, first_missed_at, last_missed_at, queued_at,"
                    " acknowledged_at FROM miss_hints"
                    " WHERE tenant_id = %s AND principal_id = %s AND subject = %s",
                    (tenant_id, principal_id, subject),
                ).fetchone()
                state = after_miss(MissState(*row) if row else None, at, rule)
                conn.execute(
                    "INSERT INTO miss_hints (" + _COLUMNS + ")"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT (tenant_id, principal_id, subject) DO UPDATE SET"
                    " miss_count = EXCLUDED.miss_count, first_missed_at = EXCLUDED.first_missed_at,"
                    " last_missed_at = EXCLUDED.last_missed_at, queued_at = EXCLUDED.queued_at,"
                    " acknowledged_at = EXCLUDED.acknowledged_at",
                    (
                        tenant_id,
                        principal_id,
                        subject,
                        state.miss_count,
                        state.first_missed_at,
                        state.last_missed_at,
                        state.queued_at,
                        state.acknowledged_at,
                    ),
                )

    def pending(self, tenant_id: str, principal_id: str) -> list[MissHint]:
        with self._pool.connection() as conn:
            rows = (
                conn.cursor(row_factory=dict_row)
                .execute(
                    "SELECT " + _COLUMNS + " FROM miss_hints WHERE tenant_id = %s"
                    " AND principal_id = %s AND queued_at IS NOT NULL AND acknowledged_at IS NULL"
                    " ORDER BY queued_at, subject",
                    (tenant_id, principal_id),
                )
                .fetchall()
            )
        return [MissHint.model_validate(r) for r in rows]

    def ack(self, tenant_id: str, principal_id: str, subject: str, at: datetime) -> MissHint:
        with self._pool.connection() as conn, conn.transaction():
            cur = conn.cursor(row_factory=dict_row)
            row = cur.execute(
                "UPDATE miss_hints SET acknowledged_at = greatest(%s, queued_at)"
                " WHERE tenant_id = %s AND principal_id = %s AND subject = %s"
                " AND queued_at IS NOT NULL AND acknowledged_at IS NULL RETURNING " + _COLUMNS,
                (at, tenant_id, principal_id, subject),
            ).fetchone()
            if row is None:
                row = cur.execute(
                    "SELECT " + _COLUMNS + " FROM miss_hints WHERE tenant_id = %s"
                    " AND principal_id = %s AND subject = %s AND acknowledged_at IS NOT NULL",
                    (tenant_id, principal_id, subject),
                ).fetchone()
            if row is None:
                raise NotFoundError(
                    f"no queued miss hint of subject {subject[:60]!r}"
                    f" for {tenant_id}/{principal_id}"
                )
        return MissHint.model_validate(row)
