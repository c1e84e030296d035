"""Arm: pg_trgm word similarity on the short subject (typos and partial names)."""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.models.result import Arm, ArmResult
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import run_arm
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch


@tag(stage="arm", searches="trigram_terms")
def trigram_hits(
    hard_filter: HardFilter,
    trigram_terms: tuple[str, ...],
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Beliefs whose subject is spelled like a query term (typos, partial names)."""
    limits = policy.limits
    return run_arm(
        Arm.TRIGRAM,
        lambda: belief_search.trigram(hard_filter, trigram_terms, limits),
        limits.timeout_ms,
    )
