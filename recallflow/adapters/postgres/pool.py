"""The connection pool every store adapter shares (DESIGN.md §6; STYLE.md pattern 8).

The pool's ``configure`` callback registers pgvector's types and sets what every arm's
query needs on each new connection: HNSW iterative scan so that a filtered vector
search does not silently return too few rows, and no JIT (it costs milliseconds on the
short queries of a recall and buys nothing).
"""

from __future__ import annotations

from typing import Any

import psycopg
from pgvector.psycopg import register_vector, register_vector_async
from psycopg_pool import AsyncConnectionPool, ConnectionPool

#: Session settings applied to every pooled connection.
SESSION_SETTINGS: dict[str, str] = {
    "hnsw.iterative_scan": "relaxed_order",
    "jit": "off",
}


def _configure(conn: psycopg.Connection[Any]) -> None:
    register_vector(conn)
    for name, value in SESSION_SETTINGS.items():
        conn.execute("SELECT set_config(%s, %s, false)", (name, value))
    conn.commit()


async def _configure_async(conn: psycopg.AsyncConnection[Any]) -> None:
    await register_vector_async(conn)
    for name, value in SESSION_SETTINGS.items():
        await conn.execute("SELECT set_config(%s, %s, false)", (name, value))
    await conn.commit()


def open_pool(uri: str, *, min_size: int = 1, max_size: int = 8) -> ConnectionPool:
    """An opened pool on ``uri``, waited on so a bad server fails here, not mid-recall."""
    pool: ConnectionPool = ConnectionPool(
        uri,
        min_size=min_size,
        max_size=max_size,
        configure=_configure,
        open=False,
        name="recallflow",
    )
    pool.open(wait=True, timeout=30)
    return pool


async def open_async_pool(uri: str, *, min_size: int = 1, max_size: int = 8) -> AsyncConnectionPool:
    """The async twin of :func:`open_pool`, for ``Memory.arecall``."""
    pool: AsyncConnectionPool = AsyncConnectionPool(
        uri,
        min_size=min_size,
        max_size=max_size,
        configure=_configure_async,
        open=False,
        name="recallflow-async",
    )
    await pool.open(wait=True, timeout=30)
    return pool
