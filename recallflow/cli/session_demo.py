"""The session part of ``recallflow demo``: a session's prefix, one in-turn recall, and one
correction after a mid-session supersession (see "Sessions" in docs/architecture.md).

The supersession is a row-level edit of the demo memory: each run replaces the demo
principal's current editor belief with a new one, so every run has a change to correct
(and the demo memory keeps one more link of that supersession chain).
"""

from __future__ import annotations

from datetime import UTC, datetime

from recallflow.adapters.postgres.row_edits import RowEdits
from recallflow.memory import Memory
from recallflow.models.request import WorkingState
from recallflow.models.store import BeliefDraft, LifecycleState

#: The subject whose belief the demo supersedes mid-session, and what it alternates between.
EDITOR_SUBJECT = "editor"
_EDITORS = (
    "Ada switched from Neovim to Helix for everyday editing.",
    "Ada is back on Neovim with the LazyVim distribution.",
)


def _indent(text: str) -> str:
    return "\n".join(f"  {line}" if line else "" for line in text.splitlines())


def show_session(memory: Memory, tenant: str, principal: str, project: str) -> None:
    """Open a session with no goal, recall once in-turn, supersede a snapshot belief,
    and recall again: the prefix is unchanged and the next block carries the correction."""
    session = memory.open_session(tenant, principal, project=project)
    print(
        f"session {session.id} ({session.kind.value}; {len(session.snapshot_ids)} snapshot "
        f"beliefs of at most {session.info.max_items} items / {session.info.max_tokens} tokens; "
        f"watermark {session.watermark.isoformat(timespec='seconds')})"
    )
    print("cached prefix (sha256 " + session.prefix_sha256[:16] + "…), frozen for the session:")
    print(_indent(session.prefix_text))
    print()
    goal = WorkingState(goal="Set up the editor config for the billing-api repository")
    turn = session.recall(goal)
    print(f"turn 1, goal {goal.goal!r}:")
    print(_indent(turn.block or "(empty: nothing new cleared the floor)"))
    print()

    live = [
        b
        for b in memory.beliefs.list(tenant, principal)
        if b.subject == EDITOR_SUBJECT and b.state is LifecycleState.ACTIVE
    ]
    held = [b for b in live if b.id in session.snapshot_ids]
    if not held:
        print("(no editor belief in the snapshot to supersede)")
        return
    old = held[0]
    chain = sum(1 for b in memory.beliefs.list(tenant, principal) if b.subject == EDITOR_SUBJECT)
    now = datetime.now(UTC)
    new_id = f"b-user-editor-r{chain}"
    memory.beliefs.add(
        BeliefDraft(
            id=new_id,
            tenant_id=tenant,
            principal_id=principal,
            statement=_EDITORS[(chain - 1) % 2],
            subject=EDITOR_SUBJECT,
            belief_type=old.belief_type,
            scope=old.scope,
            origin_project=old.origin_project,
            portability=old.portability,
            source_authority="user_stated",
            confidence=0.9,
            valid_from=now,
            supersedes=old.id,
        )
    )
    RowEdits(memory.pool, tenant, principal).supersede(old.id, new_id, now)
    print(f"mid-session: [{old.id}] superseded by [{new_id}] (a row-level edit)")
    print()
    turn = session.recall(goal)
    print("turn 2, same goal — the prefix is unchanged, the block corrects it:")
    print(_indent(turn.block))
    resumed = memory.resume_session(tenant, principal, session.id)
    same = "identical" if resumed.prefix == session.prefix else "DIFFERENT"
    print(f"resumed prefix: {same} bytes (sha256 {resumed.prefix_sha256[:16]}…)")
