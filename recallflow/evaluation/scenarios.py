"""Scenario suites: what LoCoMo does not test, as JSON data files.

A scenario file holds a **store** (episodes, beliefs, edges; tenant filled in by the
harness, principal defaulting to ``p-main``) and **requests**, each with what its block
must and must not contain. Belief ids are unique across a file (all principals and
tenants), so an id in a block names exactly one row and the isolation audit is exact.
Every scenario gets its own tenant, ``<run tenant>-<scenario>``; a store item may name
``"tenant": "<label>"`` to live in a sibling tenant ``<run tenant>-<scenario>-<label>``.
A scenario's ``covers`` names the sections of docs/architecture.md whose rules it checks.

Checks per request (the section of docs/architecture.md in brackets):

* ``must_include`` / ``must_exclude``: belief ids that must / must not be rendered.
* ``relevant``: ids counted as relevant for block precision (default ``must_include``).
* ``expected_conflicts``: id groups that must be rendered together under one
  ``conflict_set_id`` ("Conflicts").
* ``provisional``: ids that, when rendered, must be marked provisional ("Lifecycle and
  history").
* ``blocked``: ids that, when rendered, must render as ``[BLOCKED]`` ("Trust boundary");
  ``must_not_contain``: strings that must not appear in the block bytes.
* ``expect_empty``: the block must have no items ("Relevance floor").
* ``transfer_valid``: transferred ids (rendered with an ``origin_project``) that are
  valid in the request's project — transfer precision's numerator ("Transfer across
  projects").
* ``measure_transfer_lift``: also recall with cross-project recall off; lift = must-include
  recall on − off.
* ``then``: writes made after the request's recall (and its checks), in order, so a later
  request sees their effect: ``reject`` (from this request's trace), ``cite``,
  ``supersede``, ``retract``, ``retire``, ``expire``, ``corroborate``, ``forget_belief``
  and ``forget`` (see "Feedback and corrections" in docs/architecture.md).

Metrics over all requests: must-include recall, must-exclude violations (must be 0),
block precision, transfer precision, transfer lift.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from recallflow.errors import RecallflowError
from recallflow.evaluation.metrics import mean
from recallflow.memory import Memory
from recallflow.models.corrections import RejectionKind
from recallflow.models.request import RecallRequest, Surface, WorkingState
from recallflow.models.result import RecallResult
from recallflow.models.store import BeliefDraft, BeliefEdge, EpisodeDraft

DEFAULT_PRINCIPAL = "p-main"
BLOCKED_TEXT = "[BLOCKED]"

#: ``(request, cross_project) -> result``: how the harness recalls (the switch may be absent).
RecallFn = Callable[[RecallRequest, bool], RecallResult]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StoreSpec(_Model):
    """Rows of a scenario store; tenant ids are filled in by the harness."""

    episodes: tuple[dict[str, Any], ...] = ()
    beliefs: tuple[dict[str, Any], ...] = ()
    edges: tuple[dict[str, Any], ...] = ()


class Action(_Model):
    """A write back into memory made after a request's recall, with that recall's trace."""

    op: Literal[
        "reject",
        "cite",
        "supersede",
        "retract",
        "retire",
        "expire",
        "corroborate",
        "forget_belief",
        "forget",
    ]
    belief: str | None = Field(default=None, description="The belief it is about.")
    kind: RejectionKind | None = Field(default=None, description="reject: the rejection kind.")
    replacement: dict[str, Any] | None = Field(
        default=None, description="reject (changed) and supersede: the new belief."
    )
    reason: str | None = None
    at: datetime | None = Field(default=None, description="expire: the world time it ends.")
    project: str | None = Field(default=None, description="corroborate: where it holds.")
    evidence: str | None = Field(default=None, description="corroborate: the episode.")
    principal_id: str = DEFAULT_PRINCIPAL

    @model_validator(mode="after")
    def _complete(self) -> Self:
        needs = {
            "reject": ("belief", "kind"),
            "cite": ("belief",),
            "supersede": ("belief", "replacement"),
            "retract": ("belief", "reason"),
            "retire": ("belief",),
            "expire": ("belief",),
            "corroborate": ("belief", "project", "evidence"),
            "forget_belief": ("belief",),
            "forget": (),
        }[self.op]
        missing = [f for f in needs if getattr(self, f) is None]
        if missing:
            raise ValueError(f"{self.op} needs {', '.join(missing)}")
        return self


class RequestSpec(_Model):
    """One request of a scenario and what its result must satisfy."""

    name: str
    principal_id: str = DEFAULT_PRINCIPAL
    working_state: WorkingState
    surface: Surface = Surface.DIRECT
    project: str | None = None
    as_of: datetime | None = None
    known_as_of: datetime | None = None
    max_items: int | None = None
    must_include: tuple[str, ...] = ()
    must_exclude: tuple[str, ...] = ()
    relevant: tuple[str, ...] | None = None
    expected_conflicts: tuple[tuple[str, ...], ...] = ()
    provisional: tuple[str, ...] = ()
    blocked: tuple[str, ...] = ()
    must_not_contain: tuple[str, ...] = ()
    expect_empty: bool = False
    transfer_valid: tuple[str, ...] = ()
    measure_transfer_lift: bool = False
    then: tuple[Action, ...] = ()

    @property
    def relevant_ids(self) -> tuple[str, ...]:
        return self.relevant if self.relevant is not None else self.must_include


class Scenario(_Model):
    """A scenario file."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,40}$")
    description: str
    covers: tuple[str, ...] = Field(
        min_length=1, description="The sections of docs/architecture.md whose rules it checks."
    )
    store: StoreSpec
    requests: tuple[RequestSpec, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> Self:
        ids = [str(b.get("id")) for b in self.store.beliefs]
        ids += [
            str(a.replacement.get("id"))
            for r in self.requests
            for a in r.then
            if a.replacement is not None
        ]
        if any(i == "None" for i in ids):
            raise ValueError(f"scenario {self.name}: every belief needs an id")
        if len(ids) != len(set(ids)):
            raise ValueError(f"scenario {self.name}: belief ids must be unique across the file")
        return self


def load_scenarios(directory: Path) -> list[Scenario]:
    """Every ``*.json`` scenario in ``directory``, by file name.

    :raises ValueError: a file that is not a scenario, naming the file.
    """
    scenarios = []
    for path in sorted(directory.glob("*.json")):
        try:
            scenarios.append(Scenario.model_validate_json(path.read_text(encoding="utf-8")))
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(part) for part in first["loc"])
            raise ValueError(f"{path.name}: {where}: {first['msg']}") from exc
    return scenarios


