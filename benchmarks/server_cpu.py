"""Where the embedded server's CPU goes while in-turn recalls run: the CPU time per recall
of its backends and of its other processes (user and system), beside the client's, and,
with ``--perf``, the share of the backends' time in each phase of a statement's life::

    RECALLFLOW_BENCH_HOME=… python -m benchmarks.server_cpu --tier 10k [--recalls 400] [--perf]

The recall is bound by CPU on two cores, and the server's CPU per recall is about twice
what its statements take when each is replayed alone (``benchmarks.arm_server_time``).
This shows where the rest goes, in the recalls' own mix: starting each statement's
executor, checking its cached plan, committing, reading from the client.

``--perf`` samples the backends that serve the store's pools (those open after the
warm-up passes; a backend started later is not sampled, nor the server's other
processes, whose CPU is printed apart) with Linux ``perf``, unwinding
through DWARF since the server is built without frame pointers. When ``perf`` is missing
or may not attach to the server's processes, the script says so and exits with status 2.
Sampling costs CPU of its own, in the server's processes too: read the CPU times from a
run without ``--perf``, the shares from a run with it.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import psutil

from benchmarks.datagen import TIERS
from benchmarks.recall_harness import warm_tier
from recallflow.adapters.postgres.embedded import server_processes

#: The phases ``--perf`` reports: a label and the server function whose time, its callees'
#: included, is that phase's. They overlap where one phase runs inside another.
PHASES: tuple[tuple[str, str], ...] = (
    ("executing statements", "PortalRun"),
    ("  the vector index's search (HNSW)", "HnswSearchLayer"),
    ("  the GIN indexes' probes", "gingetbitmap"),
    ("  inserting rows", "heap_insert"),
    ("starting each statement's executor", "standard_ExecutorStart"),
    ("ending it", "standard_ExecutorEnd"),
    ("checking the cached plan", "GetCachedPlan"),
    ("committing", "finish_xact_command"),
    ("reading from the client", "secure_read"),
    ("sending to the client", "secure_write"),
)
#: Exit status when ``perf`` cannot be used here.
NO_PERF = 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", default="10k", choices=sorted(TIERS))
    parser.add_argument("--recalls", type=int, default=400)
    parser.add_argument("--perf", action="store_true", help="sample the backends with perf")
    args = parser.parse_args()
    if args.recalls < 1:
        parser.error("--recalls must be at least 1")
    perf = shutil.which("perf")
    if args.perf and perf is None:
        sys.exit(_no_perf("perf is not installed"))
    with tempfile.TemporaryDirectory() as tmp, warm_tier(args.tier) as (server, memory, reqs):
        processes = server_processes(server.pgdata)
        if not processes:
            sys.exit("server_cpu: found none of the embedded server's processes")
        backends = [pid for pid, (role, _, _) in _cpu(processes).items() if role == "backends"]
        recording = _record(perf, backends, Path(tmp)) if args.perf and perf else None
        try:
            before, client_before = _cpu(processes), psutil.Process().cpu_times()
            wall = []
            for i in range(args.recalls):
                started = time.perf_counter()
                memory.recall(reqs[i % len(reqs)])
                wall.append((time.perf_counter() - started) * 1e3)
            after, client_after = _cpu(processes), psutil.Process().cpu_times()
            if recording is not None:
                recording.send_signal(signal.SIGINT)
                _, err = recording.communicate(timeout=120)
                # Interrupted, perf exits with SIGINT's status even when it wrote its data.
                if not (Path(tmp) / "perf.data").is_file():
                    message = err.decode(errors="replace").strip() or "perf record failed"
                    sys.exit(_no_perf(message))
        finally:
            if recording is not None and recording.poll() is None:
                recording.kill()  # a recall raised, or perf did not stop when asked
                recording.wait()
        n = args.recalls
        print(f"{args.tier}: {n} recalls, wall p50 {statistics.median(wall):.2f} ms")
        print(
            f"  client: user {(client_after.user - client_before.user) / n * 1e3:.2f},"
            f" system {(client_after.system - client_before.system) / n * 1e3:.2f} ms a recall"
        )
        totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        for pid, (role, user, system) in after.items():
            _, user0, system0 = before.get(pid, (role, 0.0, 0.0))
            totals[role][0] += user - user0
            totals[role][1] += system - system0
        for role, (user, system) in sorted(totals.items(), key=lambda kv: -sum(kv[1])):
            if user + system > 0:
                print(f"  {role}: user {user / n * 1e3:.3f}, system {system / n * 1e3:.3f} ms")
        if recording is not None and perf is not None:
            _report(perf, Path(tmp) / "perf.data")


def _cpu(processes: list[psutil.Process]) -> dict[int, tuple[str, float, float]]:
    """Each live server process's role (backend, or its title) and CPU seconds so far."""
    out = {}
    for proc in processes:
        try:
            title = " ".join(proc.cmdline())
            times = proc.cpu_times()
        except psutil.Error:
            continue  # ended since it was listed
        out[proc.pid] = (_role(title), times.user, times.system)
    return out


