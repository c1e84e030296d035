"""Running the arms concurrently (issue 3, item 4; DESIGN.md §6: arms run concurrently on
separate connections).

:class:`ArmThreadPool` is a Hamilton ``do_remote_execute`` adapter that submits only the
nodes tagged ``stage="arm"`` to a thread pool and runs every other node inline. The
traversal therefore starts all arms before it blocks on the first node that needs one of
them (graph expansion, then fusion), so the arms' database round trips overlap. Handing
*every* node to a pool (Hamilton's ``FutureAdapter``) costs a thread hop per node,
which on a ~30-node recall outweighs what it saves; this adapter pays it only where
there is I/O to overlap. Measured against the async driver in
``benchmarks/arm_concurrency.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from hamilton.lifecycle.base import BaseDoRemoteExecute

ARM_STAGE = "arm"


def _resolved(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.result() if isinstance(v, Future) else v) for k, v in kwargs.items()}


def _run(fn: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    return fn(**_resolved(kwargs))


class ArmThreadPool(BaseDoRemoteExecute):  # type: ignore[misc]  # Hamilton is untyped
    """Runs arm nodes in a thread pool and everything else inline."""

    def __init__(self, max_workers: int = 6) -> None:
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="rf-arm")

    def do_remote_execute(
        self,
        *,
        node: Any,
        execute_lifecycle_for_node: Callable[..., Any],
        **kwargs: Any,
    ) -> Any:
        if node.tags.get("stage") == ARM_STAGE:
            return self._pool.submit(_run, execute_lifecycle_for_node, kwargs)
        return execute_lifecycle_for_node(**_resolved(kwargs))

    def shutdown(self) -> None:
        """Stop the pool's threads."""
        self._pool.shutdown(wait=False, cancel_futures=True)
