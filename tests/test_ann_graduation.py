"""Only graduated principals' beliefs are in the HNSW index, and the semantic arm takes
the index only for them: a principal's search finds the same nearest beliefs through the
index as exactly, whether its beliefs were written before or after it graduated, and an
ungraduated principal is never searched through an index that does not hold it (see
"Storage" and "Arms" in docs/architecture.md)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import psycopg
import pytest

from recallflow import DEFAULT_POLICY, Memory, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.ann_index import TABLE_ROWS
from recallflow.models.stages import HardFilter
from recallflow.models.store import LifecycleState, Sensitivity
from recallflow.policy import ArmLimits
from tests.helpers import belief, made_home

#: Always exact (any principal is smaller than this times the root of the table) / never.
EXACT, INDEX = 1e9, 0.0
#: ef_search this high makes the HNSW scan of a principal of this size exact in practice.
LIMITS = ArmLimits(per_arm=10, semantic_min_similarity=-1.0, hnsw_ef_search=1000)
NOW = datetime(2026, 6, 1, tzinfo=UTC)
WORDS = (
    ("billing", "search", "payments", "mobile", "ledger", "identity", "reports", "mail"),
    ("retries", "caches", "shards", "batches", "logs", "signs", "queues", "streams"),
    ("webhooks", "invoices", "sessions", "tokens", "exports", "images", "events", "orders"),
    ("hourly", "nightly", "weekly", "on deploy", "on failure", "in staging", "by region"),
)
STATEMENTS = [f"The {a} service {b} {c} {d}" for a, b, c, d in itertools.product(*WORDS)]
#: Beliefs whose statistics only a test's own ANALYZE takes: autovacuum off, and no
#: statistics of the principal's columns (which a write takes once for a table with
#: autovacuum off and none; see "Statistics after a bulk write" in docs/operations.md).
UNTOUCHED = (
    "ALTER TABLE beliefs SET (autovacuum_enabled = false),"
    " ALTER COLUMN tenant_id SET STATISTICS 0, ALTER COLUMN principal_id SET STATISTICS 0"
)
QUERIES = [
    "How does billing handle webhooks?",
    "which service shards sessions nightly",
    "mail queues events on failure",
]


@pytest.fixture(scope="module")
def store(
    tmp_path_factory: pytest.TempPathFactory, made_pgdata: Path
) -> Iterator[tuple[Memory, Path]]:
    """A store of its own, so the table's size (which sets the threshold) is this file's.

    Autovacuum is off for its beliefs, so the table's estimated size moves only when a
    test analyzes it: a test computes a threshold from the estimate and then writes (or
    reopens) expecting the same one. Autovacuum comes round about a minute after the
    server starts; between the two, it turned an unknown size into the table's, and a
    principal written just large enough was no longer (a slow run reaches it). The
    principal's columns have no statistics either, or the first write would take them
    (and the table's size with them) for a table autovacuum leaves without any."""
    home = made_home(made_pgdata, tmp_path_factory.mktemp("ann-home"))
    memory = open_memory(home=home, embedder=HashingEmbedder())
    with psycopg.connect(memory.uri, autocommit=True) as conn:
        conn.execute(UNTOUCHED)
    try:
        yield memory, home
    finally:
        memory.close()


def _write(memory: Memory, principal: str, statements: list[str], start: int) -> None:
    memory.beliefs.add_many(
        [
            belief("t-ann", principal, id=f"{principal}-{start + i}", statement=s)
            for i, s in enumerate(statements)
        ]
    )


def _flags(memory: Memory, principal: str) -> tuple[bool, int, int]:
    """(graduated, beliefs in the index, beliefs out of it)."""
    with psycopg.connect(memory.uri) as conn:
        graduated = conn.execute(
            "SELECT ann_indexed FROM principal_sizes WHERE tenant_id = 't-ann'"
            " AND principal_id = %s",
            (principal,),
        ).fetchone()
        counts = conn.execute(
            "SELECT count(*) FILTER (WHERE ann_indexed), count(*) FILTER (WHERE NOT ann_indexed)"
            " FROM beliefs WHERE tenant_id = 't-ann' AND principal_id = %s",
            (principal,),
        ).fetchone()
    assert graduated is not None and counts is not None
    return bool(graduated[0]), int(counts[0]), int(counts[1])


def _threshold(memory: Memory, size: int, *, written: bool = False) -> float:
    """The size at which a principal graduates, from the policy and the table's estimate.

    ``written``: as read once ``size`` more rows are in the table, at most. Once an ANALYZE
    has counted the table, its estimate grows with the pages a write adds, by up to half as
    much again as the rows written (see the last test of this file)."""
    with psycopg.connect(memory.uri) as conn:
        row = conn.execute("SELECT coalesce(" + TABLE_ROWS + ", 0)")
        rows = float(row.fetchone()[0])  # type: ignore[index]
    if written:
        rows = 1.5 * (rows + size)
    limits = DEFAULT_POLICY.limits
    factor = limits.semantic_exact_factor * limits.semantic_graduation_share
    return factor * math.sqrt(max(rows, size))


def _search(memory: Memory, principal: str, query: str, factor: float) -> list[str]:
    hard_filter = HardFilter(
        tenant_id="t-ann",
        principal_id=principal,
        states=(LifecycleState.ACTIVE,),
        as_of=NOW,
        known_as_of=NOW,
        sensitivity_ceiling=Sensitivity.PERSONAL,
    )
    limits = LIMITS.model_copy(update={"semantic_exact_factor": factor})
    vectors = memory.embedder.embed([query])
    return [i for i, _ in memory._ports.belief_search.semantic(hard_filter, vectors, limits)]


def _assert_nearest(
    memory: Memory, principal: str, statements: list[str], query: str, found: list[str]
) -> None:
    """``found`` are the true top hits: their cosines, computed here from the vectors,
    are the highest ones (ties, and float32 rounding, may order equals either way)."""
    vectors = memory.embedder.embed(statements).astype(np.float64)
    q = memory.embedder.embed([query]).astype(np.float64)[0]
    cosine = vectors @ q / (np.linalg.norm(vectors, axis=1) * np.linalg.norm(q))
    by_id = {f"{principal}-{i}": float(c) for i, c in enumerate(cosine)}
    best = sorted(by_id.values(), reverse=True)[: LIMITS.per_arm]
    assert len(set(found)) == len(found) == len(best)
    assert [by_id[i] for i in found] == pytest.approx(best, abs=1e-5)


def test_a_small_principal_stays_out_of_the_index_and_is_still_found(
    store: tuple[Memory, Path],
) -> None:
    memory, _ = store
    statements = STATEMENTS[:60]
    _write(memory, "small", statements, 0)
    assert _flags(memory, "small") == (False, 0, 60)
    for query in QUERIES:
        # A policy that would search it through the index still finds every belief.
        _assert_nearest(memory, "small", statements, query, _search(memory, "small", query, INDEX))
        _assert_nearest(memory, "small", statements, query, _search(memory, "small", query, EXACT))


def test_rows_written_before_and_after_graduation_are_found_through_the_index(
    store: tuple[Memory, Path],
) -> None:
    memory, _ = store
    before = STATEMENTS[1000:1100]
    _write(memory, "grows", before, 0)
    assert _flags(memory, "grows") == (False, 0, 100)
    # The write that makes it large enough graduates it: just above the threshold.
    size = 100
    while size < _threshold(memory, size):
        size += 1
    crossing = STATEMENTS[1100 : 1000 + size + 1]
    _write(memory, "grows", crossing, 100)
    after = STATEMENTS[1001 + size : 1101 + size]
    _write(memory, "grows", after, size + 1)
    written = [*before, *crossing, *after]
    assert _flags(memory, "grows") == (True, len(written), 0)
    for query in [*QUERIES, *after[:3], *before[:3]]:
        _assert_nearest(memory, "grows", written, query, _search(memory, "grows", query, INDEX))
        _assert_nearest(memory, "grows", written, query, _search(memory, "grows", query, EXACT))


def test_an_open_graduates_large_principals_before_building_a_missing_index(
    store: tuple[Memory, Path],
) -> None:
    """A store migrated from the store-wide index has none: the next open builds it."""
    memory, _ = store
    _write(memory, "migrated", STATEMENTS[3000:3060], 0)
    # The open judges "migrated-big" against the table with its rows in: large enough then,
    # whatever the file's other tests wrote and analyzed before (in any order).
    big = 1
    while big < _threshold(memory, big, written=True):
        big += 1
    pool = [*STATEMENTS[3100:], *STATEMENTS[:3000]]  # wraps round past the end
    assert big + 10 <= len(pool)
    _write(memory, "migrated-big", pool[: big + 10], 0)
    with psycopg.connect(memory.uri, autocommit=True) as conn:
        conn.execute("DROP INDEX beliefs_embedding_ann_idx")
        conn.execute("UPDATE beliefs SET ann_indexed = false WHERE principal_id LIKE 'migrated%'")
        conn.execute("UPDATE principal_sizes SET ann_indexed = false")
    with open_memory(memory.uri, embedder=HashingEmbedder()) as reopened:
        assert _flags(reopened, "migrated") == (False, 0, 60)
        assert _flags(reopened, "migrated-big") == (True, big + 10, 0)
        with psycopg.connect(reopened.uri) as conn:
            index = conn.execute(
                "SELECT indexdef FROM pg_indexes WHERE indexname = 'beliefs_embedding_ann_idx'"
            ).fetchone()
        assert index is not None and "WHERE ann_indexed" in index[0]
        query = STATEMENTS[3105]
        assert _search(reopened, "migrated-big", query, INDEX)[0] == "migrated-big-5"


def test_a_new_principal_is_judged_against_the_whole_table(store: tuple[Memory, Path]) -> None:
    """A principal's first write is measured against the table's size, like every later
    one: a batch large enough to graduate it in an empty table does not in a full one."""
    memory, _ = store
    limits = DEFAULT_POLICY.limits
    first = math.ceil((limits.semantic_exact_factor * limits.semantic_graduation_share) ** 2)
    ballast = [f"Ballast note {i} on topic {i % 37}" for i in range(3 * first)]
    _write(memory, "ballast", ballast, 0)
    with psycopg.connect(memory.uri, autocommit=True) as conn:
        conn.execute("ANALYZE beliefs")
    assert first < _threshold(memory, first)  # the table is large enough to matter
    _write(memory, "newcomer", STATEMENTS[:first], 0)
    assert _flags(memory, "newcomer") == (False, 0, first)


def test_the_tables_size_is_read_as_the_planner_extrapolates_it(fresh_home: Path) -> None:
    """The size the graduation and the semantic arm's choice read follows the table as it
    grows, not only as of its last ANALYZE: a store read right after a bulk write must
    answer as it will once autovacuum has been round (otherwise the same rows are searched
    through the index or exactly depending on when it last ran). Before any ANALYZE that
    saw rows the size is unknown (the arm then searches exactly)."""
    with (
        open_memory(home=fresh_home, embedder=HashingEmbedder()) as memory,
        psycopg.connect(memory.uri, autocommit=True) as conn,
    ):
        conn.execute(UNTOUCHED)

        def sizes() -> tuple[float | None, float, int]:
            row = conn.execute(
                "SELECT " + TABLE_ROWS + ", (SELECT reltuples FROM pg_class"
                " WHERE oid = 'beliefs'::regclass), (SELECT count(*) FROM beliefs)"
            ).fetchone()
            assert row is not None
            return row[0], float(row[1]), int(row[2])

        _write(memory, "first", STATEMENTS[:300], 0)
        assert sizes()[0] is None
        conn.execute("ANALYZE beliefs")
        estimate, _, count = sizes()
        assert estimate == pytest.approx(count, rel=0.05)
        _write(memory, "second", STATEMENTS[300:1500], 0)
        estimate, analyzed, count = sizes()
        assert analyzed < 400 < count  # the last ANALYZE's count lags the table
        # Scaled by the pages the table has grown by (pages the server adds ahead of a
        # bulk write count as if filled, as the planner counts them).
        assert estimate is not None and 2 * analyzed <= estimate <= 1.5 * count
