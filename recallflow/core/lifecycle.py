"""Lifecycle rules of the write path, pure: when a re-added belief is the same belief, how a
supersession changes both beliefs, and what evidence does to confidence (see "Lifecycle
and history" and "Feedback and corrections" in docs/architecture.md).

A belief is never edited in place. Its *content* — what is believed, about what, where it
was learned and who vouches for it — is fixed when it is first stored; a change of content
is a new belief that supersedes the old one. Everything else on the row is lifecycle
(state, validity end, retraction, corroboration, utility, the flag, links set by later
writes) and changes only through a typed, recorded event.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from datetime import datetime, timedelta

from recallflow.core.corrections import status_of, stood_at
from recallflow.core.scoring import stays_home
from recallflow.errors import ConflictError, NotFoundError, SupersessionCycleError
from recallflow.models.session import BeliefStatus
from recallflow.models.store import Belief, BeliefEdge, Episode, LifecycleState, Sensitivity

#: The fields that say what a belief *is*; re-adding an id with other values is a conflict.
CONTENT_FIELDS: tuple[str, ...] = (
    "statement",
    "subject",
    "entities",
    "belief_type",
    "scope",
    "origin_project",
    "portability",
    "sensitivity",
    "source_authority",
    "source_episode_id",
)
#: The smallest step of time: a retraction's system time just after a belief recorded
#: ahead of the clock, a replayed belief's shortest validity.
INSTANT = timedelta(microseconds=1)


def content_differences(draft: Belief, stored: Belief) -> list[str]:
    """The content fields in which ``draft`` differs from the stored belief of its id.

    ``supersedes`` counts too when the draft names one: a stored belief's predecessor
    cannot be changed afterwards.
    """
    differ = [f for f in CONTENT_FIELDS if getattr(draft, f) != getattr(stored, f)]
    if draft.supersedes is not None and draft.supersedes != stored.supersedes:
        differ.append("supersedes")
    return differ


#: The fields that say what an episode *is*; its ``recorded_at`` is the store's (a retry
#: of a write whose answer was lost is recorded again "now", and is the same episode).
EPISODE_CONTENT_FIELDS: tuple[str, ...] = (
    "project",
    "session_id",
    "occurred_at",
    "kind",
    "content",
    "sensitivity",
)


def episode_differences(draft: Episode, stored: Episode) -> list[str]:
    """The content fields in which ``draft`` differs from the stored episode of its id."""
    return [f for f in EPISODE_CONTENT_FIELDS if getattr(draft, f) != getattr(stored, f)]


def edge_key(edge: BeliefEdge) -> tuple[str, str, str, str, str]:
    """What makes two edges the same link (the weight is what the link says of it)."""
    return (edge.tenant_id, edge.principal_id, edge.src_id, edge.dst_id, edge.relation.value)


def not_found(
    tenant_id: str,
    principal_id: str,
    belief_id: str,
    *,
    field: str = "belief_id",
    item_index: int | None = None,
    item_id: str | None = None,
) -> NotFoundError:
    """The one error of an id the principal does not have, whether it exists elsewhere or
    not at all (so an error never tells one principal what another holds). Named by
    ``belief_id``, the argument every call on one belief takes, or by ``field``,
    ``item_index`` and ``item_id``: the item of a batch whose field named it."""
    return NotFoundError(
        f"no belief {belief_id!r} for {tenant_id}/{principal_id}",
        field=field,
        item_index=item_index,
        item_id=item_id,
    )


@dataclass(frozen=True)
class Supersession:
    """``old`` is superseded by ``new`` at world time ``at``."""

    old: str
    new: str
    at: datetime


@dataclass(frozen=True)
class SupersessionPlan:
    """What a batch's supersession links do: the rows to insert (adjusted), the stored
    predecessors to mark superseded (id → (successor, valid_to)), and the events."""

    inserts: tuple[Belief, ...]
    stored_updates: dict[str, tuple[str, datetime | None]]
    events: tuple[Supersession, ...]


def supersession_pairs(batch: Sequence[Belief]) -> list[tuple[str, str]]:
    """Every (old, new) link the batch declares, from either side, once each."""
    pairs: dict[tuple[str, str], None] = {}
    for b in batch:
        if b.supersedes is not None:
            pairs[(b.supersedes, b.id)] = None
        if b.superseded_by is not None:
            pairs[(b.id, b.superseded_by)] = None
    return list(pairs)


def effective_time(new: Belief) -> datetime:
    """The world time a successor takes over: its ``valid_from``, else when it was recorded."""
    return new.valid_from if new.valid_from is not None else new.recorded_at


def _cycle(successor: Mapping[str, str], start: str) -> tuple[str, ...] | None:
    seen: list[str] = [start]
    current = start
    while current in successor:
        current = successor[current]
        if current == start:
            return (*seen, start)
        if current in seen:
            return None  # a loop that does not pass through start is reported from its own start
        seen.append(current)
    return None


def _declared_in(cycle: tuple[str, ...], in_batch: Mapping[str, Belief]) -> tuple[str, str]:
    """The first belief of the batch whose own field states a link of ``cycle`` (each
    belief superseded by the next), and that field: the item a refusal of the loop names.
    Stored links alone never close one, so one of its links is the batch's."""
    for old, new in itertools.pairwise(cycle):
        if new in in_batch and in_batch[new].supersedes == old:
            return new, "supersedes"
        if old in in_batch and in_batch[old].superseded_by == new:
            return old, "superseded_by"
    return cycle[0], "supersedes"


