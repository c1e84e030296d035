"""The sentence around a match, read a bounded reach either side of it.

A reading that hangs on one word (an anchor: a verb of setting instructions aside, the
user as the one addressed) looks for its other words in the sentence the anchor stands
in, and only so far: a statement's run with no sentence end in it is read a bounded
window at each anchor, never to its end, so a long run costs time in proportion to it.
"""

from __future__ import annotations

import re


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
