"""Sessions: the frozen snapshot in the cached prefix, the watermark and in-turn corrections,
child runs, and the shrink path of the snapshot budget (see "Sessions" in
docs/architecture.md).

A :class:`Session` is opened with :meth:`recallflow.Memory.open_session`. Its **prefix** —
the framing instruction and the snapshot block — is rendered once and stored as bytes; the
session's turns and any process that resumes it (:meth:`recallflow.Memory.resume_session`)
get those very bytes, whatever has changed in the store since. Its **watermark** is the
system time the snapshot was taken at. Each :meth:`Session.recall` is an in-turn recall that
spends no budget on beliefs the prefix holds and ends with a *corrections* section for every
snapshot belief whose row changed since the agent was last told about it, then for every
belief an earlier turn showed beyond the prefix that changed since (unless this turn's
block shows it as it now stands); each change is corrected once, in the turn after it, or
in a later one when the corrections before it fill the turn's share of the token cap.
:meth:`Session.child` opens a child run under the session: same tenant and principal, the
narrower surface, the child budget, its own prefix.

:func:`budget_report` reads the session traces back and says, per session kind, how much of
the snapshot later turns found relevant, how often a turn needed a durable belief the
snapshot lacked, and whether the item cap could shrink.
"""

from __future__ import annotations

import hashlib
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from recallflow.core.corrections import (
    FORGOTTEN,
    as_shown,
    as_told,
    fingerprint,
    in_force_at,
    pending_corrections,
    shown_fingerprint,
    status_of,
    stood_at,
    told_peers,
)
from recallflow.core.lifecycle import disputed_at
from recallflow.core.scoring import stays_home
from recallflow.core.snapshot import session_prefix, smallest_cap
from recallflow.dataflows.runner import resolved_request
from recallflow.errors import InvalidInputError
from recallflow.ingestion import key_of, member_of, new_id
from recallflow.models.fields import INT4_MAX, InputModel
from recallflow.models.read_start import ReadStart
from recallflow.models.request import Moment, Surface, WorkingState, asks_nothing
from recallflow.models.result import RecallResult, RecallTrace
from recallflow.models.session import (
    BeliefFingerprint,
    BeliefStatus,
    PendingCorrection,
    SessionInfo,
    SessionKind,
    SessionSpec,
    SessionTurn,
    ShownFingerprint,
)
from recallflow.models.store import Belief, LifecycleState, Sensitivity
from recallflow.policy import DEFAULT_POLICY, SURFACE_CEILINGS, RetrievalPolicy, SessionPolicy

if TYPE_CHECKING:
    from recallflow.adapters.postgres.sessions import SessionTurnStore
    from recallflow.memory import Memory


def narrower(a: Surface, b: Surface) -> Surface:
    """The surface with the lower sensitivity ceiling (a child never sees more than its
    parent, nor more than its own surface allows)."""
    return a if SURFACE_CEILINGS[a] <= SURFACE_CEILINGS[b] else b


def _kind(kind: SessionKind | str) -> SessionKind:
    return member_of(SessionKind, kind, "kind", "session kind")


def _surface(surface: Surface | str, field: str = "surface") -> Surface:
    return member_of(Surface, surface, field, "surface")


class _Window(InputModel):
    """A session's model window, judged as a request's ``model_window`` is: an integral
    number of any type (as JSON writes one), never a boolean or text (``models/fields.py``)."""

    model_window: int = Field(le=INT4_MAX)


def _window(value: object, policy: RetrievalPolicy, kind: SessionKind) -> int:
    """``value`` as a model window of at least ``policy.sessions.min_window`` tokens."""
    try:
        window = _Window.model_validate({"model_window": value}).model_window
    except ValidationError as exc:
        raise InvalidInputError(exc.errors()[0]["msg"], field="model_window") from None
    least = policy.sessions.min_window
    if window < least:
        share = policy.sessions.budgets[kind].window_share
        raise InvalidInputError(
            f"a session needs a model window of at least {least} tokens ({share * 100:g}% of it"
            f" holds the snapshot), got {window}",
            field="model_window",
        )
    return window


def _working_state(value: WorkingState | Mapping[str, Any] | None, field: str) -> WorkingState:
    if value is None:
        return WorkingState()
    if isinstance(value, WorkingState):
        return value
    if not isinstance(value, Mapping):
        # pydantic said only "Input should be a valid dictionary or instance of
        # WorkingState", and a goal written as its text is the likely mistake.
        raise InvalidInputError(
            f"must be a WorkingState or a mapping of its fields, such as"
            f' {{"goal": "Ship the price view"}}, not {type(value).__name__}',
            field=field,
        )
    try:
        return WorkingState.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join([field, *map(str, first["loc"])])
        raise InvalidInputError(first["msg"], field=where) from exc


