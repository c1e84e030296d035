"""Deterministic query forming.

Queries derive from the working state — the goal, an explicit query, active entities,
files, tools and the last few turn summaries — never from the raw last message alone. The
former emits at most :data:`MAX_QUERIES` deduplicated queries: text queries (for the
lexical, trigram and semantic arms) and one structured query of normalised keys (for the
structured and trigram arms). The same state always forms the same queries.

A state with no text (no query, goal or turn) but names — entities, tools, files — is
about those names, so they are also its text query: the names alone reach only the
structured arm, which says a belief carries a key, not how much of what is asked it
covers, and the ranking and the floor read the latter.

A model-assisted former can be plugged in behind the
:class:`~recallflow.ports.QueryFormer` port, wrapped in :class:`CachedQueryFormer`
so it never sits uncached on the fast path.
"""

from __future__ import annotations

import re
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import PurePosixPath
from threading import Lock

from recallflow.models.key_reading import is_key_character, read_text
from recallflow.models.request import WorkingState
from recallflow.models.result import RecallQuery
from recallflow.models.store import normalise_subject
from recallflow.ports import QueryFormer

# These two caps are part of this former, like its stop words and patterns, not of the
# retrieval policy: the former is a port another implementation may replace, and the
# queries it formed are recorded in every trace. What the arms do with the queries (how
# many terms the trigram arm takes, and so on) is the policy's.
#: At most this many queries per recall.
MAX_QUERIES = 8
#: At most this many keys in the structured query.
MAX_KEYS = 24
#: At most this many of the latest turn summaries, newest first, become text queries.
MAX_TURNS = 3

# Identifier-like tokens (billing-api, fly.io, snake_case) and capitalised words (names),
# matched on a text's *shape* (:func:`_shape`): each letter of its key reading an ``A``
# (upper case), ``a`` (lower case, or a mark of the letter before) or ``c`` (a script
# without case), each digit a ``0``, ``- _ . /`` themselves and anything else a space.
_IDENTIFIER = re.compile(r"\b[Aac][Aac0]*(?:[-_./][Aac0]+)+\b")
# A capital letter alone ("O" of "Tomás Ó Briain", the "F" of "John F Kennedy") joins a
# run of capitalised words; it is no key alone.
_CAPITALISED = re.compile(r"\bA[Aac0]*\b")
# A word of a script without case (Chinese, Japanese, Arabic, Hebrew, Devanagari, Thai…)
# cannot say it is a name by its first letter, so each such word, as the text's spaces and
# punctuation delimit it, is taken as one a stored key may spell: "東京" in "what about
# 東京?" is the key 東京. No word is cut further (there is no tokenizer for such text):
# "東京のプロジェクト", written without a space, is one word and no key of 東京.
_CASELESS_WORD = re.compile(r"\bc[Aac0]+\b")
_WORD = re.compile(r"[a-z0-9]+")
_FILE_WORDS = re.compile(r"[._-]+")
# The speaker label a turn summary opens with ("Maya: ", "User: ", "Dr Okafor: "): one to
# three words of letters, then a colon and a space; :func:`without_speaker` checks that
# each word is a name (a capital, then lower case) or the label is a role ("assistant").
_SPEAKER = re.compile(r"^\s*([^\W\d_]+(?: [^\W\d_]+){0,2}):\s+")
#: Speaker labels written in lower case.
_ROLES = frozenset(("user", "assistant", "system", "human", "ai", "bot", "agent", "model"))
_READ_WORD = re.compile(r"[^ ._:/-]+")


def _ascii_shape(ch: str) -> str:
    if ch.isalpha():
        return "A" if ch.isupper() else "a"
    if ch.isdigit():
        return "0"
    return ch if ch in "-_./" else " "


_ASCII_SHAPE = str.maketrans({chr(c): _ascii_shape(chr(c)) for c in range(128)})
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


