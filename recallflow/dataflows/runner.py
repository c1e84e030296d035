"""Running a moment's DAG: the built driver, its lineage recorder and its DAG version,
built once and run many times. A run replays the driver's execution plan
(:class:`~recallflow.dataflows.plan.ExecutionPlan`) instead of having the driver work
it out again on every call.

The arms' thread pool is usually lent by the caller (a :class:`~recallflow.memory.Memory`
lends one pool to all its flows); a flow that made its own pool shuts it down in
:meth:`RecallFlow.close`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from recallflow.adapters.lifecycle.concurrency import ArmThreadPool
from recallflow.adapters.lifecycle.lineage import LineageRecorder, node_identity, sources_digest
from recallflow.adapters.lifecycle.otel import tracing_adapter
from recallflow.adapters.postgres import search as search_sql
from recallflow.dataflows import RESULT_NODE
from recallflow.dataflows.experiment import Experiment
from recallflow.dataflows.plan import ExecutionPlan
from recallflow.dataflows.snapshot import SNAPSHOT_MOMENTS, build
from recallflow.errors import InvalidInputError
from recallflow.models.request import Moment, RecallRequest
from recallflow.models.result import RecallResult
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy

#: The modules holding the SQL the arms run (through the search port): part of dag_version.
SQL_MODULES = (search_sql,)


def resolved_request(request: RecallRequest | Mapping[str, Any]) -> RecallRequest:
    """The request validated, with ``as_of`` (default: now) and ``known_as_of`` (default:
    ``as_of``) filled in, so every stage of one recall sees the same instant."""
    # An instance is taken as it is: it was checked when made, and when edited with
    # model_copy (RecallRequest.model_copy).
    try:
        req = (
            request if isinstance(request, RecallRequest) else RecallRequest.model_validate(request)
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        # A request that is not a mapping at all has no field path: name the request.
        field = ".".join(map(str, first["loc"])) or "request"
        raise InvalidInputError(first["msg"], field=field) from exc
    as_of = req.as_of or datetime.now(UTC)
    if req.as_of is not None and req.known_as_of is not None:
        return req
    return req.replaced(as_of=as_of, known_as_of=req.known_as_of or as_of)


class RecallFlow:
    """One moment's driver under one policy and experiment, ready to run; thread-safe."""

    def __init__(
        self,
        moment: Moment | str = Moment.IN_TURN,
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
        experiment: Experiment | None = None,
        concurrent_arms: bool = True,
        arm_pool: ArmThreadPool | None = None,
    ) -> None:
        self.moment = Moment(moment)
        self.policy = policy
        self.experiment = experiment
        self.lineage = LineageRecorder()
        self._owns_arm_pool = concurrent_arms and arm_pool is None
        self.arm_pool = (arm_pool or ArmThreadPool()) if concurrent_arms else None
        adapters: tuple[Any, ...] = (self.lineage,)
        if self.arm_pool is not None:
            adapters = (*adapters, self.arm_pool)
        spans = tracing_adapter()  # None unless OpenTelemetry tracing was enabled
        if spans is not None:
            adapters = (*adapters, spans)
        self.driver = build(
            self.moment,
            experiment.config if experiment else None,
            policy=policy,
            extra_modules=experiment.modules if experiment else (),
            adapters=adapters,
        )
        self.plan = ExecutionPlan(self.driver, RESULT_NODE, overlap=self.moment in SNAPSHOT_MOMENTS)
        self.dag_version = self._dag_version()
        self._experiment_record = experiment.record() if experiment else None

    def _dag_version(self) -> str:
        """A hash over every node's module and version, the SQL the arms run through the
        search port, and the policy version, so it moves whenever behaviour can."""
        parts = [f"sql:{sources_digest(SQL_MODULES)}", f"policy:{self.policy.version}"]
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
        """Execute the DAG once; the result's trace carries this run's node lineage and
        the experiment that served it. The request's times are resolved here if the
        caller left them open."""
        request = resolved_request(inputs["request"])
        out = self.plan.execute(
            {
                **inputs,
                "request": request,
                "policy": self.policy,
                "dag_version": self.dag_version,
            },
        )
        result: RecallResult = out[RESULT_NODE]
        lineage = self.lineage.pop(self.lineage.current_run())
        trace = result.trace.replaced(lineage=lineage, experiment=self._experiment_record)
        return result.replaced(trace=trace)
