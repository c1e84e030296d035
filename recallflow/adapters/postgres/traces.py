"""The Postgres :class:`~recallflow.ports.TraceStore` (see "The trace" in
docs/architecture.md).

One row per recall: the operator view (the whole trace, nullable: the retention job nulls
it once ``operator_expires_at`` has passed) and the user-safe view side by side. The user
view holds the rendered ids (and the beliefs a session turn's corrections told in full),
each rendered item as the agent saw it, the exact block text
(so the trace-faithfulness gate can re-hash the stored bytes) and counts only: no scores,
latencies, candidate ids or policy internals.

A trace is written on the recall's path, before the block is handed over, and committed
without waiting for the WAL flush (``synchronous_commit = off`` for that transaction
only): the row is in the database, visible and ordered like any other, and only a crash
of the *server* within a fraction of a second (three times ``wal_writer_delay``) can lose it;
a belief write is never committed that way. Waiting for the flush costs an fsync per
recall (2–4 ms on the development box's disk, more than the rest of the trace's write);
``PostgresTraceStore(pool, durable=True)`` waits for it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool
from pydantic import ValidationError
from pydantic_core import to_json

from recallflow.adapters.postgres.locks import HOLD_ERASURE_FENCE, erasure_fence_key
from recallflow.adapters.postgres.statements import (
    pipeline,
    raw_cursor_class,
    set_configs,
    set_local,
    setting_values,
)
from recallflow.core.corrections import correction_line, named_ids, told_peers
from recallflow.core.erasure import erasure_digest, read_ids
from recallflow.core.render import statement_text
from recallflow.core.trace_view import BeliefFacts
from recallflow.errors import ErasedMeanwhileError, trace_not_found
from recallflow.models.read_start import ReadStart
from recallflow.models.result import RecalledItem, RecallTrace
from recallflow.models.store import Sensitivity
from recallflow.models.trace_view import RetentionRun
from recallflow.policy import RetrievalPolicy

# A session with no end, idle for the window since its last trace (or its opening), ends
# then. The window is seconds; (tenant, principal, session_id, created_at) is indexed.
_END_IDLE = (
    "INSERT INTO session_ends (tenant_id, principal_id, session_id, ended_at, reason)"
    " SELECT s.tenant_id, s.principal_id, s.id, a.last + make_interval(secs => %(idle)s), 'idle'"
    " FROM sessions s CROSS JOIN LATERAL (SELECT greatest(s.created_at, max(t.created_at))"
    " AS last FROM recall_traces t WHERE t.tenant_id = s.tenant_id"
    " AND t.principal_id = s.principal_id AND t.session_id = s.id) a"
    " WHERE a.last + make_interval(secs => %(idle)s) <= %(now)s AND NOT EXISTS (SELECT 1"
    " FROM session_ends e WHERE e.tenant_id = s.tenant_id AND e.principal_id = s.principal_id"
    " AND e.session_id = s.id)"
)
# A child run ends with its parent (one generation per statement; run until none).
_END_CHILDREN = (
    "INSERT INTO session_ends (tenant_id, principal_id, session_id, ended_at, reason)"
    " SELECT c.tenant_id, c.principal_id, c.id, p.ended_at, 'parent_ended'"
    " FROM sessions c JOIN session_ends p ON p.tenant_id = c.tenant_id"
    " AND p.principal_id = c.principal_id AND p.session_id = c.parent_session_id"
    " WHERE p.ended_at <= %(now)s ON CONFLICT DO NOTHING"
)
_DROP_USER_VIEWS = (
    "UPDATE recall_traces t SET user_view = NULL FROM session_ends e"
    " WHERE e.tenant_id = t.tenant_id AND e.principal_id = t.principal_id"
    " AND e.session_id = t.session_id AND e.ended_at <= %(now)s AND t.user_view IS NOT NULL"
)
_DELETE_SESSIONS = (
    "DELETE FROM sessions s USING session_ends e"
    " WHERE e.tenant_id = s.tenant_id AND e.principal_id = s.principal_id"
    " AND e.session_id = s.id AND e.ended_at <= %(now)s"
    " AND NOT EXISTS (SELECT 1 FROM recall_traces t WHERE t.tenant_id = s.tenant_id"
    " AND t.principal_id = s.principal_id AND t.session_id = s.id"
    " AND t.operator_view IS NOT NULL)"
    " AND NOT EXISTS (SELECT 1 FROM sessions c WHERE c.tenant_id = s.tenant_id"
    " AND c.principal_id = s.principal_id AND c.parent_session_id = s.id)"
)


def user_view(
    trace: RecallTrace, block: str = "", items: Sequence[RecalledItem] = ()
) -> dict[str, Any]:
    """The user-safe projection stored beside the operator view."""
    return {
        "rendered_ids": list(trace.rendered_ids),
        # Beliefs a correction told in full (a replacement, a conflict's other members):
        # the model read them in this turn only, so feedback may name them by its trace.
        "told_ids": list(told_peers(trace.corrections)),
        # Each correction line as told, with every belief it names (for the view's filter).
        "corrections": [
            {
                "belief_id": c.belief_id,
                "kind": c.kind.value,
                "line": correction_line(c),
                "named": list(named_ids(c)),
            }
            for c in trace.corrections
        ],
        "items": [
            {
                "belief_id": i.belief_id,
                "text": statement_text(i.text, i.blocked),  # as rendered
                "band": i.band.value,
                "blocked": i.blocked,
                "provisional": i.provisional,
                "conflict_set_id": i.conflict_set_id,
                "names_redacted": i.names_redacted,
                "origin_redacted": i.origin_redacted,
                # Kept through an erasure (a level, not the belief's words): the view of a
                # forgotten item is withheld exactly where the live item's was.
                "sensitivity": None if i.sensitivity is None else int(i.sensitivity),
            }
            for i in items
        ],
        "block": block,
        "session_id": trace.session_id,
        "moment": trace.moment.value,
        "surface": trace.surface.value,
        "project": trace.project,
        "dropped_below_floor": trace.floor_dropped,
        "dropped_by_budget": trace.budget_dropped,
        "blocked": trace.blocked,
        "corrections_deferred": trace.corrections_deferred,
    }


def trace_from_json(data: Any) -> RecallTrace:
    """A stored operator view as a :class:`RecallTrace`.

    JSON has no NaN or infinity: a score that was not a number (a store written before
    such input was refused) was stored as ``null``. It reads back as NaN, so the trace
    stays readable instead of failing validation."""
    try:
        return RecallTrace.model_validate(data)
    except ValidationError as exc:
        holes = [e["loc"] for e in exc.errors() if e["type"] == "float_type" and e["input"] is None]
        if not holes or len(holes) != exc.error_count():
            raise
    for loc in holes:
        container = data
        for part in loc[:-1]:
            container = container[part]
        container[loc[-1]] = math.nan
    return RecallTrace.model_validate(data)


class PostgresTraceStore:
    """RecallTraces in the ``recall_traces`` table."""

    def __init__(self, pool: ConnectionPool, *, durable: bool = False) -> None:
        self._pool = pool
        self._durable = durable

    def save_trace(
        self,
        trace: RecallTrace,
        block: str = "",
        items: Sequence[RecalledItem] = (),
        operator_days: float = 30.0,
        timeout_ms: int | None = None,
        read_since: ReadStart | None = None,
    ) -> None:
        """Store a trace with the block and items it describes; its operator view expires
        ``operator_days`` after now. With ``timeout_ms``, a write that waits longer than
        that for a lock or the server is cancelled (and nothing of it is stored).

        ``read_since``: when the recall began reading the store. The trace is then not
        stored if an erasure of its principal finished at or after that instant (by the
        server's clock: :mod:`~recallflow.models.read_start`), or if a belief it names as
        read is no longer held (:data:`UNLESS_ERASED`)
        (:class:`~recallflow.errors.ErasedMeanwhileError`): what the recall read may be
        what was erased, and the erasure, already committed, would never scrub it. The
        write holds the principal's erasure fence (:mod:`~recallflow.adapters.postgres.locks`),
        so an erasure still running is waited for (within ``timeout_ms``)."""
        # The transaction's settings (one statement: 0.13 ms less than one per setting)
        # and the INSERT travel in one round trip, in the one implicit transaction a
        # pipeline runs until its sync (autocommit connection): the settings hold for the
        # INSERT and for its commit at the sync, and a failure rolls both back there. An
        # explicit BEGIN and COMMIT added two statements to the round trip, the server's
        # work on them and 0.05 ms of the recall's client CPU (0.287 against 0.236 ms a
        # write of a 10k-tier trace, its row built beforehand, the two alternating).
        settings = {}
        if not self._durable:
            settings["synchronous_commit"] = "off"
        if timeout_ms is not None:
            settings["lock_timeout"] = settings["statement_timeout"] = str(timeout_ms)
        # (On a connection not in autocommit, a pool not made by open_pool, psycopg opens
        # a transaction instead, and the pool's connection block commits it.)
        with self._pool.connection() as conn, pipeline(conn):
            if read_since is not None:
                hold_erasure_fence(conn, trace.tenant_id, trace.principal_id, settings)
            elif settings:
                set_local(conn, settings)
            # Built once the connection is had: the fence's seconds since the recall began
            # must not leave out a wait for the pool.
            inserted = conn.execute(*trace_row(trace, block, items, operator_days, read_since))
        if inserted.rowcount == 0:
            raise ErasedMeanwhileError(f"recall trace {trace.id}")

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
            raise trace_not_found(trace_id, tenant_id, principal_id)
        return trace_from_json(row[0])

    def get_user_view(self, tenant_id: str, principal_id: str, trace_id: str) -> dict[str, Any]:
        """The stored user view of this principal's trace; NotFoundError otherwise (another
        principal's trace is not found, exactly like a missing one)."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT user_view FROM recall_traces"
                " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
                (tenant_id, principal_id, trace_id),
            ).fetchone()
        if row is None or row[0] is None:  # missing, or its session ended and took it
            raise trace_not_found(trace_id, tenant_id, principal_id)
        view: dict[str, Any] = row[0]
        return view

    def belief_facts(
        self, tenant_id: str, principal_id: str, ids: Sequence[str]
    ) -> dict[str, BeliefFacts]:
        """What a trace view shows of these beliefs (the ones still in the store)."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT b.id, b.recorded_at, nullif(b.valid_from, '-infinity'), b.origin_project,"
                " b.source_authority,"
                " b.source_episode_id, b.sensitivity, e.sensitivity FROM beliefs b"
                " LEFT JOIN episodes e ON e.tenant_id = b.tenant_id"
                " AND e.principal_id = b.principal_id AND e.id = b.source_episode_id"
                " WHERE b.tenant_id = %s AND b.principal_id = %s AND b.id = ANY(%s)",
                (tenant_id, principal_id, list(ids)),
            ).fetchall()
        return {
            r[0]: BeliefFacts(
                recorded_at=r[1],
                valid_from=r[2],
                origin_project=r[3],
                source_authority=r[4],
                source_episode_id=r[5],
                sensitivity=Sensitivity(r[6]),
                episode_sensitivity=None if r[7] is None else Sensitivity(r[7]),
            )
            for r in rows
        }

    def cited_ids(self, tenant_id: str, principal_id: str, trace_id: str) -> set[str]:
        """The beliefs the model cited from this trace."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT DISTINCT belief_id FROM feedback_events WHERE tenant_id = %s"
                " AND principal_id = %s AND trace_id = %s AND kind = 'cited'",
                (tenant_id, principal_id, trace_id),
            ).fetchall()
        return {str(r[0]) for r in rows}

    def stored_block(self, tenant_id: str, principal_id: str, trace_id: str) -> StoredBlock:
        """The stored block text, its recorded sha256 and its recorded rendered ids."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT user_view ->> 'block', rendered_sha256, user_view -> 'rendered_ids'"
                " FROM recall_traces WHERE tenant_id = %s AND principal_id = %s AND id = %s",
                (tenant_id, principal_id, trace_id),
            ).fetchone()
        if row is None:
            raise trace_not_found(trace_id, tenant_id, principal_id)
        return StoredBlock(row[0], row[1], tuple(str(i) for i in row[2] or ()))

    def run_retention(self, now: datetime, session_idle_days: float = 30.0) -> RetentionRun:
        """One run of the retention job at ``now``, in one transaction (see "The trace" in
        docs/architecture.md):

        1. a session idle for ``session_idle_days`` (no trace since; none at all since it
           was opened) ends, at its last activity plus that window; a child session ends
           when its parent has;
        2. the user view of every trace of a session ended by ``now`` is deleted;
        3. the operator view of every trace past its tuning window is nulled;
        4. an ended session none of whose traces keeps an operator view is deleted, with
           its prefix, snapshot fingerprints and corrections (a parent after its children).

        Idempotent: a second run at the same ``now`` changes nothing."""
        idle = session_idle_days * 86_400
        with self._pool.connection() as conn, conn.transaction():
            ended = conn.execute(_END_IDLE, {"now": now, "idle": idle}).rowcount
            while (n := conn.execute(_END_CHILDREN, {"now": now}).rowcount) > 0:
                ended += n
            users = conn.execute(_DROP_USER_VIEWS, {"now": now}).rowcount
            operators = conn.execute(
                "UPDATE recall_traces SET operator_view = NULL"
                " WHERE operator_view IS NOT NULL AND operator_expires_at <= %s",
                (now,),
            ).rowcount
            deleted = 0
            while (n := conn.execute(_DELETE_SESSIONS, {"now": now}).rowcount) > 0:
                deleted += n
        return RetentionRun(
            operator_expired=operators,
            sessions_ended=ended,
            user_views_deleted=users,
            sessions_deleted=deleted,
        )

    def stored_size(self, tenant_id: str, principal_id: str, trace_id: str) -> int:
        """Bytes the trace's two views hold as stored (``pg_column_size``, compressed)."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT coalesce(pg_column_size(user_view), 0)"
                " + coalesce(pg_column_size(operator_view), 0)"
                " FROM recall_traces"
                " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
                (tenant_id, principal_id, trace_id),
            ).fetchone()
        if row is None:
            raise trace_not_found(trace_id, tenant_id, principal_id)
        return int(row[0])


