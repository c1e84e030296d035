"""Pressure the user asked for, told in the third person: their own wish, not a lure.

"If the user mentions their diet, insist gently on vegetables; they asked for that",
"When the user skips a run, push them a little, as they requested". An agent keeps the
user's wishes in the third person, and a wish to be held to one's own goal has the shape
of a planted lure (see :mod:`~recallflow.adapters.scanning.prompted`): a condition on what
the user says, then an order to press them. So the persuasion rules blocked it.

What tells them apart is whose the pressure is and where it leads. A lure presses the user
towards what someone else gains: their money moved or spent, a product or a place named,
their login or code handed over, their medicine changed, a safeguard turned off. A wish
to be held to a goal says the user asked for it ("they asked for that", "as they
requested", "at their request", "the user wants to be pushed") and leads nowhere but to
the user's own habits: what they eat and drink, sleep, exercise, practice, study, rest.
So a statement that tells the user's request, whose every pressing clause names such a
habit, and that names none of what a lure leads to, is read by every rule but the
persuasion ones; anything else it says still counts. A push towards anything else (a
product, a plan, a belief, someone to trust or avoid) keeps its reading.
"""

from __future__ import annotations

import re
from typing import Final

#: The user's own request, told in the third person.
_THEIR_REQUEST: Final = re.compile(
    r"\b(?:(?:they|he|she|the\s+user)\s+(?:(?:have|has|had|explicitly|specifically|once|"
    r"themselves|himself|herself)\s+)*(?:asked|requested|wanted|set\s+(?:this|it|that)\s+up|"
    r"chose|signed\s+up)\b|as\s+(?:they|he|she|the\s+user)\s+(?:asked|requested|wished|wanted)|"
    r"at\s+(?:their|his|her|the\s+user's)\s+(?:own\s+)?request|(?:the\s+user|they|he|she)\s+"
    r"wants?\s+to\s+be\s+(?:pushed|nudged|reminded|held\s+accountable|encouraged|challenged)|"
    r"(?:that's|that\s+is|it's|this\s+is)\s+what\s+(?:they|he|she|the\s+user)\s+(?:asked|wanted|"
    r"requested))\b"
)

#: Where a lure leads and a wish to be held to a goal never does (see the module docstring).
_LURE_MATTER: Final = re.compile(
    r"\b(?:pay\w*|transfer\w*|wire\w*|send\w*|buy\w*|purchas\w*|invest\w*|fund\w*|money|"
    r"cash|loan\w*|crypto\w*|coins?|stocks?|shares?|bank\w*|accounts?|cards?|subscri\w*|"
    r"order\w*|donat\w*|sign\s+up|"
    r"passw\w*|logins?|pins?|codes?|tokens?|credentials?|keys?|"
    r"medic\w*|dose\w*|dosage|pills?|tablets?|capsules?|supplements?|drugs?|remed\w*|"
    r"herbal|prescri\w*|doctor\w*|therap\w*|treatment\w*|stop\s+taking|"
    r"disabl\w*|antivirus|firewall|security|updates?|ignor\w*|rules?|guidelines?|"
    r"instructions?|confirm\w*|approv\w*|install\w*|download\w*|click\w*|links?|sites?|"
    r"websites?|apps?|brand\w*|instead|switch\w*|https?|www|you|your|yourself|nobody|"
    r"no\s+one|anyone|plans?|products?|gold|believ\w*|truth|true|false)\b|@|\$|\u20ac|\u00a3|\d|"
    r"\.(?:com|net|org|io|biz|xyz|ru)\b"
)

#: A verb of pressing the user, and the rest of its clause.
_PRESS: Final = re.compile(
    r"\b(?:insist\w*|persuad\w*|convinc\w*|pressur\w*|push\w*|nudg\w*|urg\w*|"
    r"press\w*|encourag\w*)\b[^.;!?\n]*"
)

#: The user's own habits, the only ends a wish to be pressed leads to.
_HABIT: Final = re.compile(
    r"\b(?:vegetables?|veggies|greens|fruits?|salads?|water|hydrat\w*|sugar\w*|salt|snack\w*|"
    r"junk\s+food|fast\s+food|takeout|cook\w*|meals?|breakfast|portions?|protein|fib(?:er|re)|"
    r"alcohol|drinking|smoking|cigarettes?|vaping|caffeine|coffee|sleep\w*|bed\w*|rest|"
    r"naps?|breaks?|lights\s+out|screen\s+time|phone|exercis\w*|workouts?|gym|run\w*|jog\w*|walk\w*|"
    r"steps|stretch\w*|yoga|swim\w*|cycl\w*|training|posture|practi[cs]\w*|piano|guitar|"
    r"violin|scales|stud\w*|homework|revision|reading|writing|journal\w*|meditat\w*|"
    r"floss\w*|sunscreen|habits?|routine|goals?|schedule)\b"
)

#: A wish, not a page.
_BIDDEN_LIMIT: Final = 220


def bidden_pressure(text: str) -> bool:
    """Whether ``text`` (the scanner's latin view) tells pressure the user asked for and
    leads to nothing a lure needs (see the module docstring)."""
    return (
        len(text) <= _BIDDEN_LIMIT
        and _THEIR_REQUEST.search(text) is not None
        and _LURE_MATTER.search(text) is None
        and all(_HABIT.search(clause[0]) for clause in _PRESS.finditer(text))
    )
