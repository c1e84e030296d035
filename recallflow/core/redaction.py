"""Field-level redaction of names that carry their own sensitivity, pure (see "Trust
boundary" in docs/architecture.md).

An entity key can be marked with a sensitivity for a principal (a relative's name:
personal). On a surface whose ceiling does not admit that level, every mention of the
entity in a rendered text — a recalled statement, a correction, an episode excerpt, the
user-safe trace view — is replaced by :data:`REDACTED_NAME`. A mention of the whole name
is the key's words in order or turned at any word ("Berg, Jonas" for ``jonas-berg``), in
any case, separated by any whitespace (a line break) and at most three other characters
that are not part of a word, with up to two middle initials ("Jonas K. Berg"), never
inside a longer word: the key ``alice-smith`` matches "Alice Smith", "alice_smith" and
"ALICE-SMITH", never "Malice Smithers". A text (or the episode an excerpt was cut from)
that names a key in full also has the key's shorter names withheld: its leading or
trailing words alone ("Jonas said", "Berg's"); a text that never names the whole key
keeps them, as they may be someone else's. A text is matched as a key reads it
(:mod:`recallflow.models.key_reading`: case-folded, the accents of Latin and Greek
letters dropped, the letters of every script kept), and the mention replaced where it
stands in the text as written: the key ``muller`` withholds "Müller" and "MÜLLER", whole,
and ``москва`` "МОСКВА".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from recallflow.core.query_forming import written_as_name
from recallflow.core.render import rewritten_items
from recallflow.models.key_reading import SEPARATORS, reading
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.store import Sensitivity

if TYPE_CHECKING:
    from recallflow.ports import EntitySensitivity

#: What a withheld name shows in a rendered text. Round brackets: square ones are only
#: ever a citable id in a block (see "Rendering" in docs/architecture.md).
REDACTED_NAME: Final = "(redacted)"

_KEY_PARTS: Final = re.compile(r"[^._:/-]+")
#: What the redaction's reading of a text makes of a character that is not part of a
#: word and not a key's separator: a space when it is whitespace, else this mark (it
#: never occurs in a key reading), so a mention may span any whitespace but only a few
#: punctuation marks.
_PUNCT: Final = "~"
#: A character of the reading that is part of a word.
_IN_WORD: Final = "[^ " + re.escape(_PUNCT + SEPARATORS) + "]"
#: Between two words of a mention: any whitespace (a line break, an indent) and at most
#: three punctuation marks or separators ("Berg, Jonas", "maya_lindqvist").
_GAP: Final = " *(?:[" + re.escape(_PUNCT + SEPARATORS) + "] *){0,3}"
#: A middle initial between two words of a mention ("Jonas K. Berg"): one character of a
#: word, standing alone.
_INITIAL: Final = f"(?<!{_IN_WORD}){_IN_WORD}(?!{_IN_WORD})"
#: An ASCII text's reading (each character one), as :func:`_read` makes it.
_ASCII_READING: Final = str.maketrans(
    {
        chr(c): (
            chr(c).lower()
            if chr(c).isalnum() or chr(c) in SEPARATORS
            else " "
            if chr(c).isspace()
            else _PUNCT
        )
        for c in range(128)
    }
)


def _parts(key: str) -> list[str]:
    """The key's words, without its initials when two words are left ("Jonas K. Berg" is
    named by "Jonas Berg" too; an initial in a text is allowed between any two words)."""
    # Decomposed, as the reading of a text is: "й" is read "и" and its breve.
    parts = _KEY_PARTS.findall(unicodedata.normalize("NFD", key))
    words = [p for p in parts if sum(not unicodedata.combining(c) for c in p) > 1]
    return words if len(words) >= 2 else parts


def _words(parts: list[str]) -> str:
    """A run of a key's words as they may stand in a text: in order, with the gaps of
    :data:`_GAP` and up to two middle initials between them."""
    between = f"{_GAP}(?:{_INITIAL}{_GAP}){{0,2}}"
    words = between.join(re.escape(p) for p in parts)
    # The word's start is checked after its first letter, so that every alternative of a
    # pattern begins with a letter and the engine skips to the positions that hold one.
    return f"{re.escape(parts[0][0])}(?<!{_IN_WORD}.){words[len(re.escape(parts[0][0])) :]}"


def _full_forms(key: str) -> list[str]:
    """Every way a text names the whole key: its words in order ("Jonas Berg") or
    turned at any word ("Berg, Jonas"; "de la Cruz, Maria" for ``maria-de-la-cruz``)."""
    parts = _parts(key)
    return [_words(parts[k:] + parts[:k]) for k in range(len(parts))]


def _part_forms(key: str) -> list[str]:
    """The shorter names a text may use once it has named the whole key: the key's
    leading or trailing words ("Jonas", "Berg"; "de la Cruz"), a lone initial left out."""
    parts = _parts(key)
    runs = [parts[:k] for k in range(1, len(parts))] + [parts[k:] for k in range(1, len(parts))]
    return [_words(r) for r in runs if len("".join(r)) > 1]


def _bounded(alternatives: list[str]) -> re.Pattern[str]:
    return re.compile(f"(?:{'|'.join(alternatives)})(?!{_IN_WORD})")


#: How many combinations of named keys one set of keys keeps compiled (see
#: :meth:`MarkedNames.with_parts`); a memory bound, not a behaviour: an evicted pattern is
#: compiled again, the same, when a text names those keys again.
COMBINATIONS_KEPT = 256


@dataclass(frozen=True)
class MarkedNames:
    """The patterns of the names one surface withholds, compiled once per set of keys.

    ``full`` matches a whole name of any of ``keys`` (longest key first); a text that
    names a key in full also has the key's shorter names withheld (see "Trust boundary"
    in docs/architecture.md), with the pattern :meth:`with_parts` compiles for the keys a
    text named, cached by them.
    """

    keys: tuple[str, ...]
    full: re.Pattern[str]
    _cache: dict[int, re.Pattern[str]] = field(default_factory=dict, compare=False, repr=False)
    _combined: dict[frozenset[int], re.Pattern[str]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def named(self, read: str) -> frozenset[int]:
        """The keys a text's reading names in full (by index): for each whole name found,
        the longest key that names it there."""
        return frozenset(
            next(i for i in range(len(self.keys)) if self._key(i).match(read, m.start()))
            for m in self.full.finditer(read)
        )

    def _key(self, index: int) -> re.Pattern[str]:
        cached = self._cache.get(index)
        if cached is None:
            cached = self._cache[index] = _bounded(_full_forms(self.keys[index]))
        return cached

    def with_parts(self, named: frozenset[int]) -> re.Pattern[str]:
        """Every key's full names, then the shorter names of the ``named`` keys (a full
        name is tried first where both begin, so "Jonas Berg" is one mention)."""
        cached = self._combined.get(named)
        if cached is None:
            parts = [p for i in sorted(named) for p in _part_forms(self.keys[i])]
            # Longest first, so "de la Cruz" is one mention, not "Cruz" after two words.
            parts = sorted(dict.fromkeys(parts), key=len, reverse=True)
            cached = _bounded(_all_forms(self.keys) + parts)
            # A principal with many marked names has more combinations than texts a
            # long-running server reads: the oldest pattern goes, so memory stays bounded.
            while len(self._combined) >= COMBINATIONS_KEPT:
                try:
                    del self._combined[next(iter(self._combined))]
                except (KeyError, RuntimeError, StopIteration):  # another thread's eviction
                    break
            self._combined[named] = cached
        return cached


@lru_cache(maxsize=256)
def _marked_names(keys: tuple[str, ...]) -> MarkedNames:
    """The patterns of ``keys``, shared by the recalls of a principal whose marks did not
    change (their patterns depend on nothing else)."""
    return MarkedNames(keys, _bounded(_all_forms(keys)))


def _all_forms(keys: tuple[str, ...]) -> list[str]:
    return [form for key in keys for form in _full_forms(key)]


@dataclass(frozen=True)
class NameRedaction:
    """The marked entities of one principal, and how to withhold them from a text.

    ``marked`` maps an entity key to its sensitivity; :meth:`apply` withholds the keys
    above a ceiling.
    """

    marked: Mapping[str, Sensitivity] = field(default_factory=dict)

    def pattern(self, ceiling: Sensitivity) -> MarkedNames | None:
        """The patterns of the keys above ``ceiling`` (longest first, so "alice-smith"
        wins over "alice"), or None when none is above it."""
        above = sorted((k for k, level in self.marked.items() if level > ceiling), key=len)
        keys = tuple(k for k in reversed(above) if _parts(k))
        return _marked_names(keys) if keys else None

    def apply(self, text: str, ceiling: Sensitivity) -> tuple[str, int]:
        """``text`` with each mention of a key above ``ceiling`` replaced by
        :data:`REDACTED_NAME`, and how many were replaced."""
        names = self.pattern(ceiling)
        if names is None:
            return text, 0
        return withheld(names, text)


def _read(text: str) -> tuple[str, list[str]]:
    """``text``'s reading for redaction, and each character's piece of it (none for an
    ASCII text, read one character for one)."""
    if text.isascii():
        return text.translate(_ASCII_READING), []
    folded = []
    for index, piece in reading(text, fold=True):
        # "ü" is "u", "ß" "ss", a Latin letter's accent nothing; punctuation is _PUNCT.
        punct = " " in piece and not text[index].isspace()
        folded.append(piece.replace(" ", _PUNCT) if punct else piece)
    return "".join(folded), folded


def withheld(
    names: MarkedNames, text: str, whole: str | None = None, *, asked: bool = False
) -> tuple[str, int]:
    """``text`` with every mention of a withheld name replaced by :data:`REDACTED_NAME`,
    matched on the text's key reading, and how many were replaced: each full name, and,
    when the text (or ``whole``, the text it is an excerpt of) names a key in full, each
    of that key's shorter names too. Each match replaces the characters of the text it
    was read from, the accents that followed its last letter included."""
    read, folded = _read(text)
    named = names.named(read)
    if whole is not None and whole != text:
        named |= names.named(_read(whole)[0])
    if not named:
        return text, 0
    matches = names.with_parts(named).finditer(read)
    return _replaced(text, [span for span, _ in _spans(text, folded, matches)], asked)


def _spans(
    text: str, folded: list[str], matches: Iterable[re.Match[str]]
) -> Iterator[tuple[tuple[int, int], str]]:
    """Each match of ``text``'s reading (``folded``, :func:`_read`) as the span of the
    text it was read from, the accents that followed its last letter included, with what
    it matched."""
    if not folded:
        yield from ((m.span(), m.group()) for m in matches)
        return
    origin = [index for index, piece in enumerate(folded) for _ in piece]
    for match in matches:
        if match.end() == match.start():
            continue
        start = origin[match.start()]
        end = origin[match.end() - 1] + 1
        while end < len(text) and folded[end] == "":
            end += 1  # a combining accent of the mention's last letter
        yield (start, end), match.group()


@lru_cache(maxsize=256)
def _lone_words(keys: tuple[str, ...]) -> tuple[re.Pattern[str] | None, Mapping[str, int]]:
    """The words of the withheld names of two or more words, each a lone part of a name
    a request may use ("Hopper" of "Grace Hopper"), as a pattern matched on a text's
    reading, and the place of each in its name (the first, for a word two names share)."""
    places: dict[str, int] = {}
    for key in keys:
        words = _parts(key)
        if len(words) < 2:
            continue  # a name of one word is matched whole
        for place, word in enumerate(words):
            if sum(not unicodedata.combining(c) for c in word) > 1:
                places.setdefault(word, place)
    if not places:
        return None, places
    by_length = sorted(places, key=len, reverse=True)
    return _bounded([_words([w]) for w in by_length]), places


@lru_cache(maxsize=256)
def _anywhere(keys: tuple[str, ...]) -> re.Pattern[str]:
    """The words of :func:`_lone_words` anywhere in an ASCII text read in lower case: a
    text without one has no lone part, and most texts are passed over by one search."""
    words = sorted(_lone_words(keys)[1], key=len, reverse=True)
    return re.compile("|".join(re.escape(w) for w in words))


def _without_lone_parts(names: MarkedNames, text: str, as_name: bool) -> str:
    """``text`` with each word of a withheld name that stands alone in it, written as a
    name (every one when ``as_name``: the text is an entity, a file or a tool), replaced
    by the word of the name's stand-in (:func:`asked_name`) in its place: "What does
    Hopper prefer?" asks about "Xzjvqx" when "Grace Hopper" is withheld, as "What does
    Grace Hopper prefer?" asks about "Qxzjv Xzjvqx". Read as the former and the floor
    read names (:func:`~recallflow.core.query_forming.written_as_name`), so the word
    "grace" of "the grace period" stays what it is."""
    pattern, places = _lone_words(names.keys)
    if pattern is None:
        return text
    if text.isascii() and not _anywhere(names.keys).search(text.lower()):
        return text  # no word of a name anywhere, in any case: nothing to read
    read, folded = _read(text)
    out: list[str] = []
    done = 0
    for (start, end), word in _spans(text, folded, pattern.finditer(read)):
        if as_name or written_as_name(text, start, end):
            out += [text[done:start], _asked_word(text[start:end], places[word])]
            done = end
    return "".join(out) + text[done:] if out else text


def asked_text(names: MarkedNames, text: str, *, as_name: bool = False) -> str:
    """``text`` of a request as a surface that withholds ``names`` may know it: each
    mention of a withheld name (:func:`withheld`) and each of its words standing alone
    where a name stands (:func:`_without_lone_parts`) as the stand-in nobody has."""
    return _without_lone_parts(names, withheld(names, text, asked=True)[0], as_name)


#: The letters a withheld name's words are spelled with in a request (see
#: :func:`asked_as_shown`), in this cycle: no word of any language we read holds three of
#: them in this order, so the stand-in shares no word, no character trigram and no key
#: with anything a store holds.
ASKED_NAME_LETTERS: Final = "qxzjv"
_MENTION_WORDS: Final = re.compile(r"\w+")


def _asked_word(word: str, position: int) -> str:
    """The stand-in of a withheld name's ``position``-th word: as long as ``word`` and
    written in its case (capitalised, unless it is all in lower or in upper case), so
    the name keeps its shape (a name of as many words, each as long and as cased: a query
    that counts its words, weighs their characters or reads a capital as a name's counts,
    weighs and reads as many), and told apart from the name's other words by where its
    cycle starts."""
    cycle = ASKED_NAME_LETTERS
    letters = "".join(cycle[(position + k) % len(cycle)] for k in range(max(2, len(word))))
    if word.islower():
        return letters
    return letters.upper() if word.isupper() and len(word) > 1 else letters.capitalize()


def asked_name(mention: str) -> str:
    """What a mention of a withheld name stands as in a request: a name nobody has, of
    the mention's shape (:func:`_asked_word` for each of its words)."""
    words = _MENTION_WORDS.findall(mention) or [mention]
    return " ".join(_asked_word(w, i) for i, w in enumerate(words))


