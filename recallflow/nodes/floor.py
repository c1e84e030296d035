"""Stage: the relevance floor, a floor and not a quota (see "Relevance floor" in
docs/architecture.md).

A candidate is kept only when all of these hold, however much budget remains (filling
the context is not the objective):

* its own evidence is about the query: its similarity *stands* at least
  ``floor.semantic_standing`` unrelated-pair spreads above the query's most similar
  unrelated sentence, or it holds at least ``floor.lexical_coverage`` of the query's
  rarity-weighted terms (neither a rank nor one shared word can carry it);
* it is near the best: its total score is within ``floor.near_best`` of the best score
  among candidates that clear, so a block holds what is about as good as its best item,
  not everything that clears — the floor, not the item cap, decides the block's size
  (the score, not the relevance alone, so that a transferred belief does not set the
  bar for the local ones it is discounted against). The distance is absolute, not a
  share of the best, and it is wider — ``floor.strong_near_best`` — for a candidate with
  strong evidence (a standing of at least ``floor.strong_standing`` or a coverage of at
  least ``floor.strong_coverage``): a goal naming several things keeps each thing's
  belief, which stands far above unrelated text or holds most of the goal's rare words
  but covers only its part of the goal, and so scores under the best by a bounded amount;
* or, short of that, it holds *partial* evidence (a standing of at least
  ``floor.partial_standing`` or a coverage of at least ``floor.partial_coverage``) and
  scores within ``floor.partial_near_best`` of the best candidate that clears: the reply
  that tells the answer often shares few of the question's words, yet ranks beside the
  turn that asks. Partial evidence never suffices alone: with nothing that clears, the
  block is empty;
* it is likely evidence: among the candidates within those distances, the estimated
  probability that it is evidence the question needs — a logistic model
  (``floor.odds``) over its distance under the best, its place among them (a goal that
  lists several things gives each a first place: :func:`goal_parts`) and its neighbour
  support — reaches ``floor.odds.min_probability``. A clear single answer stands alone at
  the top and what follows it is far under it and late, so its block is small; the
  distances alone let the item cap decide the size;
* it does not mostly ask: a statement that ends by asking, with at least
  ``floor.mostly_asking`` of its words in questions, echoes the query's words and tells
  none of the answer (it still counts as a place the estimate reads, as it still ranks);
* its total score is at least ``floor.relative`` of that best score (0 by default);
* the distances and the estimate are waived for a candidate that carries an entity the
  working state names, which it was asked about by name;
* its total score reaches ``floor.score`` (a weak belief — low confidence, transferred,
  provisional, flagged — stays out even when it matches);
* past all that, for a query that names no one (no key, no entity of the working
  state), a dropped candidate that shares a *bridge name* with the first kept candidate
  that clears by its own evidence — an entity written as a name in that candidate's
  statement and held by few of the loaded candidates — is kept after the rest
  (``floor.bridge_neighbours``), and named in the outcome with that candidate and the
  entity: the second belief of a chain through a person holds nothing of the question
  but the name (the candidates' load brings such holders in for such a query);
* or, for a turn that asks what the memory holds of the user (``profile_types``: "What
  do you know about me?"), a unit holding a belief of the asked durable types whose
  score reaches ``floor.score`` is kept in its place, as a session's core is, and named
  in the outcome (``profiled``).

A conflict set is kept or dropped as one, by its best member. What is dropped is counted
(and its ids go to the operator trace), never rendered.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hamilton.function_modifiers import tag

from recallflow.core.floor import bridge_names, estimate_place, kept_by_odds
from recallflow.core.floor import goal_parts as count_goal_parts
from recallflow.core.relevance import best_clearing_score
from recallflow.models.request import RecallRequest
from recallflow.models.result import FloorBridge, RelevanceEvidence
from recallflow.models.stages import FloorOutcome, Resolved, ScoredCandidate, members_of
from recallflow.models.store import BeliefType
from recallflow.policy import FloorOdds, RetrievalPolicy


@dataclass(frozen=True, slots=True)
class _Bars:
    """The floor's numbers, read from the policy once a call: a policy field is read
    through pydantic's attribute hook (~400 instructions), and the floor's tests read a
    dozen of them for every candidate."""

    score: float
    relative: float
    near_best: float
    strong_near_best: float
    partial_near_best: float
    strong_coverage: float
    strong_standing: float
    partial_coverage: float
    partial_standing: float
    mostly_asking: float
    odds: FloorOdds

    @classmethod
    def of(cls, policy: RetrievalPolicy) -> _Bars:
        f = policy.floor
        return cls(
            score=f.score,
            relative=f.relative,
            near_best=f.near_best,
            strong_near_best=f.strong_near_best,
            partial_near_best=f.partial_near_best,
            strong_coverage=f.strong_coverage,
            strong_standing=f.strong_standing,
            partial_coverage=f.partial_coverage,
            partial_standing=f.partial_standing,
            mostly_asking=f.mostly_asking,
            odds=f.odds,
        )


def _within(
    c: ScoredCandidate,
    evidence: RelevanceEvidence | None,
    bars: _Bars,
    best: float,
) -> bool:
    """Whether the candidate's evidence (``evidence``, None when it has none) and its
    distance under ``best`` let it be kept.

    The tests of :func:`~recallflow.core.relevance.clears_own`,
    :func:`~recallflow.core.relevance.strong_evidence` and
    :func:`~recallflow.core.relevance.partial_evidence`, the same expressions in the same
    order, on the numbers read once (``bars``) and the evidence's fields read once."""
    score = c.score
    if evidence is None or score < bars.score:
        return False
    fields = evidence.__dict__
    coverage, standing = fields["coverage"], fields["standing"]
    if fields["clears"] and score >= bars.score:  # clears_own
        if fields["subject_match"]:
            return True
        strong = coverage >= bars.strong_coverage or (
            standing is not None and standing >= bars.strong_standing
        )
        distance = bars.strong_near_best if strong else bars.near_best
        return score >= bars.relative * best and score >= best - distance
    # Partial evidence is kept only beside a candidate that clears (best > 0), so a query
    # nothing clears for still gets the empty block.
    return (
        best > 0
        and (
            coverage >= bars.partial_coverage
            or (standing is not None and standing >= bars.partial_standing)
        )
        and score >= bars.relative * best
        and score >= best - bars.partial_near_best
    )


