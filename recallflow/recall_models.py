"""The models of a recall: the request, the values passed between stages, the result and
the RecallTrace (ADR-0019 decisions 1, 3, 4, 6–11, 14, 15; DESIGN.md §3).

Item and score travel together in one object (STYLE.md: never parallel lists), and every
model is frozen, so a stage cannot change what an earlier stage produced.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from recallflow.models import Belief, Key, LifecycleState, Sensitivity, normalise_subject


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Moment(StrEnum):
    """When a recall happens (decision 1)."""

    SESSION_SNAPSHOT = "session_snapshot"
    IN_TURN = "in_turn"
    CHILD_RUN = "child_run"


class Surface(StrEnum):
    """Where the recalled block is shown; each surface has a sensitivity ceiling (decision 11).

    The ceilings are in :data:`recallflow.policy.SURFACE_CEILINGS`.
    """

    DIRECT = "direct"  # a one-to-one session with the principal
    TEAM = "team"  # a channel other people of the tenant can read
    PUBLIC = "public"  # anything anyone may read
    VAULT = "vault"  # an explicitly elevated, principal-only surface


class TrustLevel(StrEnum):
    """How far recalled content is trusted: memory is data, never instructions (decision 11)."""

    MEMORY = "memory"


class ConfidenceBand(StrEnum):
    """What a rendered item says about its confidence, instead of a float (decision 9)."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class WorkingState(_Frozen):
    """What the agent is doing now; recall queries derive from this (decision 3)."""

    goal: str | None = Field(default=None, max_length=4000, description="The current goal.")
    query: str | None = Field(
        default=None, max_length=4000, description="An explicit recall query, when there is one."
    )
    entities: tuple[str, ...] = Field(default=(), max_length=64, description="Active entities.")
    files: tuple[str, ...] = Field(default=(), max_length=64, description="Files in play.")
    tools: tuple[str, ...] = Field(default=(), max_length=64, description="Tools in play.")
    recent_turns: tuple[str, ...] = Field(
        default=(), max_length=16, description="Summaries of the last few turns, oldest first."
    )


class RecallRequest(_Frozen):
    """Who asks, where, when and about what (DESIGN.md §1)."""

    tenant_id: Key
    principal_id: Key
    working_state: WorkingState
    moment: Moment = Moment.IN_TURN
    surface: Surface = Surface.DIRECT
    project: Key | None = Field(default=None, description="The project the agent works in now.")
    session_id: Key | None = None
    as_of: datetime | None = Field(
        default=None, description="World time to recall at; None means now (resolved at entry)."
    )
    known_as_of: datetime | None = Field(
        default=None, description="System time to recall at; None means the same as as_of."
    )
    max_items: int | None = Field(default=None, ge=0, le=200, description="Item cap override.")
    max_tokens: int | None = Field(default=None, ge=0, le=20_000, description="Token cap override.")
    model_window: int = Field(
        default=200_000, ge=1_000, description="The model's context window, in tokens."
    )

    @field_validator("as_of", "known_as_of")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("must be timezone-aware")
        return value


class RecallQuery(_Frozen):
    """One formed query: structured (normalised keys) or text (decision 3)."""

    kind: Literal["structured", "text"]
    text: str
    keys: tuple[str, ...] = ()
    source: str = Field(description="What in the working state it came from.")


class HardFilter(_Frozen):
    """The isolation boundary of one recall (decision 4), applied as SQL in every arm.

    Project scope is deliberately absent: it is a relevance signal, not a filter.
    """

    tenant_id: Key
    principal_id: Key
    states: tuple[LifecycleState, ...]
    as_of: datetime
    known_as_of: datetime
    sensitivity_ceiling: Sensitivity


class ArmHit(_Frozen):
    """One belief an arm found, at its rank in that arm (1-based)."""

    belief_id: str
    rank: int = Field(ge=1)
    raw_score: float


