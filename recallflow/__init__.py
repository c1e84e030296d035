"""recallflow: the read path of an agent's long-term memory (ADR-0019), a typed Hamilton
dataflow over PostgreSQL.

The public API: :func:`open_memory`, :class:`Memory`, the models and the typed errors.
"""

from recallflow.errors import (
    ConfigurationError,
    ConstraintViolation,
    EmbedderMismatchError,
    InvalidInputError,
    MissingExtensionError,
    NotFoundError,
    RecallflowError,
    StorageFullError,
    StoreUnavailableError,
)
from recallflow.memory import Memory, open_memory
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
)

__all__ = [
    "Belief",
    "BeliefDraft",
    "BeliefEdge",
    "BeliefType",
    "ConfigurationError",
    "ConstraintViolation",
    "EdgeRelation",
    "EmbedderMismatchError",
    "Episode",
    "EpisodeDraft",
    "EpisodeKind",
    "InvalidInputError",
    "LifecycleState",
    "Memory",
    "MissingExtensionError",
    "NotFoundError",
    "Portability",
    "RecallflowError",
    "Scope",
    "Sensitivity",
    "SourceAuthority",
    "StorageFullError",
    "StoreUnavailableError",
    "open_memory",
]
