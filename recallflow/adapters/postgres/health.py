"""Telling a caller the store is unavailable, quickly, and getting it back by itself.

:class:`GuardedPool` is the connection pool every store adapter uses. Compared with a
plain ``psycopg_pool.ConnectionPool`` it:

- checks a connection before handing it out. A pooled connection to a server that has
  since restarted is dead; without the check an arm would fail on it and the recall
  would silently lose that arm. The check costs a round trip only when it is needed
  (a recall takes about nine connections, and their empty round trips were about a
  tenth of a 10k recall): a connection that was used a moment ago, is in a good state, and
  has nothing to read is handed out as it is, since a server that ended the session
  (a restart, a crash, a terminated backend) closes its socket, which makes it
  readable. A connection that was never used, has sat idle longer than
  ``check_after_idle_s``, or has something to read gets one empty round trip. A recall
  calls :meth:`GuardedPool.probe` once before its arms run: it takes one connection by
  the same rule, so a server that ended its sessions is found (and every idle
  connection replaced) before any arm asks for one. A dead connection is discarded
  with every other idle one (after a restart they are all dead), once the server
  accepts connections again, so the replacements do not fail and wait out the pool's
  back-off. A connection that dies after its check still fails typed (below), and the
  caller learns it from :attr:`GuardedPool.unavailable_count`;
- waits at most ``timeout`` seconds for a connection (the pool's own default is 30 s);
- asks ``revive`` (for the embedded server: restart it if it is found dead) when a
  connection is broken or none can be had, and tries once more after a restart, which
  is safe because nothing has been sent yet; a ``revive`` that finds the server cannot
  start says why by raising (a full disk: :class:`~recallflow.errors.StorageFullError`);
- turns a lost server, a refused connection, a timeout, or a full disk into
  :class:`~recallflow.errors.StoreUnavailableError` /
  :class:`~recallflow.errors.StorageFullError`, raised from ``connection()`` whether the
  failure came while getting the connection or while using it. Other database errors
  (constraint violations, statement timeouts) pass through unchanged;
- remembers a new connection its ``configure`` refused because a later release migrated
  the store (:class:`~recallflow.errors.StoreTooNewError`), and from then on raises that
  error from every call instead of a timeout: the process's code is older than its
  store, which no retry changes. A pooled connection handed out again pays nothing for
  it but reading one attribute.
"""

from __future__ import annotations

import errno
import os
import select
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any
from weakref import WeakKeyDictionary

import psycopg
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict
from psycopg.pq import ConnStatus, TransactionStatus
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from recallflow.errors import (
    ConfigurationError,
    StorageFullError,
    StoreTooNewError,
    StoreUnavailableError,
)

#: SQLSTATEs that mean the server cannot serve this session: connection exceptions
#: (class 08), shutdown and crash (57P01-57P04), and exhausted resources (53000-53300).
_UNAVAILABLE_STATES = frozenset({"57P01", "57P02", "57P03", "57P04", "53000", "53200", "53300"})

#: How the server words a full disk in a message that carries no SQLSTATE (a session
#: refused at connection, a server that cannot start): the C library's text for ENOSPC.
_NO_SPACE = frozenset({"No space left on device", os.strerror(errno.ENOSPC)})

Revive = Callable[[], bool]


def names_full_disk(text: str) -> bool:
    """Whether a server's message says its disk is full (ENOSPC)."""
    return any(words in text for words in _NO_SPACE)


def as_unavailable(exc: BaseException) -> StoreUnavailableError | None:
    """The typed error for ``exc`` when it means the store is unavailable, else None."""
    if isinstance(exc, StoreUnavailableError):
        return exc
    if isinstance(exc, pg_errors.DiskFull):
        return StorageFullError(f"the server's disk is full ({_first_line(exc)})")
    if not isinstance(exc, psycopg.OperationalError):
        return None
    state = exc.sqlstate
    if state is None and names_full_disk(str(exc)):
        # A session the server refused at connection because it could not write (its
        # relation cache file, say): no SQLSTATE reaches the client, only the words.
        return StorageFullError(f"the server's disk is full ({_first_line(exc)})")
    if state is None or state.startswith("08") or state in _UNAVAILABLE_STATES:
        return StoreUnavailableError(_first_line(exc))
    return None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _raised_again(refused: StoreTooNewError) -> StoreTooNewError:
    """A new error saying what ``refused`` said, for each call that meets it (one exception
    object raised from many calls and threads would gather their tracebacks)."""
    return StoreTooNewError(
        store_version=refused.store_version,
        code_version=refused.code_version,
        unknown=refused.unknown,
    )


