"""The DAG of each moment (ADR-0019 decision 1; DESIGN.md §3–4).

:func:`build` returns the built Hamilton driver of a moment. All moments share the node
modules in :data:`NODE_MODULES` and differ by config and budgets. Build once per process
and reuse it (``execute`` costs microseconds per node; building costs milliseconds):
:class:`~recallflow.dataflows.runner.RecallFlow` does that for ``Memory.recall``.

Config keys (all set by :func:`dag_config` from the policy):

- ``arms``: the arm nodes fused (``fused_candidates`` takes exactly these);
- ``graph_expansion``: whether ``graph_expanded_hits`` is fused too;
- ``ranking``: ``hand_weighted`` (the ADR's function) or ``match_only`` (an ablation);
- ``moment``: the moment the driver serves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

from hamilton import base, driver
from hamilton.lifecycle.base import LifecycleAdapter

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
from recallflow.nodes.arms import external, graph, lexical, semantic, structured, trigram
from recallflow.policy import ALL_ARMS, DEFAULT_POLICY, RetrievalPolicy

#: Every node module, in stage order.
NODE_MODULES: tuple[ModuleType, ...] = (
    wiring,
    query_forming,
    filtering,
    structured,
    lexical,
    trigram,
    semantic,
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

#: The ranking implementations selectable by config.
RANKINGS = ("hand_weighted", "match_only")

#: The node every moment's run is asked for.
RESULT_NODE = "recall_result"


def dag_config(
    moment: Moment | str = Moment.IN_TURN,
    policy: RetrievalPolicy = DEFAULT_POLICY,
    overrides: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The Hamilton config of a moment under ``policy``; unknown values fail here."""
    config: dict[str, Any] = {
        "moment": Moment(moment).value,
        "arms": tuple(policy.arms),
        "graph_expansion": policy.graph_expansion,
        "ranking": "hand_weighted",
        "hamilton.enable_power_user_mode": True,
    }
    config.update(overrides or {})
    unknown = [a for a in config["arms"] if a not in ALL_ARMS]
    if unknown or not config["arms"]:
        raise ValueError(f"config 'arms' must be a non-empty subset of {ALL_ARMS}, got {unknown}")
    if config["ranking"] not in RANKINGS:
        raise ValueError(f"config 'ranking' must be one of {RANKINGS}, got {config['ranking']!r}")
    return config


def build(
    moment: Moment | str = Moment.IN_TURN,
    config: Mapping[str, Any] | None = None,
    *,
    policy: RetrievalPolicy = DEFAULT_POLICY,
    extra_modules: Iterable[ModuleType] = (),
    adapters: Iterable[LifecycleAdapter] = (),
) -> driver.Driver:
    """The built Hamilton driver of ``moment``.

    :param config: overrides of :func:`dag_config` (e.g. ``{"ranking": "match_only"}``).
    :param extra_modules: modules whose nodes replace same-named ones (module override).
    :param adapters: lifecycle adapters, e.g. the lineage recorder.
    """
    extra = tuple(extra_modules)
    builder = (
        driver.Builder()
        .with_modules(*NODE_MODULES, *extra)
        .with_config(dag_config(moment, policy, config))
        .with_adapters(base.DictResult(), *adapters)
    )
    if extra:
        builder = builder.allow_module_overrides()
    return builder.build()