def _likely(
    c: ScoredCandidate,
    evidence: RelevanceEvidence,
    bars: _Bars,
    best: float,
    place: int,
) -> bool:
    """Whether a candidate within the distances, at ``place`` (as the estimate reads it),
    with ``evidence``, is likely enough evidence (a candidate carrying an entity the
    working state names always is; one whose statement mostly asks never is)."""
    if evidence.subject_match:
        return True
    if evidence.asking >= bars.mostly_asking:
        return False
    return kept_by_odds(best - c.score, place, evidence.support, bars.odds)


@tag(stage="floor")
def goal_parts(asked_request: RecallRequest) -> int:
    """How many things the goal asks for (commas, "and", "or" in its list): the floor's last
    cut gives each of them a first place."""
    return count_goal_parts(asked_request.working_state.goal)


@tag(stage="floor")
def above_floor(
    resolved_candidates: tuple[Resolved, ...],
    candidate_relevance: dict[str, RelevanceEvidence],
    policy: RetrievalPolicy,
    goal_parts: int,
    query_keys: tuple[str, ...],
    named_entities: tuple[str, ...],
    profile_types: tuple[BeliefType, ...],
) -> FloorOutcome:
    """The resolved units above the floor, in order, and the ids dropped under it. When
    the turn asks what the memory holds of the user (``profile_types``: the durable types
    it asks for), a unit with a belief of those types is kept by the score floor alone,
    as a session's core is: the question holds no word its answer holds, so there is no
    relevance to clear (see "Arms" in docs/architecture.md)."""
    best = best_clearing_score(resolved_candidates, candidate_relevance, policy)
    bars = _Bars.of(policy)
    kept: list[Resolved] = []
    dropped: list[str] = []
    profiled: list[str] = []  # kept only as beliefs about the user the turn asked for
    place = 0  # units within the distances so far
    for unit in resolved_candidates:
        members = members_of(unit)
        # A conflict set is judged by its best member within the distances.
        lead, evidence = None, None
        for m in members:
            evidence = candidate_relevance.get(m.belief_id)
            if _within(m, evidence, bars, best):
                lead = m
                break
        at = estimate_place(place, goal_parts)
        if lead is not None and evidence is not None and _likely(lead, evidence, bars, best, at):
            kept.append(unit)
        elif profile_types and any(
            m.belief.belief_type in profile_types and m.score >= bars.score for m in members
        ):
            kept.append(unit)
            profiled.extend(m.belief_id for m in members)
        else:
            dropped.extend(m.belief_id for m in members)
        if lead is not None:
            place += 1
    # A query that names someone or something asks about it directly: a chain is asked
    # through a description ("the brother who pays…"), which names nothing.
    if (
        policy.floor.bridge_neighbours
        and dropped
        and kept
        and not query_keys
        and not named_entities
    ):
        bridged = _with_bridged(
            resolved_candidates, candidate_relevance, kept, dropped, policy, bars
        )
        return replace(bridged, profiled=tuple(profiled))
    return FloorOutcome(kept=tuple(kept), dropped_ids=tuple(dropped), profiled=tuple(profiled))


