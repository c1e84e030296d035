"""The planner's statistics after a write: the tables a write leaves changed by a large
share since their last ANALYZE are analyzed as soon as it commits, instead of when
autovacuum next comes round.

Autovacuum analyzes a table up to ``autovacuum_naptime`` (a minute) after it changed, and
until then the planner plans the arms' statements from the table as its last ANALYZE saw
it — a fresh store's tables as empty, and a table no ANALYZE has seen with default
selectivities. Right after ``add_many`` of a history into a new store, recall ran 2x (1k
beliefs) to 20x (10k) slower until autovacuum had been round; and a session's turns,
which write a few rows each, locked their session through the wrong index of a table
never analyzed (see "Statistics after a bulk write" in docs/operations.md).

A write in :func:`bulk_write` reads, just before it commits, how many rows it inserted,
updated and deleted in each table (what ``pg_stat_xact_user_tables`` shows: the tables
the statistics triggers maintain included) plus the rows the writes before it changed since
the table's last ANALYZE (``pg_stat_get_mod_since_analyze``) and, once committed, analyzes
each table it wrote (or that the caller watches) whose count is at least
``limits.statistics_min_rows`` and more than ``limits.statistics_growth_share`` of the
rows the table's statistics counted, or, for a table never analyzed, at least the
server's own ``autovacuum_analyze_threshold`` (the rows autovacuum's first ANALYZE of a
table waits for, 50 by default) — what autovacuum would do on its next round, brought
forward. A write of beliefs also analyzes the columns that name the principal when one
it wrote has outgrown the planner's estimate of it (:func:`outgrown_beliefs`), which the
table-wide count misses when the table holds others. The write asks the server to
publish its counts as soon as it is idle again (``pg_stat_force_next_flush``), so the
next write, on any connection, reads them. A table autovacuum is switched off for (the
server's ``autovacuum`` off, or the table's ``autovacuum_enabled`` false) is left alone:
its statistics are whoever switched it off's to keep. Except when it has none to keep:
such a table no ANALYZE has seen the principal's columns of has those two columns
analyzed once (:func:`keyless_tables`), or the foreign-key checks at COMMIT read the
whole principal per row written. The writer has no policy argument, so the numbers are
the default policy's.

The ANALYZE runs after the commit, outside the write's transaction: the write does not
hold its locks for it, and a failed ANALYZE (a lost connection, a missing privilege) is
logged and never undoes the write. It skips a table another session is analyzing or
vacuuming (``SKIP_LOCKED``) rather than wait for it: the statistics are on their way.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

from recallflow.adapters.postgres.errors import CANCELLED_WRITE, cancelled_write
from recallflow.policy import DEFAULT_POLICY, ArmLimits

_log = logging.getLogger(__name__)

#: The tables the current transaction wrote (or ``watched`` names) whose statistics are
#: stale, as (schema, table): changed since their last ANALYZE, this transaction's rows
#: included, by enough (see the module's docstring). The tables of the schemas on the
#: search path, the store's, read from ``pg_class`` with the functions behind
#: ``pg_stat_xact_user_tables`` (the view computes its every column for every table of
#: the catalog: 0.54 ms a write, against 0.33). The subquery in FROM runs once and makes
#: the server publish this backend's counts once it is idle, after the commit.
_CHANGED = (
    "SELECT n.nspname, c.relname FROM (SELECT pg_stat_force_next_flush()) f,"
    " pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,"
    " LATERAL (SELECT pg_stat_get_xact_tuples_inserted(c.oid)"
    "  + pg_stat_get_xact_tuples_updated(c.oid)"
    "  + pg_stat_get_xact_tuples_deleted(c.oid) AS own) w,"
    " LATERAL (SELECT w.own + pg_stat_get_mod_since_analyze(c.oid) AS since) m"
    " WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY(current_schemas(false))"
    " AND (w.own > 0 OR c.relname = ANY(%(watched)s))"
    " AND (m.since >= %(min_rows)s AND m.since > %(share)s * greatest(c.reltuples, 0)"
    "  OR c.reltuples < 0"
    "  AND m.since >= current_setting('autovacuum_analyze_threshold')::int)"
    " AND current_setting('autovacuum')::bool"
    " AND NOT EXISTS (SELECT FROM pg_options_to_table(c.reloptions) o"
    "  WHERE o.option_name = 'autovacuum_enabled' AND NOT o.option_value::bool)"
    " ORDER BY 1, 2"
)


#: The tables the current transaction wrote (or ``watched`` names) that autovacuum is
#: switched off for, that name a principal (``tenant_id`` and ``principal_id``), and that
#: the planner has no statistics of those columns for, though the table has changed by as
#: many rows as autovacuum's first ANALYZE of a table waits for: no ANALYZE has seen it
#: with rows in it, by its operator or anyone. A column whose statistics target is 0 is the
#: operator's word that it is to have none, and is left out.
_KEYLESS = (
    "WITH off AS MATERIALIZED (SELECT c.oid, n.nspname, c.relname FROM pg_class c"
    "  JOIN pg_namespace n ON n.oid = c.relnamespace"
    "  WHERE c.relkind IN ('r', 'p') AND n.nspname = ANY(current_schemas(false))"
    "  AND (NOT current_setting('autovacuum')::bool"
    "   OR EXISTS (SELECT FROM pg_options_to_table(c.reloptions) o"
    "    WHERE o.option_name = 'autovacuum_enabled' AND NOT o.option_value::bool))"
    "  AND (pg_stat_get_xact_tuples_inserted(c.oid) + pg_stat_get_xact_tuples_updated(c.oid)"
    "   + pg_stat_get_xact_tuples_deleted(c.oid) > 0 OR c.relname = ANY(%(watched)s))"
    "  AND pg_stat_get_xact_tuples_inserted(c.oid) + pg_stat_get_xact_tuples_updated(c.oid)"
    "   + pg_stat_get_xact_tuples_deleted(c.oid) + pg_stat_get_mod_since_analyze(c.oid)"
    "   >= current_setting('autovacuum_analyze_threshold')::int)"
    " SELECT f.nspname, f.relname FROM off f"
    " WHERE (SELECT count(*) FROM pg_attribute a WHERE a.attrelid = f.oid"
    "  AND a.attname = ANY(%(columns)s) AND NOT a.attisdropped) = cardinality(%(columns)s)"
    " AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = f.oid"
    "  AND a.attname = ANY(%(columns)s) AND NOT a.attisdropped"
    "  AND coalesce(a.attstattarget, -1) <> 0"
    "  AND NOT EXISTS (SELECT FROM pg_stats st WHERE st.schemaname = f.nspname"
    "   AND st.tablename = f.relname AND st.attname = a.attname AND NOT st.inherited))"
    " ORDER BY 1, 2"
)


def keyless_tables(
    conn: psycopg.Connection[Any], watched: tuple[str, ...] = ()
) -> list[tuple[str, str]]:
    """The tables the transaction open on ``conn`` wrote, and those of ``watched``, that
    autovacuum is off for and that no ANALYZE has seen the principal's columns of
    (:data:`_KEYLESS`), as (schema, table).

    Without those, the planner takes ``tenant_id = $1 AND principal_id = $2`` to keep
    0.0025 % of the rows, so at a table's first tens of thousands of rows every index that
    begins with the principal costs a key lookup as much as the primary key does, and the
    planner may take any of them: the foreign-key checks a write's COMMIT runs (each
    belief's episode, each edge's two beliefs, each supersession's two) and the write's
    own reads by id then filtered the principal's rows one by one, per row written, and a
    batch's commit took time that grew with the square of the principal. Those two
    columns' statistics alone make the key the only plan for one row; the write takes
    them once (:data:`PRINCIPAL_COLUMNS`), and never again once the table has any: those
    are the operator's to keep."""
    rows = conn.execute(
        _KEYLESS, {"watched": list(watched), "columns": list(PRINCIPAL_COLUMNS)}
    ).fetchall()
    return [(str(schema), str(table)) for schema, table in rows]