#: Words that ask the memory for what it holds rather than say what it is asked about:
#: "Tell me about Ada", "What do you know about Mia?", "Anything about Tomasz?". A
#: question of them and names asks for everything the memory holds of the names
#: (``floor.request_words_aside``).
_MEMORY_REQUEST = frozenset(
    {
        "tell",
        "told",
        "know",
        "knew",
        "remember",
        "remembered",
        "recall",
        "recalled",
        "remind",
        "say",
        "said",
        "mention",
        "mentioned",
        "anything",
        "everything",
        "something",
        "about",
        "regarding",
        "concerning",
    }
)
_NOT_NAMES_NOR_REQUEST = _NOT_NAMES | _MEMORY_REQUEST
_MEMORY_REQUEST_WORD = re.compile(
    r"(?<![\w'’-])(?:" + "|".join(sorted(_MEMORY_REQUEST)) + r")(?![\w'’-])", re.IGNORECASE
)


#: An opening that asks the memory itself for what it holds, up to what it asks about:
#: "What do you know about", "Tell me everything about", "Do you remember anything about",
#: "What have you got on". Only the memory is asked so ("you", or "me" as whom to
#: tell): "What did Caroline tell Melanie about the race?" asks about a telling.
_REQUEST_FRAME = re.compile(
    r"\A\W*(?:(?:so|and|hey|ok|okay|please)\W+)*(?:"
    r"(?:what|how\s+much)\s+(?:else\s+)?(?:do|did|can|could|would|will)\s+you\s+"
    r"(?:know|remember|recall|tell\s+me)(?:\s+already|\s+so\s+far)?"
    r"|(?:do|did|can|could|would)\s+you\s+(?:know|remember|recall|tell\s+me)\s+"
    r"(?:anything|something|much|more)"
    r"|(?:tell|remind)\s+me(?:\s+(?:everything|anything|something|more|all))?"
    r"(?:\s+(?:that\s+)?you\s+(?:know|remember))?"
    r"|what\s+have\s+you\s+(?:got|learned|learnt|stored|saved|heard|noted|kept)"
    r"|(?:anything|everything|something)"
    r")\s+(?:about|on|of|regarding|concerning)\s+(?=\S)",
    re.IGNORECASE,
)


def framed_text(text: str) -> str | None:
    """What a text query asks the memory about when it opens by asking the memory itself
    for what it holds ("What do you know about my work?" asks about "my work?"), else
    None."""
    opening = _REQUEST_FRAME.match(text)
    if opening is None:
        return None
    return text[opening.end() :]


def coverage_text(
    text: str,
    lowercase: bool = False,
    copula: bool = True,
    aside: str | None = None,
    frame: bool = False,
    words: bool = True,
) -> str:
    """A text query as the floor's coverage reads it: one of nothing but names and words
    that ask the memory for what it holds ("Tell me about Ada", "What do you know about
    Mia?") without those words, which no belief about the names holds and which weighed
    as much as the name; any other as it is. "What did Caroline tell Melanie about the
    race?" keeps its "tell": an answer may say it. ``aside``: the names
    :func:`names_mentioned` reads in ``text`` with ``request_aside`` ("" for none), when
    they are already read. With ``frame``, one that opens by asking the memory itself
    for what it holds is read without the opening (:func:`framed_text`): "What do you
    know about my work?" as "my work?". Without ``words``, the asking words are kept
    beside names too."""
    if frame and (rest := framed_text(text)) is not None:
        return " ".join(rest.split())
    if not words:
        return text
    if aside is None:
        aside = names_mentioned(text, lowercase, copula, request_aside=True) or ""
    if aside or names_mentioned(text, lowercase, copula) is None:
        return text
    return " ".join(_MEMORY_REQUEST_WORD.sub(" ", text).split())


_SENTENCE_END = frozenset(".!?:;\"'(")
#: Titles written before a name, often with a full stop that does not end the sentence
#: ("Mrs. Abernethy", "Dr. Okafor"): a title is part of the name's run, not a name itself.
_TITLES = frozenset(
    ("mr", "mrs", "ms", "mx", "miss", "dr", "prof", "sir", "dame", "fr", "rev", "st", "sr", "jr")
)


def _is_letter(ch: str) -> bool:
    """Whether ``ch`` is a word character that is not a digit or "_" (``[^\\W\\d_]``)."""
    return ch.isalnum() and not ch.isdecimal()


