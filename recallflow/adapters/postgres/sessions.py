"""Sessions in PostgreSQL: the frozen prefix, the corrections rendered against it, and the
session traces the budget report reads (see "Sessions" in docs/architecture.md).

A session row is inserted once and never updated (a trigger refuses it), so the prefix
bytes a resumed session hands back are the bytes rendered at open. A turn runs inside
:meth:`PostgresSessionStore.turn`: one transaction that locks the session row, reads what
the agent was last told about each snapshot belief and the beliefs' current rows, and
records the corrections the turn rendered, so two processes driving one session cannot
render the same correction twice. What the session's turns showed beyond the prefix is
kept in ``session_shown`` (each belief's id and fingerprint, a statement as its digest),
read and written in the same transaction.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool
from pydantic import TypeAdapter

from recallflow.adapters.postgres.beliefs import SELECT_BELIEF, belief_from_row
from recallflow.adapters.postgres.statements import pipeline, set_local
from recallflow.adapters.postgres.statistics import bulk_write
from recallflow.adapters.postgres.traces import (
    UNLESS_ERASED,
    hold_erasure_fence,
    trace_row,
    unless_erased_values,
)
from recallflow.core.corrections import SHOWS_STATEMENT
from recallflow.errors import (
    ErasedMeanwhileError,
    InvalidInputError,
    NotFoundError,
    WriteCancelledError,
    session_not_found,
)
from recallflow.models.read_start import ReadStart
from recallflow.models.request import Surface
from recallflow.models.result import RecallResult
from recallflow.models.session import (
    BeliefFingerprint,
    SessionInfo,
    SessionKind,
    ShownFingerprint,
    SnapshotBelief,
    Told,
)
from recallflow.models.store import Belief, Sensitivity
from recallflow.policy import DEFAULT_POLICY, Retention

_SNAPSHOT = TypeAdapter(tuple[SnapshotBelief, ...])
_SHOWN_FINGERPRINT = TypeAdapter(ShownFingerprint)

_COLUMNS = (
    "INSERT INTO sessions (tenant_id, principal_id, id, kind, parent_session_id, surface,"
    " requested_surface, project, model_window, max_items, max_tokens,"
    " retrieval_policy_version, watermark, snapshot_trace_id, prefix, prefix_sha256,"
    " snapshot_beliefs)"
)
_ROW = "%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s"
_INSERT = f"{_COLUMNS} VALUES ({_ROW}, %s::jsonb)"
# The session row with its snapshot trace: the frozen beliefs are the trace's snapshot
# record's, taken from the inserted operator view rather than sent and parsed twice.
_FROZEN = "operator_view -> 'snapshot' -> 'beliefs'"
_SELECT = (
    "SELECT tenant_id, principal_id, id, kind, parent_session_id, surface, requested_surface,"
    " project, model_window, max_items, max_tokens, retrieval_policy_version, watermark,"
    " snapshot_trace_id, prefix, prefix_sha256, snapshot_beliefs, created_at FROM sessions"
    " WHERE tenant_id = %s AND principal_id = %s AND id = %s"
)
_EXISTS = "SELECT 1 FROM sessions WHERE tenant_id = %s AND principal_id = %s AND id = %s"
# Per belief, its latest correction's fingerprint, and whether the latest of its
# corrections that told (or, shortened, would have told) a statement was shortened: the
# agent has then read none of what the belief says now, so the prefix does not hold it.
_TOLD = (
    "SELECT DISTINCT ON (belief_id) belief_id, fingerprint, first_value(abridged) OVER ("
    "PARTITION BY belief_id ORDER BY (abridged OR kind = ANY(%s)) DESC, seq DESC)"
    " FROM session_corrections WHERE tenant_id = %s AND principal_id = %s AND session_id = %s"
    " ORDER BY belief_id, seq DESC"
)
_RECORD = (
    "INSERT INTO session_corrections (tenant_id, principal_id, session_id, belief_id, kind,"
    " fingerprint, trace_id, abridged) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
)
# A belief a turn showed that a turn now would fingerprint as it was shown, for certain:
# shown live, with no successor and in no conflict (``plain_sha256``, migration 0036), and
# still a plain active belief in no conflict set, not retracted, valid at the turn's time,
# within the surface's ceiling, not rejected as not here in the session's project, with
# the statement and the flag it was shown with. Any other is read by the turn, which
# fingerprints it as a prefix belief is and compares.
_SHOWN_AS_IT_IS = (
    "w.plain_sha256 = sha256(convert_to(b.statement, 'UTF8'))"
    " AND w.plain_flagged = b.flagged AND b.state = 'active' AND b.conflict_set_id IS NULL"
    " AND b.retracted_at IS NULL AND b.valid_to > %(as_of)s AND b.sensitivity <= %(ceiling)s"
    " AND (%(project)s::text IS NULL OR NOT EXISTS (SELECT 1 FROM belief_exclusions x"
    " WHERE x.tenant_id = b.tenant_id AND x.principal_id = b.principal_id"
    " AND x.project = %(project)s AND x.belief_id = b.id))"
)
# The turn's lock of the session row; the frozen beliefs and the prefix come back only when
# an erasure has rewritten the row since this session object read it (its prefix's digest
# changed then), with the beliefs a turn showed beyond the prefix that were forgotten since
# (the next turn tells each once), in the order shown, and those the session keeps what
# it showed of that may have changed since (:data:`_SHOWN_AS_IT_IS`), in the order shown.
_LOCK = (
    "SELECT CASE WHEN s.prefix_sha256 <> %(sha)s THEN s.snapshot_beliefs END,"
    " ARRAY(SELECT w.belief_id FROM session_shown w WHERE w.tenant_id = s.tenant_id"
    " AND w.principal_id = s.principal_id AND w.session_id = s.id"
    " AND w.forgotten_at IS NOT NULL ORDER BY w.seq),"
    " CASE WHEN s.prefix_sha256 <> %(sha)s THEN s.prefix END, s.prefix_sha256,"
    " (SELECT jsonb_agg(jsonb_build_array(w.belief_id, w.fingerprint) ORDER BY w.seq)"
    " FROM session_shown w LEFT JOIN beliefs b ON b.tenant_id = w.tenant_id"
    " AND b.principal_id = w.principal_id AND b.id = w.belief_id"
    " WHERE w.tenant_id = s.tenant_id AND w.principal_id = s.principal_id"
    " AND w.session_id = s.id AND w.forgotten_at IS NULL AND w.fingerprint IS NOT NULL"
    f" AND NOT coalesce({_SHOWN_AS_IT_IS}, false))"
    " FROM sessions s WHERE s.tenant_id = %(t)s AND s.principal_id = %(p)s AND s.id = %(id)s"
    " FOR UPDATE OF s"
)
_TOLD_FORGOTTEN = (
    "DELETE FROM session_shown WHERE tenant_id = %s AND principal_id = %s AND session_id = %s"
    " AND belief_id = ANY(%s) AND forgotten_at IS NOT NULL"
)
# Written again under its id since it was forgotten: the agent still holds the line it
# was shown, so the row stays, as shown, for the belief's next erasure.
_SHOWN_AGAIN = (
    "UPDATE session_shown SET forgotten_at = NULL WHERE tenant_id = %s AND principal_id = %s"
    " AND session_id = %s AND belief_id = ANY(%s)"
)
# What a turn showed (or told whole) of each belief beyond the prefix, in the order shown:
# a belief shown before keeps its place and takes the fingerprint it was shown with now,
# when the turn has one (it has for each it rendered or corrected, and each it quoted).
_SHOWN = (
    "INSERT INTO session_shown (tenant_id, principal_id, session_id, belief_id, fingerprint)"
    " SELECT %s, %s, %s, e ->> 0, nullif(e -> 1, 'null')"
    " FROM jsonb_array_elements(%s::jsonb) WITH ORDINALITY AS u(e, n) ORDER BY n"
    " ON CONFLICT (tenant_id, principal_id, session_id, belief_id) DO UPDATE"
    " SET fingerprint = coalesce(EXCLUDED.fingerprint, session_shown.fingerprint)"
)
_EXCLUDED = (
    "SELECT belief_id FROM belief_exclusions WHERE tenant_id = %s AND principal_id = %s"
    " AND project = %s AND belief_id = ANY(%s)"
)
_PEERS = (
    SELECT_BELIEF + " WHERE tenant_id = %s AND principal_id = %s AND conflict_set_id = ANY(%s)"
    " ORDER BY conflict_set_id, id"
)
_SESSION_TRACES = (
    "SELECT s.tenant_id, s.principal_id, s.id, s.kind, s.max_items, t.moment, t.operator_view"
    " FROM sessions s JOIN recall_traces t ON t.tenant_id = s.tenant_id"
    " AND t.principal_id = s.principal_id AND t.session_id = s.id"
    " WHERE (%(tenant)s::text IS NULL OR s.tenant_id = %(tenant)s)"
    " AND t.operator_view IS NOT NULL"
    " ORDER BY s.tenant_id, s.principal_id, s.id, t.created_at, t.id"
)

# When the session, or the nearest of its ancestors to have ended, ended (NULL: live).
_ENDED = (
    "WITH RECURSIVE up (id, parent) AS (SELECT id, parent_session_id FROM sessions"
    " WHERE tenant_id = %(t)s AND principal_id = %(p)s AND id = %(id)s"
    " UNION ALL SELECT s.id, s.parent_session_id FROM sessions s JOIN up ON s.id = up.parent"
    " WHERE s.tenant_id = %(t)s AND s.principal_id = %(p)s)"
    " SELECT min(e.ended_at) FROM up JOIN session_ends e ON e.tenant_id = %(t)s"
    " AND e.principal_id = %(p)s AND e.session_id = up.id"
)
_END = (
    "INSERT INTO session_ends (tenant_id, principal_id, session_id, ended_at, reason)"
    " VALUES (%s, %s, %s, %s, 'ended') ON CONFLICT DO NOTHING"
)


def _info(row: dict[str, Any]) -> tuple[SessionInfo, bytes]:
    info = SessionInfo(
        id=row["id"],
        tenant_id=row["tenant_id"],
        principal_id=row["principal_id"],
        kind=SessionKind(row["kind"]),
        parent_session_id=row["parent_session_id"],
        surface=Surface(row["surface"]),
        requested_surface=Surface(row["requested_surface"]),
        project=row["project"],
        model_window=row["model_window"],
        max_items=row["max_items"],
        max_tokens=row["max_tokens"],
        retrieval_policy_version=row["retrieval_policy_version"],
        watermark=row["watermark"],
        snapshot_trace_id=row["snapshot_trace_id"],
        prefix_sha256=row["prefix_sha256"],
        beliefs=_SNAPSHOT.validate_python(row["snapshot_beliefs"]),
        created_at=row["created_at"],
    )
    return info, bytes(row["prefix"])


def _refuse_ended(ended: datetime | None, session_id: str) -> None:
    if ended is not None and ended <= datetime.now(UTC):
        raise InvalidInputError(
            f"session {session_id!r} ended at {ended.isoformat()}; open a new one",
            field="session_id",
        )


class SessionTurnStore:
    """One turn's view of a session, inside the turn's transaction (see the module)."""

    def __init__(
        self,
        conn: psycopg.Connection[Any],
        info: SessionInfo,
        stored: tuple[SnapshotBelief, ...] | None = None,
        forgotten: Sequence[str] = (),
        prefix: bytes | None = None,
        prefix_sha256: str | None = None,
        shown: Mapping[str, ShownFingerprint] | None = None,
    ) -> None:
        self._conn = conn
        self._info = info
        self._frozen = stored if stored is not None else info.beliefs
        self._forgotten = list(forgotten)
        self._shown = dict(shown or {})
        self._rewritten = (
            None
            if stored is None or prefix is None or prefix_sha256 is None
            else info.model_copy(update={"prefix_sha256": prefix_sha256, "beliefs": stored})
        )
        self._prefix = prefix

    def rewritten(self) -> tuple[SessionInfo, bytes] | None:
        """The session and its prefix as the stored row now holds them, when an erasure
        rewrote the row since the session object read it (else None): the object hands out
        these from now on, never the erased words it still holds in memory."""
        if self._rewritten is None or self._prefix is None:
            return None
        return self._rewritten, self._prefix

    def told(self) -> Told:
        """What the agent was last told about each snapshot belief, in prefix order (the
        latest correction's fingerprint, else the snapshot's), and which of them it has
        read no current statement of (a shortened correction, not told whole since).

        The snapshot's fingerprints are the stored row's: an erasure rewrites a forgotten
        belief's (and deletes the corrections about it), and a session object opened or
        resumed before it must fall back to what the erasure left, as a session resumed
        after it does, not to the words it still holds in memory."""
        info = self._info
        shows = sorted(k.value for k in SHOWS_STATEMENT)
        rows = self._conn.execute(
            _TOLD, (shows, info.tenant_id, info.principal_id, info.id)
        ).fetchall()
        corrected = {str(r[0]): BeliefFingerprint.model_validate(r[1]) for r in rows}
        return Told(
            fingerprints={
                b.belief_id: corrected.get(b.belief_id, b.fingerprint) for b in self._frozen
            },
            abridged=frozenset(str(r[0]) for r in rows if r[2]),
        )

    def beliefs(self, ids: Sequence[str]) -> dict[str, Belief]:
        """The current rows of ``ids`` (any state; a missing id has no row)."""
        if not ids:
            return {}
        info = self._info
        cur = self._conn.cursor(row_factory=dict_row)
        cur.execute(
            SELECT_BELIEF + " WHERE tenant_id = %s AND principal_id = %s AND id = ANY(%s)",
            (info.tenant_id, info.principal_id, list(ids)),
        )
        return {row["id"]: belief_from_row(row) for row in cur.fetchall()}

    def excluded(self, ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` rejected as not holding in the session's project ("not
        here"); none when the session has no project."""
        info = self._info
        if not ids or info.project is None:
            return set()
        rows = self._conn.execute(
            _EXCLUDED, (info.tenant_id, info.principal_id, info.project, list(ids))
        ).fetchall()
        return {str(r[0]) for r in rows}

    def conflict_members(self, set_ids: Sequence[str]) -> list[Belief]:
        """Every belief of the conflict sets ``set_ids``, by set then id."""
        if not set_ids:
            return []
        info = self._info
        cur = self._conn.cursor(row_factory=dict_row)
        cur.execute(_PEERS, (info.tenant_id, info.principal_id, list(set_ids)))
        return [belief_from_row(row) for row in cur.fetchall()]

    def forgotten_shown(self) -> list[str]:
        """Beliefs a turn of this session showed beyond its prefix (in its block, or in
        full in a correction line) that have been forgotten since, in the order shown,
        and whose ``forgotten`` line has not been told yet."""
        return list(self._forgotten)

    def shown(self) -> dict[str, ShownFingerprint]:
        """What the session keeps of each belief its turns showed beyond the prefix (and
        not forgotten since) that may have changed since it was shown or last corrected,
        in the order shown: the others' rows, read as the turn reads, would fingerprint
        as they were shown (the lock's query leaves them out)."""
        return dict(self._shown)

    def record(
        self,
        corrections: Sequence[tuple[str, str, BeliefFingerprint, bool]],
        trace_id: str,
        *,
        shown: Mapping[str, ShownFingerprint | None] | None = None,
        told_forgotten: Sequence[str] = (),
        back: Sequence[str] = (),
    ) -> None:
        """Record the corrections a turn rendered about prefix beliefs: (belief id, kind,
        new fingerprint, whether it was told in its short form); ``shown``: the beliefs
        beyond the prefix whose statements the turn showed or corrected, in the order
        shown, each with what the agent now holds of it (None: not known, the one kept
        stays); ``told_forgotten``: those of :meth:`forgotten_shown` the turn told;
        ``back``: those of it written again under their id since (shown, not forgotten: a
        later erasure marks them again)."""
        info = self._info
        key = (info.tenant_id, info.principal_id, info.id)
        rows = [
            [bid, None if fp is None else fp.model_dump(mode="json")]
            for bid, fp in (shown or {}).items()
        ]
        writes: list[tuple[str, tuple[Any, ...]]] = [
            (statement, values)
            for statement, values, wanted in (
                (_TOLD_FORGOTTEN, (*key, list(told_forgotten)), bool(told_forgotten)),
                (_SHOWN_AGAIN, (*key, list(back)), bool(back)),
                (_SHOWN, (*key, Jsonb(rows)), bool(rows)),
            )
            if wanted
        ]
        writes.extend(
            (_RECORD, (*key, bid, kind, Jsonb(fp.model_dump(mode="json")), trace_id, abridged))
            for bid, kind, fp, abridged in corrections
        )
        if not writes:
            return
        # One round trip for them all (a turn's transaction is open around them).
        with pipeline(self._conn):
            for statement, values in writes:
                self._conn.execute(statement, values)


