"""Payload splitting: an instruction cut into fragments the model is told to rejoin.

"a='ign' b='ore all previous' … concatenate a+b" has no forbidden phrase in it; the
phrase only exists once the model joins the parts. Two signals catch it: the structure
(fragments, a joining step, and an order to act on the result), and reassembly (quoted
fragments joined, forwards and backwards, then scanned like any other text).
"""

from __future__ import annotations

import re
from typing import Final

from recallflow.adapters.scanning.families import PAYLOAD_SPLITTING
from recallflow.adapters.scanning.lexicon import DIRECTED
from recallflow.adapters.scanning.rule import Rule, regex_rules

# The joining step as an imperative: "join them", not "we love playing it together".
_JOIN: Final = (
    rf"{DIRECTED}(?:concatenate|combine|join|merge|assemble|reassemble|put\s+(?:them\s+|"
    r"it\s+|these\s+)?together|glue|stitch|append|prepend|piece\s+(?:them\s+)?together|"
    r"add\s+(?:them|these|the\s+(?:parts|pieces|strings|fragments))\s+together)\b"
)
_ACT_ON_IT: Final = (
    r"\b(?:follow|obey|execute|run|do|act|comply|adopt|evaluate|eval|carry\s+out|perform|"
    r"apply|believe|say|print|treat|use)\b|\b(?:as|into)\s+your\b"
)
_PIECES: Final = (
    r"['\"\[][^'\"\[\]\n]{1,40}['\"\]][^\n]{0,60}?['\"\[][^'\"\[\]\n]{1,40}['\"\]]|\b(?:parts?|fragments?|pieces?|chunks?|"
    r"strings?|tokens?|variables?|words?|halves|half|segments?)\b|\b\w{1,8}\s*\+\s*\w{1,8}\b"
)

SPLITTING_RULES: Final[tuple[Rule, ...]] = regex_rules(
    PAYLOAD_SPLITTING,
    "latin",
    (
        # join the pieces and act on the result, in either order
        (
            frozenset(
                {
                    "append",
                    "appended",
                    "appending",
                    "appends",
                    "assemble",
                    "assembled",
                    "assembling",
                    "combination",
                    "combine",
                    "combined",
                    "combining",
                    "concatenate",
                    "concatenated",
                    "concatenating",
                    "concatenation",
                    "glue",
                    "glued",
                    "join",
                    "joined",
                    "joining",
                    "joins",
                    "merge",
                    "merged",
                    "merging",
                    "plus",
                    "reassemble",
                    "reassembled",
                    "stitch",
                    "stitched",
                    "together",
                }
            ),
            rf"\A(?=[\s\S]*?{_JOIN})(?=[\s\S]*?{_ACT_ON_IT})(?=[\s\S]*?{_PIECES})",
        ),
        # two or more assignments of string fragments, then use of them
        (
            frozenset({"=", "equals", "is"}),
            r"\A(?=(?:[\s\S]*?\b[a-z]\w{0,10}\s*(?:=|equals|is)\s*['\"]){2})(?=[\s\S]*?(?:\b\w{1,8}"
            rf"\s*\+\s*\w{{1,8}}\b|\{{\w+\}}\s*\{{\w+\}}|{_ACT_ON_IT}))",
        ),
        # {a}{b} templates put together
        r"\{[a-z]\w{0,8}\}\s*\{[a-z]\w{0,8}\}[\s\S]*?\b(?:where|with|let)\b",
        # talk of splitting text to get it past a filter
        (
            frozenset({"broken", "chopped", "cut", "divided", "split", "spread"}),
            r"\b(?:split|broken|cut|divided|chopped|spread)\s+(?:\w+\s+){0,3}?(?:to|so\s+(?:as\s+)?"
            r"to|in\s+order\s+to)\s+(?:get\s+past|evade|bypass|avoid|fool|trick|beat|slip\s+past|"
            r"dodge|circumvent)\b",
        ),
    ),
)

_QUOTED: Final = re.compile(
    r"'([^'\n]{1,40})'|\"([^\"\n]{1,40})\"|\[([^\[\]\n]{1,24})\]|“([^”\n]{1,40})”|‘([^’\n]{1,40})’"
)
_PLUS_JOINED: Final = re.compile(r"\b[a-z]{1,8}(?:\s*\+\s*[a-z]{1,8}){2,}\b")


def reassemblies(clean: str) -> list[str]:
    """Candidate texts obtained by joining the fragments of ``clean``.

    Quoted fragments are joined with and without spaces, in the order given and in
    reverse (a fragment may be "appended to" a later one), and the whole join is also
    reversed character by character, so "'snoitcurtsni' 'erongi'" reads forwards.
    """
    frags = [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(clean)]
    out: list[str] = []
    if len(frags) >= 2:
        tight, spaced = "".join(frags), " ".join(f.strip() for f in frags)
        backwards = " ".join(f.strip() for f in reversed(frags))
        out += [tight, spaced, spaced[::-1], "".join(reversed(frags)), backwards]
    out += [m[0].replace("+", "").replace(" ", "") for m in _PLUS_JOINED.finditer(clean.lower())]
    return out
