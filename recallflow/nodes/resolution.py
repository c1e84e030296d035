"""Stage: resolution of conflicts and of transferred beliefs against local ones.

- Superseded, expired and retired beliefs never get here (the hard filter's states); a
  belief in another state that is not admissible is dropped again, defensively.
- An unresolved conflict set is grouped and surfaced as a conflict, never silently
  resolved: its members stay side by side, ranked as one unit by its best member. A local
  belief outside its origin is no member here (it does not hold here): it stays a
  candidate of its own, which the floor drops.
- A transferred belief is outranked by an explicit local belief on the same subject
  (one learned in this project, or user-scoped): its score is capped just under it.
The output is in total order: score desc, then id asc.
"""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.core.scoring import rank_key, stays_home
from recallflow.models.request import RecallRequest
from recallflow.models.stages import ConflictGroup, HardFilter, Resolved, ScoredCandidate
from recallflow.models.store import LifecycleState
from recallflow.policy import RetrievalPolicy


def _outranked(candidate: ScoredCandidate, cap: float, margin: float) -> ScoredCandidate:
    penalty = round(cap - margin - candidate.score, 6)
    breakdown = candidate.breakdown.model_copy(
        update={
            "penalties": {**candidate.breakdown.penalties, "outranked_by_local": penalty},
            "total": round(candidate.score + penalty, 6),
        }
    )
    return candidate.model_copy(update={"breakdown": breakdown})


@tag(stage="resolution")
def resolved_candidates(
    scored_candidates: tuple[ScoredCandidate, ...],
    hard_filter: HardFilter,
    policy: RetrievalPolicy,
    request: RecallRequest,
) -> tuple[Resolved, ...]:
    """Candidates with conflicts grouped and local overrides applied, in rank order."""
    admissible = set(hard_filter.states)
    live = [c for c in scored_candidates if c.belief.state in admissible]

    local_best: dict[str, float] = {}
    for c in live:
        if not c.transferred:
            local_best[c.belief.subject] = max(local_best.get(c.belief.subject, -1e9), c.score)
    adjusted = [
        _outranked(c, local_best[c.belief.subject], policy.outrank_margin)
        if c.transferred
        and c.belief.subject in local_best
        and c.score >= local_best[c.belief.subject]
        else c
        for c in live
    ]

    groups: dict[str, list[ScoredCandidate]] = {}
    singles: list[Resolved] = []
    for c in adjusted:
        if (
            c.belief.state is LifecycleState.CONFLICTED
            and c.belief.conflict_set_id
            and not stays_home(c.belief, request.project)
        ):
            groups.setdefault(c.belief.conflict_set_id, []).append(c)
        else:
            singles.append(c)
    for set_id, members in sorted(groups.items()):
        ordered = tuple(sorted(members, key=lambda m: (-m.score, m.belief_id)))
        if len(ordered) == 1:
            singles.append(ordered[0])
        else:
            singles.append(ConflictGroup(conflict_set_id=set_id, members=ordered))

    def order(unit: Resolved) -> tuple[float, str]:
        if isinstance(unit, ConflictGroup):
            return (-unit.score, unit.lead_id)
        return rank_key(unit)  # the fields, not the ``score``/``belief_id`` properties

    return tuple(sorted(singles, key=order))
