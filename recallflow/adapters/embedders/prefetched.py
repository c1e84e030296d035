"""One recall's query vectors, embedded from the moment the recall starts.

A model embedder is the longest step of a recall whose query is not cached (MiniLM:
about 3 ms), and the semantic arm waits for it. Started where the DAG asks for the
vectors (``query_vectors``), it began only after the store's liveness probe (a round
trip) and the DAG's first nodes, about 0.6 ms into a recall at 10k beliefs.
:class:`PrefetchedQueryVectors` starts it on another thread as the recall starts, so
the model runs while they do, and hands the DAG the vectors when it asks for those very
texts; any other call is the embedder's, as usual. The vectors are computed by the very
function the DAG would have run (its ``query_vectors`` node, handed in as ``embed``), so
they are the same bits.

:class:`FormedQueries` hands the DAG the queries the recall formed to know those texts,
so the query former is asked once per recall, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future

import numpy as np
import numpy.typing as npt

from recallflow.models.request import WorkingState
from recallflow.models.result import RecallQuery
from recallflow.ports import Embedder, QueryFormer

__all__ = ["FormedQueries", "PrefetchedQueryVectors", "QueryEmbedding"]

#: How a recall embeds its query texts with an embedder (the ``query_vectors`` node).
QueryEmbedding = Callable[[tuple[str, ...], Embedder], npt.NDArray[np.float32]]


class PrefetchedQueryVectors:
    """``inner``, with the query vectors of ``texts`` being embedded by ``embed`` on
    ``executor``.

    When the DAG asks before the executor has started the work (its threads busy with
    other recalls' reads), the work is taken back and done on the asking thread, so a
    busy executor never makes a recall wait longer than embedding in place would.
    """

    def __init__(
        self, inner: Embedder, executor: Executor, texts: Sequence[str], embed: QueryEmbedding
    ) -> None:
        self.inner = inner
        self._texts = tuple(texts)
        self._embed = embed
        self._vectors: Future[npt.NDArray[np.float32]] = executor.submit(embed, self._texts, inner)

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Passages: the embedder's own (nothing is prefetched for them)."""
        return self.inner.embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """The prefetched vectors (or the embedder's error) when ``texts`` are the texts
        prefetched, else the embedder's answer."""
        if tuple(texts) != self._texts or self._vectors.cancel():
            return self._embed(tuple(texts), self.inner)
        return self._vectors.result()

    def __repr__(self) -> str:
        return f"PrefetchedQueryVectors({self.inner!r})"


class FormedQueries:
    """``inner``, answering for ``state`` with the ``queries`` already formed from it."""

    def __init__(
        self, inner: QueryFormer, state: WorkingState, queries: tuple[RecallQuery, ...]
    ) -> None:
        self.inner = inner
        self._state = state
        self._queries = queries

    def form(self, state: WorkingState) -> tuple[RecallQuery, ...]:
        """The queries formed already when ``state`` is the recall's, else the former's."""
        if state is self._state:
            return self._queries
        return self.inner.form(state)

    def __repr__(self) -> str:
        return f"FormedQueries({self.inner!r})"
