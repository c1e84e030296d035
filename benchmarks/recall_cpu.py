"""In-turn recalls of one tier timed in a loop, with the client's CPU time per recall.

On a shared machine the wall time of a recall moves with everyone else's load; the CPU
time the recalling process spends (every thread: the arms', the driver's, psycopg's) moves
far less, so two versions of the code are compared by running this in each, alternating
(A B A B), and reading both figures. The server's CPU time per recall (every process of
the embedded server, its backends and background workers, read from ``/proc``) is printed
beside it, which also moves with what the server reads from outside its shared buffers::

    RECALLFLOW_BENCH_HOME=… python -m benchmarks.recall_cpu --tier 10k --recalls 144

The tier's store is built first when it is not cached (``benchmarks/stores.py``); query
embedding is excluded as in ``moment:in_turn`` (cached after a warm-up pass) and every
trace is persisted.

CPU time still moves with the machine (the same code read 6.3 and 9.5 ms a recall an hour
apart on the shared box); the number of instructions the client executes does not. With
``--mark-loop`` the script calls ``os.getppid()`` right before and after its loop, so
callgrind started with ``--dump-before=getppid`` writes the loop's instructions in a part
of their own (the second dump, ``FILE.2``)::

    valgrind --tool=callgrind --dump-before=getppid --callgrind-out-file=cg.out \\
        python -m benchmarks.recall_cpu --tier 10k --recalls 48 --mark-loop
    grep totals: cg.out.2    # instructions of 48 recalls, every thread of the client

(about 50 times slower than without valgrind; the server is not counted).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import psutil

from benchmarks.datagen import TIERS
from benchmarks.recall_harness import warm_tier
from recallflow.adapters.postgres.embedded import EmbeddedServer, server_processes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", default="10k", choices=sorted(TIERS))
    parser.add_argument("--recalls", type=int, default=144)
    parser.add_argument(
        "--mark-loop",
        action="store_true",
        help="call os.getppid() before and after the loop (callgrind's --dump-before=getppid)",
    )
    args = parser.parse_args()
    with warm_tier(args.tier) as (server, memory, reqs):
        wall = []
        server_started = _server_cpu_s(server)
        if args.mark_loop:
            os.getppid()
        cpu_started = time.process_time()
        for i in range(args.recalls):
            started = time.perf_counter()
            memory.recall(reqs[i % len(reqs)])
            wall.append((time.perf_counter() - started) * 1e3)
        if args.mark_loop:
            os.getppid()
        cpu_ms = (time.process_time() - cpu_started) / args.recalls * 1e3
        server_ms = (_server_cpu_s(server) - server_started) / args.recalls * 1e3
    wall.sort()
    p95 = wall[min(len(wall) - 1, round(0.95 * (len(wall) - 1)))]
    print(
        f"{args.tier}: {args.recalls} recalls, wall p50 {statistics.median(wall):.2f} ms,"
        f" p95 {p95:.2f} ms, client CPU {cpu_ms:.2f} ms, server CPU {server_ms:.2f} ms per recall"
    )


def _server_cpu_s(server: EmbeddedServer) -> float:
    """CPU seconds (user and system) spent so far by the server's live processes."""
    total = 0.0
    for proc in server_processes(server.pgdata):
        try:
            times = proc.cpu_times()
        except psutil.Error:
            continue  # ended since it was listed
        total += times.user + times.system
    return total


if __name__ == "__main__":
    main()
