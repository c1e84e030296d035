"""The harness runner: datasets, baselines, peers, scenarios and gates in one run.

:func:`run_eval` opens nothing itself: it takes an open :class:`~recallflow.memory.Memory`
(the CLI opens a throwaway embedded store), runs every dataset it is given through the
same steps — embed each text once, ingest each group as a principal, rank every case with
each baseline, the LangGraph peer and recallflow's in-turn recall — then the scenario
suites, then the gates, and returns an :class:`EvalReport`. Nothing in here knows LoCoMo:
a new :class:`~recallflow.evaluation.datasets.Dataset` plugs in unchanged.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

from recallflow.evaluation import peers
from recallflow.evaluation.baselines import Ranked, build_baselines
from recallflow.evaluation.datasets import (
    Dataset,
    Group,
    select_groups,
)
from recallflow.evaluation.durability import correction_durability
from recallflow.evaluation.gates import GateResult, RecallAudit
from recallflow.evaluation.ingest import as_of_after, ingest_group, principal_id
from recallflow.evaluation.mem0_peer import MEM0_LIMIT, mem0_available, rank_mem0
from recallflow.evaluation.offtopic import (
    OffTopicReport,
    OffTopicSuite,
    Target,
    load_demo,
    offtopic_gate,
    run_suite,
)
from recallflow.evaluation.progress import bar, iterate
from recallflow.evaluation.recall_adapter import RecallAccess, RecallFn, recall_access
from recallflow.evaluation.reports import (
    DatasetReport,
    EvalOptions,
    EvalReport,
    ScenarioReport,
    SystemTable,
)
from recallflow.evaluation.results import CaseOutcome, MetricRow, outcome, summarise
from recallflow.evaluation.scenarios import (
    RequestOutcome,
    Scenario,
    run_scenario,
    summarise_scenarios,
)
from recallflow.evaluation.sessions import SessionsReport, run_sessions
from recallflow.evaluation.vectors import VectorCache
from recallflow.memory import Memory
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.result import RecallResult

RECALLFLOW = "recallflow"
PEER_DEFAULT = "LangGraph PostgresStore (default)"
PEER_RELAXED = "LangGraph PostgresStore (relaxed_order)"
PEER_KEYS = "LangGraph PostgresStore (keys in query)"
PEER_MEM0 = "mem0 (pgvector, infer=False)"


class _Versions:
    def __init__(self) -> None:
        self.policy: set[str] = set()
        self.dag: set[str] = set()

    def see(self, result: RecallResult) -> None:
        self.policy.add(result.trace.retrieval_policy_version)
        self.dag.add(result.trace.dag_version)


def _tables(
    dataset: Dataset, outcomes: Sequence[CaseOutcome], systems: Sequence[tuple[str, str]]
) -> list[SystemTable]:
    splits = ["dev", "test", "all"]
    labels: list[tuple[str, tuple[int, ...]]] = [(c.name, (c.id,)) for c in dataset.categories]
    labels += list(dataset.aggregates.items())
    tables: list[SystemTable] = []
    for system, note in systems:
        mine = [o for o in outcomes if o.system == system]
        rows: dict[str, dict[str, MetricRow | None]] = {}
        for split in splits:
            in_split = [o for o in mine if split == "all" or o.split == split]
            if not in_split:
                continue
            rows[split] = {
                label: summarise(o for o in in_split if o.category in cats)
                for label, cats in labels
            }
        tables.append(SystemTable(system=system, note=note, rows=rows))
    return tables


def _rank_baselines(
    groups: Sequence[Group], vectors: VectorCache, progress: bool
) -> tuple[list[CaseOutcome], list[str]]:
    out: list[CaseOutcome] = []
    names: list[str] = []
    total = sum(len(g.cases) for g in groups)
    with bar(total=total, desc="baselines", unit="q", enabled=progress) as progress_bar:
        for group in groups:
            for retriever in build_baselines(group, vectors):
                if retriever.name not in names:
                    names.append(retriever.name)
                for case in group.cases:
                    ranked = retriever.rank(case)
                    out.append(
                        outcome(
                            system=retriever.name,
                            group=group.key,
                            split=group.split,
                            category=case.category,
                            case_id=case.id,
                            ranked=ranked.ids,
                            relevant=case.relevant,
                            ms=ranked.ms,
                        )
                    )
            progress_bar.update(len(group.cases))
    return out, names


def _rank_peer(
    memory: Memory, groups: Sequence[Group], vectors: VectorCache, progress: bool
) -> tuple[list[CaseOutcome], list[str], float]:
    out: list[CaseOutcome] = []
    with peers.peer_database(memory.uri) as uri:
        load_s = peers.load_peer(uri, groups, vectors, progress=progress)
        for system, relaxed, keys in (
            (PEER_DEFAULT, False, False),
            (PEER_RELAXED, True, False),
            (PEER_KEYS, True, True),
        ):
            ranked = peers.search_peer(
                uri, groups, vectors, relaxed=relaxed, progress=progress, keys=keys
            )
            out.extend(_peer_outcomes(system, groups, ranked))
    return out, [PEER_RELAXED, PEER_DEFAULT, PEER_KEYS], load_s


def _rank_mem0(
    memory: Memory, groups: Sequence[Group], vectors: VectorCache, progress: bool
) -> tuple[list[CaseOutcome], float]:
    with peers.peer_database(memory.uri) as uri:
        ranked, load_s = rank_mem0(uri, groups, vectors, progress=progress)
    return _peer_outcomes(PEER_MEM0, groups, ranked), load_s


def _peer_outcomes(
    system: str, groups: Sequence[Group], ranked: Mapping[str, Ranked]
) -> list[CaseOutcome]:
    """Every case's outcome for a peer, from the ids and milliseconds it ranked them in."""
    return [
        outcome(
            system=system,
            group=group.key,
            split=group.split,
            category=case.category,
            case_id=case.id,
            ranked=ranked[case.id].ids,
            relevant=case.relevant,
            ms=ranked[case.id].ms,
        )
        for group in groups
        for case in group.cases
    ]


