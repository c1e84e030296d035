"""The Postgres :class:`~recallflow.ports.EpisodeSearch`: the SQL of archival episode
search (see "Moments" and "Hard filters" in docs/architecture.md).

:func:`episode_filter_sql` is the one function that turns an :class:`EpisodeFilter` into
SQL predicates; both arms and the load embed it, so an episode of another tenant or
principal, above the surface's ceiling, not yet occurred at ``as_of`` or not yet recorded
at ``known_as_of`` never leaves the database.

- full text: the query's first distinct words (English stemming, stop words dropped, as the
  stored ``search_document``); candidates are gathered by probes, the episodes holding
  every word, then each word alone, each probe capped (most recent first, so a cap is
  deterministic), and ranked by the share of the words they hold, then ``ts_rank_cd``;
- vector: pgvector cosine distance, exact (every visible episode compared) for a principal
  of at most the policy's ``exact_episodes`` episodes, else over the recall pool's
  iterative HNSW scan with ``hnsw.ef_search`` ≥ the LIMIT; re-sorted by (similarity desc,
  id).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from psycopg import sql
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from recallflow.adapters.postgres.episodes import EPISODE_COLUMNS
from recallflow.adapters.postgres.statements import pipeline, set_local
from recallflow.adapters.postgres.vectors import query_vector_texts
from recallflow.models.stages import EpisodeFilter
from recallflow.models.store import Episode
from recallflow.ports import RawHits


def episode_filter_sql(f: EpisodeFilter, alias: str = "e") -> tuple[sql.Composed, dict[str, Any]]:
    """The predicates of ``f`` on the episodes table aliased ``alias``, and their
    parameters (named ``ef_*`` so they never collide with a query's own). A ``since``
    bounds ``occurred_at`` from below beside ``as_of``, on the principal's time index."""
    e = sql.Identifier(alias)
    text = (
        "{e}.tenant_id = %(ef_tenant)s AND {e}.principal_id = %(ef_principal)s"
        " AND {e}.occurred_at <= %(ef_as_of)s AND {e}.recorded_at <= %(ef_known)s"
        " AND {e}.sensitivity <= %(ef_ceiling)s"
    )
    if f.since is not None:
        text += " AND {e}.occurred_at >= %(ef_since)s"
    params: dict[str, Any] = {
        "ef_tenant": f.tenant_id,
        "ef_principal": f.principal_id,
        "ef_as_of": f.as_of,
        "ef_known": f.known_as_of,
        "ef_ceiling": int(f.sensitivity_ceiling),
        "ef_since": f.since,
    }
    return sql.SQL(text).format(e=e), params


_FULL_TEXT = sql.SQL(
    "WITH q AS (SELECT w.lexeme AS lx FROM unnest(to_tsvector('english'::regconfig, %(text)s)) w"
    "   ORDER BY w.positions[1], w.lexeme LIMIT %(words)s),"
    " n AS (SELECT count(*)::float8 AS words FROM q),"
    " probes AS (SELECT (SELECT string_agg(quote_literal(lx), ' & ' ORDER BY lx) FROM q)::tsquery"
    "   AS tq UNION ALL SELECT quote_literal(lx)::tsquery FROM q),"
    " cand AS (SELECT DISTINCT ON (m.id) m.id, m.doc FROM probes,"
    "   LATERAL (SELECT e.id, e.search_document AS doc FROM episodes e"
    "     WHERE {filter} AND e.search_document @@ probes.tq"
    "     ORDER BY e.occurred_at DESC, e.id LIMIT %(cap)s) m ORDER BY m.id)"
    " SELECT c.id, ((SELECT count(*) FROM q WHERE c.doc @@ quote_literal(q.lx)::tsquery)"
    "   / n.words)::float8 AS coverage FROM cand c, n"
    " ORDER BY coverage DESC,"
    "   ts_rank_cd(c.doc, (SELECT string_agg(quote_literal(lx), ' | ') FROM q)::tsquery) DESC,"
    "   c.id LIMIT %(limit)s"
)
# Exact or through the HNSW index, by the principal's size (``exact_episodes`` in the
# episode policy): the index is one graph over every principal's episodes, so a filtered
# approximate scan for one principal walks the others' rows too, and which of its own it
# returns depends on them (see "Isolation" in docs/recall.md for the measured recall).
# The size is counted on the principal's time index, at most ``exact + 1`` entries, in an
# InitPlan, so only one branch runs; ``+ 0`` keeps the planner from reading the HNSW
# index for the exact branch, whose distance is computed once per row and sorted on.
_VECTOR = sql.SQL(
    "WITH choice AS (SELECT count(*) <= %(exact)s AS exact FROM (SELECT 1 FROM episodes c"
    "   WHERE c.tenant_id = %(ef_tenant)s AND c.principal_id = %(ef_principal)s"
    "   LIMIT %(exact)s + 1) s)"
    " SELECT x.id, x.score FROM ("
    " (SELECT n.id, (1 - n.distance)::float8 AS score FROM ("
    "  SELECT e.id, (e.embedding <=> %(vector)s::vector) + 0 AS distance FROM episodes e"
    "  WHERE (SELECT exact FROM choice) AND {filter} AND e.embedding IS NOT NULL"
    "  ORDER BY distance, e.id LIMIT %(limit)s) n)"
    " UNION ALL"
    " (SELECT e.id, (1 - (e.embedding <=> %(vector)s::vector))::float8 AS score"
    "  FROM episodes e WHERE NOT (SELECT exact FROM choice) AND {filter}"
    "  AND e.embedding IS NOT NULL"
    "  ORDER BY e.embedding <=> %(vector)s::vector LIMIT %(limit)s)) x"
    " ORDER BY x.score DESC, x.id"
)
_LOAD = sql.SQL(
    "SELECT {columns} FROM episodes e WHERE {filter} AND e.id = ANY(%(ids)s) ORDER BY e.id"
)


class PostgresEpisodeSearch:
    """Archival search's queries, hard-filtered, on the recall pool."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    def full_text(self, f: EpisodeFilter, text: str, words: int, limit: int, cap: int) -> RawHits:
        if not text.strip():
            return []
        predicate, params = episode_filter_sql(f)
        params |= {"text": text, "words": words, "cap": cap, "limit": limit}
        with self._pool.connection() as conn:
            rows = conn.execute(_FULL_TEXT.format(filter=predicate), params).fetchall()
        return [(str(r[0]), float(r[1])) for r in rows]

    def vector(
        self,
        f: EpisodeFilter,
        vector: npt.NDArray[np.float32],
        limit: int,
        ef_search: int,
        exact: int,
    ) -> RawHits:
        predicate, params = episode_filter_sql(f)
        # As a recall's query vectors: refused unless unit length, sent as text.
        params |= {"vector": query_vector_texts([vector])[0], "limit": limit, "exact": exact}
        query = _VECTOR.format(filter=predicate)
        # For the statement's implicit transaction only, sent with it in one round trip:
        # a transaction around it (BEGIN, the setting, the query, COMMIT) cost every
        # search three more round trips, the exact branch too, which reads no index.
        with self._pool.connection() as conn:
            with pipeline(conn):
                set_local(conn, {"hnsw.ef_search": str(max(ef_search, limit))})
                cur = conn.execute(query, params)
            rows = cur.fetchall()
        return [(str(r[0]), float(r[1])) for r in rows]

    def load(self, f: EpisodeFilter, ids: Sequence[str]) -> list[Episode]:
        if not ids:
            return []
        predicate, params = episode_filter_sql(f)
        columns = sql.SQL(", ").join(sql.Identifier("e", c) for c in EPISODE_COLUMNS)
        query = _LOAD.format(columns=columns, filter=predicate)
        with self._pool.connection() as conn:
            rows = conn.cursor(row_factory=dict_row).execute(query, params | {"ids": list(ids)})
            return [Episode.model_validate(row) for row in rows.fetchall()]
