"""Running the arms concurrently, each on its own database connection, so a recall waits
for its slowest arm rather than for the sum of them.

:class:`ArmThreadPool` is a Hamilton ``do_remote_execute`` adapter that submits only the
nodes tagged ``stage="arm"`` to a thread pool and runs every other node inline. The
traversal therefore starts all arms before it blocks on the first node that needs one of
them (graph expansion, then fusion), so the arms' database round trips overlap. Handing
*every* node to a pool (Hamilton's ``FutureAdapter``) costs a thread hop per node,
which on a ~30-node recall outweighs what it saves; this adapter pays it only where
there is I/O to overlap. Measured against the async driver in
``benchmarks/arm_concurrency.py``.

An arm tagged ``searches=<input>`` whose input is empty (a recall with no text query has
no lexical or semantic search to run; a session opened without a goal has none at all)
runs inline as well: it returns at once, and a thread hop would cost more than the arm
(0.6 ms of a snapshot's CPU for its five idle arms).

One pool serves every flow of a :class:`~recallflow.memory.Memory` and is shut down when
the Memory closes, so the number of threads does not grow with the number of policies a
Memory has run. Sharing is safe: an arm that waits on other arms (graph expansion waits
on its seeds) is always submitted after them, and the pool's queue is first in, first
out, so a waiting arm never holds a thread that its own inputs need.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from hamilton.lifecycle.base import BaseDoRemoteExecute

ARM_STAGE = "arm"


def _resolved(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.result() if isinstance(v, Future) else v) for k, v in kwargs.items()}


def _has_work(searched: Any) -> bool:
    """False only for an input known now to be empty (an arm's search input not yet
    computed, or an arm that names none, may have work)."""
    if searched is None or isinstance(searched, Future):
        return True
    return len(searched) > 0


def _run(fn: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    return fn(**_resolved(kwargs))


class ArmThreadPool(BaseDoRemoteExecute):  # type: ignore[misc]  # Hamilton is untyped
    """Runs arm nodes in a thread pool and everything else inline."""

    def __init__(self, max_workers: int = 6) -> None:
        # Threads start on demand, up to max_workers, and live until shutdown().
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="rf-arm")

    def do_remote_execute(
        self,
        *,
        node: Any,
        execute_lifecycle_for_node: Callable[..., Any],
        **kwargs: Any,
    ) -> Any:
        tags = node.tags
        if tags.get("stage") == ARM_STAGE and _has_work(kwargs.get(tags.get("searches", ""))):
            return self._pool.submit(_run, execute_lifecycle_for_node, kwargs)
        return execute_lifecycle_for_node(**_resolved(kwargs))

    def shutdown(self, *, wait: bool = True) -> None:
        """Stop the pool's threads (after the arms already running finish, when ``wait``)."""
        self._pool.shutdown(wait=wait, cancel_futures=True)
