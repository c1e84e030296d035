"""Scale stores for the benchmarks, built once and cached.

Every tier lives in its own database on one embedded server whose home is
``RECALLFLOW_BENCH_HOME`` (default ``.bench-home/`` in the repository). The database name
is the cache key — generator version, tier and embedder — so a second ``make bench``
reuses the stores, and a changed generator builds fresh ones (and drops stale ones).
A store counts as built only once its ``bench_dataset`` marker row is written, so an
interrupted build is dropped and redone rather than half-used.

A tier's store holds its measured principal among neighbours; :func:`alone` is the same
principal (the same beliefs, requests and ground truth) in a store of its own, the
commonest embedded store (one user), built and cached the same way under its own name
(``<tier>-alone``).

Loading follows bulk-load practice and records what it costs: the secondary indexes of
``beliefs`` are dropped, episodes, beliefs (``Memory.beliefs.add_many`` → COPY, in batches
that never split a supersession chain) and edges are loaded, then each index is rebuilt
from its own definition and timed, then ``VACUUM (ANALYZE)``. The embedder is the hashing embedder
unless ``RECALLFLOW_BENCH_EMBEDDER`` names another; the report says which.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from benchmarks.datagen import (
    GENERATOR_VERSION,
    TENANT,
    TIERS,
    BenchQuery,
    TierSpec,
    bench_queries,
    generate_principal,
)
from recallflow import Memory, open_memory
from recallflow.adapters.embedders import embedder_from_name
from recallflow.adapters.postgres.bootstrap import ensure_database
from recallflow.adapters.postgres.embedded import EmbeddedServer
from recallflow.cli.progress import bar
from recallflow.ports import Embedder

SEED = 20250601
#: Beliefs per add_many (COPY) call; small enough to stay well inside the pool's
#: statement_timeout, which also bounds a COPY (client-side row encoding included).
BATCH = 2_000
MAIN_PRINCIPAL = "p-main"
MARKER = "bench_dataset"
REPO_ROOT = Path(__file__).resolve().parent.parent

Progress = Callable[[str], None]


def bench_home() -> Path:
    """Where the benchmark server lives: ``RECALLFLOW_BENCH_HOME`` or ``.bench-home/``."""
    return Path(os.environ.get("RECALLFLOW_BENCH_HOME") or REPO_ROOT / ".bench-home").resolve()


def bench_embedder_name() -> str:
    """The embedder the scale stores use: ``RECALLFLOW_BENCH_EMBEDDER``, default hashing."""
    return os.environ.get("RECALLFLOW_BENCH_EMBEDDER", "hashing").strip().lower() or "hashing"


def database_name(tier: TierSpec, embedder: str) -> str:
    """The cache key of a tier's store."""
    return f"bench_{GENERATOR_VERSION}_{tier.name}_{embedder}"


@dataclass
class LoadReport:
    """What building a tier cost, stored with the data and attached to the saved JSON."""

    tier: str
    embedder: str
    database: str
    beliefs: int
    other_principals: int
    rows_in_table: int
    edges: int
    episodes: int
    generate_s: float = 0.0
    embed_and_copy_s: float = 0.0
    edges_s: float = 0.0
    index_build_s: dict[str, float] = field(default_factory=dict)
    analyze_s: float = 0.0  # VACUUM (ANALYZE) after the load; the name stays for stored markers
    build_s: float = 0.0
    database_bytes: int = 0
    reused: bool = False
    queries: list[dict[str, Any]] = field(default_factory=list, repr=False)


@dataclass
class BenchStore:
    """An open, loaded tier: the Memory, who to ask as, and the fixed queries."""

    tier: TierSpec
    memory: Memory
    principal_id: str
    queries: tuple[BenchQuery, ...]
    report: LoadReport
    tenant_id: str = TENANT


#: The first neighbour: the principal ``moment:in_turn_principal`` measures above 10k.
NEIGHBOUR_PRINCIPAL = "p-other-0"


#: The name of a store holding a tier's measured principal alone ends with this.
ALONE_SUFFIX = "-alone"


def alone(tier: TierSpec) -> TierSpec:
    """The store of ``tier``'s measured principal alone: no other principal in its tables."""
    return replace(tier, name=f"{tier.name}{ALONE_SUFFIX}", neighbours=0)


def store_spec(name: str) -> TierSpec:
    """The store a name gives: a tier (``10k``) or a tier's principal alone (``10k-alone``).

    :raises KeyError: the name is neither.
    """
    if name.endswith(ALONE_SUFFIX):
        return alone(TIERS[name.removesuffix(ALONE_SUFFIX)])
    return TIERS[name]


def _principals(tier: TierSpec) -> list[tuple[str, int]]:
    others = [(f"p-other-{i}", tier.neighbour_beliefs) for i in range(tier.neighbours)]
    return [(MAIN_PRINCIPAL, tier.beliefs), *others]


def _secondary_indexes(conn: psycopg.Connection[Any]) -> list[tuple[str, str]]:
    rows = conn.execute(
        "SELECT i.indexname, i.indexdef FROM pg_indexes i"
        " JOIN pg_index x ON x.indexrelid = (quote_ident(i.indexname))::regclass"
        " WHERE i.tablename = 'beliefs' AND i.schemaname = current_schema()"
        " AND NOT x.indisprimary ORDER BY i.indexname"
    ).fetchall()
    return [(str(n), str(d)) for n, d in rows]


