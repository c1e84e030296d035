"""Groups ``ingest:*`` and ``embedding:batch_minilm``: how fast a formation process can
write beliefs through ``Memory.beliefs.add_many`` into a store whose indexes, HNSW
included, are all in place (as a live store has them).

* ``ingest:precomputed`` — :data:`PRECOMPUTED_BATCH` beliefs per call, vectors given
  (validation, binary COPY, index upkeep, the term-statistics trigger), spread over
  :data:`PRECOMPUTED_PRINCIPALS` principals, each below the size at which a principal's
  beliefs enter the HNSW index (as most principals are; see "Storage" in
  docs/architecture.md);
* ``ingest:precomputed_graduated`` — the same into one graduated principal, whose
  beliefs enter the HNSW index as they are written;
* ``ingest:minilm`` — :data:`MINILM_BATCH` beliefs per call embedded by MiniLM as they
  are written;
* ``embedding:batch_minilm`` — the same statements through MiniLM alone, in the chunks
  ingestion uses: the embedder's own batched throughput, which ingestion is held to.

Each call writes a principal of its own (its episodes written untimed first), into one
scratch database per embedder on the benchmark server, dropped at the start of the
session. ``extra_info["items"]`` is the batch size, so the report turns the median into a
rate. Not parametrised by tier: the rate barely depends on the table's size.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.datagen import generate_principal
from benchmarks.stores import SEED, drop_database
from recallflow import Memory, open_memory
from recallflow.adapters.embedders import embedder_from_name
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.ann_index import graduate
from recallflow.adapters.postgres.bootstrap import ensure_database
from recallflow.adapters.postgres.embedded import EmbeddedServer
from recallflow.ingestion import EMBED_BATCH
from recallflow.models.store import BeliefDraft, EpisodeDraft
from recallflow.ports import Embedder

PRECOMPUTED_BATCH = 2_000
PRECOMPUTED_PRINCIPALS = 10
MINILM_BATCH = 2 * EMBED_BATCH
ROUNDS = 3


def _scratch(server: EmbeddedServer, name: str, embedder: Embedder) -> Memory:
    drop_database(server, name)
    ensure_database(server.uri("postgres"), name)
    return open_memory(server.uri(name), embedder=embedder)


def _batches(size: int, with_vectors: Embedder | None) -> Iterator[Any]:
    """An endless supply of (episodes, beliefs) of fresh principals, ``size`` beliefs each."""
    for n in itertools.count():
        principal = f"p-ingest-{n}"
        data = generate_principal(SEED + n, principal, size + size // 4)
        drafts = next(data.batches(size))
        if with_vectors is not None:
            vectors = with_vectors.embed([d.statement for d in drafts])
            drafts = [
                d.model_copy(update={"embedding": [float(x) for x in v]})
                for d, v in zip(drafts, vectors, strict=True)
            ]
        yield list(data.episodes), drafts


def _spread(supply: Iterator[Any], principals: int) -> Iterator[Any]:
    """Batches of ``principals`` of ``supply``'s principals each."""
    while True:
        parts = [next(supply) for _ in range(principals)]
        yield [e for es, _ in parts for e in es], [d for _, ds in parts for d in ds]


def _timed_writes(
    benchmark: BenchmarkFixture,
    memory: Memory,
    supply: Iterator[tuple[list[EpisodeDraft], list[BeliefDraft]]],
    *,
    graduated: bool = False,
) -> int:
    pending: list[list[BeliefDraft]] = []

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        episodes, drafts = next(supply)
        memory.episodes.add_many(episodes)
        if graduated:
            with psycopg.connect(memory.uri) as conn:
                graduate(conn, drafts[0].tenant_id, drafts[0].principal_id)
        pending.append(drafts)
        return (drafts,), {}

    def write(drafts: list[BeliefDraft]) -> None:
        memory.beliefs.add_many(drafts)

    benchmark.pedantic(  # type: ignore[no-untyped-call]  # pytest-benchmark is untyped here
        write, setup=setup, rounds=ROUNDS, iterations=1, warmup_rounds=1
    )
    return len(pending[-1])


@pytest.fixture(scope="module")
def scratch(bench_server: EmbeddedServer) -> Iterator[Callable[[str, Embedder], Memory]]:
    """Fresh databases for the writes; dropped when the module ends. Left in place, their
    fresh rows kept the server's autovacuum busy through the groups timed after this
    module on the same two cores: ``moment:in_turn_minilm`` at 10k read 17.4-19.1 ms
    after it against 12.0 ms with it run last (see "The ingestion benchmarks' leftovers"
    in docs/benchmarks.md)."""
    opened: list[tuple[str, Memory]] = []

    def open_scratch(name: str, embedder: Embedder) -> Memory:
        memory = _scratch(bench_server, name, embedder)
        opened.append((name, memory))
        return memory

    try:
        yield open_scratch
    finally:
        for name, memory in opened:
            memory.close()
            drop_database(bench_server, name)


@pytest.fixture(scope="module")
def minilm() -> Embedder:
    try:
        return embedder_from_name("minilm")
    except ImportError as exc:
        pytest.skip(f"MiniLM is not installed: {exc}")


def test_ingest_precomputed(
    benchmark: BenchmarkFixture, scratch: Callable[[str, Embedder], Memory]
) -> None:
    hashing = HashingEmbedder()
    memory = scratch("scratch_ingest_vectors", hashing)
    benchmark.group = "ingest:precomputed"
    supply = _batches(PRECOMPUTED_BATCH // PRECOMPUTED_PRINCIPALS, hashing)
    items = _timed_writes(benchmark, memory, _spread(supply, PRECOMPUTED_PRINCIPALS))
    benchmark.extra_info.update(items=items, embedder=hashing.name, vectors="given")


def test_ingest_precomputed_graduated(
    benchmark: BenchmarkFixture, scratch: Callable[[str, Embedder], Memory]
) -> None:
    hashing = HashingEmbedder()
    memory = scratch("scratch_ingest_graduated", hashing)
    benchmark.group = "ingest:precomputed_graduated"
    supply = _batches(PRECOMPUTED_BATCH, hashing)
    items = _timed_writes(benchmark, memory, supply, graduated=True)
    benchmark.extra_info.update(items=items, embedder=hashing.name, vectors="given")


def test_ingest_minilm(
    benchmark: BenchmarkFixture, scratch: Callable[[str, Embedder], Memory], minilm: Embedder
) -> None:
    memory = scratch("scratch_ingest_minilm", minilm)
    benchmark.group = "ingest:minilm"
    items = _timed_writes(benchmark, memory, _batches(MINILM_BATCH, None))
    benchmark.extra_info.update(items=items, embedder=minilm.name, vectors="embedded")


def test_embedding_batch_minilm(benchmark: BenchmarkFixture, minilm: Embedder) -> None:
    _, drafts = next(_batches(MINILM_BATCH, None))
    statements = [d.statement for d in drafts]

    def embed_all() -> None:
        for start in range(0, len(statements), EMBED_BATCH):
            minilm.embed(statements[start : start + EMBED_BATCH])

    benchmark.group = "embedding:batch_minilm"
    benchmark.pedantic(embed_all, rounds=ROUNDS, iterations=1, warmup_rounds=1)  # type: ignore[no-untyped-call]
    benchmark.extra_info.update(items=len(statements), embedder=minilm.name)
