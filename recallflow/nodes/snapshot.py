"""Stage: the session snapshot (see "Sessions" and "Moments" in docs/architecture.md).

The snapshot moments (session open and child-run start) run the in-turn DAG's node
modules with this module laid over them. What differs:

- the hard filter is the shared one: it admits the moment's own states
  (``admissible_states[session_snapshot]`` at session open, ``[child_run]`` at a child
  run's start), which by default leave provisional beliefs out of every frozen prefix.
- the *core*: durable user-model and preference beliefs found with no query
  (``durable_hits``, an arm that needs none), scored by the ``core`` weight vector with a
  zero match, resolved like any candidates, and kept by the score floor alone — there is
  no query, so there is no relevance to clear; the score floor still drops weak, inferred
  or transferred-and-uncorroborated beliefs.
- the *priming set* is the ordinary query-driven recall of the opening goal (the shared
  arms, fusion, scoring, resolution and floor); with no goal it is empty.
- ``budgeted_items``: the two parts composed by the session kind's budget rule
  (:func:`recallflow.core.snapshot.compose`).
- ``recall_trace``: the shared trace over both parts, plus the snapshot record (kind,
  budget, composition, the prefix's sha256 and each frozen belief's fingerprint).

Trust, rendering and the result are the shared nodes.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from hamilton.function_modifiers import tag

from recallflow.core.calibration import CalibrationRef
from recallflow.core.corrections import fingerprint
from recallflow.core.redaction import NO_MARKED_NAMES, NameRedaction
from recallflow.core.render import CLOSE_TAG, OPEN_TAG, unit_lines
from recallflow.core.scoring import rank_key
from recallflow.core.snapshot import Composition, compose, session_prefix
from recallflow.models.request import Moment, RecallRequest
from recallflow.models.result import (
    Arm,
    ArmResult,
    FusedCandidate,
    RecallQuery,
    RecallTrace,
    RelevanceEvidence,
    SnapshotRecord,
)
from recallflow.models.session import (
    BeliefVersion,
    SessionKind,
    SessionSpec,
    SnapshotBelief,
    SnapshotPart,
)
from recallflow.models.stages import (
    BudgetOutcome,
    CandidateLoad,
    ConflictGroup,
    CorrectionOutcome,
    EvidenceSet,
    FloorOutcome,
    HardFilter,
    RenderedBlock,
    RenderUnit,
    Resolved,
    ScoredCandidate,
    TrustOutcome,
)
from recallflow.models.store import Belief, BeliefType
from recallflow.nodes import resolution, scoring, trace, trust
from recallflow.nodes.arms.runner import run_durable
from recallflow.policy import Budget, RetrievalPolicy
from recallflow.ports import BeliefSearch, InjectionScanner, TokenCounter

#: The session kind a snapshot moment serves when no session spec is given.
DEFAULT_KIND = {
    Moment.SESSION_SNAPSHOT: SessionKind.INTERACTIVE,
    Moment.CHILD_RUN: SessionKind.CHILD,
}


@tag(stage="snapshot")
def snapshot_spec(request: RecallRequest, session_spec: SessionSpec | None = None) -> SessionSpec:
    """The session this snapshot serves: as given, else the moment's default kind."""
    if session_spec is not None:
        return session_spec
    return SessionSpec(kind=DEFAULT_KIND.get(request.moment, SessionKind.INTERACTIVE))


@tag(stage="budget")
def snapshot_budget(
    snapshot_spec: SessionSpec, request: RecallRequest, policy: RetrievalPolicy
) -> Budget:
    """The kind's item and token caps (a request's own caps win), the token cap bounded by
    the window share; a child run's caps never exceed its parent's (a child never sees
    more than its parent may)."""
    budget = policy.sessions.budget(snapshot_spec.kind)
    items = request.max_items if request.max_items is not None else budget.max_items
    tokens = request.max_tokens if request.max_tokens is not None else budget.max_tokens
    if snapshot_spec.parent_max_items is not None:
        items = min(items, snapshot_spec.parent_max_items)
    if snapshot_spec.parent_max_tokens is not None:
        tokens = min(tokens, snapshot_spec.parent_max_tokens)
    ceiling = int(request.model_window * budget.window_share)
    return Budget(
        max_items=items, max_tokens=min(tokens, ceiling), window_share=budget.window_share
    )