def changed_tables(
    conn: psycopg.Connection[Any],
    limits: ArmLimits = DEFAULT_POLICY.limits,
    watched: tuple[str, ...] = (),
) -> list[tuple[str, str]]:
    """The tables the transaction open on ``conn`` wrote, and those of ``watched`` (table
    names), whose statistics are stale (see the module's docstring), as (schema, table)."""
    rows = conn.execute(
        _CHANGED,
        {
            "min_rows": limits.statistics_min_rows,
            "share": limits.statistics_growth_share,
            "watched": list(watched),
        },
    ).fetchall()
    return [(str(schema), str(table)) for schema, table in rows]


#: A principal's beliefs as the table counts them (``principal_sizes``, which the write's
#: own rows are in), the beliefs table's rows changed since its last ANALYZE (this
#: transaction's included), the table's schema, and whether an ANALYZE can know the
#: principal by name: its statistics keep fewer principals than they may (then any
#: principal can enter), or fewer beliefs of the least of those they keep than it holds.
_PRINCIPAL_SIZE = (
    "SELECT h.held, pg_stat_get_mod_since_analyze(c.oid)"
    " + pg_stat_get_xact_tuples_inserted(c.oid) + pg_stat_get_xact_tuples_updated(c.oid)"
    " + pg_stat_get_xact_tuples_deleted(c.oid), n.nspname,"
    " coalesce((SELECT cardinality(st.most_common_freqs) < coalesce(nullif("
    "   a.attstattarget, -1), current_setting('default_statistics_target')::int)"
    "   OR h.held > (SELECT min(f) FROM unnest(st.most_common_freqs) f) * c.reltuples"
    "  FROM pg_stats st WHERE st.schemaname = n.nspname AND st.tablename = c.relname"
    "  AND st.attname = a.attname AND NOT st.inherited), true)"
    " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
    " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'principal_id',"
    " LATERAL (SELECT coalesce((SELECT s.beliefs FROM principal_sizes s"
    "  WHERE s.tenant_id = %(t)s AND s.principal_id = %(p)s), 0) AS held) h"
    " WHERE c.oid = 'beliefs'::regclass AND current_setting('autovacuum')::bool"
    " AND NOT EXISTS (SELECT FROM pg_options_to_table(c.reloptions) o"
    "  WHERE o.option_name = 'autovacuum_enabled' AND NOT o.option_value::bool)"
)
#: The planner's estimate of a principal's beliefs, from the table's statistics: what
#: every statement that reads the principal's beliefs is planned for.
_PRINCIPAL_ESTIMATE = (
    "EXPLAIN (FORMAT JSON) SELECT FROM beliefs WHERE tenant_id = %(t)s AND principal_id = %(p)s"
)


