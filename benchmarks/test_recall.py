"""Groups ``node:*``, ``arm:*``, ``moment:*``, ``embedding:query`` and ``overhead``, at every
selected tier.

* ``node:<name>`` / ``arm:<name>`` — each function of the in-turn DAG (arms: the nodes
  tagged ``stage=arm``; wiring nodes are skipped) called directly on the inputs it got in
  a real run, cycling over the tier's 24 fixed requests;
* ``moment:in_turn`` — ``Memory.recall`` end to end, trace persisted, query embedding
  excluded (cached after a warm-up pass; ``embedding:query`` times it alone, one query text
  at a time, with the store's embedder); the snapshot moments are timed as sessions open
  them, in ``benchmarks/test_sessions.py``; ``moment:in_turn_text`` — the in-turn requests
  with their structured keys withheld (the ``text`` row of the peer table);
* ``moment:in_turn_principal`` — the in-turn recall of one 10k-belief principal of the
  tier (at 10k the measured principal, above it a neighbour of that size), so one
  principal's latency can be followed as the store around it grows to 1M rows;
* ``moment:in_turn_alone`` — the tier's measured principal asked the same requests in a
  store of its own (no other principal: the commonest embedded store, one user), at the
  tiers whose measured principal holds at most 10k beliefs: plans that read a principal
  whole cost as much as the whole table there, which no store of several principals shows;
  it also times each request alone and in the tier's store in interleaved pairs
  (``extra_info["interleaved_ratio"]``, the median of the per-pair ratios);
* ``embedding:query_minilm`` — the query texts of one recall embedded by MiniLM as
  queries (``embed_queries``, as ``query_vectors`` calls it), uncached;
* ``moment:in_turn_minilm`` — ``moment:in_turn`` with MiniLM's query embedding paid on
  every recall, uncached, where the recall pays it (the key arms' database work runs
  while the model does; the semantic arm waits for it); the vectors searched are still
  the store's, so only the time differs: the end-to-end latency with the default
  embedder. ``moment:in_turn`` + ``embedding:query_minilm`` is its bound had the
  embedding overlapped nothing;
* ``overhead`` — the whole DAG on belief-search answers replayed from memory (no database,
  so only orchestration differs): node functions called directly in topological order
  (``direct``), the Hamilton driver without adapters (``hamilton``), with the lineage
  adapter (``hamilton_lineage``), and as ``Memory.recall`` builds it, arms in a thread
  pool (``hamilton_lineage_arm_pool``). The last one also times ``direct`` and itself
  interleaved, in pairs on the same request (``extra_info["interleaved_overhead_ms"]``,
  the median of the per-pair differences); the report divides that (or, without it, the
  difference of the two medians) by the ``moment:in_turn`` median of the same tier.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.datagen import TIERS
from benchmarks.peers import recall_at_k
from benchmarks.recall_harness import (
    Captured,
    PricedQueryEmbedder,
    capture,
    principal_requests,
    requests,
    run_direct,
)
from benchmarks.stores import BenchStore, alone
from recallflow.adapters.embedders import embedder_from_name
from recallflow.dataflows import RESULT_NODE, build
from recallflow.dataflows.runner import RecallFlow
from recallflow.models.request import Moment, RecallRequest
from recallflow.ports import Embedder

#: The in-turn DAG's node names, and the helper nodes it has beside them.
DAG_NODES = (
    "recall_queries", "query_keys", "query_texts", "trigram_terms", "query_vectors",
    "hard_filter", "structured_hits", "lexical_hits", "trigram_hits", "semantic_hits",
    "external_hits", "graph_expanded_hits", "arm_results", "fused_candidates",
    "candidate_beliefs", "best_fused_score", "scored_candidates", "resolved_candidates",
    "above_floor", "trusted_items", "budgeted_items", "rendered_block", "request_digest",
    "recall_trace", "recall_result",
)  # fmt: skip
_captured: dict[str, Captured] = {}


@pytest.fixture
def captured(bench_store: BenchStore) -> Captured:
    """The tier's DAG with every node's inputs from real runs (captured once per tier)."""
    name = bench_store.tier.name
    if name not in _captured:
        _captured[name] = capture(bench_store)
    return _captured[name]


def _cycle(items: list[Any]) -> Callable[[], Any]:
    source = itertools.cycle(items)
    return lambda: next(source)


@pytest.mark.parametrize("node_name", DAG_NODES)
def test_node(
    benchmark: BenchmarkFixture, bench_store: BenchStore, captured: Captured, node_name: str
) -> None:
    if node_name not in captured.flow.driver.graph.nodes:
        pytest.skip(f"{node_name} is not in this DAG")
    node = captured.node(node_name)
    kind = "arm" if captured.stage(node_name) == "arm" else "node"
    benchmark.group = f"{kind}:{node_name}"
    benchmark.extra_info.update(
        tier=bench_store.tier.name, stage=captured.stage(node_name), degraded_arms=captured.errors()
    )
    nxt = _cycle(captured.args(node_name))
    fn = node.callable
    benchmark(lambda: fn(**nxt()))


@pytest.mark.parametrize("moment", [Moment.IN_TURN.value])
def test_moment(benchmark: BenchmarkFixture, bench_store: BenchStore, moment: str) -> None:
    memory = bench_store.memory
    reqs = [r.model_copy(update={"moment": Moment(moment)}) for r in requests(bench_store)]
    # One pass warms the embedding cache, prepared statements and the moment's driver,
    # and gives the quality figures.
    results = [memory.recall(r) for r in reqs]
    # recall@10 on the ranking (as the peers' top 10 are); the block's own recall beside it.
    ranked = [list(r.trace.ranked_ids) for r in results]
    blocks = [list(r.rendered_ids) for r in results]
    benchmark.group = f"moment:{moment}"
    benchmark.extra_info.update(
        tier=bench_store.tier.name,
        embedder=memory.embedder.name,
        mean_returned=statistics.fmean(len(f) for f in blocks),
        recall_at_10=statistics.fmean(
            recall_at_k(f, q.relevant_ids) for f, q in zip(ranked, bench_store.queries, strict=True)
        ),
        block_recall=statistics.fmean(
            recall_at_k(f, q.relevant_ids) for f, q in zip(blocks, bench_store.queries, strict=True)
        ),
        query_embedding="excluded (cached)",
    )
    nxt = _cycle(reqs)
    benchmark(lambda: memory.recall(nxt()))


def _time_recalls(
    benchmark: BenchmarkFixture,
    bench_store: BenchStore,
    group: str,
    reqs: list[RecallRequest],
    relevant: list[tuple[str, ...]],
    **extra: Any,
) -> None:
    memory = bench_store.memory
    results = [memory.recall(r) for r in reqs]  # warms the embedding cache and statements
    ranked = [list(r.trace.ranked_ids) for r in results]
    benchmark.group = group
    benchmark.extra_info.update(
        {
            "tier": bench_store.tier.name,
            "mean_returned": statistics.fmean(len(r.rendered_ids) for r in results),
            "recall_at_10": statistics.fmean(
                recall_at_k(f, ids) for f, ids in zip(ranked, relevant, strict=True)
            ),
            "query_embedding": "excluded (cached)",
            **extra,
        }
    )
    nxt = _cycle(reqs)
    benchmark(lambda: memory.recall(nxt()))


def test_in_turn_text(benchmark: BenchmarkFixture, bench_store: BenchStore) -> None:
    """The in-turn requests with the structured keys withheld (goal text only)."""
    reqs = [
        r.model_copy(update={"working_state": r.working_state.model_copy(update={"entities": ()})})
        for r in requests(bench_store)
    ]
    relevant = [q.relevant_ids for q in bench_store.queries]
    _time_recalls(benchmark, bench_store, "moment:in_turn_text", reqs, relevant, keys="withheld")


def test_in_turn_principal(benchmark: BenchmarkFixture, bench_store: BenchStore) -> None:
    """One 10k-belief principal's in-turn recall, whatever the size of the store."""
    found = principal_requests(bench_store, 10_000)
    if found is None:
        pytest.skip("no 10k-belief principal in this tier")
    principal, reqs, relevant = found
    _time_recalls(
        benchmark,
        bench_store,
        "moment:in_turn_principal",
        reqs,
        relevant,
        principal=principal,
        principal_beliefs=10_000,
        rows_in_table=bench_store.report.rows_in_table,
    )


