"""Query vectors remembered across recalls.

An agent's working state changes little from one turn to the next, so the same query
texts come back turn after turn, and a model embedder is the most expensive step of a
recall (MiniLM: several milliseconds per call). :class:`CachedQueryEmbedder` keeps the
vectors of the most recent query texts, keyed by (embedder, text): the same text always
gives the same vector, so a remembered one is exactly what the model would return.
Only the recall path uses it; bulk ingestion embeds with the embedder itself.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from recallflow.ports import Embedder, query_embedding

#: Query texts whose vectors are kept (384 floats each: about 1.6 KB).
QUERY_CACHE_SIZE = 4096


class CachedQueryEmbedder:
    """``inner``, with the vectors of the last :data:`QUERY_CACHE_SIZE` texts kept."""

    def __init__(self, inner: Embedder, size: int = QUERY_CACHE_SIZE) -> None:
        self.inner = inner
        self._size = max(1, size)
        self._vectors: OrderedDict[tuple[str, str], npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """The vectors of ``texts``; only the ones not remembered reach the model (in one call)."""
        return self._cached(texts, "passage", self.inner.embed)

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """The vectors of ``texts`` embedded as search queries (the inner embedder's
        ``embed_queries`` when it has one: e5 prefixes queries and passages differently)."""
        return self._cached(texts, "query", query_embedding(self.inner))

    def _cached(
        self,
        texts: Sequence[str],
        role: str,
        model: Callable[[Sequence[str]], npt.NDArray[np.float32]],
    ) -> npt.NDArray[np.float32]:
        name = f"{self.inner.name}/{role}"
        keys = [(name, t) for t in texts]
        found: dict[tuple[str, str], npt.NDArray[np.float32]] = {}
        with self._lock:
            for key in keys:
                vector = self._vectors.get(key)
                if vector is not None:
                    self._vectors.move_to_end(key)
                    found[key] = vector
        missing = [k for k in dict.fromkeys(keys) if k not in found]
        if missing:
            fresh = model([t for _, t in missing])
            with self._lock:
                for key, vector in zip(missing, fresh, strict=True):
                    vector = np.array(vector, dtype=np.float32)
                    vector.setflags(write=False)
                    found[key] = vector
                    self._vectors[key] = vector
                while len(self._vectors) > self._size:
                    self._vectors.popitem(last=False)
        if not keys:
            return np.zeros((0, self.inner.dimension), dtype=np.float32)
        return np.stack([found[k] for k in keys])

    def __repr__(self) -> str:
        return f"CachedQueryEmbedder({self.inner!r})"