def outgrown_beliefs(
    conn: psycopg.Connection[Any],
    principals: Iterable[tuple[str, str]],
    limits: ArmLimits = DEFAULT_POLICY.limits,
) -> list[tuple[str, str]]:
    """The beliefs table, as (schema, table), when one of ``principals`` (tenant,
    principal) holds more beliefs than the planner's estimate of them by at least
    ``limits.statistics_min_rows`` and by more than ``limits.statistics_growth_share`` of
    the estimate, the table has changed since its last ANALYZE by at least that
    shortfall, and an ANALYZE can name the principal (:data:`_PRINCIPAL_SIZE`); else
    nothing.

    The table-wide rule misses a principal that grows in a table others fill: 10,000
    beliefs of a new principal beside 30,000 of others change the table by a third, and
    its statistics, taken before it, have no principal of that name, so every statement
    of the principal's was planned for one belief (a session's read of the beliefs it
    showed went through the principal's durable index instead of the key: 11 ms against
    0.36). The table is analyzed for those two columns only (:data:`PRINCIPAL_COLUMNS`),
    which leaves the count of rows changed since the last ANALYZE as it was; a principal
    the statistics cannot name (they keep as many principals as they may, each larger
    than it) is left to the average they give, or a write of it would analyze the table
    every time."""
    for tenant_id, principal_id in sorted(set(principals)):
        key = {"t": tenant_id, "p": principal_id}
        row = conn.execute(_PRINCIPAL_SIZE, key).fetchone()
        if row is None:  # autovacuum is off for the table: its statistics are not ours
            return []
        held, since, schema, knowable = int(row[0]), int(row[1]), str(row[2]), bool(row[3])
        if held < limits.statistics_min_rows or not knowable:
            continue
        plan = conn.execute(_PRINCIPAL_ESTIMATE, key).fetchone()
        estimate = float(plan[0][0]["Plan"]["Plan Rows"]) if plan is not None else 0.0
        shortfall = held - estimate
        if (
            shortfall >= limits.statistics_min_rows
            and shortfall > limits.statistics_growth_share * estimate
            and since >= shortfall
        ):
            return [(schema, "beliefs")]
    return []


