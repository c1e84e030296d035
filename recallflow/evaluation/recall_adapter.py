"""How the harness calls recallflow's in-turn recall (``Memory.recall``).

Cross-project recall is switched off for the transfer-lift measurement by passing a
policy with ``cross_project = False`` (see "Transfer across projects" in
docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ConfigDict

from recallflow.memory import Memory
from recallflow.models.request import RecallRequest
from recallflow.models.result import RecallResult
from recallflow.policy import DEFAULT_POLICY

RecallFn = Callable[[RecallRequest, bool], RecallResult]

#: The policy of the "cross-project off" half of the transfer-lift measurement.
NO_TRANSFER_POLICY = DEFAULT_POLICY.model_copy(update={"cross_project": False})


class RecallAccess(BaseModel):
    """What of recall the harness uses, as the report states it."""

    model_config = ConfigDict(frozen=True)

    available: bool
    lift_supported: bool
    note: str


def recall_access(memory: Memory) -> tuple[RecallFn, RecallAccess]:
    """A ``(request, cross_project) -> result`` callable over ``memory.recall``."""

    def recall(request: RecallRequest, cross_project: bool) -> RecallResult:
        policy = DEFAULT_POLICY if cross_project else NO_TRANSFER_POLICY
        return memory.recall(request, policy=policy)

    note = "transfer lift: cross-project off via policy.cross_project = False"
    return recall, RecallAccess(available=True, lift_supported=True, note=note)
