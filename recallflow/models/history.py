"""How one belief came to stand as it does: the belief now, its supersession chain both
ways, and every recorded event about it in the order the store recorded them (see
"History of one belief" in docs/corrections.md).

Read, never written: every event here was recorded by a write of the write path back into
memory (``belief_events``, ``feedback_events``, ``belief_exclusions``) or is the belief's
own insert.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from recallflow.models.base import FrozenModel, ModelEnum
from recallflow.models.request import Surface
from recallflow.models.store import Belief, LifecycleState, Sensitivity


class HistoryEventKind(ModelEnum):
    """What one event of a belief's history records."""

    CREATED = "created"  # the store recorded the belief (its recorded_at)
    TOOK_OVER = "took_over"  # it superseded ``related_id``
    SUPERSEDED = "superseded"  # ``related_id`` superseded it
    RETRACTED = "retracted"  # the store stopped asserting it (system time)
    RETIRED = "retired"  # it does not hold
    EXPIRED = "expired"  # its validity ended (world time: ``effective_at``)
    CORROBORATED = "corroborated"  # evidence ``evidence_id`` from ``project``
    PROMOTED = "promoted"  # corroborated in enough projects: user scope
    RESOLVED = "resolved"  # its conflict set has no other live member: no longer disputed
    CITED = "cited"  # the model cited it from trace ``trace_id``
    REJECTED_NOT_TRUE = "rejected_not_true"
    REJECTED_CHANGED = "rejected_changed"
    REJECTED_NOT_HERE = "rejected_not_here"
    REJECTED_UNSPECIFIED = "rejected_unspecified"
    UNFLAGGED = "unflagged"  # its flag was cleared (the user found it right after all)
    EXCLUDED = "excluded"  # no longer recalled in ``project`` ("not here")


class HistoryEvent(FrozenModel):
    """One recorded event about a belief. The fields that do not apply to its kind are
    None."""

    kind: HistoryEventKind
    at: datetime = Field(description="System time: when the store recorded it.")
    effective_at: datetime | None = Field(
        default=None,
        description="World time a supersession (superseded, took_over) or an expiry takes"
        " effect; None for the other kinds.",
    )
    related_id: str | None = Field(
        default=None,
        description="superseded: the successor; took_over: the predecessor.",
    )
    project: str | None = Field(
        default=None,
        description="corroborated: where the evidence comes from; rejected_not_here and"
        " excluded: where it no longer holds.",
    )
    evidence_id: str | None = Field(default=None, description="corroborated: the episode.")
    trace_id: str | None = Field(
        default=None,
        description="cited, rejected_* and unflagged: the recall that showed it (an"
        " unflagged made from none: None).",
    )
    reason: str | None = Field(default=None, description="Why, as the write recorded it.")
    note: str | None = Field(
        default=None, description="rejected_* and unflagged: the user's words."
    )
    surface: Surface | None = Field(
        default=None,
        description="cited, rejected_* and unflagged: the surface the recall was shown on.",
    )


class ChainLink(FrozenModel):
    """Another belief of the supersession chain, as it stands."""

    id: str
    hops: int = Field(ge=1, description="Supersession links between it and the belief.")
    statement: str
    state: LifecycleState
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime
    retracted_at: datetime | None
    superseded_by: str | None
    sensitivity: Sensitivity


class BeliefHistory(FrozenModel):
    """A belief as it stands, its supersession chain and its events, read in one snapshot.

    ``predecessors`` are the beliefs it superseded, directly or through others (those whose
    ``superseded_by`` names it, and theirs: more than one where one belief replaced
    several), farthest first, then by id; ``successors`` the beliefs that superseded it
    (its ``superseded_by``, and that one's), nearest first: ``predecessors``, the belief
    and ``successors`` read in the order they took over. At most
    ``policy.feedback.history_links`` beliefs are listed each way, nearest kept;
    ``more_predecessors`` or ``more_successors`` says the chain goes on past them.
    ``events`` are in the order the store recorded them: by system time, and the events
    one write recorded in the order of cause and effect (a rejection before the
    supersession or retirement it made), then in the order their rows were written: every
    event, or the latest so many when the read asked for that (``earlier_events`` counts the
    rest)."""

    belief: Belief
    predecessors: tuple[ChainLink, ...]
    successors: tuple[ChainLink, ...]
    more_predecessors: bool = False
    more_successors: bool = False
    events: tuple[HistoryEvent, ...]
    earlier_events: int = Field(
        default=0,
        ge=0,
        description="Events recorded before the first of ``events``, left out because the"
        " read asked for the latest so many (0: ``events`` is every one).",
    )
