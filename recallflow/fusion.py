"""Reciprocal rank fusion (ADR-0019 decision 6): list in, list out, no I/O.

``rrf(d) = Σ_arms 1 / (k + rank_arm(d))`` with k = 60. Arms need no cross-calibration
and can be added or removed independently; ties break on belief id so the order is total.
"""

from __future__ import annotations

from collections.abc import Iterable

from recallflow.recall_models import ArmResult, FusedCandidate


def reciprocal_rank_fusion(results: Iterable[ArmResult], k: int = 60) -> tuple[FusedCandidate, ...]:
    """Fuse the hits of every arm that succeeded; a failed arm contributes nothing."""
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    for result in results:
        if not result.ok:
            continue
        for hit in result.hits:
            scores[hit.belief_id] = scores.get(hit.belief_id, 0.0) + 1.0 / (k + hit.rank)
            ranks.setdefault(hit.belief_id, {})[result.arm] = hit.rank
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return tuple(
        FusedCandidate(belief_id=belief_id, rrf_score=score, arm_ranks=ranks[belief_id])
        for belief_id, score in ordered
    )
