"""The record a lifecycle write leaves, as a user reads it back, on the real embedded
server: a belief rejected as never true after a later belief was set to replace it (see
"Typed rejections" in docs/corrections.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from recallflow import ConflictError, LifecycleState, Memory
from tests.helpers import belief, patient_policy, request

GOAL = "Which shell does the user prefer?"
LATER = datetime(2099, 1, 1, tzinfo=UTC)
OLD = "The user prefers the fish shell."


def shell(tenant: str, **fields: Any) -> dict[str, Any]:
    return belief(tenant, **{"subject": "shell", "entities": ["shell"],
                             "source_episode_id": "e-shell", **fields})  # fmt: skip


def episode(memory: Memory, tenant: str) -> None:
    memory.episodes.add(
        {
            "id": "e-shell",
            "tenant_id": tenant,
            "principal_id": "p1",
            "occurred_at": "2025-01-01T00:00:00Z",
            "content": "shell talk",
        }
    )


def rendered_statements(memory: Memory, tenant: str, **at: Any) -> set[str]:
    result = memory.recall(request(tenant, goal=GOAL, **at), policy=patient_policy())
    return {memory.beliefs.get(tenant, "p1", i).statement for i in result.rendered_ids}


def test_a_belief_rejected_as_never_true_is_out_of_its_replacement_chain(
    memory: Memory, tenant: str
) -> None:
    """Superseded by a belief valid only later, the old belief still holds and is
    recalled; rejected as not true, it never held: it is retired, no belief replaced it,
    and neither the store nor a re-derivation of its episode brings it back."""
    episode(memory, tenant)
    memory.beliefs.add(shell(tenant, id="b-fish", statement=OLD))
    memory.beliefs.supersede(
        "b-fish",
        shell(tenant, id="b-zsh", statement="The user prefers the zsh shell.", valid_from=LATER),
    )
    traced = memory.recall(request(tenant, goal=GOAL), policy=patient_policy())
    assert "b-fish" in traced.rendered_ids
    memory.reject(tenant, "p1", traced.trace_id, "b-fish", "not_true")

    stored = memory.beliefs.get(tenant, "p1", "b-fish")
    assert (stored.state, stored.superseded_by) == (LifecycleState.RETIRED, None)
    assert memory.beliefs.history(tenant, "p1", "b-fish").successors == ()
    assert [p.id for p in memory.beliefs.history(tenant, "p1", "b-zsh").predecessors] == []
    assert OLD not in rendered_statements(memory, tenant)

    again = shell(tenant, id="r-fish", statement=OLD, recorded_at=datetime.now(UTC),
                  entities=["shell", "fish"])  # fmt: skip
    memory.rederive(tenant, "p1", [again])
    assert memory.beliefs.get(tenant, "p1", "r-fish").state is LifecycleState.RETIRED
    assert OLD not in rendered_statements(memory, tenant)
    assert OLD not in rendered_statements(memory, tenant, as_of=datetime(2098, 1, 1, tzinfo=UTC),
                                          known_as_of=datetime.now(UTC))  # fmt: skip


def test_a_retired_belief_cannot_be_superseded_back_to_life(memory: Memory, tenant: str) -> None:
    """An end never undoes another: superseded, a retired belief would hold again at every
    ``as_of`` before its successor took over."""
    episode(memory, tenant)
    memory.beliefs.add(shell(tenant, id="b-fish", statement=OLD))
    memory.retire(tenant, "p1", "b-fish", reason="never true")
    successor = shell(tenant, id="b-zsh", statement="The user prefers the zsh shell.",
                      valid_from=LATER)  # fmt: skip
    with pytest.raises(ConflictError) as raised:
        memory.beliefs.supersede("b-fish", successor)
    assert (raised.value.field, raised.value.item_id) == ("supersedes", "b-zsh")
    assert [b.id for b in memory.beliefs.list(tenant, "p1")] == ["b-fish"]
    assert memory.beliefs.get(tenant, "p1", "b-fish").state is LifecycleState.RETIRED
    assert OLD not in rendered_statements(memory, tenant)
