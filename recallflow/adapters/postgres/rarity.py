"""Rarity in the caller's view, as SQL: the view's size and each term's beliefs in it.

BM25's idf needs N (the beliefs the caller can see) and df (those of them holding a
term). Both are counted over the view, the beliefs that pass the hard filter in one of its
states now (a belief admitted only as history is ranked but not counted), so no belief
the caller may not see moves a ranking; see "Rarity: counted in the caller's view" in
docs/recall.md.

Counting a view row by row costs what the view holds (tens of milliseconds at 100k
beliefs), so the count is split (migration 0013): the hard filter admits whole classes
(state, sensitivity), whose sizes and per-term counts the database keeps; from them this
subtracts the beliefs of those classes the filter's *time* predicates leave out, found
through one index per predicate (a read of now usually finds none). That is the view's
exact count at a cost that does not grow with the principal. A read of the past that
leaves out more than ``limits.rarity_exclusion_cap`` beliefs counts the view directly
(exact N; each term's beliefs up to the "common" bound, which is all the rule needs).

The SQL fragments here are formatted into the arms' and the evidence's statements with
``{current}``: the hard filter's predicate for the view (``hard_filter_sql(f,
history=False)``), whose states parameter is ``hf_view_states``.
"""

from __future__ import annotations

from recallflow.adapters.postgres.keys import has_key, has_lexeme, probed

#: The CTEs ``x`` (the admitted classes' beliefs the time predicates leave out, up to the
#: cap and one more) and ``n`` (the view's size ``docs``, ``direct`` when it was counted
#: row by row, and the ``common`` bound: a term on more beliefs than this says little).
_CLASS = (
    "   FROM beliefs b WHERE b.tenant_id = %(hf_tenant)s AND b.principal_id = %(hf_principal)s"
    "   AND b.state = ANY(%(hf_view_states)s) AND b.sensitivity <= %(hf_ceiling)s"
)
# One branch per time predicate, each matching one index of migration 0013 (a single OR
# lets a generic plan read the whole class through beliefs_view_idx instead: 170-540 ms
# at 100k beliefs); a belief two predicates leave out is counted once, by the first.
VIEW = (
    " x AS MATERIALIZED (SELECT doc, subject, entities FROM ("
    "   SELECT b.search_document AS doc, b.subject, b.entities" + _CLASS + ""
    "   AND b.valid_from > '-infinity' AND b.valid_from > %(hf_as_of)s"
    "   UNION ALL SELECT b.search_document, b.subject, b.entities" + _CLASS + ""
    "   AND b.valid_to < 'infinity' AND b.valid_to <= %(hf_as_of)s"
    "   AND b.valid_from <= %(hf_as_of)s"
    "   UNION ALL SELECT b.search_document, b.subject, b.entities" + _CLASS + ""
    "   AND b.recorded_at > %(hf_known)s"
    "   AND b.valid_from <= %(hf_as_of)s AND b.valid_to > %(hf_as_of)s"
    "   UNION ALL SELECT b.search_document, b.subject, b.entities" + _CLASS + ""
    "   AND b.retracted_at IS NOT NULL AND b.retracted_at <= %(hf_known)s"
    "   AND b.valid_from <= %(hf_as_of)s AND b.valid_to > %(hf_as_of)s"
    "   AND b.recorded_at <= %(hf_known)s"
    " ) e LIMIT %(rarity_exclusion_cap)s + 1),"
    " n0 AS MATERIALIZED (SELECT e.direct, CASE WHEN e.direct"
    "   THEN (SELECT count(*) FROM beliefs b WHERE {current})"
    "   ELSE (SELECT coalesce(sum(s.beliefs), 0) FROM principal_class_sizes s"
    "     WHERE s.tenant_id = %(hf_tenant)s AND s.principal_id = %(hf_principal)s"
    "     AND s.state = ANY(%(hf_view_states)s) AND s.sensitivity <= %(hf_ceiling)s) - e.cnt"
    "   END AS docs"
    "   FROM (SELECT count(*) AS cnt, count(*) > %(rarity_exclusion_cap)s AS direct FROM x) e),"
    " n AS MATERIALIZED (SELECT n0.direct, n0.docs,"
    "   greatest(%(min_common)s, n0.docs * %(common_share)s) AS common FROM n0),"
)


def term_df(kind: str, term: str, matches: str, held: str) -> str:
    """The SQL expression of the view's beliefs holding ``term`` (a column of the
    enclosing query, which must select from ``n``): ``matches`` says "belief ``b`` has
    it" (for the direct count, a probe as :func:`~recallflow.adapters.postgres.keys.probed`
    fences it), ``held`` says the same of an ``x`` row exactly as the class counts of
    migration 0013 see it."""
    return (
        "CASE WHEN n.direct THEN (SELECT count(*) FROM (SELECT FROM " + probed(matches) + ""
        "   WHERE {current} LIMIT floor(n.common)::int + 1) m)"
        " ELSE (SELECT coalesce(sum(t.df), 0) FROM principal_term_classes t"
        "   WHERE t.tenant_id = %(hf_tenant)s AND t.principal_id = %(hf_principal)s"
        "   AND t.kind = '" + kind + "' AND t.term = " + term + ""
        "   AND t.state = ANY(%(hf_view_states)s) AND t.sensitivity <= %(hf_ceiling)s)"
        "   - (SELECT count(*) FROM x WHERE " + held + ") END"
    )


def lexeme_df(term: str) -> str:
    """:func:`term_df` of a lexeme (of the beliefs' English search documents)."""
    return term_df(
        "l",
        term,
        has_lexeme(term),
        term + " = ANY(tsvector_to_array(x.doc))",
    )


def key_df(term: str) -> str:
    """:func:`term_df` of a key (a belief's subject or one of its entities)."""
    return term_df(
        "k",
        term,
        has_key(term),
        "(x.subject = " + term + " OR " + term + " = ANY(x.entities))",
    )
