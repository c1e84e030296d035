"""Running the arms concurrently, each on its own database connection, so a recall waits
for its slowest arm rather than for the sum of them.

:class:`ArmThreadPool` is a Hamilton ``do_remote_execute`` adapter that submits only the
nodes tagged ``stage="arm"`` to a thread pool and runs every other node inline (the
execution plan asks it only about the nodes it names, :meth:`ArmThreadPool.submits`, and
runs the others inline itself). The
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
Memory has run. Sharing is safe: an arm that waits on other arms never holds a pool thread.

An arm that takes other arms' results (graph expansion, seeded by them) runs inline, like
any other node: its database work cannot start before they answer, every arm it could
overlap with is one of them, and a thread would only add a hand-over each way (the
waiting thread woken when the seeds answer, then the recall's thread when it does). Its
statement still runs under the arms' statement timeout, so it is bounded as before.
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
    """False only for a search input that is empty (an arm that names none may have
    work)."""
    return searched is None or len(searched) > 0


def _run(fn: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    return fn(**_resolved(kwargs))


class ArmThreadPool(BaseDoRemoteExecute):  # type: ignore[misc]  # Hamilton is untyped
    """Runs the arms that need no other arm's result and have something to search in a
    thread pool, everything else inline."""

    def __init__(self, max_workers: int = 6) -> None:
        # Threads start on demand, up to max_workers, and live until shutdown().
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="rf-arm")

    def submits(self, node: Any) -> bool:
        """Whether ``node`` may be handed to the pool (an arm; it still runs inline when it
        is given another arm's pending result or has nothing to search). The execution
        plan starts such nodes before the run first waits on one."""
        return bool(node.tags.get("stage") == ARM_STAGE)

    def do_remote_execute(
        self,
        *,
        node: Any,
        execute_lifecycle_for_node: Callable[..., Any],
        **kwargs: Any,
    ) -> Any:
        tags = node.tags
        if (
            tags.get("stage") == ARM_STAGE
            and not any(isinstance(value, Future) for value in kwargs.values())
            and _has_work(kwargs.get(tags.get("searches", "")))
        ):
            return self._pool.submit(_run, execute_lifecycle_for_node, kwargs)
        return execute_lifecycle_for_node(**_resolved(kwargs))

    def shutdown(self, *, wait: bool = True) -> None:
        """Stop the pool's threads (after the arms already running finish, when ``wait``)."""
        self._pool.shutdown(wait=wait, cancel_futures=True)
