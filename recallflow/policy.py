"""The retrieval policy: the one explicit, hand-weighted ranking function's weight vectors,
the relevance floor, the budgets, the bands, the surface ceilings and the arms
(ADR-0019 decisions 5, 6, 7, 8, 10, 11, 17; DESIGN.md §3–4).

Everything tunable lives here and nowhere else (STYLE.md: oversampling, floor and budget
constants live in policy.py). The policy is frozen; derive a variant with
``policy.model_copy(update=...)``. Its :attr:`RetrievalPolicy.version` is a hash of its
content, so any change of weights, floor or budget gives a new
``retrieval_policy_version`` in every trace.

The ranking function (decision 7), per candidate, with every feature in [0, 1]::

    score = w.match · match                     normalised RRF score over the configured arms
          + w.confidence_state · confidence × state factor (× transfer factor, decision 5)
          + w.corroboration · (1 − e^(−count · decay(age of last corroboration)))
          + w.authority · authority factor of the source
          + w.scope_affinity · scope factor (user scope 1; project: here 1, else by portability)
          + w.utility · (1 − e^(−utility · decay(age of last reinforcement)))
          + Σ penalties (provisional, flagged, transferred-uncorroborated, conflicted,
                         local-outside-origin)

Two weight vectors share the one function: ``core`` (session snapshot: durable beliefs
first) and ``task`` (in-turn and child-run recall: relevance first).
"""

from __future__ import annotations

import hashlib
import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from recallflow.models.request import Moment, Surface
from recallflow.models.result import ConfidenceBand
from recallflow.models.session import SessionKind
from recallflow.models.store import (
    BeliefType,
    LifecycleState,
    Portability,
    Sensitivity,
    SourceAuthority,
)

#: Every arm recallflow has, in fusion order. Fusion does not depend on this list.
ALL_ARMS: tuple[str, ...] = (
    "structured_hits",
    "lexical_hits",
    "trigram_hits",
    "semantic_hits",
    "external_hits",
)

#: The sensitivity ceiling of each surface (decision 11).
SURFACE_CEILINGS: dict[Surface, Sensitivity] = {
    Surface.VAULT: Sensitivity.SECRET,
    Surface.DIRECT: Sensitivity.PERSONAL,
    Surface.TEAM: Sensitivity.INTERNAL,
    Surface.PUBLIC: Sensitivity.PUBLIC,
}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Weights(_Frozen):
    """One weight vector over the ranking function's features (they sum to 1)."""

    match: float = Field(ge=0)
    confidence_state: float = Field(ge=0)
    corroboration: float = Field(ge=0)
    authority: float = Field(ge=0)
    scope_affinity: float = Field(ge=0)
    utility: float = Field(ge=0)


class Penalties(_Frozen):
    """Additive penalties (negative numbers) of the ranking function."""

    provisional: float = -0.08
    flagged: float = -0.10
    transferred_uncorroborated: float = -0.04
    conflicted: float = -0.02
    local_outside_origin: float = -1.0


class Budget(_Frozen):
    """An absolute item and token cap, each also bounded by a share of the window (decision 17)."""

    max_items: int = Field(ge=0)
    max_tokens: int = Field(ge=0)
    window_share: float = Field(default=0.02, gt=0, le=1)


class Floor(_Frozen):
    """The relevance floor (decision 10): a candidate must clear both thresholds."""

    relevance: float = Field(
        default=0.35, ge=0, le=1, description="Minimum normalised RRF match of a candidate."
    )
    score: float = Field(default=0.40, description="Minimum total score of a candidate.")


class ArmLimits(_Frozen):
    """How many hits each arm returns and how it bounds its own work (DESIGN.md §6)."""

    per_arm: int = Field(default=20, ge=1, le=1000, description="Hits returned per arm.")
    lexical_candidate_cap: int = Field(
        default=80, ge=1, description="Matches gathered per word or key before scoring."
    )
    common_share: float = Field(
        default=0.25,
        gt=0,
        le=1,
        description="A word or key on more than this share of a principal's beliefs is ignored.",
    )
    bm25_k1: float = Field(default=1.2, ge=0, description="BM25 k1 (lexical arm).")
    bm25_b: float = Field(default=0.75, ge=0, le=1, description="BM25 b (lexical arm).")
    trigram_threshold: float = Field(default=0.5, ge=0, le=1, description="word_similarity min.")
    semantic_min_similarity: float = Field(
        default=0.3, ge=-1, le=1, description="Cosine similarity below which a hit is noise."
    )
    hnsw_ef_search: int = Field(default=40, ge=1, le=1000, description="≥ per_arm (pgvector).")
    max_candidates: int = Field(
        default=40,
        ge=1,
        description="Top fused candidates loaded and scored (the rest are"
        " too far down every arm to clear the floor).",
    )
    graph_seeds: int = Field(default=5, ge=0, description="Top fused seeds expanded.")
    graph_depth: int = Field(default=1, ge=1, le=3)
    graph_fanout: int = Field(default=8, ge=1, description="Neighbours kept per seed.")
    timeout_ms: int = Field(default=500, ge=1, description="An arm slower than this degrades.")


