"""Progress bars on a terminal, over ``tqdm``, that leave no thread behind.

The first visible ``tqdm`` bar of a process starts tqdm's monitor thread, and the tqdm
release we depend on never stops it: it wakes every ten seconds until the interpreter
exits. A library call or a command that showed one bar would leave that thread running in
the host's process (a notebook, a server, a test session) long after the bar closed. Every
bar recallflow shows comes from here and stops the monitor once no bar of the process is
open any more; tqdm starts a new one for the next bar that needs it.

One rule decides whether any of them is drawn (:func:`shows_progress`): on a terminal
only, and never inside a :func:`quiet` block, which is how the commands' ``--quiet`` and
``--no-progress`` reach the bars the library draws itself (a large write's).

``tqdm`` ships no type information; it is imported dynamically, and only when a bar is
shown.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

_QUIET: contextvars.ContextVar[bool] = contextvars.ContextVar("recallflow_quiet", default=False)


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """No recallflow progress bar or spinner is drawn within the block (in its thread or
    asyncio task): neither a command's nor the library's own, such as a large
    ``add_many``'s."""
    token = _QUIET.set(True)
    try:
        yield
    finally:
        _QUIET.reset(token)


def shows_progress(stream: object) -> bool:
    """Whether a bar is drawn on ``stream``: a terminal (:func:`on_terminal`), outside a
    :func:`quiet` block."""
    return not _QUIET.get() and on_terminal(stream)


def on_terminal(stream: object) -> bool:
    """Whether ``stream`` is a terminal a bar may be drawn on. A process may have no stderr
    at all (``None``: started with its descriptor 2 closed, or with no console), a closed
    one, or a stand-in without ``isatty``: each is no terminal, and never an error in the
    write that would have shown a bar."""
    isatty = getattr(stream, "isatty", None)
    if not callable(isatty):
        return False
    try:
        return bool(isatty())
    except (ValueError, OSError):  # a closed stream, or one whose descriptor is gone
        return False


def _tqdm() -> Any:
    return importlib.import_module("tqdm").tqdm


def stop_idle_monitor() -> None:
    """Stop tqdm's monitor thread when no bar of this process is open (else leave it to
    the bars still open, whoever showed them)."""
    tqdm = _tqdm()
    with tqdm.get_lock():
        monitor = getattr(tqdm, "monitor", None)
        if monitor is None or tqdm._instances:
            return
        tqdm.monitor = None
    # Joined outside the lock: the monitor takes the same lock on each of its rounds.
    monitor.exit()


@contextlib.contextmanager
def tqdm_bar(**options: Any) -> Iterator[Any]:
    """A ``tqdm(**options)`` bar, closed at the end of the block, its monitor with it."""
    try:
        with _tqdm()(**options) as progress:
            yield progress
    finally:
        stop_idle_monitor()


def tqdm_iterate(items: Iterable[T], **options: Any) -> Iterator[T]:
    """``items`` through a ``tqdm`` bar, closed (with its monitor) when the iteration ends
    or is abandoned."""
    progress = _tqdm()(items, **options)
    try:
        yield from progress
    finally:
        progress.close()
        stop_idle_monitor()
