"""Stage: the relevance evidence of the loaded candidates (see "Relevance floor" in
docs/architecture.md).

``query_null`` compares each query vector with the embedder's unrelated corpus (its
calibration) — how similar unrelated text looks to this query under this model;
``candidate_evidence`` is each candidate's cosine with the query vectors, its coverage of
the text queries and the links between candidates, read by the store with the candidates
themselves (``candidate_load``); ``candidate_relevance`` turns both into each candidate's
absolute relevance, what the ranking's relevance feature and the floor read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
from hamilton.function_modifiers import tag

from recallflow.core.calibration import Calibration, CalibrationRef, null_similarity
from recallflow.core.query_forming import Period, asked_names, holds_names, name_words
from recallflow.core.relevance import asking_share, tells_time, within
from recallflow.core.relevance import candidate_relevance as relevance_of_candidates
from recallflow.core.scoring import stays_home
from recallflow.errors import ConfigurationError
from recallflow.models.request import RecallRequest
from recallflow.models.result import RelevanceEvidence
from recallflow.models.stages import (
    CandidateLoad,
    EvidenceSet,
    TextCoverage,
    make_candidate_evidence,
)
from recallflow.models.store import Belief, normalise_subject
from recallflow.policy import RetrievalPolicy


@tag(stage="relevance")
def calibration_ref(calibration: Calibration, policy: RetrievalPolicy) -> CalibrationRef:
    """The calibration this recall reads: the policy's, which must be the store's."""
    if policy.calibration is None:
        return calibration.ref
    if policy.calibration != calibration.ref:
        raise ConfigurationError(
            f"the policy reads calibration {policy.calibration.version}, but the store's"
            f" embedder is calibrated as {calibration.ref.version}"
        )
    return policy.calibration


@tag(stage="relevance")
def query_null(
    query_vectors: npt.NDArray[np.float32], calibration: Calibration
) -> tuple[float, ...]:
    """Per query vector, its highest cosine with the unrelated corpus (empty: uncalibrated)."""
    return null_similarity(query_vectors, calibration)


@tag(stage="relevance")
def candidate_evidence(
    candidate_load: CandidateLoad,
    query_texts: tuple[str, ...],
    query_names: tuple[str, ...],
    asked_request: RecallRequest,
) -> EvidenceSet:
    """Each loaded candidate's cosines, coverage and subject match, and the links between
    candidates, read with the candidates; none, with the reason, when the store could
    not answer (the recall degrades: see "Reliability" in docs/architecture.md). The
    coverage of the names each text query mentions, read after the queries' own, is
    split off into its own field (a query that names nobody: a coverage of nothing). The
    names a text written without a capital letter has in a name's place
    (``floor.lowercase_names``) are kept only when no candidate holds them: guessed, they
    say only that the query asks about someone the memory does not know. A ``local``
    belief of another project, never shown here, is no candidate that holds them."""
    evidence = candidate_load.evidence
    if not query_names or not evidence.by_id:
        return evidence
    n = len(query_texts)
    named = [i for i, names in enumerate(query_names) if names]
    nothing = TextCoverage(held=0.0, total=0.0, words_held=0, words=0)
    guessed = {i for i in named if not any(ch.isupper() for ch in query_texts[i])}
    if guessed:
        beliefs = candidate_load.beliefs
        held = {
            i
            for belief_id, ev in evidence.by_id.items()
            if (belief := beliefs.get(belief_id)) is None
            or not stays_home(belief, asked_request.project)
            for i, names in zip(named, ev.texts[n:], strict=False)
            if i in guessed and names.held > 0
        }
        named_kept = {i: at for at, i in enumerate(named) if i not in held}
    else:
        named_kept = {i: at for at, i in enumerate(named)}

    def names_of(texts: tuple[TextCoverage, ...]) -> tuple[TextCoverage, ...]:
        extra = texts[n:]
        return tuple(
            extra[at] if (at := named_kept.get(i)) is not None and at < len(extra) else nothing
            for i in range(n)
        )

    split = {
        belief_id: make_candidate_evidence(
            cosines=ev.cosines,
            texts=ev.texts[:n],
            names=names_of(ev.texts),
            subject_match=ev.subject_match,
            centrality=ev.centrality,
        )
        for belief_id, ev in evidence.by_id.items()
    }
    return EvidenceSet(
        by_id=split, links=evidence.links, follows=evidence.follows, error=evidence.error
    )


@tag(stage="relevance")
def named_entities(asked_request: RecallRequest) -> tuple[str, ...]:
    """The entities the working state names explicitly, as keys. Only these can match a
    subject for the floor: a capitalised word of a question ("Open Form") is a guess at a
    name, not a statement of what the turn is about."""
    keys = (normalise_subject(e) for e in asked_request.working_state.entities)
    return tuple(dict.fromkeys(k for k in keys if k))


@tag(stage="relevance")
def candidate_relevance(
    candidate_evidence: EvidenceSet,
    query_null: tuple[float, ...],
    calibration_ref: CalibrationRef,
    candidate_beliefs: dict[str, Belief],
    query_periods: tuple[Period, ...],
    query_asks_when: bool,
    policy: RetrievalPolicy,
    query_names: tuple[str, ...],
    asked_request: RecallRequest,
    query_texts: tuple[str, ...],
) -> dict[str, RelevanceEvidence]:
    """Every candidate's absolute relevance, by id; a candidate whose world time falls in
    a period the query names, or, when the query asks when, whose statement tells a time,
    is ranked as more relevant (temporal intent); one whose statement ends by asking, as
    less, by the share of it that asks, and the turn that follows it as more. A name the
    query mentions that a candidate carries as a key is a name the memory knows, and so
    is the principal's own: a memory written in the first person ("I am allergic to
    penicillin") is about the principal, whose name its statements need not spell. A text
    query that asks about the names it mentions (the owner of a possessive, the subject of
    an auxiliary verb) asks about them; one that names whom a task is for does not. A
    ``local`` belief of another project, never shown here, shapes no other candidate's
    evidence (``apart``: see :func:`~recallflow.core.relevance.own_evidence`)."""
    asked = {
        i: words
        for i, (text, names) in enumerate(zip(query_texts, query_names, strict=False))
        if names and (words := asked_names(text, names))
    }
    # A local belief of another project does not hold here: it is never shown here, and
    # neither what it says nor the names it knows shape another candidate's evidence.
    apart = frozenset(
        belief_id
        for belief_id, belief in candidate_beliefs.items()
        if stays_home(belief, asked_request.project)
    )
    here = (
        {i: b for i, b in candidate_beliefs.items() if i not in apart}
        if apart
        else candidate_beliefs
    )
    # Most queries name no period and do not ask when: then no candidate is read for it.
    in_period = (
        frozenset(
            belief_id
            for belief_id, belief in candidate_beliefs.items()
            if within(belief.valid_from, query_periods)
        )
        if query_periods
        else frozenset()
    )
    says_when = (
        frozenset(
            belief_id
            for belief_id, belief in candidate_beliefs.items()
            if tells_time(belief.statement)
        )
        if query_asks_when
        else frozenset()
    )
    asking = (
        {
            belief_id: share
            for belief_id, belief in candidate_beliefs.items()
            if (share := asking_share(belief.statement))
        }
        if policy.relevance.asking or policy.relevance.reply or policy.floor.asking_cut is not None
        else {}
    )
    return relevance_of_candidates(
        candidate_evidence,
        query_null,
        calibration_ref,
        policy,
        in_period=in_period,
        says_when=says_when,
        asking=asking,
        keyed_names=_keyed_names(query_names, here, asked_request.principal_id),
        asked_names=frozenset(asked),
        asked_strangers=_asked_strangers(
            asked, query_names, here, asked_request.principal_id, policy
        ),
        apart=apart,
    )


def _asked_strangers(
    asked: Mapping[int, tuple[str, ...]],
    query_names: tuple[str, ...],
    beliefs: Mapping[str, Belief],
    principal: str,
    policy: RetrievalPolicy,
) -> frozenset[int]:
    """The text queries (by place) that ask about names no loaded candidate holds as a
    word of its statement or keys, nor the principal is called by, beside other names they
    mention (``floor.unknown_asked_names``): "When is Chidi's flight to Lisbon?" asks
    about Chidi, whatever the memory knows of Lisbon. A query that asks about every name
    it mentions is read by the store's coverage of them (:func:`~recallflow.core.
    relevance.unknown_names`)."""
    floor = policy.floor
    if not (floor.unknown_names and floor.unknown_asked_names):
        return frozenset()
    beside = {
        i: words for i, words in asked.items() if set(words) < set(name_words(query_names[i]))
    }
    if not beside:
        return frozenset()
    parts = _key_parts(beliefs, principal)
    statements = [belief.statement for belief in beliefs.values()]
    return frozenset(
        i
        for i, words in beside.items()
        if not any(normalise_subject(word) in parts for word in words)
        and not holds_names(statements, words)
    )


def _keyed_names(
    query_names: tuple[str, ...], beliefs: Mapping[str, Belief], principal: str = ""
) -> frozenset[int]:
    """The text queries (by place) one of whose names is a word of a candidate's subject
    or entity key, or of the principal's id: the memory knows the name, however its
    statements spell it (the key ``αθηνα`` of a statement that writes "ΑΘΗΝΑ"), and the
    principal's memory is about the principal."""
    if not any(query_names):
        return frozenset()
    parts = _key_parts(beliefs, principal)
    return frozenset(
        i
        for i, names in enumerate(query_names)
        if any(normalise_subject(word) in parts for word in names.split())
    )


def _key_parts(beliefs: Mapping[str, Belief], principal: str) -> set[str]:
    """The words of the candidates' subject and entity keys and of the principal's id."""
    parts = {
        part
        for belief in beliefs.values()
        for key in (belief.subject, *belief.entities)
        if key
        for part in key.split("-")
    }
    parts.update(re.split(r"[-_.:/]", normalise_subject(principal) if principal else ""))
    parts.discard("")
    return parts
