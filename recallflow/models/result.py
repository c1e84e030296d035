"""The public result of a recall and its RecallTrace: the block, the items as rendered,
and the record of how they were chosen (see "The trace" in docs/architecture.md).

Item and score travel together in one object, never in parallel lists.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from recallflow.models.base import FrozenModel, ModelEnum
from recallflow.models.request import Moment, Surface
from recallflow.models.session import SessionKind, ShownBelief, SnapshotBelief
from recallflow.models.store import EpisodeKind, Sensitivity


class TrustLevel(ModelEnum):
    """How far recalled content is trusted: memory is data, never instructions."""

    MEMORY = "memory"


class ConfidenceBand(ModelEnum):
    """How sure memory is of an item: high, medium or low, said instead of a number."""

    # A band, not a float: see "Rendering" in docs/architecture.md. The docstring above is
    # the band's description in every JSON schema, a model's tools' among them.

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class Arm(ModelEnum):
    """The arms of recall. A value is the name of the DAG node that runs the arm, so the
    config that selects arms, the fusion weights and the trace all name an arm one way."""

    STRUCTURED = "structured_hits"
    LEXICAL = "lexical_hits"
    TRIGRAM = "trigram_hits"
    SEMANTIC = "semantic_hits"
    EXTERNAL = "external_hits"
    GRAPH_EXPANDED = "graph_expanded_hits"
    PERIOD = "period_hits"
    DURABLE = "durable_hits"  # the session snapshot's query-free core, not a fused arm
    PROFILE = "profile_hits"  # the durable beliefs a turn asks for as a whole, not fused


class RecallQuery(FrozenModel):
    """One formed query: structured (normalised keys) or text."""

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
    """A belief after reciprocal rank fusion, with the rank each arm gave it."""

    belief_id: str
    rrf_score: float
    arm_ranks: dict[Arm, int]


class RelevanceEvidence(FrozenModel):
    """How much of the query's meaning one candidate covers, absolutely (not by rank): what
    the ranking's relevance feature and the relevance floor read (see "Relevance floor" in
    docs/architecture.md)."""

    cosine: float | None = Field(
        description="Best cosine similarity over the query vectors (None: no embedding)."
    )
    standing: float | None = Field(
        description="How far the cosine stands above the query's most similar unrelated"
        " sentence, in spreads of the embedder's unrelated-pair cosine (None: uncalibrated)."
    )
    coverage: float = Field(
        description="Share of the query's terms, weighted by rarity, the belief contains."
    )
    clearing_coverage: float = Field(
        default=0.0,
        description="The coverage the floor reads for clearing: as coverage, but none of a"
        " query of which the belief holds only names it mentions (floor.names_aside), nor of"
        " one that names someone no candidate holds (floor.unknown_names). Alone it clears"
        " only a belief that holds floor.coverage_words of the query's words, or one no other"
        " candidate holds alike (whether it cleared: clears).",
    )
    own: float = Field(description="Its own relevance: coverage and calibrated similarity.")
    support: float = Field(description="Best linked candidate's own relevance × link weight.")
    relevance: float = Field(
        description="own + neighbour share × support, or the adjacency lent by a linked top"
        ' candidate if more, plus the period match; at most 1 (see "Ranking" in'
        " docs/architecture.md)."
    )
    subject_match: bool = Field(
        default=False,
        description="It carries (as subject or entity) an entity the working state names,"
        " carried by few beliefs.",
    )
    clears: bool = Field(description="Its own evidence clears the floor's absolute thresholds.")
    asking: float = Field(
        default=0.0,
        description="The share of its words that ask, when its statement ends by asking (0"
        " otherwise): a turn that mostly asks is not kept by the floor.",
    )


class FloorBridge(FrozenModel):
    """A candidate the relevance floor kept only as the bridged neighbour of another: it
    shares with ``lead`` (the first kept candidate that clears by its own evidence) an
    entity the query does not name, ``entity`` (see "Relevance floor" in
    docs/architecture.md)."""

    belief_id: str = Field(description="The candidate kept as a bridged neighbour.")
    lead: str = Field(description="The belief it was kept beside.")
    entity: str = Field(description="The entity (a key) they share that bridged them.")


class FloorInputs(FrozenModel):
    """The relevance floor's thresholds and the calibration it read, for one recall."""

    calibration: str = Field(description="Calibration version (embedder/corpus/digest).")
    semantic_standing: float
    lexical_coverage: float
    lexical_standing: float | None = Field(
        default=None,
        description="The least standing with which coverage alone clears (None: any).",
    )
    relative: float
    near_best: float = Field(
        default=1.0, description="How far under the best score a kept candidate may be."
    )
    strong_standing: float | None = None
    strong_coverage: float | None = None
    strong_near_best: float | None = Field(
        default=None,
        description="How far under the best score a candidate with strong evidence may be.",
    )
    partial_near_best: float = Field(
        default=0.0,
        description="How far under the best score a candidate with partial evidence may be.",
    )
    partial_standing: float | None = None
    partial_coverage: float | None = None
    score: float
    best_score: float = Field(description="Best score among candidates whose evidence clears.")
    odds_intercept: float | None = Field(
        default=None,
        description="The last cut's log-odds at the best score, first place (None: no cut).",
    )
    odds_distance: float | None = Field(
        default=None, description="Its log-odds per unit of score under the best."
    )
    odds_place: float | None = Field(
        default=None, description="Its log-odds per unit of ln(1 + place within the distances)."
    )
    odds_support: float | None = Field(
        default=None, description="Its log-odds per unit of neighbour support."
    )
    odds_min_probability: float = Field(
        default=0.0, description="The least estimated probability a kept candidate has (0: off)."
    )
    goal_parts: int = Field(
        default=1, ge=1, description="How many things the goal lists (each gets a first place)."
    )
    mostly_asking: float | None = Field(
        default=None,
        description="The asking share from which a candidate is not kept (None: no such cut).",
    )