class Session:
    """An open session: its frozen prefix, its watermark, and its turns.

    Get one from :meth:`recallflow.Memory.open_session` or
    :meth:`~recallflow.Memory.resume_session`; :meth:`child` opens a child run under it.
    """

    def __init__(
        self,
        memory: Memory,
        info: SessionInfo,
        prefix: bytes,
        policy: RetrievalPolicy,
        snapshot: RecallResult | None = None,
        *,
        erasures: int | None = None,
    ) -> None:
        self._memory = memory
        self._info = info
        self._prefix = prefix
        self._policy = policy
        self._snapshot = snapshot
        #: The erasures of the principal this memory handle had made when the session was
        #: read (``erasures``: counted before the read began); once the count moves, the
        #: prefix is read back from the store (:meth:`_current`).
        self._erasures = (
            memory._erasure_count(info.tenant_id, info.principal_id)
            if erasures is None
            else erasures
        )

    def _current(self) -> None:
        """Read the session back from the store when this memory handle has erased
        something of the principal since it was read: the erasure rewrote the stored
        prefix (the forgotten belief's line reads ``[erased]``), and the words this object
        holds in memory must not be handed out again. The snapshot's result goes too (its
        block and trace may hold them, as candidates the prefix left out; the stored trace
        is scrubbed).

        :raises NotFoundError: the principal was erased whole, with its sessions."""
        info = self._info
        count = self._memory._erasure_count(info.tenant_id, info.principal_id)
        if count == self._erasures:
            return
        stored, prefix = self._memory._session_store.load(
            info.tenant_id, info.principal_id, info.id
        )
        self._info, self._prefix, self._snapshot = stored, prefix, None
        self._erasures = count

    def _adopt(self, info: SessionInfo, prefix: bytes) -> None:
        if info.prefix_sha256 != self._info.prefix_sha256:
            self._info, self._prefix, self._snapshot = info, prefix, None

    # --- what the session is ------------------------------------------------------------

    @property
    def id(self) -> str:
        return self._info.id

    @property
    def info(self) -> SessionInfo:
        """The stored session: kind, surface, budgets, policy version, watermark, beliefs."""
        self._current()
        return self._info

    @property
    def kind(self) -> SessionKind:
        return self._info.kind

    @property
    def prefix(self) -> bytes:
        """The cached prefix, as stored at open: the framing instruction and the snapshot;
        after an erasure of one of its beliefs, as the erasure left it (that line reads
        ``[erased]``): at once when this memory handle made the erasure, else from the
        session's next turn (see "Forgetting" in docs/corrections.md).

        :raises NotFoundError: the principal was erased whole, with its sessions."""
        self._current()
        return self._prefix

    @property
    def prefix_text(self) -> str:
        return self.prefix.decode()

    @property
    def prefix_sha256(self) -> str:
        self._current()
        return self._info.prefix_sha256

    @property
    def watermark(self) -> datetime:
        """The system time the snapshot was taken at."""
        return self._info.watermark

    @property
    def snapshot_ids(self) -> tuple[str, ...]:
        """The beliefs the prefix holds, in prefix order."""
        return tuple(b.belief_id for b in self._info.beliefs)

    @property
    def policy(self) -> RetrievalPolicy:
        return self._policy

    @property
    def snapshot(self) -> RecallResult | None:
        """The snapshot recall that rendered the prefix (None after a resume, or after an
        erasure rewrote the prefix; its trace is stored under ``info.snapshot_trace_id``)."""
        self._current()
        return self._snapshot

    def __repr__(self) -> str:
        info = self._info
        return (
            f"Session({info.id!r}, kind={info.kind.value}, {info.tenant_id}/{info.principal_id},"
            f" {len(info.beliefs)} snapshot beliefs, prefix {info.prefix_sha256[:12]})"
        )

    # --- turns ---------------------------------------------------------------------------

    def recall(
        self,
        working_state: WorkingState | Mapping[str, Any],
        *,
        persist_trace: bool = True,
    ) -> RecallResult:
        """An in-turn recall inside this session.

        The block spends nothing on beliefs the prefix holds and ends with a corrections
        section for each snapshot belief changed since the agent was last told about it,
        then for each belief an earlier turn of the session showed (in its block, or whole
        in a correction line) changed since — not one this turn's block shows as it now
        stands — within ``sessions.correction_share`` of the turn's token cap: those that
        do not fit wait for a later turn (the section's last line says how many). The trace
        records the corrections rendered and those deferred, the prefix beliefs that
        cleared this turn's floor and the durable beliefs rendered that the prefix lacks.
        Corrections are recorded as rendered only when the turn succeeds.

        :raises WriteCancelledError: the session row stayed locked (by another turn of the
            session, or an erasure of its principal) past ``sessions.lock_timeout_ms``;
            nothing was told or recorded, and the turn can be retried as it is.
        :raises NotFoundError: the session is gone (its principal was erased whole).
        :raises InvalidInputError: a ``working_state`` with nothing to search for (no goal,
            query, entity, file, tool or turn with visible text), as for
            :meth:`~recallflow.memory.Memory.recall`; nothing is told or recorded.
        """
        info = self._info
        if not isinstance(persist_trace, bool):  # "no" is not False: it stored the trace
            raise InvalidInputError(
                f"must be True or False, got {persist_trace!r}", field="persist_trace"
            )
        if working_state is None:  # a turn has a working state; only an open's goal is optional
            raise InvalidInputError("a turn needs a working state", field="working_state")
        state = _working_state(working_state, "working_state")
        if asks_nothing(state):
            # No arm would have a query, so the block could only be empty and read as
            # "nothing is remembered"; refused as an in-turn recall of nothing is, before the
            # session is touched. Its pending corrections wait for the next turn.
            raise InvalidInputError(
                "nothing to recall for: a turn needs visible text in one of goal, query,"
                " entities, files, tools or recent_turns (pending corrections wait for the"
                " next turn)",
                field="working_state.goal",
            )
        request = resolved_request(
            {
                "tenant_id": info.tenant_id,
                "principal_id": info.principal_id,
                "working_state": state,
                "moment": Moment.IN_TURN,
                "surface": info.surface,
                "project": info.project,
                "session_id": info.id,
                "model_window": info.model_window,
            }
        )
        assert request.as_of is not None
        memory = self._memory
        # The DAG is had before the turn's transaction takes its store connection: the
        # first turn under a policy builds it and records the policy, which takes a store
        # connection of its own, and a turn must need only one at a time (with the others
        # held by turns waiting for their rows, it would wait for one that never frees).
        flow = memory.flow(Moment.IN_TURN, self._policy)
        read_since = ReadStart()
        # The session row stays locked from reading what the agent was told to recording
        # what this turn told it, so concurrent turns cannot correct one change twice. The
        # trace is stored after the lock is released (it needs a connection of its own).
        with memory._session_store.turn(
            info, self._policy.sessions.lock_timeout_ms, as_of=request.as_of, ceiling=self.ceiling
        ) as tx:
            told = tx.told()
            # What an earlier turn showed beyond the prefix and has been forgotten since:
            # the agent's context still holds its line, so it is told after the others.
            gone, back = _forgotten_shown(tx, exclude=told.fingerprints)
            found = _pending(
                tx,
                told.fingerprints,
                tx.shown(),
                also=back,
                as_of=request.as_of,
                ceiling=self.ceiling,
                project=info.project,
                hops=self._policy.sessions.replacement_hops,
                provisional=LifecycleState.PROVISIONAL
                in self._policy.admissible_states[Moment.IN_TURN],
            )
            pending = [*found.pending, *gone]
            # A belief last corrected in the short form is not held: the agent has read
            # none of what it says now, so this turn may show it when it is relevant.
            turn = SessionTurn(
                session_id=info.id,
                prefix_ids=self.snapshot_ids,
                abridged=tuple(b for b in self.snapshot_ids if b in told.abridged),
                pending=tuple(pending),
            )
            result = memory._run_flow(
                request, self._policy, {"session_turn": turn}, False, flow=flow
            )
            # Only what the block told the agent is recorded: a correction left for a
            # later turn stays pending, and is then told as its belief stands by then.
            by_id = {p.belief_id: p for p in pending}
            corrections = result.trace.corrections
            frozen = told.fingerprints
            forgotten = {p.belief_id for p in gone}
            tx.record(
                [
                    (c.belief_id, c.kind.value, by_id[c.belief_id].fingerprint, c.abridged)
                    for c in corrections
                    if c.belief_id in frozen
                ],
                result.trace.id,
                shown=_now_shown(result, found, by_id, frozen=frozen, forgotten=forgotten),
                told_forgotten=[c.belief_id for c in corrections if c.belief_id in forgotten],
                back=back,
            )
            rewritten = tx.rewritten()
        if rewritten is not None:
            # An erasure (by any process) rewrote the stored prefix since this object read
            # it: from now on it hands out what the erasure left.
            self._adopt(*rewritten)
        if persist_trace:
            memory._save(result, self._policy, read_since=read_since)
            # A turn that found nothing is a miss as a plain recall's is.
            memory._record_miss(result, self._policy, read_since=read_since)
        return result

    def end(self, at: datetime | str | None = None) -> datetime:
        """End this session (and its child runs) at ``at`` (default now): it takes no more
        turns and cannot be resumed, and the next retention run deletes the user-safe
        fields of its traces (see "Sessions" in docs/architecture.md). Idempotent: the
        first end stands, so an ``at`` ahead of the clock is refused as by
        :meth:`~recallflow.Memory.end_session`, under the session's policy. Returns when it
        ended."""
        return self._memory.end_session(
            self._info.tenant_id, self._info.principal_id, self._info.id, at=at, policy=self._policy
        )

    @property
    def ceiling(self) -> Sensitivity:
        """The sensitivity ceiling of the session's surface."""
        return SURFACE_CEILINGS[self._info.surface]

    def child(
        self,
        goal: WorkingState | Mapping[str, Any],
        *,
        surface: Surface | str | None = None,
        project: str | None = None,
        model_window: int | None = None,
    ) -> Session:
        """Open a child run: same tenant and principal, the narrower of this session's and
        ``surface``'s ceilings, the child budget, this session's project unless ``project``
        names one, its own snapshot of ``goal``, linked to this session.

        A child never sees more than its parent may: it runs in this session's model window
        unless ``model_window`` names a smaller one (a larger one is kept to this
        session's), and its item and token caps are at most this session's.

        :raises InvalidInputError: this session has ended (a child of it would be ended
            from its start, its snapshot taken and stored for nothing), or a bad goal (None,
            or one with no visible text to prime the child's snapshot with), surface,
            project or window.
        :raises NotFoundError: this session is gone (its principal was erased whole, or
            retention deleted it), before the child's snapshot is taken or, gone
            meanwhile, when it is stored; no child is stored.
        """
        info = self._info
        self._memory._session_store.check_live(info.tenant_id, info.principal_id, info.id)
        requested = _surface(surface) if surface is not None else info.surface
        return open_session(
            self._memory,
            info.tenant_id,
            info.principal_id,
            surface=narrower(info.surface, requested),
            requested_surface=requested,
            project=project if project is not None else info.project,
            kind=SessionKind.CHILD,
            goal=_working_state(goal, "goal"),
            model_window=model_window if model_window is not None else info.model_window,
            policy=self._policy,
            parent=info,
        )


