"""Progress bars for long work, over ``tqdm``: shown only on a terminal (stderr), never in
a pipe, a log file or a test.

``tqdm`` ships no type information; it is imported dynamically here so the rest of the
harness stays strictly typed without a stub package.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


def bar(*, total: int, desc: str, unit: str, enabled: bool = True) -> Any:
    """A ``tqdm`` bar (a context manager with ``update(n)``)."""
    tqdm: Any = importlib.import_module("tqdm").tqdm
    return tqdm(total=total, desc=desc, unit=unit, disable=not (enabled and sys.stderr.isatty()))


def iterate(items: Iterable[T], *, desc: str, unit: str, enabled: bool = True) -> Iterator[T]:
    """Iterate ``items`` with a ``tqdm`` bar."""
    tqdm: Any = importlib.import_module("tqdm").tqdm
    yield from tqdm(items, desc=desc, unit=unit, disable=not (enabled and sys.stderr.isatty()))
