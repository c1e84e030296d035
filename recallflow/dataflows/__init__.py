"""The DAG of each moment.

:func:`build` returns the built Hamilton driver of a moment. All moments share the node
modules in :data:`NODE_MODULES`, each reading its moment's admissible states at run time;
the snapshot moments (session open and child-run start) lay
:mod:`recallflow.nodes.snapshot` over them (:mod:`recallflow.dataflows.snapshot`), whose
budget is the session kind's. Build once per process and reuse it (``execute`` costs
microseconds per node; building costs milliseconds):
:class:`~recallflow.dataflows.runner.RecallFlow` does that for ``Memory.recall``.

The config that shapes the graph comes from the policy, and only from it, so that every
variant of the graph is recorded by its own ``retrieval_policy_version``
(:func:`dag_config`):

- ``arms``: the arm nodes fused (``arm_results`` takes exactly these, graph expansion
  seeds from them);
- ``graph_expansion``: whether ``graph_expanded_hits`` is fused too;
- ``ranking``: which ``scored_candidates`` implementation runs.

:func:`build` checks the graph when it is built: every node must carry a ``stage`` tag
(:class:`StageTagRequired`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

from hamilton import base, driver
from hamilton.graph_types import HamiltonNode
from hamilton.lifecycle import api
from hamilton.lifecycle.base import LifecycleAdapter

from recallflow.errors import InvalidInputError
from recallflow.models.request import Moment
from recallflow.nodes import (
    budget,
    candidates,
    filtering,
    floor,
    fusion,
    query_forming,
    relevance,
    render,
    resolution,
    scoring,
    trace,
    trust,
    wiring,
)
from recallflow.nodes import snapshot as snapshot_nodes
from recallflow.nodes.arms import (
    external,
    graph,
    lexical,
    period,
    profile,
    semantic,
    structured,
    trigram,
)
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy

#: Every node module, in stage order.
NODE_MODULES: tuple[ModuleType, ...] = (
    wiring,
    query_forming,
    filtering,
    structured,
    lexical,
    trigram,
    semantic,
    period,
    profile,
    external,
    graph,
    fusion,
    candidates,
    relevance,
    scoring,
    resolution,
    floor,
    trust,
    budget,
    render,
    trace,
)

#: The node every moment's run is asked for.
RESULT_NODE = "recall_result"

#: Config keys set from the policy; an override of one would run a graph the recorded
#: ``retrieval_policy_version`` does not describe.
POLICY_KEYS = ("arms", "graph_expansion", "ranking")


def dag_config(
    policy: RetrievalPolicy = DEFAULT_POLICY, overrides: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The Hamilton config of a recall under ``policy``.

    :param overrides: extra config for a module override's own ``@config.when``; the keys
        the policy sets (:data:`POLICY_KEYS`) are refused with
        :class:`~recallflow.errors.InvalidInputError`.
    """
    extra = dict(overrides or {})
    for key in POLICY_KEYS:
        if key in extra:
            raise InvalidInputError(
                f"{key!r} is set by the retrieval policy, not by config; derive a policy"
                f" instead, e.g. policy.model_copy(update={{{key!r}: ...}}), so the trace"
                " records the variant's own retrieval_policy_version",
                field=f"config.{key}",
            )
    return {
        **extra,
        "arms": tuple(arm.value for arm in policy.arms),
        "graph_expansion": policy.graph_expansion,
        "ranking": policy.ranking.value,
        "hamilton.enable_power_user_mode": True,
    }


class StageTagRequired(api.StaticValidator):  # type: ignore[misc]  # Hamilton is untyped
    """Refuses to build a graph with a node that has no ``stage`` tag.

    The tag is how the trace's lineage, the stage graph and the arm thread pool know what
    a node is; an untagged node (say, from a module override) would be run and recorded as
    nothing in particular. Inputs (the request, the ports, the policy, ``trace_id``,
    ``dag_version``) and config values are not functions and are exempt.
    """

    def run_to_validate_node(
        self, *, node: HamiltonNode, **future_kwargs: Any
    ) -> tuple[bool, str | None]:
        if node.is_external_input or node.tags.get("stage"):
            return True, None
        origin = node.originating_functions[0] if node.originating_functions else None
        what = f"{origin.__module__}.{origin.__qualname__}" if origin else "this node"
        return False, f"{what} has no stage tag; decorate it with @tag(stage=...)"


def build(
    moment: Moment | str = Moment.IN_TURN,
    config: Mapping[str, Any] | None = None,
    *,
    policy: RetrievalPolicy = DEFAULT_POLICY,
    extra_modules: Iterable[ModuleType] = (),
    adapters: Iterable[LifecycleAdapter] = (),
) -> driver.Driver:
    """The built Hamilton driver of ``moment`` under ``policy``.

    :param moment: the moment the driver serves (checked here; the nodes read it from the
        request). A snapshot moment needs :mod:`recallflow.nodes.snapshot` among
        ``extra_modules``, as :func:`recallflow.dataflows.snapshot.build` lays it.
    :param config: extra config for ``extra_modules`` (see :func:`dag_config`).
    :param extra_modules: modules whose nodes replace same-named ones (module override).
    :param adapters: lifecycle adapters, e.g. the lineage recorder.
    :raises hamilton.lifecycle.base.ValidationException: a node of the library's has no
        ``stage`` tag.
    :raises InvalidInputError: a snapshot moment without the snapshot's nodes, or an extra
        module that is not a module of stage nodes (a function without type hints or a
        ``stage`` tag, a node whose type does not fit its neighbours), naming the modules.
    """
    extra = tuple(extra_modules)
    if Moment(moment) is not Moment.IN_TURN and snapshot_nodes not in extra:
        # The in-turn graph would run a snapshot moment with no budget of its own to read.
        raise InvalidInputError(
            f"a {Moment(moment).value} recall runs the snapshot DAG, whose budget is its"
            " session kind's; build it with recallflow.dataflows.snapshot.build",
            field="moment",
        )
    builder = (
        driver.Builder()
        .with_modules(*NODE_MODULES, *extra)
        .with_config(dag_config(policy, config))
        .with_adapters(base.DictResult(), StageTagRequired(), *adapters)
    )
    if extra:
        builder = builder.allow_module_overrides()
    foreign = [m.__name__ for m in extra if not m.__name__.startswith("recallflow.")]
    if not foreign:
        return builder.build()
    try:
        return builder.build()
    except Exception as exc:  # the caller's modules: their error, named, not Hamilton's
        detail = " ".join(str(exc).split()) or type(exc).__name__
        raise InvalidInputError(
            f"{', '.join(foreign)} cannot replace stage nodes: {detail}",
            field="experiment.modules",
        ) from exc
