"""The DAG is checked when it is built: every recipe of the policy builds and validates,
its shape is the one the isolation and concurrency arguments rely on, and a node without a
``stage`` tag is refused (no database, no execution)."""

from __future__ import annotations

import itertools
import sys
import types
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import networkx as nx
import pytest
from hamilton import driver
from hamilton.function_modifiers import tag
from hamilton.lifecycle.base import ValidationException

from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.scanning import LayeredInjectionScanner
from recallflow.core.query_forming import DeterministicQueryFormer
from recallflow.dataflows import RESULT_NODE, build
from recallflow.dataflows.snapshot import SNAPSHOT_MOMENTS
from recallflow.dataflows.snapshot import build as build_snapshot
from recallflow.errors import InvalidInputError
from recallflow.models.request import Moment, RecallRequest, WorkingState
from recallflow.models.stages import BudgetOutcome, RenderedBlock
from recallflow.policy import DEFAULT_POLICY, Arm, Ranking, RetrievalPolicy
from recallflow.ports import RecallPorts
from tests.fakes import InMemoryBeliefSearch, WordCounter

#: The arms that search the store themselves (graph expansion seeds from them).
DATABASE_ARMS = (Arm.STRUCTURED, Arm.LEXICAL, Arm.TRIGRAM, Arm.SEMANTIC)


def _recipes() -> Iterator[RetrievalPolicy]:
    """Every ranking × every non-empty subset of the database arms × with and without the
    external arm × with and without graph expansion."""
    for ranking in Ranking:
        for size in range(1, len(DATABASE_ARMS) + 1):
            for subset in itertools.combinations(DATABASE_ARMS, size):
                for external in (False, True):
                    for graph_expansion in (False, True):
                        arms = (*subset, Arm.EXTERNAL) if external else subset
                        yield DEFAULT_POLICY.model_copy(
                            update={
                                "arms": arms,
                                "graph_expansion": graph_expansion,
                                "ranking": ranking,
                            }
                        )


RECIPES = list(_recipes())


def _inputs(moment: Moment) -> dict[str, Any]:
    embedder = HashingEmbedder()
    ports = RecallPorts(
        belief_search=InMemoryBeliefSearch([], embedder=embedder),
        embedder=embedder,
        token_counter=WordCounter(),
        query_former=DeterministicQueryFormer(),
        injection_scanner=LayeredInjectionScanner(),
    )
    request = RecallRequest(
        tenant_id="t",
        principal_id="p1",
        moment=moment,
        as_of=datetime(2026, 1, 1, tzinfo=UTC),
        working_state=WorkingState(goal="anything"),
    )
    return {
        "request": request,
        "ports": ports,
        "policy": DEFAULT_POLICY,
        "trace_id": "tr-build",
        "dag_version": "v",
    }


def _graph(dag: driver.Driver) -> nx.DiGraph:
    """The driver's graph as a networkx graph: an edge from each input to its user."""
    graph = nx.DiGraph()
    for name, node in dag.graph.nodes.items():
        graph.add_node(name, stage=node.tags.get("stage"))
        graph.add_edges_from((dep.name, name) for dep in node.dependencies)
    return graph


def _stage_of(graph: nx.DiGraph) -> dict[str, str]:
    return {n: s for n, s in graph.nodes(data="stage") if s is not None}


def test_there_are_recipes_of_every_kind() -> None:
    assert len(RECIPES) == 2 * 15 * 2 * 2
    assert len({p.version for p in RECIPES}) == len(RECIPES)