class GuardedPool(ConnectionPool[psycopg.Connection[Any]]):
    """A connection pool that checks, revives, and reports unavailability as typed errors.

    ``timeout`` (passed through to the pool) bounds every wait for a connection;
    ``check_after_idle_s`` is how long a connection may sit idle before it is checked
    with a round trip when it is handed out.
    """

    def __init__(
        self,
        conninfo: str,
        *,
        check_after_idle_s: float,
        revive: Revive | None = None,
        **kwargs: Any,
    ) -> None:
        self._revive = revive
        self._check_after_idle_s = check_after_idle_s
        self._unavailable = 0
        self._count_lock = threading.Lock()
        # When each pooled connection was last handed back (monotonic seconds).
        self._returned: WeakKeyDictionary[psycopg.Connection[Any], float] = WeakKeyDictionary()
        self._returned_lock = threading.Lock()
        self._refused: StoreTooNewError | None = None
        configure = kwargs.pop("configure", None)
        if configure is not None:
            kwargs["configure"] = partial(self._configure_checked, configure)
        super().__init__(conninfo, **kwargs)

    def _configure_checked(
        self,
        configure: Callable[[psycopg.Connection[Any]], None],
        conn: psycopg.Connection[Any],
    ) -> None:
        """``configure``, noting a connection refused because the store is too new."""
        try:
            configure(conn)
        except StoreTooNewError as exc:
            self._refused = exc
            conn.close()
            raise

    def refusal(self) -> StoreTooNewError | None:
        """The error to raise for every call once a new connection found the store
        migrated past this code (see ``refuse_newer_store``), else None."""
        return None if self._refused is None else _raised_again(self._refused)

    @property
    def unavailable_count(self) -> int:
        """How many calls on this pool have failed with StoreUnavailableError so far: a
        caller compares it before and after a unit of work to learn whether part of the
        work (an arm, which does not raise) lost the store on the way."""
        return self._unavailable

    def getconn(self, timeout: float | None = None) -> psycopg.Connection[Any]:
        """A working connection within ``timeout`` seconds, or StoreUnavailableError.

        When ``revive`` restarts the server on the way, the wait starts over once, since
        the restart itself takes part of it.
        """
        if self._refused is not None:
            raise _raised_again(self._refused)
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        restarted = False

        def restart() -> bool:
            nonlocal restarted, deadline
            if not restarted and self._revive is not None and self._revive():
                restarted = True
                deadline = time.monotonic() + wait
                return True
            return False

        while True:
            try:
                conn = super().getconn(max(deadline - time.monotonic(), 0.0))
            except PoolTimeout as exc:
                refused = self.refusal()
                if refused is not None:
                    raise refused from None
                if restart():
                    continue
                raise StoreUnavailableError(
                    f"no connection to the database within {wait:g} s ({_first_line(exc)})"
                ) from exc
            if self._looks_alive(conn):
                return conn
            try:
                self.check_connection(conn)
            except Exception:
                # The server restarted or crashed: its idle siblings are most likely
                # broken too. Replace them all, but only once the server accepts
                # connections again, since a replacement that fails waits out the pool's
                # back-off (a second or more) before it tries again.
                try:
                    restart()
                except StoreUnavailableError:  # it cannot start (a full disk)
                    self.putconn(conn)  # broken: the pool drops it
                    raise
                self._await_server(deadline)
                self.putconn(conn)
                self.drain()
                continue
            return conn

    def putconn(self, conn: psycopg.Connection[Any]) -> None:
        """:meth:`ConnectionPool.putconn`, noting when the connection was handed back."""
        with self._returned_lock:
            self._returned[conn] = time.monotonic()
        super().putconn(conn)

    def probe(self, timeout: float | None = None) -> None:
        """Take one pooled connection as :meth:`getconn` hands it out, or raise
        StoreUnavailableError.

        A dead one means the server ended its sessions: every idle connection is replaced
        (see :meth:`getconn`), so the calls that follow get working ones without a round
        trip each. The connection is checked with a round trip only when it does not look
        alive (:meth:`_looks_alive`): a server that ended the session has closed its
        socket, which shows without one. Checked always, the round trip was 0.1-0.3 ms
        of every recall's critical path, before its arms could start.
        """
        with self._reported():
            self.putconn(self.getconn(timeout))

    def _looks_alive(self, conn: psycopg.Connection[Any]) -> bool:
        """True when ``conn`` can be handed out without a round trip: it was handed back
        less than ``check_after_idle_s`` ago, libpq sees it open and idle, and the server
        has sent nothing since (a server that ends a session sends an error or closes
        the socket, either of which makes it readable)."""
        with self._returned_lock:
            returned = self._returned.pop(conn, None)
        if returned is None or time.monotonic() - returned > self._check_after_idle_s:
            return False
        try:
            pgconn = conn.pgconn
            if (
                conn.closed
                or pgconn.status != ConnStatus.OK
                or pgconn.transaction_status != TransactionStatus.IDLE
            ):
                return False
            poller = select.poll()
            poller.register(pgconn.socket, select.POLLIN | select.POLLERR | select.POLLHUP)
            return not poller.poll(0)
        except (psycopg.Error, OSError, ValueError):
            return False

    def _await_server(self, deadline: float) -> None:
        """Return once the server accepts a connection, or at ``deadline``."""
        conninfo = self._resolve_conninfo()
        kwargs = {**self._resolve_kwargs(), "connect_timeout": 2}
        while True:
            try:
                psycopg.connect(conninfo, **kwargs).close()
                return
            except psycopg.Error:
                if time.monotonic() >= deadline:
                    return
                time.sleep(0.05)

    @contextmanager
    def connection(self, timeout: float | None = None) -> Iterator[psycopg.Connection[Any]]:
        """:meth:`ConnectionPool.connection`, with unavailability raised as a typed error."""
        with self._reported(), super().connection(timeout) as conn:
            yield conn

    @contextmanager
    def _reported(self) -> Iterator[None]:
        """Raise unavailability inside the block as a typed error, and count it."""
        try:
            yield
        except PoolClosed as exc:
            raise ConfigurationError(
                "this store's connections are closed; open a new one with open_memory()"
            ) from exc
        except pg_errors.InsufficientPrivilege as exc:
            # The role the store was opened with, not the call: every call refused alike.
            role = conninfo_to_dict(self._resolve_conninfo()).get("user")
            who = f"the role {role!r}" if role else "this store's role"
            raise ConfigurationError(
                f"{who} may not do what the call needs ({str(exc).splitlines()[0]}): grant it"
                " the privileges on the store's tables, or open the store with the role that"
                " owns them"
            ) from exc
        except (psycopg.Error, StoreUnavailableError) as exc:
            typed = as_unavailable(exc)
            if typed is None:
                raise
            with self._count_lock:
                self._unavailable += 1
            if typed is exc:
                raise
            raise typed from exc