def _rank_recallflow(
    groups: Sequence[Group],
    tenant: str,
    recall: RecallFn,
    audit: RecallAudit,
    versions: _Versions,
    progress: bool,
) -> list[CaseOutcome]:
    out: list[CaseOutcome] = []
    total = sum(len(g.cases) for g in groups)
    with bar(total=total, desc="recallflow", unit="q", enabled=progress) as progress_bar:
        for group in groups:
            prefix = f"{group.key}/"
            as_of = as_of_after(group)
            for case in group.cases:
                request = RecallRequest(
                    tenant_id=tenant,
                    principal_id=principal_id(group),
                    working_state=WorkingState(goal=case.query),
                    as_of=as_of,
                )
                started = time.perf_counter()
                result = recall(request, True)
                ms = (time.perf_counter() - started) * 1000.0
                audit.observe(request, result)
                versions.see(result)
                out.append(
                    outcome(
                        system=RECALLFLOW,
                        group=group.key,
                        split=group.split,
                        category=case.category,
                        case_id=case.id,
                        ranked=[i.removeprefix(prefix) for i in result.trace.ranked_ids],
                        relevant=case.relevant,
                        ms=ms,
                        rendered=[i.removeprefix(prefix) for i in result.rendered_ids],
                        floor_dropped=[
                            i.removeprefix(prefix) for i in result.trace.floor_dropped_ids
                        ],
                    )
                )
                progress_bar.update(1)
    return out


