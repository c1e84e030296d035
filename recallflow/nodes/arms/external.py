"""Arm: an external provider behind the :class:`~recallflow.ports.ExternalProvider` port.
Off by default; a provider that fails or is slow degrades the recall, never fails it."""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.models.result import Arm, ArmResult, RecallQuery
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import run_guarded_arm
from recallflow.policy import RetrievalPolicy
from recallflow.ports import ExternalProvider, RawHits


@tag(stage="arm")
def external_hits(
    hard_filter: HardFilter,
    recall_queries: tuple[RecallQuery, ...],
    external_provider: ExternalProvider | None,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Belief ids an external provider suggests (loaded and hard-filtered again later)."""
    limits = policy.limits
    if external_provider is None:
        return ArmResult(arm=Arm.EXTERNAL, error="no external provider configured")
    provider = external_provider

    def search() -> RawHits:
        return provider.search(hard_filter, recall_queries, limits.per_arm)

    return run_guarded_arm(Arm.EXTERNAL, search, limits.timeout_ms)
