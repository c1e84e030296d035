"""Rounding many floats at once, pure, bit-identical to ``round(x, digits)``.

The trace records each score part and each relevance figure rounded to 6 decimals, and
each node's wall time to 4. ``round(x, 6)`` writes ``x`` as a correctly rounded decimal
string and reads it back, some thousands of instructions a value, and a recall rounds
about fifteen values per candidate (~750 at 100k). Here a whole stage's values go through
numpy in one pass: ``x · 10^d`` rounded to the nearest integer ``N``, then ``N / 10^d``.

Why that is ``round(x, d)`` exactly: ``N / 10^d`` is one correctly rounded IEEE division
of two exact numbers (``|N| < 2⁵³``, ``d ≤ 15``), so it is the double nearest the decimal
``N·10^-d``, which is what ``round`` reads back; and ``N`` is the integer nearest the
exact product ``x · 10^d`` whenever the computed product (off by at most half a unit in
its last place, under 10⁻⁷ for ``|x · 10^d| < 10⁹``) is not within :data:`_MARGIN` of a
half. The values near a half, large, infinite or not a number are given to ``round``
itself. The sign of a zero is kept, as ``round`` keeps it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: How near a half the scaled value may come before ``round`` decides (far above the
#: product's own error, under 10⁻⁷ for the magnitudes taken).
_MARGIN = 1e-6
#: Scaled values at least this large are given to ``round``.
_LARGE = 1e9


def round_all(values: Sequence[float], digits: int = 6) -> list[float]:
    """``[round(x, digits) for x in values]``, bit for bit (``values`` are floats;
    ``digits`` from 0 to 15)."""
    if not 0 <= digits <= 15:
        raise ValueError(f"round_all: digits must be 0 to 15, not {digits}")
    if not values:
        return []
    scale = float(10**digits)
    # A value too large to scale, infinite or not a number is given to ``round`` below:
    # numpy's warnings about it are not the caller's.
    with np.errstate(over="ignore", invalid="ignore"):
        # ``np.fromiter`` with the count: some 220 instructions a value against 290 for
        # ``np.array``, which first inspects the list for its shape and type (callgrind).
        scaled = np.fromiter(values, dtype=np.float64, count=len(values)) * scale
        nearest = np.rint(scaled)
        out: list[float] = (nearest / scale).tolist()
        near_half = np.abs(np.abs(scaled - nearest) - 0.5) <= _MARGIN
        unsafe = near_half | ~(np.abs(scaled) < _LARGE)
    if unsafe.any():
        for i in np.flatnonzero(unsafe).tolist():
            out[i] = round(float(values[i]), digits)
    return out
