"""The public result of a recall and its RecallTrace: the block, the items as rendered,
and the record of how they were chosen (see "The trace" in docs/architecture.md).

Item and score travel together in one object, never in parallel lists.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import Field

from recallflow.models.base import FrozenModel
from recallflow.models.request import Moment, Surface


class TrustLevel(StrEnum):
    """How far recalled content is trusted: memory is data, never instructions (decision 11)."""

    MEMORY = "memory"


class ConfidenceBand(StrEnum):
    """What a rendered item says about its confidence, instead of a float (decision 9)."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class Arm(StrEnum):
    """The arms of recall. A value is the name of the DAG node that runs the arm, so the
    config that selects arms, the fusion weights and the trace all name an arm one way."""

    STRUCTURED = "structured_hits"
    LEXICAL = "lexical_hits"
    TRIGRAM = "trigram_hits"
    SEMANTIC = "semantic_hits"
    EXTERNAL = "external_hits"
    GRAPH_EXPANDED = "graph_expanded_hits"


class RecallQuery(FrozenModel):
    """One formed query: structured (normalised keys) or text (decision 3)."""

    kind: Literal["structured", "text"]
    text: str
    keys: tuple[str, ...] = ()
    source: str = Field(description="What in the working state it came from.")


class ArmHit(FrozenModel):
    """One belief an arm found, at its rank in that arm (1-based)."""

    belief_id: str
    rank: int = Field(ge=1)
    raw_score: float


class ArmResult(FrozenModel):
    """What one arm returned, in its own order, with its latency and any failure."""

    arm: Arm
    hits: tuple[ArmHit, ...] = ()
    latency_ms: float = 0.0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class FusedCandidate(FrozenModel):
    """A belief after reciprocal rank fusion, with the rank each arm gave it (decision 6)."""

    belief_id: str
    rrf_score: float
    arm_ranks: dict[Arm, int]


class ScoreBreakdown(FrozenModel):
    """Each feature of the ranking function and its weighted contribution (decision 7)."""

    match: float
    confidence_state: float
    corroboration: float
    authority: float
    scope_affinity: float
    utility: float
    penalties: dict[str, float]
    total: float


class RecalledItem(FrozenModel):
    """One rendered belief, as the agent sees it."""

    belief_id: str
    text: str = Field(description="The statement as rendered ([BLOCKED] if it failed the scan).")
    band: ConfidenceBand
    trust: TrustLevel = TrustLevel.MEMORY
    origin_project: str | None = Field(
        default=None, description="Set when recalled outside its origin project (decision 5)."
    )
    conflict_set_id: str | None = None
    provisional: bool = False
    blocked: bool = False
    score: float
    tokens: int = 0


class NodeRun(FrozenModel):
    """One node execution in the lineage of a recall (DESIGN.md §3)."""

    node: str
    module: str
    version: str = Field(description="Hash of the node function's source.")
    wall_ms: float
    ok: bool
    error: str | None = None


class ScoredEntry(FrozenModel):
    """A scored candidate as the trace records it (operator view)."""

    belief_id: str
    score: float
    band: ConfidenceBand
    transferred: bool
    arm_ranks: dict[Arm, int]
    breakdown: ScoreBreakdown


class RecallTrace(FrozenModel):
    """The record of one recall, built in the render pass from the rendered objects
    (decisions 14, 15). ``rendered_sha256`` binds it to the exact bytes handed over."""

    id: str
    tenant_id: str
    principal_id: str
    session_id: str | None
    moment: Moment
    surface: Surface
    project: str | None
    as_of: datetime
    known_as_of: datetime
    request_digest: str
    retrieval_policy_version: str
    dag_version: str
    queries: tuple[RecallQuery, ...]
    arms: tuple[ArmResult, ...]
    degraded_arms: tuple[Arm, ...]
    fused: tuple[FusedCandidate, ...]
    scored: tuple[ScoredEntry, ...]
    ranked_ids: tuple[str, ...] = Field(
        description="Every resolved candidate in final rank order, before floor and budget."
    )
    floor: float
    floor_dropped: int
    floor_dropped_ids: tuple[str, ...]
    budget_dropped: int
    budget_dropped_ids: tuple[str, ...]
    blocked: int
    rendered_ids: tuple[str, ...]
    rendered_tokens: int
    rendered_sha256: str
    lineage: tuple[NodeRun, ...] = ()

    @property
    def degraded(self) -> bool:
        return bool(self.degraded_arms)


class RecallResult(FrozenModel):
    """What the agent gets: the block, its hash, the items, and the trace."""

    block: str
    rendered_sha256: str
    items: tuple[RecalledItem, ...]
    trace: RecallTrace

    @property
    def trace_id(self) -> str:
        return self.trace.id

    @property
    def degraded(self) -> bool:
        return self.trace.degraded

    @property
    def rendered_ids(self) -> tuple[str, ...]:
        return tuple(item.belief_id for item in self.items)
