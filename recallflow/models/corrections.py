"""The models of the write path back into memory: typed rejections, what a rejection or a
re-derivation did, queued miss hints and erasure records (see "Feedback and corrections"
in docs/architecture.md).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from recallflow.models.base import FrozenModel, ModelEnum
from recallflow.models.store import Belief

#: The longest note a rejection keeps (the user's words), at every entry point: the Python
#: API, the ``reject_belief`` tool and ``recallflow reject --note``; a retraction's or a
#: retirement's reason is bounded alike.
NOTE_MAX_LENGTH = 1000
#: The longest text a reported miss keeps of what should have been remembered (a belief's
#: statement is bounded alike), at every entry point.
EXPECTED_MAX_LENGTH = 4000


class RejectionKind(ModelEnum):
    """Why a user rejects a recalled belief; each kind is a different write.

    ``"wrong"`` conflates a false belief, a stale one and one that does not apply here,
    so there is no single "wrong" button: an unspecified rejection flags, never retires.
    """

    NOT_TRUE = "not_true"  # it never held: the belief is retired
    CHANGED = "changed"  # it held and changed: superseded (by the replacement, if given)
    NOT_HERE = "not_here"  # it holds elsewhere, not in this project: excluded here
    UNSPECIFIED = "unspecified"  # flagged and down-weighted, never retired

    @property
    def event_kind(self) -> str:
        """The ``feedback_events.kind`` this rejection is recorded as."""
        return f"rejected_{self.value}"


class Rejection(FrozenModel):
    """What a rejection recorded and did."""

    trace_id: str
    belief_id: str
    kind: RejectionKind
    project: str | None = Field(description="The project a not-here rejection excludes it from.")
    replacement_id: str | None = Field(description="The successor of a changed belief, if given.")
    belief: Belief = Field(description="The rejected belief as it is now.")
    recorded: bool = Field(description="False when the same rejection was already recorded.")


class Unflagging(FrozenModel):
    """What clearing a belief's flag recorded and did: the flag an ``unspecified``
    rejection set is taken back (the user flagged it by mistake, or checked and found it
    right), as an ``unflagged`` event."""

    belief_id: str
    trace_id: str | None = Field(
        description="The recall the clear was made from, if it was made from one."
    )
    belief: Belief = Field(description="The belief as it is now: no longer flagged.")
    recorded: bool = Field(
        description="False when the belief was not flagged: nothing was recorded."
    )


class Citation(FrozenModel):
    """What a citation recorded: the beliefs reinforced, those recorded as cited though the
    store has ended them since the recall (no utility added), and the repeats (a citation
    from the same trace is recorded once)."""

    trace_id: str
    cited: tuple[str, ...] = Field(description="Recorded, and reinforced: they still hold.")
    ended: tuple[str, ...] = Field(
        default=(),
        description="Recorded as cited, not reinforced: superseded by a successor in force,"
        " retracted, retired or expired since the recall (a successor is cited from a recall"
        " that shows it).",
    )
    already_cited: tuple[str, ...] = Field(description="Cited from this trace before: unchanged.")


#: How a miss hint came to be: ``inferred`` from recalls with nothing above the floor,
#: ``reported`` by the user or the agent ("it should have remembered this").
MissHintKind = Literal["inferred", "reported"]


class MissHint(FrozenModel):
    """A hint for formation that recall missed something.

    ``inferred``: a subject recalled repeatedly with nothing above the floor (a
    re-derivation hint), acknowledged by its subject. ``reported``: one recall, named by
    ``trace_id``, that did not show what it should have — a belief the principal holds
    (``belief_id``), or what should have been remembered in words (``expected``), or both
    — acknowledged by its ``id``; it counts as one miss, queued when it was reported.
    """

    tenant_id: str
    principal_id: str
    kind: MissHintKind = "inferred"
    subject: str = Field(
        description="inferred: the normalised query keys that found nothing; reported: the"
        " missing belief's subject, else the words of what was expected."
    )
    miss_count: int
    first_missed_at: datetime
    last_missed_at: datetime
    queued_at: datetime | None
    acknowledged_at: datetime | None = None
    id: str | None = Field(default=None, description="reported: the report's id.")
    trace_id: str | None = Field(default=None, description="reported: the recall that missed.")
    belief_id: str | None = Field(default=None, description="reported: the belief it missed.")
    expected: str | None = Field(
        default=None, description="reported: what should have been remembered, in words."
    )
    note: str | None = Field(default=None, description="reported: the user's words.")


class MissReport(FrozenModel):
    """What a reported miss stored: the hint, and whether this call stored it (False when
    the same report of the same recall was already stored)."""

    hint: MissHint
    recorded: bool


class Erasure(FrozenModel):
    """What an erasure removed: rows per table, and rows scrubbed of the erased id. Of a
    project or a session (``forget_project``, ``forget_session``), the sums over every
    belief and episode it erased: ``deleted["beliefs"]`` and ``deleted["episodes"]`` say
    how many, 0 when the scope held none."""

    scope: Literal["principal", "belief", "episode", "project", "session"]
    tenant_id: str
    erased_at: datetime
    deleted: dict[str, int] = Field(description="Rows deleted, per table.")
    scrubbed: dict[str, int] = Field(
        default_factory=dict, description="Rows of other records rewritten without it, per table."
    )
    restated: int = Field(
        default=0,
        description="Beliefs whose link to the erased belief, or whose reference to the"
        " erased episode (source_episode_id), was removed, and the other member of a"
        " conflict the erased belief ended.",
    )

    @property
    def total_deleted(self) -> int:
        return sum(self.deleted.values())


ReplayAction = Literal["known", "new", "changed", "corrected", "withdrawn", "forgotten"]


class ReplayOutcome(FrozenModel):
    """What re-derivation did with one draft.

    * ``known``: the store already holds it (same id, or same source and statement with
      the same content): nothing written; it keeps every correction it carries.
    * ``new``: no earlier belief from that source and statement: written as given.
    * ``changed``: an earlier, uncorrected belief had other content: written, superseding it
      (and, when it was a side of a live conflict, as a side of that conflict in its place:
      ``conflicted`` is then among ``replayed``).
    * ``corrected``: written with the earlier belief's rejections and corrections replayed.
    * ``withdrawn``: the earlier belief was retracted: not written.
    * ``forgotten``: a belief of that source and statement was forgotten (``forget_belief``)
      and none has been written since: not written.
    """

    index: int
    belief_id: str = Field(description="The belief the draft is now (stored or written).")
    action: ReplayAction
    replayed: tuple[str, ...] = Field(
        default=(), description="The corrections replayed onto it, e.g. rejected_not_true."
    )


class Rederivation(FrozenModel):
    """The outcome of one re-derivation, draft by draft."""

    outcomes: tuple[ReplayOutcome, ...]

    def count(self, action: ReplayAction) -> int:
        return sum(1 for o in self.outcomes if o.action == action)
