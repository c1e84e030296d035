"""The Postgres :class:`~recallflow.ports.BeliefSearch`: the SQL of every arm.

Each method embeds :func:`~recallflow.adapters.postgres.filters.hard_filter_sql` and runs
on its own connection of the recall pool, so arms can run concurrently. Every number an
arm uses comes from the policy's :class:`~recallflow.policy.ArmLimits`, passed per call.
An arm's query is one autocommit statement; the settings it needs are the connection's
own, sent in the same pipelined round trip and only when they differ from what the
connection already has (:meth:`PostgresBeliefSearch._run`), and a setting that must not
outlive the query is set for its implicit transaction only:

- every arm: ``statement_timeout`` = ``limits.timeout_ms``, so PostgreSQL cancels an arm
  that runs too long (raised as :class:`TimeoutError`, which degrades the recall);
- lexical: matches are capped *before* scoring (ranking reads every match's document);
- trigram: ``pg_trgm.word_similarity_threshold``, matched against the short ``subject`` only,
  and a term within it of more than ``limits.trigram_term_matches`` keys matched to the key
  it spells (its probe reads no further);
- semantic: ``hnsw.ef_search`` ≥ LIMIT, with ``hnsw.iterative_scan = relaxed_order`` (set on
  every recall-pool connection), so a filtered HNSW scan does not silently return too few rows;
  and ``enable_sort = off`` local to the query's transaction, so the plan it keeps per
  connection reads a graduated principal through the HNSW index (see
  :meth:`PostgresBeliefSearch.semantic`).
"""

from __future__ import annotations

import functools
import re
import threading
import weakref
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

from recallflow.adapters.postgres.ann_index import TABLE_ROWS
from recallflow.adapters.postgres.beliefs import (
    BELIEF_COLUMNS,
    SELECT_BELIEF,
    beliefs_from_rows,
)
from recallflow.adapters.postgres.entities import MarksWithLoad
from recallflow.adapters.postgres.filters import hard_filter_params, state_at_as_of
from recallflow.adapters.postgres.keys import (
    LEXEME_KEYS,
    has_key,
    principal_key,
    probed,
    spelled_keys,
)
from recallflow.adapters.postgres.pool import RECALL_SETTINGS
from recallflow.adapters.postgres.rarity import (
    COUNTED_HITS,
    VIEW,
    RecallCounts,
    counted_rows,
    key_df,
    lexeme_df,
)
from recallflow.adapters.postgres.relevance import (
    EVIDENCE_COLUMNS,
    candidate_evidence,
    evidence_ctes,
    evidence_params,
    evidence_set,
    links_statement,
    with_evidence,
)
from recallflow.adapters.postgres.statements import (
    Statement,
    compile_statement,
    filtered_statement,
    pipeline,
    raw_cursor_class,
    set_configs,
    set_local,
    setting_values,
)
from recallflow.adapters.postgres.vectors import query_vector_texts
from recallflow.core.lifecycle import disputed_at
from recallflow.errors import InvalidInputError
from recallflow.models.session import DurableQuery
from recallflow.models.stages import CandidateEvidence, EvidenceSet, HardFilter
from recallflow.models.store import Belief
from recallflow.policy import ArmLimits
from recallflow.ports import RawHits

_NEGATION = re.compile(r"(^|\s)-+(?=\S)")


# Keys and lexemes are weighted by their rarity in the caller's view (BM25's idf), N and
# df counted exactly over the beliefs that pass the hard filter in one of its states now
# (adapters/postgres/rarity.py), so nothing the caller may not see moves a ranking; a key
# or word on more than common_share of the view says little and is left out. The
# per-principal counts of migration 0004 only skip terms no belief of the principal has.
def _rarity(terms: str, df: str) -> str:
    """The CTEs of :data:`~recallflow.adapters.postgres.rarity.VIEW` and ``w`` (each of the
    principal's terms ``t`` the condition ``terms`` admits, in the view, with its idf);
    ``df`` is the view's count of ``q.term``.

    ``w`` is materialized, so each term's idf (a numeric logarithm, microseconds each) is
    computed once: inlined into the structured arm's join, it was computed again for
    every matching belief (240 times, 0.7 ms of a 1.3 ms arm at 10k beliefs)."""
    return (
        VIEW + " q AS (SELECT t.term FROM principal_terms t WHERE t.tenant_id = %(hf_tenant)s"
        "   AND t.principal_id = %(hf_principal)s AND t.kind = %(kind)s"
        "   AND " + terms + " AND t.df > 0),"
        " c AS MATERIALIZED (SELECT q.term, " + df + " AS df FROM q, n),"
        " w AS MATERIALIZED (SELECT c.term, c.df,"
        "   ln(1 + (n.docs - c.df + 0.5) / (c.df + 0.5)) AS idf"
        "   FROM c, n WHERE c.df > 0 AND c.df <= n.common),"
    )


