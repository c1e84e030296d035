"""Replaying durable corrections onto re-derived beliefs, pure (see "Feedback and
corrections" in docs/architecture.md).

Formation is outside recallflow; a re-derivation reaches it as belief drafts re-ingested
from the same sources: the same source episode and statement, possibly under new ids. A
draft is matched to the earlier beliefs of its *derivation key* (source episode, statement
folded by :func:`folded_statement`) or of its id, and every rejection and lifecycle correction
recorded against them is replayed onto it, so a rejected belief does not come back:
retired stays retired, superseded stays superseded by its replacement, expired stays
expired, retracted is not re-asserted, a not-here exclusion carries over and an
unspecified rejection keeps its flag (unless the flag was cleared since: the latest of a
flag and its clear wins), a side of a live conflict stays a side; a forgotten belief is
not written again.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from recallflow.core.erasure import erasure_digest
from recallflow.core.lifecycle import CONTENT_FIELDS, INSTANT
from recallflow.models.corrections import ReplayAction
from recallflow.models.store import Belief, LifecycleState

#: States that are corrections: a re-derived draft never comes back from them.
TERMINAL = (LifecycleState.RETIRED, LifecycleState.SUPERSEDED, LifecycleState.EXPIRED)

DerivationKey = tuple[str | None, str]

#: The events that set and clear a flag: an ``unspecified`` rejection, and its clear.
FLAG_EVENTS = frozenset({"rejected_unspecified", "unflagged"})


#: What may close a sentence without changing it (a question mark does change it).
_CLOSING = ".!;:\u2026 "

#: Typographic quotes and dashes NFKC leaves alone, as their plain forms: a formation
#: model writes "Ada\u2019s" for "Ada's", or an en dash for a hyphen, from one pass to the
#: next.
_TYPOGRAPHIC = str.maketrans(
    dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc\u00b4", "'")
    | dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"')
    | dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-")
)


def folded_statement(statement: str) -> str:
    """A statement as a derivation compares it: compatibility forms folded (NFKC),
    typographic quotes and dashes as their plain forms, case folded, whitespace collapsed
    and the closing punctuation dropped — what a formation model varies when it writes
    the same sentence again. Words, numbers and inner punctuation are kept: "3.5k" and
    "35k" stay apart."""
    return _folded(statement).translate(_TYPOGRAPHIC)


def _folded(statement: str) -> str:
    """:func:`folded_statement` as it was before it folded typographic marks: the fold
    the derivation digests of beliefs forgotten then were made of."""
    text = " ".join(unicodedata.normalize("NFKC", statement).casefold().split())
    return text.rstrip(_CLOSING)


def derivation_key(belief: Belief) -> DerivationKey:
    """What makes two drafts the same derivation: the source episode and the statement
    (:func:`folded_statement`)."""
    return (belief.source_episode_id, folded_statement(belief.statement))


def derivation_digest(tenant_id: str, principal_id: str, belief: Belief) -> str:
    """How an erasure record keeps the derivation key of a forgotten belief: a digest, so
    a re-derivation can recognise the belief without the record holding its statement."""
    return key_digest(tenant_id, principal_id, derivation_key(belief))


def derivation_digests(tenant_id: str, principal_id: str, belief: Belief) -> frozenset[str]:
    """Every digest an erasure record may keep of ``belief``'s derivation: the one
    :func:`derivation_digest` makes, and the one made before typographic marks were
    folded (a belief forgotten then stays forgotten)."""
    return frozenset(
        {
            derivation_digest(tenant_id, principal_id, belief),
            key_digest(
                tenant_id, principal_id, (belief.source_episode_id, _folded(belief.statement))
            ),
        }
    )


def key_digest(tenant_id: str, principal_id: str, key: DerivationKey) -> str:
    """The digest :func:`derivation_digest` keeps, of a derivation key read as it is stored
    (an erasure of the whole principal reads each belief's source and statement alone)."""
    episode, statement = key
    return erasure_digest(tenant_id, principal_id, "derivation", episode or "", statement)


@dataclass(frozen=True)
class Correction:
    """One durable correction of an earlier belief, as recorded (event kinds of
    ``belief_events`` and ``feedback_events``)."""

    kind: str
    at: datetime
    related_id: str | None = None
    project: str | None = None
    #: When the store recorded it (system time; ``at`` is a supersession's or an expiry's
    #: world time). Corrections replay in this order; None: ``at``.
    recorded: datetime | None = None

    @property
    def order(self) -> datetime:
        return self.at if self.recorded is None else self.recorded


@dataclass(frozen=True)
class Prior:
    """An earlier belief of the principal with its corrections, oldest first."""

    belief: Belief
    corrections: tuple[Correction, ...] = ()
    exclusions: tuple[str, ...] = ()
    #: Whether it holds now, as a read at this instant judges it (an end recorded for it
    #: may not be in force: a successor valid only later, or retracted since).
    holds: bool = False


@dataclass(frozen=True)
class Replayed:
    """One draft after replay: what to do with it, and the belief to write (if any)."""

    index: int
    action: ReplayAction
    belief: Belief
    exclusions: tuple[str, ...] = ()
    replayed: tuple[str, ...] = field(default=())

    @property
    def writes(self) -> bool:
        return self.action in ("new", "changed", "corrected")


def _same_content(a: Belief, b: Belief) -> bool:
    return all(getattr(a, f) == getattr(b, f) for f in CONTENT_FIELDS)


def _flag_of(priors: Sequence[Prior]) -> bool:
    """Whether the derivation is flagged: the latest of its flags and clears, in the order
    the store recorded them, says. A flag written with no event of its own — a
    re-derivation replays one onto the belief it writes so — counts as set when that belief
    was recorded, so a clear recorded since (of it, or of an earlier belief of the
    derivation) still wins over it."""
    marks = [(c.order, c.kind == "rejected_unspecified") for p in priors for c in p.corrections
             if c.kind in FLAG_EVENTS]  # fmt: skip
    marks.extend(
        (p.belief.recorded_at, True)
        for p in priors
        if p.belief.flagged and not any(c.kind in FLAG_EVENTS for c in p.corrections)
    )
    # Stable: of two at one instant, the one recorded later (listed later) wins.
    return sorted(marks, key=lambda mark: mark[0])[-1][1] if marks else False


def _state_of(priors: Sequence[Prior]) -> tuple[Correction | None, bool, bool, set[str], list[str]]:
    """(last terminal correction, flagged, retracted, exclusions, replayed kinds)."""
    events = sorted((c for p in priors for c in p.corrections), key=lambda c: c.order)
    terminal: Correction | None = None
    flagged = _flag_of(priors)
    retracted = any(p.belief.retracted_at is not None for p in priors)
    exclusions = {x for p in priors for x in p.exclusions}
    replayed: list[str] = []
    for c in events:
        if c.kind in ("retired", "superseded"):
            terminal = c
        elif c.kind == "expired" and (terminal is None or terminal.kind == "expired"):
            terminal = c  # an expiry does not undo another end (expired_state)
        elif c.kind == "retracted":
            retracted = True
        elif c.kind == "rejected_not_here" and c.project is not None:
            exclusions.add(c.project)
        if c.kind not in replayed:
            replayed.append(c.kind)
    # A state set at formation (no event) is a correction too.
    if terminal is None:
        for p in priors:
            b = p.belief
            if b.state is LifecycleState.RETIRED:
                terminal = Correction(kind="retired", at=b.recorded_at)
            elif b.state is LifecycleState.SUPERSEDED and b.superseded_by is not None:
                terminal = Correction(
                    kind="superseded", at=b.recorded_at, related_id=b.superseded_by
                )
            elif b.state is LifecycleState.EXPIRED and b.valid_to is not None:
                terminal = Correction(kind="expired", at=b.valid_to)
    return terminal, flagged, retracted, exclusions, replayed


def _end_of(priors: Sequence[Prior]) -> datetime | None:
    """The earliest end of validity recorded for the derivation (expiries): it bounds
    the belief whatever other end it has (the store keeps a superseded or retired belief's
    state on expiry, and its ``valid_to``).

    An expiry is recorded as an event, or only on the row: a re-derivation writes the
    bound it replayed as the new belief's ``valid_to``, with no event of its own (as any
    state it replays), and once the belief whose event it replayed is forgotten — the
    event with it — that row is the one record of the end. So an ended earlier belief's
    ``valid_to`` counts as well."""
    ends = [c.at for p in priors for c in p.corrections if c.kind == "expired"]
    ends.extend(
        p.belief.valid_to
        for p in priors
        if p.belief.state in TERMINAL and p.belief.valid_to is not None
    )
    return min(ends) if ends else None


def _bounded(belief: Belief, end: datetime | None) -> Belief:
    """``belief`` valid until ``end`` at the latest (never before it starts)."""
    if end is None or (belief.valid_to is not None and belief.valid_to <= end):
        return belief
    if belief.valid_from is not None and end <= belief.valid_from:
        end = belief.valid_from + INSTANT
    return belief.model_copy(update={"valid_to": end})


def _apply(draft: Belief, terminal: Correction) -> Belief:
    if terminal.kind == "retired":
        return draft.model_copy(update={"state": LifecycleState.RETIRED, "supersedes": None})
    if terminal.kind == "superseded" and terminal.related_id is not None:
        return draft.model_copy(
            update={
                "state": LifecycleState.SUPERSEDED,
                "superseded_by": terminal.related_id,
                "supersedes": None,
            }
        )
    valid_to = terminal.at
    if draft.valid_from is not None and valid_to <= draft.valid_from:
        valid_to = draft.valid_from + INSTANT
    return draft.model_copy(
        update={"state": LifecycleState.EXPIRED, "valid_to": valid_to, "supersedes": None}
    )


def _disputed(successor: Belief, earlier: Belief) -> Belief:
    """``successor`` as a side of the conflict ``earlier`` (the belief it supersedes) is a
    side of, when the draft names no dispute of its own.

    A re-derived sentence with other content (an entity more, a new subject) is the same
    derivation written again, not a settlement of its dispute: formation re-derives one
    sentence at a time and need not know the conflict. Written as a plain successor, the
    supersession took the earlier side out of its set, the other side was left alone and
    settled ``resolved``, and a recall showed both as holding undisputed — a dispute no
    one resolved, gone. So the successor takes the earlier belief's place in its set:
    ``conflicted`` under its set id. A draft that names a set, or a state other than
    ``active`` or ``provisional``, says what it is and is written so."""
    if (
        earlier.state is not LifecycleState.CONFLICTED
        or earlier.conflict_set_id is None
        or successor.conflict_set_id is not None
        or successor.state not in (LifecycleState.ACTIVE, LifecycleState.PROVISIONAL)
    ):
        return successor
    return successor.model_copy(
        update={"state": LifecycleState.CONFLICTED, "conflict_set_id": earlier.conflict_set_id}
    )


def _still_holding(terminal: Correction | None, matches: Sequence[Prior]) -> Prior | None:
    """The latest earlier belief that still holds though an end is recorded for it — a
    successor valid only later, or one since retracted; an expiry still to come: a draft
    of its derivation is that belief. Written beside it, the sentence would be recalled
    twice; and it cannot take the belief's place, which its successor takes."""
    if terminal is None:
        return None
    holding = [p for p in matches if p.holds and p.belief.state in TERMINAL]
    return holding[-1] if holding else None


def replay(
    drafts: Sequence[Belief],
    priors: Sequence[Prior],
    forgotten: Callable[[Belief], bool] = lambda draft: False,
) -> list[Replayed]:
    """Each draft matched to its earlier beliefs and given their corrections.

    A draft with the id of an earlier belief, or with the content of an earlier belief of
    its derivation key, is ``known``: stored once, it already carries its corrections.
    Otherwise a draft whose key has earlier beliefs is written with their corrections
    replayed (``corrected``), or, when none was corrected, as the successor of the latest
    live one (``changed``: a change of content is a supersession); a retracted derivation
    is ``withdrawn``. A draft with no earlier belief is ``new``, unless ``forgotten`` says
    its derivation was erased: then it is ``forgotten`` and not written (a belief written
    again after its erasure is an earlier belief, and a draft of it is matched to it).
    A draft whose earlier belief still holds though an end is recorded for it (a successor
    valid only later or since retracted, an expiry still to come) is that belief too,
    ``known``.

    Two drafts of one derivation key in one call are one derivation: the later is what
    the first became — ``known`` as the belief the first is or is written as, or, when
    the first is not written (``forgotten``, ``withdrawn``), not written either. Replayed
    each on its own, both would be written: twice over as new (the sentence recalled
    twice), or both as successors of the same earlier belief (refused, and the whole
    re-derivation with them).
    """
    by_id = {p.belief.id: p for p in priors}
    by_key: dict[DerivationKey, list[Prior]] = {}
    for p in priors:
        by_key.setdefault(derivation_key(p.belief), []).append(p)
    out: list[Replayed] = []
    first: dict[DerivationKey, Replayed] = {}
    for index, draft in enumerate(drafts):
        if draft.id in by_id:
            # The same id is the same belief; other content under it is a conflict, which
            # the write reports.
            prior = by_id[draft.id].belief
            if _same_content(prior, draft):
                out.append(Replayed(index=index, action="known", belief=prior))
            else:
                out.append(Replayed(index=index, action="changed", belief=draft))
            first.setdefault(derivation_key(draft), out[-1])
            continue
        key = derivation_key(draft)
        earlier = first.get(key)
        if earlier is not None:
            if earlier.writes or earlier.action == "known":
                out.append(Replayed(index=index, action="known", belief=earlier.belief))
            else:
                out.append(
                    Replayed(
                        index=index,
                        action=earlier.action,
                        belief=draft,
                        replayed=earlier.replayed,
                    )
                )
            continue
        first[key] = _replayed(index, draft, by_key.get(key, []), forgotten)
        out.append(first[key])
    return out


def _replayed(
    index: int,
    draft: Belief,
    earlier: Sequence[Prior],
    forgotten: Callable[[Belief], bool],
) -> Replayed:
    """One draft (the first of its derivation key in its call) given the corrections of
    ``earlier``, the earlier beliefs of its key (see :func:`replay`)."""
    matches = sorted(earlier, key=lambda p: (p.belief.recorded_at, p.belief.id))
    if not matches:
        action: ReplayAction = "forgotten" if forgotten(draft) else "new"
        return Replayed(index=index, action=action, belief=draft)
    same = [p for p in matches if _same_content(p.belief, draft)]
    if same:
        return Replayed(index=index, action="known", belief=same[-1].belief)
    terminal, flagged, retracted, exclusions, replayed = _state_of(matches)
    holder = None if retracted else _still_holding(terminal, matches)
    if holder is not None:
        return Replayed(index=index, action="known", belief=holder.belief)
    if retracted:
        return Replayed(index=index, action="withdrawn", belief=draft, replayed=tuple(replayed))
    belief = draft
    if flagged:
        belief = belief.model_copy(update={"flagged": True})
    if terminal is not None:
        belief = _apply(belief, terminal)
        belief = _bounded(belief, _end_of(matches))
    else:
        live = [p for p in matches if p.belief.state not in TERMINAL]
        if live and belief.supersedes is None:
            latest = live[-1].belief
            belief = _disputed(belief.model_copy(update={"supersedes": latest.id}), latest)
            if belief.state is LifecycleState.CONFLICTED and draft.conflict_set_id is None:
                replayed.append("conflicted")
    corrected = terminal is not None or flagged or bool(exclusions)
    return Replayed(
        index=index,
        action="corrected" if corrected else "changed",
        belief=belief,
        exclusions=tuple(sorted(exclusions)),
        replayed=tuple(replayed),
    )
