"""The evaluation harness end to end on a tiny built-in dataset (not LoCoMo), on the real
embedded PostgreSQL (the ``memory`` fixture): ingestion, baselines, recallflow's recall,
the scenario suites, the gates and the report. No wall-clock asserts.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from recallflow import Memory
from recallflow.cli.eval import DEFAULT_OFFTOPIC, DEFAULT_SCENARIOS, resolve
from recallflow.evaluation.datasets import (
    Case,
    Category,
    Document,
    Group,
    InMemoryDataset,
    Split,
    select_groups,
)
from recallflow.evaluation.gates import GateStatus, RecallAudit
from recallflow.evaluation.ingest import edges, ingest_group, principal_id
from recallflow.evaluation.reports import EvalOptions
from recallflow.evaluation.runner import run_eval, write_report
from recallflow.evaluation.scenarios import load_scenarios
from recallflow.evaluation.vectors import VectorCache
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.result import RecallResult

S1 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)
S2 = datetime(2024, 4, 1, 10, 0, tzinfo=UTC)


def _doc(doc_id: str, text: str, session: int, position: int) -> Document:
    return Document(
        id=doc_id,
        text=text,
        speaker=text.split(":")[0],
        episode_id=f"session-{session}",
        episode_time=S1 if session == 1 else S2,
        position=position,
    )


def _group(key: str, split: Split, names: tuple[str, str]) -> Group:
    a, b = names
    docs = (
        _doc("D1:1", f"{a}: I adopted a greyhound named Pepper.", 1, 0),
        _doc("D1:2", f"{b}: Lovely! I started learning the cello.", 1, 1),
        _doc("D1:3", f"{a}: Pepper loves running on the beach.", 1, 2),
        _doc("D2:1", f"{b}: My cello teacher lives in Lisbon.", 2, 3),
        _doc("D2:2", f"{a}: I am training for a marathon in October.", 2, 4),
        _doc("D2:3", f"{b}: Good luck with the marathon training!", 2, 5),
    )
    cases = (
        Case(
            id=f"{key}/q0", query="What breed is the greyhound dog?", relevant=("D1:1",), category=4
        ),
        Case(
            id=f"{key}/q1",
            query="Where does the cello teacher live?",
            relevant=("D2:1",),
            category=1,
        ),
        Case(id=f"{key}/q2", query="When is the October marathon?", relevant=("D2:2",), category=2),
        Case(id=f"{key}/q3", query="Who loves the beach?", relevant=("D1:3", "D1:1"), category=5),
    )
    return Group(key=key, split=split, documents=docs, cases=cases, skipped_cases=1)


def _dataset() -> InMemoryDataset:
    return InMemoryDataset(
        name="tiny",
        categories=(
            Category(id=4, name="single-hop"),
            Category(id=1, name="multi-hop"),
            Category(id=2, name="temporal"),
            Category(id=5, name="adversarial"),
        ),
        aggregates={"1–4": (1, 2, 4), "1–5": (1, 2, 4, 5)},
        group_list=(_group("g1", "dev", ("Ann", "Bo")), _group("g2", "test", ("Cy", "Di"))),
    )


def test_splits_are_selected_in_dataset_order() -> None:
    groups = _dataset().groups()
    assert [g.key for g in select_groups(groups, split="dev")] == ["g1"]
    assert [g.key for g in select_groups(groups, split="test")] == ["g2"]
    assert [g.key for g in select_groups(groups, limit=1)] == ["g1"]


def test_edges_stay_linear_in_the_number_of_documents() -> None:
    group = _group("g", "dev", ("Ann", "Bo"))
    links = edges("t", group)
    follows = [(e.src_id, e.dst_id) for e in links if e.relation.value == "follows"]
    same = [(e.src_id, e.dst_id) for e in links if e.relation.value == "same_episode"]
    assert follows == [
        ("g/D1:1", "g/D1:2"),
        ("g/D1:2", "g/D1:3"),
        ("g/D2:1", "g/D2:2"),
        ("g/D2:2", "g/D2:3"),
    ]
    assert same == [
        ("g/D1:1", "g/D1:2"),
        ("g/D1:1", "g/D1:3"),
        ("g/D2:1", "g/D2:2"),
        ("g/D2:1", "g/D2:3"),
    ]


def test_the_default_suites_are_found_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``recallflow eval`` run outside the checkout finds its scenario and off-topic suites
    in the repository root (docs/evaluation.md), instead of exiting 3 as if they were
    missing."""
    monkeypatch.chdir(tmp_path)
    assert resolve(DEFAULT_SCENARIOS).is_dir()
    assert resolve(DEFAULT_OFFTOPIC).is_file()
    assert resolve(DEFAULT_SCENARIOS) == Path(__file__).resolve().parents[1] / DEFAULT_SCENARIOS