_STRUCTURED = sql.SQL(
    "WITH"
    # The spelled keys gathered into one array first (an InitPlan), so the principal's
    # terms are probed by key: as ``IN (subquery)`` the planner hashed all the principal's
    # keys against them (2.3 ms at 100k beliefs, against 0.05 ms).
    + _rarity("t.term = ANY(ARRAY(" + spelled_keys("%(terms)s::text[]") + "))", key_df("q.term"))
    + " hits AS (SELECT m.id, m.subject, w.term, w.idf FROM w,"
    "   LATERAL (SELECT b.id, b.subject FROM "
    + probed(has_key("w.term"))
    + "     WHERE {filter} LIMIT %(cap)s) m)"
    " (SELECT id, sum(idf * CASE WHEN subject = term THEN %(subject_weight)s::numeric ELSE 1 END)"
    "   ::float8 AS score, " + COUNTED_HITS + ""
    " FROM hits GROUP BY id ORDER BY score DESC, id LIMIT %(limit)s)"
    # The request's keys and the principal's keys spelled like them, so the load reads the
    # count of each key it weighs.
     + counted_rows("array_cat(%(terms)s::text[], ARRAY(SELECT c.term FROM c))")
)
# BM25 over the query's lexemes (English stemming and stop words, as the stored
# documents): idf as above, a binary term frequency (beliefs are short), length
# normalised against the candidates' mean. Candidates are gathered from the rarest
# lexemes only (a common lexeme's bitmap costs milliseconds at 100k beliefs and finds
# nothing the rare ones would rank first): documents holding all of them, then the two
# rarest, then each alone, every probe capped (capped before ranking), so a
# cap never cuts the documents that match most. A seed on more beliefs than the cap is
# probed alone only when it is the rarest: its capped probe would return an arbitrary
# cap's worth of its beliefs (the first in the table), for the price of reading all of
# them from the index. Every lexeme still scores, by a per-row check of the candidates'
# documents.
_LEXEMES = "tsvector_to_array(to_tsvector('english'::regconfig, %(text)s))"
_LEXICAL = sql.SQL(
    "WITH"
    + _rarity("t.term = ANY(" + _LEXEMES + ")", lexeme_df("q.term"))
    + " seeds AS (SELECT term, df, row_number() OVER (ORDER BY idf DESC, term) AS r FROM w"
    "   ORDER BY idf DESC, term LIMIT %(seed_terms)s),"
    # Probes, most specific first: all seeds together, the two rarest together, each alone;
    # each the principal keys of its lexemes, all of which a document must hold.
    " probes AS (SELECT DISTINCT keys FROM (SELECT ARRAY(SELECT "
    + principal_key("term")
    + "     FROM seeds ORDER BY r) AS keys"
    "   UNION ALL SELECT ARRAY(SELECT " + principal_key("term") + " FROM seeds WHERE r <= 2"
    "     ORDER BY r)"
    "   UNION ALL SELECT ARRAY[" + principal_key("term") + "] FROM seeds"
    "     WHERE r = 1 OR df <= %(cap)s) p WHERE cardinality(keys) > 0),"
    " cand AS (SELECT DISTINCT ON (m.id) m.id, m.doc FROM probes,"
    "   LATERAL (SELECT b.id, b.search_document AS doc FROM "
    + probed(LEXEME_KEYS + " @> probes.keys")
    + "     WHERE {filter} LIMIT %(cap)s) m ORDER BY m.id),"
    # Each lexeme's query parsed once, not once per candidate. A candidate is one row of
    # cand (DISTINCT ON its id), so its hits group by the id alone: grouped by the id and
    # the document, every group was sorted on the document too, a tsvector comparison
    # per matched lexeme.
    " wq AS MATERIALIZED (SELECT w.idf, quote_literal(w.term)::tsquery AS tq FROM w),"
    " hits AS (SELECT c.id, min(length(c.doc)) AS len, sum(wq.idf) AS idf_sum FROM cand c"
    "   JOIN wq ON c.doc @@ wq.tq GROUP BY c.id)"
    " (SELECT id, (idf_sum * (%(k1)s + 1) / (1 + %(k1)s * (1 - %(b)s + %(b)s * len"
    "   / greatest(avg(len) OVER (), 1))))::float8 AS score, " + COUNTED_HITS + ""
    " FROM hits ORDER BY score DESC, id LIMIT %(limit)s)" + counted_rows(_LEXEMES)
)
# Trigram: query keys against the principal's distinct keys (migration 0005) that a
# belief in the caller's view has as its subject (so neither a key only filtered beliefs
# have nor one held only as an entity takes the place of a key that returns a belief),
# then the beliefs whose subject is a matched key. Each query term
# probes the keys' trigram index on its own (the LATERAL): joined to the terms instead,
# a plan made without their values compared every key of the principal with every term
# (37 ms at 10k beliefs, against 0.4 ms).
#
# A matched key takes one of the `limit` places only if a belief in the caller's view has
# it as subject. While the matched keys fit in the places (nearly always: a few per
# query), the check cannot change what is returned, a key no visible belief has as
# subject returning nothing either way, and it is skipped. It was made on the subject or
# the entities: a key held only as an entity took a place and returned nothing, and at
# 100k beliefs a common entity's check read its whole GIN posting list (0.5 ms per key);
# the subject's check is a b-tree probe. Returning the beliefs that hold a matched key as
# an entity as well found nothing more on memories that name entities in other
# spellings (the structured arm matches those by spelling) and moved 32 of the 997
# LoCoMo dev recalls, one answer out of a top five.
#
# A term within the threshold of more than ``trigram_term_matches`` keys is matched to the
# key it spells exactly, and no more than that many and one of its matches are read (the
# LIMIT in its probe): those matches are keys that share a common start with it, which
# says little of which key is meant. At 100k beliefs `react` was within 0.5 of 638 keys
# (every `realtime-…` key shares three of its six trigrams, as a one-letter typo of a
# five-letter word does), all tied at the threshold, so all of them were read, ranked and
# checked to fill the places with `realtime-…` keys in alphabetical order: 5-17 ms a
# statement, against 0.2 ms for the median request.
_TRIGRAM = sql.SQL(
    "WITH m AS MATERIALIZED (SELECT q.term AS query, t.term,"
    "     count(*) OVER (PARTITION BY q.term) AS matches"
    "     FROM unnest(%(terms)s::text[]) AS q(term), LATERAL (SELECT t.term"
    "     FROM principal_terms t WHERE t.tenant_id = %(hf_tenant)s"
    "     AND t.principal_id = %(hf_principal)s AND t.kind = 'k'"
    "     AND q.term <%% t.term AND t.df > 0 LIMIT %(term_matches)s + 1) t),"
    " pairs AS (SELECT query, term FROM m WHERE matches <= %(term_matches)s"
    "   UNION ALL SELECT q.query, t.term FROM (SELECT DISTINCT query FROM m"
    "     WHERE matches > %(term_matches)s) q, LATERAL (SELECT t.term FROM principal_terms t"
    "     WHERE t.tenant_id = %(hf_tenant)s AND t.principal_id = %(hf_principal)s"
    "     AND t.kind = 'k' AND t.term = q.query AND t.df > 0) t),"
    " k AS (SELECT s.term, s.sim FROM (SELECT p.term,"
    "     max(word_similarity(p.query, p.term)) AS sim, count(*) OVER () AS matched"
    "     FROM pairs p GROUP BY p.term ORDER BY sim DESC, p.term OFFSET 0) s"
    # Checked in similarity order, only until the limit is reached (OFFSET 0 keeps the
    # check out of the subquery), and only when more keys matched than there are places.
    "   WHERE (s.matched <= %(limit)s OR EXISTS (SELECT FROM beliefs b"
    "     WHERE {filter} AND b.subject = s.term))"
    "   LIMIT %(limit)s)"
    " SELECT m.id, max(k.sim)::float8 AS score FROM k,"
    "   LATERAL (SELECT b.id FROM beliefs b WHERE {filter} AND b.subject = k.term"
    "   LIMIT %(limit)s) m"
    " GROUP BY m.id ORDER BY score DESC, m.id LIMIT %(limit)s"
)
# Exact or through the HNSW index, by the principal's size against the whole table's
# (``semantic_exact_factor`` in the policy; the table's size as the planner extrapolates
# it, ``TABLE_ROWS``, and exactly while the table has never been analyzed, so a store
# read right after a bulk write answers as it will once autovacuum has been round):
# the choice is an InitPlan, so only one branch runs. ``+ 0`` keeps the planner from
# using the index for the exact branch, whose distance is computed once per row and
# sorted on (written in the score and again in the ORDER BY, it was computed twice for
# every row the branch reads).
# The index holds only graduated principals' beliefs (adapters/postgres/ann_index.py), so
# an ungraduated principal is searched exactly, and the index branch reads only
# ``ann_indexed`` rows (which lets the planner use the partial index).
#
# The exact branch reads the principal's vectors once for all the query vectors, each row
# ranked by its nearest one (``LEAST`` of the distances): the arm's answer, each belief's
# best similarity over the queries, best first, is the same as from one exact search per
# query vector merged (a belief among the best by its best similarity is among the best
# for the query that gives it), and one pass replaced a read of every vector, a filter
# and a sort per query vector (the 1k tier's calls: 2.5 -> 1.2 ms with three query
# vectors, 5.8 -> 1.7 ms with eight; one vector unchanged). The vectors' text is parsed
# once, in ``qv``, for both branches: cast where each column is taken, it was parsed once
# per column, so n vectors n times each (150 vectors: 731 ms against 106 ms before).
# The index branch still searches once per query vector: the HNSW walk starts from one
# point.
_SEMANTIC_HEAD = (
    "WITH choice AS (SELECT coalesce((SELECT NOT ann_indexed OR %(exact_factor)s > 0"
    "   AND beliefs < %(exact_factor)s * sqrt(coalesce(" + TABLE_ROWS + ", 'Infinity'))"
    "   FROM principal_sizes"
    "   WHERE tenant_id = %(hf_tenant)s AND principal_id = %(hf_principal)s), true) AS exact),"
    " qv AS MATERIALIZED (SELECT %(vectors)s::text[]::vector[] AS v)"
)
_SEMANTIC_INDEX_BRANCH = (
    " (SELECT n.id, n.score FROM unnest((SELECT v FROM qv)) AS v(vec),"
    " LATERAL (SELECT b.id, (1 - (b.embedding <=> v.vec))::float8 AS score"
    "  FROM beliefs b WHERE NOT (SELECT exact FROM choice) AND {filter}"
    "  AND b.ann_indexed AND b.embedding IS NOT NULL"
    "  ORDER BY b.embedding <=> v.vec LIMIT %(limit)s) n)) AS x"
    " WHERE x.score >= %(min_similarity)s"
    " GROUP BY x.id ORDER BY score DESC, x.id LIMIT %(limit)s"
)
#: The most query vectors the exact branch takes in one pass, one column each (PostgreSQL
#: takes at most 1,664 columns in a select list). The default query former forms at most
#: eight queries; a former of its own that forms more has its vectors searched one by one,
#: with the same answer.
ONE_PASS_VECTORS = 64