#: ``moment:in_turn_alone`` runs at the tiers whose measured principal holds at most this
#: many beliefs (a store of a larger principal alone would cost a long build).
ALONE_MAX_BELIEFS = 10_000
#: Interleaved (alone, among others) pairs of the same request for the paired ratio.
ALONE_PAIRS = 72


def test_in_turn_alone(
    benchmark: BenchmarkFixture, tier: str, request: pytest.FixtureRequest
) -> None:
    """The tier's measured principal's in-turn recall in a store of its own: the same
    beliefs, requests and ground truth as ``moment:in_turn``, with no other principal.

    Then the same request alone and in the tier's store, :data:`ALONE_PAIRS` times, which
    of the two goes first alternating: the median of the per-pair ratios
    (``extra_info["interleaved_ratio"]``) compares the two stores on the same load, where
    the two groups' medians are taken minutes apart."""
    spec = alone(TIERS[tier])
    if spec.beliefs > ALONE_MAX_BELIEFS:
        pytest.skip(f"the {tier} principal is over {ALONE_MAX_BELIEFS:,} beliefs")
    # Fixtures asked for here, so a skipped tier builds no store.
    store: BenchStore = request.getfixturevalue("alone_store")
    among: BenchStore = request.getfixturevalue("bench_store")
    _time_recalls(
        benchmark,
        store,
        "moment:in_turn_alone",
        requests(store),
        [q.relevant_ids for q in store.queries],
        tier=tier,
        store=spec.name,
        principal=store.principal_id,
        principal_beliefs=spec.beliefs,
        rows_in_table=store.report.rows_in_table,
    )
    benchmark.extra_info.update(_interleaved_alone(store, among))


