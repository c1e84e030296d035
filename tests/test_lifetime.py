"""The embedded server's lifetime across processes that die without cleaning up: the last
live holder's close stops it, whoever started it and whoever died (see "Lifetime of the
embedded server" in docs/operations.md). Processes are killed for real."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from recallflow import open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres import embedded
from recallflow.adapters.postgres.embedded import EmbeddedServer, _Runner, running_postmaster
from recallflow.adapters.postgres.holders import Holders, home_lock
from tests.processes import (
    Holder,
    holders,
    kill_all,
    postgres_pids,
    postmaster_pid,
    wait_until_gone,
)


@pytest.fixture(autouse=True)
def _ctrl_c_as_python_starts() -> Iterator[None]:
    """Each test starts with Ctrl-C as a Python program gets it (``KeyboardInterrupt``),
    and the commands it starts with Ctrl-C at its default: the tests here are about what
    Ctrl-C does, and what the process's earlier tests or its launcher left as its
    disposition (ignored, or a handler of their own) must not decide them."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture
def home(fresh_home: Path) -> Iterator[Path]:
    """A home of this test's own, made but not running; whatever server is left in it at
    the end is killed (and reported by the test itself, never silently)."""
    try:
        yield fresh_home
    finally:
        kill_all(fresh_home / "pgdata")


@pytest.fixture
def empty_home(tmp_path: Path) -> Iterator[Path]:
    """A home never opened: its server is yet to be made."""
    path = tmp_path / "empty-home"
    try:
        yield path
    finally:
        kill_all(path / "pgdata")


@pytest.mark.parametrize("death", ["os._exit", "sigkill"])
@pytest.mark.parametrize("order", ["holder_first", "parent_first"])
def test_a_holder_that_dies_without_cleanup_does_not_keep_the_server(
    home: Path, order: str, death: str
) -> None:
    with holders(home) as started:
        if order == "parent_first":
            memory = open_memory(home=home, embedder=HashingEmbedder())
            started.append(Holder(home))
        else:
            started.append(Holder(home))
            memory = open_memory(home=home, embedder=HashingEmbedder())
        started[0].die(death)
        assert postgres_pids(home / "pgdata"), "the live holder still needs its server"
        memory.beliefs.add({"tenant_id": "t", "principal_id": "p1", "statement": "still here",
                            "subject": "s", "scope": "user"})  # fmt: skip
        memory.close()
    assert wait_until_gone(home / "pgdata") == []


def test_a_dead_sole_holder_leaves_a_server_the_next_close_stops(home: Path) -> None:
    with holders(home) as started:
        started.append(Holder(home))
        started[0].die("sigkill")
    # The dead holder could not stop its server; the next process to open and close does.
    assert postgres_pids(home / "pgdata")
    open_memory(home=home, embedder=HashingEmbedder()).close()
    assert wait_until_gone(home / "pgdata") == []


def test_a_server_restarted_by_another_holder_is_the_one_stopped(home: Path) -> None:
    pgdata = home / "pgdata"
    memory = open_memory(home=home, embedder=HashingEmbedder(), connect_timeout=1.0)
    try:
        with holders(home) as started:
            other = Holder(home)
            started.append(other)
            first = postmaster_pid(pgdata)
            os.kill(first, signal.SIGKILL)
            # Backends outlive their killed postmaster until they notice, and one of them
            # can still serve (and commit) a write that arrives meanwhile, with no restart.
            # Once they are gone, the other holder's calls must find the server dead and
            # restart it; a call that raced the crash fails typed, and a retry succeeds.
            assert wait_until_gone(pgdata) == []
            answers: list[str] = []
            while len(answers) < 5 and "ok" not in answers:
                answers.append(other.ask("write b-after-crash"))
            assert answers[-1] == "ok" and set(answers[:-1]) <= {"unavailable"}
            second = int(other.ask("pid"))
            assert second != first
            assert other.ask("close") == "closed"
        # This process still holds the server, so the other's close left it running ...
        assert postmaster_pid(pgdata) == second
        assert memory.beliefs.get("t-holder", "p1", "b-after-crash").statement
    finally:
        memory.close()
    # ... and this close stops the restarted server, not the pid it saw at start.
    assert wait_until_gone(pgdata) == []


#: Run as a child subreaper (Linux): the postmaster, orphaned when pg_ctl exits, becomes
#: this process's child, and is reaped only once the command it runs has exited, as a
#: supervisor that reaps its orphans lazily does.
_SUBREAPER = r"""
import ctypes, subprocess, sys
PR_SET_CHILD_SUBREAPER = 36
assert ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
sys.exit(subprocess.run(sys.argv[1:]).returncode)
"""