def _nearest_exactly(distance: str, beside: str = "") -> str:
    """The exact branch's ``limit`` nearest visible beliefs, each ranked by ``distance``
    (read beside the rows of ``beside``, a FROM item ending in a comma)."""
    return (
        "SELECT b.id, (" + distance + ") + 0 AS distance"
        "  FROM " + beside + " beliefs b WHERE (SELECT exact FROM choice) AND {filter}"
        "  AND b.embedding IS NOT NULL"
        "  ORDER BY distance, b.id LIMIT %(limit)s"
    )


@functools.cache
def semantic_query(vectors: int) -> sql.SQL:
    """The semantic arm's statement for ``vectors`` query vectors (one statement per
    count, each compiled and prepared once, like every statement here)."""
    if vectors < 1:
        raise ValueError("the semantic arm's statement needs at least one query vector")
    if vectors > ONE_PASS_VECTORS:
        head = _SEMANTIC_HEAD
        exact = "unnest((SELECT v FROM qv)) AS v(vec), LATERAL (" + _nearest_exactly(
            "b.embedding <=> v.vec"
        )
    else:
        columns = ", ".join(f"qv.v[{i + 1}] AS v{i}" for i in range(vectors))
        head = _SEMANTIC_HEAD + ", q AS MATERIALIZED (SELECT " + columns + " FROM qv)"
        nearest = ", ".join(f"b.embedding <=> q.v{i}" for i in range(vectors))
        exact = "(" + _nearest_exactly("LEAST(" + nearest + ")", "q,")
    return sql.SQL(
        head + " SELECT x.id, max(x.score) AS score FROM ("
        " (SELECT e.id, (1 - e.distance)::float8 AS score FROM " + exact + ") e)"
        " UNION ALL" + _SEMANTIC_INDEX_BRANCH
    )


