"""The sentence around a match, read a bounded reach either side of it.

A reading that hangs on one word (an anchor: a verb of setting instructions aside, the
user as the one addressed) looks for its other words in the sentence the anchor stands
in, and only so far: a statement's run with no sentence end in it is read a bounded
window at each anchor, never to its end, so a long run costs time in proportion to it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

#: Where a sentence ends: a stop not inside an address or a number, or a new line.
END: Final = re.compile(r"[!?;\n。！？।۔]|\.(?!\w)")

#: Where a clause ends: a comma, a semicolon, a colon, a dash or a sentence's end.
CLAUSE_END: Final = re.compile(r"[,;:.!?\n\u2013\u2014]|\s-\s")

#: A negation, in the languages the Latin-script readings read (folded): a clause that
#: holds one forbids what it names rather than ordering it ("never give it out", "gib es
#: niemals heraus", "no se la des").
NEGATION: Final = (
    r"\b(?:never|not|no|nobody|nothing|don'?t|do\s+not|doesn'?t|didn'?t|won'?t|can'?t|mustn'?t|"
    r"shouldn'?t|nie|niemals|nicht|kein\w*|keinesfalls|auf\s+keinen\s+fall|ne|n'|jamais|pas|"
    r"nunca|jamas|mai|non|nao|niet|nooit|geen)\b"
)

#: How far either side of an anchor the other classes are looked for (characters).
REACH: Final = 120


def sentence_around(
    text: str, start: int, end: int, reach: int, ends: re.Pattern[str]
) -> tuple[str, str]:
    """What stands in ``text`` before ``start`` and after ``end`` in the same sentence
    (up to the last sentence end before, from the first after, by ``ends``), each at most
    ``reach`` characters."""
    before = text[max(0, start - reach) : start]
    stops = [stop.end() for stop in ends.finditer(before)]
    after = text[end : end + reach]
    stop = ends.search(after)
    return before[stops[-1] if stops else 0 :], after[: stop.start() if stop else None]


def near(
    anchor: str,
    needs: Sequence[str],
    reach: int = REACH,
    sentence: bool = True,
    unless_after: str | None = None,
) -> Callable[[str], bool]:
    """True when, around some match of ``anchor`` (within ``reach`` characters, and the
    same sentence when ``sentence``), every pattern of ``needs`` is found; a match right
    after ``unless_after`` does not count."""
    find_anchor = re.compile(anchor).finditer
    searches = tuple(re.compile(need).search for need in needs)
    barred = re.compile(rf"(?:{unless_after})\s*$").search if unless_after else None

    def found(text: str) -> bool:
        for match in find_anchor(text):
            start, end = match.span()
            if barred is not None and barred(text[max(0, start - 12) : start]):
                continue
            if sentence:
                before, after = sentence_around(text, start, end, reach, END)
            else:
                before, after = text[max(0, start - reach) : start], text[end : end + reach]
            window = f"{before} {match[0]} {after}"
            if all(search(window) for search in searches):
                return True
        return False

    return found


def words(*groups: str) -> str:
    """A pattern of whole words: any of ``groups`` (each an alternation) between word
    boundaries."""
    return r"\b(?:" + "|".join(groups) + r")\b"
