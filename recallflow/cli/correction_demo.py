"""The demo's correction round trip: recall, reject a rendered belief as changed (with its
replacement), recall again (see "Feedback and corrections" in docs/architecture.md).

Re-running the demo finds the correction already made and just shows the recall after it;
a recall that does not render the belief (an embedder under which it does not clear the
floor) says so.
"""

from __future__ import annotations

from recallflow.cli import demo
from recallflow.errors import NotFoundError
from recallflow.memory import Memory
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.store import LifecycleState

REJECTED = "b-mob-flags"
REPLACEMENT = {
    "id": "b-mob-flags-unleash",
    "tenant_id": demo.TENANT,
    "principal_id": demo.PRINCIPAL,
    "statement": "Feature flags in mobile-app come from a self-hosted Unleash server.",
    "subject": "feature-flags",
    "entities": ["unleash", "feature-flags"],
    "scope": "project",
    "origin_project": demo.MOBILE,
    "source_authority": "user_stated",
    "confidence": 0.9,
}


def _recall(memory: Memory) -> tuple[str, tuple[str, ...], str]:
    result = memory.recall(
        RecallRequest(
            tenant_id=demo.TENANT,
            principal_id=demo.PRINCIPAL,
            project=demo.MOBILE,
            working_state=WorkingState(goal="Turn on the new checkout behind a feature flag"),
        )
    )
    return result.trace_id, result.rendered_ids, result.block


def correction_round_trip(memory: Memory) -> None:
    """Print a recall, a typed rejection from its trace, and the recall after it."""
    print("correction round trip: 'Turn on the new checkout behind a feature flag'")
    trace_id, before, block = _recall(memory)
    if REJECTED in before:
        print(block)
        rejection = memory.reject(
            demo.TENANT,
            demo.PRINCIPAL,
            trace_id,
            REJECTED,
            "changed",
            replacement=REPLACEMENT,
            note="we moved off LaunchDarkly",
        )
        print(
            f"rejected [{REJECTED}] from trace {trace_id} as '{rejection.kind.value}': now "
            f"{rejection.belief.state.value}, superseded by [{rejection.replacement_id}]"
        )
        _, after, block = _recall(memory)
        print(block)
        print(f"rendered before: {', '.join(before)}\nrendered after:  {', '.join(after)}")
    elif _corrected(memory):
        print(f"[{REJECTED}] was corrected in an earlier run; the recall after it:")
        print(block)
    else:
        print(
            f"[{REJECTED}] is not in this recall's block (it did not clear the floor with"
            f" this store's embedder), so there is nothing to reject from its trace:"
        )
        print(block)


def _corrected(memory: Memory) -> bool:
    """Whether the rejected belief no longer holds: an earlier run superseded it (or it
    was forgotten since)."""
    try:
        belief = memory.beliefs.get(demo.TENANT, demo.PRINCIPAL, REJECTED)
    except NotFoundError:
        return True
    return belief.state is not LifecycleState.ACTIVE
