"""An open Memory outlives its server: while the store is down every call fails typed and
bounded, and the same handle works again once the server is back, with no committed row
lost. Faults are real: SIGKILL of the postmaster and of a backend, terminated sessions,
a stopped server, a full disk."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from recallflow import (
    ConfigurationError,
    Memory,
    StorageFullError,
    StoreUnavailableError,
    open_memory,
)
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.bootstrap import ensure_database
from recallflow.adapters.postgres.embedded import EmbeddedServer
from recallflow.models.result import RecallResult
from tests.helpers import belief, request
from tests.processes import (
    backend_pids,
    kill_all,
    postgres_pids,
    postmaster_pid,
    wait_until_gone,
)

TENANT = "t-recovery"
#: A hang guard for loops that wait for recovery; reaching it fails the test.
GIVE_UP_S = 60.0


@pytest.fixture
def home(fresh_home: Path) -> Iterator[Path]:
    try:
        yield fresh_home
    finally:
        kill_all(fresh_home / "pgdata")


@pytest.fixture
def memory(home: Path) -> Iterator[Memory]:
    mem = open_memory(home=home, embedder=HashingEmbedder(), connect_timeout=1.0)
    try:
        yield mem
    finally:
        mem.close()
        assert wait_until_gone(home / "pgdata") == [], "the last close must stop the server"


def _write(memory: Memory, n: int, prefix: str = "b") -> list[str]:
    ids = [f"{prefix}-{i}" for i in range(n)]
    memory.beliefs.add_many(
        [belief(TENANT, id=i, statement=f"Fact number {i}.", subject="fact") for i in ids]
    )
    return ids


def _recall(memory: Memory) -> RecallResult:
    return memory.recall(request(TENANT, goal="fact number"), persist_trace=False)


def _until_it_works(call: Callable[[], Any]) -> tuple[Any, list[str]]:
    """Call until it succeeds; every failure on the way must be StoreUnavailableError.
    Returns the result and the failures seen (a hang guard stops a store that never
    comes back)."""
    failures: list[str] = []
    deadline = time.monotonic() + GIVE_UP_S
    while True:
        try:
            return call(), failures
        except StoreUnavailableError as exc:
            failures.append(type(exc).__name__)
            assert time.monotonic() < deadline, f"the store did not come back: {exc}"


def _stored_ids(memory: Memory) -> set[str]:
    return {b.id for b in memory.beliefs.list(TENANT, "p1")}


def test_an_open_memory_recovers_from_a_killed_postmaster(memory: Memory, home: Path) -> None:
    committed = _write(memory, 20)
    first = postmaster_pid(home / "pgdata")
    os.kill(first, signal.SIGKILL)
    # Backends outlive their killed postmaster until they notice, and one of them can still
    # answer a call that reaches it first, with no restart. Once they are gone, the call
    # must find the server dead and restart it.
    assert wait_until_gone(home / "pgdata") == []
    result, _failures = _until_it_works(lambda: _recall(memory))
    assert postmaster_pid(home / "pgdata") != first  # restarted by this process
    assert not result.degraded, "a recovered recall uses every arm"
    assert set(committed) <= _stored_ids(memory)
    more, _ = _until_it_works(lambda: _write(memory, 5, prefix="after"))
    assert set(committed + more) == _stored_ids(memory)


def test_writes_also_recover_from_a_killed_postmaster(memory: Memory, home: Path) -> None:
    committed = _write(memory, 10)
    os.kill(postmaster_pid(home / "pgdata"), signal.SIGKILL)
    # The write may reach a backend that has not yet noticed its postmaster died, which
    # commits it (and exits soon after): the read that follows may then be the call that
    # finds the server dead, so it too is retried. Either way nothing committed is lost.
    more, _ = _until_it_works(lambda: _write(memory, 3, prefix="after"))
    stored, _ = _until_it_works(lambda: _stored_ids(memory))
    assert set(committed + more) == stored


def test_an_open_memory_recovers_from_a_killed_backend(memory: Memory) -> None:
    committed = _write(memory, 10)
    _recall(memory)  # the recall pool now has connections to kill
    victims = backend_pids(memory.uri)
    assert victims
    # PostgreSQL answers a crashed backend by ending every session and recovering.
    os.kill(victims[0], signal.SIGKILL)
    result, _ = _until_it_works(lambda: _recall(memory))
    assert not result.degraded, [a.error for a in result.trace.arms]
    assert set(committed) <= _stored_ids(memory)


def _end_every_session(uri: str) -> list[int]:
    """Terminate every other client session of the database and wait until the server has
    ended them all: ``pg_terminate_backend`` only signals, and a session still exiting can
    pass a probe and die under the statement after it. The pids ended."""
    with psycopg.connect(uri, autocommit=True) as admin:
        ended = [
            int(row[0])
            for row in admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'"
                " AND datname = current_database() AND pid <> pg_backend_pid()"
            )
        ]
        for pid in ended:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        deadline = time.monotonic() + GIVE_UP_S
        while admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", (ended,)
        ).fetchone() != (0,):
            assert time.monotonic() < deadline
    return ended


def test_terminated_sessions_are_replaced_before_a_recall_uses_them(memory: Memory) -> None:
    _write(memory, 5)
    _recall(memory)
    ended = _end_every_session(memory.uri)
    assert len(ended) >= 2  # the recall pool's and the store pool's
    # Every pooled connection is dead; the next recall gets fresh ones, so no arm fails.
    result = _recall(memory)
    assert not result.degraded, [a.error for a in result.trace.arms]
    assert len(result.rendered_ids) > 0


def test_connections_whose_sessions_ended_are_not_handed_out(memory: Memory) -> None:
    """A pooled connection is handed out without a round trip when it was used a moment
    ago; one whose session the server ended in the meantime must still be replaced, on
    the store pool (no recall probes it first) as on the recall pool."""
    _write(memory, 5)
    _recall(memory)
    ended = _end_every_session(memory.uri)
    assert len(ended) >= 2  # the recall pool's and the store pool's
    before = memory.pool.unavailable_count
    assert len(_write(memory, 3, prefix="after")) == 3
    with memory.pool.connection() as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
    assert memory.pool.unavailable_count == before, "no call failed on a dead connection"
    result = _recall(memory)
    assert not result.degraded, [a.error for a in result.trace.arms]


def test_a_statement_cut_off_by_the_server_fails_typed(memory: Memory) -> None:
    started = threading.Event()
    outcome: list[BaseException] = []

    def sleeper() -> None:
        try:
            with memory.pool.connection() as conn:
                started.set()
                conn.execute("SELECT pg_sleep(30)")
        except BaseException as exc:  # the outcome is what this test checks
            outcome.append(exc)

    thread = threading.Thread(target=sleeper)
    thread.start()
    try:
        assert started.wait(30)
        with psycopg.connect(memory.uri, autocommit=True) as admin:
            deadline = time.monotonic() + GIVE_UP_S
            while not admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE query LIKE 'SELECT pg_sleep%%' AND pid <> pg_backend_pid()"
            ).fetchall():
                assert time.monotonic() < deadline
    finally:
        thread.join(timeout=60)
    assert len(outcome) == 1 and isinstance(outcome[0], StoreUnavailableError)
    _recall(memory)  # and the pool carries on


@pytest.fixture
def external(tmp_path: Path, made_pgdata: Path) -> Iterator[tuple[EmbeddedServer, str]]:
    """A server this test stops and starts itself, used through a DSN (so the Memory
    cannot restart it: it must wait for it to come back)."""
    shutil.copytree(made_pgdata, tmp_path / "external" / "pgdata", symlinks=True)
    server = EmbeddedServer(tmp_path / "external")
    try:
        ensure_database(server.uri("postgres"), "recallflow")
        yield server, server.uri("recallflow")
    finally:
        server.release()
        kill_all(tmp_path / "external" / "pgdata")


def test_a_memory_on_a_stopped_server_fails_typed_then_recovers(
    external: tuple[EmbeddedServer, str],
) -> None:
    server, uri = external
    with open_memory(uri, embedder=HashingEmbedder(), connect_timeout=0.5) as memory:
        committed = _write(memory, 5)
        pgdata = server.pgdata
        os.kill(postmaster_pid(pgdata), signal.SIGINT)  # an operator's fast shutdown
        assert wait_until_gone(pgdata) == []
        for call in (lambda: _recall(memory), lambda: _write(memory, 1, prefix="down")):
            with pytest.raises(StoreUnavailableError, match="Retry"):
                call()
        assert server.ensure_running()  # the operator starts it again
        _until_it_works(lambda: _recall(memory))
        assert set(committed) == _stored_ids(memory)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 160 MB filesystem of its own (tmpfs), so filling it cannot hurt the machine."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small filesystem needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=160m", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        kill_all(mount / "home" / "pgdata")
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(path: Path) -> None:
    """Write zeros to ``path`` until the filesystem has no space left."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 20, 4096):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)


