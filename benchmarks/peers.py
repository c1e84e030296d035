"""The peers of the ``peer`` group: what a user would pick instead of recallflow.

Every peer is asked twice per query (:func:`peer_query`): with the query text alone
(``text``: recallflow's request then withholds its structured keys too) and with the
same structured keys recallflow's request carries folded into the text (``keys``), so
no side is measured with information the other lacks.

* LangGraph's ``PostgresStore`` (``langgraph-checkpoint-postgres``) with vector search, in
  the same database of the same embedded server, embedding with the same embedder, holding
  the same beliefs of every principal of the tier (namespace ``(tenant, principal)``, one
  global HNSW index, ``m = 16, ef_construction = 64`` as recallflow's). Opened twice: as a
  user gets it (server default ``hnsw.iterative_scan = off``) and with
  ``options=-c hnsw.iterative_scan=relaxed_order`` (the default under-fills a filtered
  search, so the fair comparison is with the setting a careful user would add).
* ``bm25s`` in memory over the principal's live beliefs, English stopwords, Snowball stemmer.
* mem0 (``mem0ai``) with its pgvector backend in the same database, ``infer=False`` (raw
  statements, no LLM), the same embedder, one ``user_id`` per principal. Its rows are
  written through mem0's own vector store (the payload ``Memory.add`` writes, in batches:
  ``add`` would embed and insert one row at a time). Without the ``nlp`` extra (spaCy)
  mem0 keyword-matches the raw text and extracts no entities, as a default install does.
  Opened as shipped and with ``hnsw.iterative_scan=relaxed_order``, like LangGraph.

The peers get the hard filter a user would write with their API: only *live* beliefs —
active or provisional, open validity, sensitivity ≤ personal — as a ``{"live": True}``
value filter (LangGraph) or by indexing only those (bm25s).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from langgraph.store.base import PutOp
from langgraph.store.postgres import PostgresStore
from psycopg import sql
from psycopg.conninfo import make_conninfo

from benchmarks.datagen import GENERATOR_VERSION, TENANT, BenchQuery
from benchmarks.stores import BenchStore
from recallflow.ports import Embedder

# mem0 reads these when it is first imported: no telemetry upload (no network at run
# time), and an OpenAI client that is built but never called (infer=False, own embedder).
os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("OPENAI_API_KEY", "unused-no-llm-is-called")

LIMIT = 10
#: How a peer is asked: the query text alone, or with the structured keys folded in.
MODES = ("text", "keys")
_MARKER = f"bench_langgraph_{GENERATOR_VERSION}"
_MEM0_MARKER = f"bench_mem0_{GENERATOR_VERSION}"
_MEM0_COLLECTION = "mem0_bench"


def peer_query(query: BenchQuery, mode: str) -> str:
    """The text a peer is asked: the query, and in ``keys`` mode its structured keys."""
    if mode == "text" or not query.entities:
        return query.text
    return f"{query.text} {' '.join(query.entities)}"


_PUT_BATCH = 2_000
_LIVE_SQL = (
    "state IN ('active', 'provisional') AND valid_to = 'infinity'"
    " AND sensitivity <= 2 AND retracted_at IS NULL"
)


def _index_config(embedder: Embedder) -> dict[str, Any]:
    # The peer embeds its queries itself, uncached (recallflow's query cache unwrapped).
    embedder = getattr(embedder, "inner", embedder)

    def embed(texts: Sequence[str]) -> list[list[float]]:
        return [row.tolist() for row in embedder.embed(list(texts))]

    return {
        "dims": embedder.dimension,
        "embed": embed,
        "fields": ["text"],
        "distance_type": "cosine",
        "ann_index_config": {"kind": "hnsw", "m": 16, "ef_construction": 64},
    }


@dataclass
class LangGraphPeer:
    """Both LangGraph stores of a tier, open for the session, and what loading cost."""

    default: PostgresStore
    iterative: PostgresStore
    load_s: float
    reused: bool

    def search(self, store: PostgresStore, principal_id: str, query: str) -> list[str]:
        """The ids (keys) of the top :data:`LIMIT` live beliefs for ``query``."""
        items = store.search(
            (TENANT, principal_id), query=query, filter={"live": True}, limit=LIMIT
        )
        return [item.key for item in items]


def open_langgraph(bench: BenchStore, stack: contextlib.ExitStack) -> LangGraphPeer:
    """Open (loading on first use) the LangGraph stores of ``bench``'s tier."""
    uri = bench.memory.uri
    config = _index_config(bench.memory.embedder)
    default = stack.enter_context(PostgresStore.from_conn_string(uri, index=config))  # type: ignore[arg-type]
    iterative_uri = make_conninfo(uri, options="-c hnsw.iterative_scan=relaxed_order")
    iterative = stack.enter_context(
        PostgresStore.from_conn_string(iterative_uri, index=config)  # type: ignore[arg-type]
    )
    with psycopg.connect(uri, autocommit=True) as conn:
        done = conn.execute(
            "SELECT value FROM store_settings WHERE key = %s", (_MARKER,)
        ).fetchone()
        if done is not None:
            return LangGraphPeer(default, iterative, float(done[0]), reused=True)
        default.setup()
        started = time.perf_counter()
        # Bulk-load practice, as for recallflow's own tables: drop the ANN index, load, rebuild.
        hnsw = conn.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'store_vectors'"
            " AND indexdef ILIKE '%% USING hnsw %%'"
        ).fetchall()
        for name, _ in hnsw:
            conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(str(name))))
        cursor = conn.cursor(name="langgraph_load")
        with conn.transaction():
            cursor.execute(
                f"SELECT principal_id, id, statement, subject, ({_LIVE_SQL}) FROM beliefs"
                " ORDER BY principal_id, id"
            )
            while rows := cursor.fetchmany(_PUT_BATCH):
                default.batch(
                    [
                        PutOp(
                            (TENANT, str(principal)),
                            str(key),
                            {"text": str(text), "subject": str(subject), "live": bool(live)},
                        )
                        for principal, key, text, subject, live in rows
                    ]
                )
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        for _, definition in hnsw:
            conn.execute(str(definition).encode())
        load_s = time.perf_counter() - started
        conn.execute("ANALYZE store, store_vectors")
        conn.execute(
            "INSERT INTO store_settings (key, value) VALUES (%s, %s)", (_MARKER, f"{load_s:.3f}")
        )
    return LangGraphPeer(default, iterative, load_s, reused=False)


