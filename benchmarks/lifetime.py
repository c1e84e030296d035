"""How the store lives through faults, measured: recovery time after a killed postmaster,
the errors callers see during real faults (typed ``StoreUnavailableError`` or raw), and
the threads / file descriptors / exit handlers / server processes left after open/close
cycles. Every fault is real: signals to PostgreSQL processes, sessions terminated by the
server, a server stopped under a DSN, a full filesystem (tmpfs, root only).

* **recovery** — a Memory with 20 committed beliefs; SIGKILL of the postmaster; time
  until the first complete (non-degraded) recall by the same handle, which restarts the
  server itself. Median of ``--runs`` runs; every committed row is checked afterwards.
* **faults** — for each fault, the outcome of every call made until the store works
  again: ``ok``, ``typed`` (``StoreUnavailableError`` and subclasses) or ``raw`` (any
  other exception, named).
* **cycles** — threads, open file descriptors, exit handlers and postgres processes of
  the home before and after ``--cycles`` open/recall/close cycles.

Usage: ``python -m benchmarks.lifetime [--runs 5] [--cycles 100] [--json OUT]``
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import psycopg

from recallflow import Memory, StoreUnavailableError, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.bootstrap import ensure_database
from recallflow.adapters.postgres.embedded import EmbeddedServer, server_processes

TENANT = "t-lifetime"
GIVE_UP_S = 120.0


def _belief(i: str) -> dict[str, Any]:
    return {
        "tenant_id": TENANT,
        "principal_id": "p1",
        "id": i,
        "statement": f"Fact {i}.",
        "subject": "fact",
        "scope": "user",
    }


def _request() -> dict[str, Any]:
    return {"tenant_id": TENANT, "principal_id": "p1", "working_state": {"goal": "fact"}}


def _write(memory: Memory, prefix: str, n: int) -> list[str]:
    ids = [f"{prefix}-{i}" for i in range(n)]
    memory.beliefs.add_many([_belief(i) for i in ids])
    return ids


def _write_numbered(memory: Memory, prefix: str, numbers: Iterator[int]) -> None:
    """Write one belief with the next unused id (a retried write must not repeat an id)."""
    _write(memory, f"{prefix}{next(numbers)}", 1)


def _complete_recall(memory: Memory) -> None:
    if memory.recall(_request(), persist_trace=False).degraded:
        raise RuntimeError("degraded recall")


def _postmaster(pgdata: Path) -> int:
    return int((pgdata / "postmaster.pid").read_text().splitlines()[0])


def _until_ok(call: Callable[[], object], outcomes: Counter[str]) -> float:
    """Call until it succeeds, counting outcomes; returns the seconds it took."""
    started = time.perf_counter()
    while time.perf_counter() - started < GIVE_UP_S:
        try:
            call()
        except StoreUnavailableError:
            outcomes["typed"] += 1
            continue
        except RuntimeError:
            outcomes["degraded"] += 1
            continue
        except Exception as exc:
            outcomes[f"raw {type(exc).__name__}"] += 1
            continue
        outcomes["ok"] += 1
        return time.perf_counter() - started
    raise SystemExit("the store did not come back")


@contextlib.contextmanager
def _home() -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="rf-lifetime-"))
    try:
        yield root / "home"
    finally:
        for proc in server_processes(root / "home" / "pgdata"):
            proc.kill()
        shutil.rmtree(root, ignore_errors=True)


def _open(home: Path) -> Memory:
    return open_memory(home=home, embedder=HashingEmbedder())


def recovery(runs: int) -> dict[str, Any]:
    seconds, outcomes = [], Counter[str]()
    for _ in range(runs):
        with _home() as home, _open(home) as memory:
            committed = _write(memory, "b", 20)
            _complete_recall(memory)
            os.kill(_postmaster(home / "pgdata"), signal.SIGKILL)
            seconds.append(_until_ok(partial(_complete_recall, memory), outcomes))
            stored = {b.id for b in memory.beliefs.list(TENANT, "p1")}
            assert set(committed) <= stored, "a committed row was lost"
    return {
        "median_s": statistics.median(seconds),
        "runs_s": [round(s, 3) for s in seconds],
        "outcomes": dict(outcomes),
    }


def _kill_backend(memory: Memory, home: Path) -> None:
    with psycopg.connect(memory.uri, autocommit=True) as conn:
        pid = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'"
            " AND datname = current_database() AND pid <> pg_backend_pid() LIMIT 1"
        ).fetchone()
    assert pid is not None
    os.kill(int(pid[0]), signal.SIGKILL)


def _terminate_all(memory: Memory, home: Path) -> None:
    with psycopg.connect(memory.uri, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE backend_type = 'client backend' AND datname = current_database()"
            " AND pid <> pg_backend_pid()"
        )


def _kill_postmaster(memory: Memory, home: Path) -> None:
    os.kill(_postmaster(home / "pgdata"), signal.SIGKILL)


def faults() -> dict[str, dict[str, int]]:
    found: dict[str, dict[str, int]] = {}
    injections: dict[str, Callable[[Memory, Path], None]] = {
        "postmaster SIGKILL": _kill_postmaster,
        "backend SIGKILL": _kill_backend,
        "pg_terminate_backend (all sessions)": _terminate_all,
    }
    for name, inject in injections.items():
        for call_name in ("recall", "write"):
            outcomes = Counter[str]()
            with _home() as home, _open(home) as memory:
                _write(memory, "b", 10)
                _complete_recall(memory)
                inject(memory, home)
                call: Callable[[], object] = (
                    partial(_complete_recall, memory)
                    if call_name == "recall"
                    else partial(_write_numbered, memory, "w", iter(range(1000)))
                )
                _until_ok(call, outcomes)
            found[f"{name} / {call_name}"] = dict(outcomes)
    found["server stopped under a DSN (10 calls while down)"] = _stopped_server()
    disk = _disk_full()
    if disk is not None:
        found["disk full (writes until refused, then until ok)"] = disk
    return found


def _stopped_server() -> dict[str, int]:
    outcomes = Counter[str]()
    with _home() as home:
        server = EmbeddedServer(home)
        try:
            ensure_database(server.uri("postgres"), "recallflow")
            with open_memory(server.uri("recallflow"), embedder=HashingEmbedder()) as memory:
                _write(memory, "b", 5)
                os.kill(_postmaster(server.pgdata), signal.SIGINT)
                while server_processes(server.pgdata):
                    time.sleep(0.05)
                numbers = iter(range(1000))
                for _ in range(5):
                    for call in (
                        partial(_complete_recall, memory),
                        partial(_write_numbered, memory, "d", numbers),
                    ):
                        try:
                            call()
                            outcomes["ok"] += 1
                        except StoreUnavailableError:
                            outcomes["typed"] += 1
                        except Exception as exc:
                            outcomes[f"raw {type(exc).__name__}"] += 1
                server.ensure_running()
                _until_ok(lambda: _complete_recall(memory), outcomes)
        finally:
            server.release()
    return dict(outcomes)


def _disk_full() -> dict[str, int] | None:
    if os.geteuid() != 0:
        return None
    outcomes = Counter[str]()
    with _home() as home:
        mount = home.parent / "disk"
        mount.mkdir()
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=160m", "tmpfs", str(mount)],
                          check=False, capture_output=True).returncode != 0:  # fmt: skip
            return None
        try:
            with _open(mount / "home") as memory:
                _write(memory, "b", 10)
                with psycopg.connect(memory.uri, autocommit=True) as conn:
                    conn.execute("SELECT pg_switch_wal()")
                    conn.execute("CHECKPOINT")
                filler = mount / "filler"
                fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
                for size in (1 << 20, 4096):
                    with contextlib.suppress(OSError):
                        while True:
                            os.write(fd, b"\0" * size)
                os.close(fd)
                for batch in range(200):
                    try:
                        _write(memory, f"full{batch}", 200)
                        outcomes["ok"] += 1
                    except StoreUnavailableError as exc:
                        outcomes[f"typed {type(exc).__name__}"] += 1
                        break
                    except Exception as exc:
                        outcomes[f"raw {type(exc).__name__}"] += 1
                        break
                filler.unlink()
                _until_ok(partial(_write_numbered, memory, "after", iter(range(1000))), outcomes)
        finally:
            for proc in server_processes(mount / "home" / "pgdata"):
                proc.kill()
            subprocess.run(["umount", "-l", str(mount)], check=False)
    return dict(outcomes)


def _snapshot(pgdata: Path) -> dict[str, int]:
    counter = getattr(atexit, "_ncallbacks", lambda: -1)
    return {
        "threads": threading.active_count(),
        "fds": len(os.listdir("/proc/self/fd")),
        "exit_handlers": int(counter()),
        "postgres_processes": len(server_processes(pgdata)),
    }


def cycles(n: int) -> dict[str, Any]:
    with _home() as home:
        pgdata = home / "pgdata"
        with _open(home) as memory:  # warm-up: imports, process-wide pools
            memory.recall(_request(), persist_trace=False)
        before = _snapshot(pgdata)
        started = time.perf_counter()
        for i in range(n):
            with _open(home) as memory:
                if i % 10 == 0:
                    memory.recall(_request(), persist_trace=False)
        elapsed = time.perf_counter() - started
        after = _snapshot(pgdata)
    return {"cycles": n, "before": before, "after": after, "mean_cycle_s": elapsed / n}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    report = {"recovery": recovery(args.runs), "faults": faults(), "cycles": cycles(args.cycles)}
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
