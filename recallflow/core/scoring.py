"""The ranking function, pure: a candidate, the request and the policy in, a
:class:`ScoredCandidate` with its per-feature breakdown out.

Per candidate, with every feature in [0, 1] and ``p`` the policy::

    score = w.match            · match
          + w.confidence_state · confidence_state
          + w.corroboration    · corroboration
          + w.authority        · authority
          + w.scope_affinity   · scope_affinity
          + w.utility          · utility
          + Σ penalties

    match            = min(1, rrf_score / p.best_fused_score)   (0 when that is 0), where
                       best_fused_score = Σ over the fused arms of weight / (p.rrf_k + 1):
                       the fused score of a belief every arm ranked first
    confidence_state = confidence · p.state_factor[state]   (a state not listed: 0);
                       confidence × p.transfer_confidence_factor when transferred and not
                       corroborated in the current project
    corroboration    = 1 − exp(−corroboration_count
                               · decay(last_corroborated_at or recorded_at,
                                       p.corroboration_half_life_days)
                               / p.corroboration_scale)
    authority        = p.authority_factor[source_authority]   (one not listed: 0)
    scope_affinity   = 1, or, when transferred and not corroborated in the current project,
                       p.portability_affinity[portability]
    utility          = 1 − exp(−utility · decay(last_reinforced_at, p.utility_half_life_days))
    decay(t, h)      = 0.5 ** (max(0, as_of − t) in days / h)   (1 when t is unset)

    penalties (p.penalties): provisional (state provisional), flagged, conflicted (state
    conflicted), and, when transferred and not corroborated in the current project,
    local_outside_origin for a ``local`` belief (it sinks below the floor by
    construction) or transferred_uncorroborated for any other.

``w`` is the policy's ``core`` vector for the session snapshot and ``task`` otherwise.
The breakdown records each weighted part and each penalty rounded to 6 decimals, and the
total as the rounded sum of the unrounded parts.

Transfer: a project-scoped belief recalled outside its origin project is *transferred*.
Its band is the band of its confidence, one lower until it is corroborated in the current
project. User-scope beliefs carry no attribution and compete at full weight. (That a
transferred belief is also capped under an explicit local belief on the same subject is
resolution's work, in :mod:`recallflow.nodes.resolution`.)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime

from recallflow.core.decimals import round_all
from recallflow.models.result import ConfidenceBand, FusedCandidate, ScoreBreakdown
from recallflow.models.stages import ScoredCandidate, make_scored_candidate
from recallflow.models.store import Belief, LifecycleState, Portability, Scope
from recallflow.policy import RetrievalPolicy, Weights

_DAY = 86_400.0


def _decay(since: datetime | None, now: datetime, half_life_days: float) -> float:
    if since is None:
        return 1.0
    age_days = (now - since).total_seconds() / _DAY
    age_days = age_days if age_days > 0.0 else 0.0  # ``max(0.0, …)``, written out
    return float(0.5 ** (age_days / half_life_days))


def is_transferred(belief: Belief, project: str | None) -> bool:
    """True when a project-scoped belief is recalled outside its origin project."""
    return belief.scope is Scope.PROJECT and belief.origin_project != project


def corroborated_here(belief: Belief, project: str | None) -> bool:
    """True when the current project is among the belief's corroborating projects."""
    return project is not None and project in belief.corroborating_projects


def stays_home(belief: Belief, project: str | None) -> bool:
    """True for a ``local`` project belief recalled outside its origin and not
    corroborated in ``project``: what it says (an endpoint, a service name) does not hold
    here, so it is never shown here, not even as a member of a conflict whose other
    members are (see "Transfer across projects" in docs/architecture.md)."""
    return (
        belief.portability is Portability.LOCAL
        and is_transferred(belief, project)
        and not corroborated_here(belief, project)
    )


def score_candidate(
    fused: FusedCandidate,
    belief: Belief,
    *,
    project: str | None,
    as_of: datetime,
    weights: Weights,
    policy: RetrievalPolicy,
    best_fused: float,
    relevance: float = 0.0,
) -> ScoredCandidate:
    """Score one candidate; the breakdown records every feature's weighted contribution.

    ``relevance`` is the candidate's absolute relevance in [0, 1] (see
    :mod:`recallflow.core.relevance`)."""
    (scored,) = score_candidates(
        ((fused, belief, relevance),),
        project=project,
        as_of=as_of,
        weights=weights,
        policy=policy,
        best_fused=best_fused,
    )
    return scored


