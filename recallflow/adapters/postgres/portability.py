"""A principal's memory read out as one document, and written into a store from one (see
docs/portability.md): the SQL of ``Memory.export_principal``.

The export reads every table that holds the principal's own records in one read-only
REPEATABLE READ transaction, so it is one snapshot: a write committed meanwhile is in all
of it or in none. Which tables those are is checked against the catalog on every export,
by the list the erasure works from (:func:`~recallflow.adapters.postgres.erasure.
principal_tables`): each is exported, derived (made again by the importing store), or
bound to the store it was made in (and left out, for the reason given below). A table
added later that none of the three names stops the export with a ConfigurationError
rather than leave the principal's rows in it out unnoticed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import dict_row

from recallflow.adapters.postgres.beliefs import SELECT_BELIEF, belief_from_row
from recallflow.adapters.postgres.episodes import SELECT_EPISODE
from recallflow.adapters.postgres.erasure import principal_tables
from recallflow.errors import ConfigurationError
from recallflow.models.portability import (
    ExportedBeliefEvent,
    ExportedEntityMark,
    ExportedExclusion,
    ExportedFeedback,
    ExportedMissHint,
    ExportedTrace,
    PrincipalExport,
)
from recallflow.models.store import BeliefEdge, Episode

#: The tables an export holds the principal's rows of.
EXPORTED_TABLES = frozenset(
    {
        "beliefs",
        "belief_edges",
        "episodes",
        "belief_events",
        "feedback_events",
        "belief_exclusions",
        "entity_sensitivity",
        "miss_hints",
        # Only the traces a citation or a rejection names, as their user-safe record.
        "recall_traces",
    }
)
#: Tables whose rows the store derives from the beliefs (the rarity statistics and the
#: principal's size, kept by triggers): the importing store derives its own.
DERIVED_TABLES = frozenset(
    {"principal_terms", "principal_term_classes", "principal_sizes", "principal_class_sizes"}
)
#: Tables bound to the store they were written in: a session is the cached prefix one
#: agent's conversation was sent, with what its turns showed and were told; another store
#: has no conversation to resume it in.
STORE_BOUND_TABLES = frozenset({"sessions", "session_corrections", "session_ends", "session_shown"})

_WHO = "tenant_id = %(t)s AND principal_id = %(p)s"

_EDGES = (
    "SELECT tenant_id, principal_id, src_id, dst_id, relation, weight FROM belief_edges"
    f" WHERE {_WHO} ORDER BY src_id, dst_id, relation"
)
# An event's world time may be an end of time (``±infinity``), which no datetime holds:
# it travels as PostgreSQL's name for it.
_BELIEF_EVENTS = (
    "SELECT belief_id, kind, related_id, project, evidence_id, reason,"
    " CASE WHEN isfinite(effective_at) THEN NULL ELSE effective_at::text END AS open_end,"
    " CASE WHEN isfinite(effective_at) THEN effective_at END AS effective_at, created_at"
    f" FROM belief_events WHERE {_WHO} ORDER BY id"
)
_FEEDBACK = (
    "SELECT belief_id, kind, trace_id, project, note, created_at FROM feedback_events"
    f" WHERE {_WHO} ORDER BY id"
)
# A session's trace keeps no user view here: the view ends with its session, which is not
# exported (and its retention could then never end the copy).
_TRACES = (
    "SELECT id, moment, surface, as_of, created_at, rendered_sha256,"
    " retrieval_policy_version, degraded,"
    " CASE WHEN session_id IS NULL THEN user_view END AS user_view"
    f" FROM recall_traces WHERE {_WHO} AND id IN"
    f" (SELECT trace_id FROM feedback_events WHERE {_WHO} AND trace_id IS NOT NULL)"
    " ORDER BY created_at, id"
)
_EXCLUSIONS = (
    f"SELECT belief_id, project, created_at FROM belief_exclusions WHERE {_WHO}"
    " ORDER BY belief_id, project"
)
_MARKS = (
    f"SELECT entity, sensitivity, marked_at FROM entity_sensitivity WHERE {_WHO} ORDER BY entity"
)
_HINTS = (
    "SELECT subject, miss_count, first_missed_at, last_missed_at, queued_at, acknowledged_at"
    f" FROM miss_hints WHERE {_WHO} ORDER BY subject"
)


def unclassified_tables(conn: psycopg.Connection[Any]) -> list[str]:
    """The tables holding principals' rows that the export neither holds, derives nor
    leaves out on purpose (empty while this module knows the schema)."""
    known = EXPORTED_TABLES | DERIVED_TABLES | STORE_BOUND_TABLES
    return sorted(set(principal_tables(conn)) - known)


def export_principal(
    conn: psycopg.Connection[Any], tenant_id: str, principal_id: str
) -> PrincipalExport:
    """Everything of the principal an export holds, read in one snapshot; an empty export
    for a principal with nothing stored."""
    key = {"t": tenant_id, "p": principal_id}
    with conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        unknown = unclassified_tables(conn)
        if unknown:
            raise ConfigurationError(
                f"tables {unknown} hold principals' rows that an export does not know of;"
                " this release cannot export a principal of this store whole"
            )
        cur = conn.cursor(row_factory=dict_row)
        row = cur.execute("SELECT now() AS at").fetchone()
        assert row is not None
        exported_at: datetime = row["at"]
        beliefs = [
            belief_from_row(r)
            for r in cur.execute(SELECT_BELIEF + f" WHERE {_WHO} ORDER BY id", key).fetchall()
        ]
        edges = [BeliefEdge.model_validate(r) for r in cur.execute(_EDGES, key).fetchall()]
        episodes = [
            Episode.model_validate(r)
            for r in cur.execute(SELECT_EPISODE + f" WHERE {_WHO} ORDER BY seq", key).fetchall()
        ]
        events = []
        for r in cur.execute(_BELIEF_EVENTS, key).fetchall():
            open_end = r.pop("open_end")
            if open_end is not None:
                r["effective_at"] = open_end
            events.append(ExportedBeliefEvent.model_validate(r))
        return PrincipalExport(
            tenant_id=tenant_id,
            principal_id=principal_id,
            exported_at=exported_at,
            beliefs=tuple(beliefs),
            edges=tuple(edges),
            episodes=tuple(episodes),
            belief_events=tuple(events),
            feedback=tuple(
                ExportedFeedback.model_validate(r) for r in cur.execute(_FEEDBACK, key).fetchall()
            ),
            exclusions=tuple(
                ExportedExclusion.model_validate(r)
                for r in cur.execute(_EXCLUSIONS, key).fetchall()
            ),
            entity_marks=tuple(
                ExportedEntityMark.model_validate(r) for r in cur.execute(_MARKS, key).fetchall()
            ),
            miss_hints=tuple(
                ExportedMissHint.model_validate(r) for r in cur.execute(_HINTS, key).fetchall()
            ),
            traces=tuple(
                ExportedTrace.model_validate(r) for r in cur.execute(_TRACES, key).fetchall()
            ),
        )