class ScoreBreakdown(FrozenModel):
    """Each feature of the ranking function and its weighted contribution."""

    match: float
    relevance: float = 0.0
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
        default=None, description="Set when recalled outside its origin project."
    )
    origin_redacted: bool = Field(
        default=False,
        description="Learned in another project whose name this surface may not show.",
    )
    names_redacted: int = Field(
        default=0,
        description="Mentions in the text of an entity marked above this surface's ceiling,"
        " shown as (redacted).",
    )
    conflict_set_id: str | None = None
    provisional: bool = False
    flagged: bool = Field(
        default=False,
        description="The user flagged it as possibly wrong (a rejection that did not say"
        " how); its line says so.",
    )
    blocked: bool = False
    score: float
    tokens: int = 0
    sensitivity: Sensitivity | None = Field(
        default=None,
        description="The belief's sensitivity when it was rendered: a view of the trace read"
        " after the belief is forgotten still knows which surfaces were shown it.",
    )


class NodeRun(FrozenModel):
    """One node execution in the lineage of a recall."""

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
    relevance: RelevanceEvidence | None = None


class ExperimentRecord(FrozenModel):
    """What a trace keeps of the experiment that served its recall."""

    name: str
    config: dict[str, str] = Field(
        default_factory=dict, description="Config switches set, each value as JSON."
    )
    modules: tuple[str, ...] = Field(default=(), description="Replacement node modules.")


class CorrectionKind(ModelEnum):
    """What changed about a snapshot belief after the watermark (see "Sessions" in
    docs/architecture.md): the first that applies, in this order of precedence."""

    SUPERSEDED = "superseded"
    RETIRED = "retired"
    EXPIRED = "expired"
    RETRACTED = "retracted"
    WITHDRAWN = "withdrawn"
    EXCLUDED = "excluded"
    FORGOTTEN = "forgotten"
    PROVISIONAL = "provisional"
    RESTORED = "restored"
    CONFLICTED = "conflicted"
    RESOLVED = "resolved"
    FLAGGED = "flagged"
    UNFLAGGED = "unflagged"
    RESTATED = "restated"


class CorrectionPeer(FrozenModel):
    """Another belief a correction names: a replacement, or a member of a conflict."""

    belief_id: str
    text: str = Field(description="Its statement as rendered ([BLOCKED] if it failed the scan).")
    blocked: bool = False


class Correction(FrozenModel):
    """One correction of the cached prefix, rendered in the first turn after the change
    that has room for it in its correction share."""

    belief_id: str = Field(
        description="The belief the agent holds an out-of-date line of: the prefix's, or"
        " one an earlier turn of the session showed."
    )
    kind: CorrectionKind
    text: str | None = Field(
        default=None, description="The belief's own current statement, when the line shows it."
    )
    blocked: bool = False
    replacement: CorrectionPeer | None = None
    replacement_hidden: bool = Field(
        default=False, description="Superseded by a belief this surface may not show."
    )
    replacement_elsewhere: bool = Field(
        default=False,
        description="The replacement is hidden because it does not hold in the session's"
        " project (local to another, or rejected there as not here).",
    )
    replacement_ended: bool = Field(
        default=False,
        description="No replacement is shown because what replaced the belief no longer"
        " holds either (retired, expired or forgotten).",
    )
    replacement_provisional: bool = Field(
        default=False, description="The replacement shown is provisional (unconfirmed)."
    )
    replacement_flagged: bool = Field(
        default=False, description="The replacement shown is flagged as possibly wrong."
    )
    conflict_set_id: str | None = Field(
        default=None,
        description="The unresolved conflict the belief is in; for a superseded belief, the"
        " one its replacement is in.",
    )
    peers: tuple[CorrectionPeer, ...] = Field(
        default=(), description="The other members of that conflict this surface may show."
    )
    abridged: bool = Field(
        default=False,
        description="Rendered in its short form: ids and kind, no statement (the whole"
        " line did not fit the turn's correction share).",
    )


