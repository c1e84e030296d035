"""How a text is read as a key: what a subject or entity key keeps of each character.

A key keeps the letters and digits of every script, and the separators ``. _ : / -``
(see "Subject and entity keys" in docs/architecture.md). Each character is read:

- compatibility-decomposed (NFKD): the ligature "ﬁ" is "fi", a full-width "Ａ" is "A",
  "①" is "1", a half-width "ｶ" is "カ";
- case-folded (:meth:`str.casefold`): "Σ", "σ" and "ς" are one letter, and "ß" is "ss",
  as "STRASSE" is how "Straße" is written in capitals: a caseless match has to take them
  as one word;
- without the accents of a Latin letter, as before: "é" is "e", "ü" is "u". A letter is
  a letter and an accent only where Unicode decomposes it into them: "ø", "ł", "đ", "æ"
  and the hooked letters of Hausa have no decomposition, and each is a letter of its own
  in the languages that write it (Danish "ø" is not "o", Vietnamese "đ" is not "d"), so
  each keeps its own key;
- without the accents of a Greek letter too ("ά" is "α"): Greek written in capitals leaves
  them out, so "ΑΘΗΝΑ" and "Αθήνα", which differ only in case, have one key;
- with the marks of every other script kept: the vowel signs of Devanagari, Thai or
  Arabic and the breve of the Cyrillic "й" are part of the word ("й" is not "и", "कि" is
  not "क"), so dropping them would fold different words into one key.

Anything else is not part of a key: a run of it is one ``-`` in the key, and a boundary
between words in a text. A key is recomposed (NFC), so it reads as written ("й", "한").

The reading is shared by the key itself (:func:`~recallflow.models.store.normalise_subject`),
the query former's keys and content words, and the redaction of marked names, so a name
is found in a text exactly when its key would match the key of what the text says.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from enum import Enum
from functools import lru_cache
from typing import Final

#: The characters a key keeps between its words.
SEPARATORS: Final = "._:/-"


class Kind(Enum):
    """What a character of the reading is, for the rule on the marks that follow it."""

    ACCENTED = "accented"  # a Latin or Greek letter: its marks are accents, dropped
    LETTER = "letter"  # a letter of any other script: its marks are part of it, kept
    DIGIT = "digit"
    MARK = "mark"
    OTHER = "other"


def _kind_of(ch: str) -> Kind:
    """The kind of one decomposed character."""
    category = unicodedata.category(ch)[0]
    if category == "M":
        return Kind.MARK
    if category == "N":
        return Kind.DIGIT
    if category != "L":
        return Kind.OTHER
    if ch.isascii() or unicodedata.name(ch, "").startswith(("LATIN ", "GREEK ")):
        return Kind.ACCENTED
    return Kind.LETTER


@lru_cache(maxsize=8192)
def _decomposed(ch: str, fold: bool) -> tuple[tuple[str, Kind], ...]:
    """``ch`` compatibility-decomposed (and case-folded when ``fold``), each part with its
    kind. A folded letter need not be decomposed, so the folded text is decomposed once
    more."""
    text = unicodedata.normalize("NFKD", ch)
    if fold:
        text = unicodedata.normalize("NFKD", text.casefold())
    return tuple((part, _kind_of(part)) for part in text)


def reading(text: str, *, fold: bool) -> Iterator[tuple[int, str]]:
    """Each character of ``text`` (by its index) and what the reading makes of it: its
    letters and digits (case-folded when ``fold``, without a Latin or Greek letter's
    accents), a mark of another script's letter, or nothing (a dropped accent).

    With ``fold`` everything else but the separators is one space; without, everything
    else is itself, but for a mark that belongs to no letter the key keeps (a space: it
    is not part of a word)."""
    attached = False  # the last letter read is of a script whose marks are kept
    for index, ch in enumerate(text):
        if ch.isascii():
            attached = False
            if fold:
                lower = ch.lower()
                yield index, lower if lower.isalnum() or ch in SEPARATORS else " "
            else:
                yield index, ch
            continue
        piece: list[str] = []
        for c, kind in _decomposed(ch, fold):
            if kind is Kind.MARK:
                if attached:
                    piece.append(c)
                elif unicodedata.combining(c) == 0:
                    piece.append(" ")  # a spacing mark of no kept letter: not in a key
                # else: a Latin or Greek letter's accent (or a stray one), dropped
                continue
            attached = kind is Kind.LETTER
            if kind is Kind.OTHER and fold and c not in SEPARATORS:
                piece.append(" ")
            else:
                piece.append(c)
        yield index, "".join(piece)


def read_text(text: str, *, fold: bool) -> str:
    """The whole :func:`reading` of ``text``."""
    return "".join(piece for _, piece in reading(text, fold=fold))


def is_key_character(ch: str) -> bool:
    """Whether a character of a reading is part of a key's word (a letter, digit or kept
    mark), not a separator or a space between words."""
    if ch.isascii():
        return ch.isalnum()
    return unicodedata.category(ch)[0] in "LNM"
