"""Embed each text once and share the vectors: embedding is most of ``make eval``'s time.

The same :class:`VectorCache` feeds the dense baselines, the LangGraph peer and recallflow's
ingestion (``BeliefDraft.embedding``), so the 5,882 LoCoMo turns are embedded once.
Query vectors are embedded one question at a time and the time each took is kept, so a
baseline's latency can include embedding its query, as recallflow's recall does.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from recallflow.evaluation.progress import bar
from recallflow.ports import Embedder, query_embedding

Matrix = npt.NDArray[np.float32]


class VectorCache:
    """Text → unit vector, computed by ``embedder`` at most once per distinct text."""

    def __init__(self, embedder: Embedder, *, batch_size: int = 64) -> None:
        self.embedder = embedder
        self._batch_size = batch_size
        self._vectors: dict[str, npt.NDArray[np.float32]] = {}
        self._queries: dict[str, npt.NDArray[np.float32]] = {}
        self._query_ms: dict[str, float] = {}

    def embed_corpus(
        self, texts: Sequence[str], *, desc: str = "embed", progress: bool = True
    ) -> Matrix:
        """Vectors of ``texts`` (rows in order), embedding only the texts not seen yet."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        with bar(total=len(missing), desc=desc, unit="text", enabled=progress) as progress_bar:
            for start in range(0, len(missing), self._batch_size):
                chunk = missing[start : start + self._batch_size]
                for text, row in zip(chunk, self.embedder.embed(chunk), strict=True):
                    self._vectors[text] = np.asarray(row, dtype=np.float32)
                progress_bar.update(len(chunk))
        return self.matrix(texts)

    def embed_query(self, text: str) -> tuple[npt.NDArray[np.float32], float]:
        """``(vector, ms)``: the query's vector — embedded as a search query when the model
        tells queries from passages (e5), as recallflow's recall does — and how long
        embedding it alone took."""
        if text not in self._query_ms:
            as_queries = query_embedding(self.embedder)
            started = time.perf_counter()
            vector = np.asarray(as_queries([text])[0], dtype=np.float32)
            self._query_ms[text] = (time.perf_counter() - started) * 1000.0
            self._queries[text] = vector
        return self._queries[text], self._query_ms[text]

    def matrix(self, texts: Sequence[str]) -> Matrix:
        """Stack the cached vectors of ``texts``; every text must have been embedded."""
        if not texts:
            return np.zeros((0, self.embedder.dimension), dtype=np.float32)
        return np.stack([self._vectors[t] for t in texts]).astype(np.float32, copy=False)

    def lookup(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors as lists (embedding texts not seen yet): the LangGraph ``embed`` callable."""
        unseen = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if unseen:
            for text, row in zip(unseen, self.embedder.embed(unseen), strict=True):
                self._vectors[text] = np.asarray(row, dtype=np.float32)
        return [self._vectors[t].tolist() for t in texts]
