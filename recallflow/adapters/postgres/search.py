"""The Postgres :class:`~recallflow.recall_ports.BeliefSearch`: the SQL of every arm
(ADR-0019 decisions 4, 6; DESIGN.md §6 index guidance).

Each method embeds :func:`~recallflow.adapters.postgres.filters.hard_filter_sql` and runs
on its own connection of the recall pool, so arms can run concurrently. Arm-specific settings are
``SET LOCAL`` inside the arm's transaction:

- lexical: matches are capped *before* ``ts_rank_cd`` (which reads every match's tsvector);
- trigram: ``word_similarity`` of query terms against the short ``subject`` only;
- semantic: ``hnsw.ef_search`` ≥ LIMIT with ``hnsw.iterative_scan = relaxed_order`` (set on
  every recall-pool connection), so a filtered HNSW scan does not silently return too few rows.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg import sql
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from recallflow.adapters.postgres.beliefs import SELECT_BELIEF, belief_from_row
from recallflow.adapters.postgres.filters import hard_filter_sql
from recallflow.adapters.postgres.pool import RECALL_SETTINGS
from recallflow.models import Belief
from recallflow.recall_models import HardFilter
from recallflow.recall_ports import RawHits

#: A word or key is never "too common" below this many beliefs.
MIN_COMMON = 50

_NEGATION = re.compile(r"(^|\s)-+(?=\S)")

# Keys and lexemes are weighted by their rarity among the principal's beliefs (BM25's
# idf): a key or word found in a quarter of them or more says little and is dropped.
_STRUCTURED = sql.SQL(
    "WITH k AS (SELECT DISTINCT unnest(%(keys)s::text[]) AS key),"
    " df AS (SELECT k.key, (SELECT count(*) FROM (SELECT 1 FROM beliefs b WHERE {filter}"
    "   AND (b.subject = k.key OR b.entities @> ARRAY[k.key]) LIMIT %(df_cap)s) s) AS n FROM k),"
    " w AS (SELECT key, ln(1 + (%(n_docs)s - n + 0.5) / (n + 0.5)) AS idf FROM df"
    "   WHERE n > 0 AND n < %(df_cap)s)"
    " SELECT m.id, sum(w.idf * CASE WHEN m.subject = w.key THEN 2 ELSE 1 END)::float8 AS score"
    " FROM w, LATERAL (SELECT b.id, b.subject FROM beliefs b WHERE {filter}"
    "   AND (b.subject = w.key OR b.entities @> ARRAY[w.key]) LIMIT %(cap)s) m"
    " GROUP BY m.id ORDER BY score DESC, m.id LIMIT %(limit)s"
)
# BM25 over the query's lexemes (English stemming and stop words, as the stored
# documents): idf from each lexeme's document frequency, a binary term frequency (beliefs
# are short), length normalised against the candidates' mean. Matches are gathered per
# lexeme and capped before scoring (DESIGN.md §6: cap before ranking).
_LEXICAL = sql.SQL(
    "WITH q AS (SELECT DISTINCT lexeme FROM unnest(tsvector_to_array("
    "   to_tsvector('english'::regconfig, %(text)s))) AS lexeme),"
    " df AS (SELECT q.lexeme, quote_literal(q.lexeme)::tsquery AS tq,"
    "   (SELECT count(*) FROM (SELECT 1 FROM beliefs b WHERE {filter}"
    "     AND b.search_document @@ quote_literal(q.lexeme)::tsquery LIMIT %(df_cap)s) s) AS n"
    "   FROM q),"
    " w AS (SELECT tq, ln(1 + (%(n_docs)s - n + 0.5) / (n + 0.5)) AS idf FROM df"
    "   WHERE n > 0 AND n < %(df_cap)s),"
    " hits AS (SELECT m.id, m.len, sum(w.idf) AS idf_sum FROM w,"
    "   LATERAL (SELECT b.id, length(b.search_document) AS len FROM beliefs b"
    "     WHERE {filter} AND b.search_document @@ w.tq LIMIT %(cap)s) m"
    "   GROUP BY m.id, m.len)"
    " SELECT id, (idf_sum * (%(k1)s + 1) / (1 + %(k1)s * (1 - %(b)s + %(b)s * len"
    "   / greatest(avg(len) OVER (), 1))))::float8 AS score"
    " FROM hits ORDER BY score DESC, id LIMIT %(limit)s"
)
_TRIGRAM = sql.SQL(
    "SELECT b.id, max(word_similarity(t.term, b.subject))::float8 AS score"
    " FROM unnest(%(terms)s::text[]) AS t(term) JOIN beliefs b ON t.term <%% b.subject"
    " WHERE {filter} GROUP BY b.id ORDER BY score DESC, b.id LIMIT %(limit)s"
)
_SEMANTIC = sql.SQL(
    "SELECT x.id, max(x.score) AS score"
    " FROM unnest(%(vectors)s::text[]::vector[]) AS v(vec),"
    " LATERAL (SELECT b.id, (1 - (b.embedding <=> v.vec))::float8 AS score"
    "  FROM beliefs b WHERE {filter} AND b.embedding IS NOT NULL"
    "  ORDER BY b.embedding <=> v.vec LIMIT %(limit)s) AS x"
    " WHERE x.score >= %(min_similarity)s"
    " GROUP BY x.id ORDER BY score DESC, x.id LIMIT %(limit)s"
)
_NEIGHBOURS = sql.SQL(
    "WITH RECURSIVE walk(id, hop, score) AS ("
    "  SELECT s.id, 0, 1.0::float8 FROM unnest(%(seeds)s::text[]) AS s(id)"
    "  UNION ALL"
    "  SELECT n.id, walk.hop + 1, walk.score * n.weight * 0.5 FROM walk,"
    "  LATERAL (SELECT e.id, e.weight FROM ("
    "     SELECT dst_id AS id, weight FROM belief_edges"
    "      WHERE tenant_id = %(hf_tenant)s AND principal_id = %(hf_principal)s AND src_id = walk.id"
    "     UNION ALL"
    "     SELECT src_id AS id, weight FROM belief_edges"
    "      WHERE tenant_id = %(hf_tenant)s AND principal_id = %(hf_principal)s AND dst_id = walk.id"
    "   ) e ORDER BY e.weight DESC, e.id LIMIT %(fanout)s) n"
    "  WHERE walk.hop < %(depth)s"
    ")"
    " SELECT b.id, max(w.score)::float8 AS score FROM walk w"
    " JOIN beliefs b ON b.tenant_id = %(hf_tenant)s AND b.principal_id = %(hf_principal)s"
    "  AND b.id = w.id"
    " WHERE w.hop > 0 AND NOT (b.id = ANY(%(seeds)s)) AND {filter}"
    " GROUP BY b.id ORDER BY score DESC, b.id LIMIT %(limit)s"
)
_LOAD = sql.SQL(
    SELECT_BELIEF + " b WHERE {filter} AND (b.id = ANY(%(ids)s) OR b.conflict_set_id IN ("
    " SELECT c.conflict_set_id FROM beliefs c WHERE c.tenant_id = %(hf_tenant)s"
    " AND c.principal_id = %(hf_principal)s AND c.id = ANY(%(ids)s)"
    " AND c.conflict_set_id IS NOT NULL))"
)


def _vector_text(vector: npt.NDArray[np.float32]) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector.tolist()) + "]"


def _rows(cur: psycopg.Cursor[Any]) -> RawHits:
    return [(str(row[0]), float(row[1])) for row in cur.fetchall()]


class PostgresBeliefSearch:
    """Every arm's query, hard-filtered, each on its own pooled connection."""

    def __init__(self, pool: ConnectionPool, *, size_ttl_s: float = 60.0) -> None:
        self._pool = pool
        self._size_ttl_s = size_ttl_s
        self._sizes: dict[tuple[str, str], tuple[float, int]] = {}

    def principal_size(self, f: HardFilter) -> int:
        """How many beliefs the principal has (any state): the N of idf. Cached for a
        minute; idf moves little as a principal grows."""
        key = (f.tenant_id, f.principal_id)
        now = time.monotonic()
        cached = self._sizes.get(key)
        if cached is not None and now - cached[0] < self._size_ttl_s:
            return cached[1]
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT count(*) FROM beliefs WHERE tenant_id = %s AND principal_id = %s", key
            ).fetchone()
        size = int(row[0]) if row else 0
        self._sizes[key] = (now, size)
        return size

    def _rarity(self, f: HardFilter, share: float) -> dict[str, int]:
        """N, and the document frequency from which a word or key is too common to use
        (never below :data:`MIN_COMMON`, so a small principal keeps all its words)."""
        n_docs = max(self.principal_size(f), 1)
        return {"n_docs": n_docs, "df_cap": max(MIN_COMMON, int(n_docs * share)) + 1}

    def _run(
        self,
        query: sql.SQL,
        f: HardFilter,
        params: dict[str, Any],
        settings: dict[str, str] | None = None,
    ) -> RawHits:
        """One arm query: a single round trip unless a setting differs from the session's."""
        predicate, filter_params = hard_filter_sql(f)
        changed = {k: v for k, v in (settings or {}).items() if RECALL_SETTINGS.get(k) != v}
        with self._pool.connection() as conn:
            if not changed:
                cur = conn.execute(query.format(filter=predicate), {**filter_params, **params})
                return _rows(cur)
            with conn.transaction():
                cur = conn.cursor()
                _set_local(cur, changed)
                cur.execute(query.format(filter=predicate), {**filter_params, **params})
                return _rows(cur)

    def structured(
        self, f: HardFilter, keys: Sequence[str], limit: int, cap: int, common_share: float
    ) -> RawHits:
        if not keys:
            return []
        params = {"keys": list(keys), "limit": limit, "cap": cap, **self._rarity(f, common_share)}
        return self._run(_STRUCTURED, f, params)

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
        text = " ".join(_NEGATION.sub(r"\1", t) for t in texts if t.strip())
        if not text:
            return []
        params = {
            "text": text,
            "limit": limit,
            "cap": cap,
            "k1": k1,
            "b": b,
            **self._rarity(f, common_share),
        }
        return self._run(_LEXICAL, f, params)

    def trigram(self, f: HardFilter, texts: Sequence[str], limit: int, threshold: float) -> RawHits:
        terms = [t for t in dict.fromkeys(texts) if len(t) >= 3]
        if not terms:
            return []
        settings = {"pg_trgm.word_similarity_threshold": str(threshold)}
        return self._run(_TRIGRAM, f, {"terms": terms, "limit": limit}, settings)

    def semantic(
        self,
        f: HardFilter,
        vectors: npt.NDArray[np.float32],
        limit: int,
        min_similarity: float,
        ef_search: int,
    ) -> RawHits:
        if len(vectors) == 0:
            return []
        params = {
            "vectors": [_vector_text(v) for v in vectors],
            "limit": limit,
            "min_similarity": min_similarity,
        }
        settings = {"hnsw.ef_search": str(max(ef_search, limit))}
        return self._run(_SEMANTIC, f, params, settings)

    def neighbours(self, f: HardFilter, seeds: Sequence[str], depth: int, fanout: int) -> RawHits:
        if not seeds:
            return []
        params = {
            "seeds": list(seeds),
            "depth": depth,
            "fanout": fanout,
            "limit": fanout * len(seeds) * depth,
        }
        return self._run(_NEIGHBOURS, f, params)

    def load(self, f: HardFilter, ids: Sequence[str]) -> list[Belief]:
        if not ids:
            return []
        predicate, filter_params = hard_filter_sql(f)
        with self._pool.connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            cur.execute(_LOAD.format(filter=predicate), {**filter_params, "ids": list(ids)})
            return [belief_from_row(row) for row in cur.fetchall()]


def _set_local(cur: psycopg.Cursor[Any], settings: dict[str, str]) -> None:
    """``SET LOCAL`` every setting in one round trip."""
    calls = sql.SQL(", ").join(sql.SQL("set_config(%s, %s, true)") for _ in settings)
    params = [part for item in settings.items() for part in item]
    cur.execute(sql.SQL("SELECT {}").format(calls), params)