def test_a_full_disk_fails_typed_and_the_store_works_once_space_returns(
    small_disk: Path,
) -> None:
    home = small_disk / "home"
    with open_memory(home=home, embedder=HashingEmbedder(), connect_timeout=1.0) as memory:
        committed = _write(memory, 10)
        with psycopg.connect(memory.uri, autocommit=True) as admin:
            # Start a fresh WAL segment, so the write below runs out of table space first.
            admin.execute("SELECT pg_switch_wal()")
            admin.execute("CHECKPOINT")
        filler = small_disk / "filler"
        _fill(filler)
        written: list[str] = []
        refused: StoreUnavailableError | None = None
        for batch in range(200):
            try:
                written += _write(memory, 200, prefix=f"full{batch}")
            except StoreUnavailableError as exc:
                refused, failed_batch = exc, batch
                break
        filler.unlink()
        assert refused is not None, "the disk never filled up"
        assert isinstance(refused, StorageFullError) or "space" in str(refused)
        more, _ = _until_it_works(lambda: _write(memory, 3, prefix="after"))
        stored = _stored_ids(memory)
        assert set(committed + written + more) <= stored
        assert not any(i.startswith(f"full{failed_batch}-") for i in stored)


def test_a_server_that_cannot_restart_on_a_full_disk_is_told_as_a_full_disk(
    small_disk: Path,
) -> None:
    """A server that dies with its disk full (PostgreSQL stops when it cannot write its
    log) cannot start again until there is space. The open Memory's calls said only that no
    connection could be had within the timeout, "retry in a few seconds", while the reason,
    a full disk, went to a log line: now each says the disk is full, and the same Memory
    works again once space is freed, with nothing committed lost."""
    home = small_disk / "home"
    with open_memory(home=home, embedder=HashingEmbedder(), connect_timeout=1.0) as memory:
        committed = _write(memory, 10)
        pgdata = home / "pgdata"
        os.kill(postmaster_pid(pgdata), signal.SIGKILL)
        assert wait_until_gone(pgdata) == []
        filler = small_disk / "filler"
        _fill(filler)
        for call in (lambda: _write(memory, 1, prefix="full"), lambda: _recall(memory)) * 2:
            with pytest.raises(StorageFullError, match="disk is full"):
                call()
        assert postgres_pids(pgdata) == []
        filler.unlink()
        more, _ = _until_it_works(lambda: _write(memory, 3, prefix="after"))
        assert _stored_ids(memory) == set(committed + more)


