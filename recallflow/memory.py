"""``open_memory()`` and :class:`Memory`: one handle on a store (DESIGN.md §1, §6).

With no DSN (argument or ``RECALLFLOW_DSN``) the store is the embedded PostgreSQL under
``RECALLFLOW_HOME``, started or reused; with a DSN it is that server. Either way the
extensions are checked, migrations applied and the embedding space recorded before the
handle is returned, so a misconfigured store fails at open, not mid-recall.

While it is open, a handle survives its server: a call made while the store is down
raises :class:`~recallflow.errors.StoreUnavailableError` after at most
``connect_timeout`` seconds, and the same handle works again once the server is back
(a crashed embedded server is restarted by the next call). See docs/operations.md.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections import OrderedDict
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import psycopg
from pydantic import ValidationError

from recallflow.adapters.lifecycle.concurrency import ArmThreadPool
from recallflow.adapters.postgres.beliefs import PostgresBeliefStore
from recallflow.adapters.postgres.bootstrap import ensure_database, prepare
from recallflow.adapters.postgres.embedded import DATABASE, EmbeddedServer, default_home
from recallflow.adapters.postgres.episodes import PostgresEpisodeStore
from recallflow.adapters.postgres.health import GuardedPool
from recallflow.adapters.postgres.pool import CONNECT_TIMEOUT_S, open_pool
from recallflow.adapters.postgres.search import PostgresBeliefSearch
from recallflow.adapters.postgres.settings import ensure_embedding_space
from recallflow.adapters.postgres.traces import PostgresTraceStore
from recallflow.adapters.scanning import RegexInjectionScanner
from recallflow.core.query_forming import DeterministicQueryFormer
from recallflow.dataflows.runner import RecallFlow
from recallflow.errors import ConfigurationError, InvalidInputError, StoreUnavailableError
from recallflow.ingestion import Beliefs, Edges, Episodes, new_id
from recallflow.models.request import Moment, RecallRequest
from recallflow.models.result import RecallResult, RecallTrace
from recallflow.models.store import StoreSummary
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy
from recallflow.ports import (
    Embedder,
    ExternalProvider,
    InjectionScanner,
    QueryFormer,
    RecallPorts,
    TokenCounter,
)

#: How many built recall flows (one per moment, policy and config) a Memory keeps.
FLOW_CACHE_SIZE = 16


def _default_embedder() -> Embedder:
    from recallflow.adapters.embedders import default_embedder

    return default_embedder()


def _default_token_counter() -> TokenCounter:
    from recallflow.adapters.tokens import default_token_counter

    return default_token_counter()


class Memory:
    """An open store: ingestion surfaces, recall, and the resources behind them.

    Use it as a context manager, or call :meth:`close`; closing releases the pools, the
    arms' threads and, for the embedded server, this process's hold on it.
    """

    def __init__(
        self,
        *,
        uri: str,
        pool: GuardedPool,
        recall_pool: GuardedPool,
        embedder: Embedder,
        token_counter: TokenCounter,
        server: EmbeddedServer | None = None,
        flow_cache_size: int = FLOW_CACHE_SIZE,
    ) -> None:
        self.uri = uri
        self.embedder = embedder
        self.token_counter = token_counter
        self._pool = pool
        self._recall_pool = recall_pool
        self._server = server
        self._closed = False
        store = PostgresBeliefStore(pool)
        self.beliefs = Beliefs(store, embedder)
        self.episodes = Episodes(PostgresEpisodeStore(pool))
        self.edges = Edges(store)
        self._belief_store = store
        self.search = PostgresBeliefSearch(recall_pool)
        self.traces = PostgresTraceStore(pool)
        self.query_former: QueryFormer = DeterministicQueryFormer()
        self.injection_scanner: InjectionScanner = RegexInjectionScanner()
        self.external_provider: ExternalProvider | None = None
        # One arm thread per recall connection: an arm without a connection would wait.
        self._arm_pool = ArmThreadPool(max_workers=recall_pool.max_size)
        self._flows: OrderedDict[tuple[Moment, str, str], RecallFlow] = OrderedDict()
        self._flow_cache_size = max(1, flow_cache_size)
        self._flows_lock = threading.Lock()

    @property
    def pool(self) -> GuardedPool:
        """The store pool (writes and inspection; no statement timeout)."""
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

    def flow(
        self,
        moment: Moment,
        policy: RetrievalPolicy = DEFAULT_POLICY,
        config: Mapping[str, Any] | None = None,
    ) -> RecallFlow:
        """The built DAG of ``moment`` under ``policy`` (built on first use, then reused).

        The most recently used flows are kept (``flow_cache_size`` of ``open_memory``); a
        flow dropped from the cache is rebuilt if it is asked for again.
        """
        key = (moment, policy.version, json.dumps(dict(config or {}), sort_keys=True, default=str))
        with self._flows_lock:
            flow = self._flows.get(key)
            if flow is None:
                flow = RecallFlow(moment, config, policy=policy, arm_pool=self._arm_pool)
                self.traces.record_policy(policy)
                self._flows[key] = flow
                while len(self._flows) > self._flow_cache_size:
                    self._flows.popitem(last=False)
            else:
                self._flows.move_to_end(key)
        return flow

    def ports(self) -> RecallPorts:
        """The ports a recall of this store runs with (its search, embedder, token counter,
        query former, scanner and external provider), as the DAG's ``ports`` input."""
        return RecallPorts(
            belief_search=self.search,
            embedder=self.embedder,
            token_counter=self.token_counter,
            query_former=self.query_former,
            injection_scanner=self.injection_scanner,
            external_provider=self.external_provider,
        )

    def recall(
        self,
        request: RecallRequest | Mapping[str, Any],
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
        config: Mapping[str, Any] | None = None,
        persist_trace: bool = True,
    ) -> RecallResult:
        """Run the recall DAG of the request's moment; returns the block and its trace.

        An ``as_of`` of None means now; ``known_as_of`` defaults to ``as_of``. The trace is
        stored (``persist_trace``) and its id is on the result.
        """
        if self._closed:
            raise ConfigurationError("this Memory is closed; open a new one with open_memory()")
        req = _resolved(request)
        # Fail fast and typed when the store is down, rather than let every arm fail and
        # hand back a silently empty recall; and if it goes down mid-recall, say so too.
        lost = self._recall_pool.unavailable_count
        with self._recall_pool.connection():
            pass
        flow = self.flow(req.moment, policy, config)
        result = flow.run(
            {
                "request": req,
                "trace_id": new_id("tr"),
                "ports": self.ports(),
            }
        )
        if result.degraded and self._recall_pool.unavailable_count != lost:
            raise StoreUnavailableError("the database connection was lost during this recall")
        if persist_trace:
            self.traces.save_trace(result.trace)
        return result

    async def arecall(
        self,
        request: RecallRequest | Mapping[str, Any],
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
        config: Mapping[str, Any] | None = None,
        persist_trace: bool = True,
    ) -> RecallResult:
        """:meth:`recall` for asyncio code: runs it in a worker thread."""
        return await asyncio.to_thread(
            self.recall, request, policy=policy, config=config, persist_trace=persist_trace
        )

    def trace(self, tenant_id: str, principal_id: str, trace_id: str) -> RecallTrace:
        """A stored trace (operator view)."""
        return self.traces.get_trace(tenant_id, principal_id, trace_id)

    def close(self) -> None:
        """Release the pools, the arms' threads and the server handle; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            self._arm_pool.shutdown()
            with self._flows_lock:
                self._flows.clear()
            self._recall_pool.close()
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


def _resolved(request: RecallRequest | Mapping[str, Any]) -> RecallRequest:
    try:
        req = (
            request if isinstance(request, RecallRequest) else RecallRequest.model_validate(request)
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InvalidInputError(first["msg"], field=".".join(map(str, first["loc"]))) from exc
    as_of = req.as_of or datetime.now(UTC)
    return req.model_copy(update={"as_of": as_of, "known_as_of": req.known_as_of or as_of})


def open_memory(
    dsn: str | None = None,
    home: str | Path | None = None,
    *,
    embedder: Embedder | None = None,
    token_counter: TokenCounter | None = None,
    pool_size: int = 8,
    connect_timeout: float = CONNECT_TIMEOUT_S,
    flow_cache_size: int = FLOW_CACHE_SIZE,
) -> Memory:
    """Open a store, starting the embedded server when no DSN is given.

    :param dsn: a PostgreSQL URI; defaults to ``RECALLFLOW_DSN``; when neither is set,
        the embedded server is used.
    :param home: the embedded server's home (default ``RECALLFLOW_HOME`` or the user
        data directory); ignored with a DSN.
    :param embedder: the Embedder; default: :func:`recallflow.adapters.embedders.default_embedder`.
    :param token_counter: the TokenCounter; default: the offline cl100k counter.
    :param connect_timeout: how long a call waits for a database connection before it
        raises :class:`~recallflow.errors.StoreUnavailableError` (seconds).
    :param flow_cache_size: how many built recall flows (per moment, policy and config)
        to keep; the least recently used is dropped beyond that.
    """
    if not connect_timeout > 0:
        raise ConfigurationError(f"connect_timeout must be positive, got {connect_timeout!r}")
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
        revive = server.ensure_running if server is not None else None
        pool = open_pool(
            uri, "store", max_size=max(2, pool_size // 2), timeout=connect_timeout, revive=revive
        )
        try:
            recall_pool = open_pool(
                uri, "recall", max_size=pool_size, timeout=connect_timeout, revive=revive
            )
        except BaseException:
            pool.close()
            raise
    except (psycopg.OperationalError, StoreUnavailableError) as exc:
        if server is not None:
            server.release()
        raise ConfigurationError(
            f"cannot connect to PostgreSQL at {dsn or 'embedded'}: {exc}"
        ) from exc
    except BaseException:
        if server is not None:
            server.release()
        raise
    return Memory(
        uri=uri,
        pool=pool,
        recall_pool=recall_pool,
        embedder=embedder,
        token_counter=token_counter,
        server=server,
        flow_cache_size=flow_cache_size,
    )