@tag(stage="arm")
def durable_hits(
    hard_filter: HardFilter,
    belief_search: BeliefSearch,
    asked_request: RecallRequest,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Durable beliefs (the policy's durable types) that pass the filter: no query needed.
    The search's pre-rank only bounds the work; the core ranking orders the result."""
    return run_durable(
        Arm.DURABLE,
        policy.sessions.durable_types,
        asked_request.project,
        hard_filter,
        belief_search,
        policy,
    )


@tag(stage="snapshot")
def core_beliefs(
    durable_hits: ArmResult,
    hard_filter: HardFilter,
    belief_search: BeliefSearch,
    request: RecallRequest,
) -> dict[str, Belief]:
    """The durable candidates (and their conflict peers) loaded, by id: in the session's
    project as named, as any candidates are (even one the surface withholds), so a belief
    rejected as "not here" there is not."""
    ids = [h.belief_id for h in durable_hits.hits]
    loaded = belief_search.load(hard_filter, ids, request.project)
    return {b.id: b for b in sorted(loaded, key=lambda b: b.id)}


@tag(stage="snapshot")
def core_candidates(
    core_beliefs: dict[str, Belief],
    asked_request: RecallRequest,
    hard_filter: HardFilter,
    policy: RetrievalPolicy,
    best_fused_score: float,
) -> tuple[ScoredCandidate, ...]:
    """The durable candidates scored by the core weight vector with no match (whatever
    the session kind: the core is the snapshot's, a child's included)."""
    as_snapshot = asked_request.replaced(moment=Moment.SESSION_SNAPSHOT)
    # No arm ranked them: each gets a zero match, built here without validating again.
    unmatched = tuple(
        FusedCandidate.trusted(belief_id=belief_id, rrf_score=0.0, arm_ranks={})
        for belief_id in core_beliefs
    )
    scored: tuple[ScoredCandidate, ...] = scoring.scored_candidates__hand_weighted(
        unmatched, core_beliefs, as_snapshot, hard_filter, policy, best_fused_score, {}, ()
    )
    return scored


@tag(stage="snapshot")
def core_resolved(
    core_candidates: tuple[ScoredCandidate, ...],
    hard_filter: HardFilter,
    policy: RetrievalPolicy,
    asked_request: RecallRequest,
) -> tuple[Resolved, ...]:
    """The core's conflicts grouped and local overrides applied, in rank order."""
    resolved: tuple[Resolved, ...] = resolution.resolved_candidates(
        core_candidates, hard_filter, policy, asked_request
    )
    return resolved


@tag(stage="floor")
def core_floor(core_resolved: tuple[Resolved, ...], policy: RetrievalPolicy) -> FloorOutcome:
    """The core units whose score clears the score floor (a conflict by its best member)."""
    kept: list[Resolved] = []
    dropped: list[str] = []
    for unit in core_resolved:
        if unit.score >= policy.floor.score:
            kept.append(unit)
        else:
            dropped.extend(_ids(unit))
    return FloorOutcome(kept=tuple(kept), dropped_ids=tuple(dropped))


@tag(stage="trust")
def core_trusted(
    core_floor: FloorOutcome,
    injection_scanner: InjectionScanner,
    snapshot_budget: Budget,
    hard_filter: HardFilter,
    policy: RetrievalPolicy,
    marked_names: NameRedaction = NO_MARKED_NAMES,
) -> TrustOutcome:
    """The core's units through the shared trust boundary; only the first ``max_items``
    units can ever be rendered, so only they are scanned."""
    head = replace(core_floor, kept=core_floor.kept[: snapshot_budget.max_items])
    trusted: TrustOutcome = trust.trusted_items(
        head, injection_scanner, hard_filter, policy, marked_names
    )
    return trusted


@tag(stage="budget")
def snapshot_composition(
    core_trusted: TrustOutcome,
    trusted_items: TrustOutcome,
    snapshot_budget: Budget,
    token_counter: TokenCounter,
    policy: RetrievalPolicy,
) -> Composition:
    """The core and the priming set composed by the budget rule."""

    def cost(unit: RenderUnit) -> int:
        lines = unit_lines(unit.items, unit.conflict_set_id)
        return token_counter.count("\n".join(lines) + "\n")

    return compose(
        core_trusted.units,
        trusted_items.units,
        max_items=snapshot_budget.max_items,
        max_tokens=snapshot_budget.max_tokens,
        core_reserved=policy.sessions.core_reserved(snapshot_budget.max_items),
        cost=cost,
        frame_tokens=token_counter.count(f"{OPEN_TAG}\n{CLOSE_TAG}\n"),
    )


@tag(stage="budget")
def budgeted_items(snapshot_composition: Composition, snapshot_budget: Budget) -> BudgetOutcome:
    """The composed units as the shared renderer takes them, core first."""
    return BudgetOutcome(
        units=snapshot_composition.units,
        dropped_ids=snapshot_composition.dropped_ids,
        max_items=snapshot_budget.max_items,
        max_tokens=snapshot_budget.max_tokens,
        tokens=snapshot_composition.tokens,
    )


def _ids(unit: Resolved) -> tuple[str, ...]:
    if isinstance(unit, ConflictGroup):
        return tuple(m.belief_id for m in unit.members)
    return (unit.belief_id,)


def _merged_units(
    first: tuple[Resolved, ...], second: tuple[Resolved, ...]
) -> tuple[Resolved, ...]:
    seen: set[str] = set()
    out: list[Resolved] = []
    for unit in (*first, *second):
        ids = _ids(unit)
        if seen.issuperset(ids):
            continue
        seen.update(ids)
        out.append(unit)
    return tuple(out)


def _version(belief: Belief) -> BeliefVersion:
    # The row's own fields, of the model's types already (the store validated them).
    return BeliefVersion.trusted(
        state=belief.state.value,
        superseded_by=belief.superseded_by,
        valid_to=belief.valid_to,
        retracted_at=belief.retracted_at,
        flagged=belief.flagged,
        conflict_set_id=belief.conflict_set_id,
        statement=belief.statement,
        sensitivity=int(belief.sensitivity),
    )


@tag(stage="trace")
def recall_trace(
    trace_id: str,
    dag_version: str,
    request: RecallRequest,
    request_digest: str,
    hard_filter: HardFilter,
    recall_queries: tuple[RecallQuery, ...],
    arm_results: tuple[ArmResult, ...],
    durable_hits: ArmResult,
    profile_hits: ArmResult,
    profile_types: tuple[BeliefType, ...],
    fused_candidates: tuple[FusedCandidate, ...],
    scored_candidates: tuple[ScoredCandidate, ...],
    core_candidates: tuple[ScoredCandidate, ...],
    resolved_candidates: tuple[Resolved, ...],
    core_resolved: tuple[Resolved, ...],
    above_floor: FloorOutcome,
    core_floor: FloorOutcome,
    trusted_items: TrustOutcome,
    core_trusted: TrustOutcome,
    budgeted_items: BudgetOutcome,
    snapshot_composition: Composition,
    snapshot_spec: SessionSpec,
    snapshot_budget: Budget,
    rendered_block: RenderedBlock,
    policy: RetrievalPolicy,
    told_corrections: CorrectionOutcome,
    candidate_beliefs: dict[str, Belief],
    core_beliefs: dict[str, Belief],
    candidate_relevance: dict[str, RelevanceEvidence],
    calibration_ref: CalibrationRef,
    candidate_load: CandidateLoad,
    candidate_evidence: EvidenceSet,
    goal_parts: int,
) -> RecallTrace:
    """The shared trace over both parts, with the snapshot record, built from the objects
    the block was rendered from."""
    by_id = {c.belief_id: c for c in (*core_candidates, *scored_candidates)}
    scored = tuple(sorted(by_id.values(), key=rank_key))
    kept = _merged_units(core_floor.kept, above_floor.kept)
    core_ids = {i for u in core_floor.kept for i in _ids(u)}
    kept_ids = {i for u in kept for i in _ids(u)}
    dropped = dict.fromkeys(
        i for i in (*core_floor.dropped_ids, *above_floor.dropped_ids) if i not in kept_ids
    )
    units: dict[tuple[str, ...], RenderUnit] = {}
    for unit in (*core_trusted.units, *trusted_items.units):
        units.setdefault(unit.ids, unit)
    trusted = TrustOutcome(
        units=tuple(units.values()),
        blocked_ids=tuple(dict.fromkeys((*core_trusted.blocked_ids, *trusted_items.blocked_ids))),
        blocked_families={**trusted_items.blocked_families, **core_trusted.blocked_families},
        redacted_ids=tuple(
            dict.fromkeys((*core_trusted.redacted_ids, *trusted_items.redacted_ids))
        ),
        scanner_version=trusted_items.scanner_version,
    )
    beliefs = {**candidate_beliefs, **core_beliefs}
    shared: RecallTrace = trace.recall_trace(
        trace_id=trace_id,
        dag_version=dag_version,
        request=request,
        request_digest=request_digest,
        hard_filter=hard_filter,
        recall_queries=recall_queries,
        arm_results=(*arm_results, durable_hits),
        profile_hits=profile_hits,
        profile_types=profile_types,
        fused_candidates=fused_candidates,
        scored_candidates=scored,
        resolved_candidates=_merged_units(core_resolved, resolved_candidates),
        above_floor=FloorOutcome(
            kept=kept,
            dropped_ids=tuple(dropped),
            bridged=above_floor.bridged,
            # What the core holds was kept as the core is, not as the priming set's.
            profiled=tuple(i for i in above_floor.profiled if i not in core_ids),
        ),
        trusted_items=trusted,
        budgeted_items=budgeted_items,
        rendered_block=rendered_block,
        policy=policy,
        told_corrections=told_corrections,
        candidate_beliefs=beliefs,
        candidate_load=candidate_load,
        candidate_evidence=candidate_evidence,
        candidate_relevance=candidate_relevance,
        calibration_ref=calibration_ref,
        goal_parts=goal_parts,
    )
    frozen: list[SnapshotBelief] = []
    for part, part_units in (
        (SnapshotPart.CORE, snapshot_composition.core),
        (SnapshotPart.PRIMING, snapshot_composition.priming),
    ):
        for unit in part_units:
            for item in unit.items:
                belief = beliefs[item.belief_id]
                frozen.append(
                    SnapshotBelief.trusted(
                        belief_id=belief.id,
                        part=part,
                        belief_type=belief.belief_type.value,
                        fingerprint=fingerprint(
                            belief,
                            as_of=hard_filter.as_of,
                            ceiling=hard_filter.sensitivity_ceiling,
                        ),
                        version=_version(belief),
                    )
                )
    record = SnapshotRecord(
        kind=snapshot_spec.kind,
        parent_session_id=snapshot_spec.parent_session_id,
        max_items=snapshot_budget.max_items,
        max_tokens=snapshot_budget.max_tokens,
        core_reserved=policy.sessions.core_reserved(snapshot_budget.max_items),
        core_available=len(core_ids),
        priming_available=len({i for u in trusted_items.units for i in u.ids if i not in core_ids}),
        prefix_sha256=hashlib.sha256(session_prefix(rendered_block.text).encode()).hexdigest(),
        beliefs=tuple(frozen),
    )
    return shared.model_copy(update={"snapshot": record})