def score_candidates(
    candidates: Iterable[tuple[FusedCandidate, Belief, float]],
    *,
    project: str | None,
    as_of: datetime,
    weights: Weights,
    policy: RetrievalPolicy,
    best_fused: float,
) -> list[ScoredCandidate]:
    """:func:`score_candidate` of each ``(fused, belief, relevance)``, in order.

    The policy's numbers and the weights are read once for all candidates, not once per
    candidate: a recall at 10k scores ~45, and the reads were a fifth of the ~9 µs each
    cost (the scoring of a recall 0.41 -> 0.33 ms of CPU, both versions alternating in one
    process on the 24 requests of the 10k tier). Every value is computed by the same
    expressions in the same order as one at a time, so the breakdowns are bit-identical."""
    w_match, w_relevance = weights.match, weights.relevance
    w_confidence, w_corroboration = weights.confidence_state, weights.corroboration
    w_authority, w_scope, w_utility = weights.authority, weights.scope_affinity, weights.utility
    transfer_factor = policy.transfer_confidence_factor
    state_factor = policy.state_factor.get
    corroboration_half_life = policy.corroboration_half_life_days
    corroboration_scale = policy.corroboration_scale
    authority_factor = policy.authority_factor.get
    portability_affinity = policy.portability_affinity
    utility_half_life = policy.utility_half_life_days
    p = policy.penalties
    band_of = policy.band_of
    band_below = policy.bands_below
    exp = math.exp
    project_scope = Scope.PROJECT
    provisional, conflicted = LifecycleState.PROVISIONAL, LifecycleState.CONFLICTED
    local = Portability.LOCAL
    make_breakdown, make_scored = ScoreBreakdown.trusted, make_scored_candidate
    # Each penalty is the policy's number: rounded once a policy, not once a candidate.
    rounded_penalty = policy.rounded_penalties
    # First every candidate's parts, then all of them rounded in one pass
    # (:func:`round_all`, ``round(x, 6)`` bit for bit), then the breakdowns.
    unrounded: list[float] = []
    pending: list[tuple[FusedCandidate, Belief, bool, ConfidenceBand, dict[str, float]]] = []
    for fused, belief, relevance in candidates:
        # The two transfer facts inline (``is_transferred``, ``corroborated_here``).
        transferred = belief.scope is project_scope and belief.origin_project != project
        uncorroborated = transferred and not (
            project is not None and project in belief.corroborating_projects
        )

        # ``min(1.0, …)`` written out: CPython 3.11's ``min`` and ``max`` parse their
        # arguments for keywords on every call, some 800 instructions a call.
        match = fused.rrf_score / best_fused if best_fused > 0 else 0.0
        match = match if match < 1.0 else 1.0

        confidence = belief.confidence
        if uncorroborated:
            confidence *= transfer_factor
        state = belief.state
        confidence_state = confidence * state_factor(state, 0.0)

        corroboration = 1.0 - exp(
            -belief.corroboration_count
            * _decay(
                belief.last_corroborated_at or belief.recorded_at,
                as_of,
                corroboration_half_life,
            )
            / corroboration_scale
        )
        authority = authority_factor(belief.source_authority, 0.0)
        scope_affinity = portability_affinity[belief.portability] if uncorroborated else 1.0
        utility = 1.0 - exp(
            -belief.utility * _decay(belief.last_reinforced_at, as_of, utility_half_life)
        )

        parts = (
            w_match * match,
            w_relevance * relevance,
            w_confidence * confidence_state,
            w_corroboration * corroboration,
            w_authority * authority,
            w_scope * scope_affinity,
            w_utility * utility,
        )
        penalties: dict[str, float] = {}
        if state is provisional or state is conflicted or belief.flagged:
            if state is provisional:
                penalties["provisional"] = p.provisional
            if belief.flagged:
                penalties["flagged"] = p.flagged
            if state is conflicted:
                penalties["conflicted"] = p.conflicted
        if uncorroborated:
            if belief.portability is local:
                penalties["local_outside_origin"] = p.local_outside_origin
            else:
                penalties["transferred_uncorroborated"] = p.transferred_uncorroborated
        unrounded.extend(parts)
        unrounded.append(sum(parts) + sum(penalties.values()))
        band = band_of(belief.confidence)
        if uncorroborated:
            band = band_below[band]
        pending.append((fused, belief, transferred, band, penalties))
    rounded = round_all(unrounded)
    out: list[ScoredCandidate] = []
    for at, (fused, belief, transferred, band, penalties) in enumerate(pending):
        (match, relevance, confidence_state, corroboration, authority, scope_affinity) = rounded[
            at * 8 : at * 8 + 6
        ]
        # Every value is a float this function computed: built without validating again.
        breakdown = make_breakdown(
            match=match,
            relevance=relevance,
            confidence_state=confidence_state,
            corroboration=corroboration,
            authority=authority,
            scope_affinity=scope_affinity,
            utility=rounded[at * 8 + 6],
            penalties={k: rounded_penalty[k] for k in sorted(penalties)} if penalties else {},
            total=rounded[at * 8 + 7],
        )
        out.append(
            make_scored(
                belief=belief,
                fused=fused,
                breakdown=breakdown,
                band=band,
                transferred=transferred,
            )
        )
    return out


def rank_key(candidate: ScoredCandidate) -> tuple[float, str]:
    """The ranking's total order: score descending, then belief id."""
    return (-candidate.score, candidate.belief_id)


def match_of(candidate: ScoredCandidate, best_fused: float) -> float:
    """The candidate's normalised RRF match in [0, 1] (what the relevance floor reads)."""
    return min(1.0, candidate.fused.rrf_score / best_fused) if best_fused > 0 else 0.0
