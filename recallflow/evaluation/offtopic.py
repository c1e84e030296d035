"""The off-topic suite: questions the memory knows nothing about must get an empty block
(see "Relevance floor" in docs/architecture.md).

A suite file (``benchmarks/offtopic.json``) lists queries from domains none of the
memories touch — chemistry, tax law, database internals, sport rules, … — in varied
phrasings (questions, imperatives, keyword lists) plus nonsense strings. Each query runs
as an in-turn recall (``WorkingState(goal=query)``) against every *target*: the demo
principal (loaded under its own tenant of the run; asked outside any project and in each
of its projects, where its local beliefs compete) and every principal a dataset of the
run was ingested as (for LoCoMo: one per conversation). A recall passes when its block
has no items. The pass rate is a hard gate: a floor that lets unrelated memory through
on any of them fails the run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from recallflow.evaluation.gates import GateResult, GateStatus
from recallflow.evaluation.progress import bar
from recallflow.memory import Memory
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.result import RecallResult

#: The gate's bar: every off-topic recall must render an empty block.
REQUIRED_PASS_RATE = 1.0
_MAX_EXAMPLES = 5

#: ``request -> result``: how the suite recalls (audited by the runner).
RecallOne = Callable[[RecallRequest], RecallResult]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class OffTopicQuery(_Model):
    """One query no memory of the run should answer."""

    text: str = Field(min_length=1)
    domain: str = Field(min_length=1, description="What it is about ('nonsense' for noise).")


class OffTopicSuite(_Model):
    """A suite file."""

    name: str
    description: str
    queries: tuple[OffTopicQuery, ...] = Field(min_length=1)


class Target(_Model):
    """A principal the suite asks, and the world time it asks at (None: now)."""

    label: str = Field(description="'demo' or the dataset group key.")
    kind: str = Field(description="'demo' or the dataset's name.")
    tenant_id: str
    principal_id: str
    project: str | None = None
    as_of: datetime | None = None


class OffTopicFailure(_Model):
    """A recall that rendered something for an off-topic query."""

    target: str
    query: str
    rendered: tuple[str, ...]


class KindSummary(_Model):
    """The pass rate over one kind of target (the demo, or one dataset's principals)."""

    kind: str
    recalls: int
    passed: int

    @property
    def pass_rate(self) -> float:
        return self.passed / self.recalls if self.recalls else 0.0


class OffTopicReport(_Model):
    """What the suite measured."""

    status: str = Field(description="'ran' or 'skipped'.")
    message: str = ""
    queries: int = 0
    targets: tuple[str, ...] = ()
    kinds: tuple[KindSummary, ...] = ()
    items_rendered: int = 0
    failures: tuple[OffTopicFailure, ...] = ()

    @property
    def recalls(self) -> int:
        return sum(k.recalls for k in self.kinds)

    @property
    def passed(self) -> int:
        return sum(k.passed for k in self.kinds)

    @property
    def pass_rate(self) -> float:
        return self.passed / self.recalls if self.recalls else 0.0


def load_suite(path: Path) -> OffTopicSuite:
    """The suite in ``path`` (JSON)."""
    return OffTopicSuite.model_validate_json(path.read_text(encoding="utf-8"))


def load_demo(memory: Memory, tenant: str) -> list[Target]:
    """Write the demo memory under ``tenant``; its main principal is a target three times:
    outside any project and in each of its projects (where local beliefs compete too)."""
    from recallflow.cli import demo

    owned = {"tenant_id": tenant}
    memory.episodes.add_many(e.model_copy(update=owned) for e in demo.demo_episodes())
    memory.beliefs.add_many(b.model_copy(update=owned) for b in demo.demo_beliefs())
    memory.edges.add_many(e.model_copy(update=owned) for e in demo.demo_edges())
    return [
        Target(
            label="demo" if project is None else f"demo@{project}",
            kind="demo",
            tenant_id=tenant,
            principal_id=demo.PRINCIPAL,
            project=project,
        )
        for project in (None, demo.BILLING, demo.MOBILE)
    ]


def run_suite(
    suite: OffTopicSuite,
    targets: Sequence[Target],
    recall: RecallOne,
    *,
    progress: bool = True,
) -> OffTopicReport:
    """Ask every target every query; a recall passes when its block is empty."""
    kinds: dict[str, list[int]] = {}
    failures: list[OffTopicFailure] = []
    rendered_total = 0
    total = len(targets) * len(suite.queries)
    with bar(total=total, desc="off-topic", unit="q", enabled=progress) as progress_bar:
        for target in targets:
            counts = kinds.setdefault(target.kind, [0, 0])
            for query in suite.queries:
                result = recall(
                    RecallRequest(
                        tenant_id=target.tenant_id,
                        principal_id=target.principal_id,
                        working_state=WorkingState(goal=query.text),
                        project=target.project,
                        as_of=target.as_of,
                    )
                )
                counts[0] += 1
                if result.items:
                    rendered_total += len(result.items)
                    failures.append(
                        OffTopicFailure(
                            target=target.label, query=query.text, rendered=result.rendered_ids
                        )
                    )
                else:
                    counts[1] += 1
                progress_bar.update(1)
    return OffTopicReport(
        status="ran",
        queries=len(suite.queries),
        targets=tuple(t.label for t in targets),
        kinds=tuple(KindSummary(kind=k, recalls=v[0], passed=v[1]) for k, v in kinds.items()),
        items_rendered=rendered_total,
        failures=tuple(failures),
    )


def offtopic_gate(report: OffTopicReport) -> GateResult:
    """Pass when every off-topic recall rendered an empty block."""
    name = "off-topic floor"
    if report.status != "ran" or not report.recalls:
        detail = report.message or "no off-topic recall was made"
        return GateResult(name=name, status=GateStatus.NOT_BUILT, detail=detail)
    rate = report.pass_rate
    per_kind = ", ".join(f"{k.kind} {k.passed}/{k.recalls}" for k in report.kinds)
    detail = f"{report.passed}/{report.recalls} recalls rendered nothing ({per_kind})"
    if rate >= REQUIRED_PASS_RATE:
        return GateResult(name=name, status=GateStatus.PASS, detail=detail)
    examples = "; ".join(
        f"{f.target}: {f.query!r} -> {len(f.rendered)} items" for f in report.failures
    )
    shown = examples if len(report.failures) <= _MAX_EXAMPLES else examples[:600] + " …"
    return GateResult(name=name, status=GateStatus.FAIL, detail=f"{detail}; {shown}")
