"""Group ``floor``: the least database work one in-turn recall needs, issued with psycopg
directly on one connection (see ``benchmarks/floor.py``), at every selected tier.

The report divides ``moment:in_turn``'s p50 by this group's p50 at the same tier: the
*floor ratio*, which stays meaningful on a busy machine where absolute times do not.
"""

from __future__ import annotations

import itertools

from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.floor import FloorCounts, clear_floor_traces, connect, floor_calls, floor_run
from benchmarks.stores import BenchStore


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
        finally:
            clear_floor_traces(conn, bench_store.tenant_id, bench_store.principal_id)
    benchmark.extra_info.update(
        tier=bench_store.tier.name,
        statements=4,
        vector_rows=counts.vector_rows,
        fts_rows=counts.fts_rows,
        loaded_rows=counts.loaded_rows,
    )
