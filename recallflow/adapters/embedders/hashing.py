"""A deterministic feature-hashing embedder: the zero-dependency fallback behind the Embedder port.

recallflow never reaches the network at run time, so a model embedder must ship inside a
PyPI package; the feature-hashing embedder, which needs nothing but numpy, is the fallback
(see docs/embedders.md for the measured comparison).

Features of a text (needs nothing beyond numpy):

* lowercase word unigrams (``\\w+`` runs, Unicode-aware), weight 1.0 each;
* character trigrams of each word padded with ``#`` (``"cat"`` -> ``#ca``, ``cat``, ``at#``),
  weight 0.5 each, so inflections and typos still share buckets.

Each feature is hashed with keyed BLAKE2b (never Python's ``hash()``, which is salted per
process) to a bucket in ``[0, dimension)`` and a sign; the signed counts are L2-normalised.
The output is byte-identical across processes, platforms and Python versions.

A text with no word characters (``""``, ``"!!!"``) has no features. It maps to the fixed
unit vector ``[1/sqrt(d)] * d`` rather than to zeros, so cosine similarity stays defined;
every such text gets that same vector.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

__all__ = ["HashingEmbedder"]

_VERSION = "v1"
_WORD = re.compile(r"\w+")
_KEY = b"recallflow-hashing-v1"
_UNIGRAM_WEIGHT = 1.0
_TRIGRAM_WEIGHT = 0.5


@lru_cache(maxsize=1 << 16)
def _feature_hash(feature: str) -> int:
    """A stable 64-bit hash of one feature string (keyed BLAKE2b, 8-byte digest)."""
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8, key=_KEY).digest()
    return int.from_bytes(digest, "little")


def _features(text: str) -> list[tuple[str, float]]:
    """The weighted features of ``text``, in a deterministic order."""
    out: list[tuple[str, float]] = []
    for word in _WORD.findall(text.lower()):
        out.append(("w:" + word, _UNIGRAM_WEIGHT))
        padded = f"#{word}#"
        for i in range(len(padded) - 2):
            out.append(("c:" + padded[i : i + 3], _TRIGRAM_WEIGHT))
    return out


class HashingEmbedder:
    """Signed feature hashing of word unigrams and character trigrams, L2-normalised.

    Args:
        dimension: Output width; the name records it (``hashing-v1-384``).
    """

    def __init__(self, dimension: int = 384) -> None:
        if dimension < 1:
            raise ValueError(f"dimension must be at least 1, got {dimension}")
        self._dimension = dimension
        self._empty = np.full(dimension, 1.0 / math.sqrt(dimension), dtype=np.float32)

    @property
    def name(self) -> str:
        """Stable id recorded with a store; changes whenever the vectors would."""
        return f"hashing-{_VERSION}-{self._dimension}"

    @property
    def dimension(self) -> int:
        return self._dimension

    def forget_texts(self) -> None:
        """Drop the features remembered of every text embedded (words and trigrams of
        statements and queries): an erasure calls it, so no forgotten word stays in the
        process (the hashes are computed again on the next texts)."""
        _feature_hash.cache_clear()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed ``texts``: shape ``(len(texts), dimension)``, rows of unit length."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of strings, not a single str")
        out = np.empty((len(texts), self._dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = self._embed_one(text)
        return out

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Same as :meth:`embed`: this embedder is symmetric (no query/passage prefixes)."""
        return self.embed(texts)

    def _embed_one(self, text: str) -> npt.NDArray[np.float32]:
        vec = np.zeros(self._dimension, dtype=np.float64)
        dim = self._dimension
        for feature, weight in _features(text):
            h = _feature_hash(feature)
            sign = -1.0 if h >> 63 else 1.0
            vec[h % dim] += sign * weight
        norm = float(np.sqrt(np.dot(vec, vec)))
        if norm == 0.0:  # no features, or (vanishingly rare) full cancellation
            return self._empty.copy()
        return (vec / norm).astype(np.float32)

    def __repr__(self) -> str:
        return f"HashingEmbedder(dimension={self._dimension})"
