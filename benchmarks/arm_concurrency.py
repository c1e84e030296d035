"""How should the arms run concurrently? (The measurement behind ``ArmThreadPool``.)

Measures one in-turn recall DAG four ways on the same store and request:

- ``sequential``: the sync driver, every node inline;
- ``arm-threads``: the sync driver with :class:`ArmThreadPool` (arms in a thread pool,
  everything else inline) — recallflow's default;
- ``future-adapter``: the sync driver with Hamilton's ``FutureAdapter`` (every node in a
  thread pool);
- ``async``: Hamilton's async driver with the arms as ``async def`` nodes on a psycopg
  ``AsyncConnectionPool`` (a module override of the four database arms and graph
  expansion), every other node unchanged.

Run: ``python -m benchmarks.arm_concurrency [--beliefs N] [--rounds N]``. It builds its own
store in a temporary home (hashing embedder, so embedding cost is out of the picture) and
stops the server when done.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import types
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from hamilton import async_driver, base
from hamilton.function_modifiers import tag
from hamilton.plugins.h_threadpool import FutureAdapter
from pgvector.psycopg import register_vector_async
from psycopg import sql
from psycopg_pool import AsyncConnectionPool

from recallflow import open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres import search as pg_search
from recallflow.adapters.postgres.filters import hard_filter_sql
from recallflow.adapters.postgres.pool import RECALL_SETTINGS
from recallflow.adapters.postgres.vectors import query_vector_texts
from recallflow.core.fusion import reciprocal_rank_fusion
from recallflow.dataflows import NODE_MODULES, dag_config
from recallflow.dataflows.runner import RecallFlow, resolved_request
from recallflow.models.request import RecallRequest
from recallflow.models.result import ArmHit, ArmResult
from recallflow.models.stages import HardFilter
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy
from recallflow.ports import RawHits

WORDS = "deploy billing invoice cents queue retry webhook release crash lint tests editor".split()


async def _fetch(
    pool: AsyncConnectionPool, query: sql.SQL, f: HardFilter, params: dict[str, Any]
) -> RawHits:
    predicate, filter_params = hard_filter_sql(f)
    async with pool.connection() as conn:
        cur = await conn.execute(query.format(filter=predicate), {**filter_params, **params})
        return [(str(r[0]), float(r[1])) for r in await cur.fetchall()]


def _arm_result(arm: str, hits: RawHits, started: float) -> ArmResult:
    ranked = tuple(ArmHit(belief_id=i, rank=r, raw_score=s) for r, (i, s) in enumerate(hits, 1))
    return ArmResult(arm=arm, hits=ranked, latency_ms=(time.perf_counter() - started) * 1000)


def async_arm_module() -> types.ModuleType:
    """A module whose arm nodes are ``async def`` twins of the library's, over an async pool."""
    module = types.ModuleType("benchmarks_async_arms")

    @tag(stage="arm")
    async def structured_hits(
        hard_filter: HardFilter,
        query_keys: tuple[str, ...],
        async_pool: AsyncConnectionPool,
        policy: RetrievalPolicy,
    ) -> ArmResult:
        t = time.perf_counter()
        hits = (
            await _fetch(
                async_pool,
                pg_search._STRUCTURED,
                hard_filter,
                {
                    "kind": "k",
                    "terms": list(query_keys),
                    "limit": policy.limits.per_arm,
                    "cap": policy.limits.lexical_candidate_cap,
                    "common_share": policy.limits.common_share,
                    "min_common": policy.limits.min_common,
                    "subject_weight": policy.limits.structured_subject_weight,
                },
            )
            if query_keys
            else []
        )
        return _arm_result("structured_hits", hits, t)

    @tag(stage="arm")
    async def lexical_hits(
        hard_filter: HardFilter,
        query_texts: tuple[str, ...],
        async_pool: AsyncConnectionPool,
        policy: RetrievalPolicy,
    ) -> ArmResult:
        t = time.perf_counter()
        hits = await _fetch(
            async_pool,
            pg_search._LEXICAL,
            hard_filter,
            {
                "kind": "l",
                "seed_terms": policy.limits.seed_lexemes,
                "text": " ".join(query_texts),
                "limit": policy.limits.per_arm,
                "cap": policy.limits.lexical_candidate_cap,
                "k1": policy.limits.bm25_k1,
                "b": policy.limits.bm25_b,
                "common_share": policy.limits.common_share,
                "min_common": policy.limits.min_common,
            },
        )
        return _arm_result("lexical_hits", hits, t)

    @tag(stage="arm")
    async def trigram_hits(
        hard_filter: HardFilter,
        trigram_terms: tuple[str, ...],
        async_pool: AsyncConnectionPool,
        policy: RetrievalPolicy,
    ) -> ArmResult:
        t = time.perf_counter()
        terms = [x for x in trigram_terms if len(x) >= 3]
        hits = (
            await _fetch(
                async_pool,
                pg_search._TRIGRAM,
                hard_filter,
                {"terms": terms, "limit": policy.limits.per_arm},
            )
            if terms
            else []
        )
        return _arm_result("trigram_hits", hits, t)

    @tag(stage="arm")
    async def semantic_hits(
        hard_filter: HardFilter,
        query_vectors: np.ndarray,
        async_pool: AsyncConnectionPool,
        policy: RetrievalPolicy,
    ) -> ArmResult:
        t = time.perf_counter()
        vectors = query_vector_texts(query_vectors)
        hits = await _fetch(
            async_pool,
            pg_search.semantic_query(len(vectors)),
            hard_filter,
            {
                "vectors": vectors,
                "limit": policy.limits.per_arm,
                "min_similarity": policy.limits.semantic_min_similarity,
            },
        )
        return _arm_result("semantic_hits", hits, t)

    # Hamilton's async driver does not await coroutines inside an injected group, so the
    # async twins name their inputs explicitly (the default arms).
    @tag(stage="arm")
    async def graph_expanded_hits(
        hard_filter: HardFilter,
        structured_hits: ArmResult,
        lexical_hits: ArmResult,
        trigram_hits: ArmResult,
        semantic_hits: ArmResult,
        async_pool: AsyncConnectionPool,
        policy: RetrievalPolicy,
    ) -> ArmResult:
        t = time.perf_counter()
        seed_results = [structured_hits, lexical_hits, trigram_hits, semantic_hits]
        fused = reciprocal_rank_fusion(seed_results, policy.rrf_k, policy.arm_weights)
        seeds = [c.belief_id for c in fused][: policy.limits.graph_seeds]
        limits = policy.limits
        hits = (
            await _fetch(
                async_pool,
                pg_search._NEIGHBOURS,
                hard_filter,
                {
                    "seeds": seeds,
                    "depth": limits.graph_depth,
                    "fanout": limits.graph_fanout,
                    "hop_decay": limits.graph_hop_decay,
                    "limit": limits.graph_fanout * max(1, len(seeds)) * limits.graph_depth,
                },
            )
            if seeds
            else []
        )
        return _arm_result("graph_expanded_hits", hits, t)

    @tag(stage="fusion")
    def arm_results(
        structured_hits: ArmResult,
        lexical_hits: ArmResult,
        trigram_hits: ArmResult,
        semantic_hits: ArmResult,
        graph_expanded_hits: ArmResult,
    ) -> tuple[ArmResult, ...]:
        return (structured_hits, lexical_hits, trigram_hits, semantic_hits, graph_expanded_hits)

    for fn in (
        structured_hits,
        lexical_hits,
        trigram_hits,
        semantic_hits,
        graph_expanded_hits,
        arm_results,
    ):
        fn.__module__ = module.__name__
        setattr(module, fn.__name__, fn)
    sys.modules[module.__name__] = module
    return module


