"""Store-wide settings recorded in the database: the embedder and embedding dimension.

The dimension is fixed per store (vectors of two dimensions cannot be compared). The
first open records the embedder's name and dimension, types ``beliefs.embedding`` and
``episodes.embedding`` as ``vector(n)`` and builds their HNSW indexes; every later open
must use the same embedder or fails with
:class:`~recallflow.errors.EmbedderMismatchError`, since vectors of two models cannot be
compared.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

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
            return
        with conn.transaction():
            for table in ("beliefs", "episodes"):
                conn.execute(
                    sql.SQL("ALTER TABLE {} ALTER COLUMN embedding TYPE vector({})").format(
                        sql.Identifier(table), sql.Literal(dimension)
                    )
                )
                conn.execute(
                    sql.SQL(
                        "CREATE INDEX IF NOT EXISTS {} ON {} USING hnsw"
                        " (embedding vector_cosine_ops) WITH (m = {}, ef_construction = {})"
                    ).format(
                        sql.Identifier(f"{table}_embedding_hnsw_idx"),
                        sql.Identifier(table),
                        sql.Literal(HNSW_M),
                        sql.Literal(HNSW_EF_CONSTRUCTION),
                    )
                )
            conn.cursor().executemany(
                "INSERT INTO store_settings (key, value) VALUES (%s, %s)",
                [("embedder", name), ("embedding_dimension", str(dimension))],
            )
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))