def open_session(
    memory: Memory,
    tenant_id: str,
    principal_id: str,
    *,
    surface: Surface | str = Surface.DIRECT,
    project: str | None = None,
    kind: SessionKind | str = SessionKind.INTERACTIVE,
    goal: WorkingState | Mapping[str, Any] | None = None,
    model_window: int = 200_000,
    policy: RetrievalPolicy = DEFAULT_POLICY,
    requested_surface: Surface | str | None = None,
    parent: SessionInfo | None = None,
) -> Session:
    """Take the snapshot, render and store the prefix (see :meth:`Memory.open_session`).

    Under a ``parent`` (a child run), the window is the narrower of ``model_window`` and
    the parent's, and the parent's caps bound the child's."""
    session_kind = _kind(kind)
    if session_kind is SessionKind.CHILD and parent is None:
        raise InvalidInputError(
            "a child run is opened under its parent, with Session.child (it takes the"
            " parent's surface, project and end); open interactive or async here",
            field="kind",
        )
    where = _surface(surface)
    asked = _surface(requested_surface, "requested_surface") if requested_surface else where
    model_window = _window(model_window, policy, session_kind)
    if parent is not None:
        model_window = min(model_window, parent.model_window)
    state = _working_state(goal, "goal")
    if (goal is not None or parent is not None) and asks_nothing(state):
        # A goal of nothing primed nothing: the session opened as one without a goal, and
        # a child run, whose snapshot is of its goal, had none.
        raise InvalidInputError(
            "has nothing to prime the snapshot with: give visible text in one of goal,"
            " query, entities, files, tools or recent_turns"
            + ("" if parent is not None else ", or open the session without a goal"),
            field="goal",
        )
    session_id = new_id("s")
    moment = Moment.CHILD_RUN if session_kind is SessionKind.CHILD else Moment.SESSION_SNAPSHOT
    request = resolved_request(
        {
            "tenant_id": tenant_id,
            "principal_id": principal_id,
            "working_state": state,
            "moment": moment,
            "surface": where,
            "project": project,
            "session_id": session_id,
            "model_window": model_window,
        }
    )
    spec = SessionSpec(
        kind=session_kind,
        parent_session_id=parent.id if parent is not None else None,
        parent_max_items=parent.max_items if parent is not None else None,
        parent_max_tokens=parent.max_tokens if parent is not None else None,
    )
    # The trace is stored with the session row, in its transaction (see the store's save).
    erasures = memory._erasure_count(request.tenant_id, request.principal_id)
    read_since = ReadStart()
    result = memory._run_flow(request, policy, {"session_spec": spec}, False)
    record = result.trace.snapshot
    assert record is not None, "a snapshot moment's trace carries its snapshot record"
    prefix = session_prefix(result.block).encode()
    if hashlib.sha256(prefix).hexdigest() != record.prefix_sha256:
        raise AssertionError("the prefix differs from the one its trace recorded")
    assert request.known_as_of is not None
    info = SessionInfo(
        id=session_id,
        tenant_id=request.tenant_id,
        principal_id=request.principal_id,
        kind=session_kind,
        parent_session_id=spec.parent_session_id,
        surface=where,
        requested_surface=asked,
        project=request.project,
        model_window=model_window,
        max_items=record.max_items,
        max_tokens=record.max_tokens,
        retrieval_policy_version=policy.version,
        watermark=request.known_as_of,
        snapshot_trace_id=result.trace.id,
        prefix_sha256=record.prefix_sha256,
        beliefs=record.beliefs,
    )
    unsaved = memory._session_store.save(
        info, prefix, result, policy.retention, read_since, policy.sessions.lock_timeout_ms
    )
    if unsaved is not None:
        memory._trace_unsaved(result.trace.id, unsaved)
    return Session(memory, info, prefix, policy, snapshot=result, erasures=erasures)