def _with_bridged(
    resolved: tuple[Resolved, ...],
    relevance: dict[str, RelevanceEvidence],
    kept: list[Resolved],
    dropped: list[str],
    policy: RetrievalPolicy,
    bars: _Bars,
) -> FloorOutcome:
    """``kept`` and then the dropped units that share a bridge name with the first kept
    candidate that clears by its own evidence (:func:`~recallflow.core.floor.bridge_names`):
    the second belief of a chain ("Where does the brother who pays half the care costs
    live?" finds "My brother Javier pays half…", and "Javier lives in Bilbao" holds nothing
    of the question but his name). Each still needs the floor's least score and must not
    mostly ask; it comes after what the floor kept by itself, so the budget cuts it first,
    and the outcome names it with the belief and the entity that bridged it."""
    unchanged = FloorOutcome(kept=tuple(kept), dropped_ids=tuple(dropped))
    lead = next(
        (
            m
            for unit in kept
            for m in members_of(unit)
            if (evidence := relevance.get(m.belief_id)) is not None and evidence.clears
        ),
        None,
    )
    if lead is None:
        return unchanged
    held: dict[str, int] = {}
    for unit in resolved:
        for m in members_of(unit):
            for key in set(m.belief.entities):
                held[key] = held.get(key, 0) + 1
    names = bridge_names(
        lead.belief.statement,
        lead.belief.entities,
        held,
        policy.limits.bridge_holders,
    )
    if not names:
        return unchanged
    gone = set(dropped)
    bridged: list[Resolved] = []
    why: list[FloorBridge] = []
    for unit in resolved:
        members = members_of(unit)
        if members[0].belief_id not in gone:
            continue
        for m in members:
            evidence = relevance.get(m.belief_id)
            shared = sorted(names.intersection(m.belief.entities))
            if (
                shared
                and m.score >= bars.score
                and (evidence is None or evidence.asking < bars.mostly_asking)
            ):
                bridged.append(unit)
                why.extend(
                    FloorBridge(belief_id=x.belief_id, lead=lead.belief_id, entity=shared[0])
                    for x in members
                )
                gone.difference_update(x.belief_id for x in members)
                break
    if not bridged:
        return unchanged
    return FloorOutcome(
        kept=(*kept, *bridged),
        dropped_ids=tuple(i for i in dropped if i in gone),
        bridged=tuple(why),
    )
