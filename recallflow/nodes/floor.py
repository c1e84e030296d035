"""Stage: the relevance floor: a floor, not a quota.

A candidate is kept only when its normalised match clears ``floor.relevance`` *and* its
total score clears ``floor.score``, however much budget remains: filling the context is
not the objective. A conflict set is kept or dropped as one, by its best member. What is
dropped is counted (and its ids go to the operator trace), never rendered.
"""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.core.scoring import match_of
from recallflow.models.stages import ConflictGroup, FloorOutcome, Resolved, ScoredCandidate
from recallflow.policy import RetrievalPolicy


def _clears(c: ScoredCandidate, policy: RetrievalPolicy, best_fused: float) -> bool:
    floor = policy.floor
    return match_of(c, best_fused) >= floor.relevance and c.score >= floor.score


@tag(stage="floor")
def above_floor(
    resolved_candidates: tuple[Resolved, ...], policy: RetrievalPolicy, best_fused_score: float
) -> FloorOutcome:
    """The resolved units above the floor, in order, and the ids dropped under it."""
    kept: list[Resolved] = []
    dropped: list[str] = []
    for unit in resolved_candidates:
        if isinstance(unit, ConflictGroup):
            if any(_clears(m, policy, best_fused_score) for m in unit.members):
                kept.append(unit)
            else:
                dropped.extend(m.belief_id for m in unit.members)
        elif _clears(unit, policy, best_fused_score):
            kept.append(unit)
        else:
            dropped.append(unit.belief_id)
    return FloorOutcome(kept=tuple(kept), dropped_ids=tuple(dropped))