class SnapshotRecord(FrozenModel):
    """What a snapshot trace adds: the session it froze, its budget and composition."""

    kind: SessionKind
    parent_session_id: str | None = None
    max_items: int
    max_tokens: int
    core_reserved: int = Field(description="Items reserved for durable beliefs.")
    core_available: int = Field(description="Durable beliefs that cleared the score floor.")
    priming_available: int = Field(description="Goal-priming beliefs that cleared the floor.")
    prefix_sha256: str = Field(description="sha256 of the prefix: framing + this block.")
    beliefs: tuple[SnapshotBelief, ...] = Field(description="The frozen beliefs, prefix order.")

    def ids(self, part: str | None = None) -> tuple[str, ...]:
        """The frozen belief ids, of one part or of both, in prefix order."""
        return tuple(b.belief_id for b in self.beliefs if part is None or b.part == part)


class RecallTrace(FrozenModel):
    """The record of one recall, built in the render pass from the rendered objects, never
    reconstructed (see "The trace" in docs/architecture.md). ``rendered_sha256`` binds it to
    the exact bytes handed over."""

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
    degraded_stages: dict[str, str] = Field(
        default_factory=dict,
        description="Stages past the arms that failed or timed out, with why (candidates,"
        " evidence): the block holds what the other stages could do.",
    )
    fused: tuple[FusedCandidate, ...]
    scored: tuple[ScoredEntry, ...]
    ranked_ids: tuple[str, ...] = Field(
        description="Every resolved candidate in final rank order, before floor and budget."
    )
    floor: float
    floor_inputs: FloorInputs | None = None
    floor_dropped: int
    floor_dropped_ids: tuple[str, ...]
    floor_bridged: tuple[FloorBridge, ...] = Field(
        default=(),
        description="Candidates the floor kept only as the bridged neighbour of a belief"
        " that cleared (floor.bridge_neighbours): which belief, through which entity.",
    )
    floor_profiled: tuple[str, ...] = Field(
        default=(),
        description="Candidates the floor kept only as beliefs about the user that the turn"
        " asked for as a whole (profile_requests: 'What do you know about me?'), by the"
        " score floor alone.",
    )
    budget_dropped: int
    budget_dropped_ids: tuple[str, ...]
    blocked: int = Field(description="Rendered items shown as [BLOCKED].")
    blocked_by_family: dict[str, int] = Field(
        default_factory=dict, description="The rendered [BLOCKED] items per scanner family."
    )
    blocked_unrendered: int = Field(
        default=0, description="Blocked items the budget dropped (never shown)."
    )
    scanner_version: str = ""
    redacted: int = Field(description="Rendered items with a field redacted for the surface.")
    redacted_by_field: dict[str, int] = Field(
        default_factory=dict,
        description="Redactions in the rendered items per field: origin_project (items),"
        " entity_name (mentions).",
    )
    rendered_ids: tuple[str, ...]
    rendered_tokens: int
    rendered_sha256: str
    lineage: tuple[NodeRun, ...] = ()
    experiment: ExperimentRecord | None = Field(
        default=None, description="The experiment that served this recall; None: the library's DAG."
    )
    corrections: tuple[Correction, ...] = Field(
        default=(), description="Corrections of the session prefix rendered in this block."
    )
    corrections_deferred: int = Field(
        default=0,
        description="In a session: pending corrections left for a later turn (they did not"
        " fit the turn's correction share).",
    )
    corrections_tokens: int = Field(
        default=0,
        description="Tokens of the corrections section, frame included; with rendered_tokens,"
        " the whole text the turn injects.",
    )
    snapshot_relevant: tuple[str, ...] = Field(
        default=(),
        description="In a session: prefix beliefs that cleared this turn's floor (utilization).",
    )
    snapshot_misses: tuple[str, ...] = Field(
        default=(),
        description="In a session: durable beliefs rendered this turn that the prefix lacks.",
    )
    snapshot: SnapshotRecord | None = Field(
        default=None, description="Set on a session snapshot's trace."
    )

    @property
    def degraded(self) -> bool:
        return bool(self.degraded_arms or self.degraded_stages)