class ArmResult(_Frozen):
    """What one arm returned, in its own order, with its latency and any failure."""

    arm: str
    hits: tuple[ArmHit, ...] = ()
    latency_ms: float = 0.0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class FusedCandidate(_Frozen):
    """A belief after reciprocal rank fusion, with the rank each arm gave it (decision 6)."""

    belief_id: str
    rrf_score: float
    arm_ranks: dict[str, int]


class ScoreBreakdown(_Frozen):
    """Each feature of the ranking function and its weighted contribution (decision 7)."""

    match: float
    confidence_state: float
    corroboration: float
    authority: float
    scope_affinity: float
    utility: float
    penalties: dict[str, float]
    total: float


class ScoredCandidate(_Frozen):
    """A candidate belief with its score, band and the transfer facts that shaped them."""

    belief: Belief
    fused: FusedCandidate
    breakdown: ScoreBreakdown
    band: ConfidenceBand
    transferred: bool = Field(description="Recalled outside its origin project (decision 5).")

    @property
    def score(self) -> float:
        return self.breakdown.total

    @property
    def belief_id(self) -> str:
        return self.belief.id


class ConflictGroup(_Frozen):
    """An unresolved conflict set surfaced as such (decision 8), members in score order."""

    conflict_set_id: str
    members: tuple[ScoredCandidate, ...]

    @property
    def score(self) -> float:
        return max(m.score for m in self.members)

    @property
    def lead_id(self) -> str:
        return min(m.belief_id for m in self.members if m.score == self.score)


#: What the resolution stage emits: plain candidates and conflict groups, in rank order.
Resolved = ScoredCandidate | ConflictGroup


class RecalledItem(_Frozen):
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


class NodeRun(_Frozen):
    """One node execution in the lineage of a recall (DESIGN.md §3)."""

    node: str
    module: str
    version: str = Field(description="Hash of the node function's source.")
    wall_ms: float
    ok: bool
    error: str | None = None


class ScoredEntry(_Frozen):
    """A scored candidate as the trace records it (operator view)."""

    belief_id: str
    score: float
    band: ConfidenceBand
    transferred: bool
    arm_ranks: dict[str, int]
    breakdown: ScoreBreakdown


class RecallTrace(_Frozen):
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
    degraded_arms: tuple[str, ...]
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
    redacted: int
    rendered_ids: tuple[str, ...]
    rendered_tokens: int
    rendered_sha256: str
    lineage: tuple[NodeRun, ...] = ()

    @property
    def degraded(self) -> bool:
        return bool(self.degraded_arms)


class RecallResult(_Frozen):
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


def subject_keys(texts: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Normalised, deduplicated subject/entity keys of ``texts``, in order."""
    keys = (normalise_subject(t) for t in texts)
    return tuple(dict.fromkeys(k for k in keys if k))


class FloorOutcome(_Frozen):
    """What cleared the relevance floor (decision 10), and the ids it dropped."""

    kept: tuple[Resolved, ...]
    dropped_ids: tuple[str, ...]


class RenderUnit(_Frozen):
    """What is budgeted and rendered as one: an item, or a whole conflict set."""

    items: tuple[RecalledItem, ...]
    conflict_set_id: str | None = None
    score: float

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(item.belief_id for item in self.items)


class TrustOutcome(_Frozen):
    """Units after the trust boundary: scanned, marked MEMORY (decision 11)."""

    units: tuple[RenderUnit, ...]
    blocked_ids: tuple[str, ...]
    redacted_ids: tuple[str, ...]
    scanner_version: str


class BudgetOutcome(_Frozen):
    """Units within the item cap, the token cap and the window ceiling (decision 17)."""

    units: tuple[RenderUnit, ...]
    dropped_ids: tuple[str, ...]
    max_items: int
    max_tokens: int
    tokens: int


class RenderedBlock(_Frozen):
    """The exact bytes handed to the agent and their sha256 (decisions 9, 15)."""

    text: str
    sha256: str
    items: tuple[RecalledItem, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(item.belief_id for item in self.items)
