"""The SQL of the evidence the ranking and the relevance floor read for each loaded
candidate (see "Relevance floor" in docs/architecture.md), read with the candidates by
:meth:`~recallflow.adapters.postgres.search.PostgresBeliefSearch.load_with_evidence`.

For every candidate id (still hard-filtered, like every read of the recall):

* its cosine similarity with each query vector, in order;
* its *coverage* of each text query: the share of the query's lexemes (English stemming
  and stop words, as the stored documents) the belief's document contains, each lexeme
  weighted by its rarity (BM25's idf) among the beliefs the caller can see, how many
  of the query's lexemes it holds, and which (the sum of a hash of each, since two
  lexemes of the same rarity weigh alike), all three read by the floor; the best share over the text
  queries. A lexeme no visible belief has counts as rare as the rarest one a belief has:
  the memory does not know it, so a query made of such words is not covered, yet one
  generic word a small memory happens to lack ("say") does not outweigh every word it
  holds. Rarity is counted as if the view held at least the policy's
  ``coverage_min_view`` beliefs: in a memory of three beliefs a word two of them share
  is not common, and must not weigh nothing;

* whether its subject or one of its entities is an entity the working state names that
  few visible beliefs carry, spelled as the request spells it or alike
  (:func:`~recallflow.adapters.postgres.keys.spelled_keys`);
* its *centrality*: its vector's inner product with the sum of the vectors of every
  loaded candidate (the rows the load returns, summed by :func:`evidence_ctes` in the
  same statement), from which the ranking takes the candidates' common direction out;

and the links (belief edges) between the candidates, so a candidate can be supported by
a linked one (the reply to a question that names the query's words).

Rarity is the arms' (:mod:`~recallflow.adapters.postgres.rarity`): exact counts over the
caller's view, at a cost that does not grow with the principal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from psycopg import sql

from recallflow.adapters.postgres.filters import hard_filter_params
from recallflow.adapters.postgres.keys import spelled_keys
from recallflow.adapters.postgres.rarity import (
    UNKNOWN_VIEW,
    VIEW_COUNTED,
    VIEW_OR_KNOWN,
    ViewCounts,
    key_df,
    known_df,
    lexeme_df,
)
from recallflow.adapters.postgres.vectors import query_vector_texts
from recallflow.models.stages import (
    CandidateEvidence,
    EvidenceSet,
    HardFilter,
    make_candidate_evidence,
    make_text_coverage,
)
from recallflow.policy import ArmLimits


def _evidence_ctes(counted: bool) -> str:
    """The evidence's CTEs (its columns of a belief ``b`` follow in
    :data:`_EVIDENCE_SELECT`, selected with the belief itself by the statement that loads
    the candidates, :func:`with_evidence`, so the evidence is read in the same scan of the
    same rows). ``counted``: the CTEs of a statement sent only when the recall's arms
    counted the view by its classes
    (:data:`~recallflow.adapters.postgres.rarity.VIEW_COUNTED`)."""
    view = VIEW_COUNTED if counted else VIEW_OR_KNOWN
    direct = not counted
    return (
        "WITH"
        + view
        + " q AS (SELECT DISTINCT t.ord, x.term FROM unnest(%(texts)s::text[]) WITH ORDINALITY"
        "   AS t(text, ord), unnest(tsvector_to_array(to_tsvector('english'::regconfig, t.text)))"
        "   AS x(term)),"
        # A lexeme's beliefs up to the "common" bound and one more: past it a word weighs as
        # little as any common word.
        " c AS MATERIALIZED (SELECT d.term, least("
        + known_df(
            "d.term", "%(lexeme_terms)s", "%(lexeme_dfs)s", lexeme_df("d.term", direct=direct)
        )
        + ","
        "   floor(n.common)::int + 1) AS df FROM (SELECT DISTINCT term FROM q) d, n),"
        # Each lexeme's query parsed once here: parsed in the per-candidate check, it was
        # parsed again for every candidate (0.13 ms of a recall's load at 10k beliefs).
        " w AS MATERIALIZED (SELECT q.ord, q.term, quote_literal(q.term)::tsquery AS tq,"
        "   ln(1 + (greatest(n.docs, %(min_view)s, 1) - greatest(c.df, 1) + 0.5)"
        "   / (greatest(c.df, 1) + 0.5))"
        # A 32-bit hash of the lexeme itself: summed over the lexemes a belief holds, it
        # says which of the query's words they are, where two words of the same rarity
        # weigh alike.
        "   AS idf, hashtext(q.term)::float8 AS lexeme_hash FROM q JOIN c USING (term), n),"
        " tot AS MATERIALIZED (SELECT t.ord, coalesce(sum(w.idf), 0) AS total,"
        "   count(w.term)::float8 AS words"
        "   FROM generate_series(1, cardinality(%(texts)s::text[])) AS t(ord)"
        "   LEFT JOIN w ON w.ord = t.ord GROUP BY t.ord),"
        # The named entities carried by few of the visible beliefs (a key on more than the common
        # bound names nothing in particular), each as the request spells it and as the
        # principal's keys spelled like it do ("fly-io" names the stored ``fly.io``).
        # Materialized, so each key's count is read once: inlined into the per-candidate check,
        # it was read again for every candidate that holds the key (11 counts for the 3 keys of
        # one load of 48 candidates at 100k beliefs).
        " k AS MATERIALIZED (SELECT d.key FROM ("
        + spelled_keys("%(keys)s::text[]")
        + ") AS d(key), n"
        "   WHERE "
        + known_df("d.key", "%(key_terms)s", "%(key_dfs)s", key_df("d.key", direct=direct))
        + " <= n.common),"
        # The query vectors parsed once (inside the per-candidate subquery the text was parsed
        # again for every candidate: most of this statement's time).
        " qv AS MATERIALIZED (SELECT v.vec, v.ord"
        "   FROM unnest(%(vectors)s::text[]::vector[]) WITH ORDINALITY AS v(vec, ord))"
    )


_EVIDENCE_CTES = _evidence_ctes(counted=False)
_COUNTED_EVIDENCE_CTES = _evidence_ctes(counted=True)

#: The loaded rows' vectors, read in line (see :func:`evidence_ctes`).
_LOADED_VECTOR = "ev_vector"
_EVIDENCE_SELECT = (
    "ARRAY(SELECT (1 - (b." + _LOADED_VECTOR + " <=> v.vec))::float8 FROM qv v ORDER BY v.ord)"
    " AS ev_cosines,"
    # Per text query, in order: the rarity the belief holds, the rarity of all its words,
    # how many of its words the belief holds and how many it has, and the sum of the hashes
    # of the words it holds (which words they are).
    "  ARRAY(SELECT ARRAY[h.held, tot.total, h.words, tot.words, h.fingerprint]::float8[]"
    "    FROM tot CROSS JOIN LATERAL (SELECT coalesce(sum(w.idf), 0) AS held,"
    "    count(*)::float8 AS words, coalesce(sum(w.lexeme_hash), 0) AS fingerprint"
    "    FROM w WHERE w.ord = tot.ord"
    "    AND b.search_document @@ w.tq) h ORDER BY tot.ord) AS ev_terms,"
    "  EXISTS (SELECT FROM k WHERE k.key = b.subject OR b.entities @> ARRAY[k.key])"
    "   AS ev_subject_match,"
    "  (-(b." + _LOADED_VECTOR + " <#> (SELECT pool.total FROM pool)))::float8 AS ev_centrality"
)
#: The names of the evidence's columns in a loaded row, in :func:`candidate_evidence`'s order.
EVIDENCE_COLUMNS: tuple[str, ...] = (
    "id",
    "ev_cosines",
    "ev_terms",
    "ev_subject_match",
    "ev_centrality",
)


def evidence_ctes(loaded: str, *, counted: bool = False, pooled: str = "") -> str:
    """The evidence's CTEs for a statement that loads the rows ``loaded`` selects (a
    statement selecting whole belief rows; it may use ``{filter}``), kept as ``loaded``,
    which the statement then selects from: the rows are found and hard-filtered once, and
    the sum of their vectors, which each row's centrality is read against, is taken from
    the same rows (rows without a vector add nothing). Found a second time for the sum,
    the rows cost 0.05-0.15 ms more a load at 10k and 100k beliefs. Summed in id order:
    pgvector adds in single precision, so a sum in the order the plan reads the rows could
    differ in its last bits with the plan, or after a row is rewritten, and flip a near
    tie. A sum, not pgvector's ``avg`` nor the vectors made unit first: the embedder's
    rows are unit already, the row count is the number of rows with a centrality, and
    ``avg`` cost 0.1 ms more a load (LoCoMo dev, one process, 300 loads alternating).

    Each row's vector is kept in line beside the row (``ev_vector``), taken once from
    where the table stores it: pgvector stores a vector out of line once its row passes
    the 2 kB toast threshold (a 384-dimension vector is 1.5 kB of it), and the sum, the
    cosines and the centrality each fetched it again from the toast table, an index probe
    a read (the typmod function of the ``vector`` type, given no dimension to check,
    returns its argument fetched and unchanged). With the keys' counts read once (``k``),
    1.40 -> 1.24 ms of server CPU a load at 100k beliefs, the same rows.

    ``counted``: for a statement sent only with the view's counts the recall's arms made
    by its classes (:class:`~recallflow.adapters.postgres.rarity.ViewCounts`, ``direct``
    false), whose plan holds none of the counts it would never run. ``pooled``: a
    condition on a loaded row ``p`` that keeps it out of the sum when false (rows loaded
    beside the candidates that must not move their centrality)."""
    return (
        (_COUNTED_EVIDENCE_CTES if counted else _EVIDENCE_CTES)
        + ", loaded AS MATERIALIZED (SELECT l.*, vector(l.embedding, -1, true) AS "
        + _LOADED_VECTOR
        + " FROM ("
        + loaded
        + ") l), pool AS MATERIALIZED (SELECT sum(p."
        + _LOADED_VECTOR
        + " ORDER BY p.id) AS total FROM loaded p"
        + (" WHERE " + pooled if pooled else "")
        + ")"
    )


# The links among the candidates ``l``, joined to the edges by their source: with the
# source checked by ``= ANY`` of the candidates' array instead, every edge into a
# candidate was compared with the array's ids one by one (83 edges and 50 ids for 16
# links at 100k beliefs; 0.33 -> 0.30 ms of server CPU a statement). A candidate listed
# twice joins its edges twice, which neither aggregate sees.
_LINKS_OF = (
    "SELECT e.src_id, e.dst_id, max(e.weight)::float8, bool_or(e.relation = 'follows')"
    " FROM l, belief_edges e"
    " WHERE e.tenant_id = %(hf_tenant)s AND e.principal_id = %(hf_principal)s"
    " AND e.src_id = l.id AND e.dst_id = ANY({among}) AND e.src_id <> e.dst_id"
    " GROUP BY e.src_id, e.dst_id"
)


def with_evidence(select: str) -> str:
    """``select``, a select list of beliefs ``b`` ending in ``FROM beliefs``, with the
    evidence's columns (:data:`EVIDENCE_COLUMNS`) added; a statement that uses it starts
    with :func:`evidence_ctes`."""
    head, tail = select.rsplit(" FROM beliefs", 1)
    return head + ", " + _EVIDENCE_SELECT + " FROM beliefs" + tail


def links_statement(among: str) -> sql.SQL:
    """The links between the beliefs ``among`` names (an array expression; it may use
    ``{filter}``), to be formatted with the hard filter."""
    links = (
        "WITH l AS MATERIALIZED (SELECT unnest("
        + among
        + ") AS id) "
        + _LINKS_OF.replace("{among}", "ARRAY(SELECT id FROM l)")
    )
    return sql.SQL(links)


def evidence_params(
    f: HardFilter,
    ids: Sequence[str],
    texts: Sequence[str],
    vectors: npt.NDArray[np.float32],
    keys: Sequence[str],
    limits: ArmLimits,
    counted: ViewCounts | None = None,
) -> dict[str, Any]:
    """The parameters of the evidence and links statements; with the view's counts the
    recall's arms made (``counted``), the evidence reads them instead of counting again."""
    return {
        **(counted.params() if counted is not None else UNKNOWN_VIEW),
        **hard_filter_params(f),
        **hard_filter_params(f, history=False),
        "ids": list(ids),
        "texts": [t for t in texts if t.strip()],
        "vectors": query_vector_texts(vectors),
        "keys": list(dict.fromkeys(keys)),
        "rarity_exclusion_cap": limits.rarity_exclusion_cap,
        "common_share": limits.common_share,
        "min_common": limits.min_common,
        "min_view": limits.coverage_min_view,
    }


