"""How the harness calls recallflow's in-turn recall (issue 3's ``Memory.recall``).

The harness codes against the contract ``Memory.recall(request: RecallRequest) ->
RecallResult``. When the method does not exist yet, recallflow's rows and the gates
that need recalls are reported as *not built*. Cross-project recall is switched off for
the transfer-lift measurement through the policy's ``cross_project`` field, when
``recall`` accepts a ``policy`` argument; otherwise lift is reported as not measured.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict

from recallflow.memory import Memory
from recallflow.recall_models import RecallRequest, RecallResult

RecallFn = Callable[[RecallRequest, bool], RecallResult]


class RecallAccess(BaseModel):
    """What of recall the harness can use."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    available: bool
    lift_supported: bool
    note: str


def recall_access(memory: Memory) -> tuple[RecallFn | None, RecallAccess]:
    """A ``(request, cross_project) -> result`` callable over ``memory.recall``, or None."""
    method: Any = getattr(memory, "recall", None)
    if method is None or not callable(method):
        return None, RecallAccess(
            available=False,
            lift_supported=False,
            note="Memory.recall does not exist yet (issue 3): recallflow not measured",
        )
    try:
        params = inspect.signature(method).parameters
    except (TypeError, ValueError):
        params = {}  # type: ignore[assignment]
    lift_supported = "policy" in params
    off_policy: Any = None
    if lift_supported:
        from recallflow.policy import DEFAULT_POLICY

        off_policy = DEFAULT_POLICY.model_copy(update={"cross_project": False})

    def recall(request: RecallRequest, cross_project: bool) -> RecallResult:
        if cross_project or off_policy is None:
            result = method(request)
        else:
            result = method(request, policy=off_policy)
        if not isinstance(result, RecallResult):
            raise TypeError(f"Memory.recall returned {type(result).__name__}, not RecallResult")
        return result

    note = (
        "transfer lift: cross-project off via policy.cross_project = False"
        if lift_supported
        else "transfer lift not measured: Memory.recall takes no policy switch"
    )
    return recall, RecallAccess(available=True, lift_supported=lift_supported, note=note)