def _interleaved_alone(store: BenchStore, among: BenchStore) -> dict[str, float]:
    """Per pair: one request's recall in the store of the principal alone and in the
    tier's store (warmed first), in alternating order."""
    sides = {"alone": (store.memory, requests(store)), "among": (among.memory, requests(among))}
    for memory, reqs in sides.values():
        for req in reqs:
            memory.recall(req)
    timed: dict[str, list[float]] = {"alone": [], "among": []}
    for i in range(ALONE_PAIRS):
        for side in ("alone", "among") if i % 2 == 0 else ("among", "alone"):
            memory, reqs = sides[side]
            started = time.perf_counter()
            memory.recall(reqs[i % len(reqs)])
            timed[side].append((time.perf_counter() - started) * 1e3)
    ratios = [a / b for a, b in zip(timed["alone"], timed["among"], strict=True)]
    return {
        "interleaved_ratio": statistics.median(ratios),
        "interleaved_alone_ms": statistics.median(timed["alone"]),
        "interleaved_among_ms": statistics.median(timed["among"]),
    }


@pytest.fixture(scope="session")
def minilm() -> Embedder:
    """The default embedder, loaded once (skips when the embed extra is missing)."""
    try:
        return embedder_from_name("minilm")
    except ImportError as exc:
        pytest.skip(f"MiniLM is not installed: {exc}")


def test_query_embedding_minilm(
    benchmark: BenchmarkFixture, bench_store: BenchStore, minilm: Embedder
) -> None:
    """A recall's query texts embedded by MiniLM as queries, as ``query_vectors`` does."""
    former = bench_store.memory._ports.query_former
    batches = [
        [q.text for q in former.form(r.working_state) if q.kind == "text"]
        for r in requests(bench_store)
    ]
    benchmark.group = "embedding:query_minilm"
    benchmark.extra_info.update(
        tier=bench_store.tier.name,
        embedder=minilm.name,
        texts_per_recall=statistics.fmean(len(b) for b in batches),
    )
    nxt = _cycle(batches)
    as_queries = getattr(minilm, "embed_queries", minilm.embed)
    benchmark(lambda: as_queries(nxt()))


def test_in_turn_minilm(
    benchmark: BenchmarkFixture, bench_store: BenchStore, minilm: Embedder
) -> None:
    """The in-turn recall with MiniLM's query embedding on its critical path, uncached."""
    memory = bench_store.memory
    ports = memory._ports
    # Uncached (not behind the recall's query cache): every recall pays the model.
    memory._ports = replace(ports, embedder=PricedQueryEmbedder(memory.embedder, minilm))
    try:
        _time_recalls(
            benchmark,
            bench_store,
            "moment:in_turn_minilm",
            requests(bench_store),
            [q.relevant_ids for q in bench_store.queries],
            query_embedding=f"{minilm.name}, uncached",
        )
    finally:
        memory._ports = ports


