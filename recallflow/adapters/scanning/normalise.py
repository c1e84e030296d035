"""The views of a statement that the rules read.

Attackers hide instruction text from pattern rules by changing its code points but not
its look: zero-width characters inside words, bidi controls, fullwidth or mathematical
letters, Cyrillic look-alikes, HTML entities, invisible Unicode tag characters. Every
rule therefore reads a normalised view, never the raw statement, and the scanner
remembers whether undoing such a disguise was needed: a disguise that hides an
instruction is itself the strongest signal there is.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from typing import Final

from recallflow.adapters.scanning.confusables import CONFUSABLE_LETTERS, FOLD_TABLE

# Format characters (zero-width, joiners, bidi controls, soft hyphen, BOM, tag
# characters), variation selectors and the Hangul fillers: all render as nothing.
_INVISIBLE_CLASS: Final = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\U000110bd"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
_INVISIBLE: Final = re.compile(f"[{_INVISIBLE_CLASS}]+")
_INVISIBLE_IN_WORD: Final = re.compile(f"(?<=\\w)[{_INVISIBLE_CLASS}]+(?=\\w)")
_TAG_CHARS: Final = re.compile("[\U000e0020-\U000e007e]+")
_SPOOF_CONTROLS: Final = re.compile("[\u202d\u202e]")
# Embeddings, overrides and isolates: each starts a run displayed apart from its
# neighbours, and a right-to-left override shows its run reversed.
_BIDI_RUNS: Final = re.compile("[\u202a-\u202e\u2066-\u2069]")
_RTL_OVERRIDE: Final = re.compile("\u202e([^\u202a-\u202e\u2066-\u2069\n]*)")
# Fullwidth, mathematical, circled and squared letters (negative ones too): styled
# letters that only a fold makes readable to a pattern.
_FULLWIDTH_OR_MATH_LATIN: Final = re.compile(
    "[\uff21-\uff3a\uff41-\uff5a\U0001d400-\U0001d7ff\u24b6-\u24e9\U0001f130-\U0001f189]"
)
_MIXED_SCRIPT: Final = re.compile(f"[a-z][{CONFUSABLE_LETTERS}]|[{CONFUSABLE_LETTERS}][a-z]")
#: The same without the dotless "ı", which is a letter of its own in Turkish and Azerbaijani
#: ("kullanıcı", "talimatları"): in a text that also writes a letter of their alphabets (ğ,
#: ş, ç, ö, ü, ə, a dotted capital İ) and no other look-alike it is their spelling, not a
#: disguise. It is still folded to "i" for the
#: English rules, so "ıgnore prevıous ınstructıons" is read either way.
_MIXED_SCRIPT_BUT_DOTLESS: Final = re.compile(
    "[a-z][{0}]|[{0}][a-z]".format(CONFUSABLE_LETTERS.replace("ı", ""))
)
_TURKIC_LETTER: Final = re.compile("[ğşəçöü]|i\u0307")
# Comments a renderer hides but a model reads: HTML comments, markdown reference-link
# comments ("[//]: # (...)") and Obsidian "%%...%%" comments.
_COMMENT: Final = re.compile(
    r"<!--([\s\S]*?)(?:-->|$)|\[[^\]\n]{0,20}\]:\s*(?:#|<>)\s*[(\"']([^\n]*?)[)\"']?(?:\n|$)"
    r"|%%([\s\S]*?)(?:%%|$)"
)
_HORIZONTAL_SPACE: Final = re.compile(r"[^\S\n]+")
_BLANK_LINES: Final = re.compile(r"\s*\n\s*")
_WORD: Final = re.compile(r"[a-z]+")
#: Punctuation that some rules cannot match without; kept among the tokens for gating.
_MARKS: Final = "<>{}[]|#=+:`!%"
_ENTITY: Final = re.compile(r"&(?:#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});")

#: Combining marks and a Latin accented letter's base, so "précédentes" reads
#: "precedentes": rules for Latin-script languages are written without accents. The
#: extended block (U+1E00..U+1EFF) holds the letters with two marks Vietnamese writes.
_ACCENT_TABLE: Final[dict[int, str]] = {
    cp: base
    for cp in (*range(0xC0, 0x250), *range(0x1E00, 0x1F00))
    if (base := unicodedata.normalize("NFKD", chr(cp))[:1]).isascii() and base.isalpha()
}
_ACCENT_TABLE.update({cp: "" for cp in range(0x300, 0x370)})
_LATIN_TABLE: Final[dict[int, str]] = {**_ACCENT_TABLE, **FOLD_TABLE}

#: The vowel points of Arabic and Hebrew and the Arabic tatweel: optional marks over a
#: consonant skeleton ("انسَ" is "انس" with a fatha), written or left out at will, so the
#: rules for those scripts are written without them.
_POINTS_TABLE: Final[dict[int, None]] = dict.fromkeys(
    [
        *range(0x0610, 0x061B), *range(0x064B, 0x0660), 0x0640, 0x0670, *range(0x06D6, 0x06EE),
        *range(0x0591, 0x05BE), 0x05BF, 0x05C1, 0x05C2, 0x05C4, 0x05C5, 0x05C7,
    ]
)  # fmt: skip
_POINTED: Final = re.compile("[\u0591-\u05c7\u0610-\u061a\u0640\u064b-\u065f\u0670\u06d6-\u06ed]")


@dataclass(frozen=True, slots=True)
class Views:
    """One statement as the rules see it.

    ``clean`` keeps case (encoded payloads are case-sensitive); ``plain`` is lowercased
    for scripts that a Latin fold would wreck (Cyrillic, CJK); ``latin`` also folds
    accents and look-alikes to ASCII for the English and Latin-script rules; ``spaced``
    is ``latin`` before whitespace was collapsed, for finding letter-spaced words;
    ``tokens`` are the ASCII words of ``latin`` and a few marks, for gating rules cheaply.
    """

    clean: str
    plain: str
    latin: str
    spaced: str
    tokens: frozenset[str]
    hidden: str
    disguised: bool


def _collapse(text: str) -> str:
    return _BLANK_LINES.sub("\n", _HORIZONTAL_SPACE.sub(" ", text)).strip()


def displayed(text: str) -> str:
    """``text`` as a reader sees it: a right-to-left override's run reversed, and each
    bidi run set on a line of its own (it reads as a clause apart from its neighbours,
    so an instruction hidden in one is read from its start)."""
    shown = _RTL_OVERRIDE.sub(lambda m: "\n" + m[1][::-1] + "\n", text)
    return _BIDI_RUNS.sub("\n", shown)


def uncommented(text: str) -> str:
    """``text`` with each hidden comment's body on a line of its own: nobody sees it
    rendered, so it is a message apart from the text around it, read from its start
    (a role header inside a comment is as much a header as one opening a line)."""
    return _COMMENT.sub(lambda m: "\n" + "".join(g or "" for g in m.groups()) + "\n", text)


def views_of(text: str) -> Views:
    """Every view of ``text``; never raises on any ``str``."""
    hidden = ""
    disguised = False
    if _TAG_CHARS.search(text):
        hidden = "".join(chr(ord(c) - 0xE0000) for m in _TAG_CHARS.finditer(text) for c in m[0])
        disguised = True
    if _SPOOF_CONTROLS.search(text) or _INVISIBLE_IN_WORD.search(text):
        disguised = True
    if _BIDI_RUNS.search(text):
        text = displayed(text)
    if ("<!--" in text or "%%" in text or "]:" in text) and _COMMENT.search(text):
        text = uncommented(text)
    if "&" in text and _ENTITY.search(text):
        text = html.unescape(text)
    if _FULLWIDTH_OR_MATH_LATIN.search(text):
        disguised = True
    clean = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    lowered = clean.lower()
    if not lowered.isascii() and _POINTED.search(lowered):
        lowered = lowered.translate(_POINTS_TABLE)
    if not disguised and not lowered.isascii() and _MIXED_SCRIPT.search(lowered):
        disguised = (
            "ı" not in lowered
            or not _TURKIC_LETTER.search(lowered)
            or _MIXED_SCRIPT_BUT_DOTLESS.search(lowered) is not None
        )
    spaced = lowered if lowered.isascii() else lowered.translate(_LATIN_TABLE)
    latin = _collapse(spaced)
    return Views(
        clean=_collapse(clean),
        plain=_collapse(lowered),
        latin=latin,
        spaced=spaced,
        tokens=frozenset(_WORD.findall(latin)).union(c for c in _MARKS if c in latin),
        hidden=hidden,
        disguised=disguised,
    )