def test_harness_runs_end_to_end_on_a_tiny_dataset(
    memory: Memory, tenant: str, tmp_path: Path
) -> None:
    scenarios = load_scenarios(resolve(DEFAULT_SCENARIOS))
    report = run_eval(
        memory,
        datasets=[_dataset()],
        scenarios=scenarios,
        options=EvalOptions(skip_peers=True, progress=False),
        tenant=tenant,
    )
    (tiny,) = report.datasets
    assert tiny.status == "ran"
    assert tiny.cases == 8
    assert tiny.skipped_cases == 2
    assert tiny.groups == {"dev": ("g1",), "test": ("g2",)}

    # every group became a principal with its beliefs, one episode per session
    stored = memory.beliefs.list(tenant, principal_id(_dataset().group_list[0]))
    assert sorted(b.id for b in stored) == sorted(f"g1/D{s}:{t}" for s in (1, 2) for t in (1, 2, 3))
    pepper = next(b for b in stored if b.id == "g1/D1:1")
    assert pepper.valid_from == S1
    assert pepper.source_episode_id == "g1/session-1"
    assert "pepper" in pepper.entities and "ann" not in pepper.entities

    systems = {t.system: t for t in tiny.systems}
    assert {"BM25", "dense", "BM25+dense RRF"} <= set(systems)
    bm25 = systems["BM25"].rows["all"]["1–4"]
    assert bm25 is not None and bm25.n == 6
    # BM25 ranks the one turn sharing the question's rare words first, in every case
    assert bm25.mrr == pytest.approx(1.0)
    assert bm25.r5 == pytest.approx(1.0)
    assert set(systems["BM25"].rows) == {"dev", "test", "all"}

    # recallflow ran through Memory.recall: its rows exist and the gates passed
    assert "recallflow" in systems
    rf = systems["recallflow"].rows["all"]["1–5"]
    assert rf is not None and rf.n == 8 and rf.block_size is not None
    gates = {g.name: g.status for g in report.gates}
    assert gates["isolation leaks = 0"] is GateStatus.PASS
    assert gates["trace faithfulness"] is GateStatus.PASS
    assert gates["prefix byte stability"] is GateStatus.PASS
    assert gates["correction durability"] is GateStatus.PASS
    assert not report.failed
    assert report.retrieval_policy_versions and report.dag_versions
    # an idle store: no recall lost an arm, and the report says it counted them
    assert report.degraded is not None and report.degraded.recalls > 0
    assert report.degraded.degraded == 0

    # scenarios: hard filters hold whatever the embedder
    summary = report.scenarios.summary
    assert summary is not None
    assert summary.requests == sum(len(s.requests) for s in scenarios)
    hard = [
        o for o in summary.outcomes if o.scenario in {"isolation", "sensitivity", "supersession"}
    ]
    assert hard and all(o.must_exclude_violations == 0 for o in hard)

    # sessions: the scripted ones, and each group as a session with its questions as turns
    sessions = report.sessions
    assert sessions is not None and len(sessions.scripted) == 3
    assert all(s.turns >= 20 and s.corrections_expected > 0 for s in sessions.scripted)
    assert [g.group for g in sessions.groups] == ["g1", "g2"]
    assert [g.turns for g in sessions.groups] == [len(g.cases) for g in _dataset().group_list]

    md, js = write_report(report, tmp_path)
    text = md.read_text()
    assert "## Hard gates" in text and "retrieval_policy_version" in text
    assert "DAG version" in text and "## tiny" in text and "## Sessions" in text
    assert f"Degraded recalls: 0 of {report.degraded.recalls}" in text
    assert json.loads(js.read_text())["datasets"][0]["name"] == "tiny"


