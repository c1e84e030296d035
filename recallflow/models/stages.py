"""Values passed between the stages of a recall: internal to the DAG, frozen so a stage
cannot change what an earlier stage produced.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from recallflow.models.base import FrozenModel
from recallflow.models.result import (
    ConfidenceBand,
    Correction,
    FusedCandidate,
    FusedEpisode,
    RecalledEpisode,
    RecalledItem,
    ScoreBreakdown,
)
from recallflow.models.store import Belief, Episode, Key, LifecycleState, Sensitivity


class HardFilter(FrozenModel):
    """The isolation boundary of one recall, applied as SQL in every arm (see "Hard filters"
    in docs/architecture.md).

    Project scope is deliberately absent: it is a relevance signal, not a filter.
    """

    tenant_id: Key
    principal_id: Key
    states: tuple[LifecycleState, ...]
    as_of: datetime
    known_as_of: datetime
    sensitivity_ceiling: Sensitivity


class TextCoverage(FrozenModel):
    """One text query's words against one belief, each word weighted by its rarity: the
    weight the belief holds and the weight of all the query's words; and how many of the
    query's words the belief holds, of how many (0 of 0: not counted)."""

    held: float
    total: float
    words_held: int = Field(default=0, ge=0)
    words: int = Field(default=0, ge=0)


class CandidateEvidence(FrozenModel):
    """What the store says about one candidate against the query: its cosine with each
    query vector, in order, its rarity-weighted coverage of the query's terms, whether
    its subject or an entity is one the working state names that few beliefs carry, and
    how much it shares the direction common to all the loaded candidates."""

    cosines: tuple[float, ...]
    texts: tuple[TextCoverage, ...] = ()
    names: tuple[TextCoverage, ...] = Field(
        default=(),
        description="Per text query, its coverage of the names the query mentions alone"
        " (empty: no query names anyone).",
    )
    subject_match: bool = False
    centrality: float | None = Field(
        default=None,
        description="Its vector's inner product with the sum of the vectors of every"
        " candidate loaded with it, itself included (None: no vector).",
    )

    @property
    def coverage(self) -> float:
        """The best share of a text query's rarity-weighted words the belief holds."""
        return max((t.held / t.total for t in self.texts if t.total > 0), default=0.0)

    @property
    def floor_coverage(self) -> float:
        """:attr:`coverage` as the floor reads it: a text query of which the belief holds
        only names it mentions (:attr:`names`) is not covered at all. A name is a rare
        word every belief about the person holds, whatever the query asks of them."""
        if not self.names:
            return self.coverage
        return max(
            (
                t.held / t.total
                for t, names in zip(self.texts, self.names, strict=False)
                if t.total > 0 and t.held - names.held > _NO_WEIGHT
            ),
            default=0.0,
        )


#: A rarity weight this small is none (the weights are sums of logarithms, read as float8).
_NO_WEIGHT = 1e-9


class EvidenceSet(FrozenModel):
    """The evidence of every loaded candidate, the links between them (each once,
    undirected) and which linked candidate follows which."""

    by_id: dict[str, CandidateEvidence]
    links: tuple[tuple[str, str, float], ...] = ()
    follows: tuple[tuple[str, str], ...] = Field(
        default=(),
        description="Pairs (earlier, later) of candidates joined by a `follows` edge: the"
        " later was said right after the earlier (a reply after the turn it answers).",
    )
    error: str | None = Field(
        default=None, description="Why no evidence could be read (the recall degraded)."
    )


class CandidateLoad(FrozenModel):
    """The fused candidates as loaded, by id, with their relevance evidence; or none, and
    why, when loading failed or timed out (the recall degrades: see "Reliability" in
    docs/architecture.md)."""

    beliefs: dict[str, Belief]
    evidence: EvidenceSet = EvidenceSet(by_id={})
    error: str | None = None


