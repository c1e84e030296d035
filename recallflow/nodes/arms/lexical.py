"""Arm: PostgreSQL full-text search, BM25-weighted over a capped match set (the matches
are capped before they are ranked, since ranking reads every match's document)."""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.models.result import Arm, ArmResult
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import run_arm
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch


@tag(stage="arm", searches="query_texts")
def lexical_hits(
    hard_filter: HardFilter,
    query_texts: tuple[str, ...],
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Beliefs matching words of the text queries, ranked by BM25 (rare words count most)."""
    limits = policy.limits
    return run_arm(
        Arm.LEXICAL,
        lambda: belief_search.lexical(hard_filter, query_texts, limits),
        limits.timeout_ms,
    )
