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

from dataclasses import replace
from typing import Any

from hamilton.function_modifiers import tag

from recallflow.core.scoring import rank_key, stays_home
from recallflow.models.request import RecallRequest
from recallflow.models.stages import ConflictGroup, HardFilter, Resolved, ScoredCandidate
from recallflow.models.store import Belief, LifecycleState
from recallflow.policy import RetrievalPolicy


def _outranked(candidate: ScoredCandidate, cap: float, margin: float) -> ScoredCandidate:
    penalty = round(cap - margin - candidate.score, 6)
    breakdown = candidate.breakdown.model_copy(
        update={
            "penalties": {**candidate.breakdown.penalties, "outranked_by_local": penalty},
            "total": round(candidate.score + penalty, 6),
        }
    )
    return replace(candidate, breakdown=breakdown)


@tag(stage="resolution")
def resolved_candidates(
    scored_candidates: tuple[ScoredCandidate, ...],
    hard_filter: HardFilter,
    policy: RetrievalPolicy,
    asked_request: RecallRequest,
) -> tuple[Resolved, ...]:
    """Candidates with conflicts grouped and local overrides applied, in rank order."""
    # Each candidate's belief's fields are read from its field dict once, not each
    # through pydantic's attribute hook (~400 instructions a read): resolution read a
    # dozen a candidate. A candidate's own (a dataclass's slots) are cheap to read.
    admissible = set(hard_filter.states)
    live: list[tuple[ScoredCandidate, Belief, dict[str, Any]]] = []
    for c in scored_candidates:
        belief = c.belief
        facts = belief.__dict__
        if facts["state"] in admissible:
            live.append((c, belief, facts))

    local_best: dict[str, float] = {}
    for c, _, facts in live:
        if not c.transferred:
            subject = facts["subject"]
            best = local_best.get(subject, -1e9)  # ``max(best, c.score)``, written out
            local_best[subject] = c.score if c.score > best else best

    groups: dict[str, list[ScoredCandidate]] = {}
    singles: list[Resolved] = []
    # Each single's ``rank_key`` (-score, id), from the values in hand.
    keys: list[tuple[float, str]] = []
    for c, belief, facts in live:
        subject = facts["subject"]
        if c.transferred and subject in local_best and c.score >= local_best[subject]:
            c = _outranked(c, local_best[subject], policy.outrank_margin)
        if (
            facts["state"] is LifecycleState.CONFLICTED
            and facts["conflict_set_id"]
            and not stays_home(belief, asked_request.project)
        ):
            groups.setdefault(facts["conflict_set_id"], []).append(c)
        else:
            singles.append(c)
            keys.append((-c.score, c.belief_id))
    for set_id, members in sorted(groups.items()):
        ordered = tuple(sorted(members, key=lambda m: (-m.score, m.belief_id)))
        if len(ordered) == 1:
            singles.append(ordered[0])
            keys.append(rank_key(ordered[0]))
        else:
            group = ConflictGroup(conflict_set_id=set_id, members=ordered)
            singles.append(group)
            keys.append((-group.score, group.lead_id))
    return tuple(singles[at] for at in sorted(range(len(singles)), key=keys.__getitem__))