def scenario_tenant(run_tenant: str, scenario: Scenario, label: str | None = None) -> str:
    base = f"{run_tenant}-{scenario.name}"
    return base if label is None else f"{base}-{label}"


def _owned(row: dict[str, Any], run_tenant: str, scenario: Scenario) -> dict[str, Any]:
    data = dict(row)
    data["tenant_id"] = scenario_tenant(run_tenant, scenario, data.pop("tenant", None))
    data.setdefault("principal_id", DEFAULT_PRINCIPAL)
    return data


def load_store(memory: Memory, run_tenant: str, scenario: Scenario) -> None:
    """Write a scenario's store under its tenant(s)."""
    spec = scenario.store
    memory.episodes.add_many(
        EpisodeDraft.model_validate(_owned(e, run_tenant, scenario)) for e in spec.episodes
    )
    memory.beliefs.add_many(
        BeliefDraft.model_validate(_owned(b, run_tenant, scenario)) for b in spec.beliefs
    )
    memory.edges.add_many(
        BeliefEdge.model_validate(_owned(e, run_tenant, scenario)) for e in spec.edges
    )


def build_request(run_tenant: str, scenario: Scenario, spec: RequestSpec) -> RecallRequest:
    return RecallRequest(
        tenant_id=scenario_tenant(run_tenant, scenario),
        principal_id=spec.principal_id,
        working_state=spec.working_state,
        surface=spec.surface,
        project=spec.project,
        as_of=spec.as_of,
        known_as_of=spec.known_as_of,
        max_items=spec.max_items,
    )


class RequestOutcome(_Model):
    """What one scenario request produced and which checks failed."""

    scenario: str
    request: str
    rendered: tuple[str, ...]
    must_include_recall: float | None
    must_exclude_violations: int
    block_precision: float | None
    transferred: int
    transferred_valid: int
    transfer_lift: float | None = None
    failures: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.failures


def _recall_fraction(rendered: Sequence[str], wanted: Sequence[str]) -> float | None:
    return len(set(wanted).intersection(rendered)) / len(wanted) if wanted else None