def test_a_store_whose_disk_is_full_fails_to_open_as_a_full_disk_and_opens_once_freed(
    small_disk: Path,
) -> None:
    """The next start of a stopped embedded server on a full disk: the caller is told the
    disk is full (a StorageFullError), not handed a failed ``pg_ctl`` command line."""
    home = small_disk / "home"
    with open_memory(home=home, embedder=HashingEmbedder()) as memory:
        committed = _write(memory, 10)
    filler = small_disk / "filler"
    _fill(filler)
    with pytest.raises(StorageFullError, match="disk is full") as refused:
        open_memory(home=home, embedder=HashingEmbedder())
    assert "pg_ctl" not in str(refused.value)
    assert postgres_pids(home / "pgdata") == []  # a start refused leaves no server behind
    filler.unlink()
    with open_memory(home=home, embedder=HashingEmbedder()) as memory:
        assert _stored_ids(memory) == set(committed)


def test_a_session_refused_for_a_full_disk_at_open_is_a_full_disk(small_disk: Path) -> None:
    """A running server whose relation cache files are gone (crash recovery removes them)
    must write them for a new session; on a full disk it refuses the session with words,
    no SQLSTATE. Opening then says the disk is full, not that the server is unreachable."""
    home = small_disk / "home"
    with open_memory(home=home, embedder=HashingEmbedder()) as holder:
        committed = _write(holder, 5)
        for cache in (home / "pgdata").rglob("pg_internal.init"):
            cache.unlink()
        filler = small_disk / "filler"
        _fill(filler)
        with pytest.raises(StorageFullError, match="disk is full"):
            open_memory(home=home, embedder=HashingEmbedder())
        filler.unlink()
        with open_memory(home=home, embedder=HashingEmbedder()) as second:
            assert _stored_ids(second) == set(committed)


