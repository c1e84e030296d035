"""Arm: pgvector cosine search over the query vectors (an iterative HNSW scan with
``ef_search`` at least the number of hits asked for, so a filtered scan does not return
too few rows), dropping hits under a noise cosine read on the embedder's own scale."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hamilton.function_modifiers import tag

from recallflow.models.result import Arm, ArmResult
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import run_arm
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch


@tag(stage="arm", searches="query_vectors")
def semantic_hits(
    hard_filter: HardFilter,
    query_vectors: npt.NDArray[np.float32],
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Beliefs nearest in meaning to any text query, above the noise similarity (read on
    the embedder's scale: :meth:`~recallflow.policy.ArmLimits.semantic_cut`)."""
    limits = policy.limits
    cut = limits.semantic_cut(policy.calibration)
    if cut != limits.semantic_min_similarity:
        limits = limits.model_copy(update={"semantic_min_similarity": cut})
    return run_arm(
        Arm.SEMANTIC,
        lambda: belief_search.semantic(hard_filter, query_vectors, limits),
        limits.timeout_ms,
    )
