"""Calibrating an embedder: embed the deterministic unrelated corpus as beliefs are
embedded, and derive the statistics the floor and the ranking read (see "Relevance
floor" in docs/architecture.md). The pure part is :mod:`recallflow.core.calibration`."""

from __future__ import annotations

from recallflow.core.calibration import Calibration, calibration_from_vectors, unrelated_corpus
from recallflow.ports import Embedder


def calibrate(embedder: Embedder) -> Calibration:
    """``embedder``'s calibration on the current unrelated corpus (one embedding batch)."""
    corpus = unrelated_corpus()
    return calibration_from_vectors(embedder.name, embedder.embed(list(corpus.texts)))