def check(
    scenario: Scenario,
    spec: RequestSpec,
    result: RecallResult,
    off_result: RecallResult | None = None,
) -> RequestOutcome:
    """Score ``result`` against ``spec`` (and ``off_result``, cross-project off, for lift)."""
    rendered = result.rendered_ids
    items = {item.belief_id: item for item in result.items}
    failures: list[str] = []
    missing = [i for i in spec.must_include if i not in items]
    if missing:
        failures.append(f"missing must-include {missing}")
    violations = [i for i in spec.must_exclude if i in items]
    if violations:
        failures.append(f"rendered must-exclude {violations}")
    for group in spec.expected_conflicts:
        sets = {items[i].conflict_set_id if i in items else None for i in group}
        if len(sets) != 1 or None in sets:
            failures.append(f"conflict {list(group)} not surfaced as one conflict set")
    for i in spec.provisional:
        if i in items and not items[i].provisional:
            failures.append(f"{i} rendered without the provisional mark")
    for i in spec.blocked:
        if i in items and (items[i].text != BLOCKED_TEXT or not items[i].blocked):
            failures.append(f"{i} rendered unblocked")
    for text in spec.must_not_contain:
        if text in result.block:
            failures.append(f"block contains {text!r}")
    if spec.expect_empty and rendered:
        failures.append(f"expected an empty block, got {len(rendered)} items")
    relevant = set(spec.relevant_ids)
    precision = (
        len(relevant.intersection(rendered)) / len(rendered) if rendered and relevant else None
    )
    if spec.expect_empty and not relevant:
        precision = None
    transferred = [i.belief_id for i in result.items if i.origin_project is not None]
    valid = [i for i in transferred if i in spec.transfer_valid]
    include_recall = _recall_fraction(rendered, spec.must_include)
    lift: float | None = None
    if off_result is not None and include_recall is not None:
        off_recall = _recall_fraction(off_result.rendered_ids, spec.must_include)
        lift = include_recall - (off_recall or 0.0)
    return RequestOutcome(
        scenario=scenario.name,
        request=spec.name,
        rendered=rendered,
        must_include_recall=include_recall,
        must_exclude_violations=len(violations),
        block_precision=precision,
        transferred=len(transferred),
        transferred_valid=len(valid),
        transfer_lift=lift,
        failures=tuple(failures),
    )


class ScenarioSummary(_Model):
    """The scenario metrics of the report."""

    requests: int
    passed: int
    must_include_recall: float | None
    must_exclude_violations: int
    block_precision: float | None
    transfer_precision: float | None
    transfer_lift: float | None
    transfer_lift_note: str
    outcomes: tuple[RequestOutcome, ...]


def summarise_scenarios(
    outcomes: Sequence[RequestOutcome], *, lift_measured: bool, lift_note: str
) -> ScenarioSummary:
    recalls = [o.must_include_recall for o in outcomes if o.must_include_recall is not None]
    precisions = [o.block_precision for o in outcomes if o.block_precision is not None]
    transferred = sum(o.transferred for o in outcomes)
    lifts = [o.transfer_lift for o in outcomes if o.transfer_lift is not None]
    return ScenarioSummary(
        requests=len(outcomes),
        passed=sum(1 for o in outcomes if o.passed),
        must_include_recall=mean(recalls) if recalls else None,
        must_exclude_violations=sum(o.must_exclude_violations for o in outcomes),
        block_precision=mean(precisions) if precisions else None,
        transfer_precision=(
            sum(o.transferred_valid for o in outcomes) / transferred if transferred else None
        ),
        transfer_lift=mean(lifts) if lifts and lift_measured else None,
        transfer_lift_note=lift_note,
        outcomes=tuple(outcomes),
    )


def apply_action(
    memory: Memory, run_tenant: str, scenario: Scenario, result: RecallResult, action: Action
) -> None:
    """Make one ``then`` write of a request whose recall gave ``result``."""
    tenant = scenario_tenant(run_tenant, scenario)
    principal = action.principal_id
    belief = str(action.belief)
    replacement = (
        BeliefDraft.model_validate(_owned(action.replacement, run_tenant, scenario))
        if action.replacement is not None
        else None
    )
    if action.op == "reject" and action.kind is not None:
        memory.reject(
            tenant, principal, result.trace_id, belief, action.kind, replacement=replacement
        )
    elif action.op == "cite":
        memory.cite(tenant, principal, result.trace_id, [belief])
    elif action.op == "supersede" and replacement is not None:
        memory.supersede(belief, replacement)
    elif action.op == "retract":
        memory.retract(tenant, principal, belief, str(action.reason))
    elif action.op == "retire":
        memory.retire(tenant, principal, belief, action.reason)
    elif action.op == "expire":
        memory.expire(tenant, principal, belief, action.at)
    elif action.op == "corroborate":
        memory.corroborate(tenant, principal, belief, str(action.project), str(action.evidence))
    elif action.op == "forget_belief":
        memory.forget_belief(tenant, principal, belief)
    elif action.op == "forget":
        memory.forget(tenant, principal)


def run_scenario(
    memory: Memory,
    run_tenant: str,
    scenario: Scenario,
    recall: RecallFn,
    *,
    lift_supported: bool,
) -> list[RequestOutcome]:
    """Load one scenario's store and run and check each of its requests."""
    load_store(memory, run_tenant, scenario)
    outcomes: list[RequestOutcome] = []
    for spec in scenario.requests:
        request = build_request(run_tenant, scenario, spec)
        result = recall(request, True)
        off = recall(request, False) if spec.measure_transfer_lift and lift_supported else None
        outcome = check(scenario, spec, result, off)
        for action in spec.then:
            try:
                apply_action(memory, run_tenant, scenario, result, action)
            except RecallflowError as exc:
                failed = f"then {action.op} {action.belief or action.principal_id}: {exc}"
                outcome = outcome.model_copy(update={"failures": (*outcome.failures, failed)})
        outcomes.append(outcome)
    return outcomes