def _stand_in(mention: str, asked: bool) -> str:
    """What replaces ``mention``: :data:`REDACTED_NAME` in a text shown, and
    :func:`asked_name` in a request."""
    return asked_name(mention) if asked else REDACTED_NAME


def _replaced(text: str, spans: list[tuple[int, int]], asked: bool = False) -> tuple[str, int]:
    if not spans:
        return text, 0
    out: list[str] = []
    done = 0
    for start, end in spans:
        out += [text[done:start], _stand_in(text[start:end], asked)]
        done = end
    out.append(text[done:])
    return "".join(out), len(spans)


@dataclass(frozen=True)
class ProjectNames:
    """The projects whose *name* carries a sensitivity (the retrieval policy's
    ``project_sensitivity``), for a graph that has no retrieval policy of its own."""

    levels: Mapping[str, Sensitivity] = field(default_factory=dict)

    def admitted(self, project: str, level: Sensitivity, ceiling: Sensitivity) -> bool:
        """Whether a surface with ``ceiling`` may show ``project``'s name on a record
        of sensitivity ``level``: the name carries the higher of the two."""
        return max(level, self.levels.get(project, Sensitivity.PUBLIC)) <= ceiling


#: Nothing marked: every name is shown.
NO_MARKED_NAMES: Final = NameRedaction()


