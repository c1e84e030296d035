"""Arm: pgvector cosine search over the query vectors (ADR-0019 decision 6; DESIGN.md §6:
iterative HNSW scan, ef_search ≥ LIMIT)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hamilton.function_modifiers import tag

from recallflow.models.result import ArmResult
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import run_arm
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch


@tag(stage="arm")
def semantic_hits(
    hard_filter: HardFilter,
    query_vectors: npt.NDArray[np.float32],
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Beliefs nearest in meaning to any text query, above the noise similarity."""
    limits = policy.limits
    return run_arm(
        "semantic_hits",
        lambda: belief_search.semantic(
            hard_filter,
            query_vectors,
            limits.per_arm,
            limits.semantic_min_similarity,
            limits.hnsw_ef_search,
        ),
        limits.timeout_ms,
    )
