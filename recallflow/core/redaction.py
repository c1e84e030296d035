"""Field-level redaction of names that carry their own sensitivity, pure (see "Trust
boundary" in docs/architecture.md).

An entity key can be marked with a sensitivity for a principal (a relative's name:
personal). On a surface whose ceiling does not admit that level, every mention of the
entity in a rendered text — a recalled statement, a correction, an episode excerpt, the
user-safe trace view — is replaced by :data:`REDACTED_NAME`. A mention is the key's words
in order, in any case, separated by at most a few non-word characters: the key
``alice-smith`` matches "Alice Smith", "alice_smith" and "ALICE-SMITH", never "Malice
Smithers". A text is matched as a key reads it (:mod:`recallflow.models.key_reading`:
case-folded, the accents of Latin and Greek letters dropped, the letters of every script
kept), and the mention replaced where it stands in the text as written: the key
``muller`` withholds "Müller" and "MÜLLER", whole, and ``москва`` "МОСКВА".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from recallflow.models.key_reading import SEPARATORS, reading
from recallflow.models.store import Sensitivity

#: What a withheld name shows in a rendered text. Round brackets: square ones are only
#: ever a citable id in a block (see "Rendering" in docs/architecture.md).
REDACTED_NAME: Final = "(redacted)"

_KEY_PARTS: Final = re.compile(r"[^._:/-]+")
#: What separates the words of a mention in a text's reading: a space (anything that is
#: not part of a key's word) or a key's own separator.
_BETWEEN: Final = "[ " + re.escape(SEPARATORS) + "]"
#: A character of a text's reading that is part of a word.
_IN_WORD: Final = "[^ " + re.escape(SEPARATORS) + "]"
#: An ASCII text's reading (each character one), as :func:`reading` makes it.
_ASCII_READING: Final = str.maketrans(
    {
        chr(c): chr(c).lower() if chr(c).isalnum() or chr(c) in SEPARATORS else " "
        for c in range(128)
    }
)


def _key_pattern(key: str) -> str | None:
    # Decomposed, as the reading of a text is: "й" is read "и" and its breve.
    parts = _KEY_PARTS.findall(unicodedata.normalize("NFD", key))
    if not parts:
        return None
    return (_BETWEEN + "{0,3}").join(re.escape(p) for p in parts)


@dataclass(frozen=True)
class NameRedaction:
    """The marked entities of one principal, and how to withhold them from a text.

    ``marked`` maps an entity key to its sensitivity; :meth:`apply` withholds the keys
    above a ceiling.
    """

    marked: Mapping[str, Sensitivity] = field(default_factory=dict)

    def pattern(self, ceiling: Sensitivity) -> re.Pattern[str] | None:
        """One pattern matching a mention of any key above ``ceiling`` (longest first, so
        "alice-smith" wins over "alice"), or None when none is above it."""
        keys = sorted((k for k, level in self.marked.items() if level > ceiling), key=len)
        alternatives = [p for k in reversed(keys) if (p := _key_pattern(k)) is not None]
        if not alternatives:
            return None
        return re.compile(rf"(?<!{_IN_WORD})(?:{'|'.join(alternatives)})(?!{_IN_WORD})")

    def apply(self, text: str, ceiling: Sensitivity) -> tuple[str, int]:
        """``text`` with each mention of a key above ``ceiling`` replaced by
        :data:`REDACTED_NAME`, and how many were replaced."""
        pattern = self.pattern(ceiling)
        if pattern is None:
            return text, 0
        return withheld(pattern, text)


def withheld(pattern: re.Pattern[str], text: str) -> tuple[str, int]:
    """``text`` with every match of ``pattern`` (a key's mention, see :meth:`NameRedaction.
    pattern`) replaced by :data:`REDACTED_NAME`, matched on the text's key reading, and
    how many were replaced. Each match replaces the characters of the text it was read
    from, the accents that followed its last letter included."""
    if text.isascii():  # read one character for one
        spans = [m.span() for m in pattern.finditer(text.translate(_ASCII_READING))]
        return _replaced(text, spans)
    folded: list[str] = []
    origin: list[int] = []  # the text's index of each character of the reading
    for index, piece in reading(text, fold=True):
        folded.append(piece)  # "ü" is "u", "ß" "ss", a Latin letter's accent nothing
        origin.extend([index] * len(piece))
    spans = []
    for match in pattern.finditer("".join(folded)):
        if match.end() == match.start():
            continue
        start = origin[match.start()]
        end = origin[match.end() - 1] + 1
        while end < len(text) and folded[end] == "":
            end += 1  # a combining accent of the mention's last letter
        spans.append((start, end))
    return _replaced(text, spans)


def _replaced(text: str, spans: list[tuple[int, int]]) -> tuple[str, int]:
    if not spans:
        return text, 0
    out: list[str] = []
    done = 0
    for start, end in spans:
        out += [text[done:start], REDACTED_NAME]
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


@dataclass(frozen=True)
class Redactor:
    """A :class:`NameRedaction` bound to one ceiling, compiled once per recall."""

    ceiling: Sensitivity
    compiled: re.Pattern[str] | None

    @classmethod
    def of(cls, names: NameRedaction, ceiling: Sensitivity) -> Redactor:
        return cls(ceiling, names.pattern(ceiling))

    def __call__(self, text: str) -> tuple[str, int]:
        """``text`` with the withheld names replaced, and how many were."""
        if self.compiled is None:
            return text, 0
        return withheld(self.compiled, text)
