"""The text form of a query vector, as the recall's statements send it (``'[x,y,...]'``,
each component to seven significant digits, cast to ``vector`` by the statement), and the
check every query vector passes before it is sent.

Formatting 384 components costs 0.2-0.4 ms of Python, holding the interpreter the
concurrent arms need, and a recall sent the same vectors twice (the semantic arm and the
relevance evidence), while the same query texts, and so the same vectors, come back
turn after turn. The text is kept for the most recent vectors, keyed by their bytes: the
same vector always gives the same text, so nothing a recall returns depends on it.

A query vector must be unit length, as the Embedder port promises. PostgreSQL refuses a
vector holding NaN, but takes one of length 0, and every cosine against it is NaN, which
PostgreSQL orders above every number: the semantic arm returned the first ids it read,
each with a score of NaN, and the evidence gave every candidate NaN cosines. A vector
that breaks the promise is refused here instead, by the arm or the evidence that sends
it, which the recall then records as degraded (the other arms answer as usual). The
check is made once per distinct vector, with its text.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from recallflow.core.calibration import off_unit, row_lengths
from recallflow.errors import InvalidInputError

#: Query vectors whose text is kept (a few kB each).
_KEPT = 256


class _NotUnit(ValueError):
    """A vector whose length is not 1 (NaN when a component is not finite)."""

    def __init__(self, length: float) -> None:
        self.length = length
        super().__init__(length)


@lru_cache(maxsize=_KEPT)
def _text(raw: bytes) -> str:
    # Widened to float64 before it is keyed: a float32 component and its float64 value
    # print the same seven digits, so the text does not depend on the embedder's dtype.
    values = np.frombuffer(raw, dtype=np.float64)
    lengths = row_lengths(values[None])
    if off_unit(lengths)[0]:  # a value that is not finite fails it too (length NaN)
        raise _NotUnit(float(lengths[0]))
    return "[" + ",".join(f"{x:.7g}" for x in values.tolist()) + "]"


def forget_vector_texts() -> None:
    """Drop the pgvector literals remembered of recent query vectors (an erasure's: a
    vector is of its text)."""
    _text.cache_clear()


def query_vector_texts(
    vectors: npt.NDArray[np.floating] | list[npt.NDArray[np.floating]],
) -> list[str]:
    """Each of ``vectors`` as a pgvector literal.

    Raises:
        InvalidInputError: a vector is not unit length or holds a value that is not a
            finite number (field ``query_vectors``, the item its index).
    """
    texts = []
    for index, vector in enumerate(vectors):
        try:
            flat = np.ascontiguousarray(vector, dtype=np.float64)
            texts.append(_text(flat.tobytes()))
        except (_NotUnit, TypeError, ValueError) as exc:
            if not isinstance(exc, _NotUnit):
                problem = "holds values that are not numbers"
            elif np.isfinite(exc.length):
                problem = f"has length {exc.length:.3g}, not 1"
            else:
                problem = "holds values that are not finite numbers"
            raise InvalidInputError(
                f"{problem}: the embedder's query vectors must be unit length, as the Embedder"
                " port requires",
                field="query_vectors",
                item_index=index,
            ) from None
    return texts
