"""Stage: reciprocal rank fusion.

The arms fused are the policy's (config ``arms``, plus ``graph_expanded_hits`` when
``graph_expansion`` is on), injected as one group: adding or removing an arm needs no
change here. A failed arm is fused as absent.
"""

from __future__ import annotations

from typing import Any

from hamilton.function_modifiers import ResolveAt, group, inject, resolve, source, tag

from recallflow.core.fusion import arm_rankings, fuse_ranks, fused_candidates_of
from recallflow.models.result import Arm, ArmResult, FusedCandidate
from recallflow.policy import RetrievalPolicy


def _fused_arms(arms: tuple[str, ...], graph_expansion: bool) -> Any:
    names = [*arms, Arm.GRAPH_EXPANDED.value] if graph_expansion else list(arms)
    return inject(configured_arms=group(*[source(name) for name in names]))


@resolve(when=ResolveAt.CONFIG_AVAILABLE, decorate_with=_fused_arms)
@tag(stage="fusion")
def arm_results(configured_arms: list[ArmResult]) -> tuple[ArmResult, ...]:
    """Every configured arm's result, in configuration order (what the trace records)."""
    return tuple(configured_arms)


@tag(stage="fusion")
def fused_candidates(
    arm_results: tuple[ArmResult, ...], profile_hits: ArmResult, policy: RetrievalPolicy
) -> tuple[FusedCandidate, ...]:
    """The top candidates by RRF score (desc, then id), each with every arm's rank for it;
    then the first ``limits.graph_loaded`` graph-expansion hits that fell below that cut,
    in fused order. A neighbour of a top seed (the turn that answers a matching question,
    the other half of a fact split across two turns) shares few of the query's words, so
    its fused rank is low, but the ranking can only lift what is loaded (see "Fusion" in
    docs/architecture.md). Last, the profile arm's hits that are not among them yet, each
    with no fused score and its rank in that arm (the arm is not fused: it answers a
    question no other arm can rank for, and the floor keeps its beliefs by the score
    floor; see "Arms" in docs/architecture.md)."""
    fused = _fused(arm_results, policy)
    if not profile_hits.hits:
        return fused
    ranks = {h.belief_id: h.rank for h in profile_hits.hits}
    with_ranks = tuple(
        FusedCandidate.trusted(
            belief_id=c.belief_id,
            rrf_score=c.rrf_score,
            arm_ranks={**c.arm_ranks, Arm.PROFILE: ranks[c.belief_id]},
        )
        if c.belief_id in ranks
        else c
        for c in fused
    )
    seen = {c.belief_id for c in fused}
    added = tuple(
        FusedCandidate.trusted(
            belief_id=h.belief_id, rrf_score=0.0, arm_ranks={Arm.PROFILE: h.rank}
        )
        for h in profile_hits.hits
        if h.belief_id not in seen
    )
    return with_ranks + added


def _fused(
    arm_results: tuple[ArmResult, ...], policy: RetrievalPolicy
) -> tuple[FusedCandidate, ...]:
    """The fused candidates of the fused arms (see :func:`fused_candidates`)."""
    # Ranked as plain tuples, and only what is kept made a model: a recall at 100k fuses
    # some 60 candidates and keeps about 40.
    ranked = fuse_ranks(arm_rankings(arm_results), policy.rrf_k, policy.arm_weights)
    limits = policy.limits
    top = ranked[: limits.max_candidates]
    if limits.graph_loaded == 0:
        return fused_candidates_of(top)
    graph = next((r for r in arm_results if r.arm is Arm.GRAPH_EXPANDED and r.ok), None)
    if graph is None:
        return fused_candidates_of(top)
    wanted = {h.belief_id for h in graph.hits[: limits.graph_loaded]}
    wanted -= {belief_id for belief_id, _, _ in top}
    below = [r for r in ranked[limits.max_candidates :] if r[0] in wanted]
    return fused_candidates_of(top + below)
