"""The Postgres :class:`~recallflow.ports.BeliefStore`: beliefs and belief edges.

Writes go through ``COPY`` in one transaction, so a batch is all-or-nothing and a
refused row is reported by its position. Reads map the stored infinities of
open validity intervals back to ``None``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from enum import Enum
from itertools import repeat
from operator import itemgetter
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.adapt import Buffer, Dumper
from psycopg.pq import Format
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from recallflow.adapters.postgres.errors import translate
from recallflow.adapters.postgres.filters import hard_filter_sql, state_at_as_of
from recallflow.adapters.postgres.keys import has_entity
from recallflow.adapters.postgres.locks import lock_principals
from recallflow.adapters.postgres.statistics import bulk_write
from recallflow.core.lifecycle import edge_key, not_found
from recallflow.errors import ConflictError
from recallflow.models.history import BeliefHistory
from recallflow.models.stages import HardFilter
from recallflow.models.store import (
    Belief,
    BeliefEdge,
    BeliefType,
    LifecycleState,
    Portability,
    Scope,
    Sensitivity,
    SourceAuthority,
    StoreSummary,
)
from recallflow.ports import VectorRows

BELIEF_COLUMNS: tuple[str, ...] = (
    "tenant_id",
    "principal_id",
    "id",
    "statement",
    "subject",
    "entities",
    "belief_type",
    "scope",
    "origin_project",
    "portability",
    "state",
    "confidence",
    "valid_from",
    "valid_to",
    "recorded_at",
    "retracted_at",
    "sensitivity",
    "source_authority",
    "source_episode_id",
    "corroboration_count",
    "corroborating_projects",
    "last_corroborated_at",
    "utility",
    "last_reinforced_at",
    "flagged",
    "supersedes",
    "superseded_by",
    "conflict_set_id",
)
_OPEN_ENDS = {"valid_from": "-infinity", "valid_to": "infinity"}
#: The PostgreSQL type of each of :data:`BELIEF_COLUMNS`, then ``embedding`` and
#: ``ann_indexed``, for binary COPY.
_COPY_TYPES: tuple[str, ...] = (
    *("text",) * 5,
    "text[]",
    *("text",) * 5,
    "float8",
    *("timestamptz",) * 4,
    "int2",
    "text",
    "text",
    "int4",
    "text[]",
    "timestamptz",
    "float8",
    "timestamptz",
    "bool",
    *("text",) * 3,
    "vector",
    "bool",
)
_COPY_BELIEFS = "COPY beliefs ({}, embedding, ann_indexed) FROM STDIN (FORMAT BINARY)".format(
    ", ".join(BELIEF_COLUMNS)
)
_PG_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
_INFINITY = {"infinity": struct.pack("!q", 2**63 - 1), "-infinity": struct.pack("!q", -(2**63))}


class _TimestamptzBinaryDumper(Dumper):
    """``timestamptz`` in binary COPY, open validity ends (``±infinity``) included."""

    format = Format.BINARY
    oid = 1184  # timestamptz

    def dump(self, obj: Any) -> Buffer:
        if isinstance(obj, str):
            return _INFINITY[obj]
        delta = obj - _PG_EPOCH
        micros = (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
        return struct.pack("!q", micros)


def copy_beliefs(
    conn: psycopg.Connection[Any],
    rows: Iterable[tuple[Any, ...]],
    vectors: Iterable[Any],
    *,
    ann_indexed: bool | Sequence[bool],
) -> None:
    """COPY ``rows`` (each from :func:`belief_row`) with their ``vectors`` in binary format,
    inside the caller's transaction; ``ann_indexed``: whether they enter the HNSW index
    (their principal is graduated, see :mod:`~recallflow.adapters.postgres.ann_index`),
    for every row or row by row.

    Binary: a vector travels as its 1.5 KB of floats instead of being formatted as ~4 KB
    of text, which cost the client more than the server's whole insert.
    """
    cursor = conn.cursor()
    cursor.adapters.register_dumper(datetime, _TimestamptzBinaryDumper)
    with cursor.copy(_COPY_BELIEFS) as copy:
        copy.set_types(list(_COPY_TYPES))
        pairs = zip(rows, vectors, strict=True)
        if isinstance(ann_indexed, bool):
            flagged = zip(pairs, repeat(ann_indexed))
        else:
            flagged = zip(pairs, ann_indexed, strict=True)
        for (row, vector), indexed in flagged:
            copy.write_row((*row, vector, indexed))


def _select_expression(column: str) -> str:
    if column in _OPEN_ENDS:
        return f"NULLIF({column}, '{_OPEN_ENDS[column]}'::timestamptz) AS {column}"
    return column


#: Selects a whole belief; open validity ends (stored as ±infinity) come back as NULL.
SELECT_BELIEF = "SELECT " + ", ".join(map(_select_expression, BELIEF_COLUMNS)) + " FROM beliefs"
_COPY_EDGES = (
    "COPY belief_edges (tenant_id, principal_id, src_id, dst_id, relation, weight) FROM STDIN"
)


def belief_row(belief: Belief) -> tuple[Any, ...]:
    """The COPY row of ``belief`` (without the embedding), in :data:`BELIEF_COLUMNS` order."""
    values = belief.__dict__  # a validated belief's fields, without serializing each
    row = [values[column] for column in BELIEF_COLUMNS]
    for at, column in _ROW_CONVERSIONS:
        row[at] = column(row[at])
    return tuple(row)


def _open_end(end: str) -> Any:
    return lambda value: end if value is None else value


#: How :func:`belief_row` makes a column's value the COPY's: an open validity end as an
#: infinity, a tuple as a list (an array), an enum as its value.
_ROW_CONVERSIONS: tuple[tuple[int, Any], ...] = (
    (BELIEF_COLUMNS.index("valid_from"), _open_end("-infinity")),
    (BELIEF_COLUMNS.index("valid_to"), _open_end("infinity")),
    (BELIEF_COLUMNS.index("entities"), list),
    (BELIEF_COLUMNS.index("corroborating_projects"), list),
    (BELIEF_COLUMNS.index("sensitivity"), int),
    *(
        (BELIEF_COLUMNS.index(c), lambda value: getattr(value, "value", value))
        for c in ("belief_type", "scope", "portability", "state", "source_authority")
    ),
)


_ENUMS: dict[str, type[Enum]] = {
    "belief_type": BeliefType,
    "scope": Scope,
    "portability": Portability,
    "state": LifecycleState,
    "sensitivity": Sensitivity,
    "source_authority": SourceAuthority,
}


class _Members(dict[Any, Any]):
    """An enum column's members by stored value: a dict look-up instead of the enum's call
    (six a belief, 100 beliefs a snapshot); a value not listed is the enum's own call (its
    error, or a member its ``_missing_`` finds)."""

    def __init__(self, enum: type[Enum]) -> None:
        super().__init__({m.value: m for m in enum})
        self._enum = enum

    def __missing__(self, value: Any) -> Any:
        return self._enum(value)


#: The columns read as tuples (arrays come back as lists).
_TUPLES = ("entities", "corroborating_projects")


def _row_reader() -> Callable[[Sequence[Any]], Belief]:
    """The function that makes a :class:`Belief` of a row holding :data:`BELIEF_COLUMNS`
    in order (later columns left out): arrays as tuples, enum columns as their members, no
    embedding, written out for the columns (as ``dataclasses`` writes out an
    ``__init__``): the belief's dict in one display, each value read by its position.

    The candidates' load of a recall reads some 45 rows; copied into a dict by name and
    converted column by column in a loop, a belief cost 30,000 instructions, written out
    24,000 (callgrind, the 10k tier's loads)."""
    scope: dict[str, Any] = {"_make": Belief.trusted_maker((*BELIEF_COLUMNS, "embedding"))}
    values = []
    for at, column in enumerate(BELIEF_COLUMNS):
        value = f"row[{at}]"
        if column in _TUPLES:
            value = f"tuple({value})"
        elif column in _ENUMS:
            scope[f"_{column}"] = _Members(_ENUMS[column])
            value = f"_{column}[{value}]"
        values.append(f"{column!r}: {value}")
    fields = ", ".join([*values, "'embedding': None"])
    source = f"def belief_of_row(row):\n    return _make({{{fields}}})\n"
    exec(compile(source, "<belief_of_row>", "exec"), scope)
    reader: Callable[[Sequence[Any]], Belief] = scope["belief_of_row"]
    return reader


_belief_of_row = _row_reader()
#: The columns of a row :func:`belief_from_row` reads, and reading them in order.
_ROW_NAMES = frozenset(BELIEF_COLUMNS)
_in_order = itemgetter(*BELIEF_COLUMNS)


def belief_from_row(row: dict[str, Any]) -> Belief:
    """A :class:`Belief` from a row selected with :data:`SELECT_BELIEF`'s columns.

    The row passed the table's constraints, which mirror the model's validators, so it is
    built without validating again, the way ``model_construct`` builds a model from a
    complete set of fields but without its per-field default lookup: 6 µs a belief against
    31 µs through ``model_construct`` and ~70 µs validated. Rows read in bulk are read by
    :func:`beliefs_from_rows`.

    The belief keeps its fields in the columns' order (its JSON follows that order), as
    one read in bulk does; a row holding other columns is a TypeError.
    """
    if row.keys() != _ROW_NAMES:
        missing, unknown = sorted(_ROW_NAMES - row.keys()), sorted(row.keys() - _ROW_NAMES)
        raise TypeError(f"a belief's row: missing {missing}, unknown {unknown}")
    return _belief_of_row(_in_order(row))


def stored_belief(
    conn: psycopg.Connection[Any], tenant_id: str, principal_id: str, belief_id: str
) -> Belief:
    """The principal's belief with that id as stored; :class:`NotFoundError` otherwise."""
    row = (
        conn.cursor(row_factory=dict_row)
        .execute(
            SELECT_BELIEF + " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
            (tenant_id, principal_id, belief_id),
        )
        .fetchone()
    )
    if row is None:
        raise not_found(tenant_id, principal_id, belief_id)
    return belief_from_row(row)


def beliefs_from_rows(names: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[Belief]:
    """The :class:`Belief` of each row (a tuple) of a statement whose first columns, named
    ``names`` (the cursor's description), are :data:`SELECT_BELIEF`'s; later columns are
    left out. Built as :func:`belief_from_row` builds one, without copying each row into a
    dict nor comparing its names again for every row (the candidates' load of a recall
    reads some 45)."""
    if tuple(names[: len(BELIEF_COLUMNS)]) != BELIEF_COLUMNS:
        raise ValueError(f"rows whose columns are not a belief's: {list(names)}")
    return [_belief_of_row(row) for row in rows]


class PostgresBeliefStore:
    """Beliefs and edges in PostgreSQL, through a shared connection pool."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    def write_beliefs(self, beliefs: Sequence[Belief], embeddings: VectorRows) -> list[Belief]:
        """Write a batch in one transaction (idempotent, supersession-aware: see
        :func:`recallflow.adapters.postgres.lifecycle.write_beliefs`); returns it as stored."""
        # Imported here: the lifecycle module builds on this one's columns and row mapping.
        from recallflow.adapters.postgres.lifecycle import write_beliefs

        if len(beliefs) != len(embeddings):
            raise ValueError("write_beliefs needs one embedding per belief")
        if not beliefs:
            return []
        try:
            principals = {(b.tenant_id, b.principal_id) for b in beliefs}
            with bulk_write(self._pool, principals=principals) as conn:
                return write_beliefs(conn, beliefs, embeddings)
        except (pg_errors.IntegrityError, pg_errors.DataError) as exc:
            items = [dict(zip(BELIEF_COLUMNS, belief_row(b), strict=True)) for b in beliefs]
            raise translate(exc, table="beliefs", items=items) from exc

    def get_belief(self, tenant_id: str, principal_id: str, belief_id: str) -> Belief:
        with self._pool.connection() as conn:
            return stored_belief(conn, tenant_id, principal_id, belief_id)

    def list_beliefs(self, tenant_id: str, principal_id: str) -> list[Belief]:
        with self._pool.connection() as conn:
            rows = (
                conn.cursor(row_factory=dict_row)
                .execute(
                    SELECT_BELIEF + " WHERE tenant_id = %s AND principal_id = %s ORDER BY id",
                    (tenant_id, principal_id),
                )
                .fetchall()
            )
        return [belief_from_row(r) for r in rows]

    def held_beliefs(
        self,
        f: HardFilter,
        *,
        project: str | None,
        subject: str | None,
        entity: str | None,
        belief_type: str | None,
        source_episode_id: str | None,
        after: str | None,
        limit: int,
    ) -> list[Belief]:
        """The beliefs that pass ``f`` (every rule of a recall's hard filter, through
        :func:`~recallflow.adapters.postgres.filters.hard_filter_sql`), in id order after
        ``after``, at most ``limit``; learned in ``project``, with ``subject`` in their
        subject, with the entity key ``entity`` (through the entities' principal keys, as
        the structured arm finds it), of ``belief_type`` and formed from the episode
        ``source_episode_id`` (through the beliefs' source index) when given. Each is
        returned in its state at ``f.as_of``."""
        predicate, params = hard_filter_sql(f)
        query = sql.SQL(SELECT_BELIEF + " b WHERE {}").format(predicate)
        if project is not None:
            query += sql.SQL(" AND b.origin_project = %(held_project)s")
        if subject is not None:
            query += sql.SQL(" AND strpos(b.subject, %(held_subject)s) > 0")
        if entity is not None:
            query += sql.SQL(" AND " + has_entity("%(held_entity)s"))
        if belief_type is not None:
            query += sql.SQL(" AND b.belief_type = %(held_type)s")
        if source_episode_id is not None:
            query += sql.SQL(" AND b.source_episode_id = %(held_source)s")
        if after is not None:
            query += sql.SQL(" AND b.id > %(held_after)s")
        query += sql.SQL(" ORDER BY b.id LIMIT %(held_limit)s")
        params |= {
            "held_project": project,
            "held_subject": subject,
            "held_entity": entity,
            "held_type": belief_type,
            "held_source": source_episode_id,
            "held_after": after,
            "held_limit": limit,
        }
        with self._pool.connection() as conn:
            rows = conn.cursor(row_factory=dict_row).execute(query, params).fetchall()
        held = [belief_from_row(r) for r in rows]
        return [
            b
            if (state := state_at_as_of(f, b.state)) is b.state
            else b.model_copy(update={"state": state})
            for b in held
        ]

    def belief_history(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        links: int,
        events: int | None = None,
    ) -> BeliefHistory:
        """One snapshot of the belief's history (see
        :func:`recallflow.adapters.postgres.history.belief_history`)."""
        # Imported here: the history module builds on this one's columns and row mapping.
        from recallflow.adapters.postgres.history import belief_history

        with self._pool.connection() as conn:
            return belief_history(conn, tenant_id, principal_id, belief_id, links, events)

    def belief_edges(
        self,
        f: HardFilter,
        belief_id: str,
        *,
        relation: str | None,
        outgoing: bool,
        incoming: bool,
        limit: int,
    ) -> list[BeliefEdge]:
        """The edges of the principal's belief ``belief_id`` (those from it when
        ``outgoing``, to it when ``incoming``) whose both ends pass ``f``, each end checked
        as graph expansion's walk checks a node (through
        :func:`~recallflow.adapters.postgres.filters.hard_filter_sql`): none when the belief
        itself does not pass. Of ``relation`` when given; the strongest first, at most
        ``limit``. :class:`NotFoundError` on ``belief_id`` when the principal has no such
        belief."""
        predicate, params = hard_filter_sql(f)
        params |= {"edges_belief": belief_id, "edges_relation": relation, "edges_limit": limit}
        with self._pool.connection() as conn:
            visible = conn.execute(
                sql.SQL(
                    "SELECT {} FROM beliefs b WHERE b.tenant_id = %(hf_tenant)s"
                    " AND b.principal_id = %(hf_principal)s AND b.id = %(edges_belief)s"
                ).format(predicate),
                params,
            ).fetchone()
            if visible is None:
                raise not_found(f.tenant_id, f.principal_id, belief_id, field="belief_id")
            if not visible[0]:
                return []
            ends = [("src_id", "dst_id")] * outgoing + [("dst_id", "src_id")] * incoming
            rows = conn.execute(_edges_of(predicate, ends, relation is not None), params)
            return [
                BeliefEdge(
                    tenant_id=f.tenant_id,
                    principal_id=f.principal_id,
                    src_id=src,
                    dst_id=dst,
                    relation=rel,
                    weight=weight,
                )
                for src, dst, rel, weight in rows.fetchall()
            ]

    def write_edges(self, edges: Sequence[BeliefEdge]) -> None:
        """Write all of ``edges`` or none; an edge already stored with the same weight is
        not written again (a retried batch), with another weight it is a ConflictError."""
        if not edges:
            return
        fresh = list(range(len(edges)))
        try:
            with bulk_write(self._pool) as conn:
                # Locked first, as belief and episode writes are: two writers of one new
                # edge could otherwise both find it free, and the later one's COPY failed
                # on the key instead of finding the edge stored.
                lock_principals(conn, {(e.tenant_id, e.principal_id) for e in edges})
                fresh = _new_edges(conn, edges)
                if fresh:
                    with conn.cursor().copy(_COPY_EDGES) as copy:
                        for i in fresh:
                            e = edges[i]
                            copy.write_row(
                                (
                                    e.tenant_id,
                                    e.principal_id,
                                    e.src_id,
                                    e.dst_id,
                                    e.relation.value,
                                    e.weight,
                                )
                            )
        except (pg_errors.IntegrityError, pg_errors.DataError) as exc:
            items = [edges[i].model_dump(mode="json") for i in fresh]
            raise translate(exc, table="belief_edges", items=items, positions=fresh) from exc

    def summary(self) -> list[StoreSummary]:
        with self._pool.connection() as conn:
            return _summary(conn)


def _edges_of(
    predicate: sql.Composed, ends: Sequence[tuple[str, str]], of_relation: bool
) -> sql.Composed:
    """The edges statement of :meth:`PostgresBeliefStore.belief_edges`: one branch per
    pair of ``ends`` (the column naming the belief, the column naming the other end),
    each read on its own index of the edges, and the other end checked by a primary-key
    probe through the hard filter ``predicate`` (on the alias ``b``), as the walk checks
    a node."""
    relation = " AND relation = %(edges_relation)s" if of_relation else ""
    branches = " UNION ALL ".join(
        f"SELECT src_id, dst_id, relation, weight, {other} AS other FROM belief_edges"
        " WHERE tenant_id = %(hf_tenant)s AND principal_id = %(hf_principal)s"
        f" AND {end} = %(edges_belief)s{relation}"
        for end, other in ends
    )
    return sql.SQL(
        "SELECT e.src_id, e.dst_id, e.relation, e.weight FROM (" + branches + ") e"
        " WHERE EXISTS (SELECT FROM beliefs b WHERE b.tenant_id = %(hf_tenant)s"
        " AND b.principal_id = %(hf_principal)s AND b.id = e.other AND {})"
        " ORDER BY e.weight DESC, e.src_id, e.dst_id, e.relation LIMIT %(edges_limit)s"
    ).format(predicate)


def _new_edges(conn: psycopg.Connection[Any], edges: Sequence[BeliefEdge]) -> list[int]:
    """The indexes of ``edges`` not stored yet; :class:`ConflictError` for the first one
    stored with another weight (read under the principals' write lock, so a concurrent
    writer's edge is seen once it commits)."""
    stored = {
        (t, p, src, dst, rel): float(w)
        for t, p, src, dst, rel, w in conn.execute(
            "SELECT tenant_id, principal_id, src_id, dst_id, relation, weight FROM belief_edges"
            " WHERE (tenant_id, principal_id, src_id, dst_id, relation) IN"
            " (SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::text[]))",
            [list(column) for column in zip(*map(edge_key, edges), strict=True)],
        ).fetchall()
    }
    fresh: list[int] = []
    for index, edge in enumerate(edges):
        weight = stored.get(edge_key(edge))
        if weight is None:
            fresh.append(index)
        elif weight != edge.weight:
            raise ConflictError(
                f"the edge is already stored with weight {weight!r}, not {edge.weight!r}",
                field="weight",
                item_index=index,
                item_id=edge.src_id,
            )
    return fresh


def _summary(conn: psycopg.Connection[Any]) -> list[StoreSummary]:
    states = conn.execute(
        "SELECT tenant_id, principal_id, state, count(*) FROM beliefs"
        " GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
    ).fetchall()
    episodes = dict(
        ((t, p), n)
        for t, p, n in conn.execute(
            "SELECT tenant_id, principal_id, count(*) FROM episodes GROUP BY 1, 2"
        ).fetchall()
    )
    edges = dict(
        ((t, p), n)
        for t, p, n in conn.execute(
            "SELECT tenant_id, principal_id, count(*) FROM belief_edges GROUP BY 1, 2"
        ).fetchall()
    )
    by_principal: dict[tuple[str, str], dict[str, int]] = {}
    for tenant, principal, state, count in states:
        by_principal.setdefault((tenant, principal), {})[state] = int(count)
    return [
        StoreSummary(
            tenant_id=t,
            principal_id=p,
            beliefs_by_state=counts,
            episodes=int(episodes.get((t, p), 0)),
            edges=int(edges.get((t, p), 0)),
        )
        for (t, p), counts in sorted(by_principal.items())
    ]