def _after_title(text: str, at: int) -> bool:
    """Whether the word at ``at`` follows a title or an initial and its full stop
    ("Mrs. |Abernethy", "John F. |Kennedy").

    Read backwards from ``at``: searched for from the text's start, as a pattern anchored
    at ``at`` was, each capitalised word cost a pass over all before it, and a statement of
    initials ("A. B. C. …") took seconds to read."""
    before = text[:at].rstrip()
    if not before.endswith("."):
        return False
    end = len(before) - 1
    start = end
    while start > 0 and _is_letter(before[start - 1]):
        start -= 1
    if start == end or (start > 0 and (before[start - 1].isalnum() or before[start - 1] == "_")):
        return False  # no word before the stop, or one that runs on from digits ("4th.")
    word = before[start:end]
    return word.lower() in _TITLES or (len(word) == 1 and word.isupper())


def _starts_sentence(text: str, at: int) -> bool:
    before = text[:at].rstrip()
    return not before or (before[-1] in _SENTENCE_END and not _after_title(text, at))


def _shape(read: str) -> str:
    """The shape of a key reading (one character each), what the patterns above match."""
    if read.isascii():
        return read.translate(_ASCII_SHAPE)
    out: list[str] = []
    for ch in read:
        if ch.isascii():
            out.append(ch.translate(_ASCII_SHAPE))
        elif not is_key_character(ch):
            out.append(" ")
        elif ch.isupper():
            out.append("A")
        elif ch.islower() or unicodedata.category(ch)[0] == "M":
            out.append("a")
        elif ch.isalpha():
            out.append("c")
        else:
            out.append("0")
    return "".join(out)


def keys_of_text(text: str) -> list[str]:
    """Identifier-like tokens, capitalised words that are not a sentence's first word, runs
    of capitalised words written one space apart, and words of scripts without case.

    A run is one name as well as its words: "Zoe Okonkwo" is stored as the entity
    ``zoe-okonkwo``, which neither ``zoe`` nor ``okonkwo`` matches, and "Fly IO" is
    ``fly-io``. A run may start a sentence ("Priya Raman said …"), unless its first word
    is a stop word ("Does Fly IO …" is the run "Fly IO").

    Read as keys are made, case kept (:func:`~recallflow.models.key_reading.reading`):
    read as written, ``José`` stopped at the accent and gave the key ``jos``, which the
    stored subject ``jose`` never matches, and ``हिन्दी`` stopped at each vowel sign."""
    read = read_text(text, fold=False)
    shape = _shape(read)
    found = [read[m.start() : m.end()] for m in _IDENTIFIER.finditer(shape)]
    run: list[str] = []
    opens = False  # whether the run starts a sentence
    end = -1

    def close() -> None:
        # A run whose first word is a lone letter, or that starts a sentence (its first
        # word may be a verb: "Ask Mrs Abernethy"), is also read without that word.
        if len(run) > 1:
            found.append(" ".join(run))
        if (len(run[0]) == 1 or opens) and len(run) > 2:
            found.append(" ".join(run[1:]))

    for m in _CAPITALISED.finditer(shape):
        word = read[m.start() : m.end()]
        if word.lower() in _NOT_NAMES:
            continue
        starts = _starts_sentence(read, m.start())
        if not starts and len(word) > 1 and word.lower() not in _TITLES:
            found.append(word)
        gap = read[end : m.start()]
        if run and (gap == " " or (gap == ". " and _after_title(read, m.start()))):
            run.append(word)
        else:
            if run:
                close()
            run, opens = [word], starts
        end = m.end()
    if run:
        close()
    found += [read[m.start() : m.end()] for m in _CASELESS_WORD.finditer(shape)]
    return [normalise_subject(k) for k in found]


def without_speaker(turn: str) -> str:
    """A turn summary without the speaker label it opens with, when it has one: who said
    it is not what it is about. The principal's own name heads half the turns and is in
    many of the principal's beliefs, and "Assistant" or "User" in others', so searched
    with the label, a turn found the beliefs that name the speaker, whatever was said."""
    label = _SPEAKER.match(turn)
    if label is None or not turn[label.end() :].strip():
        return turn
    words = label.group(1).split(" ")
    named = all(w[0].isupper() and (len(w) == 1 or w[1:].islower()) for w in words)
    if not named and label.group(1).lower() not in _ROLES:
        return turn  # "deploy failed: timeout", "TypeError: …": what the turn says
    return turn[label.end() :]


