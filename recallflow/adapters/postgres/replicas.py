"""Reading recalls from a streaming replica (``open_memory(..., read_dsn=...)``; see
docs/scaling.md).

Writes and traces go to the primary; recalls read a replica, with two guarantees:

- **a handle reads its own writes**: after a write through this handle, the primary's
  WAL position is noted (:class:`TrackingPool`), and a recall reads the replica only once
  the replica has replayed past it, waiting at most ``replica_wait`` seconds; otherwise
  that recall reads the primary. Every replica connection a recall takes is checked
  (:class:`ReplicaPool`): connections behind one DSN may reach different replicas.
  Traces and miss hints are not noted: no recall reads them back, and noting them would
  make every recall wait for the previous one's trace;
- **a replica never shows what was forgotten**: an erasure made by another process reaches
  the replica when it is replayed, and until then the replica still holds the forgotten
  rows. While a recall runs on the replica, the primary is asked whether the principal
  was ever erased (:func:`ever_erased`, one index probe on the prefetch thread); if it
  was, every belief the recall named is looked up on the primary (:func:`erased_of`), and
  one the primary no longer holds, or wrote again under an erased id, sends the recall to
  the primary. A recall is checked
  against the primary whatever replica served it, so several replicas behind one DSN are
  covered alike;
- **a replica is of this store, or is not read**: each connection to it is checked
  before use against the primary's cluster (its system identifier, which
  ``pg_basebackup`` copies and ``initdb`` makes anew) and database (its oid, the same on
  every physical replica): a ``read_dsn`` naming another cluster, or another database of
  the same one, would otherwise serve that store's beliefs as this one's
  (:class:`StoreIdentity`). A server at ``read_dsn`` that is not in recovery is read only
  when it is the primary itself (the same postmaster, by its start time): a replica
  promoted apart from the primary has the same identity, but none of the writes made
  since, this handle's own included;
- **a replica that fails is not waited on**: a recall that cannot get a working replica
  connection, or loses it mid-recall, runs again on the primary, and the replica is left
  alone for a back-off (1 s, doubling to 30 s while it stays down) before it is tried
  again.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

import psycopg

from recallflow.adapters.postgres.erasure import WHOLE_ERASURE_ITEMS
from recallflow.adapters.postgres.health import GuardedPool
from recallflow.core.erasure import erasure_digest
from recallflow.errors import ReplicaMismatchError, StoreUnavailableError, without_password

logger = logging.getLogger(__name__)

#: Back-off after a replica failed, doubled while it keeps failing (seconds).
RETRY_AFTER_S = 1.0
RETRY_AFTER_MAX_S = 30.0
#: Poll interval while waiting for the replica to replay a write (seconds).
_POLL_S = 0.002

#: Whether a principal has had a belief or the whole of it erased (an episode's erasure
#: leaves every belief row as it was).
_EVER_ERASED = (
    "SELECT EXISTS (SELECT 1 FROM erasures WHERE tenant_id = %s AND principal_sha256 = %s"
    " AND scope <> 'episode')"
)
# Of some ids (with their erasure digests), those the primary holds and never erased, one
# by one or with the whole principal: an id erased and written again may still be its
# erased self on a replica.
_HELD = (
    "SELECT u.id FROM unnest(%(ids)s::text[], %(digests)s::text[]) AS u(id, digest)"
    " WHERE EXISTS (SELECT 1 FROM beliefs b WHERE b.tenant_id = %(t)s"
    " AND b.principal_id = %(principal)s AND b.id = u.id)"
    " AND NOT EXISTS (SELECT 1 FROM erasures e WHERE e.tenant_id = %(t)s"
    " AND e.principal_sha256 = %(p)s AND e.belief_sha256 = u.digest)"
    f" AND NOT EXISTS (SELECT 1 FROM {WHOLE_ERASURE_ITEMS} WHERE e.tenant_id = %(t)s"
    " AND e.principal_sha256 = %(p)s AND i.scope = 'belief' AND i.item_sha256 = u.digest)"
)

#: The cluster (system identifier, kept by physical replicas) and the database (its oid,
#: the same on a physical replica) a connection reads.
_IDENTITY = (
    "SELECT (SELECT oid FROM pg_database WHERE datname = current_database())::bigint,"
    " current_database(), pg_is_in_recovery(),"
    " extract(epoch FROM pg_postmaster_start_time())::text"
)
_SYSTEM = "SELECT system_identifier::text FROM pg_control_system()"
#: What a recall's wait for the replica asks: how far it has replayed (static once
#: promoted, NULL on a server never in recovery), whether it still is in recovery, and
#: which postmaster answers.
_REPLAYED = (
    "SELECT pg_last_wal_replay_lsn()::text, pg_is_in_recovery(),"
    " extract(epoch FROM pg_postmaster_start_time())::text"
)
_STARTED = "SELECT extract(epoch FROM pg_postmaster_start_time())::text"

#: The position of a server that is the primary itself: it has everything.
_EVERYTHING = 1 << 64

_untracked: ContextVar[bool] = ContextVar("recallflow_untracked_write", default=False)


def lsn_value(text: str) -> int:
    """A ``pg_lsn`` (``'16/B374D848'``) as a comparable integer."""
    high, _, low = text.partition("/")
    return (int(high, 16) << 32) + int(low, 16)


def ever_erased(pool: GuardedPool, tenant_id: str, principal_id: str) -> bool:
    """Whether the primary (``pool``) records an erasure of one of the principal's beliefs
    or of the whole principal."""
    with pool.connection() as conn:
        row = conn.execute(
            _EVER_ERASED, (tenant_id, erasure_digest(tenant_id, principal_id))
        ).fetchone()
    return bool(row and row[0])


def erased_of(
    pool: GuardedPool, tenant_id: str, principal_id: str, ids: frozenset[str]
) -> frozenset[str]:
    """Those of ``ids`` the primary (``pool``) no longer holds, or holds written again
    after an erasure of that id: a replica that returned them may not have replayed the
    erasure (or the new row), and may show the erased belief."""
    if not ids:
        return frozenset()
    wanted = sorted(ids)
    digests = [erasure_digest(tenant_id, principal_id, i) for i in wanted]
    principal = erasure_digest(tenant_id, principal_id)
    with pool.connection() as conn:
        rows = conn.execute(
            _HELD,
            {
                "ids": wanted,
                "digests": digests,
                "t": tenant_id,
                "principal": principal_id,
                "p": principal,
            },
        ).fetchall()
    return ids.difference(str(r[0]) for r in rows)


class StoreIdentity(NamedTuple):
    """Which store a connection reads: its cluster and database."""

    #: The cluster's system identifier; empty where the role may not read it (a
    #: server that revoked ``pg_control_system()``): the database alone is compared.
    system: str
    database: int
    name: str

    def same_store(self, other: StoreIdentity) -> bool:
        same_system = self.system == other.system or not (self.system and other.system)
        return same_system and self.database == other.database


def store_identity(conn: psycopg.Connection[Any]) -> StoreIdentity:
    """The store ``conn`` reads."""
    return _identity_and_state(conn)[0]


def _identity_and_state(conn: psycopg.Connection[Any]) -> tuple[StoreIdentity, bool, str]:
    """The store ``conn`` reads, whether its server is in recovery, and when its
    postmaster started."""
    row = conn.execute(_IDENTITY).fetchone()
    assert row is not None
    try:
        system_row = conn.execute(_SYSTEM).fetchone()
    except psycopg.errors.InsufficientPrivilege:
        system_row = None
    system = str(system_row[0]) if system_row else ""
    return StoreIdentity(system, int(row[0]), str(row[1])), bool(row[2]), str(row[3])


def postmaster_started(pool: GuardedPool) -> str:
    """When the postmaster of ``pool``'s server started: with the system identifier, which
    server it is (a promoted replica shares the identifier, never the start)."""
    with pool.connection() as conn:
        row = conn.execute(_STARTED).fetchone()
    return str(row[0]) if row else ""


class IdentityGuard:
    """Refuses every replica connection that reads another store than the primary's
    (``expected``), and remembers why: a replica pool's connections are checked with
    :meth:`verify` before their first use. ``source`` names where ``read_dsn`` came from
    (the argument, or ``RECALLFLOW_READ_DSN``) in what it says."""

    def __init__(
        self,
        expected: StoreIdentity,
        read_dsn: str,
        primary_started: Callable[[], str],
        source: str = "read_dsn",
    ) -> None:
        self.expected = expected
        self._read_dsn = read_dsn
        self._source = source
        self._primary_started = primary_started
        self._known_start: str | None = None
        #: Why the server at read_dsn is of another store (it is never read again).
        self.mismatch: str | None = None
        #: Why it was last refused as a primary apart from this store's (a promoted
        #: replica; read again once it is the primary itself or a replica again).
        self.diverged: str | None = None
        #: Set once the handle has opened. Before, what :meth:`verify` finds fails the
        #: open itself, so it is not logged as well: the log said recalls would read the
        #: primary, and the open was then refused.
        self.opened = False

    def is_the_primary(self, started: str) -> bool:
        """Whether a server of this store that is not in recovery, whose postmaster
        started at ``started``, is the primary itself. One that is not is logged, and
        named in :attr:`diverged`."""
        if started == self._known_start:
            return True
        try:
            self._known_start = self._primary_started()
        except (StoreUnavailableError, psycopg.Error):
            return False  # the primary cannot vouch for it
        if started == self._known_start:
            self.diverged = None
            return True
        if self.diverged is None and self.opened:
            logger.warning(
                "%s %s is a primary apart from the store's (a promoted replica?):"
                " recalls read the primary instead",
                self._source,
                without_password(self._read_dsn),
            )
        self.diverged = (
            f"{self._source} {without_password(self._read_dsn)}: not in recovery and not the"
            " primary itself (a replica promoted apart from it?): it lacks the primary's"
            " later writes"
        )
        return False

    def verify(self, conn: psycopg.Connection[Any]) -> None:
        found, in_recovery, started = _identity_and_state(conn)
        if found.same_store(self.expected):
            if in_recovery or self.is_the_primary(started):
                return
            assert self.diverged is not None
            raise ReplicaMismatchError(self.diverged)
        if found.system != self.expected.system:
            why = (
                f"it is another PostgreSQL cluster (system identifier {found.system}, the"
                f" primary's is {self.expected.system}): not a streaming replica of the primary"
            )
        else:
            why = (
                f"it reads database {found.name!r} of the primary's cluster, not the"
                f" store's {self.expected.name!r} (or a copy of it)"
            )
        first = self.mismatch is None
        self.mismatch = f"{self._source} {without_password(self._read_dsn)}: {why}"
        if first and self.opened:
            logger.error("%s; recalls read the primary instead", self.mismatch)
        raise ReplicaMismatchError(self.mismatch)


class WrittenLsn:
    """The primary's WAL position after this handle's latest noted write."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._value: int | None = None

    @property
    def value(self) -> int | None:
        return self._value

    def note(self, conn: psycopg.Connection[Any]) -> None:
        row = conn.execute("SELECT pg_current_wal_insert_lsn()::text").fetchone()
        if row is None:
            return
        lsn = lsn_value(str(row[0]))
        with self._lock:
            if self._value is None or lsn > self._value:
                self._value = lsn

    @staticmethod
    @contextmanager
    def untracked() -> Iterator[None]:
        """Writes inside this block are not noted (traces, miss hints)."""
        token = _untracked.set(True)
        try:
            yield
        finally:
            _untracked.reset(token)