def run_dataset(
    memory: Memory,
    dataset: Dataset,
    *,
    tenant: str,
    vectors: VectorCache,
    recall: RecallFn,
    audit: RecallAudit,
    versions: _Versions,
    options: EvalOptions,
) -> DatasetReport:
    """Ingest and evaluate one dataset with every system."""
    timings: dict[str, float] = {}
    notes: list[str] = []
    groups = select_groups(dataset.groups(), split=options.split, limit=options.conversations)
    started = time.perf_counter()
    vectors.embed_corpus(
        [d.text for g in groups for d in g.documents],
        desc=f"{dataset.name}: embed",
        progress=options.progress,
    )
    timings["embed documents"] = time.perf_counter() - started

    started = time.perf_counter()
    for group in iterate(
        groups, desc=f"{dataset.name}: ingest", unit="group", enabled=options.progress
    ):
        ingest_group(memory, tenant, group, vectors)
    timings["ingest into recallflow"] = time.perf_counter() - started

    started = time.perf_counter()
    outcomes, baseline_names = _rank_baselines(groups, vectors, options.progress)
    timings["baselines"] = time.perf_counter() - started
    systems: list[tuple[str, str]] = []

    started = time.perf_counter()
    outcomes += _rank_recallflow(groups, tenant, recall, audit, versions, options.progress)
    timings["recallflow recall"] = time.perf_counter() - started
    systems.append((RECALLFLOW, "in-turn DAG via Memory.recall; ranked = trace.ranked_ids"))

    systems += [(name, "") for name in baseline_names]

    if options.skip_peers:
        notes.append("LangGraph PostgresStore peer skipped (--skip-peers)")
    elif (why := peers.peer_available()) is not None:
        notes.append(f"LangGraph PostgresStore peer not run: {why}")
    else:
        started = time.perf_counter()
        peer_outcomes, peer_names, load_s = _rank_peer(memory, groups, vectors, options.progress)
        outcomes += peer_outcomes
        timings["langgraph load"] = load_s
        timings["langgraph (load + three searches)"] = time.perf_counter() - started
        systems += [
            (peer_names[0], f"reported row: iterative scan on; limit {peers.PEER_LIMIT}, MRR@10"),
            (peer_names[1], f"as shipped (ef_search 40); limit {peers.PEER_LIMIT}, MRR@10"),
            (peer_names[2], f"relaxed_order, query + derived keys; limit {peers.PEER_LIMIT}"),
        ]
    if options.skip_peers:
        notes.append("mem0 peer skipped (--skip-peers)")
    elif (why := mem0_available()) is not None:
        notes.append(f"mem0 peer not run: {why}")
    else:
        started = time.perf_counter()
        mem0_outcomes, load_s = _rank_mem0(memory, groups, vectors, options.progress)
        outcomes += mem0_outcomes
        timings["mem0 load"] = load_s
        timings["mem0 (load + search)"] = time.perf_counter() - started
        systems.append((PEER_MEM0, f"hybrid semantic + keyword; top_k {MEM0_LIMIT}, MRR@10"))

    tables = _tables(dataset, outcomes, systems)
    for table in tables:
        if table.system in (PEER_DEFAULT, PEER_RELAXED, PEER_KEYS, PEER_MEM0):
            rows = table.rows.get("all", {})
            row = next((r for r in rows.values() if r is not None), None)
            if row is not None:
                overall = rows.get(list(dataset.aggregates)[-1]) or row
                notes.append(
                    f"{table.system}: returned {overall.mean_returned:.2f} of "
                    f"{peers.PEER_LIMIT} results per search on average"
                )
    splits: dict[str, tuple[str, ...]] = {}
    for group in groups:
        splits[group.split] = (*splits.get(group.split, ()), group.key)
    return DatasetReport(
        name=dataset.name,
        status="ran",
        groups=splits,
        cases=sum(len(g.cases) for g in groups),
        skipped_cases=sum(g.skipped_cases for g in groups),
        category_names={c.id: c.name for c in dataset.categories},
        aggregates=dict(dataset.aggregates),
        systems=tuple(tables),
        anchor=dataset.anchor,
        notes=tuple(notes),
        timings_s=timings,
    )


def run_scenarios(
    memory: Memory,
    scenarios: Sequence[Scenario],
    *,
    tenant: str,
    recall: RecallFn,
    access: RecallAccess,
    audit: RecallAudit,
    versions: _Versions,
    progress: bool,
) -> ScenarioReport:
    """Run every scenario (each in its own tenant) and summarise."""
    names = tuple(s.name for s in scenarios)

    def audited(request: RecallRequest, cross_project: bool) -> RecallResult:
        result = recall(request, cross_project)
        audit.observe(request, result)
        if cross_project:  # the lift's cross-project-off policy is a variant, not the policy
            versions.see(result)
        return result

    outcomes: list[RequestOutcome] = []
    for scenario in iterate(scenarios, desc="scenarios", unit="scenario", enabled=progress):
        outcomes += run_scenario(
            memory, tenant, scenario, audited, lift_supported=access.lift_supported
        )
    summary = summarise_scenarios(
        outcomes, lift_measured=access.lift_supported, lift_note=access.note
    )
    return ScenarioReport(status="ran", scenarios=names, summary=summary)


def dataset_targets(dataset: Dataset, tenant: str, options: EvalOptions) -> list[Target]:
    """The principals a dataset was ingested as, each asked at its questions' ``as_of``."""
    groups = select_groups(dataset.groups(), split=options.split, limit=options.conversations)
    return [
        Target(
            label=group.key,
            kind=dataset.name,
            tenant_id=tenant,
            principal_id=principal_id(group),
            as_of=as_of_after(group),
        )
        for group in groups
    ]