def _file_path(path: str) -> PurePosixPath:
    """A file path as a path, whichever separator it was written with."""
    return PurePosixPath(path.replace("\\", "/"))


def _file_keys(path: str) -> list[str]:
    p = _file_path(path)
    return [normalise_subject(p.name), normalise_subject(p.stem)]


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


class DeterministicQueryFormer:
    """The default :class:`~recallflow.ports.QueryFormer`: pure code, no model."""

    version = "deterministic-v4"

    def form(self, state: WorkingState) -> tuple[RecallQuery, ...]:
        texts: list[RecallQuery] = []
        seen_texts: set[str] = set()

        def add_text(source: str, text: str | None) -> None:
            cleaned = _clean(text)
            key = cleaned.lower()
            if cleaned and key not in seen_texts and len(texts) < MAX_QUERIES - 1:
                seen_texts.add(key)
                texts.append(RecallQuery(kind="text", text=cleaned[:1000], source=source))

        # The turns newest first: the last one is often the agent's own reply ("I'll look
        # at it"), and what the turn is about was said the turn before.
        turns = state.recent_turns[-MAX_TURNS:][::-1]
        add_text("query", state.query)
        add_text("goal", state.goal)
        for turn in turns:
            add_text("recent_turn", without_speaker(turn))
        if not texts:
            # A file by the words of its name: "login.detox.ts" is one token to the
            # lexical arm's parser, which no statement holds; "login detox" are two.
            files = (_FILE_WORDS.sub(" ", _file_path(f).stem) for f in state.files)
            names = (*state.entities, *state.tools, *files)
            add_text("names", ", ".join(n for n in names if _clean(n)))

        keys: list[str] = []
        keys += [normalise_subject(e) for e in state.entities]
        for path in state.files:
            keys += _file_keys(path)
        keys += [normalise_subject(t) for t in state.tools]
        for text in (state.query, state.goal, *turns):
            keys += keys_of_text(text or "")
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


def _words(text: str) -> list[str]:
    if text.isascii():
        return _WORD.findall(text.lower())
    read = read_text(text, fold=True)
    return [unicodedata.normalize("NFC", w) for w in _READ_WORD.findall(read)]


def content_terms(
    texts: list[str] | tuple[str, ...], *, limit: int, min_length: int
) -> tuple[str, ...]:
    """Lowercase content words (≥ ``min_length`` letters, not stop words) of ``texts``, read
    as a key's words are (``café`` is ``cafe``, not ``caf``; ``Москва`` is ``москва``)."""
    words = (w for t in texts for w in _words(t))
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


def _on_calendar(year: int) -> bool:
    """Whether a period of ``year`` and its end are times Python can hold: "May 0000" or
    "December 31, 9999" are written in a question, yet name no period (the year after
    9999 has no datetime), and reading them as one failed the whole recall."""
    return 1 <= year < 9999


def _day(year: int, month: int, day: int) -> Period | None:
    if not _on_calendar(year):
        return None
    try:
        start = datetime(year, month, day, tzinfo=UTC)
    except ValueError:  # "February 30": not a date, not a period
        return None
    return start, start + timedelta(days=1)


def _month(year: int, month: int) -> Period | None:
    if not _on_calendar(year):
        return None
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
    if not _on_calendar(year):
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


# --- the names a query mentions, set aside by the floor ----------------------------------

_NAME_TOKEN = re.compile(r"[^\W\d_][^\W_]*(?:['’]s\b)?")
_NAME_GAP = re.compile(r"[ \t-]?")
#: Capitalised, but a time rather than a name: what a question asks of a day is asked.
_CALENDAR = frozenset(
    ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", *_MONTHS)
)


def _is_name(word: str) -> bool:
    bare = word[:-2] if word[-2:] in ("'s", "’s") else word
    lower = bare.lower()
    return (
        len(bare) > 1
        and bare[0].isupper()
        and bare[1].islower()
        and lower not in _TITLES
        and lower not in _CALENDAR
        and lower.removesuffix("s") not in _CALENDAR
        and lower not in _NOT_NAMES
    )