# The beliefs said or become true in a period the query names, nearest to the query first.
# It runs only when the query names a period (the node returns no hits otherwise), and
# reads the principal's beliefs in that window exactly (a window is small).
_PERIOD = sql.SQL(
    "SELECT b.id, coalesce(max(1 - (b.embedding <=> v.vec)), 0)::float8 AS score"
    " FROM beliefs b LEFT JOIN unnest(%(vectors)s::text[]::vector[]) AS v(vec) ON true"
    " WHERE {filter} AND EXISTS (SELECT FROM unnest(%(starts)s::timestamptz[],"
    "  %(ends)s::timestamptz[]) AS p(s, e) WHERE b.valid_from >= p.s AND b.valid_from < p.e)"
    " GROUP BY b.id ORDER BY score DESC, b.id LIMIT %(limit)s"
)
# Every node of the walk passes the hard filter, the seeds included: a filtered belief is
# never a bridge, and never takes a visible neighbour's place in the fan-out. Each node is
# checked by a LATERAL primary-key probe (its LIMIT keeps the planner from turning the walk
# into a scan of the principal's beliefs).
_VISIBLE = (
    " LATERAL (SELECT FROM beliefs b WHERE b.tenant_id = %(hf_tenant)s"
    " AND b.principal_id = %(hf_principal)s AND b.id = {node} AND {filter} LIMIT 1)"
)
_NEIGHBOURS = sql.SQL(
    "WITH RECURSIVE walk(id, hop, score) AS ("
    "  SELECT s.id, 0, 1.0::float8 FROM unnest(%(seeds)s::text[]) AS s(id),"
    + _VISIBLE.replace("{node}", "s.id")
    + "  UNION ALL"
    "  SELECT n.id, walk.hop + 1, walk.score * n.weight * %(hop_decay)s::float8 FROM walk,"
    "  LATERAL (SELECT e.id, e.weight FROM ("
    "     SELECT dst_id AS id, weight FROM belief_edges"
    "      WHERE tenant_id = %(hf_tenant)s AND principal_id = %(hf_principal)s AND src_id = walk.id"
    "     UNION ALL"
    "     SELECT src_id AS id, weight FROM belief_edges"
    "      WHERE tenant_id = %(hf_tenant)s AND principal_id = %(hf_principal)s AND dst_id = walk.id"
    "   ) e,"
    + _VISIBLE.replace("{node}", "e.id")
    + "   ORDER BY e.weight DESC, e.id LIMIT %(fanout)s) n"
    "  WHERE walk.hop < %(depth)s"
    ")"
    " SELECT id, max(score)::float8 AS score FROM walk"
    " WHERE hop > 0 AND NOT (id = ANY(%(seeds)s))"
    " GROUP BY id ORDER BY score DESC, id LIMIT %(limit)s"
)
# A belief rejected as "not here" in the recall's project (see docs/corrections.md) is not loaded
# there; project is relevance, so this is joined here and never part of the hard filter.
_NOT_EXCLUDED = (
    " AND NOT EXISTS (SELECT 1 FROM belief_exclusions x WHERE x.tenant_id = b.tenant_id"
    " AND x.principal_id = b.principal_id AND x.belief_id = b.id AND x.project = %(project)s)"
)
# The snapshot core's candidates, with no query: a pre-rank that only bounds the work, the
# core ranking function orders what it returns. Beliefs used in their own project (or at
# user scope, or corroborated here) first, since a transferred belief loses confidence and
# affinity and takes a penalty; then confidence x the policy's authority factor, the two
# largest query-free terms of the core vector.
#
# It stops early instead of reading every durable belief of the principal: within one
# (type, authority) group the factor is one number, so the group's best by prior are its
# best by confidence, read in that order from beliefs_durable_idx (migration 0014) and cut
# at the limit. The first `limit` overall are among the groups' first `limit`, those not
# transferred first; the transferred are read only when fewer than `limit` are not.
# A group whose factor is 0 (an authority the policy gives none) has one prior, 0, for all
# its beliefs, so its best are its first by id, not by confidence: it is read whole (only
# such a policy has one, and only while the other groups leave places: see the bar below).
_TRANSFERRED = (
    "(b.scope = 'project' AND b.origin_project IS DISTINCT FROM %(project)s::text"
    " AND NOT coalesce(%(project)s::text = ANY(b.corroborating_projects), false))"
)
_DURABLE_GROUP = (
    " FROM durable_groups g, LATERAL (SELECT b.id, b.confidence FROM beliefs b"
    " WHERE {filter} AND b.belief_type = g.belief_type AND b.source_authority = g.authority"
    " AND {transferred} ORDER BY b.confidence DESC, b.id"
    " LIMIT CASE WHEN g.factor > 0 THEN %(limit)s END) x"
)
# It reads past a group's head only what could still make the cut: the groups of the
# largest factor are read first (their first `limit` each); the `limit`-th best prior among
# them is a bar, no higher than the `limit`-th best overall (they are a subset), so no
# belief of the first `limit` is below it. Every other group is read from its best down to
# that bar only (an index range on confidence: bar / factor, less a rounding margin): a
# prefix of the group's first `limit` that holds every one of them clearing the bar; a
# group whose factor cannot reach the bar is not read at all. Fewer than `limit` in the
# first groups leave no bar. The result is the same as reading every group's first `limit`;
# at 10k durable beliefs it reads ~250 index entries instead of ~930 (execution 2.6 ->
# 0.9 ms; with planning, 2.7 -> 1.7 ms at 10k and 1.0 -> 1.3 ms at 1k, server-side).
_ABOVE_BAR = (
    "b.confidence >= CASE WHEN bar.prior <= 0 THEN '-Infinity'::float8"
    " WHEN g.factor > 0 THEN bar.prior / g.factor - 1e-9 ELSE 'Infinity'::float8 END"
)
_DURABLE = sql.SQL(
    "WITH durable_groups AS MATERIALIZED (SELECT t.belief_type, a.authority, a.factor,"
    "  a.factor = max(a.factor) OVER () AS first"
    "  FROM unnest(%(types)s::text[]) AS t(belief_type),"
    "  unnest(%(authorities)s::text[], %(factors)s::float8[]) AS a(authority, factor)),"
    " first AS MATERIALIZED (SELECT x.id, (x.confidence * g.factor)::float8 AS prior"
    + _DURABLE_GROUP.replace("{transferred}", "NOT " + _TRANSFERRED)
    + " WHERE g.first),"
    " bar AS MATERIALIZED (SELECT coalesce((SELECT prior FROM first"
    "  ORDER BY prior DESC OFFSET %(limit)s - 1 LIMIT 1), '-Infinity'::float8) AS prior),"
    " here AS MATERIALIZED (SELECT id, prior FROM first"
    "  UNION ALL"
    "  SELECT x.id, (x.confidence * g.factor)::float8"
    + _DURABLE_GROUP.replace("durable_groups g,", "durable_groups g, bar,").replace(
        "{transferred}", "NOT " + _TRANSFERRED + " AND " + _ABOVE_BAR
    )
    + " WHERE NOT g.first)"
    " SELECT id, prior FROM ("
    "  SELECT false AS transferred, id, prior FROM here"
    "  UNION ALL"
    "  SELECT true, x.id, (x.confidence * g.factor)::float8"
    + _DURABLE_GROUP.replace("{transferred}", _TRANSFERRED)
    + "   WHERE (SELECT count(*) FROM here) < %(limit)s"
    " ) c ORDER BY transferred, prior DESC, id LIMIT %(limit)s"
)


def _loaded(select: str, *, bridges: bool = False, direct: bool = True) -> str:
    """The candidates' rows, ``select`` (a select list of beliefs ``b`` ending in ``FROM
    beliefs``) of each candidate id that passes the filter and is not rejected here, and
    of every other visible belief in a candidate's conflict set.

    The candidates' rows are found once (``cands``), by the primary key, and both parts
    read them: the conflict sets were looked up in a second probe of the same ids (0.14
    of a 1.5 ms load at 100k beliefs, replayed with per-node timing).

    ``bridges`` (for a statement that counts the view, ``n``, before it: the evidence's
    CTEs): also the other holders of a bridge of the first candidates
    (:func:`_bridge_holders`), which no arm returned."""
    rows = (
        "WITH cands AS MATERIALIZED (SELECT * FROM beliefs c WHERE c.tenant_id = %(hf_tenant)s"
        " AND c.principal_id = %(hf_principal)s AND c.id = ANY(%(ids)s)) "
        + select.removesuffix(" FROM beliefs")
        + " FROM cands b WHERE {filter}"
        + _NOT_EXCLUDED
        + " UNION ALL "
        + select
        + " b WHERE {filter} AND NOT (b.id = ANY(%(ids)s))"
        + _NOT_EXCLUDED
        + " AND b.conflict_set_id IN (SELECT c.conflict_set_id FROM cands c"
        " WHERE c.conflict_set_id IS NOT NULL)"
    )
    if not bridges:
        return rows
    return rows + " UNION ALL " + select + _bridge_holders(direct)


