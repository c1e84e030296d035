"""Progress on long jobs, over ``tqdm``: shown on a terminal, silent when stderr is not a
terminal (a pipe, a log file, a test) or when the command was given ``--quiet`` (which
also quiets the library's own bars: :func:`recallflow.adapters.progress.quiet`).

``tqdm`` ships no type information; it is imported dynamically, and only when a bar is
actually shown, so a quiet run never imports it.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from typing import Any, TextIO

from recallflow.adapters.progress import shows_progress


def shown(quiet: bool = False, stream: TextIO | None = None) -> bool:
    """Whether progress is shown on ``stream`` (stderr): on a terminal, unless ``quiet``
    (or within :func:`recallflow.adapters.progress.quiet`)."""
    target = sys.stderr if stream is None else stream
    return not quiet and shows_progress(target)


@contextlib.contextmanager
def bar(
    *, total: int, desc: str, unit: str, quiet: bool = False, stream: TextIO | None = None
) -> Iterator[Any]:
    """A ``tqdm`` bar on ``stream`` (stderr; ``update(n)``), or a no-op stand-in when not
    shown. A pytest session that captures stderr passes ``sys.__stderr__``, the terminal."""
    target = sys.stderr if stream is None else stream
    if not shown(quiet, target):
        yield _Silent()
        return
    from recallflow.adapters.progress import tqdm_bar

    with tqdm_bar(total=total, desc=desc, unit=unit, file=target, leave=False) as progress:
        yield progress


@contextlib.contextmanager
def spinner(desc: str, *, quiet: bool = False, interval_s: float = 0.2) -> Iterator[None]:
    """An elapsed-time display for one long step that has no count (a single transaction),
    ticking in a thread of its own that is stopped when the step ends."""
    if not shown(quiet):
        yield
        return
    from recallflow.adapters.progress import tqdm_bar

    done = threading.Event()
    with tqdm_bar(desc=desc, total=None, bar_format="{desc}: {elapsed}", file=sys.stderr) as t:

        def tick() -> None:
            while not done.wait(interval_s):
                t.refresh()

        ticker = threading.Thread(target=tick, name="recallflow-spinner", daemon=True)
        ticker.start()
        try:
            yield
        finally:
            done.set()
            ticker.join()


class _Silent:
    """What :func:`bar` yields when nothing is shown."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, s: str) -> None:
        pass
