"""Values passed between the stages of a recall: internal to the DAG, frozen so a stage
cannot change what an earlier stage produced.

The values an in-turn recall makes per candidate, and those that carry them from stage to
stage, are slotted frozen dataclasses, not pydantic models: they never leave the process's
API (the trace and the result are built from them as models), and every field of a
pydantic model is read through the ``__getattr__`` hook ``BaseModel`` defines, which
CPython cannot specialise (some 400 instructions a read, against some 60 for a slot; a
recall at 10k read them some 3,600 times). The values built from a request or for a
session's turn stay models.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from pydantic import Field

from recallflow.models.base import FrozenModel, slot_setters, slots_maker
from recallflow.models.result import (
    ConfidenceBand,
    Correction,
    FloorBridge,
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


@dataclass(frozen=True, slots=True, kw_only=True)
class TextCoverage:
    """One text query's words against one belief, each word weighted by its rarity: the
    weight the belief holds and the weight of all the query's words; and how many of the
    query's words the belief holds, of how many (0 of 0: not counted); and which of them
    it holds, as the sum of a 32-bit hash of each (``fingerprint``): two words of the same
    rarity weigh alike, and only the fingerprint tells them apart (0: not read)."""

    held: float
    total: float
    words_held: int = 0
    words: int = 0
    fingerprint: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class CandidateEvidence:
    """What the store says about one candidate against the query: its cosine with each
    query vector, in order, its rarity-weighted coverage of the query's terms, whether
    its subject or an entity is one the working state names that few beliefs carry, and
    how much it shares the direction common to all the loaded candidates."""

    cosines: tuple[float, ...]
    texts: tuple[TextCoverage, ...] = ()
    #: Per text query, its coverage of the names the query mentions alone (empty: no
    #: query names anyone).
    names: tuple[TextCoverage, ...] = ()
    subject_match: bool = False
    #: Its vector's inner product with the sum of the vectors of every candidate loaded
    #: with it, itself included (None: no vector).
    centrality: float | None = None

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


#: :class:`TextCoverage` and :class:`CandidateEvidence` made as plain function calls
#: (:func:`slots_maker`): the load makes one of each a candidate.
make_text_coverage = slots_maker(TextCoverage)
make_candidate_evidence = slots_maker(CandidateEvidence)

#: A rarity weight this small is none (the weights are sums of logarithms, read as float8).
_NO_WEIGHT = 1e-9


@dataclass(frozen=True, slots=True, kw_only=True)
class EvidenceSet:
    """The evidence of every loaded candidate, the links between them (each once,
    undirected) and which linked candidate follows which."""

    by_id: dict[str, CandidateEvidence]
    links: tuple[tuple[str, str, float], ...] = ()
    #: Pairs (earlier, later) of candidates joined by a `follows` edge: the later was said
    #: right after the earlier (a reply after the turn it answers).
    follows: tuple[tuple[str, str], ...] = ()
    #: Why no evidence could be read (the recall degraded).
    error: str | None = None


#: The evidence of no candidate.
NO_EVIDENCE = EvidenceSet(by_id={})


@dataclass(frozen=True, slots=True, kw_only=True)
class CandidateLoad:
    """The fused candidates as loaded, by id, with their relevance evidence; or none, and
    why, when loading failed or timed out (the recall degrades: see "Reliability" in
    docs/architecture.md)."""

    beliefs: dict[str, Belief]
    evidence: EvidenceSet = NO_EVIDENCE
    error: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoredCandidate:
    """A candidate belief with its score, band and the transfer facts that shaped them.

    ``belief_id`` (the belief's id) and ``score`` (the breakdown's total) are set from the
    belief and the breakdown as it is made: the ranking reads both of every candidate
    several times a recall."""

    belief: Belief
    fused: FusedCandidate
    breakdown: ScoreBreakdown
    band: ConfidenceBand
    #: Recalled outside its origin project.
    transferred: bool
    belief_id: str = field(init=False, repr=False, compare=False)
    score: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The id and the total read from the models' field dicts (not each through
        # pydantic's attribute hook), each slot set through its own setter.
        _set_belief_id(self, self.belief.__dict__["id"])
        _set_score(self, self.breakdown.__dict__["total"])


_set_belief_id, _set_score = slot_setters(ScoredCandidate)[5:]
#: :class:`ScoredCandidate` made as a plain function call (:func:`slots_maker`).
make_scored_candidate = slots_maker(ScoredCandidate)


@dataclass(frozen=True, slots=True, kw_only=True)
class ConflictGroup:
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


def members_of(unit: Resolved) -> tuple[ScoredCandidate, ...]:
    """The candidates of a resolved unit: a conflict set's members, or the one candidate."""
    return unit.members if isinstance(unit, ConflictGroup) else (unit,)


@dataclass(frozen=True, slots=True, kw_only=True)
class FloorOutcome:
    """What cleared the relevance floor, and the ids it dropped; of what it kept, the
    candidates kept only as a bridged neighbour of another (``bridged``) and those kept
    only as beliefs about the user a turn asked for as a whole (``profiled``)."""

    kept: tuple[Resolved, ...]
    dropped_ids: tuple[str, ...]
    bridged: tuple[FloorBridge, ...] = ()
    profiled: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class RenderUnit:
    """What is budgeted and rendered as one: an item, or a whole conflict set."""

    items: tuple[RecalledItem, ...]
    conflict_set_id: str | None = None
    score: float

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(item.belief_id for item in self.items)


@dataclass(frozen=True, slots=True, kw_only=True)
class TrustOutcome:
    """Units after the trust boundary: scanned, marked MEMORY."""

    units: tuple[RenderUnit, ...]
    blocked_ids: tuple[str, ...]
    #: Each blocked id's family, as the scanner named it.
    blocked_families: dict[str, str] = field(default_factory=dict)
    redacted_ids: tuple[str, ...]
    scanner_version: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BudgetOutcome:
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


@dataclass(frozen=True, slots=True, kw_only=True)
class RenderedBlock:
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
    (occurred by ``as_of``, and from ``since`` when set), system time (recorded by
    ``known_as_of``) and the surface's sensitivity ceiling. Episodes have no lifecycle
    state, so there are no states here."""

    tenant_id: Key
    principal_id: Key
    as_of: datetime
    known_as_of: datetime
    sensitivity_ceiling: Sensitivity
    since: datetime | None = None


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
    #: Each blocked id's family, as the scanner named it.
    blocked_families: dict[str, str] = Field(default_factory=dict)
    scanner_version: str = ""


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