def plan_supersessions(
    tenant_id: str,
    principal_id: str,
    batch: Sequence[Belief],
    stored: Mapping[str, Belief],
    stored_successors: Mapping[str, str],
    positions: Mapping[str, int] | None = None,
) -> SupersessionPlan:
    """Apply the batch's supersession links to the batch and to stored predecessors.

    ``stored`` holds every stored belief a link names; ``stored_successors`` the stored
    ``superseded_by`` links reachable from the batch (for cycle detection). The old belief
    becomes ``superseded`` with ``superseded_by`` set and keeps its own ``valid_to``: it is
    live until the successor's ``valid_from``, which the hard filter reads from the
    successor (so history at an earlier ``as_of`` still reads it); a successor with no
    ``valid_from`` becomes valid when it was recorded.

    Raises :class:`NotFoundError` for a link to an unknown id — naming the belief that
    declares the link, its field and (``positions``: id → index in the caller's batch)
    its index, so a bad link in a large batch is found by its item —,
    :class:`ConflictError` (naming the declaring item alike) when a belief is already
    superseded by another or retired, :class:`SupersessionCycleError` for a loop.
    """
    in_batch = {b.id: b for b in batch}
    pairs = supersession_pairs(batch)
    successor: dict[str, str] = dict(stored_successors)
    chosen: dict[str, str] = {}
    for old, new in pairs:
        # The belief of the batch whose field declares the link, so a refusal names the
        # item to fix (its index in the caller's batch, its id, the field), not a stored
        # belief the caller did not send.
        by_new = new in in_batch and in_batch[new].supersedes == old
        declarer = new if by_new else old
        field = "supersedes" if by_new else "superseded_by"
        index = (positions or {}).get(declarer)
        for belief_id in (old, new):
            if belief_id not in in_batch and belief_id not in stored:
                raise not_found(
                    tenant_id, principal_id, belief_id,
                    field=field, item_index=index, item_id=declarer,
                )  # fmt: skip
        previous = chosen.get(old) or (
            stored[old].superseded_by if old in stored and old not in in_batch else None
        )
        if previous is not None and previous != new:
            said = (
                f"supersedes {old!r}, which is already superseded by {previous!r}"
                if by_new
                else f"names {new!r} as its successor, but {previous!r} already supersedes it"
            )
            raise ConflictError(
                f"{said}; supersede that belief instead",
                field=field, item_index=index, item_id=declarer,
            )  # fmt: skip
        old_row = in_batch.get(old) or stored[old]
        if old_row.state is LifecycleState.RETIRED:
            # Retired, it never held: superseded, it would hold again until its successor
            # took over (an end never undoes another end).
            said = f"supersedes {old!r}, which is" if by_new else "is"
            raise ConflictError(
                f"{said} retired (it never held): there is nothing to replace; store the"
                " belief without the link",
                field=field, item_index=index, item_id=declarer,
            )  # fmt: skip
        chosen[old] = new
        successor[old] = new
    for old in chosen:
        cycle = _cycle(successor, old)
        if cycle is not None:
            # Named by the first item of the batch whose own field states a link of the
            # loop (stored links alone never close one), with its index in the caller's
            # batch: a cycle in a large batch is found by its item, as a missing link is.
            declarer, field = _declared_in(cycle, in_batch)
            raise SupersessionCycleError(
                cycle,
                field=field,
                item_index=(positions or {}).get(declarer),
                item_id=declarer,
            )

    # A successor in the batch without a stated start becomes valid when recorded.
    adjusted: dict[str, Belief] = dict(in_batch)
    for new in {n for _, n in pairs if n in in_batch}:
        b = adjusted[new]
        if b.valid_from is None and (b.valid_to is None or b.recorded_at < b.valid_to):
            adjusted[new] = b.model_copy(update={"valid_from": b.recorded_at})

    updates: dict[str, tuple[str, datetime | None]] = {}
    events: list[Supersession] = []
    for old, new in chosen.items():
        successor_row = adjusted.get(new) or stored[new]
        at = effective_time(successor_row)
        old_row = adjusted.get(old) or stored[old]
        # The old belief's own valid_to stays: it ends that belief's truth, not its
        # replacement. Its live period ends at the successor's start, which the hard
        # filter reads from the successor in both world and system time (see "History:
        # lifecycle state at `as_of`" in docs/recall.md), so a read before the successor
        # was recorded still sees it.
        valid_to = old_row.valid_to
        if old in adjusted:
            adjusted[old] = adjusted[old].model_copy(
                update={
                    "state": LifecycleState.SUPERSEDED,
                    "superseded_by": new,
                    "valid_to": valid_to,
                }
            )
        else:
            if old_row.superseded_by == new:
                continue  # already recorded: re-adding the successor is a no-op
            updates[old] = (new, valid_to)
        events.append(Supersession(old=old, new=new, at=at))
    return SupersessionPlan(
        inserts=tuple(adjusted[b.id] for b in batch),
        stored_updates=updates,
        events=tuple(events),
    )


