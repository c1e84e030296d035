"""Arm: structured recall on normalised subject and entity keys."""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.models.result import Arm, ArmResult
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import run_arm
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch


@tag(stage="arm", searches="query_keys")
def structured_hits(
    hard_filter: HardFilter,
    query_keys: tuple[str, ...],
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Beliefs whose subject or entities equal a query key, by the rarity of the keys matched."""
    limits = policy.limits
    return run_arm(
        Arm.STRUCTURED,
        lambda: belief_search.structured(hard_filter, query_keys, limits),
        limits.timeout_ms,
    )
