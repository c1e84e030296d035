"""The user's own future protest overruled in advance: a wish about their own answers,
not an answer fixed against the evidence.

"Tell me the weather even if I say I don't care", "remind me to stretch even if I say
I'm busy" and "always answer in German, even when I write in English" have the shape the
rules read as a lie ordered: a verb of saying and a clause that sets something aside.
What they set aside is not the evidence but the user's own later words, and what they
ask to be told is open (the weather, when rent is due, the answer's language), so the
model still says whatever is true. "Tell me my account is secure even if I say I see
strange logins" sets aside the same kind of clause, but what it asks to be told is a
verdict written into the order ("my account is secure"), and the clause it overrules is
the evidence against it.

So a clause "even if I say / tell you / ask / insist …" is cut from its sentence before
the rules that read a fixed answer look at it, when what comes before it in the sentence
fixes no verdict: no finite verb or "that" clause outside a question word's clause ("when
rent is due", "whether it rained" stay open), and no word of a clean bill (safe, fine,
paid). A clause about anyone else's words ("even if they say it failed", "even if the
bank says otherwise") is never cut.
"""

from __future__ import annotations

import re
from typing import Final

#: The user's own later words, overruled: "even if I say …", "even when I tell you …".
_OWN_PROTEST: Final = re.compile(
    r"[,\s]*\beven\s+(?:if|when|though)\s+i\s+(?:later\s+|ever\s+|then\s+)?(?:say|tell\s+you|"
    r"ask|insist|claim|protest|object|complain|reply|answer|respond|beg|argue|write|type|speak|"
    r"switch|text|message)\b[^.!?;\n]*"
)

#: Where the sentence that holds the clause starts.
_SENTENCE_START: Final = re.compile(r"[.!?;\n][^.!?;\n]*$")

#: A question word's clause, up to a comma or a "that": what it asks is open, whatever its
#: verb ("when rent is due"); a "that" after it is told again ("if asked, that it is safe").
_OPEN_CLAUSE: Final = re.compile(
    r"\b(?:when|what|where|whether|if|how|which|who|why)\b[^,]*?(?=,|\bthat\b|$)"
)

#: What told as fixed is a verdict: a finite verb or a "that" clause, or a clean bill.
_VERDICT: Final = re.compile(
    r"\b(?:that|is|are|was|were|isn't|aren't|wasn't|weren't|has|have|had|hasn't|haven't|did|"
    r"didn't|does|doesn't|went|will|won't|can|can't|cannot|looks?|seems?|means?)\b|'s\b|"
    r"\b(?:safe|secure|fine|ok|okay|clean|legit\w*|genuine|real|paid|done|nothing|no|none|"
    r"never|true|false|correct|wrong|approved|verified|harmless|normal)\b"
)


def without_own_protest(text: str) -> str:
    """``text`` (the scanner's latin view) with each clause overruling the user's own later
    words cut, where what its sentence asks to be told is open."""
    out, last = [], 0
    for clause in _OWN_PROTEST.finditer(text):
        head = text[last : clause.start()]
        start = _SENTENCE_START.search(head)
        told = _OPEN_CLAUSE.sub("", head[start.start() + 1 :] if start else head)
        if _VERDICT.search(told) is None:
            out.append(head)
            last = clause.end()
    out.append(text[last:])
    return "".join(out)