def stored_session(
    memory: Memory, tenant_id: str, principal_id: str, session_id: str
) -> tuple[SessionInfo, bytes, datetime | None]:
    """A stored session as it was opened, its prefix bytes, and when it ended (or ends:
    an end may be set for later), None while no end is set: what ``recallflow session
    show`` prints. Unlike :func:`resume_session` it reads an ended session too, and one
    opened under another policy, since nothing is run with it. Another principal's
    session is not found, exactly like a missing one."""
    _check_keys(tenant_id, principal_id, session_id)
    info, prefix = memory._session_store.load(tenant_id, principal_id, session_id)
    return info, prefix, memory._session_store.end_of(tenant_id, principal_id, session_id)


def _check_keys(tenant_id: str, principal_id: str, session_id: str) -> None:
    key_of(tenant_id, "tenant_id")
    key_of(principal_id, "principal_id")
    key_of(session_id, "session_id")


def resume_session(
    memory: Memory,
    tenant_id: str,
    principal_id: str,
    session_id: str,
    *,
    policy: RetrievalPolicy = DEFAULT_POLICY,
) -> Session:
    """A stored session, with its prefix bytes exactly as rendered at open."""
    _check_keys(tenant_id, principal_id, session_id)
    erasures = memory._erasure_count(tenant_id, principal_id)
    info, prefix = memory._session_store.load(tenant_id, principal_id, session_id)
    memory._session_store.check_live(tenant_id, principal_id, session_id)
    if info.retrieval_policy_version != policy.version:
        # A release whose default policy differs cannot rebuild the old one: a session
        # opened before such an upgrade is over for this release, and the message says so.
        upgrade = (
            " This release's default policy is another version: if the session was opened"
            " by an earlier recallflow, it cannot be resumed by this one; open a new session."
            if policy.version == DEFAULT_POLICY.version
            else ""
        )
        raise InvalidInputError(
            f"session {session_id!r} was opened under policy {info.retrieval_policy_version}; "
            f"resume it with that policy, not {policy.version}.{upgrade}",
            field="policy",
        )
    return Session(memory, info, prefix, policy, erasures=erasures)


# --- corrections ---------------------------------------------------------------------------


def _as_they_stood(
    tx: SessionTurnStore, rows: Mapping[str, Belief], *, as_of: datetime
) -> dict[str, Belief]:
    """``rows`` as they stood at ``as_of`` (:func:`~recallflow.core.corrections.stood_at`),
    their successors read to tell whether each supersession has taken over yet."""
    wanted = [
        b.superseded_by
        for b in rows.values()
        if b.state is LifecycleState.SUPERSEDED and b.superseded_by is not None
    ]
    successors = tx.beliefs(sorted(set(wanted))) if wanted else {}
    return {bid: stood_at(row, as_of=as_of, successors=successors) for bid, row in rows.items()}


def _disputed(
    tx: SessionTurnStore,
    rows: dict[str, Belief],
    *,
    as_of: datetime,
    ceiling: Sensitivity,
    project: str | None,
) -> dict[str, Belief]:
    """``rows`` with their conflicts as they stood at ``as_of``, as a recall in the
    session's project then judges them (:func:`~recallflow.core.lifecycle.disputed_at`):
    a member is disputed while another member of its set is live on this surface,
    whatever ended that one since, and holds in the project: a member rejected there as
    not here is not loaded by a recall there, and a local belief of another project does
    not hold there, so neither disputes anything in the session."""
    sets = sorted({b.conflict_set_id for b in rows.values() if b.conflict_set_id is not None})
    if not sets:
        return rows
    live = _live_members(tx, sets, as_of=as_of, ceiling=ceiling)
    judged = {b.id: b for b in disputed_at(live, _SIDES, project=project)}
    return {bid: judged.get(bid, b) for bid, b in rows.items()}