def _recalled_in_one_of_two(
    memory: Memory, tenant: str, name: str, other_name: str
) -> tuple[RecallRequest, RecallResult]:
    """Two groups' principals in one tenant, and a recall of the first."""
    group = _group(name, "dev", ("Ann", "Bo"))
    other = _group(other_name, "dev", ("Cy", "Di"))
    vectors = VectorCache(memory.embedder)
    vectors.embed_corpus([d.text for d in (*group.documents, *other.documents)], progress=False)
    ingest_group(memory, tenant, group, vectors)
    ingest_group(memory, tenant, other, vectors)
    request = RecallRequest(
        tenant_id=tenant,
        principal_id=principal_id(group),
        working_state=WorkingState(goal="Where does the cello teacher live?"),
    )
    return request, memory.recall(request)


def test_gates_fail_on_a_tampered_block_and_a_foreign_id(memory: Memory, tenant: str) -> None:
    request, result = _recalled_in_one_of_two(memory, tenant, "gx", "gy")
    assert hashlib.sha256(result.block.encode()).hexdigest() == result.trace.rendered_sha256

    audit = RecallAudit()
    audit.observe(request, result)
    assert audit.faithfulness().status is GateStatus.PASS
    assert audit.isolation(memory.pool).status is GateStatus.PASS

    tampered = result.model_copy(update={"block": result.block + " "})
    leaked = result.model_copy(
        update={"trace": result.trace.model_copy(update={"ranked_ids": ("gy/D1:1",)})}
    )
    audit.observe(request, tampered)
    audit.observe(request, leaked)
    assert audit.faithfulness().status is GateStatus.FAIL
    isolation = audit.isolation(memory.pool)
    assert isolation.status is GateStatus.FAIL and "gy/D1:1" in isolation.detail
    assert RecallAudit().faithfulness().status is GateStatus.NOT_BUILT


def test_langgraph_peer_runs_on_the_same_server(memory: Memory) -> None:
    from recallflow.evaluation import peers

    if peers.peer_available() is not None:
        pytest.skip("langgraph-checkpoint-postgres is not installed")
    groups = [_group("p1", "dev", ("Ann", "Bo")), _group("p2", "dev", ("Cy", "Di"))]
    vectors = VectorCache(memory.embedder)
    vectors.embed_corpus([d.text for g in groups for d in g.documents], progress=False)
    with peers.peer_database(memory.uri) as uri:
        peers.load_peer(uri, groups, vectors, progress=False)
        ranked = peers.search_peer(uri, groups, vectors, relaxed=True, progress=False)
    assert set(ranked) == {c.id for g in groups for c in g.cases}
    # results stay in the group's namespace
    assert all(set(r.ids) <= {d.id for d in groups[0].documents} for r in ranked.values())
    assert all(0 < len(r.ids) <= peers.PEER_LIMIT for r in ranked.values())


def test_mem0_peer_runs_offline_on_the_same_server(memory: Memory) -> None:
    from recallflow.evaluation.mem0_peer import MEM0_LIMIT, mem0_available, rank_mem0

    if mem0_available() is not None:
        pytest.skip("mem0ai is not installed")
    groups = [_group("m1", "dev", ("Ann", "Bo")), _group("m2", "dev", ("Cy", "Di"))]
    vectors = VectorCache(memory.embedder)
    vectors.embed_corpus([d.text for g in groups for d in g.documents], progress=False)
    from recallflow.evaluation import peers

    with peers.peer_database(memory.uri) as uri:
        ranked, _ = rank_mem0(uri, groups, vectors, progress=False)
    assert set(ranked) == {c.id for g in groups for c in g.cases}
    # each user's memories only, by the ids they were stored with
    assert all(set(r.ids) <= {d.id for d in groups[0].documents} for r in ranked.values())
    assert all(0 < len(r.ids) <= MEM0_LIMIT for r in ranked.values())


def _suite(tmp_path: Path, *queries: str) -> Path:
    path = tmp_path / "offtopic.json"
    suite = {
        "name": "t",
        "description": "d",
        "queries": [{"text": q, "domain": "test"} for q in queries],
    }
    path.write_text(json.dumps(suite))
    return path


