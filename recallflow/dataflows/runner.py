"""Running a moment's DAG: the built driver, its lineage recorder and its DAG version,
held once per process (DESIGN.md §3: build once, run many times).
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
    ) -> None:
        self.moment = Moment(moment)
        self.policy = policy
        self.lineage = LineageRecorder()
        self.arm_pool = ArmThreadPool() if concurrent_arms else None
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

    def run(self, inputs: Mapping[str, Any]) -> RecallResult:
        """Execute the DAG once; the result's trace carries this run's node lineage."""
        out = self.driver.execute(
            [RESULT_NODE], inputs={**inputs, "policy": self.policy, "dag_version": self.dag_version}
        )
        result: RecallResult = out[RESULT_NODE]
        lineage = self.lineage.pop(self.lineage.current_run())
        trace = result.trace.model_copy(update={"lineage": lineage})
        return result.model_copy(update={"trace": trace})
