"""Archival episode search's pure logic: the excerpt of an episode that is rendered, and
the floor (see "Moments" and "Relevance floor" in docs/architecture.md). No I/O.

An episode can be a whole session (up to 100,000 characters); rendering it whole would
spend the budget on one item, or drop it for not fitting. So at most ``max_words`` words
are rendered: the window of the content that holds the most query words (then the most
occurrences, then the earliest), centred on the query words it holds, with ``...`` where
it was cut. The choice depends only on
the content and the query, so the bytes are stable.

An episode's text crosses the trust boundary in one place, :func:`trusted_episode`, for
every read that shows it to a model (archival search, and the ``list_episodes`` tool's
read of the log): an excerpt that reads as instructions is ``[BLOCKED]``, and a name or a
project the surface's ceiling does not admit is redacted.

The floor reads similarity as the recall floor does: calibrated against unrelated text,
never as a raw cosine (see "Relevance floor" in docs/architecture.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from recallflow.core.calibration import CalibrationRef
from recallflow.core.query_forming import content_terms
from recallflow.core.redaction import ProjectNames, Redactor
from recallflow.core.render import BLOCKED
from recallflow.errors import InvalidInputError
from recallflow.models.result import RecalledEpisode, TrustLevel
from recallflow.models.store import Episode
from recallflow.policy import EpisodeFloor, EpisodePolicy
from recallflow.ports import InjectionScanner

#: Marks where an excerpt was cut.
ELLIPSIS = "..."
_WORD = re.compile(r"\w+")
#: A word ending with one of these already ends its sentence.
_SENTENCE_ENDS = (".", "!", "?", ";", ":")


def window_start(since: datetime | None, as_of: datetime) -> datetime | None:
    """``since``, the start of a window of the event log that ends at ``as_of``; one later
    than ``as_of`` is an :class:`InvalidInputError` on ``since``, no episode having occurred
    in between. The one check of both reads of a window: the log in order
    (``episodes.logged``) and archival search (``search_episodes``)."""
    if since is not None and since > as_of:
        raise InvalidInputError(
            f"{since.isoformat()} is later than as_of {as_of.isoformat()}: no episode"
            " occurred in between",
            field="since",
        )
    return since


def query_terms(query: str, limit: int, min_length: int) -> tuple[str, ...]:
    """The lowercase content words of ``query``, of at least ``min_length`` letters, an
    excerpt is centred on (``EpisodePolicy.excerpt_min_term``)."""
    return content_terms((query,), limit=limit, min_length=min_length)


def _term_of(word: str, terms: Sequence[str], prefix: int) -> int | None:
    """The index of the query term ``word`` matches, if any: its first ``prefix`` letters
    (all of a shorter term's) are the term's."""
    for token in _WORD.findall(word.lower()):
        for index, term in enumerate(terms):
            need = min(prefix, len(term))
            if len(token) >= need and token[:need] == term[:need]:
                return index
    return None


def _words(content: str) -> tuple[list[str], list[bool]]:
    """The words of ``content`` (as ``str.split`` gives them) and, for each, whether a
    line of the content ends with it."""
    words: list[str] = []
    line_ends: list[bool] = []
    for line in content.splitlines():
        found = line.split()
        words.extend(found)
        line_ends.extend(i == len(found) - 1 for i in range(len(found)))
    return words, line_ends


def _cut_word(word: str, word_chars: int) -> str:
    """``word`` as an excerpt shows it: whole, or its first ``word_chars`` characters and an
    ellipsis."""
    return word if len(word) <= word_chars else word[:word_chars] + ELLIPSIS


def _window(words: Sequence[str], terms: Sequence[str], max_words: int, prefix: int) -> int:
    """The first word of the ``max_words`` window of ``words`` an excerpt shows."""
    matches = [_term_of(word, terms, prefix) for word in words]
    counts = [0] * len(terms)
    for m in matches[:max_words]:
        if m is not None:
            counts[m] += 1
    best_start = 0
    best_key = (sum(1 for c in counts if c), sum(counts))
    for start in range(1, len(words) - max_words + 1):  # slide the window one word on
        leaving, entering = matches[start - 1], matches[start + max_words - 1]
        if leaving is not None:
            counts[leaving] -= 1
        if entering is not None:
            counts[entering] += 1
        key = (sum(1 for c in counts if c), sum(counts))
        if key > best_key:
            best_start, best_key = start, key
    # Centre the window on the query words it holds, so their context is on both sides.
    found = [i for i in range(best_start, best_start + max_words) if matches[i] is not None]
    if found:
        centre = (found[0] + found[-1]) // 2
        best_start = max(0, min(centre - max_words // 2, len(words) - max_words))
    return best_start


def excerpt(
    content: str, terms: Sequence[str], max_words: int, prefix: int, word_chars: int
) -> tuple[str, bool]:
    """The rendered part of ``content`` on one line, and whether it was cut; a content
    word counts as a query term when it shares the term's first ``prefix`` letters
    (``EpisodePolicy.excerpt_prefix``), and a word longer than ``word_chars`` characters
    is shown cut (``EpisodePolicy.excerpt_word_chars``)."""
    text, cut, _ = excerpts(content, terms, max_words, prefix, word_chars)
    return text, cut


def excerpts(
    content: str, terms: Sequence[str], max_words: int, prefix: int, word_chars: int
) -> tuple[str, bool, str]:
    """:func:`excerpt`'s text and whether it was cut, and the same words with each line
    break of ``content`` among them read as the end of a sentence: what the injection
    scanner reads besides the excerpt. The excerpt joins lines with a space, so a
    directive on a line of its own would read as a clause of the line before it, which the
    scanner takes for a report of one. The window is chosen once for both.

    A word longer than ``word_chars`` keeps its first ``word_chars`` characters and an
    ellipsis: a run with no space in it (a blob, a minified line) is no reading for the
    model at any length, and the scanner's time grows faster than a run's length (a run of
    tens of thousands of characters took minutes to scan)."""
    words, line_ends = _words(content)  # the words ``str.split`` gives: a line break is space
    cut = len(words) > max_words
    start = _window(words, terms, max_words, prefix) if cut else 0
    end = min(start + max_words, len(words))
    shown = [_cut_word(w, word_chars) for w in words[start:end]]
    cut = cut or any(len(w) > word_chars for w in words[start:end])
    text = " ".join(shown)
    if start > 0:
        text = f"{ELLIPSIS} {text}"
    if end < len(words):
        text = f"{text} {ELLIPSIS}"
    parts = []
    for i, word in enumerate(shown, start):
        ends = line_ends[i] and i < end - 1 and not words[i].endswith(_SENTENCE_ENDS)
        parts.append(word + (". " if ends else " "))
    return text, cut, "".join(parts).rstrip()


def episode_standing(
    similarity: float | None, null: float | None, calibration: CalibrationRef
) -> float | None:
    """How far the vector arm's ``similarity`` stands above ``null`` — the query's highest
    cosine with the unrelated corpus — in spreads of the embedder's unrelated-pair cosine;
    None when the vector arm did not find the episode or there is no calibration."""
    if similarity is None or null is None or not calibration.calibrated:
        return None
    return (similarity - null) / calibration.pair_std


def clears_floor(standing: float | None, coverage: float | None, floor: EpisodeFloor) -> bool:
    """True when an arm's own evidence says the episode is about the query: its similarity
    stands at least ``floor.semantic_standing`` above unrelated text
    (:func:`episode_standing`), or it holds ``floor.coverage`` of the query's words."""
    near = standing is not None and standing >= floor.semantic_standing
    worded = coverage is not None and coverage >= floor.coverage
    return near or worded


def trusted_episode(
    episode: Episode,
    terms: Sequence[str],
    policy: EpisodePolicy,
    scanner: InjectionScanner,
    redact: Redactor,
    project_names: ProjectNames,
    score: float = 0.0,
) -> tuple[RecalledEpisode, str | None]:
    """``episode`` as MEMORY data on the surface ``redact`` is bound to, and the family of
    instructions its excerpt reads as (None when it reads as none).

    The excerpt is the window of the content centred on ``terms`` (its opening words when
    there are none: a read of the log asks no query). It is scanned as shown and with the
    episode's line breaks kept, since the one-line excerpt joins a directive on a line of
    its own onto the line before; one that reads as instructions is ``[BLOCKED]`` (the id
    stays). A marked entity's name the ceiling does not admit is redacted from the rest,
    and a project name the ceiling does not admit (by the episode's own level or the
    name's, ``project_names``) is withheld, as in recall."""
    text, cut, written = excerpts(
        episode.content,
        terms,
        policy.excerpt_words,
        policy.excerpt_prefix,
        policy.excerpt_word_chars,
    )
    family = scanner.scan(text)
    if family is None and written != text:
        family = scanner.scan(written)
    blocked = family is not None
    shown, names = (BLOCKED, 0) if blocked else redact(text, episode.content)
    project = episode.project
    hidden = project is not None and not project_names.admitted(
        project, episode.sensitivity, redact.ceiling
    )
    item = RecalledEpisode(
        episode_id=episode.id,
        occurred_at=episode.occurred_at,
        kind=episode.kind,
        project=None if hidden else project,
        project_redacted=hidden,
        names_redacted=names,
        text=shown,
        excerpted=cut and not blocked,
        trust=TrustLevel.MEMORY,
        blocked=blocked,
        score=score,
    )
    return item, family