def _live_members(
    tx: SessionTurnStore, sets: list[str], *, as_of: datetime, ceiling: Sensitivity
) -> list[Belief]:
    """The members of the conflict ``sets`` as they stood at ``as_of`` that were live on
    this surface then and are not rejected in the session's project as not here (the
    sides a recall there loads)."""
    members = _as_they_stood(tx, {m.id: m for m in tx.conflict_members(sets)}, as_of=as_of)
    not_here = tx.excluded(list(members))
    live = [
        m
        for m in members.values()
        if _visible(m, as_of=as_of, ceiling=ceiling) and m.id not in not_here
    ]
    return live


_SIDES = (LifecycleState.ACTIVE, LifecycleState.CONFLICTED)
#: The statuses of a belief that no longer holds anywhere, on any surface. (A retracted
#: successor withdraws its supersession: the belief it replaced holds again.)
_ENDED = frozenset({BeliefStatus.RETIRED, BeliefStatus.EXPIRED})


def _visible(belief: Belief, *, as_of: datetime, ceiling: Sensitivity) -> bool:
    """Live at ``as_of`` on this surface, and already known and valid then (a belief that
    becomes valid later is not shown before it does, as the hard filter would not)."""
    return (
        in_force_at(belief, as_of=as_of)
        and status_of(belief, as_of=as_of, ceiling=ceiling) is BeliefStatus.LIVE
    )


class _Replacement(BaseModel):
    """What a ``superseded`` correction tells of its belief's replacement: the one it
    quotes (with its flag, and its conflict's other members when a recall of the session
    would show it disputed), or, when none, whether the live belief down the chain was
    passed over because it does not hold in the session's project."""

    model_config = ConfigDict(frozen=True)

    shown: tuple[str, str] | None = None
    #: The replacement quoted, as the agent reads it there (the session records it shown).
    fingerprint: BeliefFingerprint | None = None
    provisional: bool = False
    flagged: bool = False
    conflict_set_id: str | None = None
    #: The other members of its conflict, quoted as disputing it.
    disputing: tuple[Belief, ...] = ()
    elsewhere: bool = False
    ended: bool = False

    @property
    def peers(self) -> tuple[tuple[str, str], ...]:
        return tuple((m.id, m.statement) for m in self.disputing)


def _shown_here(row: Belief, *, as_of: datetime, ceiling: Sensitivity, provisional: bool) -> bool:
    """Whether a recall of the session would admit ``row`` on this surface: live and
    visible, or provisional where the in-turn recall admits provisional beliefs
    (``provisional``)."""
    if _visible(row, as_of=as_of, ceiling=ceiling):
        return True
    return (
        provisional
        and in_force_at(row, as_of=as_of)
        and status_of(row, as_of=as_of, ceiling=ceiling) is BeliefStatus.PROVISIONAL
    )


def _holds_here(
    tx: SessionTurnStore,
    row: Belief,
    *,
    as_of: datetime,
    ceiling: Sensitivity,
    project: str | None,
    provisional: bool,
) -> bool:
    """Whether a recall of the session would show ``row``: admitted on this surface
    (:func:`_shown_here`), and holding in the session's ``project`` (not local to
    another, not rejected there as not here)."""
    return (
        _shown_here(row, as_of=as_of, ceiling=ceiling, provisional=provisional)
        and not stays_home(row, project)
        and not tx.excluded([row.id])
    )


def _other_members(
    tx: SessionTurnStore,
    row: Belief,
    *,
    as_of: datetime,
    ceiling: Sensitivity,
    project: str | None,
) -> tuple[str | None, tuple[Belief, ...]]:
    """``row``'s conflict set and its other members as a recall of the session would show
    them (:func:`_disputed`): (None, ()) when it is not disputed there."""
    cs = row.conflict_set_id
    if cs is None:
        return None, ()
    # The set's members read once: both whether the row is disputed (as :func:`_disputed`
    # judges it) and which of them it is disputed with.
    live = _live_members(tx, [cs], as_of=as_of, ceiling=ceiling)
    judged = {b.id: b for b in disputed_at(live, _SIDES, project=project)}.get(row.id, row)
    if judged.state is not LifecycleState.CONFLICTED or judged.conflict_set_id is None:
        return None, ()
    if judged.conflict_set_id != cs:  # the set it stood in at ``as_of``
        cs = judged.conflict_set_id
        live = _live_members(tx, [cs], as_of=as_of, ceiling=ceiling)
    peers = tuple(
        m for m in live if m.id != row.id and m.conflict_set_id == cs and not stays_home(m, project)
    )
    return (cs, peers) if peers else (None, ())