def test_query_embedding(benchmark: BenchmarkFixture, bench_store: BenchStore) -> None:
    """One query text embedded by the store's embedder (uncached)."""
    embedder = getattr(bench_store.memory.embedder, "inner", bench_store.memory.embedder)
    benchmark.group = "embedding:query"
    benchmark.extra_info.update(tier=bench_store.tier.name, embedder=embedder.name)
    nxt = _cycle([q.text for q in bench_store.queries])
    benchmark(lambda: embedder.embed([nxt()]))


#: The ``overhead`` variants: like for like, arms inline, belief search replayed from memory.
OVERHEAD_VARIANTS = ("direct", "hamilton", "hamilton_lineage", "hamilton_lineage_arm_pool")


@pytest.mark.parametrize("variant", OVERHEAD_VARIANTS)
def test_overhead(
    benchmark: BenchmarkFixture, bench_store: BenchStore, captured: Captured, variant: str
) -> None:
    """The whole in-turn DAG on replayed search answers (no database): orchestration only.

    ``direct`` calls the node functions in topological order; ``hamilton`` is the driver
    without adapters; ``hamilton_lineage`` adds the lineage adapter; the last one is the
    driver exactly as ``Memory.recall`` builds it (lineage + arms in a thread pool).
    """
    benchmark.group = "overhead"
    benchmark.extra_info.update(tier=bench_store.tier.name, variant=variant)
    config = captured.flow.driver.graph.config
    replay = [{k: v for k, v in item.items() if k not in config} for item in captured.replay]
    policy = captured.flow.policy
    if variant == "direct":
        order, nxt = captured.order, _cycle(captured.replay)
        benchmark(lambda: run_direct(order, nxt()))
    elif variant == "hamilton":
        plain = build(Moment.IN_TURN, policy=policy)
        dag = {"policy": policy, "dag_version": captured.flow.dag_version}
        nxt = _cycle(replay)
        benchmark(lambda: plain.execute([RESULT_NODE], inputs={**nxt(), **dag}))
    else:
        flow = RecallFlow(
            Moment.IN_TURN, policy=policy, concurrent_arms=variant.endswith("arm_pool")
        )
        nxt = _cycle(replay)
        try:
            benchmark(lambda: flow.run(nxt()))
            if flow.arm_pool is not None:
                benchmark.extra_info.update(_interleaved_overhead(captured, flow, replay))
        finally:
            if flow.arm_pool is not None:
                flow.arm_pool.shutdown()


#: Interleaved (direct calls, driver as ``Memory.recall`` runs it) pairs for the paired
#: orchestration cost.
OVERHEAD_PAIRS = 120


def _interleaved_overhead(
    captured: Captured, flow: RecallFlow, replay: list[dict[str, Any]]
) -> dict[str, float]:
    """The driver's cost over direct calls, timed in pairs on the same replayed request
    (which of the two goes first alternates), as the floor times its pairs: the
    ``direct`` and ``hamilton_lineage_arm_pool`` medians are taken a minute apart, and a
    machine whose load moves in between skews their difference (one run read 2.5 ms of
    orchestration at 100k, against 0.2-0.8 ms in every other run and tier)."""
    diffs, direct_ms, full_ms = [], [], []
    for i in range(OVERHEAD_PAIRS):
        k = i % len(replay)
        timed = {}
        for side in ("direct", "full") if i % 2 == 0 else ("full", "direct"):
            started = time.perf_counter()
            if side == "direct":
                run_direct(captured.order, captured.replay[k])
            else:
                flow.run(replay[k])
            timed[side] = (time.perf_counter() - started) * 1e3
        direct_ms.append(timed["direct"])
        full_ms.append(timed["full"])
        diffs.append(timed["full"] - timed["direct"])
    return {
        "interleaved_overhead_ms": statistics.median(diffs),
        "interleaved_direct_ms": statistics.median(direct_ms),
        "interleaved_full_ms": statistics.median(full_ms),
    }
