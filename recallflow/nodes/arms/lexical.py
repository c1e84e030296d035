"""Arm: Postgres full-text search, BM25-weighted over a capped match set (ADR-0019
decision 6; DESIGN.md §6: cap candidates before ranking)."""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.models.result import ArmResult
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import run_arm
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch


@tag(stage="arm")
def lexical_hits(
    hard_filter: HardFilter,
    query_texts: tuple[str, ...],
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Beliefs matching words of the text queries, ranked by BM25 (rare words count most)."""
    limits = policy.limits
    return run_arm(
        "lexical_hits",
        lambda: belief_search.lexical(
            hard_filter,
            query_texts,
            limits.per_arm,
            limits.lexical_candidate_cap,
            limits.common_share,
            limits.bm25_k1,
            limits.bm25_b,
        ),
        limits.timeout_ms,
    )