def _replacement(
    tx: SessionTurnStore,
    first: str,
    *,
    as_of: datetime,
    ceiling: Sensitivity,
    project: str | None,
    hops: int,
    provisional: bool,
) -> _Replacement:
    """The first live, visible belief down the supersession chain from ``first`` that
    holds in the session's ``project`` (not local to another, not rejected there as not
    here: a recall there would not show it), within ``hops`` beliefs
    (``sessions.replacement_hops``) — a provisional one too where the in-turn recall
    admits it (``provisional``), as that recall shows it — with its flag and, when a recall
    of the session would show it disputed, its conflict's other members. With none,
    whether a belief passed over was admitted on this surface but does not hold in the
    project (the line then says so, not that the surface withholds it), or whether the
    chain ends in a belief that no longer holds, none of it above this surface's ceiling
    (the line then says so: the surface withholds nothing, and a line saying it does sent
    the agent looking for a belief that a correction had ended)."""
    seen: set[str] = set()
    current: str | None = first
    elsewhere = False
    withheld = False  # a belief of the chain this surface may not show, whatever its state
    for _ in range(hops):
        if current is None or current in seen:
            break
        seen.add(current)
        row = _as_they_stood(tx, tx.beliefs([current]), as_of=as_of).get(current)
        if row is None:  # forgotten: it holds nowhere
            return _Replacement(elsewhere=elsewhere, ended=not (elsewhere or withheld))
        withheld = withheld or row.sensitivity > ceiling
        if _holds_here(
            tx, row, as_of=as_of, ceiling=ceiling, project=project, provisional=provisional
        ):
            cs, peers = _other_members(tx, row, as_of=as_of, ceiling=ceiling, project=project)
            return _Replacement(
                shown=(row.id, row.statement),
                # As a recall of the session reads it: disputed in ``cs`` or in none.
                fingerprint=fingerprint(row, as_of=as_of, ceiling=ceiling).model_copy(
                    update={"conflict_set_id": cs}
                ),
                provisional=row.state is LifecycleState.PROVISIONAL,
                flagged=row.flagged,
                conflict_set_id=cs,
                disputing=peers,
            )
        if _shown_here(row, as_of=as_of, ceiling=ceiling, provisional=provisional):
            elsewhere = True  # live here, but local to another project or rejected here
        if row.superseded_by is None:  # the chain's end, not shown: ended, or withheld
            status = status_of(row, as_of=as_of, ceiling=ceiling)
            ended = status in _ENDED and not (elsewhere or withheld)
            return _Replacement(elsewhere=elsewhere, ended=ended)
        current = row.superseded_by
    return _Replacement(elsewhere=elsewhere)


def _forgotten_shown(
    tx: SessionTurnStore, *, exclude: Mapping[str, BeliefFingerprint]
) -> tuple[list[PendingCorrection], list[str]]:
    """The ``forgotten`` corrections owed for beliefs a turn showed beyond the prefix and
    forgotten since (none of their words: the row is gone), and those among them written
    again under their id since: not forgotten now, so nothing is told, but the agent still
    holds the line it was shown under that id, so they stay shown (a later erasure of the
    belief is told). A prefix belief (``exclude``) is corrected through the prefix's
    fingerprints instead."""
    ids = [b for b in tx.forgotten_shown() if b not in exclude]
    if not ids:
        return [], []
    back = tx.beliefs(ids)
    shown = BeliefFingerprint(status=BeliefStatus.LIVE, statement="")
    gone = [
        PendingCorrection(belief_id=b, fingerprint=FORGOTTEN, previous=shown)
        for b in ids
        if b not in back
    ]
    return gone, [b for b in ids if b in back]


def _current(
    tx: SessionTurnStore,
    ids: Sequence[str],
    *,
    as_of: datetime,
    ceiling: Sensitivity,
    project: str | None,
) -> dict[str, BeliefFingerprint]:
    """The fingerprint of each of ``ids`` (a missing row's is forgotten's): its row as it
    stood at ``as_of``, whether it was rejected as "not here" in the session's project,
    and its conflict as a recall in the project then judges it."""
    rows = _disputed(tx, _as_they_stood(tx, tx.beliefs(list(ids)), as_of=as_of), as_of=as_of,
                     ceiling=ceiling, project=project)  # fmt: skip
    excluded = tx.excluded(list(rows))
    return {
        bid: fingerprint(rows.get(bid), as_of=as_of, ceiling=ceiling, excluded=bid in excluded)
        for bid in ids
    }


@dataclass(frozen=True, slots=True)
class _Found:
    """What a turn found it owes the agent: the pending corrections (the prefix's beliefs
    first, in prefix order, then those an earlier turn showed, in the order shown); the
    fingerprint of each other belief a correction quotes whole (a replacement, a
    disputing belief: the agent reads it there, so the session records it as shown); and
    the current fingerprints of the beliefs it was asked about besides (``also``)."""

    pending: list[PendingCorrection]
    quoted: dict[str, BeliefFingerprint]
    also: dict[str, BeliefFingerprint]


def _pending(
    tx: SessionTurnStore,
    told: Mapping[str, BeliefFingerprint],
    shown: Mapping[str, ShownFingerprint],
    *,
    also: Sequence[str] = (),
    as_of: datetime,
    ceiling: Sensitivity,
    project: str | None,
    hops: int,
    provisional: bool,
) -> _Found:
    """Every snapshot belief whose row, as it stood at ``as_of`` (and whether it was
    rejected as "not here" in the session's project), differs from what the agent was
    told (``told``), then every belief an earlier turn showed whose row differs from what
    that turn showed or the last correction told (``shown``), read alike. A conflict's
    other members, and a supersession's replacement, are shown when this surface may show
    them and they hold in the session's ``project`` (a local belief of another project
    does not, nor one rejected there as not here). ``also``: beliefs whose current
    fingerprints are wanted besides, read with the others."""
    ids = list(dict.fromkeys((*told, *shown, *also)))
    current = _current(tx, ids, as_of=as_of, ceiling=ceiling, project=project)
    previous = {
        **told,
        **{bid: as_shown(fp, current[bid]) for bid, fp in shown.items() if bid not in told},
    }
    changed = pending_corrections(previous, current)
    sets = sorted({c for bid in changed if (c := current[bid].conflict_set_id)})
    members: dict[str, list[Belief]] = defaultdict(list)
    peers_by_id = _as_they_stood(tx, {m.id: m for m in tx.conflict_members(sets)}, as_of=as_of)
    # A member rejected as not holding in the session's project is not quoted there.
    not_here = tx.excluded(list(peers_by_id))
    for member in peers_by_id.values():
        if member.conflict_set_id is not None:
            members[member.conflict_set_id].append(member)
    out: list[PendingCorrection] = []
    quoted: dict[str, BeliefFingerprint] = {}
    for bid in changed:
        fp = current[bid]
        replacement = _Replacement()
        if fp.superseded_by is not None:
            replacement = _replacement(
                tx, fp.superseded_by, as_of=as_of, ceiling=ceiling, project=project, hops=hops,
                provisional=provisional,
            )  # fmt: skip
        # A superseded belief is in no conflict: its line names its replacement's, if any.
        peers: tuple[tuple[str, str], ...] = replacement.peers
        disputing = replacement.disputing
        if fp.conflict_set_id is not None:
            disputing = tuple(
                m
                for m in members[fp.conflict_set_id]
                if m.id != bid
                and _visible(m, as_of=as_of, ceiling=ceiling)
                and not stays_home(m, project)
                and m.id not in not_here
            )
            peers = tuple((m.id, m.statement) for m in disputing)
        if replacement.shown is not None and replacement.fingerprint is not None:
            quoted[replacement.shown[0]] = replacement.fingerprint
        for m in disputing:
            quoted[m.id] = _disputing(m, as_of=as_of, ceiling=ceiling)
        out.append(
            PendingCorrection(
                belief_id=bid,
                fingerprint=fp,
                previous=as_told(told[bid], fp) if bid in told else previous[bid],
                replacement=replacement.shown,
                replacement_provisional=replacement.provisional,
                replacement_flagged=replacement.flagged,
                replacement_conflict_set_id=replacement.conflict_set_id,
                replacement_elsewhere=replacement.elsewhere,
                replacement_ended=replacement.ended,
                peers=peers,
            )
        )
    return _Found(pending=out, quoted=quoted, also={b: current[b] for b in also})


