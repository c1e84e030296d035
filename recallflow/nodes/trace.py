"""Stage: the RecallTrace and the result; the trace is faithful to the block.

The trace is built in the render pass from the very objects that were rendered — the
rendered ids and ``rendered_sha256`` come from :func:`rendered_block`'s output, never
recomputed — so it cannot describe a block other than the one handed over. The node
lineage is attached afterwards by the lineage lifecycle adapter. Inside a session it also
records the corrections rendered, the prefix beliefs that cleared this turn's floor
(snapshot utilization) and the durable beliefs rendered that the prefix lacks (snapshot
misses): the shrink path of the snapshot budget (see "Sessions" in docs/architecture.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from hamilton.function_modifiers import tag

from recallflow.core.blocked import blocked_counts
from recallflow.core.calibration import CalibrationRef
from recallflow.core.relevance import best_clearing_score
from recallflow.core.scoring import rank_key
from recallflow.models.request import RecallRequest
from recallflow.models.result import (
    ArmResult,
    FloorInputs,
    FusedCandidate,
    RecalledItem,
    RecallQuery,
    RecallResult,
    RecallTrace,
    RelevanceEvidence,
    ScoredEntry,
)
from recallflow.models.session import SessionTurn, ShownBelief
from recallflow.models.stages import (
    BudgetOutcome,
    CandidateLoad,
    ConflictGroup,
    CorrectionOutcome,
    EvidenceSet,
    FloorOutcome,
    HardFilter,
    RenderedBlock,
    Resolved,
    ScoredCandidate,
    TrustOutcome,
)
from recallflow.models.store import Belief, BeliefType
from recallflow.policy import RetrievalPolicy


def _entry(c: ScoredCandidate, relevance: Mapping[str, RelevanceEvidence]) -> ScoredEntry:
    # Fields of a scored candidate, typed already: one per candidate, not validated again.
    belief_id = c.belief_id
    return ScoredEntry.trusted(
        belief_id=belief_id,
        score=c.score,
        band=c.band,
        transferred=c.transferred,
        arm_ranks=c.fused.arm_ranks,
        breakdown=c.breakdown,
        relevance=relevance.get(belief_id),
    )


def _redacted_by_field(items: tuple[RecalledItem, ...]) -> dict[str, int]:
    """Per field, the redactions the rendered items show (zero counts left out)."""
    counts = {
        "entity_name": sum(i.names_redacted for i in items),
        "origin_project": sum(i.origin_redacted for i in items),
    }
    return {field: n for field, n in counts.items() if n}


def _flat(resolved: tuple[Resolved, ...]) -> list[ScoredCandidate]:
    out: list[ScoredCandidate] = []
    for unit in resolved:
        if isinstance(unit, ConflictGroup):
            out.extend(unit.members)
        else:
            out.append(unit)
    return out


def _final_scores(
    scored: tuple[ScoredCandidate, ...],
    resolved: tuple[Resolved, ...],
    relevance: Mapping[str, RelevanceEvidence],
) -> tuple[ScoredEntry, ...]:
    """Each candidate with its final breakdown (resolution's adjustments included) and the
    relevance evidence the floor read."""
    final = {c.belief_id: c for c in scored}
    final.update((c.belief_id, c) for c in _flat(resolved))
    ordered = sorted(final.values(), key=rank_key)
    return tuple(_entry(c, relevance) for c in ordered)


@tag(stage="trace")
def request_digest(request: RecallRequest) -> str:
    """sha256 of the request's canonical JSON: what was asked, exactly."""
    return hashlib.sha256(request.model_dump_json().encode()).hexdigest()


@tag(stage="trace")
def recall_trace(
    trace_id: str,
    dag_version: str,
    request: RecallRequest,
    request_digest: str,
    hard_filter: HardFilter,
    recall_queries: tuple[RecallQuery, ...],
    arm_results: tuple[ArmResult, ...],
    profile_hits: ArmResult,
    profile_types: tuple[BeliefType, ...],
    fused_candidates: tuple[FusedCandidate, ...],
    scored_candidates: tuple[ScoredCandidate, ...],
    resolved_candidates: tuple[Resolved, ...],
    above_floor: FloorOutcome,
    trusted_items: TrustOutcome,
    budgeted_items: BudgetOutcome,
    rendered_block: RenderedBlock,
    policy: RetrievalPolicy,
    candidate_relevance: dict[str, RelevanceEvidence],
    calibration_ref: CalibrationRef,
    told_corrections: CorrectionOutcome,
    candidate_beliefs: dict[str, Belief],
    candidate_load: CandidateLoad,
    candidate_evidence: EvidenceSet,
    goal_parts: int,
    session_turn: SessionTurn | None = None,
) -> RecallTrace:
    """The record of this recall, from the same objects the block was rendered from; the
    profile arm among its arms when the turn asked for it (see "Arms" in
    docs/architecture.md)."""
    if profile_types:
        arm_results = (*arm_results, profile_hits)
    relevant: tuple[str, ...] = ()
    misses: tuple[str, ...] = ()
    if session_turn is not None:
        held = frozenset(session_turn.prefix_ids)
        relevant = tuple(c.belief_id for c in _flat(above_floor.kept) if c.belief_id in held)
        durable = frozenset(policy.sessions.durable_types)
        misses = tuple(
            i
            for i in rendered_block.ids
            if i not in held
            and i in candidate_beliefs
            and candidate_beliefs[i].belief_type in durable
        )
    shown_blocked = {
        i.belief_id: trusted_items.blocked_families.get(i.belief_id, "unknown")
        for i in rendered_block.items
        if i.blocked
    }
    # Built without validating again: every field is a value of its type that this recall
    # made (the stages' models, validated or trusted where they were built), so validating
    # went through every scored entry, fused candidate and arm hit once more. So are the
    # floor's inputs: the validated policy's numbers, the calibration's version, the best
    # clearing score (a float) and the goal's parts (at least 1). The floor's section is
    # read once (each read of a model's field goes through pydantic's attribute hook).
    floor = policy.floor
    odds = floor.odds
    return RecallTrace.trusted(
        id=trace_id,
        tenant_id=request.tenant_id,
        principal_id=request.principal_id,
        session_id=request.session_id,
        moment=request.moment,
        surface=request.surface,
        project=request.project,
        as_of=hard_filter.as_of,
        known_as_of=hard_filter.known_as_of,
        request_digest=request_digest,
        retrieval_policy_version=policy.version,
        dag_version=dag_version,
        queries=recall_queries,
        arms=arm_results,
        degraded_arms=tuple(a.arm for a in arm_results if not a.ok),
        degraded_stages={
            stage: error
            for stage, error in (
                ("candidates", candidate_load.error),
                ("evidence", candidate_evidence.error),
            )
            if error is not None
        },
        fused=fused_candidates,
        scored=_final_scores(scored_candidates, resolved_candidates, candidate_relevance),
        ranked_ids=tuple(c.belief_id for c in _flat(resolved_candidates)),
        floor=floor.score,
        floor_inputs=FloorInputs.trusted(
            calibration=calibration_ref.version,
            semantic_standing=floor.semantic_standing,
            lexical_coverage=floor.lexical_coverage,
            lexical_standing=floor.lexical_standing,
            relative=floor.relative,
            near_best=floor.near_best,
            strong_standing=floor.strong_standing,
            strong_coverage=floor.strong_coverage,
            strong_near_best=floor.strong_near_best,
            partial_near_best=floor.partial_near_best,
            partial_standing=floor.partial_standing,
            partial_coverage=floor.partial_coverage,
            score=floor.score,
            best_score=best_clearing_score(resolved_candidates, candidate_relevance, policy),
            odds_intercept=odds.intercept,
            odds_distance=odds.distance,
            odds_place=odds.place,
            odds_support=odds.support,
            odds_min_probability=odds.min_probability,
            goal_parts=goal_parts,
            mostly_asking=floor.asking_cut,
        ),
        floor_dropped=len(above_floor.dropped_ids),
        floor_dropped_ids=above_floor.dropped_ids,
        floor_bridged=above_floor.bridged,
        floor_profiled=above_floor.profiled,
        budget_dropped=len(budgeted_items.dropped_ids),
        budget_dropped_ids=budgeted_items.dropped_ids,
        **blocked_counts(shown_blocked, trusted_items.blocked_ids),
        scanner_version=trusted_items.scanner_version,
        redacted=sum(bool(i.origin_redacted or i.names_redacted) for i in rendered_block.items),
        redacted_by_field=_redacted_by_field(rendered_block.items),
        rendered_ids=rendered_block.ids,
        rendered_tokens=budgeted_items.tokens,
        rendered_sha256=rendered_block.sha256,
        corrections=told_corrections.corrections,
        corrections_deferred=told_corrections.deferred,
        corrections_tokens=told_corrections.tokens,
        snapshot_relevant=relevant,
        snapshot_misses=misses,
        lineage=(),
        experiment=None,
        snapshot=None,
    )


@tag(stage="result")
def recall_result(
    rendered_block: RenderedBlock,
    recall_trace: RecallTrace,
    shown_beliefs: tuple[ShownBelief, ...] = (),
) -> RecallResult:
    """What the agent gets: the block, its hash, its items, and the trace (and, in a
    session's turn, what the block showed, for the session to record)."""
    return RecallResult(
        block=rendered_block.text,
        rendered_sha256=rendered_block.sha256,
        items=rendered_block.items,
        trace=recall_trace,
        shown=shown_beliefs,
    )
