"""The mem0 peer (package ``mem0ai``) on the same embedded server, fully offline.

mem0 is run the way its documentation describes for raw storage: ``add(...,
infer=False)`` stores each text as it is (no LLM call), ``search(query, filters=
{"user_id": ...}, top_k=...)`` ranks. Its vector store is ``pgvector`` in its own database
on the run's server; its embedder is replaced by one that reads the shared
:class:`~recallflow.evaluation.vectors.VectorCache`, so mem0 sees exactly the vectors
recallflow and the other peers see. Telemetry is off (``MEM0_TELEMETRY=False``) and the
OpenAI key is a dummy: mem0 builds its LLM client at construction but never calls it
with ``infer=False``. Its history goes to a SQLite file in a temporary directory.

mem0 2.x ranks semantic candidates (top ``max(4 · top_k, 60)``) with a keyword (BM25)
boost from the vector store's full-text search and an entity boost; without its ``nlp``
extra (spaCy) the keyword search runs on the raw text. Each group is one ``user_id``; a
document's id travels in its metadata. ``top_k`` = :data:`MEM0_LIMIT`, so MRR is MRR@10.
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from recallflow.evaluation.baselines import Ranked
from recallflow.evaluation.datasets import Group
from recallflow.evaluation.progress import iterate
from recallflow.evaluation.vectors import VectorCache

MEM0_LIMIT = 10
_COLLECTION = "recallflow_eval_mem0"


def mem0_available() -> str | None:
    """None when mem0 imports, else why not."""
    _offline_environment()
    try:
        import mem0  # noqa: F401
    except ImportError as exc:
        return f"mem0ai is not installed ({exc})"
    return None


def _offline_environment() -> None:
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ.setdefault("OPENAI_API_KEY", "sk-offline-never-used")
    # Without the optional spaCy models mem0 warns on every search; the report says so once.
    logging.getLogger("mem0").setLevel(logging.ERROR)


def _memory(uri: str, vectors: VectorCache, history: Path) -> Any:
    _offline_environment()
    from mem0 import Memory as Mem0Memory
    from mem0.embeddings.base import EmbeddingBase

    class CachedEmbedding(EmbeddingBase):  # type: ignore[misc]  # mem0 is untyped
        """The run's vectors: documents from the cache, queries embedded once each."""

        def __init__(self) -> None:
            self.config = None

        def embed(self, text: str, memory_action: str | None = None) -> list[float]:
            if memory_action == "search":
                vector, _ = vectors.embed_query(text)
                return [float(x) for x in vector]
            return vectors.lookup([text])[0]

    config = {
        "vector_store": {
            "provider": "pgvector",
            "config": {
                "connection_string": uri,
                "collection_name": _COLLECTION,
                "embedding_model_dims": vectors.embedder.dimension,
            },
        },
        "history_db_path": str(history),
    }
    memory = Mem0Memory.from_config(config)
    memory.embedding_model = CachedEmbedding()
    return memory


def rank_mem0(
    uri: str, groups: Sequence[Group], vectors: VectorCache, *, progress: bool
) -> tuple[dict[str, Ranked], float]:
    """Load every group into mem0 and search every case: case id → ranking, and the
    seconds loading took (latency includes embedding the question, as recallflow's does)."""
    out: dict[str, Ranked] = {}
    with tempfile.TemporaryDirectory(prefix="recallflow-mem0-") as tmp:
        memory = _memory(uri, vectors, Path(tmp) / "history.db")
        started = time.perf_counter()
        for group in iterate(groups, desc="mem0: load", unit="group", enabled=progress):
            for doc in group.documents:
                memory.add(
                    [{"role": "user", "content": doc.text}],
                    user_id=group.key,
                    metadata={"doc_id": doc.id},
                    infer=False,
                )
        load_s = time.perf_counter() - started
        cases = [(g, c) for g in groups for c in g.cases]
        for group, case in iterate(cases, desc="mem0: search", unit="q", enabled=progress):
            _, embed_ms = vectors.embed_query(case.query)
            begun = time.perf_counter()
            found = memory.search(case.query, filters={"user_id": group.key}, top_k=MEM0_LIMIT)
            ms = (time.perf_counter() - begun) * 1000.0 + embed_ms
            ids = [str((r.get("metadata") or {}).get("doc_id")) for r in found["results"]]
            out[case.id] = Ranked(ids, ms)
        closer = getattr(memory.vector_store, "close", None)
        if callable(closer):
            closer()
    return out, load_s
