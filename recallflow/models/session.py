"""The models of a session: its kind, the frozen snapshot's per-belief fingerprints, and
what an in-turn recall inside a session is told about the prefix (see "Sessions" in
docs/architecture.md).

A session's cached prefix is rendered once, at open, and never rewritten. What the prefix
claimed about each of its beliefs is kept as a :class:`BeliefFingerprint`; a later turn
compares the belief's current row with it, and every difference becomes exactly one
correction in that turn's block.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from recallflow.models.base import FrozenModel, ModelEnum
from recallflow.models.request import Surface
from recallflow.models.store import Key


class SessionKind(ModelEnum):
    """What kind of run a session is; each kind has its own snapshot budget.

    An interactive session pays a large share of its tokens for the snapshot, so its
    budget is small; an async run amortises one block over many requests and knows its
    objective up front; a child run gets the smallest block, scoped by its parent.
    """

    INTERACTIVE = "interactive"
    ASYNC = "async"
    CHILD = "child"


class SnapshotPart(ModelEnum):
    """Which part of the snapshot a belief was chosen for."""

    CORE = "core"  # durable user-model and preference beliefs, chosen without a query
    PRIMING = "priming"  # the opening goal's query-driven priming set


class BeliefStatus(ModelEnum):
    """What a belief's row says about it now, as far as a prefix that shows it is concerned.

    ``live`` is the status every snapshot belief has when the prefix is rendered (it was
    admitted by the hard filter); every other status is something the agent must be told.
    """

    LIVE = "live"
    PROVISIONAL = "provisional"
    SUPERSEDED = "superseded"
    RETIRED = "retired"
    EXPIRED = "expired"
    RETRACTED = "retracted"
    WITHDRAWN = "withdrawn"  # now above the session surface's sensitivity ceiling
    EXCLUDED = "excluded"  # rejected as not holding in the session's project ("not here")
    FORGOTTEN = "forgotten"  # the row is gone


class BeliefFingerprint(FrozenModel):
    """What a prefix (or the last correction) told the agent about one belief.

    Two fingerprints that differ mean the agent's picture of the belief is out of date;
    fields that change nothing the agent reads (utility, decay clocks, corroboration) are
    deliberately left out, so they never produce a correction.
    """

    status: BeliefStatus
    statement: str
    superseded_by: str | None = None
    conflict_set_id: str | None = None
    flagged: bool = False


class ShownFingerprint(FrozenModel):
    """What an earlier turn of a session showed the agent of a belief beyond its prefix
    (in its block, or whole in a correction line), or what the last correction about it
    told: a :class:`BeliefFingerprint` with a sha256 of the statement in place of its
    words, so a session's record of what its turns showed holds none of them."""

    status: BeliefStatus
    statement_sha256: str
    superseded_by: str | None = None
    conflict_set_id: str | None = None
    flagged: bool = False


class ShownBelief(FrozenModel):
    """A belief a session turn's block rendered, as it stood when the turn read it."""

    belief_id: str
    fingerprint: BeliefFingerprint


class BeliefVersion(FrozenModel):
    """The row fields of a snapshot belief at the watermark (kept for audit)."""

    state: str
    superseded_by: str | None
    valid_to: datetime | None
    retracted_at: datetime | None
    flagged: bool
    conflict_set_id: str | None
    statement: str
    sensitivity: int


class SnapshotBelief(FrozenModel):
    """One belief of the frozen snapshot, in prefix order."""

    belief_id: str
    part: SnapshotPart
    belief_type: str
    fingerprint: BeliefFingerprint
    version: BeliefVersion


class DurableQuery(FrozenModel):
    """What the snapshot core's query-free search asks for (see
    :meth:`recallflow.ports.BeliefSearch.durable`)."""

    types: tuple[str, ...] = Field(description="The durable belief types.")
    project: str | None = Field(description="The project the session works in.")
    authority: tuple[tuple[str, float], ...] = Field(
        description="Each source authority's factor in the ranking function."
    )
    limit: int = Field(ge=1, description="How many candidates to return.")


class SessionSpec(FrozenModel):
    """What the snapshot DAG is told about the session it serves (an optional input:
    without it a snapshot moment serves a session of the moment's default kind)."""

    kind: SessionKind
    parent_session_id: Key | None = None
    parent_max_items: int | None = Field(
        default=None, ge=0, description="A child run's parent's item cap, which it never exceeds."
    )
    parent_max_tokens: int | None = Field(
        default=None, ge=0, description="A child run's parent's token cap, which it never exceeds."
    )


class PendingCorrection(FrozenModel):
    """A change to a snapshot belief found after the watermark, or to a belief an earlier
    turn of the session showed found after that turn, before the trust scan.

    ``replacement`` and ``peers`` are (id, statement) pairs already cut to what the
    session's surface may show; the in-turn DAG scans their text like any recalled item.
    ``peers`` are the other members of the belief's conflict, or, for a superseded belief,
    of its replacement's (``replacement_conflict_set_id``).
    """

    belief_id: str
    fingerprint: BeliefFingerprint
    previous: BeliefFingerprint
    replacement: tuple[str, str] | None = None
    replacement_provisional: bool = False
    replacement_flagged: bool = False
    replacement_conflict_set_id: str | None = None
    replacement_elsewhere: bool = Field(
        default=False,
        description="No replacement is shown because the live one does not hold in the"
        " session's project (local to another, or rejected there as not here).",
    )
    replacement_ended: bool = Field(
        default=False,
        description="No replacement is shown because the chain ends in a belief that no"
        " longer holds (retired, expired or forgotten), none of it above the"
        " surface's ceiling nor passed over for the session's project.",
    )
    peers: tuple[tuple[str, str], ...] = ()


class Told(FrozenModel):
    """What a session's agent was last told about its snapshot beliefs."""

    fingerprints: dict[str, BeliefFingerprint] = Field(
        description="Per snapshot belief, in prefix order: its latest correction's"
        " fingerprint, else its snapshot fingerprint."
    )
    abridged: frozenset[str] = Field(
        default=frozenset(),
        description="Snapshot beliefs whose latest correction that told a statement was told"
        " in its short form: the agent has read none of what they say now.",
    )


class SessionTurn(FrozenModel):
    """What an in-turn recall inside a session knows about the session (an optional
    input of the in-turn DAG)."""

    session_id: Key
    prefix_ids: tuple[str, ...] = Field(description="Beliefs the cached prefix already holds.")
    abridged: tuple[str, ...] = Field(
        default=(),
        description="Prefix beliefs last corrected in the short form, no statement told:"
        " the block does not count them as held, so it may show what they say now.",
    )
    pending: tuple[PendingCorrection, ...] = Field(
        default=(),
        description="Changes not yet corrected to the snapshot's beliefs (first, in prefix"
        " order), then to beliefs an earlier turn showed beyond the prefix (in the order"
        " shown).",
    )


class SessionInfo(FrozenModel):
    """A stored session, as :meth:`recallflow.Memory.resume_session` reads it back."""

    id: Key
    tenant_id: Key
    principal_id: Key
    kind: SessionKind
    parent_session_id: Key | None
    surface: Surface = Field(description="The surface recalls run on (a child's is narrowed).")
    requested_surface: Surface
    project: Key | None
    model_window: int
    max_items: int
    max_tokens: int
    retrieval_policy_version: str
    watermark: datetime = Field(description="The system time the snapshot was taken at.")
    snapshot_trace_id: str
    prefix_sha256: str
    beliefs: tuple[SnapshotBelief, ...]
    created_at: datetime | None = None
