"""The schema stays ready to be distributed by principal (see "Storage" in
docs/architecture.md and docs/scaling.md), checked over the live catalog of the migrated
store, so a table added by a later migration cannot quietly break it:

- every table but the store-wide reference tables has ``tenant_id`` and ``principal_id``;
- every primary key, unique constraint and unique index of such a table leads with
  ``tenant_id`` and includes ``principal_id`` (a distributed table's uniqueness must
  include the distribution column);
- every foreign key of such a table carries ``tenant_id`` and ``principal_id`` onto the
  same columns of the referenced table (rows that reference each other live on one node),
  or references a reference table;
- a reference table references no per-principal table;
- no statement of a recall reads a per-principal table without pinning the principal,
  and none names a second principal: recorded from real recalls and checked with
  ``EXPLAIN`` on the server.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, ClassVar

import psycopg
import pytest
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool

from recallflow import Memory
from recallflow.adapters.postgres.pool import RECALL_SETTINGS
from recallflow.adapters.postgres.search import PostgresBeliefSearch
from tests.helpers import belief, request

#: Store-wide tables, replicated to every node as Citus reference tables: they hold no
#: principal's data (see docs/scaling.md). ``erasures`` is the audit of erased
#: principals and beliefs: it keeps a digest of the principal, never its id, so it cannot
#: be keyed by one; it is written once per erasure. ``erased_items`` keeps, for an
#: erasure of a whole principal, the digests of each belief and episode it took, keyed the
#: same way. ``embedder_calibrations`` holds each embedder's calibration against unrelated
#: text, the same for every principal.
REFERENCE_TABLES = frozenset(
    {
        "schema_migrations",
        "store_settings",
        "policy_versions",
        "erasures",
        "erased_items",
        "embedder_calibrations",
    }
)


def _tables(conn: psycopg.Connection[Any]) -> list[str]:
    rows = conn.execute(
        "SELECT c.relname FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace"
        " AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1"
    ).fetchall()
    return [str(r[0]) for r in rows]


def _columns(conn: psycopg.Connection[Any], table: str, attnums: list[int]) -> list[str]:
    rows = conn.execute(
        "SELECT a.attnum, a.attname FROM pg_attribute a"
        " WHERE a.attrelid = %s::regclass AND a.attnum = ANY(%s)",
        (table, attnums),
    ).fetchall()
    names = {int(n): str(name) for n, name in rows}
    return [names[n] for n in attnums]


@pytest.fixture(scope="module")
def catalog(memory: Memory) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(memory.uri, autocommit=True) as conn:
        yield conn


def test_the_reference_tables_exist_and_everything_else_is_per_principal(
    catalog: psycopg.Connection[Any],
) -> None:
    tables = _tables(catalog)
    assert set(tables) >= REFERENCE_TABLES
    for table in set(tables) - REFERENCE_TABLES:
        columns = set(
            str(r[0])
            for r in catalog.execute(
                "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass"
                " AND attnum > 0 AND NOT attisdropped",
                (table,),
            ).fetchall()
        )
        assert {"tenant_id", "principal_id"} <= columns, f"{table} has no principal columns"


def test_every_key_of_a_per_principal_table_leads_with_tenant_and_holds_the_principal(
    catalog: psycopg.Connection[Any],
) -> None:
    problems = []
    for table in set(_tables(catalog)) - REFERENCE_TABLES:
        uniques = catalog.execute(
            "SELECT i.indexrelid::regclass::text, i.indkey::int2[]::int[], i.indexprs IS NOT NULL"
            " FROM pg_index i WHERE i.indrelid = %s::regclass AND i.indisunique",
            (table,),
        ).fetchall()
        if not any(True for _ in uniques):
            problems.append(f"{table}: no primary key or unique index")
        for name, attnums, has_expressions in uniques:
            if has_expressions or 0 in attnums:
                problems.append(f"{table}.{name}: a unique index on an expression")
                continue
            columns = _columns(catalog, table, list(attnums))
            if columns[0] != "tenant_id" or "principal_id" not in columns:
                problems.append(f"{table}.{name} on {columns}")
    assert problems == []


def test_every_foreign_key_stays_inside_one_principal(
    catalog: psycopg.Connection[Any],
) -> None:
    problems = []
    rows = catalog.execute(
        "SELECT conname, conrelid::regclass::text, confrelid::regclass::text,"
        " conkey::int[], confkey::int[] FROM pg_constraint"
        " WHERE contype = 'f' AND connamespace = current_schema()::regnamespace"
    ).fetchall()
    for name, table, referenced, keys, referenced_keys in rows:
        if table in REFERENCE_TABLES:
            if referenced not in REFERENCE_TABLES:
                problems.append(f"reference table {table} references {referenced} ({name})")
            continue
        if referenced in REFERENCE_TABLES:
            continue
        pairs = dict(
            zip(
                _columns(catalog, table, list(keys)),
                _columns(catalog, referenced, list(referenced_keys)),
                strict=True,
            )
        )
        if pairs.get("tenant_id") != "tenant_id" or pairs.get("principal_id") != "principal_id":
            problems.append(f"{table}.{name} → {referenced} on {pairs}")
    assert problems == []


class _RecordingCursor(psycopg.RawCursor[Any]):
    """Remembers every statement it runs, with its parameters (the recall's statements are
    compiled to PostgreSQL's ``$n`` placeholders and sent through a raw cursor)."""

    statements: ClassVar[list[tuple[str, Any]]] = []

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
        text = query.decode() if isinstance(query, bytes) else str(query)
        _RecordingCursor.statements.append((text, params))
        return super().execute(query, params, **kwargs)


def _configure_recording(conn: psycopg.Connection[Any]) -> None:
    conn.cursor_factory = _RecordingCursor


#: Tables that hold one principal's rows (everything but the reference tables).
def _per_principal(catalog: psycopg.Connection[Any]) -> set[str]:
    return set(_tables(catalog)) - REFERENCE_TABLES


def _scans(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _scans(child)


def _conditions(node: dict[str, Any]) -> str:
    keys = ("Index Cond", "Recheck Cond", "Filter", "Join Filter", "Hash Cond")
    return " ".join(str(node.get(k, "")) for k in keys)


def test_no_recall_statement_reads_another_principal(
    memory: Memory, catalog: psycopg.Connection[Any], tenant: str
) -> None:
    texts = [
        "The billing service deploys to fly.io from the main branch",
        "Billing webhooks retry with exponential backoff",
        "Alice owns the billing dashboard",
    ]
    for principal in ("p-one", "p-two"):
        memory.beliefs.add_many(
            [
                belief(tenant, principal, id=f"b-{i}", statement=t, subject="billing")
                for i, t in enumerate(texts)
            ]
        )
        memory.edges.add_many(
            [{"tenant_id": tenant, "principal_id": principal, "src_id": "b-0", "dst_id": "b-1"}]
        )
    _RecordingCursor.statements = []
    with _recording_pool(memory.uri) as pool:
        flow = memory.flow("in_turn")
        flow.run(
            {
                "request": request(
                    tenant,
                    "p-one",
                    "How does billing deploy?",
                    working_state={"entities": ["billing"]},
                ),
                "trace_id": "tr-distribution",
                "ports": replace(memory._ports, belief_search=PostgresBeliefSearch(pool)),
            }
        )
    recorded = list(_RecordingCursor.statements)
    assert recorded, "the recall ran no statement on the recall pool"
    tables = _per_principal(catalog)
    read: set[str] = set()
    for text, params in recorded:
        if text.lstrip().upper().startswith(("SET ", "SELECT SET_CONFIG")):
            continue
        explained = (
            psycopg.RawCursor(catalog)
            .execute(("EXPLAIN (FORMAT JSON, VERBOSE) " + text).encode(), params)
            .fetchone()
        )
        assert explained is not None
        plan = json.loads(explained[0]) if isinstance(explained[0], str) else explained[0]
        for node in _scans(plan[0]["Plan"]):
            relation = node.get("Relation Name")
            if relation not in tables:
                continue
            read.add(str(relation))
            conditions = _conditions(node)
            assert "principal_id" in conditions, f"{relation} read unpinned in: {text[:120]}"
        principals = set(re.findall(r"principal_id\)? = '([^']*)'", json.dumps(plan)))
        assert principals <= {"p-one"}, f"{principals} in: {text[:120]}"
    # The check saw the arms' tables, so it checked something.
    assert {"beliefs", "belief_edges", "principal_terms"} <= read, read


@contextlib.contextmanager
def _recording_pool(uri: str) -> Iterator[ConnectionPool]:
    """A pool like the recall pool whose cursors record what they run."""

    def configure(conn: psycopg.Connection[Any]) -> None:
        register_vector(conn)
        for name, value in RECALL_SETTINGS.items():
            psycopg.Cursor(conn).execute("SELECT set_config(%s, %s, false)", (name, value))

    pool: ConnectionPool = ConnectionPool(
        uri,
        min_size=1,
        max_size=4,
        kwargs={"autocommit": True, "cursor_factory": _RecordingCursor},
        configure=configure,
        open=False,
    )
    pool.open(wait=True)
    _RecordingCursor.statements.clear()
    try:
        yield pool
    finally:
        pool.close()