class TrackingPool(GuardedPool):
    """The primary's store pool when recalls read a replica: every connection handed back
    after use notes the WAL position, so a later recall can wait for the replica to pass
    it (one extra round trip per use, only when a replica is configured)."""

    def __init__(self, conninfo: str, *, written: WrittenLsn, **kwargs: Any) -> None:
        self._written = written
        super().__init__(conninfo, **kwargs)

    @contextmanager
    def connection(self, timeout: float | None = None) -> Iterator[psycopg.Connection[Any]]:
        with super().connection(timeout) as conn:
            yield conn
            if not _untracked.get() and not conn.closed:
                with contextlib.suppress(psycopg.Error):
                    self._written.note(conn)


class ReplicaBehind(StoreUnavailableError):
    """A replica connection's server has not replayed this handle's writes in time (or is
    a primary apart from the store's)."""


class ReplicaPool(GuardedPool):
    """The replica's pool: every connection it hands out has replayed this handle's
    writes, waiting at most ``wait_s`` for it, else :class:`ReplicaBehind`. Checked per
    connection, not once per recall: connections behind one DSN may reach different
    replicas (a load balancer, libpq's multi-host strings), each at its own position. What
    each connection's server was last seen to have replayed is kept, so the round trip is
    paid once per connection after each write, and never while the handle has not
    written."""

    def __init__(
        self,
        conninfo: str,
        *,
        written: WrittenLsn,
        wait_s: float,
        guard: IdentityGuard,
        **kwargs: Any,
    ) -> None:
        self._written = written
        self._wait_s = wait_s
        self.guard = guard
        self._replayed: WeakKeyDictionary[psycopg.Connection[Any], int] = WeakKeyDictionary()
        self._replayed_lock = threading.Lock()
        super().__init__(conninfo, **kwargs)

    @contextmanager
    def connection(self, timeout: float | None = None) -> Iterator[psycopg.Connection[Any]]:
        with super().connection(timeout) as conn:
            self._await_replay(conn)
            yield conn

    def _await_replay(self, conn: psycopg.Connection[Any]) -> None:
        needed = self._written.value
        if needed is None:
            return
        with self._replayed_lock:
            seen = self._replayed.get(conn)
        if seen is not None and seen >= needed:
            return
        deadline = time.monotonic() + self._wait_s
        while True:
            row = conn.execute(_REPLAYED).fetchone()
            if row is None:
                raise ReplicaBehind("the replica did not say how far it has replayed")
            if not row[1]:  # not in recovery: read if it is the primary itself
                if not self.guard.is_the_primary(str(row[2])):
                    raise ReplicaBehind(self.guard.diverged or "a primary apart from the store's")
                replayed = _EVERYTHING
            else:
                replayed = lsn_value(str(row[0]))
            with self._replayed_lock:
                self._replayed[conn] = replayed
            if replayed >= needed:
                return
            if time.monotonic() >= deadline:
                raise ReplicaBehind(
                    f"the replica had not replayed this handle's writes in {self._wait_s:g} s"
                )
            time.sleep(_POLL_S)


class ReplicaReads:
    """Decides, per recall, whether the replica may serve it."""

    def __init__(self, pool: ReplicaPool) -> None:
        self.pool = pool
        self.guard = pool.guard
        self._down_until = 0.0
        self._backoff = RETRY_AFTER_S
        self._lock = threading.Lock()

    def usable(self) -> bool:
        """True when the replica is up, of this store, and (one connection of it, the
        others checked as the recall takes them) has replayed this handle's writes,
        waiting for that at most ``wait_s``. A replica merely behind is not backed off
        from: the next recall asks again."""
        if self.guard.mismatch is not None or time.monotonic() < self._down_until:
            return False
        try:
            with self.pool.connection():
                return True
        except ReplicaBehind:
            if self.guard.diverged is not None:
                self.failed()
            return False
        except (StoreUnavailableError, psycopg.OperationalError):
            self.failed()
            return False

    def failed(self) -> None:
        """The replica could not serve a recall: leave it alone for the back-off."""
        with self._lock:
            self._down_until = time.monotonic() + self._backoff
            self._backoff = min(self._backoff * 2, RETRY_AFTER_MAX_S)

    def served(self) -> None:
        """The replica served a recall: the back-off starts over."""
        self._backoff = RETRY_AFTER_S
