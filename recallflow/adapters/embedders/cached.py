"""Query vectors remembered across recalls.

An agent's working state changes little from one turn to the next, so the same query
texts come back turn after turn, and a model embedder is the most expensive step of a
recall (MiniLM: several milliseconds per call). :class:`CachedQueryEmbedder` keeps the
vectors of the most recent query texts, keyed by (embedder, text): the same text always
gives the same vector, so a remembered one is exactly what the model would return.
Only the recall path uses it; bulk ingestion embeds with the embedder itself.

A recall reads the cache as its principal
(:meth:`~recallflow.adapters.ownership.OwnedCache.owned_by`): each principal's texts are
its own entries, so whether a text was asked before — which a remembered vector answers in
microseconds rather than the model's milliseconds — is never told by another principal's
asking, and a principal's erasure drops its texts (:meth:`CachedQueryEmbedder.forget`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from recallflow.adapters.ownership import OwnedCache
from recallflow.ports import Embedder, query_embedding

#: Query texts whose vectors are kept (384 floats each: about 1.6 KB).
QUERY_CACHE_SIZE = 4096

_Key = tuple[str, str, str, str]


class _Vectors:
    """The remembered vectors every view of one cache shares, least recently used first."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self.entries: OrderedDict[_Key, npt.NDArray[np.float32]] = OrderedDict()
        self.lock = threading.Lock()


class CachedQueryEmbedder(OwnedCache):
    """``inner``, with the vectors of the last :data:`QUERY_CACHE_SIZE` texts kept."""

    def __init__(self, inner: Embedder, size: int = QUERY_CACHE_SIZE) -> None:
        self.inner = inner
        self._store = _Vectors(size)

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def forget(self, tenant_id: str, principal_id: str) -> int:
        """Drop every text the principal asked (its erasure); returns how many."""
        store = self._store
        with store.lock:
            mine = [k for k in store.entries if (k[0], k[1]) == (tenant_id, principal_id)]
            for key in mine:
                del store.entries[key]
        return len(mine)

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
        tenant, principal = self._owner
        keys = [(tenant, principal, name, t) for t in texts]
        found: dict[_Key, npt.NDArray[np.float32]] = {}
        store = self._store
        with store.lock:
            for key in keys:
                vector = store.entries.get(key)
                if vector is not None:
                    store.entries.move_to_end(key)
                    found[key] = vector
        missing = [k for k in dict.fromkeys(keys) if k not in found]
        if missing:
            fresh = model([k[3] for k in missing])
            with store.lock:
                for key, vector in zip(missing, fresh, strict=True):
                    vector = np.array(vector, dtype=np.float32)
                    vector.setflags(write=False)
                    found[key] = vector
                    store.entries[key] = vector
                while len(store.entries) > store.size:
                    store.entries.popitem(last=False)
        if not keys:
            return np.zeros((0, self.inner.dimension), dtype=np.float32)
        return np.stack([found[k] for k in keys])

    def __repr__(self) -> str:
        return f"CachedQueryEmbedder({self.inner!r})"
