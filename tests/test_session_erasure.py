"""Forgetting inside an open session, on the real embedded server: whatever the session's
agent has read of a belief — in the cached prefix, in an earlier turn's block, in a
correction line — is followed by a ``forgotten`` line once the belief is forgotten, and a
belief written again after it was forgotten is told as it now stands, to the session
object that sent the prefix and to a resumed one alike, while the stored prefix never
holds the erased words again (see "Forgetting" in docs/corrections.md)."""

from __future__ import annotations

from typing import Any

from recallflow import Memory
from recallflow.models.result import CorrectionKind
from tests.helpers import belief, patient_policy

PATIENT = patient_policy()
SECRET = "Ada's locker code is 7713 at the Quarry Street gym."


def durable(tenant: str, bid: str, statement: str, **fields: Any) -> dict[str, Any]:
    return belief(
        tenant,
        "ada",
        id=bid,
        statement=statement,
        subject=bid,
        belief_type="preference",
        source_authority="user_stated",
        **fields,
    )


def told(turn: Any) -> list[tuple[str, CorrectionKind]]:
    return [(c.belief_id, c.kind) for c in turn.trace.corrections]


def test_a_belief_shown_in_a_turns_block_is_told_forgotten_in_the_next_turn(
    memory: Memory, tenant: str
) -> None:
    """The prefix never held it: it was written after the watermark and a turn's block
    showed it. Forgotten, the agent still has that block in its context, so the next turn
    names the line to drop, once, without its words; a resumed session is not told again."""
    memory.beliefs.add(durable(tenant, "b-shell", "Ada's shell is zsh."))
    session = memory.open_session(tenant, "ada", policy=PATIENT)
    assert session.snapshot_ids == ("b-shell",)
    memory.beliefs.add(durable(tenant, "b-locker", SECRET, entities=["locker"]))
    shown = session.recall({"goal": "what is the locker code at the gym", "entities": ["locker"]})
    assert "b-locker" in shown.rendered_ids and SECRET in shown.block

    memory.forget_belief(tenant, "ada", "b-locker")

    after = session.recall({"goal": "which shell"})
    assert told(after) == [("b-locker", CorrectionKind.FORGOTTEN)]
    assert "- [b-locker] forgotten: do not use it" in after.block
    assert "Quarry Street" not in after.block
    assert told(session.recall({"goal": "which shell"})) == []
    resumed = memory.resume_session(tenant, "ada", session.id, policy=PATIENT)
    assert told(resumed.recall({"goal": "which shell"})) == []


def test_a_replacement_a_correction_told_is_told_forgotten_too(memory: Memory, tenant: str) -> None:
    """A correction line that quoted a replacement put its words in the agent's context as
    surely as a block line did."""
    memory.beliefs.add(durable(tenant, "b-gym", "Ada trains at the Harbour gym."))
    session = memory.open_session(tenant, "ada", policy=PATIENT)
    memory.supersede("b-gym", durable(tenant, "b-gym-2", SECRET))
    corrected = session.recall({"goal": "which shell"})
    assert told(corrected) == [("b-gym", CorrectionKind.SUPERSEDED)]
    assert SECRET in corrected.block and "b-gym-2" not in corrected.rendered_ids

    memory.forget_belief(tenant, "ada", "b-gym-2")

    after = session.recall({"goal": "which shell"})
    assert ("b-gym-2", CorrectionKind.FORGOTTEN) in told(after)
    assert "Quarry Street" not in after.block


def test_a_forgotten_belief_written_again_is_told_as_it_stands_to_every_session_object(
    memory: Memory, tenant: str
) -> None:
    """The prefix held the belief and a turn flagged it. It is forgotten, then written again
    under its id, unflagged: the agent's last word on it was "flagged" (the session object
    that sent the prefix) or "[erased]" (a session resumed from the stored prefix), and
    either way the next turn tells it whole, once. The stored prefix never reads it again."""
    memory.beliefs.add_many(
        [durable(tenant, "b-locker", SECRET), durable(tenant, "b-shell", "Ada's shell is zsh.")]
    )
    session = memory.open_session(tenant, "ada", policy=PATIENT)
    assert "b-locker" in session.snapshot_ids
    opened = memory.recall(
        {
            "tenant_id": tenant,
            "principal_id": "ada",
            "working_state": {"goal": "locker code at the gym", "entities": ["b-locker"]},
        },
        policy=PATIENT,
    )
    memory.reject(tenant, "ada", opened.trace_id, "b-locker", "unspecified")
    assert told(session.recall({"goal": "which shell"})) == [("b-locker", CorrectionKind.FLAGGED)]

    memory.forget_belief(tenant, "ada", "b-locker")
    memory.beliefs.add(durable(tenant, "b-locker", SECRET))

    resumed = memory.resume_session(tenant, "ada", session.id, policy=PATIENT)
    assert "Quarry Street" not in resumed.prefix.decode()
    again = session.recall({"goal": "which shell"})
    assert told(again) == [("b-locker", CorrectionKind.RESTORED)]
    assert f"- [b-locker] holds again: {SECRET}" in again.block
    assert told(resumed.recall({"goal": "which shell"})) == []
    assert (
        "Quarry Street"
        not in memory.resume_session(tenant, "ada", session.id, policy=PATIENT).prefix.decode()
    )


def test_a_resumed_session_is_told_a_belief_written_again_holds(
    memory: Memory, tenant: str
) -> None:
    """Resumed after the erasure, the session's prefix line reads ``[erased]``; the belief
    written again is new knowledge after the watermark and is told whole, as holding."""
    memory.beliefs.add(durable(tenant, "b-locker", SECRET))
    session = memory.open_session(tenant, "ada", policy=PATIENT)
    memory.forget_belief(tenant, "ada", "b-locker")
    memory.beliefs.add(durable(tenant, "b-locker", SECRET))
    resumed = memory.resume_session(tenant, "ada", session.id, policy=PATIENT)
    assert "- [b-locker] (" in resumed.prefix.decode() and SECRET not in resumed.prefix.decode()
    turn = resumed.recall({"goal": "what is the locker code"})
    assert told(turn) == [("b-locker", CorrectionKind.RESTORED)]
    assert f"- [b-locker] holds again: {SECRET}" in turn.block


def test_a_shown_belief_written_again_and_forgotten_again_is_told_forgotten(
    memory: Memory, tenant: str
) -> None:
    """Shown in a turn, forgotten, written again under its id before the next turn (so
    that turn has nothing to tell: it holds again), then forgotten again: the agent still
    holds the line the first turn showed, and is told to drop it."""
    memory.beliefs.add(durable(tenant, "b-shell", "Ada's shell is zsh."))
    session = memory.open_session(tenant, "ada", policy=PATIENT)
    memory.beliefs.add(durable(tenant, "b-locker", SECRET, entities=["locker"]))
    shown = session.recall({"goal": "what is the locker code at the gym", "entities": ["locker"]})
    assert "b-locker" in shown.rendered_ids

    memory.forget_belief(tenant, "ada", "b-locker")
    memory.beliefs.add(durable(tenant, "b-locker", SECRET, entities=["locker"]))
    assert told(session.recall({"goal": "which shell"})) == []
    memory.forget_belief(tenant, "ada", "b-locker")

    after = session.recall({"goal": "which shell"})
    assert told(after) == [("b-locker", CorrectionKind.FORGOTTEN)]
    assert "Quarry Street" not in after.block