def _bridge_holders(direct: bool) -> str:
    """The rest of a select of beliefs ``b`` (after ``FROM beliefs``): the other holders of
    a bridge of the first candidates (``bridge_seeds``, in fused order), which the load
    adds without any arm's vote (see "Relevance floor" in docs/architecture.md).

    A bridge is an entity a seed that passes the filter holds, that the query does not
    name (``asked``), and that 2 to ``bridge_holders`` beliefs of the caller's view hold,
    counted as rarity counts a key (the view's class counts, no row read: a hidden belief
    neither bridges nor stops a bridge); only such a key is probed for its holders, each
    through the filter and not rejected here, and only when the probe finds 2 to
    ``bridge_holders`` of them. Probed first, a common key's posting list was read whole
    (a GIN probe cannot stop at a limit): 0.5 ms for each key of 2.6k beliefs at 100k. A
    holder already loaded (a candidate, a conflict peer) is not loaded twice."""
    return (
        " b WHERE b.tenant_id = %(hf_tenant)s AND b.principal_id = %(hf_principal)s"
        # (Aliases of their own: the key's count reads tables aliased t, x, m and b.)
        " AND b.id IN (SELECT u.id FROM (SELECT seed.term FROM (SELECT DISTINCT k.term"
        "   FROM cands b, unnest(b.entities) AS k(term)"
        "   WHERE %(bridge_holders)s > 1 AND b.id = ANY(%(bridge_seeds)s::text[])"
        "   AND {filter} AND NOT (k.term = ANY(%(asked)s::text[]))) seed, n"
        "   WHERE " + key_df("seed.term", direct=direct) + " BETWEEN 2 AND %(bridge_holders)s"
        "   OFFSET 0) rare,"
        "  LATERAL (SELECT array_agg(p.id) AS ids FROM (SELECT b.id FROM "
        + probed(has_key("rare.term"))
        + "   WHERE {filter} LIMIT %(bridge_holders)s + 1) p) m, unnest(m.ids) AS u(id)"
        "  WHERE cardinality(m.ids) BETWEEN 2 AND %(bridge_holders)s)"
        " AND NOT (b.id = ANY(%(ids)s)) AND {filter}"
        + _NOT_EXCLUDED
        + " AND NOT EXISTS (SELECT FROM cands c WHERE c.conflict_set_id = b.conflict_set_id)"
    )


_LOAD = sql.SQL(_loaded(SELECT_BELIEF))
# The same rows, each with its relevance evidence: one statement and one scan of the
# candidates (the evidence read in a statement of its own computed the loaded ids again,
# and planned and executed its own scan of them: 0.3 ms of 1.5 at 10k beliefs), the rows
# found once and kept (``loaded``) for both the evidence's vector sum and the select.
_LOAD_WITH_EVIDENCE = sql.SQL(
    evidence_ctes(_loaded("SELECT b.* FROM beliefs"))
    + " "
    + with_evidence(SELECT_BELIEF).removesuffix(" FROM beliefs")
    + " FROM loaded b"
)
# The same statement for a recall whose arms counted the view by its classes (nearly
# every recall: a read of now leaves out few beliefs), sent with their counts. A generic
# plan starts every node it holds at each execution, run or not: without the view's own
# count and the row-by-row counts, which such a recall never runs, the load's executor
# start takes 0.04-0.08 ms less at 1k, 10k and 100k beliefs (0.217 -> 0.175 and 0.326 ->
# 0.247 ms in two runs at 100k; p50 of the tier's 24 loads replayed, the two texts
# alternating), on the recall's critical path; the same rows.
_LOAD_WITH_COUNTED_EVIDENCE = sql.SQL(
    evidence_ctes(_loaded("SELECT b.* FROM beliefs"), counted=True)
    + " "
    + with_evidence(SELECT_BELIEF).removesuffix(" FROM beliefs")
    + " FROM loaded b"
)
# The two statements again with a bridge's holders (:func:`_bridge_holders`), sent only
# for a recall that asks for them (``bridge_seeds``): their plan's nodes are started at
# every execution, run or not (0.10-0.12 ms more of the load's start at 100k beliefs,
# for the tier's requests, none of which bridges). A holder (a row neither a candidate
# nor a candidate's conflict peer) is not summed into the pool: loaded beside the
# candidates, it moves no candidate's centrality.
_NOT_BRIDGED = (
    "p.id = ANY(%(ids)s) OR p.conflict_set_id IN (SELECT c.conflict_set_id FROM loaded c"
    " WHERE c.id = ANY(%(ids)s))"
)
_LOAD_BRIDGED_WITH_EVIDENCE = sql.SQL(
    evidence_ctes(_loaded("SELECT b.* FROM beliefs", bridges=True), pooled=_NOT_BRIDGED)
    + " "
    + with_evidence(SELECT_BELIEF).removesuffix(" FROM beliefs")
    + " FROM loaded b"
)
_LOAD_BRIDGED_WITH_COUNTED_EVIDENCE = sql.SQL(
    evidence_ctes(
        _loaded("SELECT b.* FROM beliefs", bridges=True, direct=False),
        counted=True,
        pooled=_NOT_BRIDGED,
    )
    + " "
    + with_evidence(SELECT_BELIEF).removesuffix(" FROM beliefs")
    + " FROM loaded b"
)
# The links between exactly the rows the load returned: their ids (read from its answer,
# which the client has before it sends the links) are the links' parameter. Apart from
# the load, as they run under the arms' timeout: a lock on the edges costs the recall
# only its neighbour support. (The ids were computed again by the server, the candidates'
# hard filter, exclusions and conflict sets probed a second time: 0.2 of the statement's
# 0.4 ms at 100k beliefs.)
_LOADED_LINKS = compile_statement(links_statement("%(loaded)s::text[]"))


def _rows(cur: psycopg.Cursor[Any]) -> RawHits:
    return [(str(row[0]), float(row[1])) for row in cur.fetchall()]


def _counted_rows(
    cur: psycopg.Cursor[Any],
) -> tuple[RawHits, tuple[bool, int, float] | None, dict[str, int]]:
    """The hits of an arm that returns what it counted of the view
    (:func:`~recallflow.adapters.postgres.rarity.counted_rows`), the view's size, and each
    term's count."""
    hits: RawHits = []
    view: tuple[bool, int, float] | None = None
    dfs: dict[str, int] = {}
    for hit, score, term, df, direct in cur.fetchall():
        if hit is not None:
            hits.append((str(hit), float(score)))
        elif term is None:
            view = (bool(direct), int(df), float(score))
        else:
            dfs[str(term)] = int(df)
    return hits, view, dfs


