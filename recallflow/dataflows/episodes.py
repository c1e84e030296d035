"""The DAG of archival episode search (see "Moments" in docs/architecture.md).

A graph of its own, not a moment of recall: the agent invokes it, and nothing automatic
does. :func:`build` returns the built Hamilton driver; :class:`EpisodeFlow` holds one per
process with its lineage recorder and DAG version (build once, run many times), as
:class:`~recallflow.dataflows.runner.RecallFlow` does for recall.

Inputs: ``request`` (a resolved :class:`EpisodeSearchRequest`), ``episode_ports``,
``episode_policy``, ``trace_id`` and ``dag_version``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from types import ModuleType
from typing import Any

from hamilton import base, driver
from hamilton.lifecycle.base import LifecycleAdapter
from pydantic import ValidationError

from recallflow.adapters.lifecycle.concurrency import ArmThreadPool
from recallflow.adapters.lifecycle.lineage import LineageRecorder, node_identity
from recallflow.core.episodes import window_start
from recallflow.core.redaction import ProjectNames
from recallflow.errors import InvalidInputError
from recallflow.models.request import EpisodeSearchRequest
from recallflow.models.result import EpisodeSearchResult
from recallflow.nodes import episodes, episodes_arms
from recallflow.policy import DEFAULT_EPISODE_POLICY, EpisodePolicy
from recallflow.ports import EpisodeSearchPorts

#: The node modules of archival search, in stage order.
EPISODE_NODE_MODULES: tuple[ModuleType, ...] = (episodes, episodes_arms)

#: The node every run is asked for.
EPISODE_RESULT_NODE = "episode_search_result"


def build(adapters: Iterable[LifecycleAdapter] = ()) -> driver.Driver:
    """The built Hamilton driver of archival search."""
    return (
        driver.Builder()
        .with_modules(*EPISODE_NODE_MODULES)
        .with_config({"hamilton.enable_power_user_mode": True})
        .with_adapters(base.DictResult(), *adapters)
        .build()
    )


def resolved_episode_request(
    request: EpisodeSearchRequest | Mapping[str, Any],
) -> EpisodeSearchRequest:
    """The request validated, with ``as_of`` (default: now) and ``known_as_of`` (default:
    ``as_of``) filled in, so every stage of one search sees the same instant; a ``since``
    later than ``as_of`` is an :class:`InvalidInputError` on ``since``."""
    # An instance is checked as its dict is (see resolved_request): model_copy checks
    # nothing, and a search edited with it ran with a NUL in its query or a negative cap.
    data = (
        request.model_dump(warnings=False) if isinstance(request, EpisodeSearchRequest) else request
    )
    try:
        req = EpisodeSearchRequest.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        # A request that is not a mapping at all has no field path: name the request.
        field = ".".join(map(str, first["loc"])) or "request"
        raise InvalidInputError(first["msg"], field=field) from exc
    as_of = req.as_of or datetime.now(UTC)
    window_start(req.since, as_of)
    return req.replaced(as_of=as_of, known_as_of=req.known_as_of or as_of)


class EpisodeFlow:
    """The archival search driver under one policy, ready to run; thread-safe."""

    def __init__(
        self,
        *,
        policy: EpisodePolicy = DEFAULT_EPISODE_POLICY,
        concurrent_arms: bool = True,
        arm_pool: ArmThreadPool | None = None,
    ) -> None:
        """:param arm_pool: the arms' thread pool to share (``Memory`` lends its own); one
        of two threads is made when none is lent."""
        self.policy = policy
        self.lineage = LineageRecorder()
        self._owns_arm_pool = concurrent_arms and arm_pool is None
        self.arm_pool = (arm_pool or ArmThreadPool(max_workers=2)) if concurrent_arms else None
        adapters: tuple[Any, ...] = (self.lineage,)
        if self.arm_pool is not None:
            adapters = (*adapters, self.arm_pool)
        self.driver = build(adapters)
        parts = []
        for name, node_ in sorted(self.driver.graph.nodes.items()):
            module, version = node_identity(node_)
            parts.append(f"{name}:{module}:{version}")
        self.dag_version = "episodes-" + hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12]

    def close(self) -> None:
        """Shut down the arms' thread pool if this flow made it (a lent pool is left alone)."""
        if self._owns_arm_pool and self.arm_pool is not None:
            self.arm_pool.shutdown()

    def run(
        self,
        request: EpisodeSearchRequest | Mapping[str, Any],
        ports: EpisodeSearchPorts,
        trace_id: str,
        project_names: ProjectNames | None = None,
    ) -> EpisodeSearchResult:
        """Execute the DAG once; the trace carries this run's node lineage.
        ``project_names`` says which project names are sensitive (none by default)."""
        out = self.driver.execute(
            [EPISODE_RESULT_NODE],
            inputs={
                "request": resolved_episode_request(request),
                "episode_ports": ports,
                "episode_policy": self.policy,
                "trace_id": trace_id,
                "dag_version": self.dag_version,
                "project_names": project_names or ProjectNames(),
            },
        )
        result: EpisodeSearchResult = out[EPISODE_RESULT_NODE]
        lineage = self.lineage.pop(self.lineage.current_run())
        trace = result.trace.replaced(lineage=lineage)
        return result.replaced(trace=trace)
