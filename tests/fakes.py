"""In-memory fakes of the recall ports, for testing the DAG without PostgreSQL.

:class:`InMemoryBeliefSearch` answers every :class:`~recallflow.ports.BeliefSearch` method
from a list of :class:`~recallflow.models.store.Belief` objects (and, for graph expansion,
:class:`~recallflow.models.store.BeliefEdge` objects). The hard filter is applied in Python
with the SQL's semantics: tenant, principal, admissible states, world time
(``valid_from <= as_of < valid_to``), system time (recorded by ``known_as_of`` and not
retracted by then) and the sensitivity ceiling. The arms' scoring is deliberately
simpler than the SQL's (word overlap weighted by rarity, character-trigram Jaccard,
cosine; coverage over unstemmed words): a test of DAG logic needs arms that find the
right beliefs in a plausible order, not the database's exact numbers. Tests of the SQL
run on the embedded server.
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from recallflow.models.session import DurableQuery
from recallflow.models.stages import CandidateEvidence, EvidenceSet, HardFilter, TextCoverage
from recallflow.models.store import Belief, BeliefEdge, EdgeRelation
from recallflow.policy import ArmLimits
from recallflow.ports import Embedder, RawHits

_WORD = re.compile(r"[a-z0-9]+")
#: Words the lexical arm ignores, as PostgreSQL's English text search does.
_STOP_WORDS = frozenset(
    "a an and are as at be by do does for from has have in is it of on or that the this"
    " to was what when where which while who why will with".split()
)


def fake_belief(
    belief_id: str, statement: str, subject: str, recorded_at: datetime, **fields: Any
) -> Belief:
    """A user-stated, user-scoped belief of principal ``p1`` in tenant ``t``; ``fields``
    override any of it."""
    data: dict[str, Any] = {
        "id": belief_id,
        "tenant_id": "t",
        "principal_id": "p1",
        "statement": statement,
        "subject": subject,
        "scope": "user",
        "confidence": 0.9,
        "source_authority": "user_stated",
        "recorded_at": recorded_at,
    }
    data.update(fields)
    return Belief.model_validate(data)


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower())) - _STOP_WORDS


def _trigrams(word: str) -> set[str]:
    padded = f"  {word.lower()} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def _similarity(a: str, b: str) -> float:
    x, y = _trigrams(a), _trigrams(b)
    return len(x & y) / len(x | y) if x | y else 0.0


def passes(f: HardFilter, b: Belief) -> bool:
    """Whether ``b`` is inside the hard filter ``f`` (the SQL predicate, in Python)."""
    return (
        b.tenant_id == f.tenant_id
        and b.principal_id == f.principal_id
        and b.state in f.states
        and (b.valid_from is None or b.valid_from <= f.as_of)
        and (b.valid_to is None or f.as_of < b.valid_to)
        and b.recorded_at <= f.known_as_of
        and (b.retracted_at is None or b.retracted_at > f.known_as_of)
        and b.sensitivity <= f.sensitivity_ceiling
    )


class InMemoryBeliefSearch:
    """A :class:`~recallflow.ports.BeliefSearch` over beliefs held in a list."""

    def __init__(
        self,
        beliefs: Iterable[Belief],
        *,
        embedder: Embedder,
        edges: Iterable[BeliefEdge] = (),
    ) -> None:
        self.beliefs = sorted(beliefs, key=lambda b: b.id)
        self.edges = tuple(edges)
        vectors = embedder.embed([b.statement for b in self.beliefs])
        self._vectors = {b.id: vectors[i] for i, b in enumerate(self.beliefs)}

    def _visible(self, f: HardFilter) -> list[Belief]:
        return [b for b in self.beliefs if passes(f, b)]

    def _principal(self, f: HardFilter) -> list[Belief]:
        """Every belief of the principal, visible or not (what term rarity is counted on)."""
        return [
            b
            for b in self.beliefs
            if (b.tenant_id, b.principal_id) == (f.tenant_id, f.principal_id)
        ]

    @staticmethod
    def _ranked(scores: dict[str, float], limit: int) -> RawHits:
        return sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]

    def _idf(self, f: HardFilter, df: Counter[str], limits: ArmLimits) -> dict[str, float]:
        docs = max(len(self._principal(f)), 1)
        common = max(limits.min_common, docs * limits.common_share)
        return {
            term: math.log(1 + (docs - n + 0.5) / (n + 0.5))
            for term, n in df.items()
            if 0 < n <= common
        }

    def structured(self, f: HardFilter, keys: Sequence[str], limits: ArmLimits) -> RawHits:
        wanted = set(keys)
        df = Counter(k for b in self._principal(f) for k in {b.subject, *b.entities} if k in wanted)
        idf = self._idf(f, df, limits)
        scores: dict[str, float] = {}
        for b in self._visible(f):
            for key, weight in idf.items():
                if key == b.subject:
                    scores[b.id] = scores.get(b.id, 0.0) + weight * limits.structured_subject_weight
                elif key in b.entities:
                    scores[b.id] = scores.get(b.id, 0.0) + weight
        return self._ranked(scores, limits.per_arm)

    def lexical(self, f: HardFilter, texts: Sequence[str], limits: ArmLimits) -> RawHits:
        query = set().union(*(_words(t) for t in texts)) if texts else set()
        df = Counter(w for b in self._principal(f) for w in _words(b.statement) & query)
        idf = self._idf(f, df, limits)
        scores = {
            b.id: sum(idf.get(w, 0.0) for w in _words(b.statement) & query)
            for b in self._visible(f)
        }
        return self._ranked({k: v for k, v in scores.items() if v > 0}, limits.per_arm)

    def trigram(self, f: HardFilter, terms: Sequence[str], limits: ArmLimits) -> RawHits:
        kept = [t for t in dict.fromkeys(terms) if len(t) >= limits.trigram_min_term_length]
        visible = self._visible(f)
        subjects = {b.subject for b in visible}
        # A term similar to more subjects than the bound is matched to its own subject.
        unspecific = {
            t
            for t in kept
            if sum(_similarity(t, s) >= limits.trigram_threshold for s in subjects)
            > limits.trigram_term_matches
        }
        scores: dict[str, float] = {}
        for b in visible:
            best = max(
                (
                    1.0 if b.subject == t else 0.0 if t in unspecific else _similarity(t, b.subject)
                    for t in kept
                ),
                default=0.0,
            )
            if best >= limits.trigram_threshold:
                scores[b.id] = best
        return self._ranked(scores, limits.per_arm)

    def semantic(
        self, f: HardFilter, vectors: npt.NDArray[np.float32], limits: ArmLimits
    ) -> RawHits:
        if len(vectors) == 0:
            return []
        scores: dict[str, float] = {}
        for b in self._visible(f):
            best = float(np.max(vectors @ self._vectors[b.id]))
            if best >= limits.semantic_min_similarity:
                scores[b.id] = best
        return self._ranked(scores, limits.per_arm)

    def in_period(
        self,
        f: HardFilter,
        periods: Sequence[tuple[datetime, datetime]],
        vectors: npt.NDArray[np.float32],
        limits: ArmLimits,
    ) -> RawHits:
        scores = {
            b.id: float(np.max(vectors @ self._vectors[b.id])) if len(vectors) else 0.0
            for b in self._visible(f)
            if b.valid_from is not None and any(s <= b.valid_from < e for s, e in periods)
        }
        return self._ranked(scores, limits.per_arm)

    def neighbours(self, f: HardFilter, seeds: Sequence[str], limits: ArmLimits) -> RawHits:
        linked: dict[str, list[tuple[float, str]]] = {}
        for e in self.edges:
            if (e.tenant_id, e.principal_id) == (f.tenant_id, f.principal_id):
                linked.setdefault(e.src_id, []).append((e.weight, e.dst_id))
                linked.setdefault(e.dst_id, []).append((e.weight, e.src_id))
        visible = {b.id for b in self._visible(f)}
        scores: dict[str, float] = {}
        frontier = [(seed, 1.0) for seed in seeds]
        for _ in range(limits.graph_depth):
            reached = []
            for node, score in frontier:
                nearest = sorted(linked.get(node, []), key=lambda w: (-w[0], w[1]))
                for weight, other in nearest[: limits.graph_fanout]:
                    reached.append((other, score * weight * limits.graph_hop_decay))
            for other, score in reached:
                if other in visible and other not in seeds:
                    scores[other] = max(scores.get(other, 0.0), score)
            frontier = reached
        limit = limits.graph_fanout * len(seeds) * limits.graph_depth
        return self._ranked(scores, limit)

    def durable(self, f: HardFilter, q: DurableQuery, limits: ArmLimits) -> RawHits:
        factor = dict(q.authority)
        scores = {
            b.id: b.confidence * factor.get(b.source_authority.value, 0.0)
            for b in self._visible(f)
            if b.belief_type.value in q.types
        }
        return self._ranked(scores, q.limit)

    def load(self, f: HardFilter, ids: Sequence[str], project: str | None = None) -> list[Belief]:
        wanted = set(ids)
        conflict_sets = {
            b.conflict_set_id
            for b in self._principal(f)
            if b.id in wanted and b.conflict_set_id is not None
        }
        return [
            b
            for b in self._visible(f)
            if b.id in wanted
            or (b.conflict_set_id is not None and b.conflict_set_id in conflict_sets)
        ]

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
        loaded = self.load(f, ids, project)
        # A seed's entity the query does not name and 2 to bridge_holders visible
        # beliefs hold brings in its other holders.
        if limits.bridge_holders > 1:
            shown = self._visible(f)
            here = {b.id for b in loaded}
            skip = {*keys, *asked}
            for seed in (b for b in loaded if b.id in bridge_seeds):
                for key in dict.fromkeys(seed.entities):
                    holders = [b for b in shown if b.subject == key or key in b.entities]
                    if key in skip or not 2 <= len(holders) <= limits.bridge_holders:
                        continue
                    extra = [b for b in holders if b.id not in here]
                    loaded.extend(extra)
                    here.update(b.id for b in extra)
        try:
            return loaded, self._evidence(f, [b.id for b in loaded], texts, vectors, keys, limits)
        except Exception as exc:
            return loaded, exc

    def _evidence(
        self,
        f: HardFilter,
        ids: Sequence[str],
        texts: Sequence[str],
        vectors: npt.NDArray[np.float32],
        keys: Sequence[str],
        limits: ArmLimits,
    ) -> EvidenceSet:
        visible = self._visible(f)
        docs = max(len(visible), 1)
        common = max(limits.min_common, docs * limits.common_share)

        def idf(n: int) -> float:
            n = max(n, 1)  # a word no visible belief has counts as rare as the rarest one
            size = max(docs, limits.coverage_min_view)  # a small memory keeps its words
            return math.log(1 + (size - n + 0.5) / (n + 0.5))

        def coverage(b: Belief) -> tuple[TextCoverage, ...]:
            held = _words(" ".join((b.statement, b.subject, *b.entities)))
            out = []
            for text in texts:
                df = {w: sum(w in _words(v.statement) for v in visible) for w in _words(text)}
                weights = {w: idf(n) for w, n in df.items()}
                out.append(
                    TextCoverage(
                        held=sum(v for w, v in weights.items() if w in held),
                        total=sum(weights.values()),
                        words_held=sum(w in held for w in weights),
                        words=len(weights),
                        fingerprint=float(
                            sum(zlib.crc32(w.encode()) for w in weights if w in held)
                        ),
                    )
                )
            return tuple(out)

        rare_keys = {
            k for k in keys if sum(k == b.subject or k in b.entities for b in visible) <= common
        }
        wanted = set(ids)
        loaded = [b for b in visible if b.id in wanted]
        units = {b.id: _unit(self._vectors[b.id]) for b in loaded}
        total = np.sum(list(units.values()), axis=0) if units else None
        by_id = {
            b.id: CandidateEvidence(
                cosines=tuple(float(v @ self._vectors[b.id]) for v in vectors),
                texts=coverage(b),
                subject_match=bool(rare_keys & {b.subject, *b.entities}),
                centrality=float(units[b.id] @ total) if total is not None else None,
            )
            for b in loaded
        }
        links = {
            (min(e.src_id, e.dst_id), max(e.src_id, e.dst_id)): e.weight
            for e in self.edges
            if (e.tenant_id, e.principal_id) == (f.tenant_id, f.principal_id)
            and e.src_id in by_id
            and e.dst_id in by_id
            and e.src_id != e.dst_id
        }
        follows = {
            (e.src_id, e.dst_id)
            for e in self.edges
            if (e.tenant_id, e.principal_id) == (f.tenant_id, f.principal_id)
            and e.relation == EdgeRelation.FOLLOWS
            and e.src_id in by_id
            and e.dst_id in by_id
            and e.src_id != e.dst_id
        }
        return EvidenceSet(
            by_id=by_id,
            links=tuple((a, b, w) for (a, b), w in sorted(links.items())),
            follows=tuple(sorted(follows)),
        )


def _unit(vector: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``vector`` at length 1 (a zero vector as it is), as the store reads it."""
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


class WordCounter:
    """A :class:`~recallflow.ports.TokenCounter` that counts words (no tokenizer to load)."""

    @property
    def encoding(self) -> str:
        return "words"

    def count(self, text: str) -> int:
        return len(text.split())