def names_marked(
    entity_sensitivity: EntitySensitivity | None,
    tenant_id: str,
    principal_id: str,
    ceiling: Sensitivity,
) -> NameRedaction:
    """The principal's entities marked above ``ceiling``, read from
    ``entity_sensitivity`` (none without one): the names a surface of that ceiling
    withholds, for every stage that reads or renders them."""
    if entity_sensitivity is None:
        return NO_MARKED_NAMES
    return NameRedaction(entity_sensitivity.marked_entities(tenant_id, principal_id, ceiling))


@dataclass(frozen=True)
class Redactor:
    """A :class:`NameRedaction` bound to one ceiling, compiled once per recall."""

    ceiling: Sensitivity
    compiled: MarkedNames | None

    @classmethod
    def of(cls, names: NameRedaction, ceiling: Sensitivity) -> Redactor:
        return cls(ceiling, names.pattern(ceiling))

    def __call__(self, text: str, whole: str | None = None) -> tuple[str, int]:
        """``text`` with the withheld names replaced, and how many were; ``whole`` is the
        text an excerpt was cut from, which says whether a name's shorter forms are his."""
        if self.compiled is None:
            return text, 0
        return withheld(self.compiled, text, whole)


def asked_as_shown(state: WorkingState, redact: Redactor) -> WorkingState:
    """``state`` as the surface it is asked on may know it: every mention of a name the
    surface withholds, in the goal, the query, an entity, a file, a tool or a turn, is
    withheld as a rendered text withholds it (see "Trust boundary" in
    docs/architecture.md), and stands as a name of its shape that nobody has (spelled
    with :data:`ASKED_NAME_LETTERS`): still a name, of as many words as long (the
    relevance floor reads a question about a name nobody holds as such, and a search that
    counts or weighs a query's words counts and weighs the same), matching nothing.

    What the surface may not see does not steer what it gets: a right guess of a
    withheld name asks what a name nobody has asks, so the block, its counts and the
    trace's user view cannot confirm it. ``state`` itself when nothing is withheld (a
    surface whose ceiling admits every mark reads it unchanged)."""
    if redact.compiled is None:
        return state

    names = redact.compiled

    def shown(text: str) -> str:
        return asked_text(names, text)

    def each(texts: tuple[str, ...], as_name: bool = False) -> tuple[str, ...]:
        return tuple(asked_text(names, t, as_name=as_name) for t in texts)

    asked = state.replaced(
        goal=None if state.goal is None else shown(state.goal),
        query=None if state.query is None else shown(state.query),
        entities=each(state.entities, as_name=True),
        files=each(state.files, as_name=True),
        tools=each(state.tools, as_name=True),
        recent_turns=each(state.recent_turns),
    )
    return state if asked == state else asked