def _disputing(member: Belief, *, as_of: datetime, ceiling: Sensitivity) -> BeliefFingerprint:
    """The fingerprint of a conflict's member a correction quotes as disputing a belief:
    live on this surface and holding in the project (so quoted), it is disputed in that
    conflict, whatever state its row records (a member whose conflict was resolved keeps
    its set, and is disputed again while another member holds)."""
    return fingerprint(member, as_of=as_of, ceiling=ceiling).model_copy(
        update={"conflict_set_id": member.conflict_set_id}
    )


def _now_shown(
    result: RecallResult,
    found: _Found,
    pending: Mapping[str, PendingCorrection],
    *,
    frozen: Mapping[str, BeliefFingerprint],
    forgotten: set[str],
) -> dict[str, ShownFingerprint | None]:
    """What the agent holds after this turn of each belief beyond the prefix the turn
    showed or corrected, in the order shown: the block's beliefs as it rendered them, the
    beliefs a correction quoted whole as it quoted them, those corrected as the correction
    told them, and those written again since they were forgotten as they stand now (the
    agent still holds the line it was shown of them, under the same id). None where the
    turn has no fingerprint of it (the session keeps the one it has)."""
    rendered = {b.belief_id: b.fingerprint for b in result.shown}
    out: dict[str, BeliefFingerprint | None] = {
        b: rendered.get(b) for b in result.rendered_ids if b not in frozen
    }
    corrections = result.trace.corrections
    for b in told_peers(corrections):
        if b not in frozen:
            out[b] = found.quoted.get(b) or out.get(b)
    for c in corrections:
        if c.belief_id not in frozen and c.belief_id not in forgotten:
            out[c.belief_id] = pending[c.belief_id].fingerprint
    out.update(found.also)
    return {b: None if fp is None else shown_fingerprint(fp) for b, fp in out.items()}


# --- the shrink path -------------------------------------------------------------------------