@dataclass
class Bm25Peer:
    """A bm25s index of the principal's live beliefs."""

    retriever: Any
    stemmer: Any
    ids: list[str]
    build_s: float

    def search(self, query: str) -> list[str]:
        """The ids of the top :data:`LIMIT` beliefs for ``query``."""
        import bm25s

        tokens = bm25s.tokenize([query], stopwords="en", stemmer=self.stemmer, show_progress=False)
        k = min(LIMIT, len(self.ids))
        docs, _scores = self.retriever.retrieve(tokens, k=k, show_progress=False)
        return [self.ids[int(i)] for i in np.asarray(docs)[0]]


def build_bm25(bench: BenchStore) -> Bm25Peer:
    """Index the live beliefs of ``bench``'s principal with bm25s."""
    import bm25s
    import Stemmer

    with psycopg.connect(bench.memory.uri, autocommit=True) as conn:
        rows = conn.execute(
            f"SELECT id, statement FROM beliefs WHERE tenant_id = %s AND principal_id = %s"
            f" AND {_LIVE_SQL} ORDER BY id",
            (bench.tenant_id, bench.principal_id),
        ).fetchall()
    started = time.perf_counter()
    stemmer = Stemmer.Stemmer("english")
    tokens = bm25s.tokenize(
        [str(r[1]) for r in rows], stopwords="en", stemmer=stemmer, show_progress=False
    )
    retriever = bm25s.BM25()
    retriever.index(tokens, show_progress=False)
    return Bm25Peer(retriever, stemmer, [str(r[0]) for r in rows], time.perf_counter() - started)


def _mem0_embedder(embedder: Embedder) -> Any:
    """The store's embedder behind mem0's ``EmbeddingBase`` (uncached, as LangGraph's)."""
    from mem0.embeddings.base import EmbeddingBase

    inner = getattr(embedder, "inner", embedder)

    class RecallflowEmbedding(EmbeddingBase):  # type: ignore[misc]  # mem0 is untyped
        def embed(self, text: Any, memory_action: Any = None) -> list[float]:
            return [float(x) for x in inner.embed([str(text)])[0]]

    return RecallflowEmbedding()


def _mem0(uri: str, embedder: Embedder, history: str) -> Any:
    from mem0 import Memory as Mem0Memory

    memory = Mem0Memory.from_config(
        {
            "vector_store": {
                "provider": "pgvector",
                "config": {
                    "connection_string": uri,
                    "collection_name": _MEM0_COLLECTION,
                    "embedding_model_dims": embedder.dimension,
                },
            },
            "history_db_path": history,
        }
    )
    memory.embedding_model = _mem0_embedder(embedder)
    return memory


