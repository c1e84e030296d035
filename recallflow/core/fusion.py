"""Reciprocal rank fusion: list in, list out, no I/O.

``rrf(d) = Σ_arms w_arm / (k + rank_arm(d))``, with ``k`` and the weights from the policy
and every weight 1.0 unless the policy says otherwise (weighted RRF, the one calibration
knob between arms; ranks are still never compared across arms). Arms can be added or
removed independently; ties break on belief id so the order is total.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TypeVar

from recallflow.models.result import Arm, ArmResult, FusedCandidate

#: An arm's name type (a belief arm's name, an episode arm).
A = TypeVar("A", bound=str)


def reciprocal_rank_fusion(
    results: Iterable[ArmResult], k: int, weights: Mapping[Arm, float] | None = None
) -> tuple[FusedCandidate, ...]:
    """Fuse the hits of every arm that succeeded; a failed arm contributes nothing.

    :param k: the RRF constant (the policy's ``rrf_k``).
    :param weights: how much each arm's votes count; an arm not in it counts 1.0.
    """
    return fused_candidates_of(fuse_ranks(arm_rankings(results), k, weights))


def fused_candidates_of(
    ranked: Iterable[tuple[str, float, dict[Arm, int]]],
) -> tuple[FusedCandidate, ...]:
    """The :class:`FusedCandidate` of each ``(id, score, {arm: rank})`` of :func:`fuse_ranks`,
    in order."""
    # Built without validating again: ids, ranks and arms come from validated arm results,
    # each score is a float computed here (a recall fuses ~100 candidates twice).
    make = FusedCandidate.trusted
    return tuple(
        make(belief_id=belief_id, rrf_score=float(score), arm_ranks=ranks)
        for belief_id, score, ranks in ranked
    )


def arm_rankings(results: Iterable[ArmResult]) -> Iterator[tuple[Arm, list[tuple[str, int]]]]:
    """Each arm that succeeded as a plain ranking, ``(arm, [(belief id, rank), ...])``."""
    return ((r.arm, [(h.belief_id, h.rank) for h in r.hits]) for r in results if r.ok)


def fuse_ranks(
    rankings: Iterable[tuple[A, Iterable[tuple[str, int]]]],
    k: int,
    weights: Mapping[A, float] | None = None,
) -> list[tuple[str, float, dict[A, int]]]:
    """Fusion over plain rankings, ``(arm, [(id, rank), ...])``, for any kind of item
    (beliefs here, episodes in archival search): ``(id, score, {arm: rank})`` ordered by
    score desc, then id."""
    weights = weights or {}
    scores: dict[str, float] = {}
    ranks: dict[str, dict[A, int]] = {}
    for arm, ranked in rankings:
        weight = weights.get(arm, 1.0)
        for item_id, rank in ranked:
            scores[item_id] = scores.get(item_id, 0.0) + weight / (k + rank)
            ranks.setdefault(item_id, {})[arm] = rank
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return [(item_id, score, ranks[item_id]) for item_id, score in ordered]