class Feedback(_Frozen):
    """What the write path back into memory does with feedback, evidence and misses (see
    "Feedback and corrections" in docs/architecture.md)."""

    citation_utility: float = Field(
        default=1.0, gt=0, description="Utility a citation adds (confidence never changes)."
    )
    corroboration_gain: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="Share of the remaining doubt (1 - confidence) one corroboration removes.",
    )
    promotion_projects: int = Field(
        default=2, ge=2, description="Distinct corroborating projects that promote to user scope."
    )
    miss_threshold: int = Field(
        default=3, ge=1, description="Misses of one subject within the window that queue a hint."
    )
    miss_window_hours: float = Field(
        default=24.0, gt=0, description="How long misses of one subject are counted together."
    )


class SessionPolicy(_Frozen):
    """How a session's frozen snapshot is composed (see "Sessions" in docs/architecture.md).

    The item cap is primary and the token cap the backstop, each bounded by the window
    share; about two thirds of the items are reserved for durable user-model and
    preference beliefs chosen without a query, the rest go to the opening goal's priming
    set, and a part's unused items flow to the other. The numbers are defaults with a
    shrink path (``recallflow budget report``), not constants.
    """

    budgets: tuple[tuple[SessionKind, Budget], ...] = (
        (SessionKind.INTERACTIVE, Budget(max_items=40, max_tokens=1500)),
        (SessionKind.ASYNC, Budget(max_items=80, max_tokens=3000)),
        (SessionKind.CHILD, Budget(max_items=15, max_tokens=500)),
    )
    durable_share: float = Field(
        default=2 / 3, ge=0, le=1, description="Share of the item cap reserved for the core."
    )
    durable_types: tuple[BeliefType, ...] = (BeliefType.USER_MODEL, BeliefType.PREFERENCE)
    durable_candidates: int = Field(
        default=100,
        ge=1,
        description="Durable beliefs loaded and ranked for the core: the first by a cheap"
        " pre-rank (not transferred first, then confidence × authority factor); bounds the"
        " snapshot's work.",
    )
    min_window: int = Field(
        default=16_000,
        ge=1_000,
        description="Smallest model window a session may open with (2% of it holds the snapshot).",
    )

    def budget(self, kind: SessionKind) -> Budget:
        """The snapshot budget of a session kind."""
        return dict(self.budgets)[kind]

    def core_reserved(self, max_items: int) -> int:
        """Items reserved for durable beliefs out of ``max_items`` (rounded half up)."""
        return int(max_items * self.durable_share + 0.5)