class PostgresBeliefSearch:
    """Every arm's query, hard-filtered, each on its own pooled connection."""

    def __init__(
        self,
        pool: ConnectionPool,
        marks: MarksWithLoad | None = None,
        counts: RecallCounts | None = None,
    ) -> None:
        self._pool = pool
        self._marks = marks
        self._counts = counts

    def with_marks(self, marks: MarksWithLoad) -> PostgresBeliefSearch:
        """This search for one recall whose candidates' load also reads ``marks`` (see
        :class:`~recallflow.adapters.postgres.entities.MarksWithLoad`), and reads the
        view's counts its lexical and structured arms made (see :class:`RecallCounts`)
        instead of making them again: 0.28 of the load's 1.2 ms of server CPU at 100k
        beliefs, on the recall's critical path."""
        return PostgresBeliefSearch(self._pool, marks, RecallCounts())

    def _run(
        self,
        query: sql.SQL,
        f: HardFilter,
        params: dict[str, Any],
        limits: ArmLimits,
        settings: dict[str, str] | None = None,
        local: dict[str, str] | None = None,
        counts: str | None = None,
    ) -> RawHits:
        """One arm query under the policy's statement timeout and the arm's settings, so
        PostgreSQL itself cancels an arm that runs too long.

        The settings are the connection's own (``set_config(..., false)``), sent in the
        same pipelined round trip as the query and only when they differ from what this
        connection already has (:func:`_settings_to_apply`): most arm queries are one
        autocommit statement. A transaction with ``SET LOCAL`` around every arm cost
        0.2 ms more per arm (measured on the 10k store: 2.96 against 2.75 ms). ``local``
        settings, which must not outlive the query, are set for its implicit transaction
        only, in the same pipeline.
        """
        statement = filtered_statement(query, f)
        values = {
            **hard_filter_params(f),
            **hard_filter_params(f, history=False),
            **params,
        }
        wanted = {**_ARM_SESSION, "statement_timeout": str(limits.timeout_ms), **(settings or {})}
        try:
            with self._pool.connection() as conn:
                cur = _execute(conn, statement, values, wanted, local=local)
                if counts is None:
                    return _rows(cur)
                hits, view, dfs = _counted_rows(cur)
        except psycopg.errors.QueryCanceled as exc:
            raise TimeoutError(
                f"PostgreSQL cancelled the arm's query after {limits.timeout_ms} ms"
            ) from exc
        if self._counts is not None and view is not None:
            self._counts.record(f, limits, counts, view, dfs)
        return hits

    def structured(self, f: HardFilter, keys: Sequence[str], limits: ArmLimits) -> RawHits:
        if not keys:
            return []
        params = {
            "kind": "k",
            "terms": list(dict.fromkeys(keys)),
            "limit": limits.per_arm,
            "cap": limits.lexical_candidate_cap,
            "common_share": limits.common_share,
            "min_common": limits.min_common,
            "subject_weight": limits.structured_subject_weight,
            "rarity_exclusion_cap": limits.rarity_exclusion_cap,
        }
        return self._run(_STRUCTURED, f, params, limits, _GENERIC_PLAN, counts="k")

    def lexical(self, f: HardFilter, texts: Sequence[str], limits: ArmLimits) -> RawHits:
        text = " ".join(_NEGATION.sub(r"\1", t) for t in texts if t.strip())
        if not text:
            return []
        params = {
            "kind": "l",
            "seed_terms": limits.seed_lexemes,
            "text": text,
            "limit": limits.per_arm,
            "cap": limits.lexical_candidate_cap,
            "k1": limits.bm25_k1,
            "b": limits.bm25_b,
            "common_share": limits.common_share,
            "min_common": limits.min_common,
            "rarity_exclusion_cap": limits.rarity_exclusion_cap,
        }
        return self._run(_LEXICAL, f, params, limits, _GENERIC_PLAN, counts="l")

    def trigram(self, f: HardFilter, terms: Sequence[str], limits: ArmLimits) -> RawHits:
        kept = [t for t in dict.fromkeys(terms) if len(t) >= limits.trigram_min_term_length]
        if not kept:
            return []
        # Planned once per connection: the match against the principal's keys is one
        # trigram-index probe per query term, so its plan does not depend on the terms
        # (planning it afresh cost 0.42-0.52 ms, more than running it at 1k and 10k).
        settings = {
            "pg_trgm.word_similarity_threshold": str(limits.trigram_threshold),
            **_GENERIC_PLAN,
        }
        params = {
            "terms": kept,
            "limit": limits.per_arm,
            "term_matches": limits.trigram_term_matches,
        }
        return self._run(_TRIGRAM, f, params, limits, settings, _TRIGRAM_INDEX_ONLY)

    def semantic(
        self, f: HardFilter, vectors: npt.NDArray[np.float32], limits: ArmLimits
    ) -> RawHits:
        if len(vectors) == 0:
            return []
        params = {
            "vectors": query_vector_texts(vectors),
            "limit": limits.per_arm,
            "min_similarity": limits.semantic_min_similarity,
            "exact_factor": limits.semantic_exact_factor,
        }
        # Planned once per connection, with sorting disabled for this statement only
        # (local to its transaction, so no other statement on the connection is planned
        # without sorts). Planned without the parameters' values, the hard filter looks
        # selective (~1 % of the rows against ~80 %), and the index branch read the
        # principal's rows through a b-tree and sorted them all (18 ms at 10k beliefs,
        # 550-970 ms at 100k; it cost 400-550 ms at 1.1M rows, so every execution was
        # planned afresh, 0.47 ms of the arm's 1.5 ms of server time at 10k). With no
        # sort allowed, the only path that yields the index branch's nearest rows in order
        # is the HNSW scan the sizes chose it for; the exact branch, whose "+ 0" keeps
        # any index from ordering it, still sorts (an unavoidable sort is still made).
        # The same rows as the custom plans over the 1k/10k/100k requests; the arm 2.5
        # -> 0.9 ms at 1k, 3.2 -> 1.9 ms at 10k, 2.5 -> 1.4 ms at 100k (one connection,
        # alternating blocks).
        settings = {
            "hnsw.ef_search": str(max(limits.hnsw_ef_search, limits.per_arm)),
            **_GENERIC_PLAN,
        }
        return self._run(semantic_query(len(vectors)), f, params, limits, settings, _NO_SORT)

    def in_period(
        self,
        f: HardFilter,
        periods: Sequence[tuple[datetime, datetime]],
        vectors: npt.NDArray[np.float32],
        limits: ArmLimits,
    ) -> RawHits:
        if not periods:
            return []
        params = {
            "starts": [start for start, _ in periods],
            "ends": [end for _, end in periods],
            "vectors": query_vector_texts(vectors),
            "limit": limits.per_arm,
        }
        return self._run(_PERIOD, f, params, limits)

    def neighbours(self, f: HardFilter, seeds: Sequence[str], limits: ArmLimits) -> RawHits:
        if not seeds:
            return []
        params = {
            "seeds": list(seeds),
            "depth": limits.graph_depth,
            "fanout": limits.graph_fanout,
            "hop_decay": limits.graph_hop_decay,
            "limit": limits.graph_fanout * len(seeds) * limits.graph_depth,
        }
        # Planned once per connection: the walk is primary-key and edge-index probes
        # whatever the seeds, and PostgreSQL kept planning it afresh (0.86 against
        # 0.20 ms a walk at 10k beliefs, 0.79/0.16 at 1k, 0.89/0.22 at 100k), on the
        # recall's critical path between the arms and loading the candidates.
        return self._run(_NEIGHBOURS, f, params, limits, _GENERIC_PLAN)

    def durable(self, f: HardFilter, q: DurableQuery, limits: ArmLimits) -> RawHits:
        if not q.types:
            return []
        params = {
            "types": list(q.types),
            "project": q.project,
            "authorities": [name for name, _ in q.authority],
            "factors": [factor for _, factor in q.authority],
            "limit": q.limit,
        }
        # Planned once per connection: the statement reads the same index group by group
        # whatever the principal (its plan for its parameters has the same shape), and
        # planning it afresh cost more than executing it (EXPLAIN ANALYZE of the prepared
        # statement, medians over the tier's opens: 0.80 + 0.60 against 0.03 + 0.50 ms at
        # 10k beliefs, 1.03 + 0.74 against 0.04 + 0.75 ms at 100k; the same rows).
        return self._run(_DURABLE, f, params, limits, _GENERIC_PLAN)

    def load(self, f: HardFilter, ids: Sequence[str], project: str | None = None) -> list[Belief]:
        if not ids:
            return []
        params = {**hard_filter_params(f), "ids": list(ids), "project": project}
        try:
            with self._pool.connection() as conn:
                cur = _execute(conn, filtered_statement(_LOAD, f), params, _LOAD_SESSION)
                rows = beliefs_from_rows(_names(cur), cur.fetchall())
        except psycopg.errors.QueryCanceled as exc:
            raise TimeoutError(_backstop_message("loading the candidates")) from exc
        return _as_of(f, rows, project)

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
        """:meth:`load` and the relevance evidence of what it loads, on one connection in one
        pipeline (one implicit transaction): the beliefs with their evidence in one
        statement, whose rows are fetched as soon as they are sent (a flush, not the
        pipeline's sync), then the links between exactly those rows, which the server runs
        while the client reads the rows; each under the timeout and plan mode it
        has on its own (PostgreSQL times each statement of a pipeline from its own start,
        under the ``statement_timeout`` set before it in the same transaction). Every
        setting is local to the transaction, so the connection's own settings stay as the
        last arm left them: the next arm on it need not set them back (an arm's query is
        one plain statement when its settings are already there).

        A load cancelled at the backstop timeout raises :class:`TimeoutError`. Evidence the
        database refuses fails the statement that reads it with the beliefs, so the beliefs
        are then loaded alone (:meth:`load`, which raises if that fails too) and returned
        with the exception, so the recall degrades only its evidence; so are they when a
        query vector is refused before anything is sent (not unit length: see
        :mod:`~recallflow.adapters.postgres.vectors`). Links cancelled at the arms' timeout
        only cost the recall its neighbour support, as a lock on the edges costs graph
        expansion its hits.

        A search made :meth:`with_marks` sends the recall's read of the marked entities
        last in the same pipeline, under the arms' timeout; when it got no answer (a
        statement before it failed), the marks are asked of their own port later.
        """
        if not ids:
            return [], EvidenceSet(by_id={})
        try:
            counted = self._counts.counts(f, limits) if self._counts is not None else None
            params = {
                **evidence_params(f, ids, texts, vectors, keys, limits, counted),
                "project": project,
                "bridge_seeds": list(bridge_seeds),
                "asked": list(dict.fromkeys((*keys, *asked))),
                "bridge_holders": limits.bridge_holders,
            }
        except InvalidInputError as exc:  # a query vector the evidence cannot be read against
            return self.load(f, ids, project), exc
        by_class = counted is not None and not counted.direct
        if bridge_seeds and limits.bridge_holders > 1:
            query = _LOAD_BRIDGED_WITH_COUNTED_EVIDENCE if by_class else _LOAD_BRIDGED_WITH_EVIDENCE
        else:
            query = _LOAD_WITH_COUNTED_EVIDENCE if by_class else _LOAD_WITH_EVIDENCE
        load = filtered_statement(query, f)
        links = _LOADED_LINKS
        failure: psycopg.Error | None = None
        marks = self._marks.statement() if self._marks is not None else None
        loaded: tuple[list[Belief], dict[str, CandidateEvidence]] | None = None
        with self._pool.connection() as conn:
            raw = raw_cursor_class(conn)
            load_cur, links_cur, marks_cur = raw(conn), raw(conn), raw(conn)
            try:
                with pipeline(conn):
                    set_local(conn, _EVIDENCE_SESSION)
                    # Rows in binary: ~45 beliefs of timestamps and arrays, read 0.15 ms
                    # sooner than parsed from text at 10k beliefs.
                    load_cur.execute(load.text, load.bind(params), binary=True)
                    # The load's rows are fetched before the links are sent (a flush, not
                    # the pipeline's sync: the same implicit transaction), so the links take
                    # their ids, and the rows are read while the server runs the links.
                    rows = load_cur.fetchall()
                    set_local(conn, _link_session(limits))
                    params["loaded"] = _not_bridged(ids, rows)
                    links_cur.execute(links.text, links.bind(params))
                    if marks is not None:  # last: a failing load takes nothing else down
                        marks_cur.execute(*marks)
                    loaded = _loaded_rows(f, _names(load_cur), rows, project)
            except psycopg.Error as exc:
                failure = exc
            if marks is not None and self._marks is not None and _answered(marks_cur):
                self._marks.answered(marks_cur.fetchall())
            if loaded is not None:
                beliefs, by_id = loaded
                if _answered(links_cur):
                    link_rows = links_cur.fetchall()
                elif isinstance(failure, psycopg.errors.QueryCanceled):
                    link_rows = []
                else:
                    return beliefs, failure or RuntimeError("the links returned no result")
                return beliefs, evidence_set(by_id, link_rows)
        if isinstance(failure, psycopg.errors.QueryCanceled):
            raise TimeoutError(_backstop_message("loading the candidates")) from failure
        return self.load(f, ids, project), failure or RuntimeError(
            "the candidates' evidence returned no result"
        )


