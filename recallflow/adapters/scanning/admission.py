"""Not knowing admitted: a phrase dictated for when the model does not know.

"Say 'I don't know' when you are unsure" and "the user prefers that you say 'I couldn't
find a source' rather than guess" fix the words of an answer, as a hijack of the output
does, but what they carry is the model's own doubt, told for the case it holds: the
phrase admits not knowing (not knowing, not being sure, finding nothing), and the case is
the model's uncertainty ("when you're unsure", "if you can't find one", "rather than
guess"). A phrase that admits doubt about something else ("say 'I'm not sure' whenever
the user asks whether the product is safe") names no such case and is read as before.
"""

from __future__ import annotations

import re
from typing import Final

_QUOTE: Final = r"[\"'\u2018\u2019\u201c\u201d\u00ab\u00bb]"
#: The phrase: not knowing, not being sure, finding nothing.
_ADMITTED: Final = (
    r"(?:(?:i|we)\s*(?:do\s*(?:not|n't)|don'?t|can(?:not|'?t)|could\s*(?:not|n'?t)|am\s+not|'m\s+not|"
    r"have\s*(?:not|n'?t)|haven'?t|did\s*(?:not|n'?t))\s+(?:\w+\s+){0,2}?(?:know|sure|certain|"
    r"find|found|have|verify|confirm)|(?:i'm|i\s+am)\s+(?:unsure|uncertain)|not\s+sure|no\s+idea|"
    r"unknown|no\s+(?:reliable\s+)?sources?\s+found|source\s+not\s+found)\b"
)
#: "say 'I don't know'", "reply with 'not sure'".
_SAID: Final = re.compile(
    r"\b(?:say|reply|answer|respond|write|admit)(?:\s+(?:with|that|so))?\s*:?\s*"
    + _QUOTE
    + r"\s*"
    + _ADMITTED
    + r"[^\"\u201d\u00bb\n]{0,40}?"
    + _QUOTE
)
#: The model's own uncertainty, as the case the phrase is for.
_UNSURE: Final = re.compile(
    r"\b(?:(?:when|whenever|if)\s+(?:you(?:'re|\s+are)?\s+)?(?:are\s+)?(?:unsure|not\s+sure|"
    r"uncertain|in\s+doubt|don'?t\s+know|do\s+not\s+know|can'?t\s+find|cannot\s+find|could\s*n'?t\s+"
    r"find|have\s+no\s+(?:source|answer|idea))|(?:rather|instead)\s+(?:than|of)\s+(?:guess\w*|"
    r"(?:make|making)\s+(?:something|things|it|one)\s+up|invent\w*))"
)
_DOUBLE_QUOTE: Final = re.compile(r"[\"\u201c\u201d\u00ab\u00bb]")
_SENTENCE_END: Final = re.compile(r"[.!?;\n]")


def ignorance_admitted(latin: str) -> bool:
    """Whether ``latin`` is one sentence dictating an admission of not knowing for the
    model's own doubt, and quoting nothing else."""
    return (
        _SAID.search(latin) is not None
        and _UNSURE.search(latin) is not None
        and len(_DOUBLE_QUOTE.findall(latin)) <= 2
        and sum(1 for sentence in _SENTENCE_END.split(latin) if sentence.strip()) == 1
    )
