"""Deterministic query forming.

Queries derive from the working state — the goal, an explicit query, active entities,
files, tools and the latest turn summary — never from the raw last message alone. The
former emits at most :data:`MAX_QUERIES` deduplicated queries: text queries (for the
lexical, trigram and semantic arms) and one structured query of normalised keys (for the
structured and trigram arms). The same state always forms the same queries.

A model-assisted former can be plugged in behind the
:class:`~recallflow.ports.QueryFormer` port, wrapped in :class:`CachedQueryFormer`
so it never sits uncached on the fast path.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import PurePosixPath
from threading import Lock

from recallflow.models.request import WorkingState
from recallflow.models.result import RecallQuery
from recallflow.models.store import normalise_subject, unaccented
from recallflow.ports import QueryFormer

# These two caps are part of this former, like its stop words and patterns, not of the
# retrieval policy: the former is a port another implementation may replace, and the
# queries it formed are recorded in every trace. What the arms do with the queries (how
# many terms the trigram arm takes, and so on) is the policy's.
#: At most this many queries per recall.
MAX_QUERIES = 8
#: At most this many keys in the structured query.
MAX_KEYS = 24

# Identifier-like tokens (billing-api, fly.io, snake_case) and capitalised words (names).
_IDENTIFIER = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:[-_./][A-Za-z0-9]+)+\b")
_CAPITALISED = re.compile(r"\b[A-Z][a-zA-Z0-9]{1,}\b")
_WORD = re.compile(r"[a-z0-9]+")
#: Capitalised words that start questions and sentences rather than name things.
_NOT_NAMES = frozenset(
    {
        "a",
        "an",
        "and",
        "are",
        "at",
        "be",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "his",
        "how",
        "i",
        "if",
        "in",
        "is",
        "it",
        "its",
        "me",
        "my",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "she",
        "should",
        "so",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "would",
        "yes",
        "you",
        "your",
        "also",
        "after",
        "before",
        "during",
        "since",
        "please",
        "let",
        "lets",
    }
)


_SENTENCE_END = frozenset(".!?:;\"'(")


def _starts_sentence(text: str, at: int) -> bool:
    before = text[:at].rstrip()
    return not before or before[-1] in _SENTENCE_END


def _keys_of_text(text: str) -> list[str]:
    """Identifier-like tokens, and capitalised words that are not a sentence's first word.

    Read with the accents dropped, as keys are made (:func:`unaccented`): read as written,
    ``José`` stopped at the accent and gave the key ``jos``, which the stored subject
    ``jose`` never matches."""
    text = unaccented(text)
    found = [m.group(0) for m in _IDENTIFIER.finditer(text)]
    found += [
        m.group(0)
        for m in _CAPITALISED.finditer(text)
        if m.group(0).lower() not in _NOT_NAMES and not _starts_sentence(text, m.start())
    ]
    return [normalise_subject(k) for k in found]


def _file_keys(path: str) -> list[str]:
    p = PurePosixPath(path.replace("\\", "/"))
    return [normalise_subject(p.name), normalise_subject(p.stem)]


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


class DeterministicQueryFormer:
    """The default :class:`~recallflow.ports.QueryFormer`: pure code, no model."""

    version = "deterministic-v1"

    def form(self, state: WorkingState) -> tuple[RecallQuery, ...]:
        texts: list[RecallQuery] = []
        seen_texts: set[str] = set()

        def add_text(source: str, text: str | None) -> None:
            cleaned = _clean(text)
            key = cleaned.lower()
            if cleaned and key not in seen_texts and len(texts) < MAX_QUERIES - 1:
                seen_texts.add(key)
                texts.append(RecallQuery(kind="text", text=cleaned[:1000], source=source))

        add_text("query", state.query)
        add_text("goal", state.goal)
        if state.recent_turns:
            add_text("recent_turn", state.recent_turns[-1])

        keys: list[str] = []
        keys += [normalise_subject(e) for e in state.entities]
        for path in state.files:
            keys += _file_keys(path)
        keys += [normalise_subject(t) for t in state.tools]
        for text in (state.query, state.goal, *state.recent_turns[-1:]):
            keys += _keys_of_text(text or "")
        unique = tuple(dict.fromkeys(k for k in keys if k))[:MAX_KEYS]

        queries = list(texts)
        if unique:
            queries.append(
                RecallQuery(kind="structured", text=" ".join(unique), keys=unique, source="keys")
            )
        return tuple(queries)


class CachedQueryFormer:
    """Wraps any :class:`QueryFormer` in a bounded, thread-safe LRU cache by working state."""

    def __init__(self, inner: QueryFormer, maxsize: int = 4096) -> None:
        self._inner = inner
        self._maxsize = maxsize
        self._cache: OrderedDict[WorkingState, tuple[RecallQuery, ...]] = OrderedDict()
        self._lock = Lock()

    def form(self, state: WorkingState) -> tuple[RecallQuery, ...]:
        with self._lock:
            if state in self._cache:
                self._cache.move_to_end(state)
                return self._cache[state]
        queries = self._inner.form(state)
        with self._lock:
            self._cache[state] = queries
            while len(self._cache) > self._maxsize:
                self._cache.popitem(last=False)
        return queries


def content_terms(
    texts: list[str] | tuple[str, ...], *, limit: int, min_length: int
) -> tuple[str, ...]:
    """Lowercase content words (≥ ``min_length`` letters, not stop words) of ``texts``, with
    their accents dropped as a key's are (``café`` is ``cafe``, not ``caf``)."""
    words = (w for t in texts for w in _WORD.findall(unaccented(t).lower()))
    kept = (w for w in words if len(w) >= min_length and w not in _NOT_NAMES)
    return tuple(dict.fromkeys(kept))[:limit]


