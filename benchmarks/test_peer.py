"""Group ``peer``: the same queries on the same data answered by what a user would pick
instead, each asked twice (``benchmarks/peers.py``: ``text`` — the query text alone;
``keys`` — the structured keys recallflow's request carries folded into the text):

* ``peer:langgraph:<mode>`` — LangGraph ``PostgresStore.search`` as shipped (no iterative
  scan); ``peer:langgraph_iterative:<mode>`` — with ``hnsw.iterative_scan=relaxed_order``;
* ``peer:mem0:<mode>`` / ``peer:mem0_iterative:<mode>`` — mem0's ``Memory.search`` on its
  pgvector backend, the same two ways;
* ``peer:bm25s:<mode>`` — bm25s in memory (query tokenisation included).

recallflow's own rows are ``moment:in_turn`` (keys) and ``moment:in_turn_text`` (keys
withheld) in ``test_recall.py``. Query embedding is *included* in the LangGraph and mem0
timings (they embed inside ``search``); ``embedding:query`` times it alone. Each
benchmark's ``extra_info`` records mean rows returned (under-fill) and recall@10 against
the generator's ground truth, computed once outside the timed loop. The ``1m`` tier has
no peers: loading a million rows into each peer is not what that tier measures.
"""

from __future__ import annotations

import contextlib
import itertools
import statistics
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.peers import (
    LIMIT,
    MODES,
    Bm25Peer,
    LangGraphPeer,
    Mem0Peer,
    build_bm25,
    open_langgraph,
    open_mem0,
    peer_query,
    recall_at_k,
)
from benchmarks.stores import BenchStore

_langgraph: dict[str, LangGraphPeer] = {}
_mem0: dict[str, Mem0Peer] = {}
_bm25: dict[str, Bm25Peer] = {}


@pytest.fixture(scope="session")
def peer_stack() -> Iterator[contextlib.ExitStack]:
    """Closes the peers' connections at the end of the session."""
    with contextlib.ExitStack() as stack:
        yield stack
    _langgraph.clear()
    for peer in _mem0.values():
        peer.close()
    _mem0.clear()


def _no_peers_at(bench: BenchStore) -> None:
    if bench.tier.name == "1m":
        pytest.skip("no peers at the 1m tier")


@pytest.fixture
def langgraph(bench_store: BenchStore, peer_stack: contextlib.ExitStack) -> LangGraphPeer:
    """The tier's LangGraph stores (loaded on first use, cached in the tier's database)."""
    _no_peers_at(bench_store)
    name = bench_store.tier.name
    if name not in _langgraph:
        _langgraph[name] = open_langgraph(bench_store, peer_stack)
    return _langgraph[name]


@pytest.fixture
def mem0(bench_store: BenchStore, peer_stack: contextlib.ExitStack) -> Mem0Peer:
    """The tier's mem0 collection (loaded on first use, cached in the tier's database)."""
    _no_peers_at(bench_store)
    name = bench_store.tier.name
    if name not in _mem0:
        _mem0[name] = open_mem0(bench_store)
    return _mem0[name]


@pytest.fixture
def bm25(bench_store: BenchStore) -> Bm25Peer:
    """The tier's bm25s index, built once per session."""
    _no_peers_at(bench_store)
    name = bench_store.tier.name
    if name not in _bm25:
        _bm25[name] = build_bm25(bench_store)
    return _bm25[name]


def _quality(
    bench: BenchStore, search: Callable[[str], list[str]], mode: str
) -> dict[str, float | str]:
    found = [search(peer_query(q, mode)) for q in bench.queries]
    return {
        "mode": mode,
        "mean_returned": statistics.fmean(len(f) for f in found),
        "underfilled_share": statistics.fmean(len(f) < LIMIT for f in found),
        "recall_at_10": statistics.fmean(
            recall_at_k(f, q.relevant_ids) for f, q in zip(found, bench.queries, strict=True)
        ),
    }


def _run(
    benchmark: BenchmarkFixture,
    bench: BenchStore,
    peer: str,
    mode: str,
    search: Callable[[str], list[str]],
    **extra: float | str,
) -> None:
    benchmark.group = f"peer:{peer}:{mode}"
    benchmark.extra_info.update(tier=bench.tier.name, **_quality(bench, search, mode), **extra)
    texts = itertools.cycle([peer_query(q, mode) for q in bench.queries])
    benchmark(lambda: search(next(texts)))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("variant", ["langgraph", "langgraph_iterative"])
def test_langgraph(
    benchmark: BenchmarkFixture,
    bench_store: BenchStore,
    langgraph: LangGraphPeer,
    variant: str,
    mode: str,
) -> None:
    store = langgraph.iterative if variant.endswith("iterative") else langgraph.default
    principal = bench_store.principal_id

    def search(text: str) -> list[str]:
        return langgraph.search(store, principal, text)

    _run(benchmark, bench_store, variant, mode, search, load_s=langgraph.load_s)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("variant", ["mem0", "mem0_iterative"])
def test_mem0(
    benchmark: BenchmarkFixture, bench_store: BenchStore, mem0: Mem0Peer, variant: str, mode: str
) -> None:
    memory: Any = mem0.iterative if variant.endswith("iterative") else mem0.default
    principal = bench_store.principal_id

    def search(text: str) -> list[str]:
        return mem0.search(memory, principal, text)

    _run(benchmark, bench_store, variant, mode, search, load_s=mem0.load_s)


@pytest.mark.parametrize("mode", MODES)
def test_bm25s(
    benchmark: BenchmarkFixture, bench_store: BenchStore, bm25: Bm25Peer, mode: str
) -> None:
    _run(benchmark, bench_store, "bm25s", mode, bm25.search, build_s=bm25.build_s)
