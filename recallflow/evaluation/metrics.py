"""Ranking metrics of the evaluation harness.

Pure functions over ranked id lists, so each one is checked against hand-computed values
in ``tests/test_eval_metrics.py``:

* :func:`recall_at_k`: ``|top-k ∩ relevant| / |relevant|``, the LoCoMo paper's "recall
  accuracy" (Maharana et al., ACL 2024, Table 3).
* :func:`ndcg_at_k`: binary gains, ``log2(rank + 1)`` discount, ideal DCG from
  ``min(k, |relevant|)`` relevant items at the top.
* :func:`reciprocal_rank`: ``1 / rank`` of the first relevant id in the *full* ranking
  (0 when none is ranked); its mean over questions is MRR.
* :func:`rrf_fuse`: reciprocal rank fusion, ``Σ 1 / (k + rank)`` with :data:`RRF_K`, ties
  broken by id so the order is total (the BM25 + dense baseline).
* :func:`percentile`: linear-interpolated percentile (numpy's default method) for latency.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

#: The k of the BM25 + dense RRF baseline: the textbook value (Cormack et al., 2009), fixed
#: so the baseline stays the standard one whatever recallflow's own policy uses.
RRF_K = 60


def recall_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int) -> float:
    """Fraction of ``relevant`` found in the first ``k`` of ``ranked`` (0.0 if none relevant)."""
    rel = set(relevant)
    if not rel:
        return 0.0
    return len(rel.intersection(ranked[:k])) / len(rel)


def ndcg_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int) -> float:
    """nDCG@k with binary gains: DCG of ``ranked[:k]`` over the ideal DCG."""
    rel = set(relevant)
    if not rel:
        return 0.0
    seen: set[str] = set()
    dcg = 0.0
    for index, item in enumerate(ranked[:k]):
        if item in rel and item not in seen:
            dcg += 1.0 / math.log2(index + 2)
        seen.add(item)
    ideal = sum(1.0 / math.log2(index + 2) for index in range(min(k, len(rel))))
    return dcg / ideal


def reciprocal_rank(ranked: Sequence[str], relevant: Iterable[str]) -> float:
    """``1 / rank`` of the first relevant item in ``ranked`` (1-based); 0.0 when absent."""
    rel = set(relevant)
    for index, item in enumerate(ranked):
        if item in rel:
            return 1.0 / (index + 1)
    return 0.0


def rrf_fuse(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> list[str]:
    """Fuse ranked lists by reciprocal rank: score ``Σ 1 / (k + rank)``, rank 1-based.

    The result is ordered by score descending, then id ascending (a total order).
    """
    return [item for item, _ in rrf_scores(rankings, k)]


def rrf_scores(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> list[tuple[str, float]]:
    """:func:`rrf_fuse` with each item's fused score, in the same order."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        seen: set[str] = set()
        for index, item in enumerate(ranking):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + index + 1)
    return sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) with linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    if not 0.0 <= q <= 100.0:
        raise ValueError("q must be within [0, 100]")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = math.floor(position)
    high = math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def mean(values: Iterable[float]) -> float:
    """Arithmetic mean; 0.0 for no values."""
    items = list(values)
    return sum(items) / len(items) if items else 0.0


def case_scores(ranked: Sequence[str], relevant: Iterable[str]) -> Mapping[str, float]:
    """The per-question ranked metrics the report aggregates: R@5, R@10, nDCG@10, MRR."""
    rel = set(relevant)
    return {
        "r5": recall_at_k(ranked, rel, 5),
        "r10": recall_at_k(ranked, rel, 10),
        "ndcg10": ndcg_at_k(ranked, rel, 10),
        "mrr": reciprocal_rank(ranked, rel),
    }
