"""A flow runs its DAG from a cached execution plan: the block, the trace and the node
lineage must be what Hamilton's own ``Driver.execute`` gives for the same inputs, for
every moment and whichever optional inputs a run is given. With the arms' pool, a
snapshot's plan starts every arm before it first waits on one and does its own work
meanwhile (the order differs from the driver's; the values and the nodes run do not).
No database: the belief search is the in-memory fake."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.scanning import LayeredInjectionScanner
from recallflow.core.query_forming import DeterministicQueryFormer
from recallflow.dataflows import RESULT_NODE
from recallflow.dataflows.runner import RecallFlow
from recallflow.models.request import Moment, RecallRequest, WorkingState
from recallflow.models.result import RecallResult
from recallflow.models.session import DurableQuery, SessionKind, SessionSpec
from recallflow.models.stages import HardFilter
from recallflow.models.store import Belief, Sensitivity
from recallflow.policy import ArmLimits
from recallflow.ports import RawHits, RecallPorts
from tests.fakes import InMemoryBeliefSearch, WordCounter, fake_belief

AS_OF = datetime(2026, 3, 1, tzinfo=UTC)
EMBEDDER = HashingEmbedder()


def _belief(belief_id: str, statement: str, subject: str, **fields: Any) -> Belief:
    return fake_belief(belief_id, statement, subject, AS_OF - timedelta(days=30), **fields)


BELIEFS = [
    _belief("b-deploy", "billing-api deploys to Fly.io every Tuesday.", "deploy-target"),
    _belief("b-tabs", "The user prefers tabs over spaces.", "indent", belief_type="preference"),
    _belief("b-role", "The user is the team's release manager.", "role", belief_type="user_model"),
    _belief("b-tz", "The user works from Lisbon.", "timezone", belief_type="user_model"),
]


@pytest.fixture
def ports() -> RecallPorts:
    return RecallPorts(
        belief_search=InMemoryBeliefSearch(BELIEFS, embedder=EMBEDDER),
        embedder=EMBEDDER,
        token_counter=WordCounter(),
        query_former=DeterministicQueryFormer(),
        injection_scanner=LayeredInjectionScanner(),
    )


@pytest.fixture
def flows() -> Iterator[dict[Moment, RecallFlow]]:
    # Arms inline, so the lineage's order is the traversal's, not the arms' finishing order.
    built = {m: RecallFlow(m, concurrent_arms=False) for m in Moment}
    yield built
    for flow in built.values():
        flow.close()


@pytest.fixture
def pooled() -> Iterator[dict[Moment, RecallFlow]]:
    # The arms in their thread pool, as a Memory runs them.
    built = {m: RecallFlow(m) for m in Moment}
    yield built
    for flow in built.values():
        flow.close()


def _inputs(flow: RecallFlow, moment: Moment, goal: str, ports: RecallPorts) -> dict[str, Any]:
    request = RecallRequest(
        tenant_id="t",
        principal_id="p1",
        as_of=AS_OF,
        known_as_of=AS_OF,
        moment=moment,
        session_id="s-1" if moment is not Moment.IN_TURN else None,
        working_state=WorkingState(goal=goal) if goal else WorkingState(),
    )
    return {
        "request": request,
        "trace_id": "tr-plan",
        "ports": ports,
        "policy": flow.policy,
        "dag_version": flow.dag_version,
    }


def _by_driver(flow: RecallFlow, inputs: dict[str, Any]) -> RecallResult:
    out = flow.driver.execute([RESULT_NODE], inputs=inputs)
    result: RecallResult = out[RESULT_NODE]
    lineage = flow.lineage.pop(flow.lineage.current_run())
    return result.model_copy(update={"trace": result.trace.model_copy(update={"lineage": lineage})})


def _comparable(result: RecallResult) -> tuple[str, dict[str, Any], list[tuple[str, bool]]]:
    trace = result.trace.model_dump(mode="json", exclude={"lineage", "experiment"})
    for arm in trace["arms"]:
        arm.pop("latency_ms")  # wall time: the one thing two runs cannot share
    lineage = [(r.node, r.ok) for r in result.trace.lineage]
    return result.block, trace, lineage


@pytest.mark.parametrize(
    ("moment", "goal", "extra"),
    [
        (Moment.IN_TURN, "Where does billing-api deploy?", {}),
        (Moment.IN_TURN, "", {}),
        (Moment.SESSION_SNAPSHOT, "", {}),
        (Moment.SESSION_SNAPSHOT, "Where does billing-api deploy?", {}),
        (Moment.SESSION_SNAPSHOT, "", {"session_spec": SessionSpec(kind=SessionKind.ASYNC)}),
        (Moment.CHILD_RUN, "release notes", {}),
    ],
)
def test_a_planned_run_is_the_drivers_run(
    flows: dict[Moment, RecallFlow],
    ports: RecallPorts,
    moment: Moment,
    goal: str,
    extra: dict[str, Any],
) -> None:
    flow = flows[moment]
    inputs = {**_inputs(flow, moment, goal, ports), **extra}
    expected = _comparable(_by_driver(flow, inputs))
    for _ in range(2):  # the plan is made on the first run and replayed on the second
        assert _comparable(flow.run(inputs)) == expected
    assert expected[2], "the lineage records every node run"


@pytest.mark.parametrize(
    ("moment", "goal"),
    [
        (Moment.IN_TURN, "Where does billing-api deploy?"),
        (Moment.SESSION_SNAPSHOT, ""),
        (Moment.SESSION_SNAPSHOT, "Where does billing-api deploy?"),
        (Moment.CHILD_RUN, "release notes"),
    ],
)
def test_with_the_arm_pool_a_planned_run_computes_what_the_driver_computes(
    pooled: dict[Moment, RecallFlow], ports: RecallPorts, moment: Moment, goal: str
) -> None:
    flow = pooled[moment]
    inputs = _inputs(flow, moment, goal, ports)
    block, trace, lineage = _comparable(_by_driver(flow, inputs))
    for _ in range(2):
        got = _comparable(flow.run(inputs))
        # The same block and trace, and the same nodes run (each once, none failed); the
        # order of the lineage is the order nodes finish, which the plan may change.
        assert got[:2] == (block, trace)
        assert sorted(got[2]) == sorted(lineage)
    assert len(set(lineage)) == len(lineage) and all(ok for _, ok in lineage)


_WAIT_S = 10.0  # a guard only: a passing run never waits for it


class _PreRankWaiting(InMemoryBeliefSearch):
    """The fake search, whose pre-rank answers only once ``started`` is set (or after a
    guard's time): it records whether anything else was started while it ran."""

    def __init__(self, started: threading.Event) -> None:
        super().__init__(BELIEFS, embedder=EMBEDDER)
        self.started = started
        self.overlapped: list[bool] = []

    def durable(self, f: HardFilter, q: DurableQuery, limits: ArmLimits) -> RawHits:
        self.overlapped.append(self.started.wait(_WAIT_S))
        return super().durable(f, q, limits)

    def lexical(self, f: HardFilter, texts: Sequence[str], limits: ArmLimits) -> RawHits:
        self.started.set()
        return super().lexical(f, texts, limits)


class _Marks:
    """Marked entities that say when they were read."""

    def __init__(self, read: threading.Event) -> None:
        self.read = read

    def marked_entities(
        self, tenant_id: str, principal_id: str, above: Sensitivity
    ) -> dict[str, Sensitivity]:
        self.read.set()
        return {}


def _open_waiting(
    flow: RecallFlow, ports: RecallPorts, goal: str, started: threading.Event, **more: Any
) -> tuple[_PreRankWaiting, RecallResult]:
    """A snapshot open for ``goal`` whose pre-rank waits until ``started`` is set."""
    search = _PreRankWaiting(started)
    inputs = _inputs(flow, Moment.SESSION_SNAPSHOT, goal, ports)
    inputs["ports"] = dataclasses.replace(ports, belief_search=search, **more)
    return search, flow.run(inputs)


def test_a_goal_opens_priming_arms_start_while_the_core_is_pre_ranked(
    pooled: dict[Moment, RecallFlow], ports: RecallPorts
) -> None:
    flow = pooled[Moment.SESSION_SNAPSHOT]
    search, result = _open_waiting(flow, ports, "Where does billing-api deploy?", threading.Event())
    # In the driver's order the core's chain waits for its pre-rank before any priming
    # arm is started: the pre-rank would have run alone.
    assert search.overlapped == [True]
    assert "b-deploy" in result.block  # the priming set still ranks the goal's belief


def test_a_snapshot_reads_the_marked_entities_while_the_core_is_pre_ranked(
    pooled: dict[Moment, RecallFlow], ports: RecallPorts
) -> None:
    read = threading.Event()
    flow = pooled[Moment.SESSION_SNAPSHOT]
    search, result = _open_waiting(flow, ports, "", read, entity_sensitivity=_Marks(read))
    assert search.overlapped == [True]
    assert "b-role" in result.block


def test_a_plan_is_made_per_set_of_optional_inputs(
    flows: dict[Moment, RecallFlow], ports: RecallPorts
) -> None:
    flow = flows[Moment.SESSION_SNAPSHOT]
    plain = _inputs(flow, Moment.SESSION_SNAPSHOT, "", ports)
    first = flow.run(plain)
    assert first.trace.snapshot is not None and first.trace.snapshot.kind is SessionKind.INTERACTIVE
    spec = SessionSpec(kind=SessionKind.ASYNC)
    second = flow.run({**plain, "session_spec": spec})
    assert second.trace.snapshot is not None and second.trace.snapshot.kind is SessionKind.ASYNC
    assert flow.run(plain).trace.snapshot == first.trace.snapshot


def test_a_missing_input_is_refused_as_the_driver_refuses_it(
    flows: dict[Moment, RecallFlow], ports: RecallPorts
) -> None:
    flow = flows[Moment.IN_TURN]
    inputs = _inputs(flow, Moment.IN_TURN, "billing-api", ports)
    del inputs["ports"]
    with pytest.raises(ValueError, match="ports"):
        flow.driver.execute([RESULT_NODE], inputs=inputs)
    with pytest.raises(ValueError, match="ports"):
        flow.run(inputs)


class _BrokenCounter(WordCounter):
    def count(self, text: str) -> int:
        raise RuntimeError("the tokenizer is gone")


def test_a_failing_node_fails_the_run_and_is_recorded_as_the_driver_records_it(
    flows: dict[Moment, RecallFlow], ports: RecallPorts
) -> None:
    flow = flows[Moment.SESSION_SNAPSHOT]
    inputs = _inputs(flow, Moment.SESSION_SNAPSHOT, "", ports)
    inputs["ports"] = dataclasses.replace(ports, token_counter=_BrokenCounter())
    records = []
    for run in (
        lambda: flow.driver.execute([RESULT_NODE], inputs=inputs),
        lambda: flow.run(inputs),
    ):
        with pytest.raises(RuntimeError, match="the tokenizer is gone"):
            run()
        lineage = flow.lineage.pop(flow.lineage.current_run())
        records.append([(r.node, r.ok, r.error) for r in lineage])
    assert records[0] == records[1]
    failed = [r for r in records[1] if not r[1]]
    assert failed and failed[0][2] == "RuntimeError: the tokenizer is gone"
