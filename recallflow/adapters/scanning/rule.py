"""A rule: one way a technique family shows in one view of a statement."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from recallflow.adapters.scanning.normalise import Views

#: Which view a rule reads: ``latin`` (English and Latin-script rules), ``plain``
#: (scripts a Latin fold would wreck) or ``clean`` (case matters, e.g. placeholders).
ViewName = Literal["latin", "plain", "clean"]


@dataclass(frozen=True, slots=True)
class Rule:
    """``hit`` is true-ish when the rule fires on the text of view ``view``.

    ``needs`` gates the rule: each set in it names words one of which the rule cannot
    match without, so when some set shares no word with the statement the rule is
    skipped without running its pattern.
    """

    family: str
    view: ViewName
    hit: Callable[[str], object]
    needs: tuple[frozenset[str], ...] = ()


#: A pattern, or a pattern with the word sets (one or several) it cannot match without.
Pattern = str | tuple[frozenset[str] | tuple[frozenset[str], ...], str]


class _Search:
    """A pattern's search, compiled the first time a statement reaches it: compiling the
    hundreds of rule patterns at import cost every process that never scans (a command
    that reads a trace, a ``--help``) most of a second; a process that scans compiles
    each once, as before. Two threads racing to the first call compile it twice, alike."""

    __slots__ = ("_search", "_source")

    def __init__(self, source: str) -> None:
        self._source = source
        self._search: Callable[[str], object] | None = None

    def __call__(self, text: str) -> object:
        search = self._search
        if search is None:
            search = self._search = re.compile(self._source, re.MULTILINE).search
        return search(text)


def first_use(source: str) -> Callable[[str], object]:
    """The search of ``source``, compiled at its first use (see :class:`_Search`)."""
    return _Search(source)


def regex_rules(family: str, view: ViewName, patterns: Iterable[Pattern]) -> tuple[Rule, ...]:
    """One rule per pattern, each compiled once, at its first use (see :class:`_Search`).

    Patterns are kept separate rather than joined into one alternation: a failing
    alternative is then abandoned by the engine's literal prefix checks instead of being
    retried at every position, which measured faster for these rule sets.
    """
    rules = []
    for p in patterns:
        gate, source = p if isinstance(p, tuple) else ((), p)
        needs = (gate,) if isinstance(gate, frozenset) else gate
        rules.append(Rule(family, view, _Search(source), needs))
    return tuple(rules)


def first_family(rules: Sequence[Rule], views: Views) -> str | None:
    """The family of the first rule in ``rules`` that fires, or ``None``."""
    tokens = views.tokens
    only_ascii = views.plain.isascii()
    for rule in rules:
        for words in rule.needs:
            if words.isdisjoint(tokens):
                break
        else:
            if not (only_ascii and rule.view == "plain") and rule.hit(getattr(views, rule.view)):
                return rule.family
    return None