@dataclass
class Mem0Peer:
    """mem0 on the tier's database, as shipped and with an iterative HNSW scan."""

    default: Any
    iterative: Any
    load_s: float
    reused: bool
    history: tempfile.TemporaryDirectory[str]
    """Where mem0 keeps its SQLite history of changes, removed by :meth:`close`."""

    def search(self, memory: Any, principal_id: str, query: str) -> list[str]:
        """The belief ids of mem0's top :data:`LIMIT` live memories for ``query``."""
        found = memory.search(
            query, filters={"user_id": f"{TENANT}:{principal_id}", "live": True}, top_k=LIMIT
        )
        return [str(r["metadata"]["belief_id"]) for r in found["results"]]

    def close(self) -> None:
        """Close mem0's connections and remove its history file."""
        for memory in (self.default, self.iterative):
            memory.vector_store.connection_pool.close()
            memory.db.close()
        self.history.cleanup()


def open_mem0(bench: BenchStore) -> Mem0Peer:
    """Open (loading on first use) mem0's collection of ``bench``'s tier."""
    from mem0.utils.lemmatization import lemmatize_for_bm25

    uri = bench.memory.uri
    embedder = getattr(bench.memory.embedder, "inner", bench.memory.embedder)
    # mem0 always writes a SQLite history of changes; it lives as long as the peer.
    history_dir = tempfile.TemporaryDirectory(prefix="recallflow-mem0-")
    history = os.path.join(history_dir.name, "history.db")
    default = _mem0(uri, embedder, history)
    iterative_uri = make_conninfo(uri, options="-c hnsw.iterative_scan=relaxed_order")
    iterative = _mem0(iterative_uri, embedder, history)
    with psycopg.connect(uri, autocommit=True) as conn:
        done = conn.execute(
            "SELECT value FROM store_settings WHERE key = %s", (_MEM0_MARKER,)
        ).fetchone()
        if done is not None:
            return Mem0Peer(default, iterative, float(done[0]), reused=True, history=history_dir)
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(_MEM0_COLLECTION)))
        default.vector_store.create_col()
        started = time.perf_counter()
        # Bulk-load practice, as for the other stores: drop mem0's indexes, load, rebuild.
        indexes = conn.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s"
            " AND indexname NOT LIKE '%%pkey'",
            (_MEM0_COLLECTION,),
        ).fetchall()
        for name, _ in indexes:
            conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(str(name))))
        cursor = conn.cursor(name="mem0_load")
        now = "2025-06-01T00:00:00+00:00"
        with conn.transaction():
            cursor.execute(
                f"SELECT principal_id, id, statement, ({_LIVE_SQL}) FROM beliefs"
                " ORDER BY principal_id, id"
            )
            while rows := cursor.fetchmany(_PUT_BATCH):
                texts = [str(r[2]) for r in rows]
                vectors = embedder.embed(texts)
                default.vector_store.insert(
                    vectors=[v.tolist() for v in vectors],
                    ids=[str(uuid.uuid5(uuid.NAMESPACE_URL, f"{p}/{k}")) for p, k, _, _ in rows],
                    payloads=[
                        {
                            "data": text,
                            "hash": hashlib.md5(text.encode()).hexdigest(),
                            "user_id": f"{TENANT}:{principal}",
                            "created_at": now,
                            "updated_at": now,
                            "text_lemmatized": lemmatize_for_bm25(text),
                            "belief_id": str(key),
                            "live": bool(live),
                        }
                        for (principal, key, _, live), text in zip(rows, texts, strict=True)
                    ],
                )
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        for _, definition in indexes:
            conn.execute(str(definition).encode())
        load_s = time.perf_counter() - started
        conn.execute(sql.SQL("ANALYZE {}").format(sql.Identifier(_MEM0_COLLECTION)))
        conn.execute(
            "INSERT INTO store_settings (key, value) VALUES (%s, %s)",
            (_MEM0_MARKER, f"{load_s:.3f}"),
        )
    return Mem0Peer(default, iterative, load_s, reused=False, history=history_dir)


def recall_at_k(found: Sequence[str], relevant: Sequence[str], k: int = LIMIT) -> float:
    """|top-k ∩ relevant| / min(k, |relevant|): 1.0 when the top k are as good as possible."""
    if not relevant:
        return 1.0
    return len(set(found[:k]) & set(relevant)) / min(k, len(relevant))
