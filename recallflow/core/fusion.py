"""Reciprocal rank fusion: list in, list out, no I/O.

``rrf(d) = Σ_arms w_arm / (k + rank_arm(d))``, with ``k`` and the weights from the policy
and every weight 1.0 unless the policy says otherwise (weighted RRF, the one calibration
knob between arms; ranks are still never compared across arms). Arms can be added or
removed independently; ties break on belief id so the order is total.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from recallflow.models.result import Arm, ArmResult, FusedCandidate


def reciprocal_rank_fusion(
    results: Iterable[ArmResult], k: int, weights: Mapping[Arm, float] | None = None
) -> tuple[FusedCandidate, ...]:
    """Fuse the hits of every arm that succeeded; a failed arm contributes nothing.

    :param k: the RRF constant (the policy's ``rrf_k``).
    :param weights: how much each arm's votes count; an arm not in it counts 1.0.
    """
    weights = weights or {}
    scores: dict[str, float] = {}
    ranks: dict[str, dict[Arm, int]] = {}
    for result in results:
        if not result.ok:
            continue
        weight = weights.get(result.arm, 1.0)
        for hit in result.hits:
            scores[hit.belief_id] = scores.get(hit.belief_id, 0.0) + weight / (k + hit.rank)
            ranks.setdefault(hit.belief_id, {})[result.arm] = hit.rank
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return tuple(
        FusedCandidate(belief_id=belief_id, rrf_score=score, arm_ranks=ranks[belief_id])
        for belief_id, score in ordered
    )
