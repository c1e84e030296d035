"""Embedder calibrations in the store (migration 0011; see "Relevance floor" in
docs/architecture.md): read at open, written once when an embedder is first calibrated."""

from __future__ import annotations

from typing import Any

import numpy as np
import psycopg

from recallflow.core.calibration import Calibration, CalibrationRef, vectors_digest


def load_calibration(
    conn: psycopg.Connection[Any], embedder: str, corpus_version: str
) -> Calibration | None:
    """The stored calibration of ``embedder`` for ``corpus_version``, or None."""
    row = conn.execute(
        "SELECT dimension, pair_mean, pair_std, null_digest, null_vectors"
        " FROM embedder_calibrations WHERE embedder = %s AND corpus_version = %s",
        (embedder, corpus_version),
    ).fetchone()
    if row is None:
        return None
    dimension, mean, std, digest, blob = row
    vectors = np.frombuffer(bytes(blob), dtype=np.float32).reshape(-1, int(dimension)).copy()
    if vectors_digest(vectors) != digest:
        return None  # damaged: recomputed by the caller
    ref = CalibrationRef(
        embedder=embedder,
        corpus_version=corpus_version,
        pair_mean=float(mean),
        pair_std=float(std),
        null_digest=str(digest),
    )
    return Calibration(ref=ref, null_vectors=vectors)


def save_calibration(conn: psycopg.Connection[Any], calibration: Calibration) -> None:
    """Store ``calibration`` (a concurrent first writer wins; the rows are equal anyway)."""
    ref = calibration.ref
    vectors = np.ascontiguousarray(calibration.null_vectors, dtype=np.float32)
    conn.execute(
        "INSERT INTO embedder_calibrations (embedder, corpus_version, dimension, pair_mean,"
        " pair_std, null_digest, null_vectors) VALUES (%s, %s, %s, %s, %s, %s, %s)"
        " ON CONFLICT (embedder, corpus_version) DO NOTHING",
        (
            ref.embedder,
            ref.corpus_version,
            int(vectors.shape[1]),
            ref.pair_mean,
            ref.pair_std,
            ref.null_digest,
            vectors.tobytes(),
        ),
    )
