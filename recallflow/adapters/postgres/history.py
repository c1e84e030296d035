"""The history of one belief in PostgreSQL: the belief, its supersession chain both ways
and every recorded event about it, read in one read-only transaction of one snapshot (see
"History of one belief" in docs/corrections.md).

Every statement names the tenant and the principal, so a belief id another principal
holds is not found exactly like one nobody holds (the message is the one
``beliefs.get`` gives).
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import dict_row

from recallflow.adapters.postgres.beliefs import SELECT_BELIEF, belief_from_row
from recallflow.core.lifecycle import not_found
from recallflow.models.history import BeliefHistory, ChainLink, HistoryEvent, HistoryEventKind
from recallflow.models.request import Surface
from recallflow.models.store import LifecycleState, Sensitivity

_LINK_COLUMNS = (
    "b.id, b.statement, b.state, NULLIF(b.valid_from, '-infinity'::timestamptz) AS valid_from,"
    " NULLIF(b.valid_to, 'infinity'::timestamptz) AS valid_to, b.recorded_at, b.retracted_at,"
    " b.superseded_by, b.sensitivity"
)

#: The beliefs that superseded it: its ``superseded_by``, that one's, and so on, each
#: read by its key. The columns travel in the walk, so no step reads the whole principal.
_SUCCESSORS = (
    "WITH RECURSIVE chain AS ("
    f" SELECT {_LINK_COLUMNS}, 1 AS hops FROM beliefs a JOIN beliefs b"
    "  ON b.tenant_id = %(t)s AND b.principal_id = %(p)s AND b.id = a.superseded_by"
    "  WHERE a.tenant_id = %(t)s AND a.principal_id = %(p)s AND a.id = %(id)s"
    " UNION ALL"
    f" SELECT {_LINK_COLUMNS}, c.hops + 1 FROM chain c JOIN beliefs b"
    "  ON b.tenant_id = %(t)s AND b.principal_id = %(p)s AND b.id = c.superseded_by"
    "  WHERE c.hops <= %(links)s)"
    " SELECT * FROM chain ORDER BY hops, id LIMIT %(links)s + 1"
)

#: The beliefs it superseded: those whose ``superseded_by`` names it, and so on back
#: (``beliefs_superseded_by_idx``).
_PREDECESSORS = (
    "WITH RECURSIVE chain AS ("
    f" SELECT {_LINK_COLUMNS}, 1 AS hops FROM beliefs b"
    "  WHERE b.tenant_id = %(t)s AND b.principal_id = %(p)s AND b.superseded_by = %(id)s"
    " UNION ALL"
    f" SELECT {_LINK_COLUMNS}, c.hops + 1 FROM chain c JOIN beliefs b"
    "  ON b.tenant_id = %(t)s AND b.principal_id = %(p)s AND b.superseded_by = c.id"
    "  WHERE c.hops <= %(links)s)"
    " SELECT * FROM chain ORDER BY hops, id LIMIT %(links)s + 1"
)

#: Every event of the belief with the keys of the order the store recorded them in:
#: system time, then within one write the cause before its effect (its insert, then
#: feedback, then the lifecycle events it made, then exclusions), then the order the rows
#: were written. The world time of a supersession or an expiry is kept; the other kinds'
#: is theirs.
_EVENT_ROWS = (
    " SELECT 0 AS rank, 0::bigint AS seq, '' AS tie, 'created' AS kind, recorded_at AS at,"
    "  NULL::timestamptz AS effective_at, NULL::text AS related_id, NULL::text AS project,"
    "  NULL::text AS evidence_id, NULL::text AS trace_id, NULL::text AS reason,"
    "  NULL::text AS note, NULL::text AS surface"
    "  FROM beliefs WHERE tenant_id = %(t)s AND principal_id = %(p)s AND id = %(id)s"
    " UNION ALL"
    " SELECT 1, f.id, '', f.kind, f.created_at, NULL, NULL, f.project, NULL, f.trace_id, NULL,"
    "  f.note, r.surface"
    "  FROM feedback_events f LEFT JOIN recall_traces r"
    "   ON r.tenant_id = %(t)s AND r.principal_id = %(p)s AND r.id = f.trace_id"
    "  WHERE f.tenant_id = %(t)s AND f.principal_id = %(p)s AND f.belief_id = %(id)s"
    " UNION ALL"
    " SELECT 2, id, '', kind, created_at,"
    "  CASE WHEN kind IN ('superseded', 'expired') AND isfinite(effective_at)"
    "   THEN effective_at END,"
    "  related_id, project, evidence_id, NULL, reason, NULL, NULL"
    "  FROM belief_events"
    "  WHERE tenant_id = %(t)s AND principal_id = %(p)s AND belief_id = %(id)s"
    " UNION ALL"
    " SELECT 2, id, '', 'took_over', created_at,"
    "  CASE WHEN isfinite(effective_at) THEN effective_at END,"
    "  belief_id, NULL, NULL, NULL, NULL, NULL, NULL"
    "  FROM belief_events"
    "  WHERE tenant_id = %(t)s AND principal_id = %(p)s AND related_id = %(id)s"
    "  AND kind = 'superseded'"
    " UNION ALL"
    " SELECT 3, 0, project, 'excluded', created_at, NULL, NULL, project, NULL, NULL, NULL, NULL,"
    "  NULL"
    "  FROM belief_exclusions"
    "  WHERE tenant_id = %(t)s AND principal_id = %(p)s AND belief_id = %(id)s"
)
_EVENT_COLUMNS = (
    "kind, at, effective_at, related_id, project, evidence_id, trace_id, reason, note, surface"
)

#: The most rows a LIMIT takes: PostgreSQL's bigint.
_MOST_ROWS = 2**63 - 1

#: Every event, oldest first.
_EVENTS = (
    f"SELECT {_EVENT_COLUMNS}, 0::bigint AS earlier FROM ({_EVENT_ROWS}) e"
    " ORDER BY at, rank, seq, tie"
)

#: The latest ``%(events)s`` events, oldest first, each with how many came before them:
#: the rest are counted in the database, never sent.
_LATEST_EVENTS = (
    f"SELECT {_EVENT_COLUMNS}, earlier FROM ("
    f" SELECT e.*, count(*) OVER () - %(events)s AS earlier FROM ({_EVENT_ROWS}) e"
    " ORDER BY at DESC, rank DESC, seq DESC, tie DESC LIMIT %(events)s"
    ") latest ORDER BY at, rank, seq, tie"
)


def _links(rows: list[dict[str, Any]], links: int) -> tuple[tuple[ChainLink, ...], bool]:
    """The first ``links`` chain rows as links, and whether there were more."""
    kept = tuple(
        ChainLink(
            id=r["id"],
            hops=r["hops"],
            statement=r["statement"],
            state=LifecycleState(r["state"]),
            valid_from=r["valid_from"],
            valid_to=r["valid_to"],
            recorded_at=r["recorded_at"],
            retracted_at=r["retracted_at"],
            superseded_by=r["superseded_by"],
            sensitivity=Sensitivity(r["sensitivity"]),
        )
        for r in rows[:links]
    )
    return kept, len(rows) > links


def belief_history(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    belief_id: str,
    links: int,
    events: int | None = None,
) -> BeliefHistory:
    """The history of one belief of the principal, read in one snapshot, with every event
    or (``events``) the latest so many; raises :class:`~recallflow.errors.NotFoundError`
    when the principal has no such belief."""
    if events is not None and events > _MOST_ROWS:
        # More than a LIMIT takes (a bigint), and more events than any belief has: every
        # one (sent as the count, it was the driver's "bigint out of range").
        events = None
    key = {"t": tenant_id, "p": principal_id, "id": belief_id, "links": links, "events": events}
    with conn.transaction():
        # One snapshot for every statement: a write committed between two of them (a
        # supersession, a rejection) is either in all of them or in none.
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        cur = conn.cursor(row_factory=dict_row)
        row = cur.execute(
            SELECT_BELIEF + " WHERE tenant_id = %(t)s AND principal_id = %(p)s AND id = %(id)s",
            key,
        ).fetchone()
        if row is None:
            raise not_found(tenant_id, principal_id, belief_id)
        predecessors, more_before = _links(cur.execute(_PREDECESSORS, key).fetchall(), links)
        successors, more_after = _links(cur.execute(_SUCCESSORS, key).fetchall(), links)
        rows = cur.execute(_EVENTS if events is None else _LATEST_EVENTS, key).fetchall()
    return BeliefHistory(
        belief=belief_from_row(row),
        # Farthest first, so predecessors, the belief and its successors read in order.
        predecessors=tuple(sorted(predecessors, key=lambda link: (-link.hops, link.id))),
        successors=successors,
        more_predecessors=more_before,
        more_successors=more_after,
        earlier_events=max(0, rows[0]["earlier"]) if rows else 0,
        events=tuple(
            HistoryEvent(
                kind=HistoryEventKind(e["kind"]),
                at=e["at"],
                effective_at=e["effective_at"],
                related_id=e["related_id"],
                project=e["project"],
                evidence_id=e["evidence_id"],
                trace_id=e["trace_id"],
                reason=e["reason"],
                note=e["note"],
                surface=None if e["surface"] is None else Surface(e["surface"]),
            )
            for e in rows
        ),
    )
