"""Calibrating an embedder: embed the deterministic unrelated corpus as beliefs are
embedded, and derive the statistics the floor and the ranking read (see "Relevance
floor" in docs/architecture.md). The pure part is :mod:`recallflow.core.calibration`."""

from __future__ import annotations

import numpy as np

from recallflow.core.calibration import (
    SAME_MODEL_COSINE,
    Calibration,
    calibration_from_vectors,
    least_cosine,
    same_model_rows,
    shape_problem,
    unrelated_corpus,
    vector_problem,
)
from recallflow.errors import EmbedderMismatchError, UnsupportedEmbedderError
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


def check_same_model(embedder: Embedder, stored: Calibration) -> None:
    """Refuse ``embedder`` when it is not the model that made ``stored`` (and so the
    store's vectors), though it has its name: a few calibration sentences are embedded
    again and compared with the vectors stored for them. A store knows an embedder by its
    name alone, and a model swapped under the same name would otherwise be compared with
    the old model's vectors at every recall, silently.

    Raises:
        EmbedderMismatchError: a sentence's vector now is further than
            :data:`~recallflow.core.calibration.SAME_MODEL_COSINE` from the stored one.
        UnsupportedEmbedderError: the model raised, or answered an array of the wrong
            shape (rows that are not unit length are refused where they are used).
    """
    rows = same_model_rows()
    corpus = unrelated_corpus().texts
    texts = [corpus[row] for row in rows]
    what = "the calibration sentences the store holds vectors of"
    vectors = answer(embedder, "embed()", embedder.embed, texts, what)
    problem = shape_problem(vectors, len(texts), embedder.dimension)
    if problem is not None:
        raise UnsupportedEmbedderError(embedder.name, problem)
    cosine = least_cosine(np.asarray(vectors, dtype=np.float32), stored, rows)
    if cosine is not None and cosine < SAME_MODEL_COSINE:
        raise EmbedderMismatchError(
            stored_name=stored.ref.embedder,
            stored_dimension=embedder.dimension,
            name=embedder.name,
            dimension=embedder.dimension,
            cosine=cosine,
        )
