"""Stage: the relevance evidence of the loaded candidates (see "Relevance floor" in
docs/architecture.md).

``query_null`` compares each query vector with the embedder's unrelated corpus (its
calibration) — how similar unrelated text looks to this query under this model;
``candidate_evidence`` asks the store for each candidate's cosine
with the query vectors, its coverage of the text queries and the links between
candidates; ``candidate_relevance`` turns both into each candidate's absolute relevance,
what the ranking's relevance feature and the floor read.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hamilton.function_modifiers import tag

from recallflow.core.calibration import Calibration, CalibrationRef, null_similarity
from recallflow.core.degradation import failure_text
from recallflow.core.query_forming import Period
from recallflow.core.relevance import candidate_relevance as relevance_of_candidates
from recallflow.core.relevance import tells_time, within
from recallflow.errors import ConfigurationError
from recallflow.models.request import RecallRequest
from recallflow.models.result import RelevanceEvidence
from recallflow.models.stages import EvidenceSet, HardFilter
from recallflow.models.store import Belief, normalise_subject
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch


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
    candidate_beliefs: dict[str, Belief],
    hard_filter: HardFilter,
    query_texts: tuple[str, ...],
    query_vectors: npt.NDArray[np.float32],
    named_entities: tuple[str, ...],
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> EvidenceSet:
    """Each loaded candidate's cosines, coverage and subject match, and the links between
    candidates; none, with the reason, when the store cannot answer (the recall degrades:
    see "Reliability" in docs/architecture.md)."""
    try:
        return belief_search.evidence(
            hard_filter,
            list(candidate_beliefs),
            query_texts,
            query_vectors,
            named_entities,
            policy.limits,
        )
    except Exception as exc:  # failed evidence degrades the recall, like a failed arm
        return EvidenceSet(by_id={}, error=failure_text(exc))


@tag(stage="relevance")
def named_entities(request: RecallRequest) -> tuple[str, ...]:
    """The entities the working state names explicitly, as keys. Only these can match a
    subject for the floor: a capitalised word of a question ("Open Form") is a guess at a
    name, not a statement of what the turn is about."""
    keys = (normalise_subject(e) for e in request.working_state.entities)
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
) -> dict[str, RelevanceEvidence]:
    """Every candidate's absolute relevance, by id; a candidate whose world time falls in
    a period the query names, or, when the query asks when, whose statement tells a time,
    is ranked as more relevant (temporal intent)."""
    in_period = frozenset(
        belief_id
        for belief_id, belief in candidate_beliefs.items()
        if within(belief.valid_from, query_periods)
    )
    says_when = frozenset(
        belief_id
        for belief_id, belief in candidate_beliefs.items()
        if query_asks_when and tells_time(belief.statement)
    )
    return relevance_of_candidates(
        candidate_evidence,
        query_null,
        calibration_ref,
        policy,
        in_period=in_period,
        says_when=says_when,
    )