def test_an_embedded_server_that_refuses_connections_is_named_by_its_data_directory(
    home: Path,
) -> None:
    """A server that starts and then refuses this process's connections (an operator's
    ``pg_hba.conf``; a server lost mid-migration fails here too) was "cannot connect to
    PostgreSQL at embedded": which server, the operator had to guess. It names the data
    directory, and the server this open started is stopped."""
    open_memory(home=home, embedder=HashingEmbedder()).close()
    (home / "pgdata" / "pg_hba.conf").write_text("local all all reject\n")
    with pytest.raises(ConfigurationError) as refused:
        open_memory(home=home, embedder=HashingEmbedder())
    said = str(refused.value)
    assert said.startswith(f"cannot connect to the embedded PostgreSQL in {home / 'pgdata'}: ")
    assert "pg_hba.conf" in said
    assert wait_until_gone(home / "pgdata") == []


def test_a_start_the_server_refuses_is_reported_by_its_reason(home: Path) -> None:
    """An operator's broken setting in the data directory: the error's first line is the
    server's own reason (what to fix), not the ``pg_ctl`` command line that failed."""
    open_memory(home=home, embedder=HashingEmbedder()).close()
    with (home / "pgdata" / "postgresql.auto.conf").open("a") as conf:
        conf.write("max_connections = 'lots'\n")
    with pytest.raises(ConfigurationError) as refused:
        open_memory(home=home, embedder=HashingEmbedder())
    first = str(refused.value).splitlines()[0]
    assert "postgresql.auto.conf" in first
    assert "pg_ctl" not in first
    assert postgres_pids(home / "pgdata") == []


def test_shared_buffers_the_machine_cannot_give_are_named_by_their_variable(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``RECALLFLOW_SHARED_BUFFERS`` within PostgreSQL's range but more than the machine
    can map: the server refused to start, and the error led with PostgreSQL's "could not
    map anonymous shared memory", the ``pg_ctl`` command line and the log, naming nothing
    the user set. It names the variable and its value, and leaves no server."""
    open_memory(home=home, embedder=HashingEmbedder()).close()  # the home, made and stopped
    monkeypatch.setenv("RECALLFLOW_SHARED_BUFFERS", "7TB")
    try:
        open_memory(home=home, embedder=HashingEmbedder()).close()
    except ConfigurationError as refused:
        first = str(refused).splitlines()[0]
        assert "RECALLFLOW_SHARED_BUFFERS=7TB is more shared memory than" in first, first
        assert "pg_ctl" not in first
    else:  # a kernel that overcommits without limit maps even 7 TB
        pytest.skip("this machine mapped 7 TB of shared memory")
    assert postgres_pids(home / "pgdata") == []
