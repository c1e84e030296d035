"""Running a moment's DAG: the built driver, its lineage recorder and its DAG version,
built once and run many times.

The arms' thread pool is usually lent by the caller (a :class:`~recallflow.memory.Memory`
lends one pool to all its flows); a flow that made its own pool shuts it down in
:meth:`RecallFlow.close`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

from recallflow.adapters.lifecycle.concurrency import ArmThreadPool
from recallflow.adapters.lifecycle.lineage import LineageRecorder, node_identity
from recallflow.dataflows import RESULT_NODE, build
from recallflow.models.request import Moment
from recallflow.models.result import RecallResult
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy


class RecallFlow:
    """One moment's driver, ready to run; thread-safe."""

    def __init__(
        self,
        moment: Moment | str = Moment.IN_TURN,
        config: Mapping[str, Any] | None = None,
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
        extra_modules: Iterable[ModuleType] = (),
        concurrent_arms: bool = True,
        arm_pool: ArmThreadPool | None = None,
    ) -> None:
        self.moment = Moment(moment)
        self.policy = policy
        self.lineage = LineageRecorder()
        self._owns_arm_pool = concurrent_arms and arm_pool is None
        self.arm_pool = (arm_pool or ArmThreadPool()) if concurrent_arms else None
        adapters: tuple[Any, ...] = (self.lineage,)
        if self.arm_pool is not None:
            adapters = (*adapters, self.arm_pool)
        self.driver = build(
            self.moment,
            config,
            policy=policy,
            extra_modules=extra_modules,
            adapters=adapters,
        )
        self.dag_version = self._dag_version()

    def _dag_version(self) -> str:
        parts = []
        for name, node_ in sorted(self.driver.graph.nodes.items()):
            module, version = node_identity(node_)
            parts.append(f"{name}:{module}:{version}")
        digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12]
        return f"{self.moment.value}-{digest}"

    def close(self) -> None:
        """Shut down the arms' thread pool if this flow made it (a lent pool is left alone)."""
        if self._owns_arm_pool and self.arm_pool is not None:
            self.arm_pool.shutdown()

    def run(self, inputs: Mapping[str, Any]) -> RecallResult:
        """Execute the DAG once; the result's trace carries this run's node lineage."""
        out = self.driver.execute(
            [RESULT_NODE], inputs={**inputs, "policy": self.policy, "dag_version": self.dag_version}
        )
        result: RecallResult = out[RESULT_NODE]
        lineage = self.lineage.pop(self.lineage.current_run())
        trace = result.trace.model_copy(update={"lineage": lineage})
        return result.model_copy(update={"trace": trace})
