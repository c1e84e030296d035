"""The principal-keyed GIN probes of the structured, lexical and trigram arms, as SQL.

A belief's entities and its search document's lexemes are indexed (migration 0020) as
*principal keys*: each value prefixed with the belief's tenant and principal
(``recallflow_principal_keys``), so one posting list holds one principal's beliefs that
have one value. An index on ``(principal_id, entities)`` instead ANDs the value's posting
list with the principal's, which holds every belief of the principal: a probe read it
whole, so it cost what the principal holds (0.5 ms at 100k beliefs for an entity on 2.6k
of them, against 0.2 ms for the same rows by their own key). The row still carries its
tenant and principal, which every query pins in its hard filter; the key only finds it.
See "Storage" in docs/architecture.md.
"""

from __future__ import annotations

#: A belief ``b``'s entities as principal keys (the indexed expression, written exactly so).
ENTITY_KEYS = "recallflow_principal_keys(b.tenant_id, b.principal_id, b.entities)"
#: A belief ``b``'s search-document lexemes as principal keys (the indexed expression).
LEXEME_KEYS = (
    "recallflow_principal_keys(b.tenant_id, b.principal_id, tsvector_to_array(b.search_document))"
)


def principal_key_of(tenant: str, principal: str, value: str) -> str:
    """The SQL of the principal key of ``value`` for ``tenant`` and ``principal`` (each an
    SQL text expression)."""
    return "recallflow_principal_key(" + tenant + ", " + principal + ", " + value + ")"


def principal_key(value: str) -> str:
    """The SQL of the caller's principal key of ``value`` (an SQL text expression)."""
    return principal_key_of("%(hf_tenant)s", "%(hf_principal)s", value)


def has_entity(value: str) -> str:
    """Belief ``b`` has the entity ``value`` (an SQL text expression), through the index."""
    return ENTITY_KEYS + " @> ARRAY[" + principal_key(value) + "]"


def has_lexeme(value: str) -> str:
    """Belief ``b``'s search document holds the lexeme ``value``, through the index."""
    return LEXEME_KEYS + " @> ARRAY[" + principal_key(value) + "]"


def has_key(value: str) -> str:
    """Belief ``b`` has the key ``value`` as its subject or one of its entities, through
    the subject's b-tree or the entities' principal keys."""
    return (
        "(b.tenant_id = %(hf_tenant)s AND b.principal_id = %(hf_principal)s"
        " AND b.subject = " + value + ") OR " + has_entity(value)
    )


def probed(condition: str) -> str:
    """The beliefs ``b`` that ``condition`` (a principal-key probe) finds, for a ``FROM``
    clause, the query's hard filter to be checked on them outside.

    Fenced (``OFFSET 0``), so the planner keeps the filter out of the probe: a generic plan
    (made without the parameters' values) cannot tell that the key already pins the
    principal, and ANDed the probe's bitmap with a b-tree scan of every belief of the
    principal (8 ms per lexical probe at 100k beliefs, against 0.1 ms)."""
    return "(SELECT * FROM beliefs b WHERE " + condition + " OFFSET 0) b"


def key_spelling(value: str) -> str:
    """The SQL of the spelling of the key ``value`` (an SQL text expression): the key
    without its separators, with "ø", "æ", "ł"… as a keyboard without them writes them
    (migration 0030), so ``fly.io``, ``fly-io`` and ``flyio`` are spelled alike."""
    return "recallflow_key_spelling(" + value + ")"


# German writes "ü" as "ue" where the letter is missing ("Juergen" for "Jürgen", whose
# key is ``jurgen``), so a query key that is spelled like none of the principal's keys is
# tried once more with "ae", "oe" and "ue" read as the letter they stand for. Only then:
# read so always, "Joe" would also be "Jo".
_UMLAUT_DIGRAPHS = "replace(replace(replace({u}, 'ae', 'a'), 'oe', 'o'), 'ue', 'u')"


def _principal_key_spelled(spelling: str) -> str:
    return (
        "principal_terms p WHERE p.tenant_id = %(hf_tenant)s AND p.principal_id = %(hf_principal)s"
        " AND p.kind = 'k' AND p.df > 0 AND " + key_spelling("p.term") + " = " + spelling
    )


def spelled_keys(keys: str) -> str:
    """The SQL of a select of ``term``: the keys ``keys`` (an SQL ``text[]`` expression)
    and every key of the caller's principal spelled like one of them
    (:func:`key_spelling`), each once. One of ``keys`` that no key of the principal is
    spelled like is read once more with "ae", "oe", "ue" as "ä", "ö", "ü"."""
    exact = key_spelling("u")
    digraphs = key_spelling(_UMLAUT_DIGRAPHS.format(u="u"))
    return (
        "SELECT u AS term FROM unnest(" + keys + ") AS u"
        " UNION SELECT p.term FROM unnest("
        + keys
        + ") AS u, LATERAL (SELECT p.term FROM "
        + _principal_key_spelled(exact)
        + " UNION ALL SELECT p.term FROM "
        + _principal_key_spelled(digraphs)
        + " AND "
        + digraphs
        + " <> "
        + exact
        + " AND NOT EXISTS (SELECT FROM "
        + _principal_key_spelled(exact)
        + ")) p"
    )
