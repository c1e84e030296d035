"""A principal's memory read out as one document, and written into a store from one (see
docs/portability.md): the SQL of ``Memory.export_principal`` and ``import_principal``.

The export reads every table that holds the principal's own records in one read-only
REPEATABLE READ transaction, so it is one snapshot: a write committed meanwhile is in all
of it or in none. Which tables those are is checked against the catalog on every export,
by the list the erasure works from (:func:`~recallflow.adapters.postgres.erasure.
principal_tables`): each is exported, derived (made again by the importing store), or
bound to the store it was made in (and left out, for the reason given below). A table
added later that none of the three names stops the export with a ConfigurationError
rather than leave the principal's rows in it out unnoticed.

The import writes the whole document in the caller's transaction, under the principal's
write lock, with the store's own embeddings of the statements and episodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from recallflow.adapters.postgres.ann_index import ann_state, graduate
from recallflow.adapters.postgres.beliefs import (
    SELECT_BELIEF,
    belief_from_row,
    belief_row,
    copy_beliefs,
)
from recallflow.adapters.postgres.episodes import EPISODE_COLUMNS, SELECT_EPISODE, episode_row
from recallflow.adapters.postgres.erasure import forgotten_ids, principal_tables
from recallflow.adapters.postgres.locks import lock_principals
from recallflow.core.erasure import erasure_digest
from recallflow.errors import ConfigurationError, ConflictError
from recallflow.models.portability import (
    ExportedBeliefEvent,
    ExportedEntityMark,
    ExportedExclusion,
    ExportedFeedback,
    ExportedMissHint,
    ExportedReportedMiss,
    ExportedTrace,
    PrincipalExport,
)
from recallflow.models.store import BeliefEdge, Episode
from recallflow.portability import first_erased

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
        "reported_misses",
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
    f" (SELECT trace_id FROM feedback_events WHERE {_WHO} AND trace_id IS NOT NULL"
    f" UNION SELECT trace_id FROM reported_misses WHERE {_WHO})"
    " ORDER BY created_at, id"
)
_COPY_EPISODES = "COPY episodes ({}, embedding) FROM STDIN".format(", ".join(EPISODE_COLUMNS))
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
_REPORTS = (
    "SELECT id, trace_id, belief_id, expected, subject, note, reported_at, acknowledged_at"
    f" FROM reported_misses WHERE {_WHO} ORDER BY reported_at, id"
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
            reported_misses=tuple(
                ExportedReportedMiss.model_validate(r)
                for r in cur.execute(_REPORTS, key).fetchall()
            ),
            traces=tuple(
                ExportedTrace.model_validate(r) for r in cur.execute(_TRACES, key).fetchall()
            ),
        )


#: What the target may already hold under a key the export brings: (section, field, the
#: statement that finds the keys stored among ``%(keys)s``).
_CLASHES: tuple[tuple[str, str, str], ...] = (
    ("beliefs", "id", f"SELECT id FROM beliefs WHERE {_WHO} AND id = ANY(%(keys)s)"),
    ("episodes", "id", f"SELECT id FROM episodes WHERE {_WHO} AND id = ANY(%(keys)s)"),
    ("traces", "id", f"SELECT id FROM recall_traces WHERE {_WHO} AND id = ANY(%(keys)s)"),
    (
        "entity_marks",
        "entity",
        f"SELECT entity FROM entity_sensitivity WHERE {_WHO} AND entity = ANY(%(keys)s)",
    ),
    (
        "miss_hints",
        "subject",
        f"SELECT subject FROM miss_hints WHERE {_WHO} AND subject = ANY(%(keys)s)",
    ),
    (
        "reported_misses",
        "id",
        f"SELECT id FROM reported_misses WHERE {_WHO} AND id = ANY(%(keys)s)",
    ),
)


def _refuse_clashes(conn: psycopg.Connection[Any], export: PrincipalExport) -> None:
    """A :class:`ConflictError` naming the first item whose key the target principal
    already holds (an import writes only what is new; it never merges into a record)."""
    for section, field, statement in _CLASHES:
        keys = [str(getattr(item, field)) for item in getattr(export, section)]
        if not keys:
            continue
        stored = {
            str(r[0])
            for r in conn.execute(
                statement, {"t": export.tenant_id, "p": export.principal_id, "keys": keys}
            ).fetchall()
        }
        for index, value in enumerate(keys):
            if value in stored:
                raise ConflictError(
                    f"{value!r} is already stored for {export.tenant_id}/{export.principal_id};"
                    " an import writes only what the target does not hold (nothing was written)",
                    field=f"{section}.{field}",
                    item_index=index,
                    item_id=value,
                )


#: The sections whose items an erasure record names one by one, with their scope there.
_FORGOTTEN: tuple[tuple[str, str], ...] = (("beliefs", "belief"), ("episodes", "episode"))


def _refuse_forgotten(conn: psycopg.Connection[Any], export: PrincipalExport) -> None:
    """A :class:`ConflictError` naming the first belief or episode the target principal
    forgot (``forget_belief``, ``forget_episode``, or ``forget`` of the whole principal
    while it held it): an export taken before the erasure,
    imported back, would undo it. Matched by the erasure record's digest, never the text
    (:func:`~recallflow.adapters.postgres.erasure.forgotten_ids`)."""
    t, p = export.tenant_id, export.principal_id
    for section, scope in _FORGOTTEN:
        items = getattr(export, section)
        erased = forgotten_ids(conn, t, p, scope, [item.id for item in items])
        for index, item in enumerate(items):
            # One recorded after its erasure was written again on purpose since (as a
            # belief re-added is): it is not what was erased.
            if item.id in erased and item.recorded_at <= erased[item.id]:
                raise ConflictError(
                    f"{item.id!r} was forgotten for {t}/{p} after this export was taken;"
                    " an import does not undo an erasure (leave it out of the export, or"
                    " import under another principal; nothing was written)",
                    field=f"{section}.id",
                    item_index=index,
                    item_id=item.id,
                )


def _refuse_erased_whole(conn: psycopg.Connection[Any], export: PrincipalExport) -> None:
    """A :class:`ConflictError` naming the first item recorded at or before the target
    principal was last forgotten whole (``forget``): that erasure took every item the
    principal had recorded by then, whatever its section or id (an edited export may
    rename one), and an export taken before it, imported back, would undo it. Matched by
    the erasure record's digest of the tenant and principal, and its time."""
    t, p = export.tenant_id, export.principal_id
    row = conn.execute(
        "SELECT max(erased_at) FROM erasures WHERE tenant_id = %s AND principal_sha256 = %s"
        " AND scope = 'principal'",
        (t, erasure_digest(t, p)),
    ).fetchone()
    erased_at: datetime | None = None if row is None else row[0]
    problem = None if erased_at is None else first_erased(export, erased_at)
    if erased_at is None or problem is None:
        return
    section, index, field, item_id = problem
    raise ConflictError(
        f"was recorded at {getattr(getattr(export, section)[index], field).isoformat()},"
        f" before {t}/{p} was forgotten whole ({erased_at.isoformat()}); an import does"
        " not undo an erasure (import only what was recorded after it, or import under"
        " another principal; nothing was written)",
        field=f"{section}.{field}",
        item_index=index,
        item_id=item_id,
    )


