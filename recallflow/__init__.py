"""recallflow: the memory layer an AI agent lives with — its long-term beliefs, recalled
into the model's context as a small, byte-stable block with a trace that proves why.

Everything a user needs is importable from here::

    from recallflow import open_memory, RecallRequest, WorkingState

Names are loaded on first use, so ``import recallflow`` stays cheap: the database driver,
Hamilton and the embedder load only when a store is opened or a recall runs.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

#: Where each public name lives (the module is imported when the name is first used).
_EXPORTS: dict[str, str] = {
    # opening a store and recalling
    "open_memory": "recallflow.memory",
    "Memory": "recallflow.memory",
    "Experiment": "recallflow.dataflows.experiment",
    # the request
    "RecallRequest": "recallflow.models.request",
    "WorkingState": "recallflow.models.request",
    "Moment": "recallflow.models.request",
    "Surface": "recallflow.models.request",
    # the result and its trace
    "RecallResult": "recallflow.models.result",
    "RecalledItem": "recallflow.models.result",
    "RecallTrace": "recallflow.models.result",
    "RecallQuery": "recallflow.models.result",
    "ArmResult": "recallflow.models.result",
    "ArmHit": "recallflow.models.result",
    "FusedCandidate": "recallflow.models.result",
    "ScoreBreakdown": "recallflow.models.result",
    "ScoredEntry": "recallflow.models.result",
    "NodeRun": "recallflow.models.result",
    "ExperimentRecord": "recallflow.models.result",
    "ConfidenceBand": "recallflow.models.result",
    "TrustLevel": "recallflow.models.result",
    "Correction": "recallflow.models.result",
    "CorrectionKind": "recallflow.models.result",
    "SnapshotRecord": "recallflow.models.result",
    # sessions
    "Session": "recallflow.sessions",
    "SessionKind": "recallflow.models.session",
    "SessionInfo": "recallflow.models.session",
    "BudgetReport": "recallflow.sessions",
    "budget_report": "recallflow.sessions",
    # what goes into the store
    "Belief": "recallflow.models.store",
    "BeliefDraft": "recallflow.models.store",
    "BeliefEdge": "recallflow.models.store",
    "BeliefType": "recallflow.models.store",
    "EdgeRelation": "recallflow.models.store",
    "Episode": "recallflow.models.store",
    "EpisodeDraft": "recallflow.models.store",
    "EpisodeKind": "recallflow.models.store",
    "LifecycleState": "recallflow.models.store",
    "Portability": "recallflow.models.store",
    "Scope": "recallflow.models.store",
    "Sensitivity": "recallflow.models.store",
    "SourceAuthority": "recallflow.models.store",
    "StoreSummary": "recallflow.models.store",
    # the policy and its recipes
    "RetrievalPolicy": "recallflow.policy",
    "DEFAULT_POLICY": "recallflow.policy",
    "Weights": "recallflow.policy",
    "Penalties": "recallflow.policy",
    "Budget": "recallflow.policy",
    "Floor": "recallflow.policy",
    "SessionPolicy": "recallflow.policy",
    "ArmLimits": "recallflow.policy",
    "SURFACE_CEILINGS": "recallflow.policy",
    "match_only": "recallflow.policy",
    # ports: what you can plug in
    "Embedder": "recallflow.ports",
    "TokenCounter": "recallflow.ports",
    "QueryFormer": "recallflow.ports",
    "InjectionScanner": "recallflow.ports",
    "ExternalProvider": "recallflow.ports",
    "BeliefSearch": "recallflow.ports",
    # errors
    "RecallflowError": "recallflow.errors",
    "ConfigurationError": "recallflow.errors",
    "MissingExtensionError": "recallflow.errors",
    "EmbedderMismatchError": "recallflow.errors",
    "InvalidInputError": "recallflow.errors",
    "ConstraintViolation": "recallflow.errors",
    "NotFoundError": "recallflow.errors",
    # archival episode search (agent-invoked)
    "EpisodeSearchRequest": "recallflow.models.request",
    "EpisodeSearchResult": "recallflow.models.result",
    "RecalledEpisode": "recallflow.models.result",
    "EpisodeTrace": "recallflow.models.result",
    "EpisodeArm": "recallflow.models.result",
    "EpisodeArmResult": "recallflow.models.result",
    "EpisodeHit": "recallflow.models.result",
    "FusedEpisode": "recallflow.models.result",
    "EpisodePolicy": "recallflow.policy",
    "EpisodeFloor": "recallflow.policy",
    "DEFAULT_EPISODE_POLICY": "recallflow.policy",
    "EpisodeSearch": "recallflow.ports",
    "StoreUnavailableError": "recallflow.errors",
    "StorageFullError": "recallflow.errors",
    # correcting and forgetting (the write path back into memory)
    "ConflictError": "recallflow.errors",
    "SupersessionCycleError": "recallflow.errors",
    "Corrections": "recallflow.corrections",
    "MissHints": "recallflow.corrections",
    "RejectionKind": "recallflow.models.corrections",
    "Rejection": "recallflow.models.corrections",
    "Citation": "recallflow.models.corrections",
    "MissHint": "recallflow.models.corrections",
    "Erasure": "recallflow.models.corrections",
    "Rederivation": "recallflow.models.corrections",
    "ReplayOutcome": "recallflow.models.corrections",
    "Feedback": "recallflow.policy",
}

__all__ = [
    "DEFAULT_EPISODE_POLICY",
    "DEFAULT_POLICY",
    "SURFACE_CEILINGS",
    "ArmHit",
    "ArmLimits",
    "ArmResult",
    "Belief",
    "BeliefDraft",
    "BeliefEdge",
    "BeliefSearch",
    "BeliefType",
    "Budget",
    "BudgetReport",
    "Citation",
    "ConfidenceBand",
    "ConfigurationError",
    "ConflictError",
    "ConstraintViolation",
    "Correction",
    "CorrectionKind",
    "Corrections",
    "EdgeRelation",
    "Embedder",
    "EmbedderMismatchError",
    "Episode",
    "EpisodeArm",
    "EpisodeArmResult",
    "EpisodeDraft",
    "EpisodeFloor",
    "EpisodeHit",
    "EpisodeKind",
    "EpisodePolicy",
    "EpisodeSearch",
    "EpisodeSearchRequest",
    "EpisodeSearchResult",
    "EpisodeTrace",
    "Erasure",
    "Experiment",
    "ExperimentRecord",
    "ExternalProvider",
    "Feedback",
    "Floor",
    "FusedCandidate",
    "FusedEpisode",
    "InjectionScanner",
    "InvalidInputError",
    "LifecycleState",
    "Memory",
    "MissHint",
    "MissHints",
    "MissingExtensionError",
    "Moment",
    "NodeRun",
    "NotFoundError",
    "Penalties",
    "Portability",
    "QueryFormer",
    "RecallQuery",
    "RecallRequest",
    "RecallResult",
    "RecallTrace",
    "RecalledEpisode",
    "RecalledItem",
    "RecallflowError",
    "Rederivation",
    "Rejection",
    "RejectionKind",
    "ReplayOutcome",
    "RetrievalPolicy",
    "Scope",
    "ScoreBreakdown",
    "ScoredEntry",
    "Sensitivity",
    "Session",
    "SessionInfo",
    "SessionKind",
    "SessionPolicy",
    "SnapshotRecord",
    "SourceAuthority",
    "StorageFullError",
    "StoreSummary",
    "StoreUnavailableError",
    "SupersessionCycleError",
    "Surface",
    "TokenCounter",
    "TrustLevel",
    "Weights",
    "WorkingState",
    "budget_report",
    "match_only",
    "open_memory",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'recallflow' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:
    from recallflow.corrections import Corrections, MissHints
    from recallflow.dataflows.experiment import Experiment
    from recallflow.errors import (
        ConfigurationError,
        ConflictError,
        ConstraintViolation,
        EmbedderMismatchError,
        InvalidInputError,
        MissingExtensionError,
        NotFoundError,
        RecallflowError,
        StorageFullError,
        StoreUnavailableError,
        SupersessionCycleError,
    )
    from recallflow.memory import Memory, open_memory
    from recallflow.models.corrections import (
        Citation,
        Erasure,
        MissHint,
        Rederivation,
        Rejection,
        RejectionKind,
        ReplayOutcome,
    )
    from recallflow.models.request import (
        EpisodeSearchRequest,
        Moment,
        RecallRequest,
        Surface,
        WorkingState,
    )
    from recallflow.models.result import (
        ArmHit,
        ArmResult,
        ConfidenceBand,
        Correction,
        CorrectionKind,
        EpisodeArm,
        EpisodeArmResult,
        EpisodeHit,
        EpisodeSearchResult,
        EpisodeTrace,
        ExperimentRecord,
        FusedCandidate,
        FusedEpisode,
        NodeRun,
        RecalledEpisode,
        RecalledItem,
        RecallQuery,
        RecallResult,
        RecallTrace,
        ScoreBreakdown,
        ScoredEntry,
        SnapshotRecord,
        TrustLevel,
    )
    from recallflow.models.session import SessionInfo, SessionKind
    from recallflow.models.store import (
        Belief,
        BeliefDraft,
        BeliefEdge,
        BeliefType,
        EdgeRelation,
        Episode,
        EpisodeDraft,
        EpisodeKind,
        LifecycleState,
        Portability,
        Scope,
        Sensitivity,
        SourceAuthority,
        StoreSummary,
    )
    from recallflow.policy import (
        DEFAULT_EPISODE_POLICY,
        DEFAULT_POLICY,
        SURFACE_CEILINGS,
        ArmLimits,
        Budget,
        EpisodeFloor,
        EpisodePolicy,
        Feedback,
        Floor,
        Penalties,
        RetrievalPolicy,
        SessionPolicy,
        Weights,
        match_only,
    )
    from recallflow.ports import (
        BeliefSearch,
        Embedder,
        EpisodeSearch,
        ExternalProvider,
        InjectionScanner,
        QueryFormer,
        TokenCounter,
    )
    from recallflow.sessions import BudgetReport, Session, budget_report