def test_every_recipe_builds_and_validates_for_every_moment() -> None:
    # In-turn recall runs the shared modules; the snapshot moments lay the snapshot's nodes
    # over them (its own budget and core), so each moment is validated on its own graph.
    inputs = {moment: _inputs(moment) for moment in Moment}
    for policy in RECIPES:
        dag = build(policy=policy)
        dag.validate_execution([RESULT_NODE], inputs={**inputs[Moment.IN_TURN], "policy": policy})
        for moment in SNAPSHOT_MOMENTS:
            build_snapshot(moment, policy=policy).validate_execution(
                [RESULT_NODE], inputs={**inputs[moment], "policy": policy}
            )
        graph = _graph(dag)
        assert nx.is_directed_acyclic_graph(graph)
        # Fusion takes exactly the policy's arms (and graph expansion when it is on).
        assert list(graph.predecessors("arm_results")) == [a.value for a in policy.fused_arms]
        if policy.graph_expansion:
            seeds = set(graph.predecessors(Arm.GRAPH_EXPANDED.value))
            assert seeds & {a.value for a in Arm} == {a.value for a in policy.arms}
        # The result is reached from a node of every stage, and from every arm that runs.
        upstream = nx.ancestors(graph, RESULT_NODE) | {RESULT_NODE}
        stages = _stage_of(graph)
        assert {stages[n] for n in upstream if n in stages} == set(stages.values())
        # (the profile arm runs beside the fused ones, for a turn that asks about the user)
        assert {Arm(n) for n in upstream if stages.get(n) == "arm"} == {
            *policy.fused_arms,
            Arm.PROFILE,
        }


@pytest.mark.parametrize("moment", sorted(SNAPSHOT_MOMENTS))
def test_the_in_turn_graph_refuses_a_snapshot_moment(moment: Moment) -> None:
    # Run as an in-turn recall, a snapshot would look for a budget the policy does not
    # hold (a snapshot's budget is its session kind's): refused by name at build time.
    with pytest.raises(
        InvalidInputError, match=r"recallflow\.dataflows\.snapshot\.build"
    ) as raised:
        build(moment)
    assert raised.value.field == "moment"


def test_the_default_dag_has_the_shape_isolation_and_concurrency_rely_on() -> None:
    graph = _graph(build())
    stages = _stage_of(graph)
    arms = [n for n, s in stages.items() if s == "arm"]
    assert sorted(arms) == sorted(a.value for a in Arm if a is not Arm.DURABLE)
    # Every arm is handed the hard filter itself, not something derived from it.
    assert all(graph.has_edge("hard_filter", arm) for arm in arms)
    # The searching arms are independent, so they can run concurrently; graph expansion
    # alone waits for them (its seeds).
    searching = [a for a in arms if a != Arm.GRAPH_EXPANDED.value]
    assert not any(nx.has_path(graph, a, b) for a in searching for b in searching if a != b)
    # Every node of the default DAG serves the result, except the external arm (off) and
    # the port that feeds only it.
    unused = set(stages) - nx.ancestors(graph, RESULT_NODE) - {RESULT_NODE}
    assert unused == {"external_hits", "external_provider"}


def _module(
    monkeypatch: pytest.MonkeyPatch, name: str, *functions: Callable[..., Any]
) -> types.ModuleType:
    """A module holding ``functions``, importable by name while the test runs (Hamilton
    finds a module's functions through ``sys.modules``)."""
    module = types.ModuleType(name)
    for fn in functions:
        fn.__module__ = name
        setattr(module, fn.__name__, fn)
    monkeypatch.setitem(sys.modules, name, module)
    return module


def test_a_node_without_a_stage_tag_is_refused_at_build(monkeypatch: pytest.MonkeyPatch) -> None:
    def rendered_block(budgeted_items: BudgetOutcome) -> RenderedBlock:
        raise NotImplementedError

    # The caller's module is refused as their input, naming it and the node.
    with pytest.raises(InvalidInputError, match=r"rendered_block") as raised:
        build(extra_modules=[_module(monkeypatch, "tests_untagged_render", rendered_block)])
    assert "tests_untagged_render" in str(raised.value)
    assert "stage" in str(raised.value)
    assert raised.value.field == "experiment.modules"
    assert isinstance(raised.value.__cause__, ValidationException)


def test_a_new_untagged_node_is_refused_even_off_the_result_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def block_length(rendered_block: RenderedBlock) -> int:
        return len(rendered_block.text)

    with pytest.raises(InvalidInputError, match=r"block_length"):
        build(extra_modules=[_module(monkeypatch, "tests_untagged_extra", block_length)])


def test_a_tagged_override_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    @tag(stage="render")  # type: ignore[untyped-decorator]  # Hamilton is untyped
    def rendered_block(budgeted_items: BudgetOutcome) -> RenderedBlock:
        raise NotImplementedError

    dag = build(extra_modules=[_module(monkeypatch, "tests_tagged_render", rendered_block)])
    assert dag.graph.nodes["rendered_block"].originating_functions[0] is rendered_block