def store_clock(conn: psycopg.Connection[Any]) -> datetime:
    """The store's clock: PostgreSQL's ``now()``, the server's clock (an import's system
    times are held to it, not to the application's, which may disagree with it)."""
    row = conn.execute("SELECT now()").fetchone()
    assert row is not None
    now: datetime = row[0]
    return now


def import_principal(
    conn: psycopg.Connection[Any],
    export: PrincipalExport,
    belief_vectors: npt.NDArray[np.float32],
    episode_vectors: npt.NDArray[np.float32],
) -> dict[str, int]:
    """Write ``export`` (already re-homed to its target) inside the caller's transaction,
    each belief and episode with its vector; returns the rows written per table.

    Ids, states, links, validity and times are written as exported; each table's own
    serial numbers are new, taken in the export's order, so every read that orders by
    them (a belief's history) reads the same order.
    """
    t, p = export.tenant_id, export.principal_id
    lock_principals(conn, [(t, p)])
    _refuse_clashes(conn, export)
    _refuse_forgotten(conn, export)
    _refuse_erased_whole(conn, export)
    # Links between the export's own rows (a supersession, an event's belief) are checked
    # once every row is in.
    conn.execute("SET CONSTRAINTS ALL DEFERRED")
    written: dict[str, int] = {}
    cur = conn.cursor()
    if export.episodes:
        with cur.copy(_COPY_EPISODES) as copy:
            # Each episode is the export's principal's (re-homed with it, and refused as
            # another's when it names another).
            for e, vector in zip(export.episodes, episode_vectors, strict=True):
                copy.write_row(episode_row(e, vector))
    written["episodes"] = len(export.episodes)
    if export.beliefs:
        # Into the partial vector index as a write of that many beliefs would be.
        ann = ann_state(conn, [(t, p)])
        graduates = ann.graduates(t, p, len(export.beliefs))
        if graduates:
            graduate(conn, t, p)
        copy_beliefs(
            conn,
            [belief_row(b) for b in export.beliefs],
            belief_vectors,
            ann_indexed=graduates or ann.graduated(t, p),
        )
    written["beliefs"] = len(export.beliefs)
    _many(
        cur,
        "INSERT INTO belief_edges (tenant_id, principal_id, src_id, dst_id, relation, weight)"
        " VALUES (%s, %s, %s, %s, %s, %s)",
        [(t, p, e.src_id, e.dst_id, e.relation.value, e.weight) for e in export.edges],
    )
    written["belief_edges"] = len(export.edges)
    _many(
        cur,
        "INSERT INTO belief_events (tenant_id, principal_id, belief_id, kind, related_id,"
        " project, evidence_id, reason, effective_at, created_at)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s::timestamptz, %s)",
        [
            (
                t,
                p,
                e.belief_id,
                e.kind,
                e.related_id,
                e.project,
                e.evidence_id,
                e.reason,
                e.effective_at,  # an end of time as its name, cast by the statement
                e.created_at,
            )
            for e in export.belief_events
        ],
    )
    written["belief_events"] = len(export.belief_events)
    _many(
        cur,
        "INSERT INTO recall_traces (tenant_id, principal_id, id, moment, surface, as_of,"
        " created_at, rendered_sha256, retrieval_policy_version, degraded, user_view)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        [
            (
                t,
                p,
                r.id,
                r.moment,
                r.surface,
                r.as_of,
                r.created_at,
                r.rendered_sha256,
                r.retrieval_policy_version,
                r.degraded,
                None if r.user_view is None else Jsonb(r.user_view),
            )
            for r in export.traces
        ],
    )
    written["recall_traces"] = len(export.traces)
    _many(
        cur,
        "INSERT INTO feedback_events (tenant_id, principal_id, belief_id, kind, trace_id,"
        " project, note, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
        [
            (t, p, f.belief_id, f.kind, f.trace_id, f.project, f.note, f.created_at)
            for f in export.feedback
        ],
    )
    written["feedback_events"] = len(export.feedback)
    _many(
        cur,
        "INSERT INTO belief_exclusions (tenant_id, principal_id, belief_id, project, created_at)"
        " VALUES (%s, %s, %s, %s, %s)",
        [(t, p, x.belief_id, x.project, x.created_at) for x in export.exclusions],
    )
    written["belief_exclusions"] = len(export.exclusions)
    _many(
        cur,
        "INSERT INTO entity_sensitivity (tenant_id, principal_id, entity, sensitivity,"
        " marked_at) VALUES (%s, %s, %s, %s, %s)",
        [(t, p, m.entity, int(m.sensitivity), m.marked_at) for m in export.entity_marks],
    )
    written["entity_sensitivity"] = len(export.entity_marks)
    _many(
        cur,
        "INSERT INTO miss_hints (tenant_id, principal_id, subject, miss_count,"
        " first_missed_at, last_missed_at, queued_at, acknowledged_at)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
        [
            (
                t,
                p,
                h.subject,
                h.miss_count,
                h.first_missed_at,
                h.last_missed_at,
                h.queued_at,
                h.acknowledged_at,
            )
            for h in export.miss_hints
        ],
    )
    written["miss_hints"] = len(export.miss_hints)
    _many(
        cur,
        "INSERT INTO reported_misses (tenant_id, principal_id, id, trace_id, belief_id,"
        " expected, subject, note, reported_at, acknowledged_at)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        [
            (
                t,
                p,
                r.id,
                r.trace_id,
                r.belief_id,
                r.expected,
                r.subject,
                r.note,
                r.reported_at,
                r.acknowledged_at,
            )
            for r in export.reported_misses
        ],
    )
    written["reported_misses"] = len(export.reported_misses)
    # The deferred links are checked here, where a refusal is still this call's error.
    conn.execute("SET CONSTRAINTS ALL IMMEDIATE")
    return written


def _many(cur: psycopg.Cursor[Any], statement: str, rows: Sequence[tuple[Any, ...]]) -> None:
    """``statement`` once per row, pipelined, in the order given (so each table's serial
    numbers follow the export's order)."""
    if rows:
        cur.executemany(statement, rows)
