"""The semantic arm's exact search reads a principal's vectors from ``beliefs_vectors_idx``
alone (see "Storage" in docs/architecture.md): the index carries every column the exact
branch reads — the vector, and every column of the hard filter in both its shapes, the
successor lookup of a superseded belief included — so the search never reads a belief's
heap row or its out-of-line vector, and finds the same beliefs, with the same scores, as
the search through the heap. A column added to the hard filter but not to the index
would put the heap back on this path: the first test fails then."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

import psycopg
import pytest
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool

from recallflow import Memory, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.pool import RECALL_SETTINGS
from recallflow.adapters.postgres.search import PostgresBeliefSearch
from recallflow.models.stages import HardFilter
from recallflow.models.store import LifecycleState, Sensitivity
from recallflow.policy import ArmLimits
from recallflow.ports import RawHits
from tests.helpers import belief, made_home

INDEX = "beliefs_vectors_idx"
TENANT = "t-vectors"
#: Always exact: no principal of this store is this many times the root of its table.
LIMITS = ArmLimits(per_arm=10, semantic_min_similarity=-1.0, semantic_exact_factor=1e9)
NOW = datetime(2026, 6, 1, tzinfo=UTC)
#: Before the successor of ``b-old`` became true: ``b-old`` is live then, ``b-new`` not yet.
BEFORE = datetime(2025, 6, 1, tzinfo=UTC)
STATEMENTS = [
    f"The {a} service {b} {c}"
    for a in ("billing", "search", "payments", "ledger", "mail")
    for b in ("retries", "caches", "shards", "queues")
    for c in ("webhooks", "invoices", "sessions")
]
QUERIES = ("How does billing retry webhooks?", "mail queues", "ledger shards sessions nightly")


class _RecordingCursor(psycopg.RawCursor[Any]):
    """A raw cursor that keeps the last semantic statement it ran."""

    semantic: ClassVar[list[tuple[bytes, list[Any]]]] = []

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
        if isinstance(query, bytes) and b"<=>" in query:
            _RecordingCursor.semantic.append((query, list(params or [])))
        return super().execute(query, params, **kwargs)


@contextlib.contextmanager
def _pool(uri: str, settings: dict[str, str]) -> Iterator[ConnectionPool]:
    """A pool like the recall pool, with ``settings`` on every connection."""

    def configure(conn: psycopg.Connection[Any]) -> None:
        register_vector(conn)
        for name, value in {**RECALL_SETTINGS, **settings}.items():
            psycopg.Cursor(conn).execute("SELECT set_config(%s, %s, false)", (name, value))

    pool: ConnectionPool = ConnectionPool(
        uri,
        min_size=1,
        max_size=2,
        kwargs={"autocommit": True, "cursor_factory": _RecordingCursor},
        configure=configure,
        open=False,
    )
    pool.open(wait=True)
    try:
        yield pool
    finally:
        pool.close()


#: No sequential or bitmap scan, so the planner takes the index-only scan whenever one is
#: possible at all (at scale it is its cheapest choice; in a store this small a sequential
#: scan would be).
_INDEX_ONLY = {"enable_seqscan": "off", "enable_bitmapscan": "off"}
#: The heap's path, as the search read it before the index existed.
_THROUGH_THE_HEAP = {"enable_indexonlyscan": "off"}


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory, made_pgdata: Path) -> Iterator[Memory]:
    """A store of its own, written once: the planner's choice depends on the table's
    statistics and on what vacuum could mark all-visible, which other tests' rows and open
    transactions would change."""
    home = made_home(made_pgdata, tmp_path_factory.mktemp("vectors-home"))
    with open_memory(home=home, embedder=HashingEmbedder()) as memory:
        _store(memory, TENANT)
        yield memory


def _store(memory: Memory, tenant: str) -> None:
    """Two principals, each with a superseded belief (so the filter's successor lookup
    runs), vacuumed so the visibility map lets an index-only scan skip the heap."""
    for principal in ("p-one", "p-two"):
        memory.beliefs.add_many(
            [
                belief(tenant, principal, id=f"b-{i}", statement=s, subject="service")
                for i, s in enumerate(STATEMENTS)
            ]
            + [
                belief(
                    tenant,
                    principal,
                    id="b-old",
                    statement="The billing service retries webhooks hourly",
                    state="superseded",
                    superseded_by="b-new",
                ),
                belief(
                    tenant,
                    principal,
                    id="b-new",
                    statement="The billing service retries webhooks nightly",
                    supersedes="b-old",
                    valid_from=datetime(2026, 1, 1, tzinfo=UTC),
                ),
            ]
        )
    with psycopg.connect(memory.uri, autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE) beliefs")


#: Each shape of the hard filter: active beliefs now and as history (a superseded belief
#: passes while its successor was not yet true, a lookup of the successor's row), and
#: superseded beliefs asked for by their state (no lookup).
SHAPES = (
    ((LifecycleState.ACTIVE,), NOW),
    ((LifecycleState.ACTIVE,), BEFORE),
    ((LifecycleState.ACTIVE, LifecycleState.SUPERSEDED), NOW),
)


def _filter(tenant: str, states: tuple[LifecycleState, ...], as_of: datetime) -> HardFilter:
    return HardFilter(
        tenant_id=tenant,
        principal_id="p-one",
        states=states,
        as_of=as_of,
        known_as_of=as_of,
        sensitivity_ceiling=Sensitivity.PERSONAL,
    )


def _search(memory: Memory, pool: ConnectionPool, f: HardFilter, query: str) -> RawHits:
    _RecordingCursor.semantic.clear()
    return PostgresBeliefSearch(pool).semantic(f, memory.embedder.embed([query]), LIMITS)


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


def test_the_exact_search_reads_no_heap_row(memory: Memory) -> None:
    tenant = TENANT
    with _pool(memory.uri, _INDEX_ONLY) as pool:
        for states, as_of in SHAPES:
            assert _search(memory, pool, _filter(tenant, states, as_of), QUERIES[0])
            text, params = _RecordingCursor.semantic[-1]
            with pool.connection() as conn:
                row = (
                    psycopg.RawCursor(conn)
                    .execute(b"EXPLAIN (ANALYZE, FORMAT JSON) " + text, params)
                    .fetchone()
                )
            assert row is not None
            plan = row[0] if isinstance(row[0], list) else json.loads(row[0])
            scans = [
                n
                for n in _nodes(plan[0]["Plan"])
                if n.get("Relation Name") == "beliefs"
                and n.get("Actual Loops", 0) > 0
                and n.get("Alias") == "b"
            ]
            assert scans, "the exact branch read no beliefs"
            for node in scans:
                assert (node["Node Type"], node.get("Index Name")) == ("Index Only Scan", INDEX)
                assert node["Heap Fetches"] == 0


def test_the_index_finds_what_the_heap_finds(memory: Memory) -> None:
    tenant = TENANT
    with (
        _pool(memory.uri, _INDEX_ONLY) as through_index,
        _pool(memory.uri, _THROUGH_THE_HEAP) as through_heap,
    ):
        for states, as_of in SHAPES:
            f = _filter(tenant, states, as_of)
            for query in QUERIES:
                found = _search(memory, through_index, f, query)
                assert found == _search(memory, through_heap, f, query)
                assert len(found) == LIMITS.per_arm
        # The history is read right: the belief true then, not its successor.
        ids = [
            i for i, _ in _search(memory, through_index, _filter(tenant, *SHAPES[1]), QUERIES[0])
        ]
        assert "b-old" in ids and "b-new" not in ids
        ids = [
            i for i, _ in _search(memory, through_index, _filter(tenant, *SHAPES[0]), QUERIES[0])
        ]
        assert "b-new" in ids and "b-old" not in ids