@dataclass(frozen=True)
class StoredBlock:
    """A stored trace's block as stored, with what the trace recorded about it."""

    block: str | None
    rendered_sha256: str
    rendered_ids: tuple[str, ...]


def trace_row(
    trace: RecallTrace,
    block: str = "",
    items: Sequence[RecalledItem] = (),
    operator_days: float = 30.0,
    erased_since: ReadStart | None = None,
) -> tuple[str, tuple[Any, ...]]:
    """The one INSERT of a trace's row (both views) and its parameters, for every write
    path: :meth:`PostgresTraceStore.save_trace` runs it alone, a session's open runs it
    after its own row in one statement (one commit, one WAL flush).

    With ``erased_since``, the row is not inserted if an erasure of its principal finished
    at or after that instant, or took a belief the trace names as read
    (:data:`UNLESS_ERASED`; run it after :func:`hold_erasure_fence`, in one
    transaction, and build it just before: the instant is the transaction's ``now()``
    less the seconds since the recall began, :mod:`~recallflow.models.read_start`)."""
    values = (
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
        # Written by pydantic-core: the stored value is jsonb, so the server keeps the same
        # value whichever encoder wrote the text (``json.dumps`` escapes every non-ASCII
        # character and ran its encoder's Python, about 0.15 M instructions a recall).
        Jsonb(user_view(trace, block, items), dumps=to_json),
        operator_json(trace),  # sent as text and cast: serialised once
        operator_days * 86_400,
    )
    if erased_since is None:
        return _INSERT_TRACE, values
    guard = unless_erased_values(trace.tenant_id, trace.principal_id, erased_since, read_ids(trace))
    return _INSERT_TRACE_UNLESS_ERASED, (*values, *guard)


