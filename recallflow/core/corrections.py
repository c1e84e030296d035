"""Corrections of a session's cached prefix, pure (see "Sessions" in docs/architecture.md).

The prefix is never rewritten, so what it says about a belief can go out of date. A
:class:`~recallflow.models.session.BeliefFingerprint` records what the agent was last
told about each snapshot belief: at the watermark by the prefix, later by the last
correction. Each turn the belief's current row is fingerprinted the same way; a difference
is one correction, rendered in that turn's block and then acknowledged, so a change is
corrected exactly once however it was written (a write-path operation, a migration, a
hand edit of the row). Several changes before the agent is told collapse into one
correction that describes the latest state; a change undone before then needs none. A
turn tells what fits its share of the token cap (``nodes/budget.py``); one that does not
fit is not acknowledged, so it is told in a later turn, and the first pending one is
always told, in its short form (:func:`abridged`) if its whole line does not fit. A short
form tells no statement, so the prefix no longer holds that belief: a turn it is relevant
to recalls it in its own block until a correction tells its statement whole.

Beliefs an earlier turn showed beyond the prefix (in its block, or whole in a correction
line) are followed the same way: the session keeps a :class:`ShownFingerprint` of each, the
statement as its digest (:func:`shown_fingerprint`), compared as a fingerprint
(:func:`as_shown`).

Only what the agent reads is fingerprinted: the belief's status at the turn's time (live,
superseded, retired, expired, retracted, withdrawn from the surface, forgotten), its
statement, its successor, its conflict set and its flag. A belief rejected as "not here" in
the session's project is excluded there, as a recall in that project would not load it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime

from recallflow.core.erasure import ERASED
from recallflow.core.render import FLAGGED_TAG, statement_text
from recallflow.models.result import Correction, CorrectionKind
from recallflow.models.session import (
    BeliefFingerprint,
    BeliefStatus,
    PendingCorrection,
    ShownFingerprint,
)
from recallflow.models.store import Belief, LifecycleState, Sensitivity

OPEN_TAG = "<memory-corrections>"
CLOSE_TAG = "</memory-corrections>"

#: What the cached prefix's framing says about corrections (it is part of the prefix).
CORRECTIONS_FRAMING = (
    "A later turn may carry a <memory-corrections> section: each line there names a "
    "[belief id] of this block whose content has changed since it was written; the "
    "correction wins over the line in this block."
)

_STATUS_KIND = {
    BeliefStatus.SUPERSEDED: CorrectionKind.SUPERSEDED,
    BeliefStatus.RETIRED: CorrectionKind.RETIRED,
    BeliefStatus.EXPIRED: CorrectionKind.EXPIRED,
    BeliefStatus.RETRACTED: CorrectionKind.RETRACTED,
    BeliefStatus.WITHDRAWN: CorrectionKind.WITHDRAWN,
    BeliefStatus.EXCLUDED: CorrectionKind.EXCLUDED,
    BeliefStatus.FORGOTTEN: CorrectionKind.FORGOTTEN,
    BeliefStatus.PROVISIONAL: CorrectionKind.PROVISIONAL,
}
#: Kinds whose line shows the belief's own current statement.
SHOWS_STATEMENT = frozenset(
    {
        CorrectionKind.RESTORED,
        CorrectionKind.RESOLVED,
        CorrectionKind.UNFLAGGED,
        CorrectionKind.RESTATED,
    }
)
#: Kinds after which the belief is still to be used, with care, and whose line names no
#: statement of its own: when the statement changed in the same step, the line shows it
#: too (:func:`shows_statement`), or the agent would never read what the belief now says.
STILL_USED = frozenset(
    {CorrectionKind.PROVISIONAL, CorrectionKind.CONFLICTED, CorrectionKind.FLAGGED}
)


def shows_statement(
    kind: CorrectionKind, previous: BeliefFingerprint, current: BeliefFingerprint
) -> bool:
    """Whether the line of a correction of ``kind`` from ``previous`` to ``current``
    shows the belief's own current statement: a kind that always does, or one of
    :data:`STILL_USED` when the statement changed as well (one correction describes the
    latest state, so the change of wording must not hide behind the change of kind)."""
    return kind in SHOWS_STATEMENT or (
        kind in STILL_USED and previous.statement != current.statement
    )


#: The fingerprint of a forgotten belief: no row, and no statement (what a turn records
#: about it must not write the erased text back).
FORGOTTEN = BeliefFingerprint(status=BeliefStatus.FORGOTTEN, statement="")


def statement_digest(statement: str) -> str:
    """The sha256 (hex) a session keeps of a statement an earlier turn showed."""
    return hashlib.sha256(statement.encode()).hexdigest()


def shown_fingerprint(fp: BeliefFingerprint) -> ShownFingerprint:
    """What a session keeps of ``fp`` for a belief a turn showed beyond its prefix: the
    same fields, the statement as its digest (:func:`statement_digest`)."""
    return ShownFingerprint.trusted(
        status=fp.status,
        statement_sha256=statement_digest(fp.statement),
        superseded_by=fp.superseded_by,
        conflict_set_id=fp.conflict_set_id,
        flagged=fp.flagged,
    )


def as_shown(shown: ShownFingerprint, current: BeliefFingerprint) -> BeliefFingerprint:
    """What the agent holds of a belief an earlier turn showed it (``shown``), as a
    fingerprint to compare with ``current``: the statement is ``current``'s when its
    digest is the one kept, else the empty statement (no belief has one), which differs
    from it as the words the agent read do — their digest is all the session kept."""
    same = statement_digest(current.statement) == shown.statement_sha256
    return BeliefFingerprint.trusted(
        status=shown.status,
        statement=current.statement if same else "",
        superseded_by=shown.superseded_by,
        conflict_set_id=shown.conflict_set_id,
        flagged=shown.flagged,
    )


def as_told(previous: BeliefFingerprint, current: BeliefFingerprint) -> BeliefFingerprint:
    """What the agent holds of a belief it was told ``previous`` about, for the kind of
    the correction that brings it to ``current``. An erasure leaves the snapshot's
    fingerprint of a forgotten belief live with its statement ``[erased]`` (so the next
    turn tells it was forgotten); a belief written again under that id since is new to
    the agent, which must drop or has dropped the old line: told as forgotten before, it
    is corrected as holding again, with its whole statement."""
    if previous.statement == ERASED and current.status is not BeliefStatus.FORGOTTEN:
        return FORGOTTEN
    return previous


def in_force_at(belief: Belief, *, as_of: datetime) -> bool:
    """Whether ``belief`` is in force at ``as_of`` as the hard filter judges a row's times:
    known by then, not retracted by then, and valid from then (one without ``valid_from``
    always was)."""
    known = belief.recorded_at is None or belief.recorded_at <= as_of
    retracted = belief.retracted_at is not None and belief.retracted_at <= as_of
    valid = belief.valid_from is None or belief.valid_from <= as_of
    return known and valid and not retracted


def takes_over(successor: Belief | None, *, as_of: datetime) -> bool:
    """Whether ``successor`` has taken over from the belief it supersedes at ``as_of``: it
    is in force then (:func:`in_force_at`). A successor with no row (a hand edit) has."""
    return successor is None or in_force_at(successor, as_of=as_of)


def stood_at(belief: Belief, *, as_of: datetime, successors: Mapping[str, Belief]) -> Belief:
    """``belief`` with the lifecycle state it had at ``as_of``, as the hard filter reads it:
    a belief superseded by a successor that has not taken over yet (``successors`` holds
    the rows of ``superseded_by``), or expired at a ``valid_to`` still to come, is active
    until then. A scheduled end is not yet an end: a turn before it must not be told the
    belief no longer holds while its own recall still admits it."""
    state = belief.state
    if state is LifecycleState.SUPERSEDED and belief.superseded_by is not None:
        if takes_over(successors.get(belief.superseded_by), as_of=as_of):
            return belief
    elif state is not LifecycleState.EXPIRED or belief.valid_to is None:
        return belief
    # Active until then; ``status_of`` still reads an ended ``valid_to`` as expired.
    return belief.model_copy(update={"state": LifecycleState.ACTIVE})


def status_of(
    belief: Belief | None, *, as_of: datetime, ceiling: Sensitivity, excluded: bool = False
) -> BeliefStatus:
    """What ``belief``'s row says about it at ``as_of`` on a surface with ``ceiling``.

    The first that applies wins: forgotten (no row), retracted, superseded, retired,
    expired (by state or because ``valid_to`` has passed), withdrawn (above the
    ceiling), excluded (``excluded``: rejected as not holding in the session's project),
    provisional, else live. Give ``belief`` as it stood at ``as_of``
    (:func:`stood_at`): a supersession or an expiry scheduled for later is not one yet.
    """
    if belief is None:
        return BeliefStatus.FORGOTTEN
    if belief.retracted_at is not None and belief.retracted_at <= as_of:
        return BeliefStatus.RETRACTED
    if belief.state is LifecycleState.SUPERSEDED:
        return BeliefStatus.SUPERSEDED
    if belief.state is LifecycleState.RETIRED:
        return BeliefStatus.RETIRED
    if belief.state is LifecycleState.EXPIRED or (
        belief.valid_to is not None and belief.valid_to <= as_of
    ):
        return BeliefStatus.EXPIRED
    if belief.sensitivity > ceiling:
        return BeliefStatus.WITHDRAWN
    if excluded:
        return BeliefStatus.EXCLUDED
    if belief.state is LifecycleState.PROVISIONAL:
        return BeliefStatus.PROVISIONAL
    return BeliefStatus.LIVE


def fingerprint(
    belief: Belief | None, *, as_of: datetime, ceiling: Sensitivity, excluded: bool = False
) -> BeliefFingerprint:
    """The fingerprint of ``belief`` at ``as_of`` (``excluded``: rejected as not holding in
    the session's project). A missing row (a forgotten belief) has no statement: what a
    turn records about it must not write the erased text back."""
    status = status_of(belief, as_of=as_of, ceiling=ceiling, excluded=excluded)
    if belief is None:
        return FORGOTTEN
    # A stored belief's own fields (a snapshot fingerprints each of its beliefs).
    return BeliefFingerprint.trusted(
        status=status,
        statement=belief.statement,
        superseded_by=belief.superseded_by if status is BeliefStatus.SUPERSEDED else None,
        conflict_set_id=belief.conflict_set_id
        if belief.state is LifecycleState.CONFLICTED
        else None,
        flagged=belief.flagged,
    )


def kind_of(previous: BeliefFingerprint, current: BeliefFingerprint) -> CorrectionKind:
    """The one kind of correction for a change from ``previous`` to ``current``.

    A change of status wins; then a change of conflict set; then of the flag; then of the
    statement. Raises ``ValueError`` when nothing changed (there is nothing to correct).
    """
    if previous == current:
        raise ValueError("no change to correct")
    if current.status != previous.status or (
        current.status is BeliefStatus.SUPERSEDED
        and current.superseded_by != previous.superseded_by
    ):
        if current.status is BeliefStatus.LIVE:
            return CorrectionKind.RESTORED
        return _STATUS_KIND[current.status]
    if current.conflict_set_id != previous.conflict_set_id:
        return CorrectionKind.CONFLICTED if current.conflict_set_id else CorrectionKind.RESOLVED
    if current.flagged != previous.flagged:
        return CorrectionKind.FLAGGED if current.flagged else CorrectionKind.UNFLAGGED
    return CorrectionKind.RESTATED


def pending_corrections(
    told: Mapping[str, BeliefFingerprint],
    current: Mapping[str, BeliefFingerprint],
) -> list[str]:
    """Ids (in ``told``'s order) whose current fingerprint differs from what the agent was
    told; a belief missing from ``current`` counts as forgotten by the caller."""
    return [bid for bid, fp in told.items() if current.get(bid, fp) != fp]


#: What an abridged line of a kind that shows the belief's statement says instead of it:
#: the prefix no longer counts as holding the belief, so a turn it is relevant to recalls
#: it in its own block (``nodes/budget.py``).
_NOT_REPEATED = (
    "its statement is too long to repeat here; a turn it is relevant to recalls it:"
    " until then, confirm before relying on it"
)


def _short_line(c: Correction) -> str:
    """The short form of a correction: its ids and kind, no statement at all."""
    head = f"- [{c.belief_id}]"
    kind = c.kind
    if kind is CorrectionKind.SUPERSEDED and c.replacement is not None:
        rid = c.replacement.belief_id
        return f"{head} no longer holds; replaced by [{rid}]" + _replacement_marks(c, short=True)
    if kind is CorrectionKind.CONFLICTED:
        tail = f" with: {_peer_list(c, short=True)}" if c.peers else ""
        reads = f"; its statement changed too: {_NOT_REPEATED}" if c.text is not None else ""
        return f"{head} now {disputed_as(c.conflict_set_id)}{tail}{reads}"
    if kind in STILL_USED:
        plain = correction_line(c.model_copy(update={"abridged": False, "text": None}))
        return f"{plain}; its statement changed too: {_NOT_REPEATED}"
    if kind is CorrectionKind.RESOLVED:
        return f"{head} no longer disputed; {_NOT_REPEATED}"
    if kind is CorrectionKind.UNFLAGGED:
        return f"{head} no longer flagged; {_NOT_REPEATED}"
    if kind is CorrectionKind.RESTORED:
        return f"{head} holds again; {_NOT_REPEATED}"
    return f"{head} now reads differently; {_NOT_REPEATED}"


def abridged(c: Correction) -> Correction:
    """``c`` to be rendered in its short form, when its line shows any statement (its
    own, a replacement's or a conflict's other members'); else ``c`` as it is, its line
    being short already."""
    if c.kind in SHOWS_STATEMENT or c.text is not None or c.replacement is not None or c.peers:
        return c.model_copy(update={"abridged": True})
    return c


def named_ids(c: Correction) -> tuple[str, ...]:
    """Every belief a correction's line names: the corrected one, then its replacement or
    its conflict's other members."""
    peers = (c.replacement,) if c.replacement is not None else ()
    return (c.belief_id, *(p.belief_id for p in (*peers, *c.peers)))


def told_peers(corrections: Sequence[Correction]) -> tuple[str, ...]:
    """The other beliefs whose statements a corrections section tells in full — a
    replacement, a conflict's other members — in the order told. The model read them in
    that turn and in no prefix or block, so feedback names them by the turn's trace. One
    told only by id (a short form) is not among them: the model read none of it."""
    told: dict[str, None] = {}
    for c in corrections:
        if c.abridged:
            continue
        for peer in (c.replacement, *c.peers):
            if peer is not None and peer.belief_id != c.belief_id:
                told[peer.belief_id] = None
    return tuple(told)


#: How a line says a belief is rejected as not holding in the session's project.
NOT_HERE = "does not hold in this project"
#: How a line says a belief is flagged (its own ``flagged`` line, or its replacement's).
FLAGGED_AS = f"{FLAGGED_TAG}: confirm before relying on it"
#: How a line says a belief is provisional (its own line, or its replacement's).
PROVISIONAL_AS = "unconfirmed (provisional): confirm before relying on it"


def disputed_as(conflict_set_id: str | None) -> str:
    """How a line says a belief is in an unresolved conflict (its own ``conflicted``
    line, or its replacement's): the words the recalled block's conflict header uses."""
    return f"disputed (unresolved conflict {conflict_set_id})"


def _replacement_marks(c: Correction, *, short: bool) -> str:
    """What a ``superseded`` line adds after the replacement it names: that the
    replacement is provisional, that it is flagged, and that it is disputed and with what
    (the other members by id alone in the short form), as a recall showing it would mark
    it — a replacement told bare would read as settled."""
    assert c.replacement is not None
    rid = f"[{c.replacement.belief_id}]"
    out = ""
    if c.replacement_provisional:
        out += f"; {rid} is {PROVISIONAL_AS}"
    if c.replacement_flagged:
        out += f"; {rid} {FLAGGED_AS}"
    if c.conflict_set_id is not None and c.peers:
        out += f"; {rid} is {disputed_as(c.conflict_set_id)} with: {_peer_list(c, short=short)}"
    return out


def _peer_list(c: Correction, *, short: bool) -> str:
    if short:
        return "; ".join(f"[{p.belief_id}]" for p in c.peers)
    return "; ".join(f"[{p.belief_id}] {statement_text(p.text, p.blocked)}" for p in c.peers)


def correction_line(c: Correction) -> str:
    """One rendered line of a correction (deterministic, no volatile fields); an abridged
    one keeps the ids and the kind and drops every statement."""
    if c.abridged:
        return _short_line(c)
    head = f"- [{c.belief_id}]"
    kind = c.kind
    if kind is CorrectionKind.SUPERSEDED:
        if c.replacement is not None:
            text = statement_text(c.replacement.text, c.replacement.blocked)
            return (
                f"{head} no longer holds; replaced by [{c.replacement.belief_id}]: {text}"
                + _replacement_marks(c, short=False)
            )
        if c.replacement_elsewhere:
            return f"{head} no longer holds; replaced by a belief that {NOT_HERE}"
        if c.replacement_ended:
            return f"{head} no longer holds, and what replaced it no longer holds either"
        return f"{head} no longer holds; replaced by a belief this surface does not show"
    if kind is CorrectionKind.RETIRED:
        return f"{head} no longer holds (retired)"
    if kind is CorrectionKind.EXPIRED:
        return f"{head} no longer holds (expired)"
    if kind is CorrectionKind.RETRACTED:
        return f"{head} withdrawn: no longer asserted (retracted)"
    if kind is CorrectionKind.WITHDRAWN:
        return f"{head} withdrawn from this surface: do not use it here"
    if kind is CorrectionKind.EXCLUDED:
        return f"{head} {NOT_HERE}: do not use it here"
    if kind is CorrectionKind.FORGOTTEN:
        return f"{head} forgotten: do not use it"
    if kind in STILL_USED and c.text is not None:
        # The wording changed with the kind: say what it reads now, then what befell it.
        head = f"{head} now reads: {statement_text(c.text, c.blocked)};"
    if kind is CorrectionKind.PROVISIONAL:
        return f"{head} now {PROVISIONAL_AS}"
    if kind is CorrectionKind.CONFLICTED:
        tail = f" with: {_peer_list(c, short=False)}" if c.peers else ""
        return f"{head} now {disputed_as(c.conflict_set_id)}{tail}"
    if kind is CorrectionKind.FLAGGED:
        return f"{head} {FLAGGED_AS}"
    text = statement_text(c.text or "", c.blocked)
    if kind is CorrectionKind.RESOLVED:
        return f"{head} no longer disputed; it holds: {text}"
    if kind is CorrectionKind.UNFLAGGED:
        return f"{head} no longer flagged: {text}"
    if kind is CorrectionKind.RESTORED:
        return f"{head} holds again: {text}"
    return f"{head} now reads: {text}"


def deferred_line(deferred: int) -> str:
    """The section's last line when ``deferred`` corrections wait for a later turn: the
    model then knows other lines of its cached block may still be out of date."""
    what = "correction follows" if deferred == 1 else "corrections follow"
    return (
        f"- {deferred} more {what} in a later turn; until then other lines of the cached"
        " block may be out of date"
    )


def render_corrections(corrections: Sequence[Correction], deferred: int = 0) -> str:
    """The corrections section, ending with how many more wait when ``deferred``; the
    empty string when there are neither (a section of the count alone when every
    correction the budget took was left to the block: see ``nodes/budget.py``)."""
    if not corrections and not deferred:
        return ""
    lines = [OPEN_TAG, *(correction_line(c) for c in corrections)]
    if deferred:
        lines.append(deferred_line(deferred))
    lines.append(CLOSE_TAG)
    return "\n".join(lines) + "\n"


def as_pending(
    belief_id: str,
    previous: BeliefFingerprint,
    current: BeliefFingerprint,
    *,
    replacement: tuple[str, str] | None = None,
    peers: Sequence[tuple[str, str]] = (),
) -> PendingCorrection:
    """A pending correction of ``belief_id`` (a convenience for callers and tests)."""
    return PendingCorrection(
        belief_id=belief_id,
        fingerprint=current,
        previous=previous,
        replacement=replacement,
        peers=tuple(peers),
    )
