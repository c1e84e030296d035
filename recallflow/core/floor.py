"""The floor's last cut, pure: the estimated probability that a candidate within the
floor's distances is evidence the question needs (see "Relevance floor" in
docs/architecture.md).

The distances from the best clearing score bound a block from above, but on stored
conversation many turns score within them, so they alone let the item cap decide the
size. What a candidate's score and place say together is sharper: a clear single answer
stands alone at the top and what follows it is both far under it and late, while the parts
of a question that asks for several things score close together. A small logistic model
over what the floor already reads — the distance under the best clearing score, the place
among the candidates within the distances before it (as ``ln(1 + place)``: the first
places matter most) and the neighbour support — gives that probability; its coefficients
and the least probability kept are policy fields (``floor.odds``), fitted on the LoCoMo
dev split. A goal that lists several things ("project name, release day and where the
key is") needs a candidate for each, so its first :func:`goal_parts` − 1 places after the
first count as the first: the place that costs is the one after every part has had one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping

from recallflow.core.query_forming import names_mentioned
from recallflow.models.store import normalise_subject
from recallflow.policy import FloorOdds

# A list's separators: a comma, a semicolon, "and", "or".
_PART_SEPARATOR = re.compile(r"[,;]|\b(?:and|or)\b", re.IGNORECASE)


def goal_parts(goal: str | None) -> int:
    """How many things a goal asks for: one plus the list separators (commas, semicolons,
    "and", "or") in what follows its first colon ("Prepare the release: project name,
    release day and where the key is" asks for three). At least 1; 1 without a goal."""
    if not goal:
        return 1
    asked = goal.split(":", 1)[-1]
    return 1 + len(_PART_SEPARATOR.findall(asked))


def estimate_place(place: int, parts: int) -> int:
    """The place the estimate reads: ``place`` less the ``parts`` − 1 places a goal that
    asks for ``parts`` things gives its other parts (never below 0)."""
    # ``max(0, place - (max(parts, 1) - 1))`` written out: CPython 3.11's ``max`` parses
    # its arguments for keywords on every call (some 800 instructions), and the floor
    # asks this of every candidate.
    at = place - ((1 if parts < 1 else parts) - 1)
    return at if at > 0 else 0


def keep_log_odds(distance: float, place: int, support: float, odds: FloorOdds) -> float:
    """The estimated log-odds that a candidate is evidence: ``distance`` under the best
    clearing score, at ``place`` (0-based, :func:`estimate_place`) among the candidates within
    the distances, with neighbour ``support``."""
    return (
        odds.intercept
        + odds.distance * distance
        + odds.place * math.log1p(place)
        + odds.support * support
    )


def keep_probability(distance: float, place: int, support: float, odds: FloorOdds) -> float:
    """:func:`keep_log_odds` as a probability."""
    z = keep_log_odds(distance, place, support, odds)
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def kept_by_odds(distance: float, place: int, support: float, odds: FloorOdds) -> bool:
    """Whether the estimated probability reaches ``odds.min_probability`` (always, when
    that is 0: the cut is off)."""
    if odds.min_probability <= 0:
        return True
    return keep_probability(distance, place, support, odds) >= odds.min_probability


def bridge_names(
    statement: str,
    entities: Iterable[str],
    held: Mapping[str, int],
    most: int,
) -> frozenset[str]:
    """The entities of a kept belief (its ``statement`` and ``entities``) through which
    the floor keeps a candidate beside it (see "Relevance floor" in docs/architecture.md):
    each one that the statement writes as a name (a word of the key is one of the names
    it mentions, read as a question's names are: capitalised, not a sentence's first
    word, nor a day or a month: "Javier" in "My brother Javier pays…", not "Friday" in
    "last Friday" nor "Showing" opening a sentence), and that at most ``most`` of the
    loaded candidates hold (``held``: each key's holders among them; one most of them
    hold says nothing of which belief is meant)."""
    if most < 2:
        return frozenset()
    written = {normalise_subject(w) for w in (names_mentioned(statement) or "").split()}
    return frozenset(
        k for k in entities if held.get(k, 0) <= most and not written.isdisjoint(k.split("-"))
    )
