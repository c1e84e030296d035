"""One principal's in-turn recall in stores of growing size, measured interleaved.

``moment:in_turn_principal`` times a 10k-belief principal once per tier, one tier after
the other, so on a machine shared with other jobs a tier can look slower only because it
ran while the machine was busier. This script opens the cached stores of several tiers
(``benchmarks/stores.py``; they must be built already, e.g. by ``make bench``) and asks
each store's 10k-belief principal the same requests in rounds, rotating the order of the
stores in every round, so every store meets the same load. It prints, per store, the
p50 / p95 and the median over rounds of each recall's time divided by the smallest
store's time for the same request in the same round; then each arm's median latency per
store, as the recalls' traces record it, to show which part of a recall grows.

A store named ``<tier>-alone`` is the tier's measured principal in a store of its own
(``benchmarks/stores.py``, built on first use like the others): ``--tiers 10k,10k-alone``
times the 10k principal among three others and alone, interleaved, the second against
the first (``moment:in_turn_alone`` against ``moment:in_turn`` of the 10k tier).

Usage::

    RECALLFLOW_BENCH_HOME=DIR python -m benchmarks.principal_growth
        [--tiers 10k,100k,1m] [--rounds 20]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from benchmarks.recall_harness import QueryCachingEmbedder, principal_requests
from benchmarks.stores import BenchStore, bench_embedder_name, bench_home, open_tier, store_spec
from recallflow.adapters.embedders import embedder_from_name
from recallflow.adapters.postgres.embedded import EmbeddedServer
from recallflow.models.request import RecallRequest

PRINCIPAL_BELIEFS = 10_000


def _percentile(data: Sequence[float], q: float) -> float:
    ordered = sorted(data)
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass
class Measured:
    """One store's recalls: milliseconds, ratios to the first store, arm latencies."""

    store: BenchStore
    times: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)
    arms: dict[str, list[float]] = field(default_factory=dict)


def measure(stores: Sequence[BenchStore], rounds: int) -> list[Measured]:
    """Per store: every recall's milliseconds, each one's ratio to the first store's time
    for the same request in the same round, and every arm's latency."""
    asked: list[tuple[BenchStore, list[RecallRequest]]] = []
    for store in stores:
        found = principal_requests(store, PRINCIPAL_BELIEFS)
        if found is None:
            raise SystemExit(f"tier {store.tier.name} has no {PRINCIPAL_BELIEFS}-belief principal")
        reqs = found[1]
        for request in reqs:  # warms the query-vector cache, statements and pages
            store.memory.recall(request)
        asked.append((store, reqs))
    count = min(len(reqs) for _, reqs in asked)
    out = [Measured(store) for store, _ in asked]
    for r in range(rounds):
        for i in range(count):
            elapsed = [0.0] * len(asked)
            order = [(k + r + i) % len(asked) for k in range(len(asked))]
            for k in order:
                store, reqs = asked[k]
                started = time.perf_counter()
                result = store.memory.recall(reqs[i])
                elapsed[k] = (time.perf_counter() - started) * 1e3
                for arm in result.trace.arms:
                    out[k].arms.setdefault(arm.arm.value, []).append(arm.latency_ms)
            for k, ms in enumerate(elapsed):
                out[k].times.append(ms)
                out[k].ratios.append(ms / elapsed[0])
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.principal_growth``."""
    parser = argparse.ArgumentParser(
        prog="benchmarks.principal_growth", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--tiers",
        default="10k,100k,1m",
        help="comma list of stores (a tier, or <tier>-alone), the one compared with first",
    )
    parser.add_argument("--rounds", type=int, default=20, help="passes over the requests")
    args = parser.parse_args(argv)
    try:
        tiers = [store_spec(name.strip()) for name in args.tiers.split(",") if name.strip()]
    except KeyError as exc:
        parser.error(f"--tiers: no store {exc}")
    server = EmbeddedServer(bench_home())
    stores: list[BenchStore] = []
    try:
        for tier in tiers:
            embedder = QueryCachingEmbedder(embedder_from_name(bench_embedder_name()))
            stores.append(open_tier(server, tier, embedder=embedder))
        results = measure(stores, args.rounds)
    finally:
        for store in stores:
            store.memory.close()
        server.release()
    print(
        f"| tier (store) | principal's beliefs | rows in the store | recalls | p50 ms | p95 ms"
        f" | median ratio to the {tiers[0].name} store (same request, same round) |"
    )
    print("|---|---|---|---|---|---|---|")
    for m in results:
        print(
            f"| {m.store.tier.name} | {PRINCIPAL_BELIEFS:,} | {m.store.report.rows_in_table:,}"
            f" | {len(m.times)} | {statistics.median(m.times):.3f}"
            f" | {_percentile(m.times, 0.95):.3f} | {statistics.median(m.ratios):.2f}× |"
        )
    print()
    print("| arm | " + " | ".join(f"{m.store.tier.name} p50 ms" for m in results) + " |")
    print("|---|" + "---|" * len(results))
    for arm in sorted(results[0].arms):
        cells = " | ".join(f"{statistics.median(m.arms.get(arm, [0.0])):.3f}" for m in results)
        print(f"| `{arm}` | {cells} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
