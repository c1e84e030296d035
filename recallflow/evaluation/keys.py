"""Subject and entity keys derived from free text by code, never by hand, so the evaluation
measures what recallflow would see from a formation process that knows nothing of the
dataset.

General heuristics, nothing dataset-specific:

* **entities**: capitalised tokens that are not stopwords (a token at
  the start of a sentence counts only if the same word also appears capitalised
  mid-sentence somewhere in the corpus, i.e. it looks like a proper noun); and the rarest
  content words of the text (by document frequency over the corpus, ≥ 4 letters).
* **subject**: the text's rarest content word (the speaker, or ``"note"``, if none).

The speaker's own name is left out of both (it is already in the statement text).

:class:`KeyDeriver` is fitted on a whole corpus once (document frequencies, proper-noun
evidence), then derives keys per text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from recallflow.models.store import normalise_subject

_WORD = re.compile(r"[A-Za-z][A-Za-z-]*[A-Za-z]|[A-Za-z]")
_CAPITALISED = re.compile(r"\b[A-Z][A-Za-z-]*[A-Za-z](?!['’])")
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\[image:\s*)([A-Z][A-Za-z-]*)")
_EXTRA_STOPWORDS = frozenset(
    [
        "also",
        "would",
        "could",
        "really",
        "like",
        "get",
        "got",
        "yeah",
        "yes",
        "okay",
        "hey",
        "thanks",
        "thank",
        "great",
        "good",
        "know",
        "think",
        "going",
        "much",
        "many",
        "well",
        "even",
        "still",
        "lot",
        "always",
        "never",
        "something",
        "anything",
        "everything",
        "things",
        "thing",
        "make",
        "made",
        "sure",
        "one",
        "two",
        "way",
        "feel",
        "time",
        "today",
        "wow",
        "awesome",
        "glad",
        "hope",
        "love",
        "amazing",
        "cool",
        "nice",
    ]
)


def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN_PLUS

    return frozenset(STOPWORDS_EN_PLUS) | _EXTRA_STOPWORDS


def _content_words(text: str, stop: frozenset[str]) -> list[str]:
    words = (w.lower().strip("-") for w in _WORD.findall(text))
    return [w for w in words if len(w) >= 4 and w not in stop]


class KeyDeriver:
    """Derives ``(subject, entities)`` for texts of one corpus.

    :param corpus: every text of the corpus (for document frequencies and proper nouns).
    :param max_keywords: rarest content words added as entities per text.
    """

    def __init__(self, corpus: Iterable[str], *, max_keywords: int = 3) -> None:
        self._stop = _stopwords()
        self._max_keywords = max_keywords
        self._df: Counter[str] = Counter()
        self._proper: set[str] = set()
        for text in corpus:
            self._df.update(set(_content_words(text, self._stop)))
            starts = {m.start(1) for m in _SENTENCE_START.finditer(text)}
            for match in _CAPITALISED.finditer(text):
                if match.start() not in starts:
                    self._proper.add(match.group().lower())

    def proper_nouns(self, text: str) -> list[str]:
        """Capitalised, non-stopword tokens of ``text`` that look like proper nouns."""
        starts = {m.start(1) for m in _SENTENCE_START.finditer(text)}
        out: list[str] = []
        for match in _CAPITALISED.finditer(text):
            word = match.group().lower()
            if word in self._stop or word in _EXTRA_STOPWORDS:
                continue
            if match.start() in starts and word not in self._proper:
                continue
            out.append(word)
        return out

    def keywords(self, text: str, exclude: Iterable[str] = ()) -> list[str]:
        """The rarest content words of ``text`` not in ``exclude`` (ties: first occurrence)."""
        skip = {e.lower() for e in exclude}
        words = [w for w in dict.fromkeys(_content_words(text, self._stop)) if w not in skip]
        words.sort(key=lambda w: self._df.get(w, 0))
        return words[: self._max_keywords]

    def derive(self, text: str, speaker: str | None = None) -> tuple[str, tuple[str, ...]]:
        """``(subject, entities)`` of ``text``; both already normalised keys.

        The speaker is not a key: it is in the statement already, and a key every second
        document shares matches everything and ranks nothing (measured on the dev split).
        """
        names = (speaker or "").lower().split()
        keywords = self.keywords(text, exclude=names)
        subject = normalise_subject(keywords[0] if keywords else speaker or "note") or "note"
        nouns = [n for n in self.proper_nouns(text) if n not in names]
        raw = [*nouns, *keywords]
        entities = tuple(dict.fromkeys(k for k in (normalise_subject(r) for r in raw) if k))
        return subject, entities[:16]
