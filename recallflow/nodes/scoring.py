"""Stage: scoring with the explicit ranking function.

The function is :func:`recallflow.core.scoring.score_candidate` (documented there; every
candidate is scored in one :func:`~recallflow.core.scoring.score_candidates` call); its
weights are the policy's ``task`` or ``core`` vector, chosen by the moment (and ``core``
for a belief a turn asks for as a whole: the profile arm's). The policy's
``ranking`` selects the implementation (config ``ranking``, ``@config.when``):
``hand_weighted``, or ``match_only``, an ablation that ranks by the fused match alone.
Conflict peers that no arm found are scored with a zero match, so a conflict can be shown
whole.
"""

from __future__ import annotations

from collections.abc import Iterable

from hamilton.function_modifiers import config, tag

from recallflow.core.scoring import rank_key, score_candidates
from recallflow.models.request import RecallRequest
from recallflow.models.result import FusedCandidate, RelevanceEvidence
from recallflow.models.stages import HardFilter, ScoredCandidate
from recallflow.models.store import Belief, BeliefType
from recallflow.policy import MATCH_ONLY_WEIGHTS, NO_PENALTIES, RetrievalPolicy


@tag(stage="scoring")
def best_fused_score(policy: RetrievalPolicy) -> float:
    """The fused score of a belief every arm ranked first (normalises the match feature)."""
    return policy.best_fused_score


@config.when(ranking="hand_weighted")
@tag(stage="scoring")
def scored_candidates__hand_weighted(
    fused_candidates: tuple[FusedCandidate, ...],
    candidate_beliefs: dict[str, Belief],
    asked_request: RecallRequest,
    hard_filter: HardFilter,
    policy: RetrievalPolicy,
    best_fused_score: float,
    candidate_relevance: dict[str, RelevanceEvidence],
    profile_types: tuple[BeliefType, ...],
) -> tuple[ScoredCandidate, ...]:
    """Every loaded candidate with its score breakdown, band and transfer flag. When the
    turn asks what the memory holds of the user (``profile_types``), a belief of the asked
    types is scored by the ``core`` vector, as a session's opening scores it: the
    question holds nothing of its words, and the ``task`` vector, half of it relevance,
    would hold it to a stricter bar than the prefix that shows it (see "Arms" in
    docs/architecture.md, on the profile arm)."""
    fused_by_id = {c.belief_id: c for c in fused_candidates}
    project, cross_project = asked_request.project, policy.cross_project
    kept: Iterable[tuple[str, Belief]] = (
        (belief_id, belief)
        for belief_id, belief in candidate_beliefs.items()
        if cross_project or belief.scope.value != "project" or belief.origin_project == project
    )
    weights = policy.weights_for(asked_request.moment)
    groups = [(kept, weights)]
    if profile_types:
        every = list(kept)
        groups = [
            ([c for c in every if c[1].belief_type not in profile_types], weights),
            ([c for c in every if c[1].belief_type in profile_types], policy.core),
        ]
    scored: list[ScoredCandidate] = []
    for members, vector in groups:
        scored.extend(
            score_candidates(
                (
                    (
                        fused_by_id.get(belief_id)
                        or FusedCandidate(belief_id=belief_id, rrf_score=0.0, arm_ranks={}),
                        belief,
                        relevance.relevance
                        if (relevance := candidate_relevance.get(belief_id))
                        else 0.0,
                    )
                    for belief_id, belief in members
                ),
                project=project,
                as_of=hard_filter.as_of,
                weights=vector,
                policy=policy,
                best_fused=best_fused_score,
            )
        )
    return tuple(sorted(scored, key=rank_key))


@config.when(ranking="match_only")
@tag(stage="scoring")
def scored_candidates__match_only(
    fused_candidates: tuple[FusedCandidate, ...],
    candidate_beliefs: dict[str, Belief],
    asked_request: RecallRequest,
    hard_filter: HardFilter,
    policy: RetrievalPolicy,
    best_fused_score: float,
    candidate_relevance: dict[str, RelevanceEvidence],
    profile_types: tuple[BeliefType, ...],
) -> tuple[ScoredCandidate, ...]:
    """Ablation: rank by the fused match alone (every other weight zero, no penalties).

    Selected by a policy with ``ranking=match_only`` (the ``match_only`` recipe); it
    shows in the trace as this function and as that policy's version.
    """
    weights = {"task": MATCH_ONLY_WEIGHTS, "core": MATCH_ONLY_WEIGHTS, "penalties": NO_PENALTIES}
    scored: tuple[ScoredCandidate, ...] = scored_candidates__hand_weighted(
        fused_candidates,
        candidate_beliefs,
        asked_request,
        hard_filter,
        policy.model_copy(update=weights),
        best_fused_score,
        candidate_relevance,
        profile_types,
    )
    return scored
