"""Group ``peer``: the same queries on the same data answered by what a user would pick
instead.

* ``peer:langgraph`` — LangGraph ``PostgresStore.search`` as shipped (no iterative scan);
* ``peer:langgraph_iterative`` — the same with ``hnsw.iterative_scan=relaxed_order``,
  the figure we report against, since without it the store returns too few rows;
* ``peer:bm25s`` — bm25s in memory (query tokenisation included).

Query embedding is *included* in the LangGraph timings (the store embeds inside
``search``); ``embedding:query`` times it alone so it can be subtracted. Each
benchmark's ``extra_info`` records mean rows returned (under-fill) and recall@10 against the
generator's ground truth, computed once outside the timed loop.
"""

from __future__ import annotations

import contextlib
import itertools
import statistics
from collections.abc import Callable, Iterator

import pytest
from langgraph.store.postgres import PostgresStore
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.peers import LIMIT, Bm25Peer, LangGraphPeer, build_bm25, open_langgraph, recall_at_k
from benchmarks.stores import BenchStore

_langgraph: dict[str, LangGraphPeer] = {}
_bm25: dict[str, Bm25Peer] = {}


@pytest.fixture(scope="session")
def peer_stack() -> Iterator[contextlib.ExitStack]:
    """Closes the peers' connections at the end of the session."""
    with contextlib.ExitStack() as stack:
        yield stack
    _langgraph.clear()


@pytest.fixture
def langgraph(bench_store: BenchStore, peer_stack: contextlib.ExitStack) -> LangGraphPeer:
    """The tier's LangGraph stores (loaded on first use, cached in the tier's database)."""
    name = bench_store.tier.name
    if name not in _langgraph:
        _langgraph[name] = open_langgraph(bench_store, peer_stack)
    return _langgraph[name]


@pytest.fixture
def bm25(bench_store: BenchStore) -> Bm25Peer:
    """The tier's bm25s index, built once per session."""
    name = bench_store.tier.name
    if name not in _bm25:
        _bm25[name] = build_bm25(bench_store)
    return _bm25[name]


def _quality(bench: BenchStore, search: Callable[[str], list[str]]) -> dict[str, float]:
    found = [search(q.text) for q in bench.queries]
    return {
        "mean_returned": statistics.fmean(len(f) for f in found),
        "underfilled_share": statistics.fmean(len(f) < LIMIT for f in found),
        "recall_at_10": statistics.fmean(
            recall_at_k(f, q.relevant_ids) for f, q in zip(found, bench.queries, strict=True)
        ),
    }


def _run(
    benchmark: BenchmarkFixture,
    bench: BenchStore,
    group: str,
    search: Callable[[str], list[str]],
    **extra: float | str,
) -> None:
    benchmark.group = group
    benchmark.extra_info.update(tier=bench.tier.name, **_quality(bench, search), **extra)
    texts = itertools.cycle([q.text for q in bench.queries])
    benchmark(lambda: search(next(texts)))


def _langgraph_search(
    peer: LangGraphPeer, store: PostgresStore, principal: str
) -> Callable[[str], list[str]]:
    return lambda text: peer.search(store, principal, text)


def test_langgraph(
    benchmark: BenchmarkFixture, bench_store: BenchStore, langgraph: LangGraphPeer
) -> None:
    search = _langgraph_search(langgraph, langgraph.default, bench_store.principal_id)
    _run(benchmark, bench_store, "peer:langgraph", search, load_s=langgraph.load_s)


def test_langgraph_iterative(
    benchmark: BenchmarkFixture, bench_store: BenchStore, langgraph: LangGraphPeer
) -> None:
    search = _langgraph_search(langgraph, langgraph.iterative, bench_store.principal_id)
    _run(benchmark, bench_store, "peer:langgraph_iterative", search, load_s=langgraph.load_s)


def test_bm25s(benchmark: BenchmarkFixture, bench_store: BenchStore, bm25: Bm25Peer) -> None:
    _run(benchmark, bench_store, "peer:bm25s", bm25.search, build_s=bm25.build_s)


def test_query_embedding(benchmark: BenchmarkFixture, bench_store: BenchStore) -> None:
    """One query embedded by the store's embedder: the share of the LangGraph timings
    (and of recallflow's ``moment`` group) that is not retrieval."""
    benchmark.group = "embedding:query"
    benchmark.extra_info.update(
        tier=bench_store.tier.name, embedder=bench_store.memory.embedder.name
    )
    texts = itertools.cycle([q.text for q in bench_store.queries])
    embedder = bench_store.memory.embedder
    benchmark(lambda: embedder.embed([next(texts)]))
