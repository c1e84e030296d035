"""Store-wide settings recorded in the database: the embedder and embedding dimension.

The dimension is fixed per store (vectors of two dimensions cannot be compared). The
first open records the embedder's name and dimension, types ``beliefs.embedding`` and
``episodes.embedding`` as ``vector(n)`` and builds their HNSW indexes; every later open
must use the same embedder or fails with
:class:`~recallflow.errors.EmbedderMismatchError`, since vectors of two models cannot be
compared. The beliefs' index is partial (graduated principals only, see
:mod:`~recallflow.adapters.postgres.ann_index`); an open that finds it missing (a store
migrated from the store-wide index) graduates the principals already large enough, then
builds it in bulk.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from recallflow.adapters.postgres.ann_index import ANN_INDEX, due, graduate
from recallflow.adapters.postgres.lifecycle import lock_principals
from recallflow.adapters.postgres.migrate import MIGRATION_LOCK_KEY
from recallflow.errors import EmbedderMismatchError

#: HNSW build parameters (pgvector defaults, stated so the trace of a build is explicit).
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 64


def read_settings(conn: psycopg.Connection[Any]) -> dict[str, str]:
    """Every recorded store setting."""
    rows = conn.execute("SELECT key, value FROM store_settings").fetchall()
    return {str(k): str(v) for k, v in rows}


def ensure_embedding_space(conn: psycopg.Connection[Any], name: str, dimension: int) -> None:
    """Record (first open) or check (later opens) the store's embedder and dimension."""
    conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))
    try:
        settings = read_settings(conn)
        if "embedding_dimension" in settings:
            stored_name = settings["embedder"]
            stored_dim = int(settings["embedding_dimension"])
            if stored_name != name or stored_dim != dimension:
                raise EmbedderMismatchError(
                    stored_name=stored_name,
                    stored_dimension=stored_dim,
                    name=name,
                    dimension=dimension,
                )
        else:
            with conn.transaction():
                for table in ("beliefs", "episodes"):
                    conn.execute(
                        sql.SQL("ALTER TABLE {} ALTER COLUMN embedding TYPE vector({})").format(
                            sql.Identifier(table), sql.Literal(dimension)
                        )
                    )
                conn.execute(_hnsw("episodes_embedding_hnsw_idx", "episodes", sql.SQL("")))
                conn.cursor().executemany(
                    "INSERT INTO store_settings (key, value) VALUES (%s, %s)",
                    [("embedder", name), ("embedding_dimension", str(dimension))],
                )
        ensure_belief_ann_index(conn)
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))


def _hnsw(index: str, table: str, where: sql.Composable) -> sql.Composed:
    return sql.SQL(
        "CREATE INDEX IF NOT EXISTS {} ON {} USING hnsw"
        " (embedding vector_cosine_ops) WITH (m = {}, ef_construction = {}){}"
    ).format(
        sql.Identifier(index),
        sql.Identifier(table),
        sql.Literal(HNSW_M),
        sql.Literal(HNSW_EF_CONSTRUCTION),
        where,
    )


def ensure_belief_ann_index(conn: psycopg.Connection[Any]) -> None:
    """Build the beliefs' partial HNSW index if it is missing, after graduating every
    principal already large enough (so their rows enter it in one bulk build, not one
    index insert at a time)."""
    present = conn.execute(
        "SELECT 1 FROM pg_indexes WHERE tablename = 'beliefs' AND indexname = %s", (ANN_INDEX,)
    ).fetchone()
    if present is not None:
        return
    with conn.transaction():
        keys = due(conn)
        lock_principals(conn, keys)
        for tenant, principal in keys:
            graduate(conn, tenant, principal)
        conn.execute(_hnsw(ANN_INDEX, "beliefs", sql.SQL(" WHERE ann_indexed")))
