"""The text form of a query vector, as the recall's statements send it (``'[x,y,...]'``,
each component to seven significant digits, cast to ``vector`` by the statement).

Formatting 384 components costs 0.2-0.4 ms of Python, holding the interpreter the
concurrent arms need, and a recall sent the same vectors twice (the semantic arm and the
relevance evidence), while the same query texts, and so the same vectors, come back
turn after turn. The text is kept for the most recent vectors, keyed by their bytes: the
same vector always gives the same text, so nothing a recall returns depends on it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

#: Query vectors whose text is kept (a few kB each).
_KEPT = 256


@lru_cache(maxsize=_KEPT)
def _text(dtype: str, raw: bytes) -> str:
    values = np.frombuffer(raw, dtype=np.dtype(dtype))
    return "[" + ",".join(f"{x:.7g}" for x in values.tolist()) + "]"


def vector_text(vector: npt.NDArray[np.floating]) -> str:
    """``vector`` as a pgvector literal."""
    flat = np.ascontiguousarray(vector)
    return _text(flat.dtype.str, flat.tobytes())