# --- the periods a query names (temporal intent) ------------------------------------------

_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH = "(" + "|".join(_MONTHS) + ")"
_ORDINAL = r"(\d{1,2})(?:st|nd|rd|th)?"
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}\s+{_ORDINAL},?\s+(\d{{4}})\b", re.IGNORECASE)
_DAY_MONTH_YEAR = re.compile(rf"\b{_ORDINAL}\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b", re.IGNORECASE)
_MONTH_YEAR = re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?(\d{{4}})\b", re.IGNORECASE)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_YEAR = re.compile(r"\b(?:in|during|of|since|by|throughout)\s+(\d{4})\b", re.IGNORECASE)

#: A named period: ``[start, end)`` in UTC.
Period = tuple[datetime, datetime]


def _day(year: int, month: int, day: int) -> Period | None:
    try:
        start = datetime(year, month, day, tzinfo=UTC)
    except ValueError:  # "February 30": not a date, not a period
        return None
    return start, start + timedelta(days=1)


def _month(year: int, month: int) -> Period:
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + 1, 1, 1, tzinfo=UTC) if month == 12 else start.replace(month=month + 1)
    return start, end


def named_periods(texts: Iterable[str]) -> tuple[Period, ...]:
    """The calendar periods the texts name, most precise first within each text: a day
    ("December 4, 2023", "4 December 2023", "2023-12-04"), else a month ("May 2023"),
    else a year after a preposition ("in 2022"). A question that names when is asking
    about what was true or happened then (see "Ranking" in docs/architecture.md);
    relative phrases ("last week") name no period of their own and are left out."""
    out: list[Period] = []
    for text in texts:
        found: list[Period | None] = []
        for m in _MONTH_DAY_YEAR.finditer(text):
            found.append(_day(int(m[3]), _MONTHS.index(m[1].lower()) + 1, int(m[2])))
        for m in _DAY_MONTH_YEAR.finditer(text):
            found.append(_day(int(m[3]), _MONTHS.index(m[2].lower()) + 1, int(m[1])))
        for m in _ISO_DATE.finditer(text):
            month = int(m[2])
            found.append(_day(int(m[1]), month, int(m[3])) if 1 <= month <= 12 else None)
        if not any(found):
            found = [
                _month(int(m[2]), _MONTHS.index(m[1].lower()) + 1)
                for m in _MONTH_YEAR.finditer(text)
            ]
        if not any(found):
            found = [_year(int(m[1])) for m in _YEAR.finditer(text)]
        out.extend(p for p in found if p is not None)
    return tuple(dict.fromkeys(out))


def _year(year: int) -> Period | None:
    if not 1 <= year < 9999:
        return None
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


# --- a question that asks when ------------------------------------------------------------

# "When" asks only as a question word: opening the question or a clause of it ("When did
# …", "So when is …"), before the verb it asks about ("… and when was it"), after a verb
# of knowing ("do you remember when …") or with "since" / "until". A "when" that opens a
# condition ("what should I leave out when cooking for Maya", "when I travel") asks
# nothing about time, and read as asking it lifted every statement that tells a time.
_ASKS_WHEN = re.compile(
    r"(?:^|[.?!;:,]\s*|\b(?:and|so|but|then|or)\s+)when\b(?!\s+(?:i|you|we|they|he|she|it|"
    r"my|your|our|their|his|her|its|the|a|an|this|that|there)\b|\s+\w+ing\b)"
    r"|\bwhen(?:'s|\s+(?:did|does|do|is|was|were|are|will|would|could|can|should|has|have|had|"
    r"might|must)\b)"
    r"|\b(?:since|until|till|know|remember|recall|tell\s+me|wonder|ask(?:ed)?|find\s+out|"
    r"sure|idea)\s+when\b"
    r"|\bhow long\b"
    r"|\bwhat (?:date|day|month|year|time)\b|\bwhich (?:date|day|month|year)\b",
    re.IGNORECASE,
)


def asks_when(texts: Iterable[str]) -> bool:
    """Whether a text query asks when ("When did ...", "How long ago ...", "What year
    ..."): its answer is a statement that says when, which the relevance stage ranks
    higher (see "Ranking" in docs/architecture.md)."""
    return any(_ASKS_WHEN.search(text) for text in texts)
