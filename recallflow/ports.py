"""The ports: small ``typing.Protocol`` interfaces that nodes and the API depend on, and
``adapters/`` implement.

Nodes never import an adapter or psycopg; they receive these ports as inputs, so any
one can be swapped for a fake in a test or for another backend.

- :class:`BeliefStore`, :class:`EpisodeStore`: the write surface a formation process uses.
- :class:`EpisodeSearch`: archival search over the event log (agent-invoked only).
- :class:`Embedder`, :class:`TokenCounter`: models that run offline.
- :class:`BeliefSearch`, :class:`QueryFormer`, :class:`InjectionScanner`,
  :class:`ExternalProvider`: what one recall uses, bundled in :class:`RecallPorts`.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from recallflow.core.calibration import Calibration, shape_problem
from recallflow.errors import RecallflowError, UnsupportedEmbedderError
from recallflow.models.corrections import (
    Citation,
    Erasure,
    MissHint,
    MissReport,
    Rederivation,
    Rejection,
    RejectionKind,
    Unflagging,
)
from recallflow.models.history import BeliefHistory
from recallflow.models.read_start import ReadStart
from recallflow.models.request import WorkingState
from recallflow.models.result import RecalledItem, RecallQuery, RecallTrace
from recallflow.models.session import DurableQuery
from recallflow.models.stages import EpisodeFilter, EvidenceSet, HardFilter
from recallflow.models.store import Belief, BeliefEdge, Episode, Sensitivity, StoreSummary
from recallflow.policy import ArmLimits, Feedback


@runtime_checkable
class Embedder(Protocol):
    """Turns text into unit vectors; the same text always gives the same vector."""

    @property
    def name(self) -> str:
        """A stable id of the model and settings; stored with the vectors it made."""
        ...

    @property
    def dimension(self) -> int:
        """The length of every vector."""
        ...

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """An array of shape ``(len(texts), dimension)``, rows L2-normalised."""
        ...


def identity_problem(name: object, dimension: object) -> str | None:
    """What is wrong with an embedder's ``name`` and ``dimension`` as the port needs them
    (``None`` when nothing is): a non-empty string without control characters (it is
    stored with the vectors and keys the calibration), and a whole number (a column's
    width). Checked at open, before the store records either."""
    if not isinstance(name, str) or not name.strip():
        return f"its name must be a non-empty string, got {name!r} ({type(name).__name__})"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return f"its name must not hold control characters, got {name!r}"
    if isinstance(dimension, bool) or not isinstance(dimension, numbers.Integral):
        return (
            f"its dimension must be a whole number, got {dimension!r} ({type(dimension).__name__})"
        )
    return None


def query_embedding(embedder: Embedder) -> Callable[[Sequence[str]], npt.NDArray[np.float32]]:
    """How ``embedder`` embeds search queries: its ``embed_queries`` when it has one (a
    model that tells queries from passages, as e5 does with its prefixes), else ``embed``.
    Every path that embeds a query takes it from here, so a recall, an archival search and
    the evaluation embed the same query alike.

    An answer of the wrong shape, or not of numbers, raises
    :class:`~recallflow.errors.UnsupportedEmbedderError`: that model is broken for every
    query, and the recall's null similarity would fail on it with a bare numpy error. A
    row that is not unit length is one input gone wrong, and the statements that would
    send it refuse it instead (the recall degrades; see
    :mod:`recallflow.adapters.postgres.vectors`)."""
    as_queries = getattr(embedder, "embed_queries", None)
    embed: Callable[[Sequence[str]], npt.NDArray[np.float32]] = (
        as_queries if callable(as_queries) else embedder.embed
    )
    call = "embed_queries()" if callable(as_queries) else "embed()"

    def checked(texts: Sequence[str]) -> npt.NDArray[np.float32]:
        vectors = answer(embedder, call, embed, texts, f"a query of {len(texts)} texts")
        problem = shape_problem(vectors, len(texts), embedder.dimension, call)
        if problem is not None:
            raise UnsupportedEmbedderError(embedder.name, problem)
        return np.asarray(vectors, dtype=np.float32)

    return checked


def answer(
    embedder: Embedder,
    call: str,
    model: Callable[[Sequence[str]], npt.NDArray[np.float32]],
    texts: Sequence[str],
    what: str,
) -> npt.NDArray[np.float32]:
    """``model(texts)`` (``embedder``'s ``call``, embedding ``what``), with an exception the
    model raises turned into :class:`~recallflow.errors.UnsupportedEmbedderError` naming
    the call and what it was embedding, the model's own exception as its cause. A user's
    model (or a remote one) can fail on one input or time out mid-batch; its bare exception
    would leave the stage graph or a write with nothing to say which texts it was given.
    Only :class:`Exception` is caught (an interrupt stays an interrupt), and a recallflow
    error passes as it is."""
    try:
        return model(texts)
    except RecallflowError:  # already typed (a wrapped embedder's own check)
        raise
    except Exception as exc:
        raise UnsupportedEmbedderError(
            embedder.name, f"{call} raised {type(exc).__name__} ({exc}) embedding {what}"
        ) from exc


@runtime_checkable
class TokenCounter(Protocol):
    """Counts tokens the way the consuming model's tokenizer does (for the token budget)."""

    @property
    def encoding(self) -> str:
        """The encoding counted in, e.g. ``cl100k_base``."""
        ...

    def count(self, text: str) -> int:
        """How many tokens ``text`` is."""
        ...


class VectorRows(Protocol):
    """Row ``i``'s vector by index, and how many rows there are: a numpy array of shape
    ``(n, dimension)``, or vectors embedded while they are read
    (:class:`~recallflow.ingestion.StreamedVectors`)."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int, /) -> npt.NDArray[np.float32]: ...


class BeliefStore(Protocol):
    """Where beliefs are written and read back by id."""

    def write_beliefs(self, beliefs: Sequence[Belief], embeddings: VectorRows) -> list[Belief]:
        """Write all of ``beliefs`` (row i with ``embeddings[i]``) or none of them; returns
        each as stored (a re-added identical belief is the stored one)."""
        ...

    def get_belief(self, tenant_id: str, principal_id: str, belief_id: str) -> Belief:
        """The belief with that id; raises :class:`~recallflow.errors.NotFoundError`."""
        ...

    def list_beliefs(self, tenant_id: str, principal_id: str) -> list[Belief]:
        """Every belief of a principal, ordered by id (for inspection, not recall)."""
        ...

    def held_beliefs(
        self,
        f: HardFilter,
        *,
        project: str | None,
        subject: str | None,
        entity: str | None,
        belief_type: str | None,
        source_episode_id: str | None,
        after: str | None,
        limit: int,
    ) -> list[Belief]:
        """The beliefs a recall under ``f`` may show, in id order after ``after`` (at most
        ``limit``), each in its state at ``f.as_of``; only those learned in ``project``,
        whose subject key holds ``subject``, that have the entity key ``entity``, are of
        ``belief_type`` and were formed from the episode ``source_episode_id``, when
        given."""
        ...

    def belief_history(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        links: int,
        events: int | None = None,
    ) -> BeliefHistory:
        """The belief, its supersession chain (at most ``links`` beliefs each way) and its
        recorded events (every one, or the latest ``events``), read in one snapshot; raises
        :class:`~recallflow.errors.NotFoundError` as :meth:`get_belief` does."""
        ...

    def belief_edges(
        self,
        f: HardFilter,
        belief_id: str,
        *,
        relation: str | None,
        outgoing: bool,
        incoming: bool,
        limit: int,
    ) -> list[BeliefEdge]:
        """The edges from (``outgoing``) and to (``incoming``) the belief whose both ends a
        recall under ``f`` may show, of ``relation`` when given, the strongest first (at
        most ``limit``); none when the belief itself is hidden. Raises
        :class:`~recallflow.errors.NotFoundError` on ``belief_id`` as :meth:`get_belief`
        does."""
        ...

    def write_edges(self, edges: Sequence[BeliefEdge]) -> None:
        """Write all of ``edges`` or none of them. An edge stored with the same weight is
        not written again; with another weight it is a
        :class:`~recallflow.errors.ConflictError` naming the item and ``weight``."""
        ...

    def summary(self) -> list[StoreSummary]:
        """What the store holds, per tenant and principal."""
        ...


class EpisodeStore(Protocol):
    """The ordered event log."""

    def write_episodes(
        self,
        episodes: Sequence[Episode],
        embeddings: npt.NDArray[np.float32],
        *,
        refuse_forgotten: bool = False,
    ) -> list[Episode]:
        """Write all of ``episodes`` (row i with ``embeddings[i]``) or none of them; returns
        each as stored. An id stored with the same content is not written again (the
        stored episode is returned); with other content it is a
        :class:`~recallflow.errors.ConflictError` naming the item and field. With
        ``refuse_forgotten``, an id not stored that its principal forgot
        (``forget_episode``) is a :class:`~recallflow.errors.ConflictError` on ``id``
        naming the item, and nothing is written."""
        ...

    def get_episode(self, tenant_id: str, principal_id: str, episode_id: str) -> Episode:
        """The episode with that id; raises :class:`~recallflow.errors.NotFoundError`."""
        ...

    def logged_episodes(
        self,
        f: EpisodeFilter,
        *,
        session_id: str | None,
        project: str | None,
        kind: str | None,
        after: str | None,
        newest_first: bool,
        limit: int,
    ) -> list[Episode]:
        """The episodes that pass ``f`` (archival search's filter, ``f.since`` with it), in
        the order they happened (``occurred_at``, then the order they were stored), newest
        first when asked, at most ``limit``: only those of ``session_id``, of ``project``
        and of ``kind``, when given, and only those past
        the episode ``after`` in that order. An ``after`` the principal has no episode of
        raises :class:`~recallflow.errors.NotFoundError` naming ``after``."""
        ...

    def unembedded_episodes(
        self, tenant_id: str, principal_id: str, limit: int, after: str = ""
    ) -> list[tuple[str, str]]:
        """(id, content) of at most ``limit`` episodes stored without an embedding whose id
        sorts after ``after``, in id order."""
        ...

    def write_episode_embeddings(
        self,
        tenant_id: str,
        principal_id: str,
        ids: Sequence[str],
        embeddings: npt.NDArray[np.float32],
    ) -> None:
        """Set the embedding of each episode of ``ids`` that has none yet."""
        ...


class EpisodeSearch(Protocol):
    """The event log as archival search sees it: every method is hard-filtered (see
    "Moments" in docs/architecture.md). Only the archival search DAG holds this port; no
    recall moment can reach it."""

    def full_text(self, f: EpisodeFilter, text: str, words: int, limit: int, cap: int) -> RawHits:
        """Episodes containing the first ``words`` distinct words of ``text`` (English
        stemming), best first; the score is the share of those words an episode contains.
        At most ``cap`` matches are gathered per probe before ranking."""
        ...

    def vector(
        self,
        f: EpisodeFilter,
        vector: npt.NDArray[np.float32],
        limit: int,
        ef_search: int,
        exact: int,
    ) -> RawHits:
        """The episodes nearest to ``vector``; the score is the cosine similarity. Exact
        for a principal of at most ``exact`` episodes, else through the vector index
        (approximate, searching ``ef_search`` candidates at a time)."""
        ...

    def load(self, f: EpisodeFilter, ids: Sequence[str]) -> list[Episode]:
        """The episodes with ``ids`` that pass the filter."""
        ...


class EntitySensitivity(Protocol):
    """The entity keys a principal marked with a sensitivity of their own (see "Trust
    boundary" in docs/architecture.md)."""

    def marked_entities(
        self, tenant_id: str, principal_id: str, above: Sensitivity
    ) -> dict[str, Sensitivity]:
        """The principal's marked entity keys whose level is above ``above``."""
        ...


@dataclass(frozen=True)
class EpisodeSearchPorts:
    """Every port one archival episode search uses, injected as the single input
    ``episode_ports`` (a plain class for the reason given on :class:`RecallPorts`)."""

    episode_search: EpisodeSearch
    embedder: Embedder
    token_counter: TokenCounter
    injection_scanner: InjectionScanner
    entity_sensitivity: EntitySensitivity | None = None
    calibration: Calibration | None = None


#: An arm's raw answer: (belief id, arm-specific score), best first.
RawHits = list[tuple[str, float]]


class BeliefSearch(Protocol):
    """The belief store as the arms see it: every method is hard-filtered.

    Each arm takes the policy's :class:`~recallflow.policy.ArmLimits` whole and reads its
    own numbers there (hits per arm, caps, thresholds), so an implementation keeps no
    tuning defaults of its own. An arm still running after ``limits.timeout_ms`` must stop
    and raise :class:`TimeoutError`; the arm then degrades the recall instead of failing it.
    """

    def structured(self, f: HardFilter, keys: Sequence[str], limits: ArmLimits) -> RawHits:
        """Beliefs whose subject or an entity equals one of ``keys``, weighted by key rarity;
        keys on more than ``limits.common_share`` of the principal's beliefs are ignored."""
        ...

    def lexical(self, f: HardFilter, texts: Sequence[str], limits: ArmLimits) -> RawHits:
        """BM25 (binary tf) over the words of ``texts``, at most ``limits.lexical_candidate_cap``
        matches per probe; words on more than ``limits.common_share`` of the principal's
        beliefs are ignored."""
        ...

    def trigram(self, f: HardFilter, terms: Sequence[str], limits: ArmLimits) -> RawHits:
        """Beliefs whose short subject is trigram-similar to one of ``terms`` (a term
        similar to more than ``limits.trigram_term_matches`` keys: the key it spells)."""
        ...

    def semantic(
        self, f: HardFilter, vectors: npt.NDArray[np.float32], limits: ArmLimits
    ) -> RawHits:
        """Nearest beliefs by cosine similarity to any of ``vectors``."""
        ...

    def in_period(
        self,
        f: HardFilter,
        periods: Sequence[tuple[datetime, datetime]],
        vectors: npt.NDArray[np.float32],
        limits: ArmLimits,
    ) -> RawHits:
        """Beliefs whose world time (``valid_from``) falls in one of ``periods``
        (``[start, end)``), nearest to any of ``vectors`` first (score: the best cosine)."""
        ...

    def neighbours(self, f: HardFilter, seeds: Sequence[str], limits: ArmLimits) -> RawHits:
        """Beliefs linked to ``seeds`` over belief edges (score: the edge weights along the
        path, times ``limits.graph_hop_decay`` per hop)."""
        ...

    def durable(self, f: HardFilter, q: DurableQuery, limits: ArmLimits) -> RawHits:
        """Beliefs of the durable types that pass the filter, with no query (the session
        snapshot's core candidates): beliefs not transferred into ``q.project`` first,
        then by confidence × authority factor, then id; score: that product."""
        ...

    def load(self, f: HardFilter, ids: Sequence[str], project: str | None = None) -> list[Belief]:
        """The beliefs with ``ids`` that pass the filter, plus the other members of their
        conflict sets that pass it (so a conflict is shown whole); none that was rejected
        as not holding in ``project`` (a relevance exclusion, not a hard filter)."""
        ...

    def load_with_evidence(
        self,
        f: HardFilter,
        ids: Sequence[str],
        texts: Sequence[str],
        vectors: npt.NDArray[np.float32],
        keys: Sequence[str],
        limits: ArmLimits,
        project: str | None = None,
        bridge_seeds: Sequence[str] = (),
        asked: Sequence[str] = (),
    ) -> tuple[list[Belief], EvidenceSet | Exception]:
        """:meth:`load` of ``ids``, and the relevance evidence of the beliefs it loads, at
        once (a store reads both in one round trip). The evidence, for each loaded belief:
        its cosine with each query vector, its rarity-weighted coverage of the text queries
        and whether its subject or an entity is one of ``keys`` that few beliefs carry; and
        the links between them (see "Relevance floor" in docs/architecture.md). A failed
        load raises; evidence that failed after a load that did not is returned as the
        exception it raised, beside the loaded beliefs.

        Also loaded, with their evidence: the other holders of a bridge of
        ``bridge_seeds`` (some of ``ids``), an entity such a seed holds that is neither in
        ``keys`` nor in ``asked`` (the query's keys) and that 2 to
        ``limits.bridge_holders`` beliefs passing ``f`` hold, when that many pass it."""
        ...


@runtime_checkable
class QueryFormer(Protocol):
    """Forms the recall queries of a working state. Must be deterministic."""

    def form(self, state: WorkingState) -> tuple[RecallQuery, ...]:
        """At most ~8 deduplicated queries."""
        ...


@runtime_checkable
class InjectionScanner(Protocol):
    """Names the injection technique (the *family*) recalled text uses, or ``None`` when
    it reads as a statement rather than instructions (see "Trust boundary" in
    docs/architecture.md). The family is recorded per blocked item in the trace."""

    @property
    def version(self) -> str:
        """Identifies the rules, recorded in the trace."""
        ...

    def scan(self, text: str) -> str | None:
        """The family found in ``text`` (it is then rendered ``[BLOCKED]``), or None."""
        ...


@runtime_checkable
class ExternalProvider(Protocol):
    """An external recall source fused as one more arm. Off by default."""

    @property
    def name(self) -> str: ...

    def search(self, f: HardFilter, queries: Sequence[RecallQuery], limit: int) -> RawHits:
        """Ids of beliefs in *this* store (they are loaded and hard-filtered again)."""
        ...


class TraceStore(Protocol):
    """Where RecallTraces are kept (see "The trace" in docs/architecture.md)."""

    def save_trace(
        self,
        trace: RecallTrace,
        block: str = "",
        items: Sequence[RecalledItem] = (),
        operator_days: float = 30.0,
        timeout_ms: int | None = None,
        read_since: ReadStart | None = None,
    ) -> None:
        """Persist one trace with the block and items it describes; its operator fields
        expire after ``operator_days``. A write that cannot finish within ``timeout_ms``
        (when given) raises and stores nothing, and so does one whose recall began reading
        at ``read_since`` (when given) or before it, if an erasure of its principal
        finished since."""
        ...

    def get_trace(self, tenant_id: str, principal_id: str, trace_id: str) -> RecallTrace:
        """The operator view of a stored trace; raises NotFoundError."""
        ...


@dataclass(frozen=True)
class RecallPorts:
    """Every port one recall uses, injected into the DAG as the single input ``ports``.

    (Hamilton checks each input's runtime type and cannot check a Protocol, so the ports
    travel in this plain class and :mod:`recallflow.nodes.wiring` hands each one on.)
    """

    belief_search: BeliefSearch
    embedder: Embedder
    token_counter: TokenCounter
    query_former: QueryFormer
    injection_scanner: InjectionScanner
    external_provider: ExternalProvider | None = None
    calibration: Calibration | None = None
    entity_sensitivity: EntitySensitivity | None = None


class CorrectionStore(Protocol):
    """Every write back into memory, each in one transaction with its recorded event (see
    "Feedback and corrections" in docs/architecture.md). Ids of another principal are
    refused exactly like ids that do not exist."""

    def retract(
        self, tenant_id: str, principal_id: str, belief_id: str, reason: str, now: datetime
    ) -> Belief: ...

    def retire(
        self, tenant_id: str, principal_id: str, belief_id: str, reason: str | None, now: datetime
    ) -> Belief: ...

    def expire(
        self, tenant_id: str, principal_id: str, belief_id: str, at: datetime, reason: str | None
    ) -> Belief: ...

    def corroborate(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        project: str,
        evidence_id: str,
        now: datetime,
        rule: Feedback,
    ) -> Belief: ...

    def cite(
        self,
        tenant_id: str,
        principal_id: str,
        trace_id: str,
        belief_ids: Sequence[str],
        now: datetime,
        rule: Feedback,
    ) -> Citation: ...

    def reject(
        self,
        tenant_id: str,
        principal_id: str,
        trace_id: str,
        belief_id: str,
        kind: RejectionKind,
        now: datetime,
        *,
        replacement: Belief | None,
        embedding: npt.NDArray[np.float32] | None,
        project: str | None,
        note: str | None,
    ) -> Rejection: ...

    def unflag(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        *,
        trace_id: str | None,
        note: str | None,
    ) -> Unflagging:
        """Clear a belief's flag with its ``unflagged`` event; a belief not flagged is left
        as it is and nothing is recorded."""
        ...

    def rendered_belief(
        self, tenant_id: str, principal_id: str, trace_id: str, belief_id: str
    ) -> Belief:
        """A belief the trace rendered, as stored. Whether the trace rendered it is checked
        before the belief is read, so one it did not render is the same
        :class:`~recallflow.errors.NotRenderedError` whether it exists or not."""
        ...

    def exclusions(self, tenant_id: str, principal_id: str, belief_id: str) -> tuple[str, ...]: ...

    def rederive(
        self,
        tenant_id: str,
        principal_id: str,
        drafts: Sequence[Belief],
        embeddings: npt.NDArray[np.float32],
    ) -> Rederivation: ...

    def forget(self, tenant_id: str, principal_id: str, lock_timeout_ms: int) -> Erasure: ...

    def forget_belief(
        self, tenant_id: str, principal_id: str, belief_id: str, lock_timeout_ms: int
    ) -> Erasure: ...

    def forget_episode(
        self, tenant_id: str, principal_id: str, episode_id: str, lock_timeout_ms: int
    ) -> Erasure: ...

    def forget_scope(
        self,
        tenant_id: str,
        principal_id: str,
        scope: Literal["project", "session"],
        name: str,
        with_beliefs: bool,
        lock_timeout_ms: int,
        dry_run: bool = False,
    ) -> Erasure: ...


class FormationSink(Protocol):
    """Where the read path sends signals back to formation: recall misses."""

    def record_miss(
        self,
        tenant_id: str,
        principal_id: str,
        subjects: Sequence[str],
        *,
        at: datetime,
        rule: Feedback,
        read_since: ReadStart | None = None,
        read_ids: Sequence[str] = (),
    ) -> None:
        """Queries that found nothing above the floor, by subject key, at system time
        ``at``; ``rule`` says how many misses within which window queue a hint. With
        ``read_since`` (when the recall began), nothing is recorded when an erasure of the
        whole principal finished at or after it, which the miss would outlive, nor when one
        of ``read_ids`` (the beliefs the recall weighed) is no longer held: an erasure took
        it after the recall read it."""
        ...


class MissHintQueue(FormationSink, Protocol):
    """The queued miss hints, as formation reads and acknowledges them."""

    def pending(self, tenant_id: str, principal_id: str) -> list[MissHint]:
        """Queued, unacknowledged hints, oldest first."""
        ...

    def ack(self, tenant_id: str, principal_id: str, subject: str, at: datetime) -> MissHint:
        """Acknowledge a queued hint; raises NotFoundError when none is queued."""
        ...

    def report(
        self,
        tenant_id: str,
        principal_id: str,
        trace_id: str,
        *,
        belief_id: str | None,
        expected: str | None,
        note: str | None,
        report_id: str,
        at: datetime,
    ) -> MissReport:
        """Store a reported miss of the stored recall ``trace_id`` (once: the same report
        again is returned unrecorded). NotFoundError for a trace or a belief the principal
        does not hold; InvalidInputError naming ``belief_id`` for one the recall showed."""
        ...

    def ack_report(
        self, tenant_id: str, principal_id: str, report_id: str, at: datetime
    ) -> MissHint:
        """Acknowledge a reported miss (a repeat is a no-op); NotFoundError for an id the
        principal has no report of."""
        ...