class RecallResult(FrozenModel):
    """What the agent gets: the block, its hash, the items, and the trace."""

    block: str
    rendered_sha256: str
    items: tuple[RecalledItem, ...]
    trace: RecallTrace
    shown: tuple[ShownBelief, ...] = Field(
        default=(),
        exclude=True,
        repr=False,
        description="In a session's turn, each belief the block rendered, as the recall read"
        " it: what the session records its turn showed, to correct it in a later turn"
        " once it changes. Not part of the result's JSON.",
    )

    @property
    def trace_id(self) -> str:
        return self.trace.id

    @property
    def degraded(self) -> bool:
        return self.trace.degraded

    @property
    def rendered_ids(self) -> tuple[str, ...]:
        return tuple(item.belief_id for item in self.items)


# --- archival episode search (see "Moments" in docs/architecture.md) ---------------------


class EpisodeArm(ModelEnum):
    """The arms of archival episode search; a value is the name of the DAG node that runs
    it, as for the recall arms."""

    FULL_TEXT = "episode_text_hits"
    VECTOR = "episode_vector_hits"


class EpisodeHit(FrozenModel):
    """One episode an arm found, at its rank in that arm (1-based)."""

    episode_id: str
    rank: int = Field(ge=1)
    raw_score: float = Field(
        description="full text: share of the query's words it contains; vector: cosine."
    )


class EpisodeArmResult(FrozenModel):
    """What one episode arm returned, in its own order, with its latency and any failure."""

    arm: EpisodeArm
    hits: tuple[EpisodeHit, ...] = ()
    latency_ms: float = 0.0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class FusedEpisode(FrozenModel):
    """An episode after reciprocal rank fusion, with each arm's rank and raw score (what
    the floor reads)."""

    episode_id: str
    rrf_score: float
    arm_ranks: dict[EpisodeArm, int]
    similarity: float | None = Field(description="Cosine similarity, if the vector arm found it.")
    coverage: float | None = Field(
        description="Share of the query's words it contains, if the full-text arm found it."
    )
    standing: float | None = Field(
        default=None,
        description="Unrelated-pair spreads its similarity stands above the query's most"
        " similar unrelated sentence (None: not found by the vector arm, or no calibration).",
    )


class RecalledEpisode(FrozenModel):
    """One rendered episode, as the agent sees it."""

    episode_id: str
    occurred_at: datetime
    kind: EpisodeKind
    project: str | None = None
    project_redacted: bool = Field(
        default=False, description="In a project whose name this surface may not show."
    )
    names_redacted: int = Field(
        default=0, description="Mentions of an entity marked above this surface's ceiling."
    )
    text: str = Field(description="The excerpt as rendered ([BLOCKED] if it failed the scan).")
    excerpted: bool = Field(default=False, description="The text is a part of the content.")
    trust: TrustLevel = TrustLevel.MEMORY
    blocked: bool = False
    score: float = Field(description="The fused RRF score it was ranked by.")


class EpisodeTrace(FrozenModel):
    """The record of one archival search, built in the render pass from the rendered
    objects (see "The trace" in docs/architecture.md); ``rendered_sha256`` binds it to the
    exact bytes handed over."""

    id: str
    tenant_id: str
    principal_id: str
    surface: Surface
    as_of: datetime
    known_as_of: datetime
    since: datetime | None = Field(
        default=None, description="The lower bound on when episodes occurred (None: none)."
    )
    query: str
    request_digest: str
    episode_policy_version: str
    dag_version: str
    calibration: str = Field(
        default="", description="The calibration the floor read (its version, as a recall's)."
    )
    query_null: float | None = Field(
        default=None,
        description="The query's highest cosine with the unrelated corpus (None: uncalibrated).",
    )
    arms: tuple[EpisodeArmResult, ...]
    degraded_arms: tuple[EpisodeArm, ...]
    fused: tuple[FusedEpisode, ...]
    floor_dropped_ids: tuple[str, ...]
    budget_dropped_ids: tuple[str, ...]
    blocked: int = Field(description="Rendered episodes shown as [BLOCKED].")
    blocked_by_family: dict[str, int] = Field(
        default_factory=dict, description="The rendered [BLOCKED] episodes per scanner family."
    )
    blocked_unrendered: int = Field(
        default=0, description="Blocked episodes the budget dropped (never shown)."
    )
    scanner_version: str = ""
    redacted: int = Field(default=0, description="Rendered episodes with a field redacted.")
    rendered_ids: tuple[str, ...]
    rendered_tokens: int
    rendered_sha256: str
    lineage: tuple[NodeRun, ...] = ()

    @property
    def degraded(self) -> bool:
        return bool(self.degraded_arms)


class EpisodeSearchResult(FrozenModel):
    """What the agent gets from an archival search: the block, its hash, the episodes
    rendered, and the trace."""

    block: str
    rendered_sha256: str
    items: tuple[RecalledEpisode, ...]
    trace: EpisodeTrace

    @property
    def trace_id(self) -> str:
        return self.trace.id

    @property
    def rendered_ids(self) -> tuple[str, ...]:
        return tuple(item.episode_id for item in self.items)