def corroborated_confidence(confidence: float, gain: float) -> float:
    """Confidence after one piece of corroborating evidence: ``gain`` of the remaining doubt
    is removed. Only evidence changes confidence; usage (citations) never does."""
    return min(1.0, confidence + (1.0 - confidence) * gain)


#: The statuses of a belief the store has ended: it does not hold now.
_ENDED = frozenset(
    {BeliefStatus.SUPERSEDED, BeliefStatus.RETRACTED, BeliefStatus.RETIRED, BeliefStatus.EXPIRED}
)


def ended_status(belief: Belief, successor: Belief | None, *, now: datetime) -> BeliefStatus | None:
    """How the store has ended ``belief`` by ``now`` — superseded by ``successor`` (its
    ``superseded_by``, as stored) once that one is in force, retracted, retired, or past its
    validity — or ``None`` while it holds (a successor not yet valid leaves it holding)."""
    successors = {successor.id: successor} if successor is not None else {}
    stood = stood_at(belief, as_of=now, successors=successors)
    status = status_of(stood, as_of=now, ceiling=max(Sensitivity))
    return status if status in _ENDED else None


def corroboration_refusal(
    belief: Belief, successor: Belief | None, *, now: datetime
) -> ConflictError | None:
    """Why evidence cannot corroborate ``belief`` now, or ``None`` when it can.

    Corroboration says the world still bears a belief out: it raises confidence and, in
    enough projects, promotes the belief to user scope. A belief the store has ended —
    retracted, superseded by a successor in force, retired, or past its validity — does
    not hold now, so evidence for what it said is evidence for its successor or for a new
    belief; counted on the ended one it would change the scope and confidence of a belief
    that no longer renders (and of what an earlier ``known_as_of`` reads back) while
    the caller believed it recorded support for something live."""
    status = ended_status(belief, successor, now=now)
    if status is BeliefStatus.SUPERSEDED:
        ended = f"is superseded by {belief.superseded_by!r}: corroborate that belief instead"
    elif status is BeliefStatus.RETRACTED:
        ended = "is retracted: the store no longer asserts it; evidence for it is a new belief"
    elif status is BeliefStatus.RETIRED:
        ended = "is retired (it does not hold); evidence for it is a new belief"
    elif status is BeliefStatus.EXPIRED:
        ended = "has expired; evidence that it holds again is a new belief"
    else:
        return None
    return ConflictError(ended, field="belief_id", item_id=belief.id)