#: Moves the rows a write left in the pending list of each GIN index of a table into the
#: index proper. A manual ANALYZE leaves them there (only autovacuum's cleans it), and every
#: search of the index reads the whole list: after ``add_many`` of 2,000 episodes, each of
#: archival search's full-text probes scanned 94 pending pages (the arm 2.4 ms, 0.9 ms
#: once cleaned).
_CLEAN_GIN = (
    "SELECT gin_clean_pending_list(i.indexrelid::regclass) FROM pg_index i"
    " JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam"
    " WHERE i.indrelid = (quote_ident(%(schema)s) || '.' || quote_ident(%(table)s))::regclass"
    " AND a.amname = 'gin' AND i.indisvalid"
)


#: The columns a principal's statements are planned from when its size is what changed:
#: an ANALYZE of these alone samples as many rows but computes no other column's
#: statistics and none of the expression indexes' (0.1 s against 1.1 s at 40,000 beliefs).
PRINCIPAL_COLUMNS = ("tenant_id", "principal_id")


def analyze(
    conn: psycopg.Connection[Any],
    tables: list[tuple[str, str]],
    columns: tuple[str, ...] = (),
) -> None:
    """ANALYZE ``tables`` on ``conn`` (outside any transaction of the caller's), only
    ``columns`` of them when given (their GIN indexes' pending lists are then left to the
    next whole ANALYZE), else whole and with their GIN indexes' pending lists cleaned
    (:data:`_CLEAN_GIN`); a failure is logged, not raised: the data it would describe is
    already committed."""
    for schema, table in tables:
        statement = sql.SQL("ANALYZE (SKIP_LOCKED) {}").format(sql.Identifier(schema, table))
        if columns:
            statement = sql.SQL("{} ({})").format(
                statement, sql.SQL(", ").join(map(sql.Identifier, columns))
            )
        try:
            with conn.transaction():
                conn.execute(statement)
            if not columns:
                with conn.transaction():
                    conn.execute(_CLEAN_GIN, {"schema": schema, "table": table})
        except psycopg.Error as exc:
            _log.warning("could not analyze %s.%s after a bulk write: %s", schema, table, exc)


@contextmanager
def bulk_write(
    pool: ConnectionPool,
    watched: tuple[str, ...] = (),
    principals: Iterable[tuple[str, str]] = (),
) -> Iterator[psycopg.Connection[Any]]:
    """A connection of ``pool`` in one transaction; once it has committed, the tables it
    wrote, and those of ``watched`` (table names: tables its statements read that other
    writes fill), whose statistics are stale are analyzed (:func:`changed_tables`), and
    the beliefs table when one of ``principals`` (tenant, principal: those whose beliefs
    it wrote) has outgrown what they say of it (:func:`outgrown_beliefs`), and the
    principal's columns of a table autovacuum leaves without statistics
    (:func:`keyless_tables`). On an error the
    transaction rolls back and nothing is analyzed; a write the server cancelled is a
    :class:`~recallflow.errors.WriteCancelledError`. A connection lost before the commit
    is an error too, never a write reported done: the statistics read that runs inside
    the transaction swallowed it, and psycopg ends a transaction on a broken connection
    without committing or raising, so an add returned beliefs that were never stored."""
    try:
        with pool.connection() as conn:
            with conn.transaction() as write:
                yield conn
                try:
                    # A savepoint: a failure here must not roll back the write it describes.
                    outgrown: list[tuple[str, str]] = []
                    with conn.transaction():
                        stale = changed_tables(conn, watched=watched)
                        if not any(table == "beliefs" for _, table in stale):
                            outgrown = outgrown_beliefs(conn, principals)
                        outgrown += keyless_tables(conn, watched)
                except psycopg.Error as exc:
                    if conn.broken or conn.closed:
                        raise  # the session ended before the commit: nothing was written
                    _log.warning("could not read what a bulk write changed: %s", exc)
                    stale = outgrown = []
            if write.status is not psycopg.Transaction.Status.COMMITTED:
                # psycopg leaves a transaction on a connection that has gone bad without
                # a word (no COMMIT is sent, nothing raised): the write was not stored.
                raise psycopg.OperationalError("the connection was lost before the commit")
            analyze(conn, stale)
            analyze(conn, outgrown, PRINCIPAL_COLUMNS)
    except CANCELLED_WRITE as exc:
        raise cancelled_write(exc) from exc