class ScoredCandidate(FrozenModel):
    """A candidate belief with its score, band and the transfer facts that shaped them."""

    belief: Belief
    fused: FusedCandidate
    breakdown: ScoreBreakdown
    band: ConfidenceBand
    transferred: bool = Field(description="Recalled outside its origin project.")

    @property
    def score(self) -> float:
        return self.breakdown.total

    @property
    def belief_id(self) -> str:
        return self.belief.id


class ConflictGroup(FrozenModel):
    """An unresolved conflict set, shown as one unit, members in score order (see
    "Conflicts" in docs/architecture.md)."""

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


class FloorOutcome(FrozenModel):
    """What cleared the relevance floor, and the ids it dropped."""

    kept: tuple[Resolved, ...]
    dropped_ids: tuple[str, ...]


class RenderUnit(FrozenModel):
    """What is budgeted and rendered as one: an item, or a whole conflict set."""

    items: tuple[RecalledItem, ...]
    conflict_set_id: str | None = None
    score: float

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(item.belief_id for item in self.items)


class TrustOutcome(FrozenModel):
    """Units after the trust boundary: scanned, marked MEMORY."""

    units: tuple[RenderUnit, ...]
    blocked_ids: tuple[str, ...]
    blocked_families: dict[str, str] = Field(
        default_factory=dict, description="Each blocked id's family, as the scanner named it."
    )
    redacted_ids: tuple[str, ...]
    scanner_version: str


class BudgetOutcome(FrozenModel):
    """Units within the item cap, the token cap and the window ceiling."""

    units: tuple[RenderUnit, ...]
    dropped_ids: tuple[str, ...]
    max_items: int
    max_tokens: int
    tokens: int


class CorrectionOutcome(FrozenModel):
    """A session turn's corrections within their share of the turn's token cap: those to
    render, in order (the first one maybe abridged), and how many wait for a later turn."""

    corrections: tuple[Correction, ...]
    deferred: int = Field(ge=0)
    tokens: int = Field(ge=0, description="Tokens of the section, frame included (0: none).")


NO_CORRECTIONS = CorrectionOutcome(corrections=(), deferred=0, tokens=0)


class RenderedBlock(FrozenModel):
    """The exact bytes handed to the agent and their sha256, taken once, here."""

    text: str
    sha256: str
    items: tuple[RecalledItem, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(item.belief_id for item in self.items)


# --- archival episode search (see "Moments" in docs/architecture.md) ---------------------


class EpisodeFilter(FrozenModel):
    """The isolation boundary of one archival search, applied as SQL in both arms and in
    the load (see "Hard filters" in docs/architecture.md): tenant, principal, world time
    (occurred by ``as_of``), system time (recorded by ``known_as_of``) and the surface's
    sensitivity ceiling. Episodes have no lifecycle state, so there are no states here."""

    tenant_id: Key
    principal_id: Key
    as_of: datetime
    known_as_of: datetime
    sensitivity_ceiling: Sensitivity


class EpisodeCandidate(FrozenModel):
    """A fused episode, loaded (and so filtered again)."""

    episode: Episode
    fused: FusedEpisode

    @property
    def episode_id(self) -> str:
        return self.episode.id

    @property
    def score(self) -> float:
        return self.fused.rrf_score


class EpisodeFloorOutcome(FrozenModel):
    """The fused episodes that cleared the episode floor, in rank order, and the ids
    dropped."""

    kept: tuple[FusedEpisode, ...]
    dropped_ids: tuple[str, ...]


class EpisodeTrustOutcome(FrozenModel):
    """Kept episodes as MEMORY items: excerpted, scanned, in rank order."""

    items: tuple[RecalledEpisode, ...]
    blocked_ids: tuple[str, ...]


class EpisodeBudgetOutcome(FrozenModel):
    """Episodes within the item cap, the token cap and the window ceiling."""

    items: tuple[RecalledEpisode, ...]
    dropped_ids: tuple[str, ...]
    max_items: int
    max_tokens: int
    tokens: int


class RenderedEpisodes(FrozenModel):
    """The exact bytes of an archival search handed to the agent and their sha256."""

    text: str
    sha256: str
    items: tuple[RecalledEpisode, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(item.episode_id for item in self.items)
