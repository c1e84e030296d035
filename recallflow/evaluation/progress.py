"""Progress bars for long work, over ``tqdm``: shown only on a terminal (stderr), never in
a pipe, a log file or a test.

The bars come from :mod:`recallflow.adapters.progress`, which imports ``tqdm``
dynamically (it ships no type information) and stops its monitor thread when the last
bar closes.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from recallflow.adapters.progress import shows_progress, tqdm_bar, tqdm_iterate

T = TypeVar("T")


def bar(*, total: int, desc: str, unit: str, enabled: bool = True) -> Any:
    """A ``tqdm`` bar (a context manager with ``update(n)``)."""
    shown = enabled and shows_progress(sys.stderr)
    return tqdm_bar(total=total, desc=desc, unit=unit, disable=not shown)


def iterate(items: Iterable[T], *, desc: str, unit: str, enabled: bool = True) -> Iterator[T]:
    """Iterate ``items`` with a ``tqdm`` bar."""
    shown = enabled and shows_progress(sys.stderr)
    yield from tqdm_iterate(items, desc=desc, unit=unit, disable=not shown)
