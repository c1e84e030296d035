"""A bulk write leaves the planner's statistics describing what it wrote: a history
ingested into a new store and recalled at once is planned from the rows it holds, not
from the empty tables the store started with (until autovacuum came round, up to a minute
later, recall ran 2x to 20x slower; see "Statistics after a bulk write" in
docs/operations.md). A small write leaves them to autovacuum."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest

from recallflow import DEFAULT_POLICY, Memory, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres import sessions, statistics
from recallflow.adapters.postgres.beliefs import SELECT_BELIEF
from recallflow.errors import StoreUnavailableError
from recallflow.models.store import Sensitivity
from tests.helpers import belief

TENANT = "t-stats"
START = datetime(2026, 1, 1, tzinfo=UTC)
#: The tables a recall's statements read that the bulk writes below fill.
TABLES = ("beliefs", "episodes", "belief_edges", "principal_terms", "principal_term_classes")


@pytest.fixture
def store(fresh_home: Path) -> Iterator[Memory]:
    """A new store of its own: its tables have never been analyzed."""
    with open_memory(home=fresh_home, embedder=HashingEmbedder()) as memory:
        yield memory


def _known(memory: Memory) -> dict[str, float]:
    """Each table's row count as the planner's statistics have it (-1: never analyzed)."""
    with psycopg.connect(memory.uri) as conn:
        rows = conn.execute(
            "SELECT relname, reltuples FROM pg_class WHERE relname = ANY(%s)", (list(TABLES),)
        ).fetchall()
    return {str(name): float(tuples) for name, tuples in rows}


def _history(memory: Memory, principal: str, n: int) -> None:
    """``n`` episodes, ``n`` beliefs derived from them and ``n - 1`` edges, in three bulk
    adds, as a first ingest of a user's history writes them."""
    memory.episodes.add_many(
        {
            "tenant_id": TENANT,
            "principal_id": principal,
            "id": f"e-{i}",
            "occurred_at": START + timedelta(minutes=i),
            "content": f"We talked about service {i % 97} and its region {i % 13}.",
        }
        for i in range(n)
    )
    memory.beliefs.add_many(
        belief(
            TENANT,
            principal,
            id=f"b-{i}",
            statement=f"Service {i % 97} is deployed to region {i % 13} on cluster {i}",
            subject=f"service-{i % 97}",
            entities=[f"region-{i % 13}", f"cluster-{i}"],
            source_episode_id=f"e-{i}",
        )
        for i in range(n)
    )
    memory.edges.add_many(
        {"tenant_id": TENANT, "principal_id": principal, "src_id": f"b-{i}", "dst_id": f"b-{i + 1}"}
        for i in range(n - 1)
    )


def _first_rows(memory: Memory) -> int:
    """The rows autovacuum's first ANALYZE of a table waits for, on this server."""
    with psycopg.connect(memory.uri) as conn:
        row = conn.execute("SELECT current_setting('autovacuum_analyze_threshold')::int").fetchone()
    assert row is not None
    return int(row[0])


def test_a_bulk_ingest_leaves_statistics_of_what_it_wrote(store: Memory) -> None:
    limits = DEFAULT_POLICY.limits
    small = 2  # rows of every table fewer than the server's autovacuum_analyze_threshold
    _history(store, "p-small", small)
    # A small write does not pay an ANALYZE: the tables are as unknown as before it.
    assert _known(store) == dict.fromkeys(TABLES, -1.0)

    large = 3 * limits.statistics_min_rows
    _history(store, "p-large", large)
    known = _known(store)
    # Each table's statistics count the rows written, right after the add returned.
    for table in ("beliefs", "episodes"):
        assert known[table] == small + large, table
    assert known["belief_edges"] == small + large - 2
    assert known["principal_terms"] > 0 and known["principal_term_classes"] > 0

    # A write that does not double what the statistics counted leaves them to autovacuum
    # (an ingest in batches pays an ANALYZE each time the table has doubled, not each batch).
    share = limits.statistics_growth_share
    below, part = int(share * (small + large)) - 1, limits.statistics_min_rows - 1
    for k, first in enumerate(range(0, below, part)):  # principals too small to outgrow
        _history(store, f"p-next-{k}", min(part, below - first))
    assert _known(store)["beliefs"] == small + large
    _history(store, "p-more", int(share * (small + large)) + large)
    assert _known(store)["beliefs"] > 2 * (small + large)


