"""Calibrating an embedder: embed the deterministic unrelated corpus as beliefs are
embedded, and derive the statistics the floor and the ranking read (see "Relevance
floor" in docs/architecture.md). The pure part is :mod:`recallflow.core.calibration`."""

from __future__ import annotations

import numpy as np

from recallflow.core.calibration import (
    Calibration,
    calibration_from_vectors,
    unrelated_corpus,
    vector_problem,
)
from recallflow.errors import UnsupportedEmbedderError
from recallflow.ports import Embedder, answer


def calibrate(embedder: Embedder) -> Calibration:
    """``embedder``'s calibration on the current unrelated corpus (one embedding batch).

    This is the first time a store sees the embedder's vectors, so they are checked
    against the port's contract here — as passages, and as queries when the embedder
    embeds queries apart — and an embedder that breaks it is refused by name rather
    than trusted: vectors that are not unit length would shift every standing the floor
    reads, silently. A model that embeds queries apart embeds the whole corpus both ways:
    its unrelated-pair statistics are read query against passage, the cosines a recall
    compares (:func:`~recallflow.core.calibration.pair_statistics`).

    Raises:
        UnsupportedEmbedderError: the vectors are of the wrong shape, not finite or not
            unit length.
    """
    texts = list(unrelated_corpus().texts)
    what = "the unrelated corpus"
    vectors = answer(embedder, "embed()", embedder.embed, texts, what)
    problem = vector_problem(vectors, len(texts), embedder.dimension)
    as_queries = getattr(embedder, "embed_queries", None)
    queries = None
    if problem is None and callable(as_queries):
        queries = answer(embedder, "embed_queries()", as_queries, texts, what)
        problem = vector_problem(queries, len(texts), embedder.dimension, "embed_queries()")
    if problem is not None:
        raise UnsupportedEmbedderError(embedder.name, problem)
    return calibration_from_vectors(
        embedder.name,
        np.asarray(vectors, dtype=np.float32),
        None if queries is None else np.asarray(queries, dtype=np.float32),
    )
