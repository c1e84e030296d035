"""Stage: query forming.

``asked_request`` is the request as the surface shows it: a name it
withholds stands as a name nobody has and a project whose name it withholds is no project,
so what the surface may not see does not steer what it gets (see "Trust boundary" in
docs/architecture.md). ``recall_queries`` derives a small, deterministic set of queries
from that working state through the :class:`~recallflow.ports.QueryFormer` port; ``query_keys``,
``query_texts`` and ``trigram_terms`` are what the arms read; ``query_vectors`` embeds
the text queries once for the semantic arm.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hamilton.function_modifiers import tag

from recallflow.core.query_forming import (
    Period,
    asks_when,
    content_terms,
    coverage_text,
    named_periods,
    names_mentioned,
)
from recallflow.core.redaction import NameRedaction, as_asked, names_marked
from recallflow.models.request import RecallRequest
from recallflow.models.result import RecallQuery
from recallflow.models.stages import HardFilter
from recallflow.models.store import normalise_subject
from recallflow.policy import RetrievalPolicy
from recallflow.ports import Embedder, EntitySensitivity, QueryFormer, query_embedding


@tag(stage="query_forming")
def request_names(
    hard_filter: HardFilter,
    entity_sensitivity: EntitySensitivity | None = None,
    names_read: NameRedaction | None = None,
) -> NameRedaction:
    """The marked names the request is read with: ``names_read`` when the caller read them
    for this recall (a :class:`~recallflow.memory.Memory` keeps each principal's last read
    and checks it against the one the trust stage renders with, so a recall costs no
    round trip of its own for them), else the principal's marks above the ceiling, read
    now."""
    if names_read is not None:
        return names_read
    return names_marked(
        entity_sensitivity,
        hard_filter.tenant_id,
        hard_filter.principal_id,
        hard_filter.sensitivity_ceiling,
    )


@tag(stage="query_forming")
def asked_request(
    request: RecallRequest,
    hard_filter: HardFilter,
    policy: RetrievalPolicy,
    request_names: NameRedaction,
) -> RecallRequest:
    """The request as the surface shows it (:func:`~recallflow.core.redaction.as_asked`),
    which every stage that chooses what to show reads: each mention of a name the surface
    withholds stands as a name nobody has, and a project whose name it withholds is no
    project. The request itself when nothing is withheld."""
    return as_asked(
        request, request_names, hard_filter.sensitivity_ceiling, policy.project_sensitivity
    )


@tag(stage="query_forming")
def recall_queries(
    asked_request: RecallRequest, query_former: QueryFormer
) -> tuple[RecallQuery, ...]:
    """The recall's queries: ≤ ~8, deduplicated, the same for the same working state."""
    return query_former.form(asked_request.working_state)


@tag(stage="query_forming")
def query_keys(recall_queries: tuple[RecallQuery, ...]) -> tuple[str, ...]:
    """Normalised subject/entity keys of the structured queries."""
    keys = (k for q in recall_queries if q.kind == "structured" for k in q.keys)
    return tuple(dict.fromkeys(keys))


@tag(stage="query_forming")
def query_texts(recall_queries: tuple[RecallQuery, ...]) -> tuple[str, ...]:
    """The text queries, in order."""
    return tuple(q.text for q in recall_queries if q.kind == "text")


@tag(stage="query_forming")
def query_periods(query_texts: tuple[str, ...]) -> tuple[Period, ...]:
    """The calendar periods the text queries name ("in May 2023", "on December 4, 2023"),
    which the relevance stage reads as temporal intent."""
    return named_periods(query_texts)


@tag(stage="query_forming")
def query_asks_when(query_texts: tuple[str, ...]) -> bool:
    """Whether a text query asks when ("When did ..."), which the relevance stage reads as
    temporal intent."""
    return asks_when(query_texts)


@tag(stage="query_forming")
def trigram_terms(
    query_keys: tuple[str, ...],
    query_texts: tuple[str, ...],
    asked_request: RecallRequest,
    policy: RetrievalPolicy,
) -> tuple[str, ...]:
    """Short terms matched against belief subjects: the structured keys; content words of
    the text queries only when there are no keys (a common word spelled like a subject is
    noise, measured on the LoCoMo dev split).

    The request's own project is not spelled against the subjects, though a text that
    names it makes it a key: it is where the agent works, not what it asks about, and the
    ranking reads it exactly (the project weight, against each belief's project). It is
    not a typo to forgive, and probed, a name like ``proj-1`` shares trigrams with many
    keys (each rechecked: 1.5-2.4 ms of server time at 100k beliefs, for no match)."""
    limits = policy.limits
    if query_keys:
        project = normalise_subject(asked_request.project) if asked_request.project else None
        keys = tuple(k for k in query_keys if k != project)
        return keys[: limits.trigram_max_keys]
    return content_terms(
        query_texts, limit=limits.trigram_max_words, min_length=limits.trigram_min_word_length
    )


@tag(stage="query_forming")
def query_names(query_texts: tuple[str, ...], policy: RetrievalPolicy) -> tuple[str, ...]:
    """Per text query, the names it mentions (:func:`~recallflow.core.query_forming.
    names_mentioned`; "" when none); empty when no text query names anyone, or
    ``floor.names_aside`` is off. A candidate that holds nothing else of the query
    does not clear the relevance floor by its coverage. A text written without a capital
    letter names the words in a name's place (``floor.lowercase_names``; the subject of
    "is" or "was" among them with ``floor.lowercase_copula``)."""
    if not policy.floor.names_aside:
        return ()
    floor = policy.floor
    lowercase, copula = floor.lowercase_names, floor.lowercase_copula
    aside = floor.request_words_aside
    names = tuple(names_mentioned(text, lowercase, copula, aside) or "" for text in query_texts)
    return names if any(names) else ()


@tag(stage="query_forming")
def coverage_texts(
    query_texts: tuple[str, ...], query_names: tuple[str, ...], policy: RetrievalPolicy
) -> tuple[str, ...]:
    """The text queries as the floor's coverage reads them: with
    ``floor.request_frame_aside``, one that opens by asking the memory itself for what it
    holds without that opening ("What do you know about my work?" as "my work?"); with
    ``floor.request_words_aside``, one of nothing but names and words that ask the memory
    for what it holds without those words
    (:func:`~recallflow.core.query_forming.coverage_text`, given the names ``query_names``
    read with those words aside, so they are not read again)."""
    floor = policy.floor
    frame = floor.request_frame_aside
    words = floor.request_words_aside and floor.names_aside
    if not frame and not words:
        return query_texts
    lowercase, copula = floor.lowercase_names, floor.lowercase_copula
    return tuple(
        coverage_text(text, lowercase, copula, query_names[i] if query_names else "", frame, words)
        for i, text in enumerate(query_texts)
    )


@tag(stage="query_forming")
def query_vectors(query_texts: tuple[str, ...], embedder: Embedder) -> npt.NDArray[np.float32]:
    """One unit vector per text query (the only model call of a recall), embedded as a
    search query when the model distinguishes queries from passages (e5's prefixes)."""
    if not query_texts:
        return np.zeros((0, embedder.dimension), dtype=np.float32)
    return query_embedding(embedder)(list(query_texts))