class _Report(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SessionUsage(_Report):
    """What one session's turns made of its snapshot."""

    session_id: str
    kind: SessionKind
    item_cap: int
    snapshot_items: int
    turns: int
    relevant: tuple[str, ...]
    turn_utilization: float | None = Field(
        description="Mean over turns of the share of the snapshot that turn found relevant."
    )
    durable_relevant: int
    misses: tuple[str, ...]
    needed_cap: int


def session_usage(
    snapshot: RecallTrace, turns: Sequence[RecallTrace], sessions: SessionPolicy
) -> SessionUsage:
    """One session's utilization and misses from its snapshot trace and in-turn traces.

    Relevant: distinct snapshot beliefs that cleared the floor in a later turn. Misses:
    distinct durable beliefs a turn rendered that the snapshot did not hold. Needed cap:
    the smallest item cap whose snapshot would still have held every relevant belief.
    """
    record = snapshot.snapshot
    if record is None:
        raise ValueError(f"trace {snapshot.id} is not a snapshot trace")
    frozen = {b.belief_id: b for b in record.beliefs}
    relevant = tuple(dict.fromkeys(i for t in turns for i in t.snapshot_relevant if i in frozen))
    per_turn = [
        len(set(t.snapshot_relevant) & frozen.keys()) / len(frozen) for t in turns if frozen
    ]
    misses = tuple(dict.fromkeys(i for t in turns for i in t.snapshot_misses))
    position: dict[str, tuple[str, int]] = {}
    counts: dict[str, int] = defaultdict(int)
    for b in record.beliefs:
        position[b.belief_id] = (b.part.value, counts[b.part.value])
        counts[b.part.value] += 1
    durable_types = {t.value for t in sessions.durable_types}
    return SessionUsage(
        session_id=snapshot.session_id or "",
        kind=record.kind,
        item_cap=record.max_items,
        snapshot_items=len(record.beliefs),
        turns=len(turns),
        relevant=relevant,
        turn_utilization=statistics.fmean(per_turn) if per_turn else None,
        durable_relevant=sum(1 for i in relevant if frozen[i].belief_type in durable_types),
        misses=misses,
        needed_cap=smallest_cap(
            [position[i] for i in relevant],
            cap=record.max_items,
            core_available=record.core_available,
            priming_available=record.priming_available,
            durable_share=sessions.durable_share,
        ),
    )


class KindBudget(_Report):
    """The shrink-path figures of one session kind, and the advice they support."""

    kind: SessionKind
    sessions: int
    turns: int
    item_cap: int
    snapshot_items: float | None
    utilization: float | None
    turn_utilization: float | None
    misses: int
    miss_rate: float | None
    needed_cap_max: int | None
    needed_cap_median: float | None
    #: Whether the kind had the sessions and turns the policy requires before advising
    #: (``sessions.advice_min_sessions``, ``sessions.advice_min_turns``); when not, the
    #: verdict says how many it has and needs, and nothing is advised.
    advised: bool
    could_shrink: bool
    #: The item cap advised when the cap could shrink (at least 1, like any cap), else None.
    shrink_to: int | None
    verdict: str


class BudgetReport(_Report):
    """Utilization and misses per session kind over stored session traces."""

    kinds: tuple[KindBudget, ...]
    sessions_without_turns: int


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.fmean(present) if present else None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _enough(sessions: int, turns: int, policy: SessionPolicy) -> bool:
    """Whether a kind's sessions and turns reach the minimum the policy advises from."""
    return sessions >= policy.advice_min_sessions and turns >= policy.advice_min_turns


def _too_few(sessions: int, turns: int, policy: SessionPolicy) -> str:
    """The verdict of a kind whose sessions or turns are below the policy's minimum."""
    need_sessions, need_turns = policy.advice_min_sessions, policy.advice_min_turns
    short = "turns" if turns < need_turns else "sessions"
    return (
        f"too few {short} to advise: {_plural(turns, 'turn')} in"
        f" {_plural(sessions, 'session')}, advice needs at least"
        f" {_plural(need_turns, 'turn')} in {_plural(need_sessions, 'session')}"
    )


def _advice(needed: Sequence[int], cap: int, fullest: int) -> tuple[int | None, str]:
    """(the cap to shrink to, or None; the verdict) of a kind with enough turns."""
    largest = max(needed)
    target = max(1, largest)  # a cap of 0 is refused: it could only render an empty block
    if target >= cap:
        if largest < cap:
            return None, f"keep: the cap is already the smallest one allowed ({cap})"
        return None, "keep: some session used an item only the full cap held"
    if largest == 0:
        verdict = f"could shrink to {target}: no turn found a snapshot item relevant"
    else:
        verdict = f"could shrink to {target}: no session used an item beyond it"
    if fullest < cap:
        verdict += f" (the cap never bound: snapshots held at most {fullest} items)"
    return target, verdict


def summarise_usage(
    usages: Sequence[SessionUsage], policy: RetrievalPolicy = DEFAULT_POLICY
) -> tuple[KindBudget, ...]:
    """Per kind: utilization = distinct snapshot items a later turn found relevant ÷
    snapshot items; per-turn utilization = the mean share of the snapshot one turn found
    relevant; miss rate = misses ÷ (misses + durable snapshot beliefs found relevant); the
    cap every relevant item needed. Whether the cap could shrink is advised only from
    ``sessions.advice_min_sessions`` sessions and ``sessions.advice_min_turns`` turns on."""
    out: list[KindBudget] = []
    for kind in SessionKind:
        mine = [u for u in usages if u.kind is kind and u.turns > 0]
        cap = policy.sessions.budget(kind).max_items
        turns = sum(u.turns for u in mine)
        enough = _enough(len(mine), turns, policy.sessions)
        if not mine:
            out.append(
                KindBudget(
                    kind=kind,
                    sessions=0,
                    turns=0,
                    item_cap=cap,
                    snapshot_items=None,
                    utilization=None,
                    turn_utilization=None,
                    misses=0,
                    miss_rate=None,
                    needed_cap_max=None,
                    needed_cap_median=None,
                    advised=False,
                    could_shrink=False,
                    shrink_to=None,
                    verdict=_too_few(0, 0, policy.sessions),
                )
            )
            continue
        items = sum(u.snapshot_items for u in mine)
        relevant = sum(len(u.relevant) for u in mine)
        misses = sum(len(u.misses) for u in mine)
        needed_durable = misses + sum(u.durable_relevant for u in mine)
        needed = [u.needed_cap for u in mine]
        cap = max(u.item_cap for u in mine)
        if enough:
            shrink_to, verdict = _advice(needed, cap, max(u.snapshot_items for u in mine))
        else:
            shrink_to, verdict = None, _too_few(len(mine), turns, policy.sessions)
        out.append(
            KindBudget(
                kind=kind,
                sessions=len(mine),
                turns=turns,
                item_cap=cap,
                snapshot_items=items / len(mine),
                utilization=relevant / items if items else None,
                turn_utilization=_mean([u.turn_utilization for u in mine]),
                misses=misses,
                miss_rate=misses / needed_durable if needed_durable else None,
                needed_cap_max=max(needed),
                needed_cap_median=float(statistics.median(needed)),
                advised=enough,
                could_shrink=shrink_to is not None,
                shrink_to=shrink_to,
                verdict=verdict,
            )
        )
    return tuple(out)


def budget_report(
    memory: Memory, tenant_id: str | None = None, *, policy: RetrievalPolicy = DEFAULT_POLICY
) -> BudgetReport:
    """Snapshot utilization and miss rate per session kind over the stored session traces
    (of ``tenant_id``, or of the whole store), and whether each kind's item cap could shrink.

    :raises InvalidInputError: a malformed tenant id, or a policy that is not a
        :class:`~recallflow.RetrievalPolicy`.
    """
    if tenant_id is not None:
        tenant_id = key_of(tenant_id, "tenant_id")
    if not isinstance(policy, RetrievalPolicy):
        raise InvalidInputError(
            f"must be a RetrievalPolicy, got {type(policy).__name__}", field="policy"
        )
    rows = memory._session_store.session_traces(tenant_id)
    by_session: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_session[(row["tenant_id"], row["principal_id"], row["id"])].append(row)
    usages: list[SessionUsage] = []
    idle = 0
    for session_rows in by_session.values():
        traces = [RecallTrace.model_validate(r["operator_view"]) for r in session_rows]
        snapshots = [t for t in traces if t.snapshot is not None]
        if not snapshots:
            continue
        turns = [t for t in traces if t.moment is Moment.IN_TURN]
        if not turns:
            idle += 1
        usages.append(session_usage(snapshots[0], turns, policy.sessions))
    return BudgetReport(kinds=summarise_usage(usages, policy), sessions_without_turns=idle)