def _load(memory: Memory, tier: TierSpec, embedder: str, progress: Progress) -> LoadReport:
    principals = _principals(tier)
    report = LoadReport(
        tier=tier.name,
        embedder=embedder,
        database="",
        beliefs=tier.beliefs,
        other_principals=tier.neighbours,
        rows_in_table=sum(n for _, n in principals),
        edges=0,
        episodes=0,
    )
    with psycopg.connect(memory.uri, autocommit=True) as conn:
        indexes = _secondary_indexes(conn)
        for name, _ in indexes:
            conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(name)))
    # A bar of beliefs written, on the terminal (pytest captures sys.stderr, not the tty).
    with bar(
        total=report.rows_in_table,
        desc=f"{tier.name}: beliefs",
        unit="belief",
        stream=sys.__stderr__,
    ) as loaded:
        for principal, n in principals:
            started = time.perf_counter()
            data = generate_principal(SEED, principal, n)
            report.generate_s += time.perf_counter() - started
            if principal == MAIN_PRINCIPAL:
                report.queries = [asdict(q) for q in bench_queries(data)]
            memory.episodes.add_many(data.episodes)
            report.episodes += len(data.episodes)
            started = time.perf_counter()
            for batch in data.batches(BATCH):
                memory.beliefs.add_many(batch)
                loaded.update(len(batch))
            report.embed_and_copy_s += time.perf_counter() - started
            progress(f"{tier.name}: loaded {n} beliefs of {principal}")
            started = time.perf_counter()
            memory.edges.add_many(data.edges)
            report.edges_s += time.perf_counter() - started
            report.edges += len(data.edges)
    with psycopg.connect(memory.uri, autocommit=True) as conn:
        # The HNSW graph is built much faster while it fits in maintenance_work_mem
        # (1.1M vectors of 384 floats are 1.7 GB).
        memory_gb = 4 if report.rows_in_table > 500_000 else 1
        conn.execute(f"SET maintenance_work_mem = '{memory_gb}GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        for name, definition in indexes:
            started = time.perf_counter()
            conn.execute(definition.encode())
            report.index_build_s[name] = round(time.perf_counter() - started, 3)
            progress(f"{tier.name}: built {name} in {report.index_build_s[name]:.1f} s")
        started = time.perf_counter()
        # VACUUM as well: a freshly loaded heap has no visibility map, so the index-only
        # scans the arms plan would visit every heap page until autovacuum came by, and a
        # store measured right after its build would be slower than the same store later.
        conn.execute("VACUUM (ANALYZE)")
        report.analyze_s = time.perf_counter() - started
    return report


def _marker(uri: str) -> dict[str, Any] | None:
    with psycopg.connect(uri, autocommit=True) as conn:
        exists = conn.execute("SELECT to_regclass('store_settings')").fetchone()
        if exists is None or exists[0] is None:
            return None
        row = conn.execute("SELECT value FROM store_settings WHERE key = %s", (MARKER,)).fetchone()
    return json.loads(row[0]) if row else None


def drop_database(server: EmbeddedServer, name: str) -> None:
    """Drop the benchmark database ``name`` of ``server`` if it exists (its sessions ended)."""
    with psycopg.connect(server.uri("postgres"), autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def drop_stale(server: EmbeddedServer) -> list[str]:
    """Drop benchmark databases of other generator versions; returns their names."""
    with psycopg.connect(server.uri("postgres"), autocommit=True) as conn:
        names = [
            str(r[0])
            for r in conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE 'bench\\_%%'"
                " AND datname NOT LIKE %s",
                (f"bench\\_{GENERATOR_VERSION}\\_%",),
            ).fetchall()
        ]
    for name in names:
        drop_database(server, name)
    return names


def open_tier(
    server: EmbeddedServer,
    tier: TierSpec,
    *,
    embedder: Embedder | None = None,
    progress: Progress = lambda _msg: None,
) -> BenchStore:
    """Open a tier's store, building and caching it first when needed."""
    name = bench_embedder_name()
    embedder = embedder or embedder_from_name(name)
    database = database_name(tier, name)
    ensure_database(server.uri("postgres"), database)
    uri = server.uri(database)
    marker = _marker(uri)
    if marker is None and _has_rows(uri):
        drop_database(server, database)  # an interrupted build
        ensure_database(server.uri("postgres"), database)
    memory = open_memory(uri, embedder=embedder)
    try:
        if marker is None:
            progress(f"{tier.name}: building {database} (embedder {embedder.name})")
            started = time.perf_counter()
            report = _load(memory, tier, name, progress)
            report.build_s = round(time.perf_counter() - started, 1)
            report.database = database
            with psycopg.connect(uri, autocommit=True) as conn:
                conn.execute(
                    "INSERT INTO store_settings (key, value) VALUES (%s, %s)",
                    (MARKER, json.dumps(asdict(report))),
                )
        else:
            report = LoadReport(**marker)
            report.reused = True
        with psycopg.connect(uri, autocommit=True) as conn:
            size = conn.execute("SELECT pg_database_size(current_database())").fetchone()
            report.database_bytes = int(size[0]) if size else 0
        queries = tuple(_query(q) for q in report.queries)
    except BaseException:
        memory.close()
        raise
    return BenchStore(tier, memory, MAIN_PRINCIPAL, queries, report)


def _query(data: dict[str, Any]) -> BenchQuery:
    return BenchQuery(
        text=data["text"],
        subject=data["subject"],
        entities=tuple(data["entities"]),
        project=data["project"],
        relevant_ids=tuple(data["relevant_ids"]),
    )


def _has_rows(uri: str) -> bool:
    with psycopg.connect(uri, autocommit=True) as conn:
        exists = conn.execute("SELECT to_regclass('episodes')").fetchone()
        if exists is None or exists[0] is None:
            return False
        return conn.execute("SELECT EXISTS (SELECT 1 FROM episodes)").fetchone() == (True,)