def _role(title: str) -> str:
    """``postgres: walwriter`` → walwriter; a client's backend (its title names the user,
    the database and the socket) → backends; the postmaster → postmaster."""
    if not title.startswith("postgres:"):
        return "postmaster"
    rest = title.removeprefix("postgres:").strip()
    return "backends" if "[local]" in rest or "(" in rest else rest


def _record(perf: str, pids: list[int], tmp: Path) -> subprocess.Popen[bytes]:
    """``perf record`` attached to the processes ``pids`` until it is sent SIGINT."""
    command = [perf, "record", "-F", "700", "--call-graph", "dwarf,16384"]
    recording = subprocess.Popen(
        [*command, "-o", str(tmp / "perf.data"), "-p", ",".join(map(str, pids))],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    time.sleep(1.0)  # attached before the first timed recall
    if recording.poll() is not None:
        err = recording.communicate()[1].decode(errors="replace").strip()
        sys.exit(_no_perf(err or "perf record exited at once"))
    return recording


def _report(perf: str, data: Path) -> None:
    """The phases' shares and the functions with the most samples of their own."""
    inclusive = _shares(perf, data, children=True)
    own = _shares(perf, data, children=False)
    print("  share of the backends' sampled time, callees included:")
    for label, function in PHASES:
        print(f"    {label:40s} {inclusive.get(function, 0.0):5.1f} %  ({function})")
    print("  the functions with the most samples of their own:")
    for function, share in sorted(own.items(), key=lambda kv: -kv[1])[:15]:
        print(f"    {share:5.1f} %  {function}")


def _shares(perf: str, data: Path, *, children: bool) -> dict[str, float]:
    """Each symbol's share (percent) from ``perf report``: with its callees, or its own."""
    mode = "--children" if children else "--no-children"
    text = subprocess.run(
        [perf, "report", "-i", str(data), mode, "--sort", "symbol", "-g", "none", "--stdio"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    shares: dict[str, float] = {}
    for line in text.splitlines():
        fields = line.split()
        if not fields or line.startswith("#") or not fields[0].endswith("%"):
            continue
        # "<children>% <self>% [.] symbol - -" with --children, "<self>% [.] symbol - -"
        # without (the dashes are the empty source-line columns).
        markers = [i for i, f in enumerate(fields) if len(f) == 3 and f[0] == "[" and f[2] == "]"]
        if not markers or markers[0] + 1 >= len(fields):
            continue
        symbol = fields[markers[0] + 1]
        shares[symbol] = shares.get(symbol, 0.0) + float(fields[0].rstrip("%"))
    return shares


def _no_perf(why: str) -> int:
    print(f"server_cpu: cannot sample the server with perf: {why}", file=sys.stderr)
    return NO_PERF


if __name__ == "__main__":
    main()
