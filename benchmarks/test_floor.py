"""Group ``floor``: the least database work one in-turn recall needs, issued with psycopg
directly on one connection (see ``benchmarks/floor.py``), at every selected tier.

The report divides ``moment:in_turn``'s p50 by this group's p50 at the same tier: the
*floor ratio*, which stays meaningful on a busy machine where absolute times do not. On a
machine whose load drifts during the run, two medians taken minutes apart can still
disagree, so the floor also times recalls and floor runs *interleaved* — a recall, then
the floor of the same request, :data:`PAIRS` times — and records the median of the
per-pair ratios (``extra_info["interleaved_ratio"]``), which the report shows beside.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable

from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.floor import (
    FloorCall,
    FloorCounts,
    clear_floor_traces,
    connect,
    floor_calls,
    floor_run,
)
from benchmarks.recall_harness import requests
from benchmarks.stores import BenchStore

#: Interleaved (recall, floor) pairs timed for the paired ratio.
PAIRS = 72


def test_floor(benchmark: BenchmarkFixture, bench_store: BenchStore) -> None:
    calls = floor_calls(bench_store)
    counts = FloorCounts()
    with connect(bench_store.memory.uri) as conn:
        run = floor_run(conn, counts)
        for call in calls:  # prepares the statements, warms the caches
            run(call)
        source = itertools.cycle(calls)
        benchmark.group = "floor"
        try:
            benchmark(lambda: run(next(source)))
            ratios, recall_ms, floor_ms = _interleaved(bench_store, calls, run)
        finally:
            clear_floor_traces(conn, bench_store.tenant_id, bench_store.principal_id)
    benchmark.extra_info.update(
        tier=bench_store.tier.name,
        statements=4,
        vector_rows=counts.vector_rows,
        fts_rows=counts.fts_rows,
        loaded_rows=counts.loaded_rows,
        interleaved_ratio=statistics.median(ratios),
        interleaved_recall_ms=statistics.median(recall_ms),
        interleaved_floor_ms=statistics.median(floor_ms),
    )


def _interleaved(
    bench: BenchStore, calls: list[FloorCall], run: Callable[[FloorCall], None]
) -> tuple[list[float], list[float], list[float]]:
    """Per pair: a recall of one fixed request, then the floor of the same request."""
    memory, reqs = bench.memory, requests(bench)
    ratios, recall_ms, floor_ms = [], [], []
    for i in range(PAIRS):
        req, call = reqs[i % len(reqs)], calls[i % len(calls)]
        started = time.perf_counter()
        memory.recall(req)
        middle = time.perf_counter()
        run(call)
        ended = time.perf_counter()
        recall_ms.append((middle - started) * 1e3)
        floor_ms.append((ended - middle) * 1e3)
        ratios.append(recall_ms[-1] / floor_ms[-1])
    return ratios, recall_ms, floor_ms