def candidate_evidence(rows: Sequence[Any]) -> dict[str, CandidateEvidence]:
    """Each loaded candidate's :class:`CandidateEvidence`, by id, from the evidence rows
    (``EVIDENCE_COLUMNS``)."""
    # Every value converted here: a recall reads evidence for ~45 candidates.
    evidence, coverage = make_candidate_evidence, make_text_coverage
    return {
        str(row[0]): evidence(
            cosines=tuple([float(c) if c is not None else -1.0 for c in row[1] or ()]),
            texts=tuple(
                [
                    coverage(
                        held=float(t[0]),
                        total=float(t[1]),
                        words_held=int(t[2]),
                        words=int(t[3]),
                        fingerprint=float(t[4]),
                    )
                    for t in row[2] or ()
                ]
            ),
            names=(),
            subject_match=bool(row[3]),
            centrality=None if row[4] is None else float(row[4]),
        )
        for row in rows
    }


def evidence_set(by_id: dict[str, CandidateEvidence], link_rows: Sequence[Any]) -> EvidenceSet:
    """The :class:`EvidenceSet` of the candidates' evidence (:func:`candidate_evidence`)
    and the links' rows (each link once, undirected; a ``follows`` edge also in its
    direction)."""
    seen: dict[tuple[str, str], float] = {}
    follows: set[tuple[str, str]] = set()
    for src, dst, weight, follow in link_rows:
        key = (src, dst) if src <= dst else (dst, src)
        # ``max(seen, weight)``, written out (the builtin parses its arguments for
        # keywords on every call).
        heaviest = seen.get(key, 0.0)
        seen[key] = w if (w := float(weight)) > heaviest else heaviest
        if follow:
            follows.add((str(src), str(dst)))
    return EvidenceSet(
        by_id=by_id,
        links=tuple([(a, b, w) for (a, b), w in sorted(seen.items())]),
        follows=tuple(sorted(follows)),
        error=None,
    )
