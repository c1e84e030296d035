"""Stage: loading the fused candidates (``candidate_beliefs``).

One query loads every fused id, still hard-filtered (an external arm's ids are checked
here), together with the other members of their conflict sets, so that a conflict is
shown whole. The relevance evidence of what it loads travels with it (read by
``candidate_evidence``): the store answers both in one round trip. A load that fails or
times out degrades the recall to no candidates, and evidence that fails degrades only the
evidence, each recorded in the trace, rather than failing the turn (see "Reliability" in
docs/architecture.md).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hamilton.function_modifiers import tag

from recallflow.core.degradation import failure_text
from recallflow.models.request import RecallRequest
from recallflow.models.result import FusedCandidate
from recallflow.models.stages import CandidateLoad, EvidenceSet, HardFilter
from recallflow.models.store import Belief
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch


@tag(stage="candidates")
def candidate_load(
    fused_candidates: tuple[FusedCandidate, ...],
    hard_filter: HardFilter,
    request: RecallRequest,
    coverage_texts: tuple[str, ...],
    query_vectors: npt.NDArray[np.float32],
    query_names: tuple[str, ...],
    named_entities: tuple[str, ...],
    query_keys: tuple[str, ...],
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> CandidateLoad:
    """The fused beliefs (and their conflict peers) that pass the hard filter, by id; not
    those rejected as not holding in the request's project (see "Feedback and corrections"
    in docs/architecture.md), the project as the caller named it, even one the surface
    withholds: a user's "not here" holds there on every surface (see "Trust boundary");
    with their relevance evidence. None, with the reason, when
    the load fails. The coverage is read of the text queries as ``coverage_texts`` gives
    them; when a text query names someone, the coverage of its names alone is read too,
    in the same statement, after the queries' own (``query_names``). With
    ``floor.bridge_neighbours``, for a query that names nothing (no key, no entity of the
    working state: it asks through a description, "the brother who pays…"), the same
    statement also loads the other holders of a bridge of the first ``limits.graph_seeds``
    fused candidates (an entity few beliefs hold): no arm votes for them, the floor may
    keep one beside the belief it bridges from."""
    texts = (*coverage_texts, *(names for names in query_names if names))
    limits = policy.limits
    asks_through = policy.floor.bridge_neighbours and not query_keys and not named_entities
    seeds = [c.belief_id for c in fused_candidates[: limits.graph_seeds]] if asks_through else []
    try:
        loaded, evidence = belief_search.load_with_evidence(
            hard_filter,
            [c.belief_id for c in fused_candidates],
            texts,
            query_vectors,
            named_entities,
            limits,
            project=request.project,
            bridge_seeds=seeds,
            asked=query_keys,
        )
    except Exception as exc:  # a failed load degrades the recall, like a failed arm
        return CandidateLoad(beliefs={}, error=failure_text(exc))
    if isinstance(evidence, Exception):  # failed evidence degrades the recall, like an arm
        evidence = EvidenceSet(by_id={}, error=failure_text(evidence))
    # The port hands over beliefs as stored, and the evidence as read: a load is a
    # dataclass, which checks none of them again (as a model, every belief went through
    # its ``before`` validator again, 80 µs a recall at 100k, ~45 beliefs).
    return CandidateLoad(
        beliefs={b.id: b for b in sorted(loaded, key=lambda b: b.id)},
        evidence=evidence,
        error=None,
    )


@tag(stage="candidates")
def candidate_beliefs(candidate_load: CandidateLoad) -> dict[str, Belief]:
    """The loaded candidates by id (none when the load failed)."""
    return candidate_load.beliefs