def run_offtopic(
    memory: Memory,
    suite: OffTopicSuite,
    targets: Sequence[Target],
    *,
    tenant: str,
    recall: RecallFn,
    audit: RecallAudit,
    versions: _Versions,
    progress: bool,
) -> OffTopicReport:
    """The off-topic suite over the demo principal (loaded under ``<tenant>-demo``) and
    ``targets``."""

    def audited(request: RecallRequest) -> RecallResult:
        result = recall(request, True)
        audit.observe(request, result)
        versions.see(result)
        return result

    demo = load_demo(memory, f"{tenant}-demo")
    return run_suite(suite, [*demo, *targets], audited, progress=progress)


def new_run_tenant() -> str:
    """A tenant id no earlier run used."""
    return f"eval-{secrets.token_hex(4)}"


def run_eval(
    memory: Memory,
    *,
    datasets: Sequence[Dataset] = (),
    skipped: Sequence[DatasetReport] = (),
    scenarios: Sequence[Scenario] | None = None,
    scenario_message: str = "",
    offtopic: OffTopicSuite | None = None,
    offtopic_message: str = "",
    options: EvalOptions | None = None,
    tenant: str | None = None,
) -> EvalReport:
    """Run the whole harness against an open store and return the report."""
    options = options or EvalOptions()
    tenant = tenant or new_run_tenant()
    started = time.perf_counter()
    recall, access = recall_access(memory)
    audit = RecallAudit()
    versions = _Versions()
    vectors = VectorCache(memory.embedder)
    reports = list(skipped)
    targets: list[Target] = []
    for dataset in datasets:
        targets += dataset_targets(dataset, tenant, options)
        reports.append(
            run_dataset(
                memory,
                dataset,
                tenant=tenant,
                vectors=vectors,
                recall=recall,
                audit=audit,
                versions=versions,
                options=options,
            )
        )
    if scenarios is None:
        scenario_report = ScenarioReport(status="skipped", message=scenario_message)
    else:
        scenario_report = run_scenarios(
            memory,
            scenarios,
            tenant=tenant,
            recall=recall,
            access=access,
            audit=audit,
            versions=versions,
            progress=options.progress,
        )

    if offtopic is None:
        offtopic_report = OffTopicReport(status="skipped", message=offtopic_message)
    else:
        offtopic_report = run_offtopic(
            memory,
            offtopic,
            targets,
            tenant=tenant,
            recall=recall,
            audit=audit,
            versions=versions,
            progress=options.progress,
        )

    def audited(request: RecallRequest) -> RecallResult:
        result = recall(request, True)
        audit.observe(request, result)
        return result

    durability = correction_durability(memory, tenant, audited)
    sessions: SessionsReport | None = None
    session_gates: list[GateResult] = []
    if not options.skip_sessions:
        first = next(iter(datasets), None)
        groups = (
            select_groups(first.groups(), split=options.split, limit=options.conversations)
            if first is not None
            else []
        )
        sessions, session_gate = run_sessions(
            memory,
            tenant,
            audit,
            dataset=first.name if first is not None else None,
            groups=groups,
            progress=options.progress,
        )
        session_gates.append(session_gate)
    gates = [
        audit.isolation(memory.pool),
        audit.faithfulness(memory.pool),
        durability,
        offtopic_gate(offtopic_report),
        *session_gates,
    ]
    return EvalReport(
        created_at=datetime.now(UTC),
        embedder=memory.embedder.name,
        run_tenant=tenant,
        retrieval_policy_versions=tuple(sorted(versions.policy)),
        dag_versions=tuple(sorted(versions.dag)),
        recall=access,
        datasets=tuple(reports),
        scenarios=scenario_report,
        offtopic=offtopic_report,
        sessions=sessions,
        gates=tuple(gates),
        degraded=audit.degraded(),
        duration_s=time.perf_counter() - started,
    )


def skipped_dataset(name: str, message: str) -> DatasetReport:
    """A dataset that could not be run (e.g. its file is absent)."""
    return DatasetReport(name=name, status="skipped", message=message)


def write_report(report: EvalReport, out: Path) -> tuple[Path, Path]:
    """Write ``eval-report.md`` and ``eval-report.json`` into ``out``."""
    from recallflow.evaluation.report import render_markdown

    out.mkdir(parents=True, exist_ok=True)
    md = out / "eval-report.md"
    js = out / "eval-report.json"
    md.write_text(render_markdown(report), encoding="utf-8")
    js.write_text(report.model_dump_json(indent=2), encoding="utf-8")
    return md, js