class RetrievalPolicy(_Frozen):
    """The whole retrieval policy; its content hash is the ``retrieval_policy_version``."""

    name: str = "default"
    rrf_k: int = Field(default=60, ge=1)
    arm_weights: dict[str, float] = Field(
        # Tuned on the LoCoMo dev split (conversations 1-5) only: the narrow arms (exact
        # keys, spelling, neighbours) are precise when they fire but vote on many loosely
        # related beliefs when they do not, so their votes count a fifth of the broad arms'.
        default={"structured_hits": 0.2, "trigram_hits": 0.2, "graph_expanded_hits": 0.2},
        description="Weighted RRF: an arm's votes count this much (default 1.0 each).",
    )
    arms: tuple[str, ...] = ("structured_hits", "lexical_hits", "trigram_hits", "semantic_hits")
    graph_expansion: bool = True
    cross_project: bool = Field(
        default=True, description="Recall beliefs of other projects (decision 5); off for evals."
    )
    core: Weights = Weights(
        match=0.30,
        confidence_state=0.22,
        corroboration=0.13,
        authority=0.15,
        scope_affinity=0.15,
        utility=0.05,
    )
    task: Weights = Weights(
        match=0.55,
        confidence_state=0.14,
        corroboration=0.05,
        authority=0.08,
        scope_affinity=0.13,
        utility=0.05,
    )
    penalties: Penalties = Penalties()
    floor: Floor = Floor()
    limits: ArmLimits = ArmLimits()
    feedback: Feedback = Feedback()
    state_factor: dict[LifecycleState, float] = {
        LifecycleState.ACTIVE: 1.0,
        LifecycleState.CONFLICTED: 0.8,
        LifecycleState.PROVISIONAL: 0.6,
    }
    authority_factor: dict[SourceAuthority, float] = {
        SourceAuthority.USER_STATED: 1.0,
        SourceAuthority.USER_CONFIRMED: 0.9,
        SourceAuthority.OBSERVED: 0.75,
        SourceAuthority.INFERRED: 0.5,
        SourceAuthority.EXTERNAL: 0.3,
    }
    portability_affinity: dict[Portability, float] = {
        Portability.PORTABLE: 0.75,
        Portability.CONTEXTUAL: 0.4,
        Portability.LOCAL: 0.0,
    }
    transfer_confidence_factor: float = Field(
        default=0.75, description="Confidence multiplier outside the origin project (decision 5)."
    )
    corroboration_half_life_days: float = 180.0
    utility_half_life_days: float = 60.0
    bands: tuple[tuple[ConfidenceBand, float], ...] = (
        (ConfidenceBand.HIGH, 0.8),
        (ConfidenceBand.MEDIUM, 0.55),
        (ConfidenceBand.LOW, 0.0),
    )
    budgets: dict[Moment, Budget] = {
        Moment.SESSION_SNAPSHOT: Budget(max_items=40, max_tokens=1500),
        Moment.IN_TURN: Budget(max_items=8, max_tokens=600),
        Moment.CHILD_RUN: Budget(max_items=15, max_tokens=500),
    }
    sessions: SessionPolicy = SessionPolicy()
    admissible_states: dict[Moment, tuple[LifecycleState, ...]] = {
        Moment.SESSION_SNAPSHOT: (LifecycleState.ACTIVE, LifecycleState.CONFLICTED),
        Moment.IN_TURN: (
            LifecycleState.ACTIVE,
            LifecycleState.PROVISIONAL,
            LifecycleState.CONFLICTED,
        ),
        Moment.CHILD_RUN: (
            LifecycleState.ACTIVE,
            LifecycleState.PROVISIONAL,
            LifecycleState.CONFLICTED,
        ),
    }

    def arm_weight(self, arm: str) -> float:
        """How much an arm's votes count in fusion (weighted RRF; 1.0 unless set)."""
        return self.arm_weights.get(arm, 1.0)

    @property
    def fused_arms(self) -> tuple[str, ...]:
        """The arms fusion draws on: the configured ones, plus graph expansion when on."""
        return (*self.arms, "graph_expanded_hits") if self.graph_expansion else self.arms

    @property
    def best_fused_score(self) -> float:
        """The fused score of a belief ranked first by every arm (normalises the match)."""
        return sum(self.arm_weight(a) for a in self.fused_arms) / (self.rrf_k + 1)

    def weights_for(self, moment: Moment) -> Weights:
        """The weight vector of a moment: ``core`` for the snapshot, ``task`` otherwise."""
        return self.core if moment is Moment.SESSION_SNAPSHOT else self.task

    def weight_vector_name(self, moment: Moment) -> Literal["core", "task"]:
        """Which of the two weight vectors a moment uses."""
        return "core" if moment is Moment.SESSION_SNAPSHOT else "task"

    def band_of(self, confidence: float) -> ConfidenceBand:
        """The band a confidence falls in."""
        for band, lower in self.bands:
            if confidence >= lower:
                return band
        return self.bands[-1][0]

    def band_below(self, band: ConfidenceBand) -> ConfidenceBand:
        """The next lower band (transferred beliefs are shown one band lower, decision 5)."""
        order = [b for b, _ in self.bands]
        return order[min(order.index(band) + 1, len(order) - 1)]

    @property
    def version(self) -> str:
        """``retrieval_policy_version``: the name and a hash of the policy's content."""
        payload = json.dumps(self.model_dump(mode="json"), sort_keys=True).encode()
        return f"{self.name}-{hashlib.sha256(payload).hexdigest()[:12]}"


#: The default policy.
DEFAULT_POLICY = RetrievalPolicy()

#: A weight vector that ranks by relevance alone (for ablations).
MATCH_ONLY_WEIGHTS = Weights(
    match=1.0,
    confidence_state=0.0,
    corroboration=0.0,
    authority=0.0,
    scope_affinity=0.0,
    utility=0.0,
)
#: Penalties switched off (for ablations).
NO_PENALTIES = Penalties(
    provisional=0.0,
    flagged=0.0,
    transferred_uncorroborated=0.0,
    conflicted=0.0,
    local_outside_origin=0.0,
)


def match_only(policy: RetrievalPolicy) -> RetrievalPolicy:
    """``policy`` ranking by fused match alone: both weight vectors match-only, no penalties."""
    return policy.model_copy(
        update={"task": MATCH_ONLY_WEIGHTS, "core": MATCH_ONLY_WEIGHTS, "penalties": NO_PENALTIES}
    )
