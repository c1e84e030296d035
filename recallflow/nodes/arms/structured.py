"""Arm: structured recall on normalised subject and entity keys (ADR-0019 decision 6)."""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.models.result import ArmResult
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import run_arm
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch


@tag(stage="arm")
def structured_hits(
    hard_filter: HardFilter,
    query_keys: tuple[str, ...],
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Beliefs whose subject or entities equal a query key, by the rarity of the keys matched."""
    limits = policy.limits
    return run_arm(
        "structured_hits",
        lambda: belief_search.structured(
            hard_filter,
            query_keys,
            limits.per_arm,
            limits.lexical_candidate_cap,
            limits.common_share,
        ),
        limits.timeout_ms,
    )
