"""The miss-hint queue in PostgreSQL: the :class:`~recallflow.ports.FormationSink` a
recall reports misses to (``miss_hints``), the misses a user or an agent reports
(``reported_misses``), and the pending hints of both that formation reads and
acknowledges (see "Feedback and corrections" in docs/architecture.md). The counting rule
is :func:`recallflow.core.misses.after_miss`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from psycopg import Connection
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from recallflow.adapters.postgres.locks import lock_principals
from recallflow.core.erasure import erasure_digest
from recallflow.core.lifecycle import not_found
from recallflow.core.misses import MissState, after_miss
from recallflow.errors import InvalidInputError, NotFoundError, trace_not_found
from recallflow.models.corrections import MissHint, MissReport
from recallflow.models.read_start import ReadStart
from recallflow.policy import Feedback

_COLUMNS = (
    "tenant_id, principal_id, subject, miss_count, first_missed_at, last_missed_at,"
    " queued_at, acknowledged_at"
)


#: A reported miss read as a pending hint: one miss, queued when it was reported.
_REPORTED_COLUMNS = (
    "tenant_id, principal_id, 'reported' AS kind, subject, 1 AS miss_count,"
    " reported_at AS first_missed_at, reported_at AS last_missed_at, reported_at AS queued_at,"
    " acknowledged_at, id, trace_id, belief_id, expected, note"
)
_REPORTED = "SELECT " + _REPORTED_COLUMNS + " FROM reported_misses"


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
        read_since: ReadStart | None = None,
        read_ids: Sequence[str] = (),
    ) -> None:
        with self._pool.connection() as conn, conn.transaction():
            lock_principals(conn, [(tenant_id, principal_id)])
            # An erasure holds the same lock until it commits, so a statement after it sees
            # one that finished while the recall ran, and the beliefs it took from what
            # the recall read (one that recorded its time before the recall began but
            # committed after); the miss would outlive it.
            if read_since is not None:
                erased = conn.execute(
                    "SELECT EXISTS (SELECT 1 FROM erasures WHERE tenant_id = %s"
                    " AND principal_sha256 = %s AND scope = 'principal'"
                    " AND erased_at >= statement_timestamp() - make_interval(secs => %s))"
                    " OR (SELECT count(*) FROM beliefs WHERE tenant_id = %s"
                    " AND principal_id = %s AND id = ANY(string_to_array(%s, ' '))) <> %s",
                    (
                        tenant_id,
                        erasure_digest(tenant_id, principal_id),
                        read_since.seconds_ago(),
                        tenant_id,
                        principal_id,
                        " ".join(sorted(set(read_ids))),
                        len(set(read_ids)),
                    ),
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
            cur = conn.cursor(row_factory=dict_row)
            inferred = cur.execute(
                "SELECT " + _COLUMNS + " FROM miss_hints WHERE tenant_id = %s"
                " AND principal_id = %s AND queued_at IS NOT NULL AND acknowledged_at IS NULL",
                (tenant_id, principal_id),
            ).fetchall()
            reported = cur.execute(
                _REPORTED + " WHERE tenant_id = %s AND principal_id = %s"
                " AND acknowledged_at IS NULL",
                (tenant_id, principal_id),
            ).fetchall()
        hints = [MissHint.model_validate(r) for r in inferred + reported]
        # Oldest first, both kinds in one queue; an inferred hint before a report queued
        # at the same instant, reports by id.
        return sorted(hints, key=lambda h: (h.queued_at, h.kind, h.subject, h.id or ""))

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
                    f" for {tenant_id}/{principal_id}",
                    field="subject",
                )
        return MissHint.model_validate(row)

    def report(
        self,
        tenant_id: str,
        principal_id: str,
        trace_id: str,
        *,
        belief_id: str | None,
        expected: str | None,
        note: str | None,
        report_id: str,
        at: datetime,
    ) -> MissReport:
        with self._pool.connection() as conn, conn.transaction():
            # The principal's write lock: an erasure holds it until it commits, so a report
            # never names a trace or a belief an erasure has just taken.
            lock_principals(conn, [(tenant_id, principal_id)])
            found = conn.execute(
                "SELECT user_view FROM recall_traces"
                " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
                (tenant_id, principal_id, trace_id),
            ).fetchone()
            if found is None or found[0] is None:  # missing, or its session ended
                raise trace_not_found(trace_id, tenant_id, principal_id)
            view: dict[str, object] = found[0]
            subject = expected
            if belief_id is not None:
                row = conn.execute(
                    "SELECT subject FROM beliefs WHERE tenant_id = %s AND principal_id = %s"
                    " AND id = %s",
                    (tenant_id, principal_id, belief_id),
                ).fetchone()
                if row is None:
                    raise not_found(tenant_id, principal_id, belief_id, field="belief_id")
                subject = str(row[0])
                _refuse_shown(conn, tenant_id, principal_id, trace_id, belief_id, view)
            assert subject is not None
            cur = conn.cursor(row_factory=dict_row)
            stored = cur.execute(
                _REPORTED + " WHERE tenant_id = %s AND principal_id = %s AND trace_id = %s"
                " AND belief_id IS NOT DISTINCT FROM %s"
                " AND expected_md5 = md5(coalesce(%s::text, ''))",
                (tenant_id, principal_id, trace_id, belief_id, expected),
            ).fetchone()
            if stored is not None:
                return MissReport(hint=MissHint.model_validate(stored), recorded=False)
            stored = cur.execute(
                "INSERT INTO reported_misses (tenant_id, principal_id, id, trace_id, belief_id,"
                " expected, subject, note, reported_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s,"
                " %s) RETURNING " + _REPORTED_COLUMNS,
                (
                    tenant_id,
                    principal_id,
                    report_id,
                    trace_id,
                    belief_id,
                    expected,
                    subject,
                    note,
                    at,
                ),
            ).fetchone()
        return MissReport(hint=MissHint.model_validate(stored), recorded=True)

    def ack_report(
        self, tenant_id: str, principal_id: str, report_id: str, at: datetime
    ) -> MissHint:
        with self._pool.connection() as conn, conn.transaction():
            cur = conn.cursor(row_factory=dict_row)
            cur.execute(
                "UPDATE reported_misses SET acknowledged_at = greatest(%s, reported_at)"
                " WHERE tenant_id = %s AND principal_id = %s AND id = %s"
                " AND acknowledged_at IS NULL",
                (at, tenant_id, principal_id, report_id),
            )
            row = cur.execute(
                _REPORTED + " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
                (tenant_id, principal_id, report_id),
            ).fetchone()
        if row is None:
            raise NotFoundError(
                f"no reported miss {report_id!r} for {tenant_id}/{principal_id}", field="report_id"
            )
        return MissHint.model_validate(row)


def _refuse_shown(
    conn: Connection[Any],
    tenant_id: str,
    principal_id: str,
    trace_id: str,
    belief_id: str,
    view: dict[str, object],
) -> None:
    """Refuse a report of a belief the recall did show: in its block (an item, or a
    correction told in full) or, for a session's turn, in the session's prefix. It was not
    missed; the model had it."""
    shown = [*_ids(view.get("rendered_ids")), *_ids(view.get("told_ids"))]
    where = f"recall {trace_id!r}"
    if belief_id not in shown and isinstance(view.get("session_id"), str):
        held = conn.execute(
            "SELECT EXISTS (SELECT 1 FROM sessions s,"
            " jsonb_array_elements(s.snapshot_beliefs) AS b(item)"
            " WHERE s.tenant_id = %s AND s.principal_id = %s AND s.id = %s"
            " AND b.item ->> 'belief_id' = %s)",
            (tenant_id, principal_id, view["session_id"], belief_id),
        ).fetchone()
        if held is not None and held[0]:
            shown.append(belief_id)
            where = (
                f"the prefix of session {view['session_id']!r}, which {trace_id!r} is a turn of,"
            )
    if belief_id in shown:
        raise InvalidInputError(
            f"{belief_id!r} was shown by {where} so it was not missed: cite it if the answer"
            " relied on it, or reject it if it is wrong",
            field="belief_id",
            item_id=belief_id,
        )


def _ids(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []
