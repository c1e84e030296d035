"""Per-question outcomes and their aggregation into the report's rows.

A :class:`CaseOutcome` is one system's answer to one question, reduced to its metrics
at once (no rankings are kept). :func:`summarise` turns a set of outcomes into a
:class:`MetricRow`: means of R@5, R@10, nDCG@10 and MRR, latency p50/p95, and, for
systems that render a block, block recall, precision and size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict, Field

from recallflow.evaluation.datasets import Split
from recallflow.evaluation.metrics import case_scores, mean, percentile


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BlockScores(_Frozen):
    """What a rendered block contained, against the relevant ids."""

    recall: float = Field(description="|rendered ∩ relevant| / |relevant|.")
    precision: float | None = Field(
        description="|rendered ∩ relevant| / |rendered|; None if empty."
    )
    size: int
    found: int = Field(default=0, description="Relevant ids among the ranked candidates.")
    floor_dropped: int = Field(default=0, description="Of those, how many the floor dropped.")


class CaseOutcome(_Frozen):
    """One system's result for one question."""

    system: str
    group: str
    split: Split
    category: int
    case_id: str
    r5: float
    r10: float
    ndcg10: float
    mrr: float
    ms: float
    returned: int = Field(description="How many ids the system ranked.")
    block: BlockScores | None = None


def outcome(
    *,
    system: str,
    group: str,
    split: Split,
    category: int,
    case_id: str,
    ranked: Sequence[str],
    relevant: Sequence[str],
    ms: float,
    rendered: Sequence[str] | None = None,
    floor_dropped: Sequence[str] = (),
) -> CaseOutcome:
    """Score one ranking (and, if given, one rendered block) against ``relevant``."""
    scores = case_scores(ranked, relevant)
    block: BlockScores | None = None
    if rendered is not None:
        rel = set(relevant)
        hits = len(rel.intersection(rendered))
        block = BlockScores(
            recall=hits / len(rel) if rel else 0.0,
            precision=hits / len(rendered) if rendered else None,
            size=len(rendered),
            found=len(rel.intersection(ranked)),
            floor_dropped=len(rel.intersection(floor_dropped)),
        )
    return CaseOutcome(
        system=system,
        group=group,
        split=split,
        category=category,
        case_id=case_id,
        ms=ms,
        returned=len(ranked),
        block=block,
        **scores,
    )


class MetricRow(_Frozen):
    """Aggregated metrics of one system over one set of questions."""

    n: int
    r5: float
    r10: float
    ndcg10: float
    mrr: float
    p50_ms: float
    p95_ms: float
    mean_returned: float
    block_recall: float | None = None
    block_precision: float | None = None
    block_size: float | None = None
    empty_blocks: int | None = None
    floor_loss: float | None = Field(
        default=None,
        description="Of the evidence among the ranked candidates, the share the floor dropped.",
    )
    block_sizes: dict[int, int] | None = Field(
        default=None, description="Items per rendered block -> how many blocks had that many."
    )


def summarise(outcomes: Iterable[CaseOutcome]) -> MetricRow | None:
    """Means and latency percentiles over ``outcomes``; None when there are none."""
    items = list(outcomes)
    if not items:
        return None
    latencies = [o.ms for o in items]
    blocks = [o.block for o in items if o.block is not None]
    precisions = [b.precision for b in blocks if b.precision is not None]
    return MetricRow(
        n=len(items),
        r5=mean(o.r5 for o in items),
        r10=mean(o.r10 for o in items),
        ndcg10=mean(o.ndcg10 for o in items),
        mrr=mean(o.mrr for o in items),
        p50_ms=percentile(latencies, 50),
        p95_ms=percentile(latencies, 95),
        mean_returned=mean(float(o.returned) for o in items),
        block_recall=mean(b.recall for b in blocks) if blocks else None,
        block_precision=mean(precisions) if precisions else None,
        block_size=mean(float(b.size) for b in blocks) if blocks else None,
        empty_blocks=sum(1 for b in blocks if b.size == 0) if blocks else None,
        block_sizes=dict(sorted(Counter(b.size for b in blocks).items())) if blocks else None,
        floor_loss=(
            sum(b.floor_dropped for b in blocks) / found
            if (found := sum(b.found for b in blocks))
            else None
        ),
    )
