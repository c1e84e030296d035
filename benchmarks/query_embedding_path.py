"""The query embedding on the in-turn recall's critical path, with thread timelines.

Runs one tier's in-turn requests three ways in one process, interleaved request by
request: the query vector cached (``moment:in_turn``), and MiniLM paying for the query on
every recall, uncached, where the recall pays it, with float32 queries
(``int8_queries=False``) and with the default int8 ones. The vectors searched stay the
store's (``PricedQueryEmbedder``), so only the time differs. Every belief-search call and
the model call are wrapped with timers; the script prints, per way, the median start and
end of each call (ms from the recall's start, and the model call's thread CPU time) and
the recall's p50::

    RECALLFLOW_BENCH_HOME=… python -m benchmarks.query_embedding_path --tier 10k --rounds 6

Wall times move with everyone else's load on a shared machine; the differences between
the ways, measured in the same minutes, are the figures to read.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from benchmarks.datagen import TIERS
from benchmarks.recall_harness import PricedQueryEmbedder, QueryCachingEmbedder, requests
from benchmarks.stores import bench_embedder_name, bench_home, open_tier
from recallflow.adapters.embedders import embedder_from_name
from recallflow.adapters.postgres.embedded import EmbeddedServer
from recallflow.ports import RecallPorts

#: (call, started, ended, thread CPU seconds) of the recall being timed.
Event = tuple[str, float, float, float]


class Timed:
    """``inner`` with every method call recorded in ``events`` (under ``label`` if given)."""

    def __init__(self, inner: Any, events: list[Event], label: str | None = None) -> None:
        self._inner = inner
        self._events = events
        self._label = label
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._inner, name)
        if not callable(target):
            return target

        if name == "with_marks":  # the recall's own copy of the search: timed as well
            return lambda *a, **k: Timed(target(*a, **k), self._events, self._label)

        def call(*args: Any, **kwargs: Any) -> Any:
            started, cpu = time.perf_counter(), time.thread_time()
            try:
                return target(*args, **kwargs)
            finally:
                event = (
                    self._label or name,
                    started,
                    time.perf_counter(),
                    time.thread_time() - cpu,
                )
                with self._lock:
                    self._events.append(event)

        return call


def _ways(base: RecallPorts, vectors: Any, events: list[Event]) -> dict[str, RecallPorts]:
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder

    search = Timed(base.belief_search, events)
    ways = {"vector cached": replace(base, belief_search=search)}
    for name, model in (
        ("fp32 query", MiniLMEmbedder(int8_queries=False)),
        ("int8 query", MiniLMEmbedder()),
    ):
        priced = PricedQueryEmbedder(vectors, Timed(model, events, "query embedding"))
        ways[name] = replace(base, belief_search=search, embedder=priced)
    return ways


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", default="10k", choices=sorted(TIERS))
    parser.add_argument("--rounds", type=int, default=6, help="passes over the 24 requests")
    args = parser.parse_args()
    events: list[Event] = []
    runs: dict[str, list[dict[str, tuple[float, float, float]]]] = {}
    server = EmbeddedServer(bench_home())
    try:
        store = open_tier(
            server,
            TIERS[args.tier],
            embedder=QueryCachingEmbedder(embedder_from_name(bench_embedder_name())),
        )
        memory, reqs = store.memory, requests(store)
        base, search = memory._ports, memory._search
        # A recall searches through its own copy (``with_marks``), made from ``_search``.
        memory._search = Timed(search, events)  # type: ignore[assignment]
        try:
            ways = _ways(base, memory.embedder, events)
            runs = {name: [] for name in ways}
            for ports in ways.values():  # prepared statements, drivers, the query cache
                memory._ports = ports
                for req in reqs:
                    memory.recall(req)
            for _ in range(args.rounds):
                for req in reqs:
                    for name, ports in ways.items():
                        memory._ports = ports
                        events.clear()
                        started = time.perf_counter()
                        memory.recall(req)
                        ended = time.perf_counter()
                        runs[name].append(_timeline(events, started, ended))
        finally:
            memory._ports, memory._search = base, search
            memory.close()
    finally:
        server.release()
    for name, timelines in runs.items():
        print(f"{name} ({len(timelines)} recalls; median start -> end, ms; thread CPU)")
        for call in sorted({c for t in timelines for c in t}, key=_by_start(timelines)):
            spans = [t[call] for t in timelines if call in t]
            start, end, cpu = (statistics.median(s[i] for s in spans) for i in range(3))
            print(f"  {call:24s} {start:6.2f} -> {end:6.2f}   CPU {cpu:5.2f}")


def _timeline(
    events: list[Event], started: float, ended: float
) -> dict[str, tuple[float, float, float]]:
    """Each call's first (start, end, CPU) of one recall in ms from its start, and the recall's."""
    spans: dict[str, tuple[float, float, float]] = {}
    for call, begun, done, cpu in events:
        spans.setdefault(call, ((begun - started) * 1e3, (done - started) * 1e3, cpu * 1e3))
    spans["recall"] = (0.0, (ended - started) * 1e3, 0.0)
    return spans


def _by_start(timelines: list[dict[str, tuple[float, float, float]]]) -> Callable[[str], float]:
    return lambda call: statistics.median(t[call][0] for t in timelines if call in t)


if __name__ == "__main__":
    main()
