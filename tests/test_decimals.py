"""The trace's 6-decimal figures, rounded many at once, are ``round(x, 6)`` bit for bit:
the scores and relevance a trace records do not move with how they are rounded."""

from __future__ import annotations

import math
import random
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recallflow.core.decimals import round_all


def _same(a: float, b: float) -> bool:
    """Equal as the trace's JSON would write them: the same number, the same zero's sign,
    or both not a number."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def _check(values: list[float], digits: int = 6) -> None:
    got = round_all(values, digits)
    assert len(got) == len(values)
    for x, y in zip(values, got, strict=True):
        want = round(x, digits)
        assert type(y) is float
        assert _same(y, want), f"{x!r} to {digits}: {y!r}, round gives {want!r}"


@given(
    st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=64),
    st.sampled_from([0, 4, 6, 15]),
)
def test_any_floats_round_as_round_does(values: list[float], digits: int) -> None:
    _check(values, digits)


def test_wall_times_round_to_four_decimals_as_round_does() -> None:
    rng = random.Random(11)
    values = [rng.expovariate(1.0) * 10 ** rng.randint(-3, 4) for _ in range(20_000)]
    values += [(i + 0.5) / 1e4 for i in range(-3000, 3000)]
    _check(values, 4)


def test_scores_and_halves_round_as_round_does() -> None:
    rng = random.Random(7)
    # What a recall rounds: parts and totals in [-2, 2], shares in [0, 1] ...
    values = [rng.uniform(-2.0, 2.0) for _ in range(20_000)]
    # ... six-decimal values and the exact halves between them, where rounding ties ...
    values += [i / 1e6 for i in range(-3000, 3000)]
    values += [(i + 0.5) / 1e6 for i in range(-3000, 3000)]
    values += [0.1234565, 0.0000005, 2.5e-7, -2.5e-7, 1e-7, -1e-7, 0.0, -0.0]
    # ... and magnitudes too large for the scaled value to hold its fraction.
    values += [1e3, 1e3 + 0.5e-6, 123456.1234565, 1e12, -1e300, 5e-324]
    _check(values)


def test_nothing_rounds_to_nothing() -> None:
    assert round_all([]) == []


def test_digits_past_what_a_double_holds_are_refused() -> None:
    with pytest.raises(ValueError, match="digits"):
        round_all([0.5], 16)


def test_values_too_large_to_scale_round_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = round_all([1e300, -1e300, math.inf, math.nan, 0.25])
    assert got[:3] == [1e300, -1e300, math.inf] and math.isnan(got[3]) and got[4] == 0.25