def exclusion_refusal(belief: Belief, project: str, excluded: Set[str]) -> ConflictError | None:
    """Why evidence from ``project`` cannot corroborate ``belief``, or ``None`` when it can:
    the user rejected the belief as not here in ``project`` (``excluded``: the projects it
    is excluded in). Counted, it raised the confidence and, with its origin, promoted to
    user scope — recalled at full weight everywhere — a belief the user said does not hold
    in the very project the evidence came from."""
    if project not in excluded:
        return None
    return ConflictError(
        f"was rejected as not here in project {project!r}: the user said it does not hold"
        " there, so evidence from there is evidence for a belief of that project",
        field="project",
        item_id=belief.id,
    )


def promoting_projects(
    belief: Belief, projects: Iterable[str], excluded: Set[str]
) -> frozenset[str]:
    """The distinct projects a belief holds in, for promotion: those it was corroborated
    in and its origin, less those the user rejected it as not here in."""
    origin = {belief.origin_project} if belief.origin_project else set()
    return frozenset({*projects, *origin} - excluded)


def expired_state(state: LifecycleState) -> LifecycleState:
    """The state an expiry leaves a belief in: ``expired``, unless the belief has already
    ended otherwise. An end of validity does not undo another end: a superseded belief
    stays superseded (its successor took over; its own ``valid_to`` only bounds it further)
    and a retired one stays retired (never live at any ``as_of``). Made ``expired``, either
    was live again at every ``as_of`` before the new ``valid_to``: a superseded belief beside
    the successor that replaced it."""
    if state in (LifecycleState.SUPERSEDED, LifecycleState.RETIRED):
        return state
    return LifecycleState.EXPIRED


def retraction_time(recorded_at: datetime, now: datetime) -> datetime:
    """System time of a retraction: now, or just after the belief was recorded when its
    ``recorded_at`` lies ahead of the clock (system time must move forward)."""
    return now if now > recorded_at else recorded_at + INSTANT


def lone_survivors(members: Sequence[Belief]) -> list[Belief]:
    """The beliefs whose conflict is over: a conflict set left with a single live member
    (conflicted, not retracted) — the others retired, retracted, superseded, expired or
    forgotten — is no longer a conflict, and that member is disputed by nothing. It returns
    to the state it would have without the conflict (:func:`resolved_state`). A set with two
    or more live members is still a conflict; one with none has nobody to return."""
    live: dict[str, list[Belief]] = {}
    for b in members:
        if (
            b.state is LifecycleState.CONFLICTED
            and b.conflict_set_id is not None
            and b.retracted_at is None
        ):
            live.setdefault(b.conflict_set_id, []).append(b)
    return sorted((group[0] for group in live.values() if len(group) == 1), key=lambda b: b.id)


def lone_in_batch(batch: Sequence[Belief], stored: Sequence[Belief]) -> list[Belief]:
    """The beliefs of ``batch`` written ``conflicted`` with no other live member in their
    set, counting the ``stored`` members of their sets (as the batch leaves them: a stored
    member it supersedes is no longer live, one it re-adds is the batch's). A conflict
    needs two sides: a set of one, or one whose other members do not hold (retired,
    retracted, superseded, expired), disputes nothing."""
    ids = {b.id for b in batch}
    members = {b.id: b for b in stored}
    members.update((b.id, b) for b in batch)
    return [b for b in lone_survivors(list(members.values())) if b.id in ids]


