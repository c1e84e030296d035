"""Stage: loading the fused candidates (``candidate_beliefs``).

One query loads every fused id, still hard-filtered (an external arm's ids are checked
here), together with the other members of their conflict sets, so that a conflict is
shown whole.
"""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.models.request import RecallRequest
from recallflow.models.result import FusedCandidate
from recallflow.models.stages import HardFilter
from recallflow.models.store import Belief
from recallflow.ports import BeliefSearch


@tag(stage="candidates")
def candidate_beliefs(
    fused_candidates: tuple[FusedCandidate, ...],
    hard_filter: HardFilter,
    request: RecallRequest,
    belief_search: BeliefSearch,
) -> dict[str, Belief]:
    """The fused beliefs (and their conflict peers) that pass the hard filter, by id; not
    those rejected as not holding in the request's project (see "Feedback and corrections"
    in docs/architecture.md)."""
    loaded = belief_search.load(
        hard_filter, [c.belief_id for c in fused_candidates], project=request.project
    )
    return {b.id: b for b in sorted(loaded, key=lambda b: b.id)}