#: What a connection's settings are restored to for every statement that does not set them
#: itself: the settings arms change (a plan mode, an HNSW threshold) never leak into another
#: arm's query or into loading candidates. The trigram threshold is not restored: only the
#: trigram arm's statement has an operator it changes (``<%``), and that arm always sets
#: it; restored, it was set back and forth on the arms' connections (1.4 pipelined
#: ``set_config`` statements a recall at 10k).
_ARM_SESSION: dict[str, str] = {
    "plan_cache_mode": "auto",
    "hnsw.ef_search": "40",
}
#: The statements that count the caller's view are planned once per connection: their plan
#: does not depend on the parameters (one index per predicate of the time exclusions), and
#: planning them cost 1 ms of each 2.4 ms evidence statement at 10k beliefs (1.1 ms with
#: the generic plan; the lexical arm 2.6 against 6.5 ms).
_GENERIC_PLAN: dict[str, str] = {"plan_cache_mode": "force_generic_plan"}
#: The semantic arm's plan is made with sorting disabled, for its own statement only (see
#: :meth:`PostgresBeliefSearch.semantic`).
_NO_SORT: dict[str, str] = {"enable_sort": "off"}
#: The trigram arm's plan is made with the keys' trigram index as the only way to probe
#: them, for its own statement only. Planned without the parameters' values, a probe's
#: LIMIT is taken to stop after a tenth of its matches, so reading the principal's keys in
#: order (a sequential scan, or the primary key's index with a filter) looked cheaper than
#: the index wherever the principal holds most of the table, as in a store of one user:
#: every key was compared with every term, 21 ms a statement at 10k beliefs and 100-160
#: ms at 50k, against 0.15-0.3 ms through the index (whose bitmap a LIMIT still stops
#: early: a term within the threshold of hundreds of keys reads no more of them).
_TRIGRAM_INDEX_ONLY: dict[str, str] = {"enable_seqscan": "off", "enable_indexscan": "off"}
#: Loading candidates runs under the recall pool's backstop timeout, not an arm's.
_LOAD_SESSION: dict[str, str] = {
    **_ARM_SESSION,
    "statement_timeout": RECALL_SETTINGS["statement_timeout"],
}


