"""``open_memory()`` and :class:`Memory`: one handle on a store.

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
import logging
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

import psycopg

from recallflow.adapters.embedders.cached import CachedQueryEmbedder
from recallflow.adapters.embedders.calibration import calibrate as calibrate_embedder
from recallflow.adapters.embedders.calibration import check_same_model
from recallflow.adapters.lifecycle.concurrency import ArmThreadPool
from recallflow.adapters.ownership import OwnedCache
from recallflow.adapters.postgres.beliefs import PostgresBeliefStore
from recallflow.adapters.postgres.bootstrap import (
    connection,
    connection_limit,
    ensure_database,
    prepare,
)
from recallflow.adapters.postgres.calibrations import load_calibration, save_calibration
from recallflow.adapters.postgres.conninfo import refused_on_start, refused_option
from recallflow.adapters.postgres.corrections import PostgresCorrections
from recallflow.adapters.postgres.embedded import (
    DATABASE,
    EmbeddedServer,
    default_home,
    default_home_source,
    home_path,
)
from recallflow.adapters.postgres.entities import (
    MarksWithLoad,
    PostgresEntitySensitivity,
    PrefetchedMarks,
)
from recallflow.adapters.postgres.episode_search import PostgresEpisodeSearch
from recallflow.adapters.postgres.episodes import PostgresEpisodeStore
from recallflow.adapters.postgres.health import GuardedPool, as_unavailable
from recallflow.adapters.postgres.misses import PostgresMissHints
from recallflow.adapters.postgres.pool import CONNECT_TIMEOUT_S, open_pool
from recallflow.adapters.postgres.replicas import (
    IdentityGuard,
    ReplicaPool,
    ReplicaReads,
    TrackingPool,
    WrittenLsn,
    erased_of,
    ever_erased,
    postmaster_started,
    store_identity,
)
from recallflow.adapters.postgres.search import PostgresBeliefSearch
from recallflow.adapters.postgres.sessions import PostgresSessionStore
from recallflow.adapters.postgres.settings import ensure_embedding_space
from recallflow.adapters.postgres.traces import PostgresTraceStore
from recallflow.adapters.postgres.vectors import forget_vector_texts
from recallflow.adapters.scanning.cached import CachedInjectionScanner
from recallflow.adapters.tokens.cached import CachedTokenCounter
from recallflow.core.calibration import (
    CORPUS_VERSION,
    Calibration,
    CalibrationRef,
    uncalibrated,
)
from recallflow.core.degradation import failure_text
from recallflow.core.erasure import read_ids
from recallflow.core.misses import missed_subject
from recallflow.core.query_forming import DeterministicQueryFormer
from recallflow.core.redaction import NameRedaction, ProjectNames, as_asked
from recallflow.core.trace_view import trace_view
from recallflow.corrections import Corrections, MissHints
from recallflow.dataflows.experiment import Experiment
from recallflow.dataflows.runner import RecallFlow, resolved_request
from recallflow.entities import Entities
from recallflow.errors import (
    EPISODE_TRACE_PREFIX,
    ConfigurationError,
    ConnectionOptionError,
    InvalidInputError,
    OperatorOnlyError,
    ReplicaMismatchError,
    StorageFullError,
    StoreUnavailableError,
    UnsupportedEmbedderError,
    without_password,
)
from recallflow.ingestion import (
    Beliefs,
    Edges,
    Episodes,
    aware_instant,
    key_of,
    may_be_generated,
    member_of,
    new_id,
    not_ahead,
)
from recallflow.models.corrections import (
    Citation,
    Erasure,
    Rederivation,
    Rejection,
    RejectionKind,
    Unflagging,
)
from recallflow.models.portability import PrincipalExport, PrincipalImport
from recallflow.models.read_start import ReadStart
from recallflow.models.request import (
    EpisodeSearchRequest,
    Moment,
    RecallRequest,
    Surface,
    WorkingState,
    asks_nothing,
)
from recallflow.models.result import EpisodeSearchResult, RecallResult, RecallTrace
from recallflow.models.session import SessionKind
from recallflow.models.store import (
    Belief,
    BeliefDraft,
    BeliefType,
    Portability,
    Scope,
    Sensitivity,
    SourceAuthority,
    StoreSummary,
)
from recallflow.models.trace_view import RecallTraceView, RetentionRun
from recallflow.policy import (
    DEFAULT_EPISODE_POLICY,
    DEFAULT_POLICY,
    SURFACE_CEILINGS,
    EpisodePolicy,
    RetrievalPolicy,
)
from recallflow.ports import (
    Embedder,
    EpisodeSearchPorts,
    ExternalProvider,
    InjectionScanner,
    QueryFormer,
    RecallPorts,
    TokenCounter,
    identity_problem,
)

_log = logging.getLogger(__name__)
#: What a caller does when the store cannot be opened because its disk is full: there is
#: no Memory yet to keep and retry with.
_FULL_AT_OPEN = "Free disk space on the volume that holds the store's data, then open it again."

#: How long a recall after this handle's own write waits for the replica to replay it
#: before reading the primary instead (seconds).
REPLICA_WAIT_S = 0.05
#: How long a recall waits for a replica connection before reading the primary (seconds).
REPLICA_TIMEOUT_S = 0.2
#: How many built recall flows (one per moment, policy and config) a Memory keeps.
FLOW_CACHE_SIZE = 16
#: A recall's or an archival search's ports (:meth:`Memory._owned`).
P = TypeVar("P", RecallPorts, EpisodeSearchPorts)
#: The ports of both that remember by text, and so are used as the reading principal's.
_CACHED_PORTS = ("embedder", "injection_scanner", "token_counter")
#: How many principals' (and ceilings') marked names a Memory keeps from their last read
#: (see :meth:`Memory._run_as_shown`); a memory bound: a principal dropped is read again.
MARKS_KEPT = 4096
#: A recall's read of the marked names its trust stage renders with.
MarksRead = MarksWithLoad | PrefetchedMarks

if TYPE_CHECKING:
    from recallflow.sessions import Session

if TYPE_CHECKING:
    from recallflow.dataflows.episodes import EpisodeFlow


def _default_embedder() -> Embedder:
    from recallflow.adapters.embedders import default_embedder

    try:
        return default_embedder()
    except ValueError as exc:  # an unknown RECALLFLOW_EMBEDDER: the setting, by name
        raise ConfigurationError(str(exc)) from None


def _argument(value: object, kind: type[Any], field: str) -> None:
    """Refuse an argument that is not a ``kind`` (a policy, an experiment) by name, rather
    than fail on its first attribute deep inside a recall."""
    if not isinstance(value, kind):
        article = "an" if kind.__name__[0] in "AEIOU" else "a"
        raise InvalidInputError(
            f"must be {article} {kind.__name__}, got {type(value).__name__}", field=field
        )


def _default_token_counter() -> TokenCounter:
    from recallflow.adapters.tokens import default_token_counter

    return default_token_counter()


class Memory:
    """An open store: ingestion surfaces, recall, and the resources behind them.

    Use it as a context manager, or call :meth:`close`; closing releases the pools, the
    arms' threads and, for the embedded server, this process's hold on it. Build it with
    :func:`open_memory`.
    """

    def __init__(
        self,
        *,
        uri: str,
        pool: GuardedPool,
        recall_pool: GuardedPool,
        embedder: Embedder,
        token_counter: TokenCounter,
        query_former: QueryFormer | None = None,
        injection_scanner: InjectionScanner | None = None,
        external_provider: ExternalProvider | None = None,
        server: EmbeddedServer | None = None,
        flow_cache_size: int = FLOW_CACHE_SIZE,
        calibration: Calibration | None = None,
        operator: bool = False,
        replica: ReplicaReads | None = None,
        written: WrittenLsn | None = None,
    ) -> None:
        self._uri = uri
        self._calibration = calibration or uncalibrated(embedder.name)
        self._operator = operator
        self._replica = replica
        self._written = written
        self._embedder = embedder
        self._token_counter = token_counter
        self._pool = pool
        self._recall_pool = recall_pool
        self._server = server
        self._closed = False
        self._unsaved_traces = 0
        self._counter_lock = threading.Lock()
        store = PostgresBeliefStore(pool)
        self.beliefs = Beliefs(store, embedder)
        self.episodes = Episodes(PostgresEpisodeStore(pool), embedder)
        self.edges = Edges(store)
        self._belief_store = store
        self._traces = PostgresTraceStore(pool)
        # The recall path remembers query vectors, token counts and scan verdicts by text:
        # the same texts come back turn after turn, and each is a pure function of it.
        self._search = PostgresBeliefSearch(recall_pool)
        counts = CachedTokenCounter(token_counter)
        if injection_scanner is None:
            from recallflow.adapters.scanning import LayeredInjectionScanner

            injection_scanner = LayeredInjectionScanner()
        verdicts = CachedInjectionScanner(injection_scanner)
        # What these remember by text is remembered per principal: each read uses them as
        # its own principal (``_owned``), so one principal's texts never show in another's.
        self._query_vectors = CachedQueryEmbedder(embedder)
        self._ports = RecallPorts(
            belief_search=self._search,
            embedder=self._query_vectors,
            token_counter=counts,
            query_former=query_former or DeterministicQueryFormer(),
            injection_scanner=verdicts,
            external_provider=external_provider,
            calibration=self._calibration,
            entity_sensitivity=PostgresEntitySensitivity(recall_pool),
        )
        self._replica_ports = (
            replace(self._ports, belief_search=PostgresBeliefSearch(replica.pool))
            if replica is not None
            else None
        )
        # One arm thread per recall connection: an arm without a connection would wait.
        self._arm_pool = ArmThreadPool(max_workers=recall_pool.max_size)
        # Reads that a recall served by the replica starts before its DAG runs (its marked
        # entities, from the primary), to overlap its arms.
        self._prefetch = ThreadPoolExecutor(max_workers=2, thread_name_prefix="rf-prefetch")
        self._flows: OrderedDict[tuple[Moment, str, str], RecallFlow] = OrderedDict()
        self._flow_cache_size = max(1, flow_cache_size)
        self._flows_lock = threading.Lock()
        # The marked names last read for each principal and ceiling (see _run_as_shown).
        self._marks_read: OrderedDict[tuple[str, str, Sensitivity], dict[str, Sensitivity]] = (
            OrderedDict()
        )
        self._marks_lock = threading.Lock()
        #: Each policy (by version) with this store's calibration bound in: binding makes a
        #: new policy object, whose version costs a hash of its dump (0.13 ms a recall).
        self._calibrated: dict[str, RetrievalPolicy] = {}
        self._episode_ports = EpisodeSearchPorts(
            episode_search=PostgresEpisodeSearch(recall_pool),
            embedder=embedder,
            token_counter=token_counter,
            injection_scanner=self._ports.injection_scanner,
            entity_sensitivity=self._ports.entity_sensitivity,
            calibration=self._calibration,
        )
        self._episode_flows: dict[str, EpisodeFlow] = {}
        # The write path back into memory (see the block at the end of the class).
        self._miss_queue = PostgresMissHints(pool)
        self.miss_hints = MissHints(self._miss_queue)

        def forget_texts() -> None:
            verdicts.clear()
            counts.clear()
            forget_vector_texts()
            # An embedder that remembers what it read of texts (the hashing embedder's
            # features) drops it too.
            drop = getattr(embedder, "forget_texts", None)
            if callable(drop):
                drop()

        #: Erasures made through this handle, per principal (and marks of a name that
        #: rewrote stored prefixes): an open session object of the principal reads its
        #: prefix back from the store once the count moves, so no forgotten statement or
        #: withheld name stays in the prefix it hands out (see :class:`Session`).
        self._erasures: dict[tuple[str, str], int] = {}
        query_vectors = self._query_vectors

        def stored_prefixes_changed(tenant: str, principal: str) -> None:
            with self._counter_lock:
                key = (tenant, principal)
                self._erasures[key] = self._erasures.get(key, 0) + 1

        def forget_principal(tenant: str, principal: str) -> None:
            query_vectors.forget(tenant, principal)
            stored_prefixes_changed(tenant, principal)

        self.corrections = Corrections(
            PostgresCorrections(pool),
            self.beliefs,
            forget_texts,
            forget_principal=forget_principal,
        )
        self._session_store = PostgresSessionStore(pool)
        self._entity_marks = PostgresEntitySensitivity(pool)
        self.entities = Entities(self._entity_marks, prefixes_rewritten=stored_prefixes_changed)

    @property
    def uri(self) -> str:
        """The PostgreSQL URI of the store (the embedded server's, or the DSN given)."""
        return self._uri

    @property
    def embedder(self) -> Embedder:
        """The embedder of this store's vectors (recorded in the store at first open)."""
        return self._embedder

    @property
    def calibration(self) -> CalibrationRef:
        """The embedder's calibration against unrelated text that the relevance floor reads
        (bound into every recall's policy, so it is part of its version)."""
        return self._calibration.ref

    @property
    def token_counter(self) -> TokenCounter:
        """The token counter budgets are measured with."""
        return self._token_counter

    @property
    def pool(self) -> GuardedPool:
        """The store's connection pool (writes and your own inspection SQL; no statement
        timeout)."""
        self._check_open()
        return self._pool

    @property
    def embedded(self) -> bool:
        """True when the store is the embedded server."""
        return self._server is not None

    @property
    def home(self) -> Path | None:
        """The embedded server's home (``RECALLFLOW_HOME``, its data directory ``pgdata``
        inside), what a backup of the embedded store is of; None for an external server."""
        return None if self._server is None else self._server.home

    def _check_open(self) -> None:
        if self._closed:
            raise ConfigurationError("this Memory is closed; open a new one with open_memory()")

    @contextmanager
    def _open_throughout(self) -> Iterator[None]:
        """Run a read that uses the Memory's threads and pools: when :meth:`close` (from
        another thread, or the exit handler) shut them under it, whatever broke on the way
        (an arm's future cancelled, a pool closed, the server stopped) is reported as the
        close it was, not as the executor's or the driver's error."""
        try:
            yield
        except Exception as exc:
            if not self._closed or isinstance(exc, ConfigurationError):
                raise
            raise ConfigurationError(
                "this Memory was closed while the call ran; open a new one with open_memory()"
            ) from exc

    def summary(self) -> list[StoreSummary]:
        """What the store holds, per tenant and principal."""
        return self._belief_store.summary()

    def search_episodes(
        self,
        request: EpisodeSearchRequest | Mapping[str, Any],
        *,
        policy: EpisodePolicy = DEFAULT_EPISODE_POLICY,
        retrieval_policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> EpisodeSearchResult:
        """Archival search of the event log: what happened, for the agent to ask when it
        decides to (no recall moment calls this; see "Moments" in docs/architecture.md).

        Full-text and vector search under one hard filter (tenant, principal, the
        surface's sensitivity ceiling, occurred by ``as_of`` and from ``since`` when
        given, recorded by ``known_as_of``), fused, floored, budgeted and rendered as a byte-stable
        ``<episodes>`` block with a trace. The principal's episodes stored before the
        store kept embeddings are embedded first (once). The trace is returned, not
        stored. A project name listed in ``retrieval_policy.project_sensitivity``, or the
        name of an entity the principal marked, is redacted where the surface's ceiling
        does not admit it (see "Trust boundary" in docs/architecture.md).
        """
        from recallflow.dataflows.episodes import EpisodeFlow, resolved_episode_request

        self._check_open()
        _argument(policy, EpisodePolicy, "policy")
        _argument(retrieval_policy, RetrievalPolicy, "retrieval_policy")
        req = resolved_episode_request(request)
        self.episodes.embed_missing(req.tenant_id, req.principal_id)
        with self._flows_lock:
            flow = self._episode_flows.get(policy.version)
            if flow is None:
                flow = EpisodeFlow(policy=policy, arm_pool=self._arm_pool)
                self._episode_flows[policy.version] = flow
        lost = self._recall_pool.unavailable_count
        self._recall_pool.probe()
        names = ProjectNames(dict(retrieval_policy.project_sensitivity))
        ports = self._owned(self._episode_ports, req.tenant_id, req.principal_id)
        with self._open_throughout():
            result = flow.run(req, ports, new_id(EPISODE_TRACE_PREFIX[:-1]), names)
        if result.trace.degraded and self._recall_pool.unavailable_count != lost:
            raise StoreUnavailableError("the database connection was lost during this search")
        return result

    def flow(
        self,
        moment: Moment | str = Moment.IN_TURN,
        policy: RetrievalPolicy = DEFAULT_POLICY,
        experiment: Experiment | None = None,
    ) -> RecallFlow:
        """The built DAG of ``moment`` under ``policy`` and ``experiment`` (built on first
        use, then reused).

        The most recently used flows are kept (``flow_cache_size`` of ``open_memory``); a
        flow dropped from the cache is rebuilt if it is asked for again.
        """
        moment = member_of(Moment, moment, "moment", "moment")
        _argument(policy, RetrievalPolicy, "policy")
        if experiment is not None:
            _argument(experiment, Experiment, "experiment")
        calibrated = self._calibrated.get(policy.version)
        if calibrated is None:
            calibrated = policy.with_calibration(self._calibration.ref)
            with self._flows_lock:
                if len(self._calibrated) >= 4 * self._flow_cache_size:
                    self._calibrated.clear()
                self._calibrated[policy.version] = calibrated
        policy = calibrated
        key = (moment, policy.version, experiment.key if experiment else "")
        with self._flows_lock:
            flow = self._flows.get(key)
            if flow is not None:
                self._flows.move_to_end(key)
                return flow
        # Built and recorded outside the lock: the build takes milliseconds and the record
        # waits on the store (for a pooled connection too), and every other recall of this
        # Memory, under a policy already built, takes the lock to find its DAG. Two threads
        # new to one policy may both build it; the first to finish is kept.
        built = RecallFlow(moment, policy=policy, experiment=experiment, arm_pool=self._arm_pool)
        self._traces.record_policy(built.policy)
        with self._flows_lock:
            flow = self._flows.setdefault(key, built)
            self._flows.move_to_end(key)
            while len(self._flows) > self._flow_cache_size:
                self._flows.popitem(last=False)
        return flow

    def recall(
        self,
        request: RecallRequest | Mapping[str, Any],
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
        experiment: Experiment | None = None,
        persist_trace: bool = True,
    ) -> RecallResult:
        """Run the recall DAG of the request's moment; returns the block and its trace.

        An ``as_of`` of None means now; ``known_as_of`` defaults to ``as_of``. The trace is
        stored (``persist_trace``) and its id is on the result. ``experiment`` swaps nodes
        by config or by module; the trace records which.

        The request's ``session_id`` is the caller's own label for the conversation, kept
        in the trace; it may not name a stored session of the principal, whose turns are
        :meth:`Session.recall <recallflow.sessions.Session.recall>` (a plain recall has no
        prefix to skip and no corrections, and would count as one of its turns).

        :raises InvalidInputError: a malformed request, an in-turn request whose working
            state has nothing to search for (no goal, query, entity, file, tool or turn
            with visible text), or a ``session_id`` that names a stored session of the
            principal, or a ``persist_trace`` that is not a bool (``"no"`` stored the
            trace); nothing is run or written.
        """
        self._check_open()
        _argument(persist_trace, bool, "persist_trace")
        req = resolved_request(request)
        if req.moment is Moment.IN_TURN and asks_nothing(req.working_state):
            # No arm would have a query: the empty block would read as "nothing is
            # remembered" to a model shown it.
            raise InvalidInputError(
                "nothing to recall for: an in-turn recall needs visible text in one of"
                " goal, query, entities, files, tools or recent_turns",
                field="working_state.goal",
            )
        if req.session_id is not None:
            self._refuse_stored_session(req)
        flow = self.flow(req.moment, policy, experiment)
        trace_id = new_id("tr")
        read_since = ReadStart()
        with self._open_throughout():
            result = self._recall(flow, req, trace_id)
        if persist_trace:
            with WrittenLsn.untracked():
                self._save(result, policy, read_since=read_since)
                self._record_miss(result, policy, read_since=read_since)
        return result

    def _recall(self, flow: RecallFlow, req: RecallRequest, trace_id: str) -> RecallResult:
        """The request's recall, read from the replica when it can serve it, else from the
        primary."""
        result = self._from_replica(flow, req, trace_id) if self._replica is not None else None
        if result is None:
            # Fail fast and typed when the store is down, rather than let every arm fail
            # and hand back a silently empty recall; if it goes down mid-recall, say so.
            # The probe also replaces every pooled connection a restarted server left
            # dead, so the arms' connections need no round trip of their own.
            lost = self._recall_pool.unavailable_count
            self._recall_pool.probe()
            result = self._run_as_shown(
                flow, req, {"trace_id": trace_id}, lambda: self._primary_ports(req)
            )
            if result.degraded and self._recall_pool.unavailable_count != lost:
                raise StoreUnavailableError("the database connection was lost during this recall")
        return result

    def _refuse_stored_session(self, req: RecallRequest) -> None:
        """Refuse a plain recall labelled with a stored session's id: its trace would read as
        a turn of that session (in the budget report, the session's idle clock and the end
        of the session's user views) without a turn's prefix skip or corrections."""
        assert req.session_id is not None
        # Session ids are generated (``s-`` and 16 hex digits): a label of another shape
        # names no session, and costs no round trip.
        if not may_be_generated("s", req.session_id):
            return
        if self._session_store.exists(req.tenant_id, req.principal_id, req.session_id):
            raise InvalidInputError(
                f"{req.session_id!r} is a session of {req.tenant_id}/{req.principal_id}:"
                " recall inside it with resume_session(tenant, principal, id).recall(state),"
                " which skips what its prefix holds and corrects what changed; a plain"
                " recall's session_id is only the caller's label for a conversation",
                field="session_id",
            )

    @staticmethod
    def _owned(ports: P, tenant_id: str, principal_id: str, **more: Any) -> P:
        """``ports`` (a recall's or an archival search's) as one principal's read uses them:
        what the caches remember by text — query vectors, scan verdicts, token counts — is
        that principal's own (see "Hard filters" in docs/architecture.md); ``more``
        replaces other ports as well."""
        for name in _CACHED_PORTS:
            port = getattr(ports, name)
            if isinstance(port, OwnedCache):
                more[name] = port.owned_by(tenant_id, principal_id)
        return replace(ports, **more)

    def _scanner_of(self, tenant_id: str, principal_id: str) -> InjectionScanner:
        """The recall path's injection scanner as one principal's reads use it."""
        return self._owned(self._ports, tenant_id, principal_id).injection_scanner

    def _primary_ports(self, req: RecallRequest) -> tuple[RecallPorts, MarksRead | None]:
        """The ports of a recall served by the primary, and its read of the marked
        entities: sent with the candidates' load (see :class:`MarksWithLoad`)."""
        inner = self._ports.entity_sensitivity
        if inner is None:
            return self._owned(self._ports, req.tenant_id, req.principal_id), None
        marks = MarksWithLoad(inner, req.tenant_id, req.principal_id, SURFACE_CEILINGS[req.surface])
        ports = self._owned(
            self._ports,
            req.tenant_id,
            req.principal_id,
            belief_search=self._search.with_marks(marks),
            entity_sensitivity=marks,
        )
        return ports, marks

    def _run_as_shown(
        self,
        flow: RecallFlow,
        req: RecallRequest,
        inputs: Mapping[str, Any],
        ports_of: Callable[[], tuple[RecallPorts, MarksRead | None]],
    ) -> RecallResult:
        """Run ``flow`` on ``req`` read as its surface shows it (see "Trust boundary" in
        docs/architecture.md): with the marked names this handle last read for the
        principal on a surface of that ceiling, so the recall needs no round trip of its
        own for them before its arms (the first recall of a principal here reads them
        first). The names the trust stage then renders with are read fresh, with the load;
        when they differ from those the request was read with in a way that reads the
        request otherwise (a mark made or lifted since, by this or another process), the
        recall is run again with the fresh ones, so no mark is ever missed."""
        key = (req.tenant_id, req.principal_id, SURFACE_CEILINGS[req.surface])
        with self._marks_lock:
            known = self._marks_read.get(key)
        inner = self._ports.entity_sensitivity
        if known is None and inner is not None:
            known = inner.marked_entities(*key)
        levels = flow.policy.project_sensitivity
        result: RecallResult | None = None
        for _ in range(2):
            ports, marks = ports_of()
            names = NameRedaction(known or {})
            result = flow.run({**inputs, "request": req, "ports": ports, "names_read": names})
            fresh = marks.answer() if marks is not None else None
            if fresh is None or fresh == known:
                break
            with self._marks_lock:
                self._marks_read[key] = fresh
                self._marks_read.move_to_end(key)
                while len(self._marks_read) > MARKS_KEPT:
                    self._marks_read.popitem(last=False)
            ceiling = key[2]
            if as_asked(req, NameRedaction(fresh), ceiling, levels) == as_asked(
                req, names, ceiling, levels
            ):
                break
            known = fresh
        assert result is not None
        if known is not None:
            with self._marks_lock:
                self._marks_read.setdefault(key, known)
        return result

    def _prefetched_marks(self, req: RecallRequest) -> PrefetchedMarks | None:
        """The recall's marked entities, read from the primary from now on while its arms
        run on the replica (see :class:`PrefetchedMarks`): a mark is read where it was
        written, never behind a replica's lag. None when the store keeps no marks."""
        inner = self._ports.entity_sensitivity
        if inner is None:
            return None
        ceiling = SURFACE_CEILINGS[req.surface]
        return PrefetchedMarks(inner, self._prefetch, req.tenant_id, req.principal_id, ceiling)

    def _from_replica(
        self, flow: RecallFlow, req: RecallRequest, trace_id: str
    ) -> RecallResult | None:
        """The recall read from the replica, or None when the primary must serve it (the
        replica is down, lost mid-recall, or has not replayed this handle's writes in time)."""
        replica, ports = self._replica, self._replica_ports
        if replica is None or ports is None or not replica.usable():
            return None
        owned = self._owned(ports, req.tenant_id, req.principal_id)

        def replica_ports() -> tuple[RecallPorts, MarksRead | None]:
            marks = self._prefetched_marks(req)
            if marks is None:
                return owned, None
            return replace(owned, entity_sensitivity=marks), marks

        lost = replica.pool.unavailable_count
        # An erasure by another process reaches the replica only once replayed: asked
        # meanwhile of the primary, while the arms run (see the replicas module).
        erased = self._prefetch.submit(
            ever_erased, self._recall_pool, req.tenant_id, req.principal_id
        )
        try:
            replica.pool.probe()
            result = self._run_as_shown(flow, req, {"trace_id": trace_id}, replica_ports)
        except StoreUnavailableError:
            replica.failed()
            return None
        if result.degraded and replica.pool.unavailable_count != lost:
            replica.failed()
            return None
        if self._replica_behind_erasure(req, result, erased):
            return None
        replica.served()
        return result

    def _replica_behind_erasure(
        self, req: RecallRequest, result: RecallResult, erased: Future[bool]
    ) -> bool:
        """Whether the replica's recall named a belief the primary no longer holds: the
        replica had not replayed its erasure, and the primary must serve the recall. Asked
        only of a principal the primary records an erasure of; a primary that cannot
        answer cannot vouch for the replica's recall either."""
        try:
            if not erased.result():
                return False
            trace = result.trace
            named = frozenset(
                (
                    *(c.belief_id for c in trace.fused),
                    *(s.belief_id for s in trace.scored),
                    *trace.rendered_ids,
                )
            )
            return bool(erased_of(self._recall_pool, req.tenant_id, req.principal_id, named))
        except (StoreUnavailableError, psycopg.Error):
            return True

    async def arecall(
        self,
        request: RecallRequest | Mapping[str, Any],
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
        experiment: Experiment | None = None,
        persist_trace: bool = True,
    ) -> RecallResult:
        """:meth:`recall` for asyncio code: runs it in a worker thread."""
        return await asyncio.to_thread(
            self.recall, request, policy=policy, experiment=experiment, persist_trace=persist_trace
        )

    def trace(self, tenant_id: str, principal_id: str, trace_id: str) -> RecallTrace:
        """A stored trace, whole: the operator view (scores, arm latencies, candidates,
        lineage). Needs the operator capability, given at ``open_memory(...,
        operator=True)``; a user's view is :meth:`explain`.

        :raises OperatorOnlyError: this handle was opened without ``operator=True``.
        :raises NotFoundError: no such trace for this tenant and principal, or its operator
            fields have expired (see :meth:`run_retention`).
        """
        self._check_open()
        if not self._operator:
            raise OperatorOnlyError(
                "the operator view of a trace needs open_memory(..., operator=True);"
                " use Memory.explain() for the user's view"
            )
        return self._traces.get_trace(
            key_of(tenant_id, "tenant_id"),
            key_of(principal_id, "principal_id"),
            key_of(trace_id, "trace_id"),
        )

    def explain(
        self,
        tenant_id: str,
        principal_id: str,
        trace_id: str,
        *,
        viewer_surface: Surface | str = Surface.DIRECT,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> RecallTraceView:
        """What the user may see of a recall: each rendered item as rendered, when and
        where it was learned, who vouched for it, its band and whether the model cited
        it; a session turn's correction lines as told; dropped, blocked and withheld
        items as counts. Filtered by the lower of the recall's and ``viewer_surface``'s
        ceilings, field by field (see "The trace" in docs/architecture.md). Another
        principal's trace is not found, like a missing one.

        :raises NotFoundError: no such trace for this tenant and principal.
        :raises InvalidInputError: an unknown viewer surface.
        """
        self._check_open()
        viewer = member_of(Surface, viewer_surface, "viewer_surface", "surface")
        _argument(policy, RetrievalPolicy, "policy")
        tenant_id = key_of(tenant_id, "tenant_id")
        principal_id = key_of(principal_id, "principal_id")
        trace_id = key_of(trace_id, "trace_id")
        stored = self._traces.get_user_view(tenant_id, principal_id, trace_id)
        ids = [str(i["belief_id"]) for i in stored.get("items", ())]
        ids += [str(i) for c in stored.get("corrections", ()) for i in c["named"]]
        facts = self._traces.belief_facts(tenant_id, principal_id, ids)
        cited = self._traces.cited_ids(tenant_id, principal_id, trace_id)
        names = NameRedaction(self._entity_marks.marks(tenant_id, principal_id))
        return trace_view(trace_id, stored, facts, cited, viewer, policy, names)

    def run_retention(
        self,
        now: datetime | str | None = None,
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
        allow_future: bool = False,
    ) -> RetentionRun:
        """The retention job at ``now`` (default: now), over one record per trace (see
        "The trace" in docs/architecture.md): the operator fields of every trace past its
        tuning window are nulled; sessions idle for ``policy.retention.session_idle_days``
        end, and the user-safe fields of every ended session's traces are deleted with it;
        an ended session is deleted once none of its traces keeps operator fields.
        Idempotent: a second run at the same ``now`` changes nothing.

        ``now`` may be earlier than the clock (a run as of then does a part of what a run
        now would), not later: run ahead of the clock, the job ends live sessions and
        deletes what is not yet due, for every principal of the store, for good. Only a
        test of the job on a simulated clock passes ``allow_future=True``.

        :raises InvalidInputError: a naive or out-of-range ``now``, or one later than the
            clock without ``allow_future`` (nothing is run).
        """
        self._check_open()
        _argument(policy, RetrievalPolicy, "policy")
        _argument(allow_future, bool, "allow_future")
        clock = datetime.now(UTC)
        at = clock if now is None else aware_instant(now, "now")
        if at > clock and not allow_future:
            raise InvalidInputError(
                f"{at.isoformat()} is later than now ({clock.isoformat()}): a retention run"
                " ahead of the clock ends live sessions and deletes what is not yet due",
                field="now",
            )
        return self._traces.run_retention(at, policy.retention.session_idle_days)

    def end_session(
        self,
        tenant_id: str,
        principal_id: str,
        session_id: str,
        *,
        at: datetime | str | None = None,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> datetime:
        """End a session (and its child runs) at ``at`` (default now): it takes no more
        turns and cannot be resumed, and the next :meth:`run_retention` deletes the
        user-safe fields of its traces. Idempotent: the first end stands; returns when
        the session ended. Another principal's session is not found, like a missing one.

        :raises NotFoundError: no such session for this tenant and principal.
        :raises InvalidInputError: a malformed id, a naive ``at``, an ``at`` before the
            session opened (its watermark), or one later than this process's clock by more
            than ``policy.writes.clock_skew_seconds``: an end that stands for good is not
            taken from a mistyped date (one ahead would keep the session taking turns, and
            its user views past the retention job, until then).
        :raises WriteCancelledError: the session row stayed locked (by a turn of the
            session, or an erasure of its principal) past ``policy.sessions.lock_timeout_ms``;
            no end was stored, and the call can be retried as it is.
        """
        self._check_open()
        _argument(policy, RetrievalPolicy, "policy")
        tenant = key_of(tenant_id, "tenant_id")
        principal = key_of(principal_id, "principal_id")
        session = key_of(session_id, "session_id")
        clock = datetime.now(UTC)
        ended = clock if at is None else aware_instant(at, "at")
        not_ahead(ended, clock, policy, field="at", kind="session")
        if at is not None:
            info, _ = self._session_store.load(tenant, principal, session)
            if ended < info.watermark:
                raise InvalidInputError(
                    f"{ended.isoformat()} is before session {session!r} opened"
                    f" ({info.watermark.isoformat()}); a session ends after it opens",
                    field="at",
                )
        return self._session_store.end(
            tenant, principal, session, ended, policy.sessions.lock_timeout_ms
        )

    # -------------------------------------------------------------------------------------
    # The write path back into memory: corrections, feedback, evidence, re-derivation,
    # erasure and miss hints (recallflow/corrections.py; see "Feedback and corrections" in
    # docs/architecture.md). Every method is one transaction with its recorded event.
    # -------------------------------------------------------------------------------------

    def _record_miss(
        self, result: RecallResult, policy: RetrievalPolicy, *, read_since: ReadStart
    ) -> None:
        """Report a recall with nothing above the floor to the miss-hint queue (after the
        recall, never inside a node); not when an erasure of the whole principal finished
        after ``read_since``, when the recall began (its subject is the principal's words),
        nor when a belief the recall weighed is no longer held (an erasure took it after
        the recall read it: one that finished before the recall began took it before)."""
        subject = missed_subject(result, policy.feedback)
        if subject is None:
            return
        try:
            self._miss_queue.record_miss(
                result.trace.tenant_id,
                result.trace.principal_id,
                [subject],
                at=datetime.now(UTC),
                rule=policy.feedback,
                read_since=read_since,
                read_ids=read_ids(result.trace),
            )
        except Exception as exc:  # a hint lost is not worth the turn's block
            _log.warning("recall miss of %r was not recorded (%s)", subject, exc)

    def supersede(
        self,
        old_id: str,
        new_belief: BeliefDraft | Mapping[str, Any],
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Belief:
        """Store ``new_belief`` as the successor of ``old_id`` (:meth:`Beliefs.supersede`)."""
        self._check_open()
        return self.beliefs.supersede(old_id, new_belief, policy=policy)

    def retract(self, tenant_id: str, principal_id: str, belief_id: str, reason: str) -> Belief:
        """Stop asserting a belief from now on, in system time (:meth:`Corrections.retract`)."""
        self._check_open()
        return self.corrections.retract(tenant_id, principal_id, belief_id, reason)

    def retire(
        self, tenant_id: str, principal_id: str, belief_id: str, reason: str | None = None
    ) -> Belief:
        """Retire a belief: it does not hold (:meth:`Corrections.retire`)."""
        self._check_open()
        return self.corrections.retire(tenant_id, principal_id, belief_id, reason)

    def expire(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        at: datetime | str | None = None,
        reason: str | None = None,
    ) -> Belief:
        """End a belief's validity at world time ``at`` (:meth:`Corrections.expire`); the
        ``reason`` is kept with the event, as for :meth:`retire`."""
        self._check_open()
        return self.corrections.expire(tenant_id, principal_id, belief_id, at, reason)

    def cite(
        self,
        tenant_id: str,
        principal_id: str,
        trace_id: str,
        belief_ids: Iterable[str],
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Citation:
        """Record the beliefs the model cited from a trace (:meth:`Corrections.cite`)."""
        self._check_open()
        _argument(policy, RetrievalPolicy, "policy")
        return self.corrections.cite(tenant_id, principal_id, trace_id, belief_ids, policy=policy)

    def reject(
        self,
        tenant_id: str,
        principal_id: str,
        trace_id: str,
        belief_id: str,
        kind: RejectionKind | str,
        *,
        replacement: BeliefDraft | Mapping[str, Any] | str | None = None,
        source_authority: SourceAuthority | str | None = None,
        project: str | None = None,
        note: str | None = None,
    ) -> Rejection:
        """Reject a belief a trace rendered, typed by ``kind`` (:meth:`Corrections.reject`);
        a ``changed`` rejection's ``replacement`` may be the new statement alone."""
        self._check_open()
        return self.corrections.reject(
            tenant_id,
            principal_id,
            trace_id,
            belief_id,
            kind,
            replacement=replacement,
            source_authority=source_authority,
            project=project,
            note=note,
        )

    def restate(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        statement: str,
        *,
        successor_id: str | None = None,
        valid_from: datetime | str | None = None,
        source_authority: SourceAuthority | str | None = None,
        source_episode_id: str | None = None,
        subject: str | None = None,
        entities: Sequence[str] | None = None,
        belief_type: BeliefType | str | None = None,
        scope: Scope | str | None = None,
        origin_project: str | None = None,
        portability: Portability | str | None = None,
        sensitivity: Sensitivity | str | None = None,
        confidence: float | None = None,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Belief:
        """Say what holds now in place of a belief: a successor with ``statement`` that
        keeps the rest of the old belief unless given supersedes it
        (:meth:`Corrections.restate`)."""
        self._check_open()
        return self.corrections.restate(
            tenant_id,
            principal_id,
            belief_id,
            statement,
            successor_id=successor_id,
            valid_from=valid_from,
            source_authority=source_authority,
            source_episode_id=source_episode_id,
            subject=subject,
            entities=entities,
            belief_type=belief_type,
            scope=scope,
            origin_project=origin_project,
            portability=portability,
            sensitivity=sensitivity,
            confidence=confidence,
            policy=policy,
        )

    def unflag(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        *,
        trace_id: str | None = None,
        note: str | None = None,
    ) -> Unflagging:
        """Clear the flag an ``unspecified`` rejection set (:meth:`Corrections.unflag`)."""
        self._check_open()
        return self.corrections.unflag(
            tenant_id, principal_id, belief_id, trace_id=trace_id, note=note
        )

    def corroborate(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        project: str,
        evidence: str,
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Belief:
        """Record evidence that a belief holds in a project (:meth:`Corrections.corroborate`)."""
        self._check_open()
        _argument(policy, RetrievalPolicy, "policy")
        return self.corrections.corroborate(
            tenant_id, principal_id, belief_id, project, evidence, policy=policy
        )

    def rederive(
        self,
        tenant_id: str,
        principal_id: str,
        drafts: Iterable[BeliefDraft | Mapping[str, Any]],
    ) -> Rederivation:
        """Re-ingest re-derived drafts with every correction replayed
        (:meth:`Corrections.rederive`)."""
        self._check_open()
        return self.corrections.rederive(tenant_id, principal_id, drafts)

    def forget(
        self, tenant_id: str, principal_id: str, *, policy: RetrievalPolicy = DEFAULT_POLICY
    ) -> Erasure:
        """Erase everything of a principal in one transaction (:meth:`Corrections.forget`).

        :raises WriteCancelledError: a lock it needed (a session row a turn holds) stayed
            held past ``policy.sessions.lock_timeout_ms``; nothing was erased."""
        self._check_open()
        _argument(policy, RetrievalPolicy, "policy")
        return self.corrections.forget(tenant_id, principal_id, policy=policy)

    def forget_belief(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Erasure:
        """Erase one belief and scrub it from traces (:meth:`Corrections.forget_belief`);
        a lock held past ``policy.sessions.lock_timeout_ms`` is a ``WriteCancelledError``
        and erases nothing, as for :meth:`forget`."""
        self._check_open()
        _argument(policy, RetrievalPolicy, "policy")
        return self.corrections.forget_belief(tenant_id, principal_id, belief_id, policy=policy)

    def forget_episode(
        self,
        tenant_id: str,
        principal_id: str,
        episode_id: str,
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Erasure:
        """Erase one episode and scrub it from traces; the beliefs derived from it stay
        (:meth:`Corrections.forget_episode`); locks are waited for as :meth:`forget` waits."""
        self._check_open()
        _argument(policy, RetrievalPolicy, "policy")
        return self.corrections.forget_episode(tenant_id, principal_id, episode_id, policy=policy)

    def forget_project(
        self,
        tenant_id: str,
        principal_id: str,
        project: str,
        *,
        dry_run: bool = False,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Erasure:
        """Erase every project-scope belief learned in ``project``, every episode logged in
        it and the not-here rejections made in it, in one transaction
        (:meth:`Corrections.forget_project`); locks are waited for as :meth:`forget`
        waits. ``dry_run``: only count what it would erase."""
        self._check_open()
        _argument(policy, RetrievalPolicy, "policy")
        return self.corrections.forget_project(
            tenant_id, principal_id, project, dry_run=dry_run, policy=policy
        )

    def forget_session(
        self,
        tenant_id: str,
        principal_id: str,
        session_id: str,
        *,
        with_beliefs: bool = False,
        dry_run: bool = False,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Erasure:
        """Erase every episode logged under ``session_id`` in one transaction, and with
        ``with_beliefs`` the beliefs derived from them (:meth:`Corrections.forget_session`);
        locks are waited for as :meth:`forget` waits. ``dry_run``: only count what it
        would erase."""
        self._check_open()
        _argument(policy, RetrievalPolicy, "policy")
        return self.corrections.forget_session(
            tenant_id,
            principal_id,
            session_id,
            with_beliefs=with_beliefs,
            dry_run=dry_run,
            policy=policy,
        )

    # -------------------------------------------------------------------------------------
    # --- access and portability (see docs/portability.md) --------------------------------

    def export_principal(self, tenant_id: str, principal_id: str) -> PrincipalExport:
        """Everything of a principal's memory another store can take in, read in one
        snapshot: every belief in every state (validity, links, conflict sets, provenance,
        sensitivity), its edges, episodes, lifecycle events, citations and rejections with
        the user-safe records of their recalls, exclusions, entity marks and miss hints. No
        embeddings (the importing store makes its own) and no sessions. A principal with
        nothing stored is an empty export.

        :raises InvalidInputError: a malformed tenant or principal id."""
        self._check_open()
        from recallflow.adapters.postgres.portability import export_principal

        tenant, principal = key_of(tenant_id, "tenant_id"), key_of(principal_id, "principal_id")
        with self._pool.connection() as conn:
            return export_principal(conn, tenant, principal)

    def import_principal(
        self,
        export: PrincipalExport | Mapping[str, Any] | str | bytes,
        *,
        tenant_id: str | None = None,
        principal_id: str | None = None,
    ) -> PrincipalImport:
        """Write an export into this store, as its principal or re-homed to ``tenant_id``
        and ``principal_id``, in one transaction: all of it or nothing. Ids, states,
        links, validity, events and marks are written as exported; statements and
        episodes are embedded with this store's embedder.

        :raises InvalidInputError: an unknown ``format``, a malformed export or one that
            names what it does not hold (naming the item and the field); nothing written.
        :raises ConflictError: an id (or an entity mark, a miss hint's subject) the target
            principal already holds, or an item it forgot after it was recorded (one by
            one, or with the whole principal), named; nothing written.
        :raises ConstraintViolation: a row the database's own rules refuse midway that
            the export's checks did not catch; the rows before it are rolled back."""
        self._check_open()
        from recallflow.adapters.postgres.errors import translate
        from recallflow.adapters.postgres.portability import import_principal, store_clock
        from recallflow.adapters.postgres.statistics import bulk_write
        from recallflow.ingestion import embedded_in_batches
        from recallflow.portability import parsed_export, rehomed

        with self._pool.connection() as conn:
            now = store_clock(conn)  # the server's, not this process's
        parsed = rehomed(parsed_export(export, now), tenant_id, principal_id)
        belief_vectors = embedded_in_batches(
            self._embedder,
            [b.statement for b in parsed.beliefs],
            [b.id for b in parsed.beliefs],
            ("the statement of belief", "the statements of beliefs"),
        )
        episode_vectors = embedded_in_batches(
            self._embedder,
            [e.content for e in parsed.episodes],
            [e.id for e in parsed.episodes],
            ("the content of episode", "the contents of episodes"),
        )
        try:
            principal = (parsed.tenant_id, parsed.principal_id)
            with bulk_write(self._pool, principals=[principal]) as conn:
                written = import_principal(conn, parsed, belief_vectors, episode_vectors)
        except (psycopg.errors.IntegrityError, psycopg.errors.DataError) as exc:
            raise translate(exc, table=exc.diag.table_name or "beliefs", items=[]) from exc
        return PrincipalImport(
            tenant_id=parsed.tenant_id, principal_id=parsed.principal_id, written=written
        )

    # -------------------------------------------------------------------------------------
    # --- sessions (see "Sessions" in docs/architecture.md) -------------------------------

    def open_session(
        self,
        tenant_id: str,
        principal_id: str,
        *,
        surface: Surface | str = Surface.DIRECT,
        project: str | None = None,
        kind: SessionKind | str = SessionKind.INTERACTIVE,
        goal: WorkingState | Mapping[str, Any] | None = None,
        model_window: int = 200_000,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Session:
        """Open a session: take its snapshot and store its cached prefix, once.

        The snapshot holds the principal's durable user-model and preference beliefs
        (chosen with no query) and, when ``goal`` is given, the goal's priming set, sized
        by ``kind``'s budget (``policy.sessions``). The returned
        :class:`~recallflow.sessions.Session` holds the prefix bytes, their sha256 and the
        watermark; its turns are :meth:`~recallflow.sessions.Session.recall`.

        :raises InvalidInputError: an unknown kind or surface (or ``child``: a child run is
            opened with :meth:`~recallflow.sessions.Session.child`), a window below
            ``policy.sessions.min_window``, or a bad id or goal (a goal given with no
            visible text in any field primes nothing: open without one instead).
        :raises WriteCancelledError: an erasure of the principal finished while the open
            read the store (``ErasedMeanwhileError``), or was still running after
            ``policy.sessions.lock_timeout_ms``; no session was stored, and the open can be
            retried as it is.
        """
        self._check_open()
        _argument(policy, RetrievalPolicy, "policy")
        from recallflow.sessions import open_session

        return open_session(
            self,
            tenant_id,
            principal_id,
            surface=surface,
            project=project,
            kind=kind,
            goal=goal,
            model_window=model_window,
            policy=policy,
        )

    def resume_session(
        self,
        tenant_id: str,
        principal_id: str,
        session_id: str,
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Session:
        """A stored session, in this or any process, with the very prefix bytes rendered at
        open. Another tenant's or principal's session is not found, exactly like a missing
        one.

        :raises NotFoundError: no such session for this tenant and principal.
        :raises InvalidInputError: a malformed id, or a policy other than the session's.
        """
        self._check_open()
        _argument(policy, RetrievalPolicy, "policy")
        from recallflow.sessions import resume_session

        return resume_session(self, tenant_id, principal_id, session_id, policy=policy)

    def _erasure_count(self, tenant_id: str, principal_id: str) -> int:
        """How many erasures of the principal this handle has made (see :class:`Session`)."""
        return self._erasures.get((tenant_id, principal_id), 0)

    def _run_flow(
        self,
        request: RecallRequest,
        policy: RetrievalPolicy,
        inputs: Mapping[str, Any],
        persist_trace: bool,
        flow: RecallFlow | None = None,
    ) -> RecallResult:
        """Run the request's moment's DAG with extra inputs (a session's), storing the trace.
        ``flow``: that DAG, when the caller got it beforehand (:meth:`flow`)."""
        self._check_open()
        if flow is None:
            flow = self.flow(request.moment, policy)
        read_since = ReadStart()
        with self._open_throughout():
            result = self._run_as_shown(
                flow,
                request,
                {"trace_id": new_id("tr"), **inputs},
                lambda: self._primary_ports(request),
            )
        if persist_trace:
            self._save(result, policy, read_since=read_since)
        return result

    def _save(
        self, result: RecallResult, policy: RetrievalPolicy, *, read_since: ReadStart
    ) -> bool:
        """Store a result's trace with the block and items it describes; False when it
        could not be stored (a lock held past ``policy.retention.write_timeout_ms``, the
        server gone, a value the database refuses, an erasure of the principal that
        finished after ``read_since``, when the recall began reading: its trace could
        hold what was erased). The recall still returns its block: the loss is logged
        and counted in :attr:`unsaved_traces`, and nothing of the trace is stored (one
        INSERT, all or nothing)."""
        try:
            self._traces.save_trace(
                result.trace,
                result.block,
                result.items,
                policy.retention.operator_days,
                timeout_ms=policy.retention.write_timeout_ms,
                read_since=read_since,
            )
        except Exception as exc:  # the block is handed over whatever the trace's fate
            self._trace_unsaved(result.trace.id, exc)
            return False
        return True

    def _trace_unsaved(self, trace_id: str, exc: Exception) -> None:
        """Count and log a trace that could not be stored (see :meth:`_save`)."""
        with self._counter_lock:
            self._unsaved_traces += 1
        _log.warning(
            "recall trace %s was not stored (%s); the recall returned its block",
            trace_id,
            failure_text(exc),
        )

    @property
    def unsaved_traces(self) -> int:
        """How many recall traces this handle could not store since it was opened (each
        logged as a warning on the ``recallflow.memory`` logger; see "Reliability" in
        docs/architecture.md). Their recalls returned their blocks; their trace ids name
        no stored trace."""
        return self._unsaved_traces

    def close(self) -> None:
        """Release the pools, the arms' threads and the server handle; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            self._arm_pool.shutdown()
            self._prefetch.shutdown()
            with self._flows_lock:
                self._flows.clear()
            self._recall_pool.close()
            if self._replica is not None:
                self._replica.pool.close()
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
    query_former: QueryFormer | None = None,
    injection_scanner: InjectionScanner | None = None,
    external_provider: ExternalProvider | None = None,
    pool_size: int = 8,
    connect_timeout: float = CONNECT_TIMEOUT_S,
    flow_cache_size: int = FLOW_CACHE_SIZE,
    calibrate: bool = True,
    operator: bool = False,
    read_dsn: str | None = None,
    replica_wait: float = REPLICA_WAIT_S,
    replica_timeout: float = REPLICA_TIMEOUT_S,
) -> Memory:
    """Open a store, starting the embedded server when no DSN is given.

    :param dsn: a PostgreSQL URI; defaults to ``RECALLFLOW_DSN``; when neither is set,
        the embedded server is used. An empty string is refused (as ``read_dsn``'s), not
        read as unset.
    :param home: the embedded server's home (default ``RECALLFLOW_HOME`` or the user
        data directory); ignored with a DSN.
    :param embedder: the Embedder; default: :func:`recallflow.adapters.embedders.default_embedder`.
    :param token_counter: the TokenCounter; default: the offline cl100k counter.
    :param query_former: forms the recall queries of a working state; default: the
        deterministic former.
    :param injection_scanner: the trust boundary's scanner; default: the library's.
    :param external_provider: an external recall source fused as one more arm; default:
        none (the external arm stays off).
    :param pool_size: connections of the recall pool (the store pool gets half, at least
        2); both must fit in what the server allows at once (its ``max_connections``, less
        the slots it reserves for superusers when the role is not one).
    :param connect_timeout: how long a call waits for a database connection before it
        raises :class:`~recallflow.errors.StoreUnavailableError` (seconds).
    :param flow_cache_size: how many built recall flows (per moment, policy and config)
        to keep; the least recently used is dropped beyond that.
    :param calibrate: calibrate the embedder against unrelated text when the store has no
        calibration of it yet (one embedding batch of a few hundred short sentences, then
        stored); when False and none is stored, the floor falls back to lexical evidence
        alone and a warning is logged (see "Relevance floor" in docs/architecture.md).
    :param operator: the operator capability: :meth:`Memory.trace` (scores, latencies,
        candidates, lineage) is refused without it; :meth:`Memory.explain` needs none.
    :param read_dsn: a streaming replica of the store (default ``RECALLFLOW_READ_DSN``;
        when neither is set, every read goes to the store): recalls read it, while writes and
        traces go to the primary. A recall after this handle's own write reads the
        replica only once it has replayed the write (waiting at most ``replica_wait``
        seconds), else the primary; a replica that is down or fails mid-recall is
        skipped for a back-off and the recall runs on the primary (see docs/scaling.md).
    :param replica_timeout: how long a recall waits for a replica connection before it
        falls back to the primary (seconds).
    """
    _check_settings(
        home=home,
        ports={
            "token_counter": (token_counter, TokenCounter),
            "query_former": (query_former, QueryFormer),
            "injection_scanner": (injection_scanner, InjectionScanner),
            "external_provider": (external_provider, ExternalProvider),
        },
        numbers={
            "connect_timeout": (connect_timeout, False),
            "replica_timeout": (replica_timeout, False),
            "replica_wait": (replica_wait, True),
        },
        counts={"pool_size": pool_size, "flow_cache_size": flow_cache_size},
        flags={"calibrate": calibrate, "operator": operator},
    )
    # Given and empty (``dsn=os.environ.get("DB", "")`` with DB unset), it was read as not
    # given and the embedded home (or RECALLFLOW_DSN's server) opened: another store than the
    # caller's. An empty variable still reads as unset, as shells make them.
    for name, given in (("dsn", dsn), ("read_dsn", read_dsn)):
        if isinstance(given, str) and not given.strip():
            raise ConfigurationError(f"{name}: is empty: give a connection string, or leave it out")
    dsn = _conninfo(dsn or os.environ.get("RECALLFLOW_DSN") or None, "dsn (or RECALLFLOW_DSN)")
    # Named by where it came from: a process started with the variable set was not given
    # a read_dsn argument by its own code.
    read_source = "read_dsn" if read_dsn is not None else "RECALLFLOW_READ_DSN"
    if read_dsn is None:
        read_dsn = os.environ.get("RECALLFLOW_READ_DSN") or None
    read_dsn = _conninfo(read_dsn, read_source)
    # The replica's pool opens without waiting on it (a replica that is down is skipped),
    # so an option libpq refuses would fail every replica read and never be named.
    refused = refused_on_start(read_dsn) if read_dsn else None
    if refused is not None:
        raise ConnectionOptionError(read_source, refused)
    # ``is None``, not falsiness: an empty list or string given for the embedder was read as
    # none given and the default embedder used, a different space than the caller named.
    embedder = _default_embedder() if embedder is None else embedder
    if not isinstance(embedder, Embedder):
        raise ConfigurationError(
            f"embedder must implement recallflow.Embedder, got {type(embedder).__name__}"
        )
    problem = identity_problem(embedder.name, embedder.dimension)
    if problem is not None:
        raise UnsupportedEmbedderError(str(embedder.name), problem)
    token_counter = _default_token_counter() if token_counter is None else token_counter
    server: EmbeddedServer | None = None
    try:
        if dsn is None:
            if home is not None:
                server = EmbeddedServer(home_path(home, "home"), "home")
            else:
                server = EmbeddedServer(default_home(), default_home_source())
            ensure_database(server.uri("postgres"), DATABASE)
            uri = server.uri(DATABASE)
        else:
            uri = dsn
        with connection(uri) as conn:  # before anything is written
            _check_pool_size(pool_size, connection_limit(conn))
        prepare(uri)
        with connection(uri) as conn:
            ensure_embedding_space(conn, embedder.name, embedder.dimension)
            calibration = _calibration(conn, embedder, calibrate)
            identity = store_identity(conn) if read_dsn else None
        revive = server.ensure_running if server is not None else None
        written = WrittenLsn() if read_dsn else None
        pool = open_pool(
            uri,
            "store",
            max_size=_store_pool_size(pool_size),
            timeout=connect_timeout,
            revive=revive,
            pool_class=partial(TrackingPool, written=written) if written else GuardedPool,
        )
        opened = [pool]
        try:
            recall_pool = open_pool(
                uri, "recall", max_size=pool_size, timeout=connect_timeout, revive=revive
            )
            opened.append(recall_pool)
            replica = None
            if read_dsn and written is not None and identity is not None:
                guard = IdentityGuard(
                    identity, read_dsn, partial(postmaster_started, recall_pool), read_source
                )
                replica_pool = open_pool(
                    read_dsn,
                    "recall",
                    max_size=pool_size,
                    timeout=replica_timeout,
                    wait=False,
                    verify=guard.verify,
                    pool_class=partial(
                        ReplicaPool, written=written, wait_s=replica_wait, guard=guard
                    ),
                )
                opened.append(replica_pool)
                # A replica that answers now is checked now: one of another store is
                # refused here, not found out by a log line on the first recall. One that
                # does not answer within replica_timeout is checked when it does.
                with suppress(StoreUnavailableError):
                    replica_pool.probe(replica_timeout)
                guard.opened = True  # what it finds from here on is logged, not raised
                if guard.mismatch is not None or guard.diverged is not None:
                    raise ReplicaMismatchError(guard.mismatch or guard.diverged or "")
                assert isinstance(replica_pool, ReplicaPool)
                replica = ReplicaReads(replica_pool)
        except BaseException:
            for opened_pool in opened:
                opened_pool.close()
            raise
    except (psycopg.OperationalError, StoreUnavailableError) as exc:
        if server is not None:
            server.release()
        full = as_unavailable(exc)
        if isinstance(full, StorageFullError):
            raise StorageFullError(full.detail, hint=_FULL_AT_OPEN) from exc
        refused = refused_option(dsn, str(exc)) if dsn else None
        if refused is not None:
            raise ConnectionOptionError("dsn (or RECALLFLOW_DSN)", refused) from exc
        where = "the embedded PostgreSQL"
        if dsn:
            where = f"PostgreSQL at {without_password(dsn)}"
        elif server is not None:
            where += f" in {server.pgdata}"
        raise ConfigurationError(f"cannot connect to {where}: {exc}") from exc
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
        query_former=query_former,
        injection_scanner=injection_scanner,
        external_provider=external_provider,
        server=server,
        flow_cache_size=flow_cache_size,
        calibration=calibration,
        operator=operator,
        replica=replica,
        written=written,
    )


def _check_settings(
    *,
    home: object,
    ports: Mapping[str, tuple[object, type]],
    numbers: Mapping[str, tuple[object, bool]],
    counts: Mapping[str, object],
    flags: Mapping[str, object],
) -> None:
    """Refuse a setting of :func:`open_memory` it cannot use before anything connects or
    starts, with a :class:`ConfigurationError` naming it: a port that does not implement
    its protocol, a number of seconds that is not a finite positive number (``zero_ok``:
    or zero), a count that is not a whole number of at least 1, a switch that is not a
    bool (``"no"`` is not False), a home that is not a path. Each was otherwise taken as
    it came and failed later as the driver's or the interpreter's error, or not at all
    (``operator="no"`` granted the operator capability)."""
    if home is not None and not isinstance(home, str | os.PathLike):
        raise ConfigurationError(f"home must be a path (str or Path), got {type(home).__name__}")
    for name, (port, protocol) in ports.items():
        if port is not None and not isinstance(port, protocol):
            raise ConfigurationError(
                f"{name} must implement recallflow.{protocol.__name__}, got {type(port).__name__}"
            )
    for name, (seconds, zero_ok) in numbers.items():
        if not _seconds(seconds, zero_ok=zero_ok):
            least = "zero or more" if zero_ok else "positive"
            raise ConfigurationError(
                f"{name} must be a finite number of seconds, {least}, got {seconds!r}"
            )
    for name, count in counts.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ConfigurationError(f"{name} must be a whole number of at least 1, got {count!r}")
    for name, flag in flags.items():
        if not isinstance(flag, bool):
            raise ConfigurationError(f"{name} must be True or False, got {flag!r}")


def _store_pool_size(pool_size: int) -> int:
    """Connections of the store pool for a recall pool of ``pool_size``: half, at least 2."""
    return max(2, pool_size // 2)


def _check_pool_size(pool_size: int, limit: int) -> None:
    """Refuse a ``pool_size`` whose two pools could not all connect to the server at once
    (``limit``: what the server lets this role hold), naming it: it was taken, and a
    handle under load failed later, recall by recall, on "too many clients"."""
    needed = pool_size + _store_pool_size(pool_size)
    if needed > limit:
        raise ConfigurationError(
            f"pool_size must leave the two pools room on the server: pool_size={pool_size}"
            f" needs up to {needed} connections ({pool_size} for recalls and"
            f" {_store_pool_size(pool_size)} for writes), and the server allows {limit}"
            " (its max_connections, less what it reserves)"
        )


def _seconds(value: object, *, zero_ok: bool) -> bool:
    """``value`` is a finite number of seconds above zero (or zero, when ``zero_ok``)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value) and (value > 0 or (zero_ok and value == 0))


def _conninfo(value: str | None, name: str) -> str | None:
    """A connection string ``open_memory`` was given, checked before anything connects: a
    malformed one is a :class:`ConfigurationError` naming where it came from, not the
    driver's parse error (or, for a replica, a warning on every recall)."""
    if value is None:
        return None
    from recallflow.adapters.postgres.conninfo import conninfo_problem

    problem = (
        f"got {type(value).__name__}, not a string"
        if not isinstance(value, str)
        else conninfo_problem(value)
    )
    if problem is not None:
        raise ConfigurationError(f"{name}: not a PostgreSQL connection string ({problem})")
    return value


def _calibration(conn: psycopg.Connection[Any], embedder: Embedder, calibrate: bool) -> Calibration:
    """The store's calibration of ``embedder``: stored, else computed and stored (when
    ``calibrate``), else the conservative default with a warning."""
    stored = load_calibration(conn, embedder.name, CORPUS_VERSION)
    if stored is not None:
        check_same_model(embedder, stored)
        return stored
    if calibrate:
        fresh = calibrate_embedder(embedder)
        save_calibration(conn, fresh)
        return fresh
    _log.warning(
        "embedder %s has no calibration in this store: the relevance floor trusts lexical"
        " evidence only (open the store with calibrate=True to calibrate it)",
        embedder.name,
    )
    return uncalibrated(embedder.name)
