"""The LangGraph ``PostgresStore`` peer on the same embedded server: what many agent
builders use today for long-term memory.

Every group is written into one store (namespace ``("eval", <group key>)``) in its own
database on the same server, with the same vectors as recallflow (the ``embed``
callable reads the shared :class:`~recallflow.evaluation.vectors.VectorCache`), and an
HNSW index (m = 16, ef_construction = 64, cosine). It is searched twice:

* ``default``: the store as it ships (``hnsw.ef_search = 40``). Its namespace predicate
  is applied after the global HNSW scan, so a search can return fewer than ``limit``
  rows; the report shows how many it returned on average.
* ``relaxed_order``: the same with ``hnsw.iterative_scan = relaxed_order`` on the
  connection, which lets pgvector keep scanning until the limit is filled. **This is the
  row the report headlines**, since it is the configuration a careful user would run.
* ``keys in query``: ``relaxed_order`` with the structured keys recallflow's query former
  derives from the same question (names, identifiers) folded into the query text, so the
  store gets every input recallflow's arms get; its only structured channel, ``filter``,
  matches exactly and would drop most evidence.

Each search asks for ``limit`` = 10 items (the usual call), so MRR is MRR@10 here.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence
from typing import Any

from psycopg.conninfo import make_conninfo

from recallflow.adapters.postgres.bootstrap import scratch_database
from recallflow.core.query_forming import DeterministicQueryFormer
from recallflow.evaluation.baselines import Ranked
from recallflow.evaluation.datasets import Group
from recallflow.evaluation.progress import iterate
from recallflow.evaluation.vectors import VectorCache
from recallflow.models.request import WorkingState

PEER_DATABASE = "recallflow_eval_peers"
PEER_LIMIT = 10
RELAXED = "-c hnsw.iterative_scan=relaxed_order"
_NAMESPACE = "eval"


def peer_available() -> str | None:
    """None when LangGraph's PostgresStore imports, else why not."""
    try:
        from langgraph.store.postgres import PostgresStore  # noqa: F401
    except ImportError as exc:
        return f"langgraph-checkpoint-postgres is not installed ({exc})"
    return None


@contextlib.contextmanager
def peer_database(admin_uri: str) -> Iterator[str]:
    """A fresh database on the server of ``admin_uri`` for the peer; dropped afterwards."""
    with scratch_database(admin_uri, PEER_DATABASE) as uri:
        yield uri


def _index_config(vectors: VectorCache) -> dict[str, Any]:
    return {
        "dims": vectors.embedder.dimension,
        "embed": vectors.lookup,
        "fields": ["text"],
        "distance_type": "cosine",
        "ann_index_config": {"kind": "hnsw", "m": 16, "ef_construction": 64},
    }


def load_peer(uri: str, groups: Sequence[Group], vectors: VectorCache, *, progress: bool) -> float:
    """Write every group's documents into the peer store; returns the seconds it took."""
    from langgraph.store.base import PutOp
    from langgraph.store.postgres import PostgresStore

    started = time.perf_counter()
    with PostgresStore.from_conn_string(uri, index=_index_config(vectors)) as store:  # type: ignore[arg-type]
        store.setup()
        for group in iterate(groups, desc="langgraph: load", unit="group", enabled=progress):
            ops = [
                PutOp((_NAMESPACE, group.key), doc.id, {"text": doc.text})
                for doc in group.documents
            ]
            for start in range(0, len(ops), 500):
                store.batch(ops[start : start + 500])
    return time.perf_counter() - started


def query_with_keys(question: str) -> str:
    """``question`` followed by the structured keys recallflow's query former derives
    from it (what its structured and trigram arms search with)."""
    queries = DeterministicQueryFormer().form(WorkingState(goal=question))
    keys = [k for q in queries if q.kind == "structured" for k in q.keys]
    return " ".join([question, *keys])


def search_peer(
    uri: str,
    groups: Sequence[Group],
    vectors: VectorCache,
    *,
    relaxed: bool,
    progress: bool,
    keys: bool = False,
) -> dict[str, Ranked]:
    """Search every case of ``groups``; case id → ranking (latency includes query embedding)."""
    from langgraph.store.postgres import PostgresStore

    conninfo = make_conninfo(uri, options=RELAXED) if relaxed else uri
    mode = ("relaxed_order" if relaxed else "default") + (", keys" if keys else "")
    out: dict[str, Ranked] = {}
    with PostgresStore.from_conn_string(conninfo, index=_index_config(vectors)) as store:  # type: ignore[arg-type]
        cases = [(g, c) for g in groups for c in g.cases]
        for group, case in iterate(cases, desc=f"langgraph: {mode}", unit="q", enabled=progress):
            query = query_with_keys(case.query) if keys else case.query
            _, embed_ms = vectors.embed_query(query)
            started = time.perf_counter()
            items = store.search((_NAMESPACE, group.key), query=query, limit=PEER_LIMIT)
            ms = (time.perf_counter() - started) * 1000.0 + embed_ms
            out[case.id] = Ranked([item.key for item in items], ms)
    return out
