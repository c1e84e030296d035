"""Stage: the hard filter, the isolation boundary of a recall.

``hard_filter`` fixes the isolation boundary of the recall: tenant, principal, the
moment's admissible lifecycle states, bi-temporal validity at ``as_of`` (world and
system time) and the surface's sensitivity ceiling. Every arm takes it as a required
input. Project scope is not part of it.
"""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.models.request import RecallRequest
from recallflow.models.stages import HardFilter
from recallflow.policy import SURFACE_CEILINGS, RetrievalPolicy


@tag(stage="hard_filter")
def hard_filter(request: RecallRequest, policy: RetrievalPolicy) -> HardFilter:
    """The SQL-enforced isolation boundary of this recall."""
    if request.as_of is None:
        raise ValueError("request.as_of must be resolved before the DAG runs")
    return HardFilter(
        tenant_id=request.tenant_id,
        principal_id=request.principal_id,
        states=policy.admissible_states[request.moment],
        as_of=request.as_of,
        known_as_of=request.known_as_of or request.as_of,
        sensitivity_ceiling=SURFACE_CEILINGS[request.surface],
    )
