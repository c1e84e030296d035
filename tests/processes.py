"""Looking at real server processes from a test, independently of the code under test,
and killing them for real."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import psycopg


def postgres_pids(pgdata: Path) -> list[int]:
    """Every live ``postgres`` process working in ``pgdata`` (postmaster and children,
    including backends orphaned by a killed postmaster), read straight from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            comm = Path(f"/proc/{entry}/comm").read_text().strip()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            continue
        if comm == "postgres" and state != "Z" and Path(cwd) == pgdata:
            found.append(int(entry))
    return sorted(found)


def wait_until_gone(pgdata: Path, timeout: float = 30.0) -> list[int]:
    """The postgres processes of ``pgdata`` still alive after waiting up to ``timeout``
    for them to exit (a hang guard, not a measurement)."""
    deadline = time.monotonic() + timeout
    while (left := postgres_pids(pgdata)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def postmaster_pid(pgdata: Path) -> int:
    """The postmaster's pid, as PostgreSQL itself records it."""
    return int((pgdata / "postmaster.pid").read_text().splitlines()[0])


def kill_all(pgdata: Path) -> None:
    """SIGKILL every postgres process of ``pgdata`` (test cleanup after a failure)."""
    for pid in postgres_pids(pgdata):
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    wait_until_gone(pgdata, timeout=10)


def backend_pids(uri: str) -> list[int]:
    """The pids of the client backends connected to the database of ``uri``, but this one."""
    with psycopg.connect(uri, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'"
            " AND datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return [int(r[0]) for r in rows]


#: A holder process: opens the home, says "ready", then obeys lines on stdin:
#: "write <id>" adds a belief and says "ok" (or "unavailable"), "pid" prints the postmaster's pid,
#: "exit" dies with os._exit (no exit handlers), "close" closes cleanly and exits.
HOLDER_SCRIPT = r"""
import os, sys
from recallflow import StoreUnavailableError, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder

memory = open_memory(home=sys.argv[1], embedder=HashingEmbedder(), connect_timeout=1.0)
print("ready", flush=True)
for line in sys.stdin:
    command, _, arg = line.strip().partition(" ")
    if command == "write":
        try:
            memory.beliefs.add({"tenant_id": "t-holder", "principal_id": "p1", "id": arg,
                                "statement": "written by a holder", "subject": "holder",
                                "scope": "user"})
            print("ok", flush=True)
        except StoreUnavailableError:
            print("unavailable", flush=True)
    elif command == "pid":
        print(memory._server.pid(), flush=True)
    elif command == "exit":
        os._exit(0)
    elif command == "close":
        memory.close()
        print("closed", flush=True)
        sys.exit(0)
"""


class Holder:
    """A holder process driven over its stdin (see ``HOLDER_SCRIPT``)."""

    def __init__(self, home: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER_SCRIPT, str(home)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.ask(None) == "ready"

    def ask(self, command: str | None) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if command is not None:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def die(self, how: str) -> None:
        """Die without exit handlers: ``os._exit`` or SIGKILL; reaped before returning."""
        if how == "sigkill":
            self.proc.kill()
        else:
            assert self.proc.stdin is not None
            self.proc.stdin.write("exit\n")
            self.proc.stdin.flush()
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        """Make sure the process is gone (cleanup)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


@contextmanager
def holders(home: Path) -> Iterator[list[Holder]]:
    """A list to start holder processes into; every one is killed at the end."""
    started: list[Holder] = []
    try:
        yield started
    finally:
        for holder in started:
            holder.stop()
