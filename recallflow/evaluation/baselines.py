"""Baselines measured in the same run on the same documents.

* ``bm25``: ``bm25s`` (k1 = 1.5, b = 0.75) with English stopwords and the Snowball
  English stemmer from ``PyStemmer``.
* ``dense``: cosine similarity over the vectors of recallflow's default embedder
  (shared with ingestion through :class:`~recallflow.evaluation.vectors.VectorCache`).
* ``bm25+dense RRF``: the two full rankings fused by reciprocal rank
  (:data:`~recallflow.evaluation.metrics.RRF_K`).

Every baseline ranks *every* document of the group (ties broken by document order), so
MRR is over the full ranking. Latency is per question and, for the ones that use
vectors, includes embedding the question alone (as recallflow's recall must).
The LangGraph ``PostgresStore`` peer lives in :mod:`recallflow.evaluation.peers`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from recallflow.evaluation.datasets import Case, Group
from recallflow.evaluation.metrics import rrf_fuse
from recallflow.evaluation.vectors import VectorCache

BM25_K1 = 1.5
BM25_B = 0.75


class Ranking(Protocol):
    """A system's answer to one case: document ids best first, and the time it took."""

    ids: Sequence[str]
    ms: float


class Ranked:
    """A plain :class:`Ranking`."""

    __slots__ = ("ids", "ms", "returned")

    def __init__(self, ids: Sequence[str], ms: float) -> None:
        self.ids = ids
        self.ms = ms
        self.returned = len(ids)


class GroupRetriever(Protocol):
    """A baseline built over one group's documents."""

    name: str

    def rank(self, case: Case) -> Ranked:
        """Rank the group's documents for ``case``."""
        ...


class BM25Retriever:
    """bm25s over one group; English stopwords, Snowball stemmer."""

    name = "BM25"

    def __init__(self, group: Group) -> None:
        import bm25s
        import Stemmer

        self._bm25s: Any = bm25s
        self._stemmer: Any = Stemmer.Stemmer("english")
        self._ids = [d.id for d in group.documents]
        tokens = bm25s.tokenize(
            [d.text for d in group.documents],
            stopwords="en",
            stemmer=self._stemmer,
            show_progress=False,
        )
        self._index: Any = bm25s.BM25(k1=BM25_K1, b=BM25_B)
        self._index.index(tokens, show_progress=False)

    def ranking(self, query: str) -> list[str]:
        """Every document id, best BM25 score first (ties by document order)."""
        tokens = self._bm25s.tokenize(
            [query],
            stopwords="en",
            stemmer=self._stemmer,
            return_ids=False,
            show_progress=False,
        )[0]
        scores = np.asarray(self._index.get_scores(tokens), dtype=np.float64)
        order = np.argsort(-scores, kind="stable")
        return [self._ids[i] for i in order]

    def rank(self, case: Case) -> Ranked:
        started = time.perf_counter()
        ids = self.ranking(case.query)
        return Ranked(ids, (time.perf_counter() - started) * 1000.0)


class DenseRetriever:
    """Exact cosine similarity over the group's precomputed unit vectors."""

    name = "dense"

    def __init__(self, group: Group, vectors: VectorCache) -> None:
        self._ids = [d.id for d in group.documents]
        self._matrix = vectors.matrix([d.text for d in group.documents])
        self._vectors = vectors

    def ranking(self, query: str) -> tuple[list[str], float]:
        """Every document id, most similar first, and the query-embedding ms."""
        vector, embed_ms = self._vectors.embed_query(query)
        scores = self._matrix @ vector
        order = np.argsort(-scores, kind="stable")
        return [self._ids[i] for i in order], embed_ms

    def rank(self, case: Case) -> Ranked:
        started = time.perf_counter()
        ids, embed_ms = self.ranking(case.query)
        return Ranked(ids, (time.perf_counter() - started) * 1000.0 + embed_ms)


class RRFRetriever:
    """BM25 and dense full rankings fused by reciprocal rank (k = ``RRF_K``)."""

    name = "BM25+dense RRF"

    def __init__(self, bm25: BM25Retriever, dense: DenseRetriever) -> None:
        self._bm25 = bm25
        self._dense = dense

    def rank(self, case: Case) -> Ranked:
        started = time.perf_counter()
        lexical = self._bm25.ranking(case.query)
        semantic, embed_ms = self._dense.ranking(case.query)
        ids = rrf_fuse([lexical, semantic])
        return Ranked(ids, (time.perf_counter() - started) * 1000.0 + embed_ms)


def build_baselines(group: Group, vectors: VectorCache) -> list[GroupRetriever]:
    """The three in-process baselines over ``group``."""
    bm25 = BM25Retriever(group)
    dense = DenseRetriever(group, vectors)
    return [bm25, dense, RRFRetriever(bm25, dense)]