class PostgresSessionStore:
    """Sessions and their corrections in the ``sessions`` and ``session_corrections`` tables."""

    def __init__(self, pool: ConnectionPool, *, durable: bool = True) -> None:
        self._pool = pool
        self._durable = durable

    def save(
        self,
        info: SessionInfo,
        prefix: bytes,
        snapshot: RecallResult | None = None,
        retention: Retention = DEFAULT_POLICY.retention,
        read_since: ReadStart | None = None,
        lock_timeout_ms: int = DEFAULT_POLICY.sessions.lock_timeout_ms,
    ) -> Exception | None:
        """Insert a new session (once: a session row is never updated), with the trace of
        the ``snapshot`` that rendered its prefix when one is given, in one transaction.

        Committed durably by default: a session is opened once and resumed for its whole
        life, and a row lost in a crash would turn a later resume into "no such session"
        and the agent's cached prefix into one the store cannot vouch for. Waiting for the
        WAL flush cost 0.8-1.7 ms of an open at the median (5-9 ms at the 90th percentile)
        on the development box; ``durable=False`` skips the wait, as a trace's write does,
        for a deployment that prefers the milliseconds. The snapshot trace shares that
        commit (so it is as durable as its session): one statement inserts both rows, in
        one round trip and one flush, the session's frozen beliefs read from the trace's
        snapshot record (the record ``info`` was made from).

        That statement is bounded by ``retention.write_timeout_ms``, as any trace's write
        (the session row's insert is the cheap part of it). When the two could not be
        committed together, the session row is inserted alone, with no statement timeout
        but waiting at most ``lock_timeout_ms`` (``sessions.lock_timeout_ms``) for an
        erasure of the principal to commit (it holds the erasure fence until then), and
        the reason the trace was not stored is returned (for the caller to count, as for
        any unsaved trace); a session row that cannot be stored raises (past that wait, a
        :class:`~recallflow.errors.WriteCancelledError`). None: all stored.

        ``read_since``: when the open began reading the store. Neither row is stored if an
        erasure of the principal finished at or after that instant, or took a belief the
        prefix froze: the prefix may hold what was erased
        (:class:`~recallflow.errors.ErasedMeanwhileError`).
        """
        if snapshot is None:
            self._alone(info, prefix, read_since, lock_timeout_ms)
            return None
        try:
            self._insert(info, prefix, snapshot, retention, read_since=read_since)
        except (ErasedMeanwhileError, NotFoundError):
            raise
        except Exception as exc:  # the trace's fate must not decide the session's
            self._alone(info, prefix, read_since, lock_timeout_ms)
            return exc
        return None

    def _alone(
        self, info: SessionInfo, prefix: bytes, read_since: ReadStart | None, lock_timeout_ms: int
    ) -> None:
        """Insert the session row without its trace, waiting for a lock (an erasure's
        fence) at most ``lock_timeout_ms``."""
        try:
            self._insert(info, prefix, read_since=read_since, lock_timeout_ms=lock_timeout_ms)
        except psycopg.errors.LockNotAvailable as exc:
            raise WriteCancelledError(
                f"session {info.id!r} was not stored: an erasure of"
                f" {info.tenant_id}/{info.principal_id} ran for over {lock_timeout_ms} ms"
                " (sessions.lock_timeout_ms)"
            ) from exc

    def _insert(
        self,
        info: SessionInfo,
        prefix: bytes,
        snapshot: RecallResult | None = None,
        retention: Retention = DEFAULT_POLICY.retention,
        *,
        read_since: ReadStart | None = None,
        lock_timeout_ms: int | None = None,
    ) -> None:
        row: tuple[Any, ...] = (
            info.tenant_id,
            info.principal_id,
            info.id,
            info.kind.value,
            info.parent_session_id,
            info.surface.value,
            info.requested_surface.value,
            info.project,
            info.model_window,
            info.max_items,
            info.max_tokens,
            info.retrieval_policy_version,
            info.watermark,
            info.snapshot_trace_id,
            prefix,
            info.prefix_sha256,
        )
        settings: dict[str, str] = {}
        if not self._durable:
            settings["synchronous_commit"] = "off"
        if lock_timeout_ms is not None:
            settings["lock_timeout"] = str(lock_timeout_ms)
        if snapshot is not None:
            timeout = str(retention.write_timeout_ms)
            settings["lock_timeout"] = settings["statement_timeout"] = timeout

        def built() -> tuple[str, tuple[Any, ...]]:
            """The INSERT and its values, built once the connection is had: the fence's
            seconds since the open began reading must not leave out a wait for the pool."""
            if snapshot is None:
                values = (*row, _SNAPSHOT.dump_json(info.beliefs).decode())
                if read_since is None:
                    return _INSERT, values
                guard = unless_erased_values(
                    info.tenant_id,
                    info.principal_id,
                    read_since,
                    [b.belief_id for b in info.beliefs],
                )
                return (
                    f"{_COLUMNS} SELECT {_ROW}, %s::jsonb WHERE {UNLESS_ERASED}",
                    (*values, *guard),
                )
            # One statement inserts both rows: no BEGIN and COMMIT of their own (0.3-0.5 ms
            # of an open less than an explicit transaction of two INSERTs). The session's
            # frozen beliefs are the ones the trace's snapshot record holds (the record
            # the open built them from), read back from the inserted view: about 20 kB of
            # JSON not serialised, sent and parsed a second time (0.2 ms of an open).
            trace_statement, trace_values = trace_row(
                snapshot.trace, snapshot.block, snapshot.items, retention.operator_days, read_since
            )
            return (
                f"WITH trace_row AS ({trace_statement} RETURNING {_FROZEN} AS frozen)"
                f" {_COLUMNS} SELECT {_ROW}, frozen FROM trace_row",
                (*trace_values, *row),
            )

        try:
            if not settings and read_since is None:
                with self._pool.connection() as conn:
                    conn.execute(*built())
                return
            # The settings, the erasure fence and the statement travel in one round trip
            # and run in one implicit transaction (the settings are local to it; its
            # commit is the statement's).
            with self._pool.connection() as conn, pipeline(conn):
                if read_since is not None:
                    hold_erasure_fence(conn, info.tenant_id, info.principal_id, settings)
                elif settings:
                    set_local(conn, settings)
                inserted = conn.execute(*built())
        except psycopg.errors.ForeignKeyViolation as exc:
            if exc.diag.constraint_name != "sessions_parent_fk":
                raise
            # The parent went (its principal erased, or retention deleted it) after the
            # child's open checked it: a child runs under a stored session.
            raise _parent_gone(info) from exc
        if inserted.rowcount == 0:
            # Refused by the erasure fence. A child whose parent went with its principal is
            # refused before the parent's key is checked: it is the parent that is gone,
            # and a retry would find it so.
            parent = info.parent_session_id
            if parent is not None and not self.exists(info.tenant_id, info.principal_id, parent):
                raise _parent_gone(info)
            raise ErasedMeanwhileError(f"session {info.id}")

    def load(self, tenant_id: str, principal_id: str, session_id: str) -> tuple[SessionInfo, bytes]:
        """A stored session and its prefix bytes; another principal's session is not found,
        exactly like a missing one."""
        with self._pool.connection() as conn:
            row = (
                conn.cursor(row_factory=dict_row)
                .execute(_SELECT, (tenant_id, principal_id, session_id))
                .fetchone()
            )
        if row is None:
            raise session_not_found(session_id, tenant_id, principal_id)
        return _info(row)

    def exists(self, tenant_id: str, principal_id: str, session_id: str) -> bool:
        """Whether this principal has a stored session of that id (ended or not)."""
        with self._pool.connection() as conn:
            row = conn.execute(_EXISTS, (tenant_id, principal_id, session_id)).fetchone()
        return row is not None

    def ended_at(
        self, tenant_id: str, principal_id: str, session_id: str, conn: psycopg.Connection[Any]
    ) -> datetime | None:
        """When the session ended, or its nearest ended ancestor (a child run ends with
        its parent); None while it is live."""
        row = conn.execute(_ENDED, {"t": tenant_id, "p": principal_id, "id": session_id})
        found = row.fetchone()
        return None if found is None else found[0]

    def end(
        self,
        tenant_id: str,
        principal_id: str,
        session_id: str,
        at: datetime,
        lock_timeout_ms: int = DEFAULT_POLICY.sessions.lock_timeout_ms,
    ) -> datetime:
        """End a session at ``at``; the first end stands (ending it again changes
        nothing). Returns when it ended. Another principal's session is not found.

        The session row is locked as a turn locks it (a turn in progress finishes first),
        waiting at most ``lock_timeout_ms`` (``sessions.lock_timeout_ms``): past it, a
        turn or an erasure that never lets go is a
        :class:`~recallflow.errors.WriteCancelledError`, and no end is stored."""
        with self._pool.connection() as conn, conn.transaction():
            set_local(conn, {"lock_timeout": str(lock_timeout_ms)})
            try:
                locked = conn.execute(
                    _EXISTS + " FOR UPDATE", (tenant_id, principal_id, session_id)
                ).fetchone()
            except psycopg.errors.LockNotAvailable as exc:
                raise WriteCancelledError(
                    f"session {session_id!r} was not ended: it was held by a turn or an"
                    f" erasure of {tenant_id}/{principal_id} for over {lock_timeout_ms} ms"
                    " (sessions.lock_timeout_ms); end it again"
                ) from exc
            if locked is None:
                raise session_not_found(session_id, tenant_id, principal_id)
            conn.execute(_END, (tenant_id, principal_id, session_id, at))
            ended = self.ended_at(tenant_id, principal_id, session_id, conn)
        assert ended is not None
        return ended

    def end_of(self, tenant_id: str, principal_id: str, session_id: str) -> datetime | None:
        """When the session ended (or ends), or its nearest ended ancestor; None: no end."""
        with self._pool.connection() as conn:
            return self.ended_at(tenant_id, principal_id, session_id, conn)

    def check_live(self, tenant_id: str, principal_id: str, session_id: str) -> None:
        """Refuse a session that has ended (or whose parent has), and one that is gone
        (its principal erased, or deleted by retention) with the ``NotFoundError`` of a
        missing one."""
        with self._pool.connection() as conn:
            if conn.execute(_EXISTS, (tenant_id, principal_id, session_id)).fetchone() is None:
                raise session_not_found(session_id, tenant_id, principal_id)
            _refuse_ended(self.ended_at(tenant_id, principal_id, session_id, conn), session_id)

    @contextmanager
    def turn(
        self,
        info: SessionInfo,
        lock_timeout_ms: int = DEFAULT_POLICY.sessions.lock_timeout_ms,
        *,
        as_of: datetime,
        ceiling: Sensitivity,
    ) -> Iterator[SessionTurnStore]:
        """A turn's transaction, with the session row locked until it ends; a session that
        has ended takes no more turns. ``as_of`` and ``ceiling`` (the turn's time and its
        surface's ceiling) tell which beliefs its turns showed may have changed since
        (:meth:`SessionTurnStore.shown`).

        Every lock the transaction waits for — the session row, which another turn of the
        session or an erasure of the principal holds until it commits — is waited for at
        most ``lock_timeout_ms`` (``sessions.lock_timeout_ms``): past it the turn is a
        :class:`~recallflow.errors.WriteCancelledError`, nothing of it recorded.

        Once it has committed, the tables it wrote, and the sessions the lock reads (a
        turn writes none), are analyzed when their statistics have gone stale: a turn
        writes a few rows, and a table no ANALYZE had seen yet locked the session through
        the principal's index of shown beliefs, reading every session's rows
        (:func:`~recallflow.adapters.postgres.statistics.bulk_write`)."""
        with bulk_write(self._pool, watched=("sessions",)) as conn:
            set_local(conn, {"lock_timeout": str(lock_timeout_ms)})
            try:
                locked = conn.execute(
                    _LOCK,
                    {
                        "sha": info.prefix_sha256,
                        "t": info.tenant_id,
                        "p": info.principal_id,
                        "id": info.id,
                        "as_of": as_of,
                        "ceiling": int(ceiling),
                        "project": info.project,
                    },
                ).fetchone()
            except psycopg.errors.LockNotAvailable as exc:
                raise WriteCancelledError(
                    f"session {info.id!r} was held by another turn or an erasure of"
                    f" {info.tenant_id}/{info.principal_id} for over {lock_timeout_ms} ms"
                    " (sessions.lock_timeout_ms); this turn told and recorded nothing"
                ) from exc
            if locked is None:
                raise session_not_found(info.id, info.tenant_id, info.principal_id)
            _refuse_ended(self.ended_at(info.tenant_id, info.principal_id, info.id, conn), info.id)
            stored = None if locked[0] is None else _SNAPSHOT.validate_python(locked[0])
            prefix = None if locked[2] is None else bytes(locked[2])
            shown = {str(b): _SHOWN_FINGERPRINT.validate_python(fp) for b, fp in locked[4] or ()}
            yield SessionTurnStore(
                conn, info, stored, [str(b) for b in locked[1]], prefix, str(locked[3]), shown
            )

    def session_traces(self, tenant_id: str | None = None) -> list[dict[str, Any]]:
        """Every stored trace of every session (of ``tenant_id``, if given), oldest first
        per session, with the session's kind and item cap."""
        with self._pool.connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            cur.execute(_SESSION_TRACES, {"tenant": tenant_id})
            return list(cur.fetchall())


def _parent_gone(info: SessionInfo) -> NotFoundError:
    """The refusal of a child run whose parent session is no longer stored."""
    assert info.parent_session_id is not None
    return session_not_found(
        info.parent_session_id,
        info.tenant_id,
        info.principal_id,
        ": a child run opens under a stored session",
    )