def operator_json(trace: RecallTrace) -> str:
    """The trace's operator view as the JSON text stored, with no NUL in it.

    PostgreSQL's JSON functions cannot read a string holding a NUL (``\\u0000``), and a
    stored view holding one would fail every ``->`` read of the row, not only of that
    string. Inputs refuse NUL at the boundary, but an error's message (an external
    provider's, a driver's) is recorded as raised; each NUL in it is written as the four
    characters ``\\x00`` instead, so the trace is stored and the message still shows where
    the NUL was. The check is one scan of the text; only a view that needs it is
    serialised again."""
    text = trace.model_dump_json()
    if "\\u0000" not in text:
        return text
    return json.dumps(_without_nul(json.loads(text)), ensure_ascii=False, allow_nan=False)


def _without_nul(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\x00", "\\x00")
    if isinstance(value, list):
        return [_without_nul(v) for v in value]
    if isinstance(value, dict):
        return {_without_nul(k): _without_nul(v) for k, v in value.items()}
    return value


_TRACE_COLUMNS = (
    "INSERT INTO recall_traces (tenant_id, principal_id, id, session_id, moment,"
    " surface, as_of, rendered_sha256, retrieval_policy_version, degraded,"
    " user_view, operator_view, operator_expires_at)"
)
_TRACE_ROW = (
    "%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::json, now() + make_interval(secs => %s)"
)
_INSERT_TRACE = f"{_TRACE_COLUMNS} VALUES ({_TRACE_ROW})"
#: The condition that nothing a read held was erased since: no erasure of its principal
#: finished at or after the instant the read began, by the server's clock (the
#: transaction's ``now()`` less the seconds since then, :mod:`~recallflow.models.
#: read_start`; never the application's wall clock, which may disagree with the
#: server's), and, once the principal has had an erasure at all, it still holds every
#: belief the record names as read (:func:`~recallflow.core.erasure.read_ids`). The second
#: catches the erasure that recorded its time before the read began but committed after
#: it: the read's snapshot still held its rows, and only the beliefs gone by the write's
#: tell. A principal never erased costs the one index probe of the first (the newest
#: ``erased_at``, ``erasures_principal_idx``); the beliefs are looked up (one probe of the
#: primary key each) only for one that was. Its parameters are
#: :func:`unless_erased_values`.
UNLESS_ERASED = (
    "(SELECT CASE WHEN max(e.erased_at) IS NULL THEN true"
    " WHEN max(e.erased_at) >= now() - make_interval(secs => %s) THEN false"
    " ELSE (SELECT count(*) FROM beliefs b WHERE b.tenant_id = %s AND b.principal_id = %s"
    " AND b.id = ANY(string_to_array(%s, ' '))) = %s END"
    " FROM erasures e WHERE e.tenant_id = %s AND e.principal_sha256 = %s)"
)
#: :data:`_INSERT_TRACE`, :data:`UNLESS_ERASED`.
_INSERT_TRACE_UNLESS_ERASED = f"{_TRACE_COLUMNS} SELECT {_TRACE_ROW} WHERE {UNLESS_ERASED}"


def unless_erased_values(
    tenant_id: str, principal_id: str, since: ReadStart, ids: Sequence[str] = ()
) -> tuple[Any, ...]:
    """The parameters of :data:`UNLESS_ERASED`, the seconds since ``since`` read now;
    ``ids``: the beliefs the record names as read, sent as one text of ids joined by
    spaces (an id holds none, see ``KEY_PATTERN``): a list is dumped as an array element
    by element in Python, which cost every recall 1.7 % of its client instructions
    for a check that reads the ids only once the principal has had an erasure."""
    held = sorted(set(ids))
    return (
        since.seconds_ago(),
        tenant_id,
        principal_id,
        " ".join(held),
        len(held),
        tenant_id,
        erasure_digest(tenant_id, principal_id),
    )


def hold_erasure_fence(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    settings: Mapping[str, str] | None = None,
) -> None:
    """Hold the principal's erasure fence shared until the transaction ends, in a statement
    of its own before a write guarded by :data:`UNLESS_ERASED`: that write's snapshot is
    then taken once the fence is held, so it sees an erasure that held it. ``settings``
    (local to the transaction) are set by the same statement: one statement fewer in the
    write's round trip."""
    if not settings:
        conn.execute(HOLD_ERASURE_FENCE, erasure_fence_key(tenant_id, principal_id))
        return
    values = [*setting_values(settings), *erasure_fence_key(tenant_id, principal_id)]
    fence = len(values) - 1
    statement = set_configs(len(settings), local=True) + (
        f", pg_advisory_xact_lock_shared(${fence}, hashtext(${fence + 1}))".encode()
    )
    raw_cursor_class(conn)(conn).execute(statement, values)
