"""The ports of the read path (DESIGN.md §2–3; STYLE.md patterns 8–9).

Every search method of :class:`BeliefSearch` takes the :class:`HardFilter` as its first,
required argument: an arm cannot be called without the isolation boundary (decision 4).
The Postgres adapter turns the filter into SQL predicates with one function
(``recallflow.adapters.postgres.filters.hard_filter_sql``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from recallflow.models import Belief
from recallflow.ports import Embedder, TokenCounter
from recallflow.recall_models import (
    HardFilter,
    RecallQuery,
    RecallTrace,
    WorkingState,
)

#: An arm's raw answer: (belief id, arm-specific score), best first.
RawHits = list[tuple[str, float]]


class BeliefSearch(Protocol):
    """The belief store as the arms see it: every method is hard-filtered."""

    def structured(
        self, f: HardFilter, keys: Sequence[str], limit: int, cap: int, common_share: float
    ) -> RawHits:
        """Beliefs whose subject or an entity equals one of ``keys``, weighted by key rarity;
        keys on more than ``common_share`` of the principal's beliefs are ignored."""
        ...

    def lexical(
        self,
        f: HardFilter,
        texts: Sequence[str],
        limit: int,
        cap: int,
        common_share: float,
        k1: float,
        b: float,
    ) -> RawHits:
        """BM25 (binary tf) over the words of ``texts``, at most ``cap`` matches per word;
        words on more than ``common_share`` of the principal's beliefs are ignored."""
        ...

    def trigram(self, f: HardFilter, texts: Sequence[str], limit: int, threshold: float) -> RawHits:
        """Beliefs whose short subject is trigram-similar to words of ``texts``."""
        ...

    def semantic(
        self,
        f: HardFilter,
        vectors: npt.NDArray[np.float32],
        limit: int,
        min_similarity: float,
        ef_search: int,
    ) -> RawHits:
        """Nearest beliefs by cosine similarity to any of ``vectors``."""
        ...

    def neighbours(self, f: HardFilter, seeds: Sequence[str], depth: int, fanout: int) -> RawHits:
        """Beliefs linked to ``seeds`` over belief edges (score: edge weight, decayed by hop)."""
        ...

    def load(self, f: HardFilter, ids: Sequence[str]) -> list[Belief]:
        """The beliefs with ``ids`` that pass the filter, plus the other members of their
        conflict sets that pass it (so a conflict is shown whole)."""
        ...


@runtime_checkable
class QueryFormer(Protocol):
    """Forms the recall queries of a working state (decision 3). Must be deterministic."""

    def form(self, state: WorkingState) -> tuple[RecallQuery, ...]:
        """At most ~8 deduplicated queries."""
        ...


@runtime_checkable
class InjectionScanner(Protocol):
    """Decides whether recalled text looks like instructions (decision 11)."""

    @property
    def version(self) -> str:
        """Identifies the rules, recorded in the trace."""
        ...

    def is_injection(self, text: str) -> bool:
        """True when ``text`` must be replaced by ``[BLOCKED]``."""
        ...


@runtime_checkable
class ExternalProvider(Protocol):
    """An external recall source fused as one more arm (decision 6). Off by default."""

    @property
    def name(self) -> str: ...

    def search(self, f: HardFilter, queries: Sequence[RecallQuery], limit: int) -> RawHits:
        """Ids of beliefs in *this* store (they are loaded and hard-filtered again)."""
        ...


class TraceStore(Protocol):
    """Where RecallTraces are kept (decisions 14, 15)."""

    def save_trace(self, trace: RecallTrace) -> None:
        """Persist one trace."""
        ...

    def get_trace(self, tenant_id: str, principal_id: str, trace_id: str) -> RecallTrace:
        """The operator view of a stored trace; raises NotFoundError."""
        ...


class FormationSink(Protocol):
    """Where the read path sends signals back to formation (decisions 13, 16)."""

    def record_miss(self, tenant_id: str, principal_id: str, subjects: Sequence[str]) -> None:
        """Queries that found nothing above the floor, by subject key."""
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