# In a text written without a capital letter a name cannot show itself by its first
# letter; two places still tell one: the subject of a question asked with "does" or "did"
# ("what does alice like?", "when did mohammed join?"), and the owner of a possessive
# ("when is ingrid's birthday?"). A determiner, a pronoun or a word of time in that place
# ("what does the app need?", "today's plan") is none, nor is a word made from a verb or
# an adjective ("how does billing work?", "what does deployment need?").
_LOWER_SUBJECT = re.compile(r"\b(?:does|did)\s+([^\W\d_]{2,})\s+[^\W\d_]")
_LOWER_OWNER = re.compile(r"(?:^|\s)([^\W\d_]{2,})['’]s\b")
_LOWER_BEFORE_OWNER = re.compile(r"([^\W\d_]+)\s+$")
_NOT_LOWER_NAMES = frozenset(
    (
        "any",
        "anyone",
        "each",
        "every",
        "everyone",
        "here",
        "nobody",
        "one",
        "other",
        "some",
        "someone",
        "somebody",
        "today",
        "tomorrow",
        "tonight",
        "yesterday",
        "week",
        "month",
        "year",
        "day",
        "night",
        "mum",
        "mom",
        "dad",
        "mother",
        "father",
        "sister",
        "brother",
        "wife",
        "husband",
        "partner",
        "son",
        "daughter",
        "grandma",
        "grandpa",
        "baby",
        "boss",
        "friend",
        "family",
        "team",
        "company",
    )
)
#: Words before a possessive that make its owner a thing, not a name ("the dog's").
_DETERMINERS = frozenset(
    (
        "a",
        "an",
        "the",
        "my",
        "your",
        "our",
        "their",
        "his",
        "her",
        "its",
        "this",
        "that",
        "these",
        "those",
        "each",
        "every",
        "any",
        "some",
        "no",
        "whose",
        "which",
        "what",
    )
)
_NOT_LOWER_ENDINGS = ("ing", "tion", "sion", "ment", "ness", "ity")
# The subject of "is" or "was" before what it is said to be or do: a participle or an
# adjective, told by its ending ("when was farah hired", "when is marek flying to
# lisbon", "what is zainab allergic to"), or a word whose preposition ends the question
# ("who is kemi married to", "what is bruno afraid of"). A determiner or a pronoun in that
# place ("what is the capital of", "what is my dentist's name", "is it ready") makes it
# no name.
_LOWER_COPULA = re.compile(r"\b(?:is|was)\s+([^\W\d_]{2,})\s+([^\W\d_]{2,})([^!?.;:,]*)")
_PREDICATE_ENDINGS = ("ed", "en", "ing", "ic", "ous", "ful", "ive", "able", "ible")
_PREPOSITIONS = frozenset(
    ("to", "of", "for", "with", "about", "at", "in", "on", "from", "by", "into", "after")
)


def _lower_name(word: str) -> bool:
    return (
        word not in _NOT_NAMES
        and word not in _NOT_LOWER_NAMES
        and word not in _CALENDAR
        and word not in _TITLES
        and not word.endswith(_NOT_LOWER_ENDINGS)
    )


def lowercase_names(text: str, copula: bool = True) -> list[str]:
    """The words a text written without a capital letter has in a name's place: the
    subject of "does" or "did", the subject of "is" or "was" before a participle or an
    adjective ("what is zainab allergic to"; with ``copula``), and the owner of a
    possessive ``'s`` not after a determiner or a pronoun ("the dog's", "my sister's").
    Empty for a text with a capital letter, whose names show by it
    (:func:`names_mentioned`)."""
    if any(ch.isupper() for ch in text):
        return []
    lowered = text.lower()
    found = [m.group(1) for m in _LOWER_SUBJECT.finditer(lowered)]
    for m in _LOWER_COPULA.finditer(lowered) if copula else ():
        subject, predicate, rest = m.group(1), m.group(2), _WORD.findall(m.group(3))
        if subject in _DETERMINERS or predicate in _PREPOSITIONS:
            continue
        if predicate.endswith(_PREDICATE_ENDINGS) or (len(rest) == 1 and rest[0] in _PREPOSITIONS):
            found.append(subject)
    for m in _LOWER_OWNER.finditer(lowered):
        before = _LOWER_BEFORE_OWNER.search(lowered[: m.start(1)])
        if before is None or before.group(1) not in _DETERMINERS:
            found.append(m.group(1))
    return list(dict.fromkeys(w for w in found if _lower_name(w)))


