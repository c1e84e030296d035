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

import threading
from dataclasses import dataclass, field
from typing import Any

from recallflow.adapters.postgres.keys import has_key, has_lexeme, probed
from recallflow.models.stages import HardFilter
from recallflow.policy import ArmLimits

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
# Each parameter's bound is paired with an opposite bound that every timestamp meets (``<=
# 'infinity'``, ``> '-infinity'``; the table's checks order the times): planned without
# the parameter's value, a lone bound is taken to keep a third of the rows, and where the
# principal holds most of the table (a store of one user) the ``recorded_at`` branch read
# it whole, sequentially (10 ms a statement at 10k beliefs, 50-86 ms at 50k, against
# 0.6-0.8 ms through the index). Paired, the bounds are taken as a narrow range, as a read
# of now finds them (for ``valid_from`` and ``valid_to``: the share their partial index
# holds, when that is smaller).
_EXCLUDED = (
    " x AS MATERIALIZED (SELECT doc, subject, entities FROM ("
    "   SELECT b.search_document AS doc, b.subject, b.entities" + _CLASS + ""
    "   AND b.valid_from > '-infinity' AND b.valid_from > %(hf_as_of)s"
    "   AND b.valid_from <= 'infinity'"
    "   UNION ALL SELECT b.search_document, b.subject, b.entities" + _CLASS + ""
    "   AND b.valid_to < 'infinity' AND b.valid_to <= %(hf_as_of)s"
    "   AND b.valid_to > '-infinity'"
    "   AND b.valid_from <= %(hf_as_of)s"
    "   UNION ALL SELECT b.search_document, b.subject, b.entities" + _CLASS + ""
    "   AND b.recorded_at > %(hf_known)s AND b.recorded_at <= 'infinity'"
    "   AND b.valid_from <= %(hf_as_of)s AND b.valid_to > %(hf_as_of)s"
    "   UNION ALL SELECT b.search_document, b.subject, b.entities" + _CLASS + ""
    "   AND b.retracted_at IS NOT NULL AND b.retracted_at <= %(hf_known)s"
    "   AND b.retracted_at > '-infinity'"
    "   AND b.valid_from <= %(hf_as_of)s AND b.valid_to > %(hf_as_of)s"
    "   AND b.recorded_at <= %(hf_known)s"
    " ) e LIMIT %(rarity_exclusion_cap)s + 1),"
)
VIEW = (
    _EXCLUDED + " n0 AS MATERIALIZED (SELECT e.direct, CASE WHEN e.direct"
    "   THEN (SELECT count(*) FROM beliefs b WHERE {current})"
    "   ELSE (SELECT coalesce(sum(s.beliefs), 0) FROM principal_class_sizes s"
    "     WHERE s.tenant_id = %(hf_tenant)s AND s.principal_id = %(hf_principal)s"
    "     AND s.state = ANY(%(hf_view_states)s) AND s.sensitivity <= %(hf_ceiling)s) - e.cnt"
    "   END AS docs"
    "   FROM (SELECT count(*) AS cnt, count(*) > %(rarity_exclusion_cap)s AS direct FROM x) e),"
    " n AS MATERIALIZED (SELECT n0.direct, n0.docs,"
    "   greatest(%(min_common)s, n0.docs * %(common_share)s) AS common FROM n0),"
)
#: ``n`` as the recall's arms counted it (its values as parameters).
_KNOWN_N = (
    " n AS MATERIALIZED (SELECT %(view_direct)s::boolean AS direct,"
    "   %(view_docs)s::bigint AS docs, %(view_common)s::float8 AS common"
)
#: :data:`VIEW`, or the view's size as the recall's arms already counted it (``n``'s
#: values as parameters, ``view_known`` true): the count (``counted``) is then never run.
VIEW_OR_KNOWN = VIEW.replace(" n AS MATERIALIZED (", " counted AS MATERIALIZED (") + (
    _KNOWN_N + " WHERE %(view_known)s"
    "   UNION ALL SELECT direct, docs, common FROM counted WHERE NOT %(view_known)s),"
)
#: The view as the recall's arms counted it (``n``'s values as parameters), for a
#: statement that is sent only when they did, and counted it by its classes (``direct``
#: false: :func:`term_df` with ``direct=False``): the beliefs the time predicates leave
#: out (``x``), which a term the arms did not count is taken from, and ``n``. Neither
#: the view's own count nor the row-by-row counts are in its plan: never run once the
#: view is known, they were still started with every load (0.04-0.08 ms of its 0.22-0.33
#: ms of executor start at 100k beliefs).
VIEW_COUNTED = _EXCLUDED + _KNOWN_N + "),"
#: The arms' statements that count the view return, after their hits, what they counted
#: (:func:`counted_rows`): rows ``(id, score, term, df, direct)``, the hits' ``term``,
#: ``df`` and ``direct`` null; then one row of the view's size (``id`` and ``term`` null,
#: ``score`` its ``common`` bound, ``df`` its beliefs, ``direct`` how it was counted) and
#: one row per term (``id`` null, ``df`` its beliefs in the view).
COUNTED_HITS = "NULL::text AS term, NULL::bigint AS df, NULL::boolean AS direct"


def counted_rows(terms: str) -> str:
    """The rows of the view's size and of each term of ``terms`` (an array expression) with
    its count in the CTE ``c`` (zero when ``c`` does not hold it: no belief of the
    principal has it), for a statement that has ``n`` and ``c`` (:data:`COUNTED_HITS`)."""
    return (
        " UNION ALL SELECT NULL, n.common, NULL, n.docs, n.direct FROM n"
        " UNION ALL SELECT NULL, NULL, t.term, coalesce((SELECT c.df FROM c"
        "   WHERE c.term = t.term), 0), NULL FROM unnest(" + terms + ") AS t(term)"
    )


