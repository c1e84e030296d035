"""``open_memory()`` and :class:`Memory`: one handle on a store (DESIGN.md §1, §6).

With no DSN (argument or ``RECALLFLOW_DSN``) the store is the embedded PostgreSQL under
``RECALLFLOW_HOME``, started or reused; with a DSN it is that server. Either way the
extensions are checked, migrations applied and the embedding space recorded before the
handle is returned, so a misconfigured store fails at open, not mid-recall.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType
from typing import Self

import psycopg
from psycopg_pool import ConnectionPool

from recallflow.adapters.postgres.beliefs import PostgresBeliefStore
from recallflow.adapters.postgres.bootstrap import ensure_database, prepare
from recallflow.adapters.postgres.embedded import DATABASE, EmbeddedServer, default_home
from recallflow.adapters.postgres.episodes import PostgresEpisodeStore
from recallflow.adapters.postgres.pool import open_pool
from recallflow.adapters.postgres.settings import ensure_embedding_space
from recallflow.errors import ConfigurationError
from recallflow.ingestion import Beliefs, Edges, Episodes
from recallflow.models import StoreSummary
from recallflow.ports import Embedder, TokenCounter


def _default_embedder() -> Embedder:
    from recallflow.adapters.embedders import default_embedder

    return default_embedder()


def _default_token_counter() -> TokenCounter:
    from recallflow.adapters.tokens import default_token_counter

    return default_token_counter()


class Memory:
    """An open store: ingestion surfaces, recall, and the resources behind them.

    Use it as a context manager, or call :meth:`close`; closing releases the pool and,
    for the embedded server, this process's hold on it.
    """

    def __init__(
        self,
        *,
        uri: str,
        pool: ConnectionPool,
        embedder: Embedder,
        token_counter: TokenCounter,
        server: EmbeddedServer | None = None,
    ) -> None:
        self.uri = uri
        self.embedder = embedder
        self.token_counter = token_counter
        self._pool = pool
        self._server = server
        self._closed = False
        store = PostgresBeliefStore(pool)
        self.beliefs = Beliefs(store, embedder)
        self.episodes = Episodes(PostgresEpisodeStore(pool))
        self.edges = Edges(store)
        self._belief_store = store

    @property
    def pool(self) -> ConnectionPool:
        """The connection pool (for adapters that share it)."""
        if self._closed:
            raise ConfigurationError("this Memory is closed")
        return self._pool

    @property
    def embedded(self) -> bool:
        """True when the store is the embedded server."""
        return self._server is not None

    def summary(self) -> list[StoreSummary]:
        """What the store holds, per tenant and principal."""
        return self._belief_store.summary()

    def close(self) -> None:
        """Release the pool and the server handle; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            self._pool.close()
        finally:
            if self._server is not None:
                self._server.release()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def open_memory(
    dsn: str | None = None,
    home: str | Path | None = None,
    *,
    embedder: Embedder | None = None,
    token_counter: TokenCounter | None = None,
    pool_size: int = 8,
) -> Memory:
    """Open a store, starting the embedded server when no DSN is given.

    :param dsn: a PostgreSQL URI; defaults to ``RECALLFLOW_DSN``; when neither is set,
        the embedded server is used.
    :param home: the embedded server's home (default ``RECALLFLOW_HOME`` or the user
        data directory); ignored with a DSN.
    :param embedder: the Embedder; default: :func:`recallflow.adapters.embedders.default_embedder`.
    :param token_counter: the TokenCounter; default: the offline cl100k counter.
    """
    dsn = dsn or os.environ.get("RECALLFLOW_DSN") or None
    embedder = embedder or _default_embedder()
    token_counter = token_counter or _default_token_counter()
    server: EmbeddedServer | None = None
    try:
        if dsn is None:
            server = EmbeddedServer(Path(home).expanduser().resolve() if home else default_home())
            ensure_database(server.uri("postgres"), DATABASE)
            uri = server.uri(DATABASE)
        else:
            uri = dsn
        prepare(uri)
        with psycopg.connect(uri, autocommit=True) as conn:
            ensure_embedding_space(conn, embedder.name, embedder.dimension)
        pool = open_pool(uri, max_size=pool_size)
    except psycopg.OperationalError as exc:
        if server is not None:
            server.release()
        raise ConfigurationError(
            f"cannot connect to PostgreSQL at {dsn or 'embedded'}: {exc}"
        ) from exc
    except BaseException:
        if server is not None:
            server.release()
        raise
    return Memory(uri=uri, pool=pool, embedder=embedder, token_counter=token_counter, server=server)
