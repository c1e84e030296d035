"""Arm: the beliefs of a period the query names.

A question that says when ("what did she do in May 2023?") is about what was said or
became true then, and the words of the answer need not be the question's words, so the
other arms may rank it nowhere. This arm returns the beliefs whose world time falls in
one of the periods the query names (``query_periods``), nearest in meaning first; it asks
the store nothing when the query names no period (see "Arms" in docs/architecture.md).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hamilton.function_modifiers import tag

from recallflow.core.query_forming import Period
from recallflow.models.result import Arm, ArmResult
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import run_arm
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch


@tag(stage="arm", searches="query_periods")
def period_hits(
    hard_filter: HardFilter,
    query_periods: tuple[Period, ...],
    query_vectors: npt.NDArray[np.float32],
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> ArmResult:
    """Beliefs whose world time falls in a period the query names, nearest first."""
    if not query_periods:
        return ArmResult(arm=Arm.PERIOD)
    limits = policy.limits
    return run_arm(
        Arm.PERIOD,
        lambda: belief_search.in_period(hard_filter, query_periods, query_vectors, limits),
        limits.timeout_ms,
    )