def known_df(term: str, terms: str, dfs: str, counted: str) -> str:
    """The view's count of ``term``: from the arrays ``terms`` and ``dfs`` (parameters:
    what the recall's arms counted) when they hold it, else ``counted`` (:func:`term_df`)."""
    return (
        "coalesce((SELECT u.df FROM unnest(" + terms + "::text[], " + dfs + "::bigint[])"
        " AS u(term, df) WHERE u.term = " + term + "), " + counted + ")"
    )


def term_df(kind: str, term: str, matches: str, held: str, *, direct: bool = True) -> str:
    """The SQL expression of the view's beliefs holding ``term`` (a column of the
    enclosing query, which must select from ``n``): ``matches`` says "belief ``b`` has
    it" (for the direct count, a probe as :func:`~recallflow.adapters.postgres.keys.probed`
    fences it), ``held`` says the same of an ``x`` row exactly as the class counts of
    migration 0013 see it. ``direct=False``: for a statement whose ``n.direct`` is known
    to be false (:data:`VIEW_COUNTED`), the class count alone, which is what the whole
    expression evaluates to there."""
    by_class = (
        "(SELECT coalesce(sum(t.df), 0) FROM principal_term_classes t"
        "   WHERE t.tenant_id = %(hf_tenant)s AND t.principal_id = %(hf_principal)s"
        "   AND t.kind = '" + kind + "' AND t.term = " + term + ""
        "   AND t.state = ANY(%(hf_view_states)s) AND t.sensitivity <= %(hf_ceiling)s)"
        "   - (SELECT count(*) FROM x WHERE " + held + ")"
    )
    if not direct:
        return "(" + by_class + ")"
    return (
        "CASE WHEN n.direct THEN (SELECT count(*) FROM (SELECT FROM " + probed(matches) + ""
        "   WHERE {current} LIMIT floor(n.common)::int + 1) m)"
        " ELSE " + by_class + " END"
    )


def lexeme_df(term: str, *, direct: bool = True) -> str:
    """:func:`term_df` of a lexeme (of the beliefs' English search documents)."""
    return term_df(
        "l",
        term,
        has_lexeme(term),
        term + " = ANY(tsvector_to_array(x.doc))",
        direct=direct,
    )


def key_df(term: str, *, direct: bool = True) -> str:
    """:func:`term_df` of a key (a belief's subject or one of its entities)."""
    return term_df(
        "k",
        term,
        has_key(term),
        "(x.subject = " + term + " OR " + term + " = ANY(x.entities))",
        direct=direct,
    )


@dataclass(frozen=True)
class ViewCounts:
    """What the arms of one recall counted of its view: its size (``n``: ``direct``,
    ``docs``, ``common``) and each lexeme's and key's beliefs in it."""

    direct: bool
    docs: int
    common: float
    lexemes: dict[str, int]
    keys: dict[str, int]

    def params(self) -> dict[str, Any]:
        """The parameters of :data:`VIEW_OR_KNOWN` and :func:`known_df` for these counts."""
        return {
            "view_known": True,
            "view_direct": self.direct,
            "view_docs": self.docs,
            "view_common": self.common,
            "lexeme_terms": list(self.lexemes),
            "lexeme_dfs": list(self.lexemes.values()),
            "key_terms": list(self.keys),
            "key_dfs": list(self.keys.values()),
        }


#: The parameters of :data:`VIEW_OR_KNOWN` and :func:`known_df` when nothing is known:
#: the statement counts the view itself.
UNKNOWN_VIEW: dict[str, Any] = {
    "view_known": False,
    "view_direct": None,
    "view_docs": None,
    "view_common": None,
    "lexeme_terms": [],
    "lexeme_dfs": [],
    "key_terms": [],
    "key_dfs": [],
}


@dataclass
class RecallCounts:
    """The view counts of one recall, as its arms return them (:func:`counted_rows`), for
    its candidates' load: the view is the same (the same hard filter), so the load reads
    each count its arms made instead of making it again. Arms run on threads of their own
    and may finish after the load started (a timed-out arm): writes and reads are locked,
    and a count arriving late is simply not used."""

    _lock: threading.Lock = field(default_factory=threading.Lock)
    _key: tuple[HardFilter, int, float, int] | None = None
    _view: tuple[bool, int, float] | None = None
    _terms: dict[str, dict[str, int]] = field(default_factory=lambda: {"l": {}, "k": {}})

    @staticmethod
    def _key_of(f: HardFilter, limits: ArmLimits) -> tuple[HardFilter, int, float, int]:
        return (f, limits.rarity_exclusion_cap, limits.common_share, limits.min_common)

    def record(
        self,
        f: HardFilter,
        limits: ArmLimits,
        kind: str,
        view: tuple[bool, int, float],
        dfs: dict[str, int],
    ) -> None:
        """What an arm counted of the view of ``f`` (its ``kind`` of terms: ``l`` lexemes,
        ``k`` keys). A second view (another filter or limits: not one recall's) is not
        recorded."""
        key = self._key_of(f, limits)
        with self._lock:
            if self._key is None:
                self._key, self._view = key, view
            elif self._key != key or self._view != view:
                return
            self._terms[kind].update(dfs)

    def counts(self, f: HardFilter, limits: ArmLimits) -> ViewCounts | None:
        """The counts of the view of ``f`` made so far, or None when none were."""
        with self._lock:
            if self._view is None or self._key != self._key_of(f, limits):
                return None
            direct, docs, common = self._view
            return ViewCounts(direct, docs, common, dict(self._terms["l"]), dict(self._terms["k"]))
