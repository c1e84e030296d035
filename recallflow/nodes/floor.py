"""Stage: the relevance floor, a floor and not a quota (see "Relevance floor" in
docs/architecture.md).

A candidate is kept only when all of these hold, however much budget remains (filling
the context is not the objective):

* its own evidence is about the query: its similarity *stands* at least
  ``floor.semantic_standing`` unrelated-pair spreads above the query's most similar
  unrelated sentence, or it holds at least ``floor.lexical_coverage`` of the query's
  rarity-weighted terms (neither a rank nor one shared word can carry it);
* its relevance is at least ``floor.relative`` of the best relevance that clears, so a
  block holds what is about as relevant as its best item, not everything above a line;
* its total score reaches ``floor.score`` (a weak belief — low confidence, transferred,
  provisional, flagged — stays out even when it matches).

A conflict set is kept or dropped as one, by its best member. What is dropped is counted
(and its ids go to the operator trace), never rendered.
"""

from __future__ import annotations

from collections.abc import Mapping

from hamilton.function_modifiers import tag

from recallflow.core.relevance import best_clearing
from recallflow.models.result import RelevanceEvidence
from recallflow.models.stages import ConflictGroup, FloorOutcome, Resolved, ScoredCandidate
from recallflow.policy import RetrievalPolicy


def _clears(
    c: ScoredCandidate,
    relevance: Mapping[str, RelevanceEvidence],
    policy: RetrievalPolicy,
    best: float,
) -> bool:
    evidence = relevance.get(c.belief_id)
    if evidence is None or not evidence.clears:
        return False
    floor = policy.floor
    return evidence.relevance >= floor.relative * best and c.score >= floor.score


@tag(stage="floor")
def above_floor(
    resolved_candidates: tuple[Resolved, ...],
    candidate_relevance: dict[str, RelevanceEvidence],
    policy: RetrievalPolicy,
) -> FloorOutcome:
    """The resolved units above the floor, in order, and the ids dropped under it."""
    best = best_clearing(candidate_relevance)
    kept: list[Resolved] = []
    dropped: list[str] = []
    for unit in resolved_candidates:
        if isinstance(unit, ConflictGroup):
            if any(_clears(m, candidate_relevance, policy, best) for m in unit.members):
                kept.append(unit)
            else:
                dropped.extend(m.belief_id for m in unit.members)
        elif _clears(unit, candidate_relevance, policy, best):
            kept.append(unit)
        else:
            dropped.append(unit.belief_id)
    return FloorOutcome(kept=tuple(kept), dropped_ids=tuple(dropped))
