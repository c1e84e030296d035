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

Two limits of the storage depend on the dimension, so they are checked here, where the
dimension is first known:

* pgvector's HNSW index takes ``vector`` columns of at most :data:`MAX_DIMENSION`
  dimensions: a wider embedder is refused with
  :class:`~recallflow.errors.UnsupportedEmbedderError` before anything is recorded.
* ``beliefs_vectors_idx`` (migration 0019) carries each belief's vector so that an
  exact search reads no heap row, but a b-tree entry holds at most about 2.7 kB, which a
  vector of about 650 dimensions fills alone. Past :data:`COVERED_DIMENSION` dimensions
  the index is built without the vector: the exact search then reads the vectors from
  the table (the same rows and scores, more pages read), and beliefs can be written.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from recallflow.adapters.embedders import setting_of
from recallflow.adapters.postgres.ann_index import ANN_INDEX, due, graduate
from recallflow.adapters.postgres.locks import lock_principals
from recallflow.adapters.postgres.migrate import MIGRATION_LOCK_KEY
from recallflow.errors import EmbedderMismatchError, UnsupportedEmbedderError

#: HNSW build parameters (pgvector defaults, stated so the trace of a build is explicit).
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 64
#: The most dimensions pgvector's HNSW index takes for a ``vector`` column.
MAX_DIMENSION = 2000
#: The most dimensions whose vector ``beliefs_vectors_idx`` carries: 4 bytes a dimension
#: and 8 of header, 2,056 bytes at 512, leaves room for the entry's other columns (the
#: ids among them) under PostgreSQL's b-tree entry limit of 2,704 bytes.
COVERED_DIMENSION = 512
VECTORS_INDEX = "beliefs_vectors_idx"
_VECTORS_INDEX_KEYS = "(tenant_id, principal_id, state, sensitivity)"
_VECTORS_INDEX_COLUMNS = "valid_from, valid_to, recorded_at, retracted_at, superseded_by, id"


def read_settings(conn: psycopg.Connection[Any]) -> dict[str, str]:
    """Every recorded store setting."""
    rows = conn.execute("SELECT key, value FROM store_settings").fetchall()
    return {str(k): str(v) for k, v in rows}


def ensure_embedding_space(conn: psycopg.Connection[Any], name: str, dimension: int) -> None:
    """Record (first open) or check (later opens) the store's embedder and dimension.

    Raises:
        UnsupportedEmbedderError: ``dimension`` is over :data:`MAX_DIMENSION` (nothing
            is recorded).
        EmbedderMismatchError: the store holds another embedder's vectors.
    """
    if not 1 <= dimension <= MAX_DIMENSION:
        raise UnsupportedEmbedderError(
            name,
            f"it makes {dimension}-dimension vectors and the store's vector index (pgvector"
            f" HNSW) takes 1 to {MAX_DIMENSION}; use a model or a setting of at most"
            f" {MAX_DIMENSION} dimensions (many models can be truncated to fewer, then"
            " L2-normalised again)",
        )
    conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))
    try:
        settings = read_settings(conn)
        if "embedding_dimension" in settings:
            stored_name = settings["embedder"]
            stored_dim = int(settings["embedding_dimension"])
            if stored_name != name or stored_dim != dimension:
                made_with = setting_of(stored_name)
                raise EmbedderMismatchError(
                    stored_name=stored_name,
                    stored_dimension=stored_dim,
                    name=name,
                    dimension=dimension,
                    # Named only when it is another setting than the one that opened it.
                    stored_setting=made_with if made_with != setting_of(name) else None,
                )
            if dimension > COVERED_DIMENSION and _covers_vectors(conn):
                # A store first opened before this limit was checked: no belief of it
                # could be written, so the index is rebuilt empty.
                with conn.transaction():
                    uncover_vectors(conn)
        else:
            with conn.transaction():
                for table in ("beliefs", "episodes"):
                    conn.execute(
                        sql.SQL("ALTER TABLE {} ALTER COLUMN embedding TYPE vector({})").format(
                            sql.Identifier(table), sql.Literal(dimension)
                        )
                    )
                conn.execute(_hnsw("episodes_embedding_hnsw_idx", "episodes", sql.SQL("")))
                if dimension > COVERED_DIMENSION:
                    uncover_vectors(conn)
                conn.cursor().executemany(
                    "INSERT INTO store_settings (key, value) VALUES (%s, %s)",
                    [("embedder", name), ("embedding_dimension", str(dimension))],
                )
        ensure_belief_ann_index(conn)
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))


def uncover_vectors(conn: psycopg.Connection[Any]) -> None:
    """Build ``beliefs_vectors_idx`` again without the vector: an embedder of more than
    :data:`COVERED_DIMENSION` dimensions makes entries over the b-tree's size limit, and
    every write of a belief would fail. Run where the dimension is first recorded, before
    any belief has a vector."""
    conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(VECTORS_INDEX)))
    conn.execute(
        sql.SQL("CREATE INDEX {} ON beliefs {} INCLUDE ({})").format(
            sql.Identifier(VECTORS_INDEX),
            sql.SQL(_VECTORS_INDEX_KEYS),
            sql.SQL(_VECTORS_INDEX_COLUMNS),
        )
    )


def _covers_vectors(conn: psycopg.Connection[Any]) -> bool:
    row = conn.execute(
        "SELECT indexdef FROM pg_indexes WHERE tablename = 'beliefs' AND indexname = %s",
        (VECTORS_INDEX,),
    ).fetchone()
    return row is not None and "embedding" in str(row[0])


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
