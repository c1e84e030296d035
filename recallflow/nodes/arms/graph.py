"""Arm: graph expansion.

Neighbours of the top fused seeds over belief edges, bounded in depth and fan-out. Every
node of the walk, the seeds included, passes the hard filter, so a belief the caller may
not see is never returned, never a bridge to one behind it, and never takes a visible
neighbour's place (see "Isolation" in docs/recall.md). Which arms seed it comes from
the policy (``arms``), so adding or removing an arm changes nothing here.
"""

from __future__ import annotations

from typing import Any

from hamilton.function_modifiers import ResolveAt, group, inject, resolve, source, tag

from recallflow.core.fusion import arm_rankings, fuse_ranks
from recallflow.models.result import Arm, ArmResult
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import run_arm
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch


def _seed_arms(arms: tuple[str, ...]) -> Any:
    return inject(seed_results=group(*[source(arm) for arm in arms]))


@resolve(when=ResolveAt.CONFIG_AVAILABLE, decorate_with=_seed_arms)
@tag(stage="arm")
def graph_expanded_hits(
    hard_filter: HardFilter,
    seed_results: list[ArmResult],
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Beliefs linked to the top seeds of the other arms, ranked by path weight."""
    limits = policy.limits
    # The fused order's ids alone (no candidate objects: only the first few are seeds).
    fused = fuse_ranks(arm_rankings(seed_results), policy.rrf_k, policy.arm_weights)
    seeds = [belief_id for belief_id, _score, _ranks in fused[: limits.graph_seeds]]
    return run_arm(
        Arm.GRAPH_EXPANDED,
        lambda: belief_search.neighbours(hard_filter, seeds, limits),
        limits.timeout_ms,
    )