_OPEN_AND_CLOSE = r"""
import sys, time
from recallflow import open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
memory = open_memory(home=sys.argv[1], embedder=HashingEmbedder())
started = time.monotonic()
memory.close()
print(time.monotonic() - started)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="child subreapers are Linux's")
def test_a_close_does_not_wait_for_the_servers_parent_to_reap_it(home: Path) -> None:
    """The stopped server is down once its postmaster has exited; reaping it is up to
    whoever adopted it. A close that waited for the reaping escalated to SIGKILL under a
    supervisor that reaps late, logging that the server did not stop, and took 40 s."""
    closed = subprocess.run(
        [sys.executable, "-c", _SUBREAPER, sys.executable, "-c", _OPEN_AND_CLOSE, str(home)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert closed.returncode == 0, closed.stderr
    assert "did not stop" not in closed.stderr
    assert float(closed.stdout) < embedded.STOP_TIMEOUT_S  # a hang guard: it takes ~0.1 s
    assert wait_until_gone(home / "pgdata") == []


def test_holders_of_dead_or_reused_pids_are_pruned(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        holders_ = Holders(tmp_path)
        with home_lock(tmp_path):
            holders_.add(alive.pid)
            holders_.add(os.getpid())
            holders_.directory.joinpath(f"{dead.pid}-1.00").touch()
            # A live pid recorded with another start time is a reused pid: not a holder.
            holders_.directory.joinpath(f"{os.getppid()}-1.00").touch()
            assert holders_.live() == sorted([alive.pid, os.getpid()])
            alive.kill()
            alive.wait()
            assert holders_.live() == [os.getpid()]
            assert sorted(p.name.split("-")[0] for p in holders_.directory.iterdir()) == [
                str(os.getpid())
            ]
    finally:
        alive.kill()
        alive.wait()


def test_a_live_holder_still_counts_after_the_wall_clock_is_stepped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        holders_ = Holders(tmp_path)
        with home_lock(tmp_path):
            holders_.add(alive.pid)
            # The clock synchronised 30 s forward while the holder ran: every creation time
            # read by the wall clock moves (the kernel keeps it as ticks from boot).
            step = psutil.boot_time() + 30
            monkeypatch.setattr("psutil._pslinux.boot_time", lambda: step)
            assert holders_.live() == [alive.pid]
    finally:
        alive.kill()
        alive.wait()


def test_opening_a_home_leaves_the_modes_of_existing_directories_alone(
    tmp_path: Path,
) -> None:
    parent = tmp_path / "private"
    parent.mkdir()
    parent.chmod(0o700)
    before = {p: stat.S_IMODE(p.stat().st_mode) for p in (parent, *parent.parents)}
    home = parent / "home"
    try:
        open_memory(home=home, embedder=HashingEmbedder()).close()
    finally:
        kill_all(home / "pgdata")
    after = {p: stat.S_IMODE(p.stat().st_mode) for p in before}
    assert after == before


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_command_stopped_by_a_signal_stops_the_server_it_started(
    home: Path, signum: signal.Signals
) -> None:
    """A supervisor or ``timeout`` stops a long command (here the MCP server on stdio)
    with SIGTERM, a user with Ctrl-C: the command exits (Ctrl-C used to leave it waiting
    for its client) and the embedded server it started does not outlive it."""
    pgdata = home / "pgdata"
    command = [sys.executable, "-m", "recallflow.cli.main", "mcp", "--home", str(home)]
    command += ["--tenant", "acme", "--principal", "ada"]
    env = {**os.environ, "RECALLFLOW_EMBEDDER": "hashing"}
    env.pop("RECALLFLOW_DSN", None)
    served = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    try:
        assert served.stdin is not None and served.stdout is not None
        # Stop it once it serves: an answered `initialize` means the store is open, so its
        # server is up (a fixed sleep, then a wait for the server's processes, lost the
        # race on a loaded machine). The request waits in the pipe until it is read.
        hello = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-03-26",
                "capabilities": {},
                "clientInfo": {"name": "lifetime-test", "version": "0"},
            },
        }
        served.stdin.write((json.dumps(hello) + "\n").encode())
        served.stdin.flush()
        ready, _, _ = select.select([served.stdout], [], [], 180)  # a hang guard
        answer = served.stdout.readline() if ready else b""
        if b'"id":1' not in answer.replace(b" ", b""):
            served.kill()
            _, errors = served.communicate()
            pytest.fail(f"the command never served (exit {served.returncode}): {errors!r}")
        assert postgres_pids(pgdata), "the command serves without its server"
        served.send_signal(signum)
        code = served.wait(timeout=60)
    finally:
        if served.poll() is None:
            served.kill()
            served.wait()
        for stream in (served.stdin, served.stdout, served.stderr):
            if stream is not None:
                stream.close()
    assert code == 128 + signum
    assert wait_until_gone(pgdata) == []


@pytest.mark.parametrize(
    ("change", "alive"),
    [
        # The start recorded 30 s after the process was created (a slow start, or the
        # clock stepped back since), or 30 s before it (the clock stepped forward since).
        ("start+30", True),
        ("start-30", True),
        # A stale file whose pid now belongs to a server of another data directory.
        ("other", False),
    ],
)
def test_a_live_server_is_told_from_a_stale_pid_file_whatever_the_clock_did(
    home: Path, tmp_path: Path, made_pgdata: Path, change: str, alive: bool
) -> None:
    pgdata = home / "pgdata"
    server = EmbeddedServer(home)
    other = None
    if change == "other":
        shutil.copytree(made_pgdata, tmp_path / "other" / "pgdata", symlinks=True)
        other = EmbeddedServer(tmp_path / "other")
    try:
        lock = pgdata / "postmaster.pid"
        original = lock.read_text()
        lines = original.splitlines(keepends=True)
        if other is not None:
            lines[0] = f"{postmaster_pid(other.pgdata)}\n"
        else:
            lines[2] = f"{int(lines[2]) + int(change.removeprefix('start'))}\n"
        lock.write_text("".join(lines))
        try:
            found = running_postmaster(pgdata)
            if alive:
                # Judged dead, the live server would be started over, its processes killed.
                assert server.ensure_running() is False
        finally:
            lock.write_text(original)
        assert (found is not None) is alive
        assert found is None or found.pid == postmaster_pid(pgdata)
    finally:
        server.release()
        if other is not None:
            other.release()
    assert wait_until_gone(pgdata) == []


def _interrupt_after(monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    """Make a Ctrl-C land as soon as the server program ``step`` (``initdb`` or
    ``pg_ctl``) has done its work, where a user's Ctrl-C lands while it runs: its
    effect on disk is there, the caller has not yet seen it return."""
    real = _Runner.run

    def run(self: _Runner, args: list[str], *, timeout: float) -> None:
        real(self, args, timeout=timeout)
        if Path(args[0]).name == step:
            raise KeyboardInterrupt

    monkeypatch.setattr(_Runner, "run", run)


def test_a_start_cut_short_by_ctrl_c_leaves_no_server(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _interrupt_after(monkeypatch, "pg_ctl")
    with pytest.raises(KeyboardInterrupt):
        open_memory(home=home, embedder=HashingEmbedder())
    # The server pg_ctl started has no Memory to close it: the interrupted open stops it.
    assert wait_until_gone(home / "pgdata") == []
    assert list((home / "holders").iterdir()) == []


def test_an_initdb_cut_short_is_made_again_at_the_next_open(
    empty_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = empty_home
    real = _Runner.run

    def killed_initdb(self: _Runner, args: list[str], *, timeout: float) -> None:
        if Path(args[0]).name != "initdb":
            real(self, args, timeout=timeout)
            return
        # The real initdb, killed once it has begun writing, as subprocess.run kills it
        # when Ctrl-C interrupts the wait.
        target = Path(args[args.index("-D") + 1])
        proc = subprocess.Popen([*self.prefix, *args], stdout=subprocess.DEVNULL)
        while not (target / "PG_VERSION").exists() and proc.poll() is None:
            pass
        proc.kill()
        proc.wait()
        raise KeyboardInterrupt

    monkeypatch.setattr(_Runner, "run", killed_initdb)
    with pytest.raises(KeyboardInterrupt):
        open_memory(home=home, embedder=HashingEmbedder())
    monkeypatch.undo()
    # The next open makes the cluster afresh instead of failing on it for good.
    with open_memory(home=home, embedder=HashingEmbedder()) as memory:
        memory.beliefs.add({"tenant_id": "t", "principal_id": "p1", "statement": "kept",
                            "subject": "s", "scope": "user"})  # fmt: skip
        assert [b.statement for b in memory.beliefs.list("t", "p1")] == ["kept"]
    assert wait_until_gone(home / "pgdata") == []


def test_a_second_ctrl_c_while_closing_still_stops_the_server(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = open_memory(home=home, embedder=HashingEmbedder())
    real = embedded._stop

    def stop(pgdata: Path) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # a real Ctrl-C, just before the stop
        real(pgdata)

    monkeypatch.setattr(embedded, "_stop", stop)
    with pytest.raises(KeyboardInterrupt):
        memory.close()
    # The Ctrl-C still reaches the caller, once the server it would have orphaned is down.
    assert wait_until_gone(home / "pgdata") == []


@pytest.mark.parametrize("block", ["pipeline", "transaction"])
def test_sigterm_during_a_statement_stops_the_command_like_ctrl_c(home: Path, block: str) -> None:
    """A command stopped by SIGTERM while a statement runs: the stop reaches the command
    (it is not taken for a lost store, whose error a trace write swallows) and the
    statement is cancelled on the server, as for Ctrl-C."""
    from recallflow.cli.main import _terminate_cleanly, _Terminated

    with open_memory(home=home, embedder=HashingEmbedder()) as memory:
        timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM))
        with pytest.raises(_Terminated), _terminate_cleanly("recallflow test"):
            timer.start()
            with (
                memory.pool.connection() as conn,
                conn.pipeline() if block == "pipeline" else conn.transaction(),
            ):
                conn.execute("SELECT pg_sleep(30)")
        timer.join()
        deadline = time.monotonic() + 5  # a hang guard: a cancel takes milliseconds
        while True:
            with memory.pool.connection() as conn:
                running = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE query = 'SELECT pg_sleep(30)' AND state = 'active'"
                ).fetchone()
            if running == (0,) or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert running == (0,)
