"""Usage feedback and typed rejections in PostgreSQL (see "Feedback and corrections" in
docs/architecture.md).

Both are recorded against a stored trace in ``feedback_events`` (append-only), and only
for beliefs that trace rendered: the trace is read by the asking principal's tenant and
principal, so a trace or belief of anyone else is refused exactly like one that does not
exist. A citation adds utility and resets the decay clock; it never touches confidence.
A rejection's effect — retire, supersede or expire, exclude in a project, flag — is
applied in the same transaction as its event, and so is a flag's clear (``unflagged``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg

from recallflow.adapters.postgres import lifecycle
from recallflow.adapters.postgres.beliefs import stored_belief
from recallflow.adapters.postgres.locks import lock_principals
from recallflow.core.lifecycle import ended_status
from recallflow.errors import (
    ConflictError,
    InvalidInputError,
    NotRenderedError,
    trace_not_found,
)
from recallflow.models.corrections import Citation, Rejection, RejectionKind, Unflagging
from recallflow.models.store import Belief, LifecycleState


@dataclass(frozen=True)
class StoredTrace:
    """What feedback needs of a stored trace: what it showed the model, and in which
    project. A session turn shows, besides its rendered items, the beliefs its corrections
    told in full (a replacement, a conflict's other members): ``told_ids``."""

    trace_id: str
    rendered_ids: tuple[str, ...]
    project: str | None
    told_ids: tuple[str, ...] = ()


def stored_trace(
    conn: psycopg.Connection[Any], tenant_id: str, principal_id: str, trace_id: str
) -> StoredTrace:
    """The trace of this principal with that id; :class:`NotFoundError` otherwise, as for
    a trace whose user view the retention job deleted with its ended session: what it
    showed is gone (``explain`` no longer finds it either), so feedback cannot be checked
    against it, and "not rendered" would deny what the model did see."""
    row = conn.execute(
        "SELECT user_view -> 'rendered_ids',"
        " coalesce(user_view ->> 'project', operator_view ->> 'project'),"
        " user_view -> 'told_ids' FROM recall_traces"
        " WHERE tenant_id = %s AND principal_id = %s AND id = %s AND user_view IS NOT NULL",
        (tenant_id, principal_id, trace_id),
    ).fetchone()
    if row is None:
        raise trace_not_found(trace_id, tenant_id, principal_id)
    return StoredTrace(
        trace_id,
        tuple(str(i) for i in row[0] or ()),
        row[1],
        tuple(str(i) for i in row[2] or ()),
    )


def _require_rendered(trace: StoredTrace, belief_id: str) -> None:
    if belief_id not in trace.rendered_ids and belief_id not in trace.told_ids:
        raise NotRenderedError(trace.trace_id, belief_id)


def rendered_belief(
    conn: psycopg.Connection[Any], tenant_id: str, principal_id: str, trace_id: str, belief_id: str
) -> Belief:
    """The belief as stored, read only once the trace is found to have rendered it: one
    it did not render is refused with the same :class:`NotRenderedError` whether it exists
    or not."""
    _require_rendered(stored_trace(conn, tenant_id, principal_id, trace_id), belief_id)
    return stored_belief(conn, tenant_id, principal_id, belief_id)


def _record(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    trace_id: str,
    belief_id: str,
    kind: str,
    project: str | None,
    note: str | None,
) -> bool:
    """Append a feedback event; False when the same one was recorded before.

    A flag (``rejected_unspecified``) may be cleared and given again, so a trace's flag is
    the same one only while it stands: a repeat from the trace is a no-op unless the belief
    was cleared since (:func:`unflag`). Every other kind is recorded once per trace (the
    ``feedback_events_once`` index, migration 0035)."""
    if kind == RejectionKind.UNSPECIFIED.event_kind:
        standing = conn.execute(
            "SELECT 1 FROM feedback_events WHERE tenant_id = %(t)s AND principal_id = %(p)s"
            " AND belief_id = %(b)s AND trace_id = %(tr)s AND kind = 'rejected_unspecified'"
            " AND id > coalesce((SELECT max(id) FROM feedback_events WHERE tenant_id = %(t)s"
            "  AND principal_id = %(p)s AND belief_id = %(b)s AND kind = 'unflagged'), 0)",
            {"t": tenant_id, "p": principal_id, "b": belief_id, "tr": trace_id},
        ).fetchone()
        if standing is not None:
            return False
        _append(conn, tenant_id, principal_id, trace_id, belief_id, kind, project, note)
        return True
    row = conn.execute(
        "INSERT INTO feedback_events (tenant_id, principal_id, trace_id, belief_id, kind,"
        " project, note) VALUES (%s, %s, %s, %s, %s, %s, %s)"
        " ON CONFLICT (tenant_id, principal_id, trace_id, belief_id, kind)"
        " WHERE trace_id IS NOT NULL AND kind NOT IN ('rejected_unspecified', 'unflagged')"
        " DO NOTHING RETURNING id",
        (tenant_id, principal_id, trace_id, belief_id, kind, project, note),
    ).fetchone()
    return row is not None


def _append(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    trace_id: str | None,
    belief_id: str,
    kind: str,
    project: str | None,
    note: str | None,
) -> None:
    """Append a feedback event the caller has judged new (a flag or its clear)."""
    conn.execute(
        "INSERT INTO feedback_events (tenant_id, principal_id, trace_id, belief_id, kind,"
        " project, note) VALUES (%s, %s, %s, %s, %s, %s, %s)",
        (tenant_id, principal_id, trace_id, belief_id, kind, project, note),
    )


def cite(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    trace_id: str,
    belief_ids: Sequence[str],
    now: datetime,
    *,
    utility: float,
) -> Citation:
    """Record that the model cited ``belief_ids`` from ``trace_id``'s block.

    The citation is recorded for every belief the trace showed, whatever became of it
    since: the model did rely on what it was shown. Utility, which keeps a belief fresh in
    later recalls, goes only to the beliefs that still hold; one the store has ended since
    (superseded by a successor in force, retracted, retired, expired) is named in
    ``ended`` instead."""
    lock_principals(conn, [(tenant_id, principal_id)])
    trace = stored_trace(conn, tenant_id, principal_id, trace_id)
    for belief_id in belief_ids:
        _require_rendered(trace, belief_id)
    cited: list[str] = []
    ended: list[str] = []
    repeated: list[str] = []
    for belief_id in dict.fromkeys(belief_ids):
        belief = lifecycle.locked_belief(conn, tenant_id, principal_id, belief_id)
        if not _record(conn, tenant_id, principal_id, trace_id, belief_id, "cited", None, None):
            repeated.append(belief_id)
        elif ended_status(belief, lifecycle.successor_of(conn, belief), now=now) is None:
            cited.append(belief_id)
        else:
            ended.append(belief_id)
    if cited:
        conn.execute(
            "UPDATE beliefs SET utility = utility + %s, last_reinforced_at = %s"
            " WHERE tenant_id = %s AND principal_id = %s AND id = ANY(%s)",
            (utility, now, tenant_id, principal_id, cited),
        )
    return Citation(
        trace_id=trace_id, cited=tuple(cited), ended=tuple(ended), already_cited=tuple(repeated)
    )


def reject(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    trace_id: str,
    belief_id: str,
    kind: RejectionKind,
    now: datetime,
    *,
    replacement: Belief | None = None,
    embedding: npt.NDArray[np.float32] | None = None,
    project: str | None = None,
    note: str | None = None,
) -> Rejection:
    """Record a typed rejection of a belief ``trace_id`` rendered, and apply it."""
    lock_principals(conn, [(tenant_id, principal_id)])
    trace = stored_trace(conn, tenant_id, principal_id, trace_id)
    _require_rendered(trace, belief_id)
    belief = lifecycle.locked_belief(conn, tenant_id, principal_id, belief_id)
    here: str | None = None
    if kind is RejectionKind.NOT_HERE:
        if project is not None and trace.project is not None and project != trace.project:
            raise InvalidInputError(
                f"is not the trace's project {trace.project!r}; not-here means where it was "
                "recalled",
                field="project",
                item_id=belief_id,
            )
        here = trace.project or project
        if here is None:
            raise InvalidInputError(
                "is needed for kind 'not_here': the trace was recalled in no project, so "
                "'here' is unknown",
                field="project",
                item_id=belief_id,
            )
    if replacement is not None and kind is not RejectionKind.CHANGED:
        raise InvalidInputError(
            f"is only for a {RejectionKind.CHANGED.value!r} rejection", field="replacement"
        )
    recorded = _record(
        conn, tenant_id, principal_id, trace_id, belief_id, kind.event_kind, here, note
    )
    replacement_id = replacement.id if replacement is not None else None
    if not recorded and replacement is not None:
        replacement_id = _stored_replacement(conn, belief, replacement)
    if recorded:
        reason = f"rejected from trace {trace_id}: {kind.value}"
        if kind is RejectionKind.NOT_TRUE:
            belief = lifecycle.retire(conn, tenant_id, principal_id, belief_id, reason, now)
        elif kind is RejectionKind.CHANGED and replacement is not None:
            _replaceable(belief)
            if embedding is None:
                raise ValueError("a replacement needs its embedding")
            lifecycle.write_beliefs(conn, [replacement], embedding.reshape(1, -1))
            belief = lifecycle.locked_belief(conn, tenant_id, principal_id, belief_id)
        elif kind is RejectionKind.CHANGED:
            # It held and changed, to what is not known: it stops holding now.
            _expirable_now(belief, now)
            belief = lifecycle.expire(conn, tenant_id, principal_id, belief_id, now, reason)
        elif kind is RejectionKind.NOT_HERE:
            # Its successors too: one not valid yet (the belief holds until then) takes
            # its place in this project when it does, and a supersession written later
            # carries the exclusion on by itself.
            conn.execute(
                "WITH RECURSIVE chain (id) AS (SELECT %(id)s::text UNION SELECT b.superseded_by"
                "   FROM beliefs b JOIN chain c ON b.id = c.id"
                "   WHERE b.tenant_id = %(t)s AND b.principal_id = %(p)s"
                "   AND b.superseded_by IS NOT NULL)"
                " INSERT INTO belief_exclusions (tenant_id, principal_id, belief_id, project)"
                " SELECT %(t)s, %(p)s, id, %(project)s FROM chain ON CONFLICT DO NOTHING",
                {"t": tenant_id, "p": principal_id, "id": belief_id, "project": here},
            )
        else:
            conn.execute(
                "UPDATE beliefs SET flagged = true"
                " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
                (tenant_id, principal_id, belief_id),
            )
            belief = belief.model_copy(update={"flagged": True})
    return Rejection(
        trace_id=trace_id,
        belief_id=belief_id,
        kind=kind,
        project=here,
        replacement_id=replacement_id,
        belief=belief,
        recorded=recorded,
    )


def unflag(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    belief_id: str,
    *,
    trace_id: str | None = None,
    note: str | None = None,
) -> Unflagging:
    """Clear a belief's flag: an ``unflagged`` event, and the flag set back, in one
    transaction. With ``trace_id``, the belief must be one that trace showed (as for a
    rejection). A belief that is not flagged is left as it is, and nothing is recorded:
    the clear of a clear, or a retry."""
    lock_principals(conn, [(tenant_id, principal_id)])
    if trace_id is not None:
        _require_rendered(stored_trace(conn, tenant_id, principal_id, trace_id), belief_id)
    belief = lifecycle.locked_belief(conn, tenant_id, principal_id, belief_id)
    recorded = belief.flagged
    if recorded:
        _append(conn, tenant_id, principal_id, trace_id, belief_id, "unflagged", None, note)
        conn.execute(
            "UPDATE beliefs SET flagged = false"
            " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
            (tenant_id, principal_id, belief_id),
        )
        belief = belief.model_copy(update={"flagged": False})
    return Unflagging(trace_id=trace_id, belief_id=belief_id, belief=belief, recorded=recorded)


def _replaceable(belief: Belief) -> None:
    """Nothing, or a :class:`ConflictError` in the rejection's own words when ``belief``
    cannot take the replacement a ``changed`` rejection gives: the store's refusal of the
    link named the generated replacement and a ``supersedes`` field the caller never wrote,
    and told it to do what a rejection cannot ("store the belief without the link",
    "supersede that belief instead")."""
    if belief.superseded_by is not None:
        # The successor is not named: it may be above the ceiling of the surface the
        # rejection comes from, and a recall that may show it names it.
        raise ConflictError(
            "was already replaced by another belief; to say that changed too, reject the"
            " replacement from a recall that showed it",
            field="belief_id",
            item_id=belief.id,
        )
    if belief.state is LifecycleState.RETIRED:
        raise ConflictError(
            "is retired (it never held), so it did not change and nothing replaces it",
            field="kind",
            item_id=belief.id,
        )


def _expirable_now(belief: Belief, now: datetime) -> None:
    """Nothing, or a :class:`ConflictError` on ``kind`` when ``belief`` cannot stop holding
    now, which a ``changed`` rejection without a replacement means: a belief valid only
    from a later instant (a plan, an announced move, shown by a recall at a future
    ``as_of``) has not held yet. Ending it now was refused by the expiry, on an ``at`` the
    caller never gave."""
    if belief.valid_from is not None and belief.valid_from >= now:
        raise ConflictError(
            f"holds only from {belief.valid_from.isoformat()}, so it has not held yet and"
            " cannot have stopped holding now; give the replacement it changed to, or"
            " reject it as not_true",
            field="kind",
            item_id=belief.id,
        )


def _stored_replacement(conn: psycopg.Connection[Any], belief: Belief, replacement: Belief) -> str:
    """The id of the replacement a repeated ``changed`` rejection stored the first time: a
    retry that says the same is the same rejection. One that says something else is a
    :class:`ConflictError`, never a no-op that answers with an id nothing was stored under
    (the new statement was dropped without a word)."""
    successor = belief.superseded_by
    if successor is not None:
        stored = lifecycle.locked_belief(conn, belief.tenant_id, belief.principal_id, successor)
        if stored.statement == replacement.statement:
            return successor
    now = f"it was replaced by {successor!r}" if successor else "it was given no replacement"
    raise ConflictError(
        f"this trace's 'changed' rejection of {belief.id!r} is already recorded, and {now};"
        f" to say it changed again, reject or supersede {successor or belief.id!r}",
        field="replacement",
        item_id=belief.id,
    )
