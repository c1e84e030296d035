"""The evaluation report's data: what ``recallflow eval`` measured, as the runner builds it
and the Markdown renderer reads it (kept apart from both so neither imports the other)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from recallflow.evaluation.datasets import Anchor, SplitChoice
from recallflow.evaluation.gates import DegradedRecalls, GateResult, GateStatus
from recallflow.evaluation.offtopic import OffTopicReport
from recallflow.evaluation.recall_adapter import RecallAccess
from recallflow.evaluation.results import MetricRow
from recallflow.evaluation.scenarios import ScenarioSummary
from recallflow.evaluation.sessions import SessionsReport


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class EvalOptions(_Model):
    """What to run."""

    split: SplitChoice = "all"
    conversations: int | None = Field(default=None, ge=1, description="First N groups only.")
    skip_peers: bool = False
    skip_sessions: bool = False
    progress: bool = True


class SystemTable(_Model):
    """One system's metrics: split → row label (category or aggregate) → row."""

    system: str
    note: str = ""
    rows: dict[str, dict[str, MetricRow | None]]


class DatasetReport(_Model):
    """Everything measured on one dataset."""

    name: str
    status: Literal["ran", "skipped"]
    message: str = ""
    groups: dict[str, tuple[str, ...]] = {}
    cases: int = 0
    skipped_cases: int = 0
    category_names: dict[int, str] = {}
    aggregates: dict[str, tuple[int, ...]] = {}
    systems: tuple[SystemTable, ...] = ()
    anchor: Anchor | None = None
    notes: tuple[str, ...] = ()
    timings_s: dict[str, float] = {}


class ScenarioReport(_Model):
    status: Literal["ran", "skipped", "not built"]
    message: str = ""
    scenarios: tuple[str, ...] = ()
    summary: ScenarioSummary | None = None


class EvalReport(_Model):
    """The whole report; written as ``eval-report.json`` and rendered as Markdown."""

    created_at: datetime
    embedder: str
    run_tenant: str
    retrieval_policy_versions: tuple[str, ...]
    dag_versions: tuple[str, ...]
    recall: RecallAccess
    datasets: tuple[DatasetReport, ...]
    scenarios: ScenarioReport
    offtopic: OffTopicReport = OffTopicReport(status="skipped", message="not run")
    sessions: SessionsReport | None = None
    gates: tuple[GateResult, ...]
    degraded: DegradedRecalls | None = Field(
        default=None,
        description="The run's recalls that ran degraded (an arm failed or timed out, a"
        " stage fell back): their figures are below what the code gives on an idle store.",
    )
    duration_s: float

    @property
    def failed(self) -> bool:
        """True when any hard gate failed (the CLI then exits non-zero)."""
        return any(g.status is GateStatus.FAIL for g in self.gates)

    @property
    def unmeasured(self) -> tuple[str, ...]:
        """What this run was asked to measure and could not (a dataset or suite file
        missing): such a run must not pass for a measured one."""
        missing = [f"{d.name}: {d.message}" for d in self.datasets if d.status == "skipped"]
        if self.scenarios.status == "skipped":
            missing.append(f"scenario suites: {self.scenarios.message}")
        if self.offtopic.status == "skipped":
            missing.append(f"off-topic suite: {self.offtopic.message}")
        return tuple(missing)
