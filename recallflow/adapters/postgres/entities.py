"""Entity sensitivity in PostgreSQL (``entity_sensitivity``, migration 0012): the entity
keys a principal marked with a sensitivity of their own, read by every recall whose
surface's ceiling is below the highest level (see "Trust boundary" in
docs/architecture.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor, Future
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from recallflow.adapters.postgres.statements import raw_cursor_class
from recallflow.core.redaction import NameRedaction, redacted_prefix
from recallflow.errors import StoreUnavailableError, WriteCancelledError
from recallflow.models.request import Surface
from recallflow.models.store import Sensitivity
from recallflow.policy import DEFAULT_POLICY, SURFACE_CEILINGS
from recallflow.ports import EntitySensitivity

#: The principal's marked keys above a level (tenant, principal, level): PostgreSQL's own
#: placeholders, for a raw cursor, so it can ride in another statement's pipeline.
MARKED_ABOVE = (
    b"SELECT entity, sensitivity FROM entity_sensitivity"
    b" WHERE tenant_id = $1 AND principal_id = $2 AND sensitivity > $3"
)


def marks_of(rows: Iterable[Sequence[Any]]) -> dict[str, Sensitivity]:
    """The marks of the rows :data:`MARKED_ABOVE` returns."""
    return {str(r[0]): Sensitivity(r[1]) for r in rows}


class PostgresEntitySensitivity:
    """Marked entities, through ``pool`` (the recall pool for reads on the recall path)."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    def marked_entities(
        self, tenant_id: str, principal_id: str, above: Sensitivity
    ) -> dict[str, Sensitivity]:
        """The principal's marked keys whose level is above ``above``."""
        if above >= Sensitivity.SECRET:
            return {}  # nothing is above the highest level: no round trip
        try:
            with self._pool.connection() as conn:
                cur = raw_cursor_class(conn)(conn)
                rows = cur.execute(MARKED_ABOVE, (tenant_id, principal_id, int(above))).fetchall()
        except psycopg.Error as exc:
            # A recall never renders without the marks, so it cannot degrade past them: a
            # read the server cancelled (a statement timeout behind a lock on the table,
            # an operator's cancel) fails the recall, typed, rather than as the driver's.
            text = (exc.diag.message_primary or str(exc)).strip() or type(exc).__name__
            raise StoreUnavailableError(
                f"the principal's marked entities could not be read ({text.splitlines()[0]})",
                hint="A recall is never rendered without them (they say which names to"
                " withhold); retry in a few seconds.",
            ) from exc
        return marks_of(rows)

    def marks(self, tenant_id: str, principal_id: str) -> dict[str, Sensitivity]:
        """Every marked key of the principal, with its level."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT entity, sensitivity FROM entity_sensitivity"
                " WHERE tenant_id = %s AND principal_id = %s ORDER BY entity",
                (tenant_id, principal_id),
            ).fetchall()
        return {str(r[0]): Sensitivity(r[1]) for r in rows}

    def mark(self, tenant_id: str, principal_id: str, entity: str, level: Sensitivity) -> int:
        """Give ``entity`` the level ``level`` for this principal (replacing any earlier),
        and withhold it from the stored prefix of every session of the principal on a
        surface it is now above, in the same transaction; returns how many prefixes were
        rewritten."""
        with self._pool.connection() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO entity_sensitivity (tenant_id, principal_id, entity, sensitivity)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT (tenant_id, principal_id, entity)"
                " DO UPDATE SET sensitivity = EXCLUDED.sensitivity, marked_at = now()",
                (tenant_id, principal_id, entity, int(level)),
            )
            marks = marks_of(
                conn.execute(
                    "SELECT entity, sensitivity FROM entity_sensitivity"
                    " WHERE tenant_id = %s AND principal_id = %s",
                    (tenant_id, principal_id),
                ).fetchall()
            )
            return withhold_in_prefixes(conn, tenant_id, principal_id, marks, level)

    def unmark(self, tenant_id: str, principal_id: str, entity: str) -> bool:
        """Remove the mark; False when there was none."""
        with self._pool.connection() as conn:
            cur = conn.execute(
                "DELETE FROM entity_sensitivity"
                " WHERE tenant_id = %s AND principal_id = %s AND entity = %s",
                (tenant_id, principal_id, entity),
            )
            return cur.rowcount > 0


def withhold_in_prefixes(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    marks: dict[str, Sensitivity],
    level: Sensitivity,
) -> int:
    """Rewrite the stored prefix of each session of the principal whose surface's ceiling
    is below ``level`` so that no name of ``marks`` above that ceiling shows in it
    (:func:`~recallflow.core.redaction.redacted_prefix`): a prefix is served again on
    every resume, and a name marked after the session opened was frozen into it. The row
    is written as an erasure writes it (the one writer besides the open a session row
    allows); the turns of an open session object read the rewritten prefix back. Waits
    for a turn holding a session row at most ``sessions.lock_timeout_ms`` of the default
    policy, then raises :class:`~recallflow.errors.WriteCancelledError` and marks
    nothing."""
    below = [s.value for s, ceiling in SURFACE_CEILINGS.items() if ceiling < level]
    try:
        conn.execute(
            "SELECT set_config('lock_timeout', %s, true)",
            (f"{DEFAULT_POLICY.sessions.lock_timeout_ms}ms",),
        )
        rows = conn.execute(
            "SELECT id, surface, prefix FROM sessions WHERE tenant_id = %s AND principal_id = %s"
            " AND surface = ANY(%s) FOR UPDATE",
            (tenant_id, principal_id, below),
        ).fetchall()
    except psycopg.errors.LockNotAvailable as exc:
        raise WriteCancelledError(
            f"a turn of a session of {tenant_id}/{principal_id} held its row for over"
            f" {DEFAULT_POLICY.sessions.lock_timeout_ms} ms (sessions.lock_timeout_ms);"
            " nothing was marked, and the mark can be retried"
        ) from exc
    names = NameRedaction(marks)
    rewritten = 0
    for session_id, surface, prefix in rows:
        text, changed = redacted_prefix(
            bytes(prefix).decode(), names, SURFACE_CEILINGS[Surface(surface)]
        )
        if not changed:
            continue
        if not rewritten:
            conn.execute("SELECT set_config('recallflow.erasure', 'on', true)")
        new_prefix = text.encode()
        conn.execute(
            "UPDATE sessions SET prefix = %s, prefix_sha256 = %s"
            " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
            (new_prefix, hashlib.sha256(new_prefix).hexdigest(), tenant_id, principal_id,
             session_id),
        )  # fmt: skip
        rewritten += 1
    return rewritten


class PrefetchedMarks:
    """One recall's read of the principal's marked entities, started as the recall starts so
    that it runs while the arms do: the trust stage asks for it only after them, and it
    was a round trip of its own on the recall's path. Any other question goes to
    ``inner``, as does this one when the read is not wanted (nothing is above the
    highest level)."""

    def __init__(
        self,
        inner: EntitySensitivity,
        executor: Executor,
        tenant_id: str,
        principal_id: str,
        above: Sensitivity,
    ) -> None:
        self._inner = inner
        self._key = (tenant_id, principal_id, above)
        self._answer: Future[dict[str, Sensitivity]] | None = (
            executor.submit(inner.marked_entities, tenant_id, principal_id, above)
            if above < Sensitivity.SECRET
            else None
        )

    def marked_entities(
        self, tenant_id: str, principal_id: str, above: Sensitivity
    ) -> dict[str, Sensitivity]:
        """The prefetched read's answer (or its error) for the recall's own question."""
        if self._answer is not None and (tenant_id, principal_id, above) == self._key:
            return dict(self._answer.result())
        return self._inner.marked_entities(tenant_id, principal_id, above)

    def answer(self) -> dict[str, Sensitivity] | None:
        """The prefetched read's answer (waited for; its error raised), or None when it
        was not wanted (nothing is above the highest level)."""
        return None if self._answer is None else dict(self._answer.result())


class MarksWithLoad:
    """One recall's read of the principal's marked entities, sent with the candidates'
    load: the statement rides in the load's pipeline (see
    :meth:`~recallflow.adapters.postgres.search.PostgresBeliefSearch.load_with_evidence`),
    and the trust stage, which asks for the marks only after the load, gets its answer.

    Read on a thread of its own while the arms ran (:class:`PrefetchedMarks`), the marks
    cost every recall a thread hand-over, a pooled connection, a transaction and a round
    trip, on the two cores the arms were already filling; in the load's round trip they
    cost one more statement in a transaction that is open anyway. The load runs before
    the trust stage in every plan, so the answer is there when asked. When it is not
    (the recall loaded nothing, or the load failed before the marks' statement ran), the
    question goes to ``inner``, as does any other question: a recall never renders
    without the marks."""

    def __init__(
        self, inner: EntitySensitivity, tenant_id: str, principal_id: str, above: Sensitivity
    ) -> None:
        self._inner = inner
        self._key = (tenant_id, principal_id, above)
        # Nothing is above the highest level: answered without a statement.
        self._answer: dict[str, Sensitivity] | None = {} if above >= Sensitivity.SECRET else None

    def statement(self) -> tuple[bytes, tuple[str, str, int]] | None:
        """The read to send with the load (for a raw cursor), or None when it is answered."""
        if self._answer is not None:
            return None
        tenant_id, principal_id, above = self._key
        return MARKED_ABOVE, (tenant_id, principal_id, int(above))

    def answered(self, rows: Iterable[Sequence[Any]]) -> None:
        """Keep the rows the load's pipeline returned for :meth:`statement`."""
        self._answer = marks_of(rows)

    def marked_entities(
        self, tenant_id: str, principal_id: str, above: Sensitivity
    ) -> dict[str, Sensitivity]:
        """The answer read with the load for the recall's own question, else ``inner``'s
        (kept as the answer when it is the recall's own question)."""
        own = (tenant_id, principal_id, above) == self._key
        if self._answer is not None and own:
            return dict(self._answer)
        answer = self._inner.marked_entities(tenant_id, principal_id, above)
        if own:
            self._answer = dict(answer)
        return answer

    def answer(self) -> dict[str, Sensitivity] | None:
        """The marks this recall was answered (what its trust stage rendered with), or
        None when it asked for none."""
        return None if self._answer is None else dict(self._answer)