def as_asked(
    request: RecallRequest,
    names: NameRedaction,
    ceiling: Sensitivity,
    project_levels: Mapping[str, Sensitivity],
) -> RecallRequest:
    """``request`` as a surface with ``ceiling`` may know it, which every stage that
    chooses what to show reads: its working state :func:`asked_as_shown`, and no project
    when the surface withholds the project's name (``project_levels``, the policy's
    ``project_sensitivity``), as an item's origin shows none. A right guess of either
    asks what a name nobody has asks. ``request`` itself when nothing is withheld."""
    state = asked_as_shown(request.working_state, Redactor.of(names, ceiling))
    project = request.project
    hidden = project is not None and project_levels.get(project, Sensitivity.PUBLIC) > ceiling
    if state is request.working_state and not hidden:
        return request
    return request.replaced(working_state=state, project=None if hidden else project)


def redacted_prefix(prefix: str, names: NameRedaction, ceiling: Sensitivity) -> tuple[str, bool]:
    """A session prefix with each mention of a name marked above ``ceiling`` withheld from
    its item lines' texts, as a prefix rendered now would withhold it (a name marked after
    the session opened); each line keeps its head — id, band, origin — and the framing is
    left as it is. Returns the prefix and whether any line changed."""

    def withheld(_: str, text: str) -> str | None:
        withheld_text, count = names.apply(text, ceiling)
        return withheld_text if count else None

    return rewritten_items(prefix, withheld)
