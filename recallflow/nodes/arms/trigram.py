"""Arm: pg_trgm word similarity on the short subject (ADR-0019 decision 6; DESIGN.md §6)."""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.models.result import ArmResult
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import run_arm
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch


@tag(stage="arm")
def trigram_hits(
    hard_filter: HardFilter,
    trigram_terms: tuple[str, ...],
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Beliefs whose subject is spelled like a query term (typos, partial names)."""
    limits = policy.limits
    return run_arm(
        "trigram_hits",
        lambda: belief_search.trigram(
            hard_filter, trigram_terms, limits.per_arm, limits.trigram_threshold
        ),
        limits.timeout_ms,
    )