async def _configure(conn: Any) -> None:
    await conn.set_autocommit(True)
    conn.prepare_threshold = 0
    await register_vector_async(conn)
    # The sync arms SET LOCAL these from the policy per query; the async twins use the
    # default policy's values for the whole session.
    limits = DEFAULT_POLICY.limits
    arm_settings = {
        "hnsw.ef_search": str(max(limits.hnsw_ef_search, limits.per_arm)),
        "pg_trgm.word_similarity_threshold": str(limits.trigram_threshold),
        "statement_timeout": str(limits.timeout_ms),
    }
    for name, value in {**RECALL_SETTINGS, **arm_settings}.items():
        await conn.execute("SELECT set_config(%s, %s, false)", (name, value))


def _timed(run: Callable[[], Any], rounds: int) -> list[float]:
    for _ in range(10):
        run()
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        run()
        out.append((time.perf_counter() - t) * 1000)
    return out


def _store(memory: Any, n: int) -> None:
    rng = np.random.default_rng(3)
    drafts = []
    for i in range(n):
        words = list(rng.choice(WORDS, size=5))
        drafts.append(
            {
                "tenant_id": "bench",
                "principal_id": "p",
                "id": f"b-{i}",
                "statement": f"{' '.join(words)} fact number {i}",
                "subject": words[0],
                "entities": words[1:3],
                "scope": "user",
            }
        )
    memory.beliefs.add_many(drafts)
    memory.edges.add_many(
        [
            {"tenant_id": "bench", "principal_id": "p", "src_id": f"b-{i}", "dst_id": f"b-{i + 1}"}
            for i in range(0, n - 1, 3)
        ]
    )
    with memory.pool.connection() as conn:
        conn.execute("ANALYZE beliefs")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beliefs", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args(argv)
    with (
        tempfile.TemporaryDirectory() as home,
        open_memory(home=home, embedder=HashingEmbedder()) as memory,
    ):
        _store(memory, args.beliefs)
        request = resolved_request(
            RecallRequest(
                tenant_id="bench",
                principal_id="p",
                working_state={
                    "goal": "How do billing webhooks retry when a deploy fails?",
                    "entities": ["billing", "webhook"],
                },
            )
        )
        inputs = {"request": request, "trace_id": "t", "ports": memory._ports}
        results: dict[str, list[float]] = {}
        seq = RecallFlow(concurrent_arms=False)
        threads = RecallFlow(concurrent_arms=True)
        expected = seq.run(inputs).block
        assert threads.run(inputs).block == expected
        results["sequential"] = _timed(lambda: seq.run(inputs), args.rounds)
        results["arm-threads"] = _timed(lambda: threads.run(inputs), args.rounds)
        future = (
            __import__("hamilton.driver", fromlist=["Builder"])
            .Builder()
            .with_modules(*NODE_MODULES)
            .with_config(dag_config())
            .with_adapters(FutureAdapter(max_workers=8, result_builder=base.DictResult()))
            .build()
        )
        full = {**inputs, "policy": DEFAULT_POLICY, "dag_version": "x"}
        results["future-adapter"] = _timed(
            lambda: future.execute(["recall_result"], inputs=full), args.rounds
        )

        async def run_async() -> list[float]:
            pool = AsyncConnectionPool(
                memory.uri, min_size=6, max_size=8, configure=_configure, open=False
            )
            await pool.open(wait=True)
            dr = await (
                async_driver.Builder()
                .with_modules(*NODE_MODULES, async_arm_module())
                .with_config(dag_config())
                .allow_module_overrides()
                .build()
            )
            args_ = {**full, "async_pool": pool}
            out = await dr.execute(["recall_result"], inputs=args_)
            assert out["recall_result"].block == expected, "async variant rendered other bytes"
            for _ in range(10):
                await dr.execute(["recall_result"], inputs=args_)
            times = []
            for _ in range(args.rounds):
                t = time.perf_counter()
                await dr.execute(["recall_result"], inputs=args_)
                times.append((time.perf_counter() - t) * 1000)
            await pool.close()
            return times

        results["async"] = asyncio.run(run_async())
        print(f"{args.beliefs} beliefs, {args.rounds} rounds (ms)")
        print("| mode | p50 | p95 | mean |\n| --- | --- | --- | --- |")
        for name, times in results.items():
            times.sort()
            print(
                f"| {name} | {times[len(times) // 2]:.2f} | {times[int(len(times) * 0.95)]:.2f} "
                f"| {statistics.fmean(times):.2f} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