def names_mentioned(
    text: str, lowercase: bool = False, copula: bool = True, request_aside: bool = False
) -> str | None:
    """The names ``text`` mentions, one run of them after another, or None when it
    mentions none, or nothing but names (then the names are what it asks about), or, with
    ``request_aside``, nothing but names and words that ask the memory for what it holds
    ("Tell me about Ada": :data:`_MEMORY_REQUEST`).

    A name is a capitalised word that does not start a sentence and is neither a stop
    word nor a day or month (``Walter``, ``Rolls-Royce``; an acronym such as ``NHS`` is
    not one); capitalised words in a row are one name, and a possessive ``'s`` is not
    part of it. With ``lowercase``, a text written without a capital letter names the
    words in a name's place (:func:`lowercase_names`, the subject of "is" or "was" with
    ``copula``)."""
    filler = _NOT_NAMES_NOR_REQUEST if request_aside else _NOT_NAMES
    guessed = lowercase_names(text, copula) if lowercase else []
    if guessed:
        rest = [w for w in _words(text) if w not in guessed and len(w) > 1 and w not in filler]
        return " ".join(guessed) if rest else None
    runs: list[list[str]] = []
    end = -1
    for m in _NAME_TOKEN.finditer(text):
        word = m.group(0)
        if not _is_name(word) or _starts_sentence(text, m.start()):
            continue
        bare = word[:-2] if word[-2:] in ("'s", "’s") else word
        if runs and end >= 0 and _NAME_GAP.fullmatch(text[end : m.start()]):
            runs[-1].append(bare)
        else:
            runs.append([bare])
        end = m.end() if bare == word else -1
    if not runs:
        return None
    names = {w.lower() for run in runs for w in _words(" ".join(run))}
    if not [w for w in _words(text) if w not in names and len(w) > 1 and w not in filler]:
        return None
    return " ".join(" ".join(run) for run in runs)


# --- whether a query asks about the names it mentions ------------------------------------

#: The verbs a question asks about its subject with ("Is Bruno …", "What does Kemi …").
_AUXILIARIES = frozenset(
    (
        "is",
        "are",
        "was",
        "were",
        "does",
        "did",
        "do",
        "has",
        "have",
        "had",
        "will",
        "would",
        "can",
        "could",
        "should",
        "may",
        "might",
        "must",
    )
)
_ARTICLES = frozenset(("the", "a", "an"))


def asks_about_names(text: str, names: str) -> bool:
    """Whether ``text`` asks about one of ``names`` (:func:`names_mentioned`) rather than
    naming it as whom a task is for: a name is asked about as the owner of a possessive
    ("When does Bartek's passport expire?"), as the subject an auxiliary verb asks about
    ("Is Bruno allergic …?", "What does Kemi take …?", "What licence does the Linux
    kernel use?") or after "of" ("the rate limit of the Twitter API"), in a part of the
    text that asks (ends with a question mark) when it has one. "Tell Helga how I take my
    coffee", "Reply to Kowalski with the date of the release" and "Draft the agenda for
    Ayesha's visit: when is the retro?" name the person a task is for; what the task needs
    from memory is the rest of it."""
    return bool(asked_names(text, names))


def asked_names(text: str, names: str) -> tuple[str, ...]:
    """The words of ``names`` (:func:`names_mentioned`) that ``text`` asks about, where
    :func:`asks_about_names` reads them: "When is Chidi's flight to Lisbon?" mentions
    Chidi and Lisbon and asks about Chidi (the owner of the possessive), whom the memory
    must know for a belief to answer it, whatever it knows of Lisbon."""
    wanted = set(name_words(names))
    if not wanted:
        return ()
    found: list[str] = []
    for part in _ASKED.findall(text) or (text,):
        found.extend(_asked_in(part, wanted))
    return tuple(dict.fromkeys(found))