def reopened_sets(batch: Sequence[Belief], stored: Sequence[Belief]) -> list[tuple[Belief, Belief]]:
    """The beliefs of ``batch`` written ``conflicted`` into a set whose conflict is over,
    each with a ``stored`` member (as the batch leaves them) that holds in it undisputed:
    a survivor settled out of the conflict (:func:`lone_survivors`), which keeps the set's
    id as the record of the conflict it was a side of. A read counts every member that
    holds as a side (:func:`disputed_at`), so a new conflict under that id would show the
    survivor disputed by beliefs that never disputed it, and reopen a conflict its
    history says was resolved: a new conflict takes a new set id."""
    conflicted = LifecycleState.CONFLICTED
    ids = {b.id for b in batch}
    settled: dict[str, Belief] = {}
    for b in stored:
        if (
            b.id not in ids
            and b.conflict_set_id is not None
            and b.state is LifecycleState.ACTIVE
            and b.retracted_at is None
        ):
            settled.setdefault(b.conflict_set_id, b)
    return [
        (b, settled[b.conflict_set_id])
        for b in batch
        if b.state is conflicted and b.conflict_set_id in settled
    ]


#: The states a belief may be written in that a read takes as holding at some instant
#: (``superseded`` and ``expired`` rows held until their end): under a set id, a side.
_HOLDING = (LifecycleState.ACTIVE, LifecycleState.SUPERSEDED, LifecycleState.EXPIRED)


def undeclared_sides(batch: Sequence[Belief]) -> list[Belief]:
    """The beliefs of ``batch`` that name a conflict set in a state a read takes as
    holding (active; superseded or expired, which held until their end) without being
    written ``conflicted``. A read counts every member of a set that holds as a side
    (:func:`disputed_at`: so that a member whose leaving takes effect later is still one
    until then), so a belief written ``active`` under a set id would be shown in a
    conflict nobody declared — two of them as one, one beside a live conflict as its
    next side, one beside a resolved conflict's survivor as reopening it — while every
    row says no conflict is open. A set id is written with the dispute it names: state
    ``conflicted`` (or a state that never holds: retired, provisional). A survivor keeps
    its set's id as that conflict's record, but it is the store that settles it so,
    never a write."""
    return [b for b in batch if b.conflict_set_id is not None and b.state in _HOLDING]


def disputed_at(
    beliefs: Sequence[Belief], admissible: Sequence[LifecycleState], *, project: str | None
) -> list[Belief]:
    """``beliefs`` — every belief a read admits at its ``as_of``, each in the state it had
    then, with every admitted member of their conflict sets — with the conflicts as they
    stood at that instant: the members of a set of which two or more held then are
    ``conflicted`` (a member that left later, a survivor whose conflict ended later, was
    one of the sides), and a ``conflicted`` member that held alone was disputed by nothing
    and reads ``active``. A provisional member keeps its state. Only states ``admissible``
    are given: a read that admits no ``conflicted`` belief sees no conflict.

    Held means held in the read's ``project``: a ``local`` belief of another project
    (:func:`~recallflow.core.scoring.stays_home`) does not hold there, so it is no side
    of a conflict there — the read never shows it, and a member it alone disputed reads
    as undisputed, as it would if the local belief were not stored. It keeps its own
    state (it is not shown)."""
    sides = (LifecycleState.ACTIVE, LifecycleState.CONFLICTED)
    held: dict[str, int] = {}
    away: set[str] = set()
    for b in beliefs:
        if b.conflict_set_id is not None and b.state in sides:
            if stays_home(b, project):
                away.add(b.id)
                continue
            held[b.conflict_set_id] = held.get(b.conflict_set_id, 0) + 1
    if not held:
        return list(beliefs)
    out: list[Belief] = []
    for b in beliefs:
        state = b.state
        if b.conflict_set_id is not None and state in sides and b.id not in away:
            disputed = held[b.conflict_set_id] > 1
            if disputed and LifecycleState.CONFLICTED in admissible:
                state = LifecycleState.CONFLICTED
            elif not disputed and LifecycleState.ACTIVE in admissible:
                state = LifecycleState.ACTIVE
        out.append(b if state is b.state else b.model_copy(update={"state": state}))
    return out


def resolved_state(belief: Belief, now: datetime) -> LifecycleState:
    """The state a lone survivor of a conflict returns to: ``expired`` when its validity
    has already ended, else ``active``."""
    if belief.valid_to is not None and belief.valid_to <= now:
        return LifecycleState.EXPIRED
    return LifecycleState.ACTIVE