def test_the_off_topic_gate_fails_when_a_block_is_not_empty(
    memory: Memory, tenant: str, tmp_path: Path
) -> None:
    from recallflow.evaluation.offtopic import load_demo, load_suite, offtopic_gate, run_suite

    targets = load_demo(memory, tenant)
    assert {t.project for t in targets} == {None, "billing-api", "mobile-app"}

    def recall(request: RecallRequest) -> RecallResult:
        return memory.recall(request, persist_trace=False)

    quiet = run_suite(
        load_suite(_suite(tmp_path, "quantum banana protocol")), targets, recall, progress=False
    )
    assert quiet.pass_rate == 1.0 and offtopic_gate(quiet).status is GateStatus.PASS
    # A question the demo memory answers is not off-topic: the gate must catch it.
    leaky = run_suite(
        load_suite(_suite(tmp_path, "Which editor does Ada use?")), targets, recall, progress=False
    )
    gate = offtopic_gate(leaky)
    assert gate.status is GateStatus.FAIL and "Which editor does Ada use?" in gate.detail
    assert leaky.failures and all("b-user-editor" in f.rendered for f in leaky.failures)


def test_a_run_that_could_not_measure_its_data_set_says_so_and_fails(
    memory: Memory, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from recallflow.cli.args import EXIT_UNMEASURED
    from recallflow.cli.main import main

    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    code = main(
        [
            "eval",
            "--dsn",
            memory.uri,
            "--embedder",
            memory.embedder.name.split("-")[0],
            "--locomo",
            str(tmp_path / "absent" / "locomo10.json"),
            "--scenarios",
            str(scenarios),
            "--offtopic",
            str(_suite(tmp_path, "purple elephant syntax")),
            "--skip-peers",
            "--skip-sessions",
            "--no-progress",
            "--out",
            str(tmp_path / "out"),
        ]
    )
    out, err = capsys.readouterr()
    assert code == EXIT_UNMEASURED != 0
    assert "NOT MEASURED" in err and "LoCoMo" in err
    assert "LoCoMo: NOT MEASURED" in out
    assert "gates passed" not in out


def test_the_isolation_gate_excuses_a_forgotten_principal_only_for_what_it_saw_before(
    memory: Memory, tenant: str
) -> None:
    """Once a principal is forgotten, its earlier recalls' ids are gone from the store by
    right; an id shown to it after the erasure that is not its own is a leak, and used to
    pass as erased because the principal had ever been erased."""
    request, result = _recalled_in_one_of_two(memory, tenant, "gz", "gw")
    audit = RecallAudit()
    audit.observe(request, result)
    memory.forget(tenant, request.principal_id)
    isolation = audit.isolation(memory.pool)
    assert isolation.status is GateStatus.PASS and "erased since" in isolation.detail

    foreign = "gw-belief"
    leaked = result.model_copy(
        update={"trace": result.trace.model_copy(update={"ranked_ids": (foreign,)})}
    )
    audit.observe(request, leaked)
    isolation = audit.isolation(memory.pool)
    assert isolation.status is GateStatus.FAIL and foreign in isolation.detail


def test_a_failed_resume_in_another_process_says_why_in_the_gate() -> None:
    """The byte-stability gate names what the separate process did when it did not
    confirm a prefix (it failed, or read other bytes), not only that it did not."""
    from recallflow.evaluation.sessions import ScriptedSession, gate
    from recallflow.models.session import SessionKind

    def session(kind: SessionKind, note: str | None) -> ScriptedSession:
        return ScriptedSession(
            kind=kind,
            session_id=f"s-{kind.value}",
            prefix_sha256="a" * 64,
            turns=24,
            snapshot_items=3,
            prefix_stable_turns=24,
            resumed_identical=True,
            other_process_identical=note is None,
            other_process_note=note,
            corrections_expected=1,
            corrections_rendered=1,
            correction_mismatches=(),
            prefix_tokens=10,
            in_turn_tokens=10,
            reinject_tokens=10,
            reinject_cached_tokens=0,
            relevant=1,
            misses=0,
        )

    kinds = list(SessionKind)
    failed = gate([session(kinds[0], "the resuming process exited 1: ValueError: no model")])
    assert failed.status is GateStatus.FAIL
    assert "exited 1: ValueError: no model" in failed.detail
    assert gate([session(k, None) for k in kinds]).status is GateStatus.PASS
