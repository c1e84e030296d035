"""The relevance floor binds with every shipped embedder (see "Relevance floor" in
docs/architecture.md).

Each embedder gets its own database on the session's server (a store holds one embedding
space), the demo memory, and the whole off-topic suite of ``benchmarks/offtopic.json``:
every off-topic or nonsense query must render an empty block, while on-topic questions
still find their belief. The calibration the floor read is in the trace and in the
policy version. e5 runs when its package is installed and is skipped, saying so, when not.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from recallflow import DEFAULT_POLICY, Memory, open_memory
from recallflow.adapters.embedders import embedder_from_name
from recallflow.adapters.postgres.bootstrap import scratch_database
from recallflow.cli import demo
from recallflow.core.calibration import CORPUS_VERSION, UNCALIBRATED
from recallflow.evaluation.offtopic import load_suite
from recallflow.models.request import RecallRequest, WorkingState
from tests.helpers import embedder_or_skip

SUITE = Path(__file__).resolve().parents[1] / "benchmarks" / "offtopic.json"

#: On-topic questions of the demo memory, each with the belief that answers it and the
#: project it is asked in.
ON_TOPIC = (
    ("Which editor does Ada use?", "b-user-editor", None),
    ("Where do crash reports of the mobile app go?", "b-mob-crash", "mobile-app"),
    ("How are money amounts stored in billing-api?", "b-bill-money", "billing-api"),
    ("What time zone does Ada work in?", "b-user-tz", None),
    ("Which feature flag service does the mobile app use?", "b-mob-flags", "mobile-app"),
)
#: Off-topic queries are asked in each project too, where its local beliefs compete.
PROJECTS = (None, "billing-api", "mobile-app")


def _load_demo(memory: Memory) -> None:
    memory.episodes.add_many(demo.demo_episodes())
    memory.beliefs.add_many(demo.demo_beliefs())
    memory.edges.add_many(demo.demo_edges())


@pytest.fixture(scope="module", params=["hashing", "minilm", "e5"])
def demo_memory(request: pytest.FixtureRequest, memory: Memory) -> Iterator[Memory]:
    """The demo memory in a database of its own, embedded by the parametrised embedder."""
    embedder = embedder_or_skip(str(request.param))
    with (
        scratch_database(memory.uri, f"recallflow_floor_{request.param}") as uri,
        open_memory(uri, embedder=embedder) as mem,
    ):
        _load_demo(mem)
        yield mem


def _recall(memory: Memory, goal: str, project: str | None = None) -> list[str]:
    result = memory.recall(
        RecallRequest(
            tenant_id=demo.TENANT,
            principal_id=demo.PRINCIPAL,
            working_state=WorkingState(goal=goal),
            project=project,
        ),
        persist_trace=False,
    )
    return list(result.rendered_ids)


def test_every_off_topic_and_nonsense_query_renders_an_empty_block(demo_memory: Memory) -> None:
    suite = load_suite(SUITE)
    assert len(suite.queries) >= 50
    rendered = {
        (q.text, project): _recall(demo_memory, q.text, project)
        for q in suite.queries
        for project in PROJECTS
    }
    leaks = {asked: ids for asked, ids in rendered.items() if ids}
    assert not leaks, f"{demo_memory.embedder.name}: {leaks}"


@pytest.mark.parametrize(("question", "belief_id", "project"), ON_TOPIC)
def test_an_on_topic_question_still_finds_its_belief(
    demo_memory: Memory, question: str, belief_id: str, project: str | None
) -> None:
    assert belief_id in _recall(demo_memory, question, project)


def test_the_calibration_is_in_the_trace_and_the_policy_version(demo_memory: Memory) -> None:
    calibration = demo_memory.calibration
    assert calibration.embedder == demo_memory.embedder.name
    assert calibration.corpus_version == CORPUS_VERSION
    result = demo_memory.recall(
        RecallRequest(
            tenant_id=demo.TENANT,
            principal_id=demo.PRINCIPAL,
            working_state=WorkingState(goal=ON_TOPIC[0][0]),
        ),
        persist_trace=False,
    )
    trace = result.trace
    assert trace.floor_inputs is not None
    assert trace.floor_inputs.calibration == calibration.version
    assert trace.retrieval_policy_version == DEFAULT_POLICY.with_calibration(calibration).version
    assert trace.retrieval_policy_version != DEFAULT_POLICY.version
    entry = next(e for e in trace.scored if e.belief_id == ON_TOPIC[0][1])
    assert entry.relevance is not None and entry.relevance.clears


def test_an_uncalibrated_embedder_warns_and_trusts_lexical_evidence_only(
    memory: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    with scratch_database(memory.uri, "recallflow_floor_uncalibrated") as uri:
        with caplog.at_level(logging.WARNING, logger="recallflow.memory"):
            mem = open_memory(uri, embedder=embedder_from_name("hashing"), calibrate=False)
        with mem:
            assert any("no calibration" in r.getMessage() for r in caplog.records)
            assert mem.calibration.corpus_version == UNCALIBRATED
            _load_demo(mem)
            assert "b-user-editor" in _recall(mem, "Which editor does Ada use?")
            assert _recall(mem, "quantum banana protocol") == []
            result = mem.recall(
                RecallRequest(
                    tenant_id=demo.TENANT,
                    principal_id=demo.PRINCIPAL,
                    working_state=WorkingState(goal="Which editor does Ada use?"),
                ),
                persist_trace=False,
            )
            assert all(
                e.relevance is None or e.relevance.standing is None for e in result.trace.scored
            )