def test_a_failed_analyze_leaves_the_write_standing(
    store: Memory, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The ANALYZE runs after the write has committed: when it fails, the add returns its
    beliefs, they are stored, and the failure is logged."""
    monkeypatch.setattr(
        statistics, "changed_tables", lambda conn, watched: [("public", "no_such_table")]
    )
    with caplog.at_level(logging.WARNING, logger=statistics.__name__):
        stored = store.beliefs.add_many([belief(TENANT, "p-one", id="b-kept")])
    assert [b.id for b in stored] == ["b-kept"]
    assert store.beliefs.get(TENANT, "p-one", "b-kept").id == "b-kept"
    assert "could not analyze public.no_such_table" in caplog.text


def test_a_write_whose_connection_dies_before_its_commit_is_not_reported_written(
    store: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The statistics read runs inside the write's transaction, before its commit: when
    the server ends the session there, the commit never happens, so the add must fail (a
    retry-safe StoreUnavailableError), never return beliefs that were not stored."""

    def session_ended(
        conn: psycopg.Connection[object], watched: tuple[str, ...]
    ) -> list[tuple[str, str]]:
        conn.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        return []

    monkeypatch.setattr(statistics, "changed_tables", session_ended)
    with pytest.raises(StoreUnavailableError):
        store.beliefs.add_many([belief(TENANT, "p-one", id="b-lost")])
    monkeypatch.undo()
    assert store.beliefs.list(TENANT, "p-one") == []
    again = store.beliefs.add_many([belief(TENANT, "p-one", id="b-lost")])  # the retry
    assert [b.id for b in again] == ["b-lost"]
    assert store.beliefs.get(TENANT, "p-one", "b-lost").id == "b-lost"


def _index_reads(plan: dict[str, Any], table: str) -> list[str]:
    """How each node of ``plan`` that reads ``table`` reads it: its index's name, or
    the node's type when it reads no index, and the bitmap index scans under it."""
    found = []
    if plan.get("Relation Name") == table:
        found.append(str(plan.get("Index Name", plan["Node Type"])))
        found += [str(p["Index Name"]) for p in plan.get("Plans", []) if "Index Name" in p]
    for child in plan.get("Plans", []):
        if child.get("Node Type") != "Bitmap Index Scan":
            found += _index_reads(child, table)
    return found


def test_a_new_stores_session_turns_lock_their_session_through_its_own_rows(
    store: Memory,
) -> None:
    """A turn writes a few rows of what it showed; in a new store no ANALYZE had seen
    that table until autovacuum came round, and the planner, with default selectivities,
    read the session's shown beliefs through the principal's index of shown beliefs (every
    session's rows, filtered) rather than the session's own: a turn's lock read all the
    principal's sessions' rows. The turns' writes now leave the table analyzed, and the
    lock reads the session's rows through its key, right after them."""
    principal = "p-turns"
    _history(store, principal, 120)
    shown = 0
    first_rows = _first_rows(store)
    asked = 0
    while shown < 2 * first_rows:  # enough rows that the index chosen matters
        session = store.open_session(TENANT, principal)
        for _ in range(3):
            session.recall({"goal": f"Where is service {asked % 97} deployed, in which region?"})
            asked += 1
        with psycopg.connect(store.uri) as conn:
            counted = conn.execute(
                "SELECT count(*) FROM session_shown WHERE tenant_id = %s AND principal_id = %s",
                (TENANT, principal),
            ).fetchone()
        shown = int(counted[0]) if counted else 0
        assert asked < 60, "the turns showed too few beliefs for the test to mean anything"
    info = session.info
    with psycopg.connect(store.uri) as conn:
        row = conn.execute(
            "EXPLAIN (FORMAT JSON) " + sessions._LOCK,
            {
                "sha": info.prefix_sha256,
                "t": info.tenant_id,
                "p": info.principal_id,
                "id": info.id,
                "as_of": datetime.now(UTC),
                "ceiling": int(Sensitivity.SECRET),
                "project": None,
            },
        ).fetchone()
    assert row is not None
    reads = _index_reads(row[0][0]["Plan"], "session_shown")
    # Planned from the rows the turns wrote: through the session's key, or, the table
    # being this small, read whole (a few pages); never through the principal's index.
    assert reads and "session_shown_belief_idx" not in reads, reads
    with psycopg.connect(store.uri) as conn:
        known = conn.execute(
            "SELECT reltuples FROM pg_class WHERE relname = 'session_shown'"
        ).fetchone()
    assert known is not None and known[0] >= first_rows


def test_single_adds_leave_a_new_table_analyzed_once_it_holds_a_few_rows(
    store: Memory,
) -> None:
    """Writes of one belief each are counted together: the add after which the table has
    changed by the server's ``autovacuum_analyze_threshold`` rows since it was made analyzes it, as
    autovacuum's first round would have, but before the next recall is planned."""
    first_rows = _first_rows(store)
    for i in range(first_rows - 1):
        store.beliefs.add(belief(TENANT, "p-single", id=f"b-{i}", subject=f"topic-{i}"))
    assert _known(store)["beliefs"] == -1.0
    store.beliefs.add(belief(TENANT, "p-single", id="b-last", subject="topic-last"))
    assert _known(store)["beliefs"] == first_rows


def _add_beliefs(memory: Memory, principal: str, first: int, n: int) -> None:
    memory.beliefs.add_many(
        belief(
            TENANT,
            principal,
            id=f"b-{i}",
            statement=f"Service {i % 97} runs in region {i % 13} on cluster {i}",
            subject=f"service-{i % 97}",
        )
        for i in range(first, first + n)
    )


def _grow_beside_larger_ones(store: Memory, *, autovacuum: bool) -> None:
    """Three principals of twice ``statistics_min_rows`` beliefs, analyzed, then
    ``p-grown`` written to three times that in writes below every table-wide number."""
    limits = DEFAULT_POLICY.limits
    for k in range(3):
        _add_beliefs(store, f"p-large-{k}", 0, 2 * limits.statistics_min_rows)
    with psycopg.connect(store.uri, autocommit=True) as conn:
        conn.execute("ANALYZE beliefs")  # the store long analysed
        if not autovacuum:
            conn.execute("ALTER TABLE beliefs SET (autovacuum_enabled = false)")
    batch = limits.statistics_min_rows // 2
    for first in range(0, 3 * limits.statistics_min_rows, batch):
        _add_beliefs(store, "p-grown", first, batch)


def test_a_principal_grown_beside_larger_ones_is_planned_for_its_size(store: Memory) -> None:
    """A principal that grows in a table others fill changes the table by too small a share
    for the table-wide rule, and the statistics taken before it know no principal of its
    name: every statement of its beliefs was planned for one belief, and a session's read
    of the beliefs it showed, by their ids, went through another of the principal's
    indexes, reading all its beliefs. The writes that grow it now analyze the table once
    it has outgrown the planner's estimate, and the read goes through the key."""
    _grow_beside_larger_ones(store, autovacuum=True)
    ids = [f"b-{i}" for i in range(0, 400, 50)]
    with psycopg.connect(store.uri) as conn:
        row = conn.execute(
            "EXPLAIN (FORMAT JSON) " + SELECT_BELIEF + " WHERE tenant_id = %s"
            " AND principal_id = %s AND id = ANY(%s)",
            (TENANT, "p-grown", ids),
        ).fetchone()
    assert row is not None
    plan = row[0][0]["Plan"]
    assert plan.get("Index Name") == "beliefs_pkey", plan


def test_a_grown_principal_leaves_a_table_with_autovacuum_off_as_it_was(store: Memory) -> None:
    """Whoever switched autovacuum off for the beliefs keeps their statistics: growing a
    principal does not analyze them either."""
    _grow_beside_larger_ones(store, autovacuum=False)
    assert _known(store)["beliefs"] == 3 * 2 * DEFAULT_POLICY.limits.statistics_min_rows


#: The statement PostgreSQL runs at COMMIT for each row a deferred foreign key checks:
#: the referenced row, by its key, locked.
_KEY_CHECK = (
    "EXPLAIN (FORMAT JSON) SELECT 1 FROM ONLY {table} x WHERE tenant_id = %s"
    " AND principal_id = %s AND id = %s FOR KEY SHARE OF x"
)


def _key_plan(conn: psycopg.Connection[Any], table: str, key: tuple[str, str, str]) -> Any:
    """The plan of the foreign-key check of ``key`` in ``table``, as a cached check's."""
    conn.execute("SET plan_cache_mode = force_generic_plan")
    row = conn.execute(_KEY_CHECK.format(table=table), key).fetchone()
    assert row is not None
    return row[0][0]["Plan"]["Plans"][0]


def _analyzed(memory: Memory, table: str) -> int:
    with psycopg.connect(memory.uri) as conn:
        row = conn.execute(
            "SELECT analyze_count FROM pg_stat_user_tables WHERE relname = %s", (table,)
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_table_with_autovacuum_off_and_no_statistics_checks_keys_through_its_key(
    store: Memory,
) -> None:
    """With autovacuum off and no ANALYZE ever run, the planner took the principal's two
    columns to keep almost no rows, and looked a key up through whichever index began
    with them: each foreign-key check at a write's COMMIT (a belief's episode, an edge's
    beliefs) and the write's own read by id read every row of the principal, and a
    batch's commit grew with the square of the principal (batches of 2,000 beliefs: 2.8 s
    growing to 28.8 s at 26,000, against 2.0-3.4 s). The write now takes the statistics
    of those two columns once, and the check reads the one row through the key; the
    statistics are then left as they are."""
    with psycopg.connect(store.uri, autocommit=True) as conn:
        for table in TABLES:
            conn.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
    n = 3 * _first_rows(store)
    _history(store, "p-off", n)
    with psycopg.connect(store.uri) as conn:
        for table, key in (("beliefs", "b-7"), ("episodes", "e-7")):
            plan = _key_plan(conn, table, (TENANT, "p-off", key))
            assert plan.get("Index Name") == f"{table}_pkey", (table, plan)
            assert "Filter" not in plan, (table, plan)
        row = conn.execute(
            "EXPLAIN (FORMAT JSON) " + SELECT_BELIEF + " WHERE (tenant_id, principal_id, id) IN"
            " (SELECT * FROM unnest(%s::text[], %s::text[], %s::text[]))",
            ([TENANT] * 3, ["p-off"] * 3, ["b-1", "b-2", "b-3"]),
        ).fetchone()
    assert row is not None
    scans = [p for p in _nodes(row[0][0]["Plan"]) if p.get("Relation Name") == "beliefs"]
    assert [p.get("Index Name") for p in scans] == ["beliefs_pkey"], scans
    # The columns' statistics were taken once; the next writes leave them to the operator.
    taken = _analyzed(store, "beliefs")
    assert taken == 1
    _history(store, "p-off-2", n)
    assert _analyzed(store, "beliefs") == taken


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


def test_a_table_whose_principal_columns_are_to_have_no_statistics_gets_none(
    store: Memory,
) -> None:
    """An operator who set the principal's columns' statistics target to 0 wants the
    table to have none: the write takes none either."""
    with psycopg.connect(store.uri, autocommit=True) as conn:
        conn.execute(
            "ALTER TABLE beliefs SET (autovacuum_enabled = false),"
            " ALTER COLUMN tenant_id SET STATISTICS 0, ALTER COLUMN principal_id SET STATISTICS 0"
        )
    _history(store, "p-none", 3 * _first_rows(store))
    assert _analyzed(store, "beliefs") == 0