#: Loading the candidates with their evidence: planned once per connection (see
#: :data:`_GENERIC_PLAN`), under the backstop timeout.
_EVIDENCE_SESSION: dict[str, str] = {**_LOAD_SESSION, **_GENERIC_PLAN}
#: Where the load's rows hold the belief's id and, after the belief's columns, the
#: evidence's (in :data:`EVIDENCE_COLUMNS` order after the id).
_LOADED_ID = BELIEF_COLUMNS.index("id")
_CONFLICT_SET = BELIEF_COLUMNS.index("conflict_set_id")
_EVIDENCE_AT = len(BELIEF_COLUMNS)


def _link_session(limits: ArmLimits) -> dict[str, str]:
    """What the links between candidates change of :data:`_EVIDENCE_SESSION`: the arms'
    timeout, and the plan mode set back."""
    return {
        "plan_cache_mode": _ARM_SESSION["plan_cache_mode"],
        "statement_timeout": str(limits.timeout_ms),
    }


def _backstop_message(work: str) -> str:
    """Why a stage that runs under the backstop timeout was cancelled (the caller's
    node degrades the recall on the :class:`TimeoutError` it raises)."""
    return f"PostgreSQL cancelled {work} after {_LOAD_SESSION['statement_timeout']} ms"


#: The settings each recall connection has now (as far as this module has set them).
_applied: weakref.WeakKeyDictionary[psycopg.Connection[Any], dict[str, str]] = (
    weakref.WeakKeyDictionary()
)
_applied_lock = threading.Lock()


def _settings_to_apply(conn: psycopg.Connection[Any], wanted: dict[str, str]) -> dict[str, str]:
    with _applied_lock:
        known = _applied.get(conn)
    if known is None:  # a connection this module has not set anything on yet
        return dict(wanted)
    return {k: v for k, v in wanted.items() if known.get(k) != v}


def _answered(cur: psycopg.RawCursor[Any]) -> bool:
    """Whether ``cur``'s statement returned its rows (in a pipeline that failed, the
    statements before the failure did; the failing one and those after it did not)."""
    result = cur.pgresult
    return result is not None and result.status == psycopg.pq.ExecStatus.TUPLES_OK


def _names(cur: psycopg.Cursor[Any]) -> list[str]:
    """The names of the columns of ``cur``'s result, read from the result itself: the
    cursor's ``description`` makes a ``Column`` of each (its type looked up, its sizes
    read), 56 against 10 µs for the load's 36 columns. Decoded as UTF-8: they are only
    compared with this module's own column names, all ASCII."""
    result = cur.pgresult
    if result is None:
        return []
    return [(result.fname(i) or b"").decode() for i in range(result.nfields)]


def _not_bridged(ids: Sequence[str], rows: list[tuple[Any, ...]]) -> list[str]:
    """The ids of the load's rows but a bridge's holders (neither a candidate nor in a
    candidate's conflict set): the links are read among those only, so a holder loaded
    beside the candidates lends none of them support."""
    wanted = set(ids)
    sets = {row[_CONFLICT_SET] for row in rows if row[_LOADED_ID] in wanted}
    return [
        row[_LOADED_ID]
        for row in rows
        if row[_LOADED_ID] in wanted
        or (row[_CONFLICT_SET] is not None and row[_CONFLICT_SET] in sets)
    ]


def _loaded_rows(
    f: HardFilter, names: Sequence[str], rows: list[tuple[Any, ...]], project: str | None
) -> tuple[list[Belief], dict[str, CandidateEvidence]]:
    """The beliefs of the load's rows (tuples, their columns ``names``) as they stood at
    as_of in ``project``, and each one's evidence (the columns after the belief's)."""
    if tuple(names[_EVIDENCE_AT:]) != EVIDENCE_COLUMNS[1:]:
        raise ValueError(f"the load's columns are not a belief's and its evidence: {names}")
    evidence = [(row[_LOADED_ID], *row[_EVIDENCE_AT:]) for row in rows]
    return _as_of(f, beliefs_from_rows(names, rows), project), candidate_evidence(evidence)


def _as_of(f: HardFilter, rows: list[Belief], project: str | None) -> list[Belief]:
    """Each belief as it stood at as_of: one the filter admits before the end its state
    records (superseded, expired) was active then, and the members of a conflict set
    that two or more of them held then, in ``project``, were in conflict
    (:func:`disputed_at`: the rows hold every admitted member of each loaded belief's
    set; a local belief of another project holds in none but its own)."""
    stood = [
        b
        if (state := state_at_as_of(f, b.state)) is b.state
        else b.model_copy(update={"state": state})
        for b in rows
    ]
    if all(b.conflict_set_id is None for b in stood):
        return stood
    return disputed_at(stood, f.states, project=project)


def _execute(
    conn: psycopg.Connection[Any],
    statement: Statement,
    params: dict[str, Any],
    wanted: dict[str, str],
    row_factory: Any = None,
    local: dict[str, str] | None = None,
) -> psycopg.RawCursor[Any]:
    """``statement`` on ``conn`` with the session ``wanted``: the settings that differ go
    first, in the same pipelined round trip (and in the same implicit transaction, so a
    failing statement takes them back: then nothing is assumed about the connection);
    ``local`` settings are set for that transaction only, so for ``statement`` alone."""
    changes = _settings_to_apply(conn, wanted)
    raw = raw_cursor_class(conn)
    cur = raw(conn, row_factory=row_factory) if row_factory else raw(conn)
    args = statement.bind(params)
    try:
        if not changes and not local:
            return cur.execute(statement.text, args)
        with pipeline(conn):
            if changes:
                raw(conn).execute(set_configs(len(changes)), setting_values(changes))
            if local:
                set_local(conn, local)
            cur.execute(statement.text, args)
        with _applied_lock:
            _applied.setdefault(conn, {}).update(changes)
        return cur
    except BaseException:
        with _applied_lock:
            _applied.pop(conn, None)
        raise
