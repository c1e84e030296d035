"""The Postgres :class:`~recallflow.ports.CorrectionStore`: every write back into memory
(lifecycle events, feedback, rejections, re-derivation, erasure) as one transaction each,
with a database refusal turned into a typed error (see "Feedback and corrections" in
docs/architecture.md). The SQL is in the modules this one calls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Literal, TypeVar

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool

from recallflow.adapters.postgres import erasure, feedback, lifecycle, replay
from recallflow.adapters.postgres.errors import CANCELLED_WRITE, cancelled_write, translate
from recallflow.errors import WriteCancelledError
from recallflow.models.corrections import (
    Citation,
    Erasure,
    Rederivation,
    Rejection,
    RejectionKind,
    Unflagging,
)
from recallflow.models.store import Belief
from recallflow.policy import Feedback

T = TypeVar("T")


class PostgresCorrections:
    """Writes back into memory, each in its own transaction on the store pool."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    @contextmanager
    def _transaction(
        self,
        table: str = "beliefs",
        items: Callable[[], Sequence[Mapping[str, Any]]] = tuple,
    ) -> Iterator[psycopg.Connection[Any]]:
        """A transaction whose database refusal is a typed error; ``items``: the rows of a
        batch it writes (made only on a refusal), for the error to name the refused one."""
        try:
            with self._pool.connection() as conn, conn.transaction():
                yield conn
        except (pg_errors.IntegrityError, pg_errors.DataError) as exc:
            raise translate(exc, table=table, items=items()) from exc
        except CANCELLED_WRITE as exc:
            raise cancelled_write(exc) from exc

    def _run(
        self,
        write: Callable[[psycopg.Connection[Any]], T],
        items: Callable[[], Sequence[Mapping[str, Any]]] = tuple,
    ) -> T:
        with self._transaction(items=items) as conn:
            return write(conn)

    def retract(
        self, tenant_id: str, principal_id: str, belief_id: str, reason: str, now: datetime
    ) -> Belief:
        return self._run(
            lambda c: lifecycle.retract(c, tenant_id, principal_id, belief_id, reason, now)
        )

    def retire(
        self, tenant_id: str, principal_id: str, belief_id: str, reason: str | None, now: datetime
    ) -> Belief:
        return self._run(
            lambda c: lifecycle.retire(c, tenant_id, principal_id, belief_id, reason, now)
        )

    def expire(
        self, tenant_id: str, principal_id: str, belief_id: str, at: datetime, reason: str | None
    ) -> Belief:
        return self._run(
            lambda c: lifecycle.expire(c, tenant_id, principal_id, belief_id, at, reason)
        )

    def corroborate(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        project: str,
        evidence_id: str,
        now: datetime,
        rule: Feedback,
    ) -> Belief:
        return self._run(
            lambda c: lifecycle.corroborate(
                c,
                tenant_id,
                principal_id,
                belief_id,
                project,
                evidence_id,
                now,
                gain=rule.corroboration_gain,
                promotion_projects=rule.promotion_projects,
            )
        )

    def cite(
        self,
        tenant_id: str,
        principal_id: str,
        trace_id: str,
        belief_ids: Sequence[str],
        now: datetime,
        rule: Feedback,
    ) -> Citation:
        return self._run(
            lambda c: feedback.cite(
                c, tenant_id, principal_id, trace_id, belief_ids, now, utility=rule.citation_utility
            )
        )

    def reject(
        self,
        tenant_id: str,
        principal_id: str,
        trace_id: str,
        belief_id: str,
        kind: RejectionKind,
        now: datetime,
        *,
        replacement: Belief | None,
        embedding: npt.NDArray[np.float32] | None,
        project: str | None,
        note: str | None,
    ) -> Rejection:
        return self._run(
            lambda c: feedback.reject(
                c,
                tenant_id,
                principal_id,
                trace_id,
                belief_id,
                kind,
                now,
                replacement=replacement,
                embedding=embedding,
                project=project,
                note=note,
            )
        )

    def unflag(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        *,
        trace_id: str | None,
        note: str | None,
    ) -> Unflagging:
        return self._run(
            lambda c: feedback.unflag(
                c, tenant_id, principal_id, belief_id, trace_id=trace_id, note=note
            )
        )

    def rendered_belief(
        self, tenant_id: str, principal_id: str, trace_id: str, belief_id: str
    ) -> Belief:
        with self._pool.connection() as conn:
            return feedback.rendered_belief(conn, tenant_id, principal_id, trace_id, belief_id)

    def exclusions(self, tenant_id: str, principal_id: str, belief_id: str) -> tuple[str, ...]:
        with self._pool.connection() as conn:
            return lifecycle.exclusions(conn, tenant_id, principal_id, belief_id)

    def rederive(
        self,
        tenant_id: str,
        principal_id: str,
        drafts: Sequence[Belief],
        embeddings: npt.NDArray[np.float32],
    ) -> Rederivation:
        # A refused draft is named by its place in the batch, as add_many names one.
        return self._run(
            lambda c: replay.rederive(c, tenant_id, principal_id, drafts, embeddings),
            items=lambda: [d.model_dump() for d in drafts],
        )

    def _erase(
        self,
        what: str,
        lock_timeout_ms: int,
        erase: Callable[[psycopg.Connection[Any]], Erasure],
    ) -> Erasure:
        """Run an erasure; one that waited for a lock past ``lock_timeout_ms`` (see
        :func:`~recallflow.adapters.postgres.erasure.forget`) rolled back whole, and says
        what it was to erase and why it did not."""
        try:
            return self._run(erase)
        except WriteCancelledError as exc:
            if not isinstance(exc.__cause__, pg_errors.LockNotAvailable):
                raise
            raise WriteCancelledError(
                f"{what} was not forgotten: a lock it needed (a session row a turn holds,"
                f" say) was held for over {lock_timeout_ms} ms (sessions.lock_timeout_ms);"
                " nothing was erased, and the erasure can be retried"
            ) from exc.__cause__

    def forget(self, tenant_id: str, principal_id: str, lock_timeout_ms: int) -> Erasure:
        return self._erase(
            f"principal {tenant_id}/{principal_id}",
            lock_timeout_ms,
            lambda c: erasure.forget(c, tenant_id, principal_id, lock_timeout_ms),
        )

    def forget_belief(
        self, tenant_id: str, principal_id: str, belief_id: str, lock_timeout_ms: int
    ) -> Erasure:
        return self._erase(
            f"belief {belief_id!r} of {tenant_id}/{principal_id}",
            lock_timeout_ms,
            lambda c: erasure.forget_belief(c, tenant_id, principal_id, belief_id, lock_timeout_ms),
        )

    def forget_episode(
        self, tenant_id: str, principal_id: str, episode_id: str, lock_timeout_ms: int
    ) -> Erasure:
        return self._erase(
            f"episode {episode_id!r} of {tenant_id}/{principal_id}",
            lock_timeout_ms,
            lambda c: erasure.forget_episode(
                c, tenant_id, principal_id, episode_id, lock_timeout_ms
            ),
        )

    def forget_scope(
        self,
        tenant_id: str,
        principal_id: str,
        scope: Literal["project", "session"],
        name: str,
        with_beliefs: bool,
        lock_timeout_ms: int,
        dry_run: bool = False,
    ) -> Erasure:
        return self._erase(
            f"{scope} {name!r} of {tenant_id}/{principal_id}",
            lock_timeout_ms,
            lambda c: erasure.forget_scope(
                c,
                tenant_id,
                principal_id,
                scope,
                name,
                with_beliefs=with_beliefs,
                lock_timeout_ms=lock_timeout_ms,
                dry_run=dry_run,
            ),
        )