def name_words(names: str) -> list[str]:
    """The words of ``names`` (:func:`names_mentioned`), as :func:`asked_names` gives them."""
    return [w for w in _words(names) if w]


def holds_names(texts: Iterable[str], words: Iterable[str]) -> bool:
    """Whether one of ``texts`` holds one of the name ``words`` (:func:`asked_names`) as a
    word: "Chidi's flight leaves at 7" holds "chidi"."""
    wanted = set(words)
    return any(not wanted.isdisjoint(_words(text)) for text in texts)


# The parts of a text that ask: each run up to a question mark, from the last ``! ? ; :``
# before it. "Draft the agenda for Ayesha's visit: when is the retro?" asks about the
# retro; the agenda is for Ayesha.
_ASKED = re.compile(r"[^!?;:]*\?")


def _asked_in(text: str, wanted: set[str]) -> list[str]:
    """The ``wanted`` words that stand in ``text`` where they are asked about, each with
    the run of names it ends or starts ("Farah Haddad's", "Is Farah Haddad …")."""
    tokens = [m.group(0) for m in _NAME_TOKEN.finditer(text)]
    bare = [t[:-2] if t[-2:] in ("'s", "’s") else t for t in tokens]
    lowered = [words[0] if (words := _words(b)) else b.lower() for b in bare]
    found: list[str] = []
    for i, word in enumerate(lowered):
        if word not in wanted:
            continue
        start = i
        while start > 0 and lowered[start - 1] in wanted:
            start -= 1  # the run's first word: "the Linux kernel", "Farah Haddad"
        if tokens[i] != bare[i]:
            found.extend(lowered[start : i + 1])  # the owner of a possessive
            continue
        if start != i:
            continue  # read once, from the run's first word
        before = start - 1
        while before >= 0 and (lowered[before] in _ARTICLES or lowered[before] in _TITLES):
            before -= 1  # "Is the Linux kernel", "Who is Dr. Abernathy"
        if (
            before >= 2
            and tokens[before].islower()
            and lowered[before - 1] in _DETERMINERS
            and lowered[before - 2] in _AUXILIARIES
        ):
            before -= 2  # the name beside its role: "Where does my daughter Rachel live?"
        if before >= 0 and (lowered[before] in _AUXILIARIES or lowered[before] == "of"):
            end = i
            while (
                end + 1 < len(lowered) and lowered[end + 1] in wanted and tokens[end] == bare[end]
            ):
                end += 1
            found.extend(lowered[i : end + 1])
    return found


# --- whether a word is written as a name --------------------------------------------------

#: Words a sentence opens with as often as not (an auxiliary "Will …", "May …", a
#: pronoun, an article, a title): capitalised there, they say nothing of a name.
_OPENERS = _NOT_NAMES | _AUXILIARIES | _TITLES | _NOT_LOWER_NAMES


def written_as_name(text: str, start: int, end: int) -> bool:
    """Whether the word ``text[start:end]`` is written as a name, as the former and the
    relevance floor read names: as the owner of a possessive not after a determiner
    ("hopper's lunch", not "the rose's petals") or the subject of "does" or "did" ("what
    does June prefer"), in any case; with a capital (or in a script without case), unless
    it is a day or a month ("in June"), or opens a sentence and is a word sentences open
    with ("Will the build pass?"); or, in lower case, in a name's place
    (:func:`lowercase_names`, read as if the text had no capital: "what is grace allergic
    to"). A lower-case word anywhere else ("the grace period", "we will ship") is read as
    the word it is."""
    word = text[start:end]
    if not word:
        return False
    lowered = text.lower()
    before = _LOWER_BEFORE_OWNER.search(lowered[:start])
    after_determiner = before is not None and before.group(1) in _DETERMINERS
    if text[end : end + 2] in ("'s", "’s") and not after_determiner:
        return True
    if any(m.start(1) == start for m in _LOWER_SUBJECT.finditer(lowered)):
        return True
    folded = word.lower()
    if folded in _CALENDAR:
        return False
    if not word[0].islower():
        return not (_starts_sentence(text, start) and folded in _OPENERS)
    return folded in lowercase_names(lowered)
