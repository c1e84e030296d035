"""Arm: an external provider behind the :class:`ExternalProvider` port.

Off by default; a provider that fails or is slow degrades the recall, never fails it. A
provider answers with ids, and may name any belief: ids the hard filter excludes (another
principal's, one above the surface's ceiling, one not valid at ``as_of``) or that do not
exist are dropped here, through the :class:`BeliefSearch` port, before they become hits,
so the trace never records them.
"""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.models.result import Arm, ArmResult, RecallQuery
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import run_guarded_arm
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch, ExternalProvider, RawHits


@tag(stage="arm")
def external_hits(
    hard_filter: HardFilter,
    recall_queries: tuple[RecallQuery, ...],
    external_provider: ExternalProvider | None,
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Belief ids an external provider suggests that pass the hard filter, in its order."""
    limits = policy.limits
    if external_provider is None:
        return ArmResult(arm=Arm.EXTERNAL, error="no external provider configured")
    provider = external_provider

    def search() -> RawHits:
        suggested = provider.search(hard_filter, recall_queries, limits.per_arm)
        visible = {b.id for b in belief_search.load(hard_filter, [i for i, _ in suggested])}
        return [(belief_id, score) for belief_id, score in suggested if belief_id in visible]

    return run_guarded_arm(Arm.EXTERNAL, search, limits.timeout_ms, owner=provider)
