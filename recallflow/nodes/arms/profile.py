"""Arm: the user's durable beliefs, for a turn that asks what the memory holds of the user.

"What do you know about me?" holds no word of the beliefs it asks for, so the other arms
rank them nowhere, or far below unrelated text in meaning. A text query that reads as
such a question (:func:`recallflow.core.profile.profile_types`) is answered as a session's
opening is, with no query: this arm returns the beliefs of the durable types it asks for,
by the snapshot's pre-rank, and the floor keeps them by the score floor alone. It asks the
store nothing for any other query (see "Arms" in docs/architecture.md).
"""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.core.profile import profile_types as asked_types
from recallflow.models.request import RecallRequest
from recallflow.models.result import Arm, ArmResult
from recallflow.models.stages import HardFilter
from recallflow.models.store import BeliefType
from recallflow.nodes.arms.runner import run_durable
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch

#: The arm's result for a turn that does not ask about the user (most turns): one value,
#: as a result is never changed.
_NOT_ASKED = ArmResult(arm=Arm.PROFILE)


@tag(stage="query_forming")
def profile_types(query_texts: tuple[str, ...], policy: RetrievalPolicy) -> tuple[BeliefType, ...]:
    """The durable types the turn asks for as a whole: those of the first text query that
    asks what the memory holds of the user, none when none does (or with
    ``profile_requests`` off)."""
    if not policy.profile_requests or not query_texts:
        return ()
    durable = policy.sessions.durable_types
    for text in query_texts:
        if types := asked_types(text, durable):
            return types
    return ()


@tag(stage="arm", searches="profile_types")
def profile_hits(
    hard_filter: HardFilter,
    profile_types: tuple[BeliefType, ...],
    belief_search: BeliefSearch,
    asked_request: RecallRequest,
    policy: RetrievalPolicy,
) -> ArmResult:
    """The beliefs of the asked durable types that pass the filter, by the snapshot
    core's pre-rank (beliefs of the request's project or of none first, then confidence
    × authority factor); nothing, without asking the store, when none is asked for."""
    if not profile_types:
        return _NOT_ASKED
    return run_durable(
        Arm.PROFILE, profile_types, asked_request.project, hard_filter, belief_search, policy
    )
