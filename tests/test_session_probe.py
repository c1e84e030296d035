"""Sessions against conflicts, erasure and locks, on the real embedded server: what a
session's agent is told agrees with what a recall in the session's project shows, an
erased belief's words leave every rendering of the session, and a turn never waits
without bound for its session row (see docs/sessions.md and "Forgetting" in
docs/corrections.md)."""

from __future__ import annotations

from typing import Any

import pytest

from recallflow import Memory, NotFoundError
from recallflow.models.result import CorrectionKind
from tests.helpers import belief, patient_policy

PATIENT = patient_policy()


def indent(tenant: str, bid: str, statement: str, **fields: Any) -> dict[str, Any]:
    """A user-stated preference on the one subject, "indent"."""
    return belief(
        tenant,
        "ada",
        **{
            "id": bid,
            "statement": statement,
            "subject": "indent",
            "belief_type": "preference",
            "source_authority": "user_stated",
            **fields,
        },
    )


def conflict(tenant: str, set_id: str, *sides: tuple[str, str]) -> list[dict[str, Any]]:
    return [
        indent(tenant, bid, statement, state="conflicted", conflict_set_id=set_id)
        for bid, statement in sides
    ]


def told(turn: Any) -> list[tuple[str, CorrectionKind]]:
    return [(c.belief_id, c.kind) for c in turn.trace.corrections]


TABS = ("b-tabs", "Ada indents with tabs.")
SPACES = ("b-spaces", "Ada indents with spaces.")
GOAL = {"goal": "how does Ada indent her code"}


def test_a_conflicts_side_rejected_as_not_here_before_open_disputes_nothing_in_the_session(
    memory: Memory, tenant: str
) -> None:
    """Rejected as not here in the session's project before the session opened, one side
    of a conflict is not loaded there, so the prefix shows the other side as a plain
    belief; the first turn must not tell the agent it is "now disputed" by nobody."""
    memory.beliefs.add_many(conflict(tenant, "cs-indent", TABS, SPACES))
    asked = {"tenant_id": tenant, "principal_id": "ada", "project": "web", "working_state": GOAL}
    shown = memory.recall(asked, policy=PATIENT)
    memory.reject(tenant, "ada", shown.trace_id, "b-spaces", "not_here")

    session = memory.open_session(tenant, "ada", project="web", policy=PATIENT)
    assert session.snapshot_ids == ("b-tabs",)
    assert "conflict" not in session.prefix_text.split("<memory>")[-1]

    turn = session.recall(GOAL)
    assert told(turn) == []
    assert "disputed" not in turn.block


def test_a_conflicts_side_rejected_as_not_here_after_open_resolves_it_in_the_session(
    memory: Memory, tenant: str
) -> None:
    """Rejected as not here after the session opened, the side is told excluded, and the
    other side is told it holds undisputed, as a recall in the project now shows it."""
    memory.beliefs.add_many(conflict(tenant, "cs-indent", TABS, SPACES))
    session = memory.open_session(tenant, "ada", project="web", policy=PATIENT)
    assert set(session.snapshot_ids) == {"b-tabs", "b-spaces"}
    asked = {"tenant_id": tenant, "principal_id": "ada", "project": "web", "working_state": GOAL}
    shown = memory.recall(asked, policy=PATIENT)
    memory.reject(tenant, "ada", shown.trace_id, "b-spaces", "not_here")
    after = memory.recall(asked, policy=PATIENT)
    assert "conflict" not in after.block and "b-tabs" in after.rendered_ids

    turn = session.recall(GOAL)
    assert sorted(told(turn)) == [
        ("b-spaces", CorrectionKind.EXCLUDED),
        ("b-tabs", CorrectionKind.RESOLVED),
    ]


SECRET = "Ada's locker code is 7713 at the Quarry Street gym."


def test_an_open_session_object_hands_out_no_erased_words_after_forget(
    memory: Memory, tenant: str
) -> None:
    """The session object that sent the prefix still held it in memory: after
    ``forget_belief`` through the same handle, its prefix, its stored view and its snapshot
    must not hand the erased statement out again, and its prefix is the stored one a
    resume reads; the next turn tells the belief forgotten, once."""
    memory.beliefs.add_many(
        [indent(tenant, "b-locker", SECRET, subject="locker"), indent(tenant, *TABS)]
    )
    session = memory.open_session(tenant, "ada", policy=PATIENT)
    assert SECRET in session.prefix_text

    memory.forget_belief(tenant, "ada", "b-locker")

    resumed = memory.resume_session(tenant, "ada", session.id, policy=PATIENT)
    assert session.prefix == resumed.prefix and session.prefix_sha256 == resumed.prefix_sha256
    assert "Quarry Street" not in session.prefix_text
    assert "Quarry Street" not in session.info.model_dump_json()
    assert session.snapshot is None or "Quarry Street" not in session.snapshot.block
    assert "- [b-locker] (" in session.prefix_text  # the line keeps its id: [erased]
    turn = session.recall(GOAL)
    assert told(turn) == [("b-locker", CorrectionKind.FORGOTTEN)]
    assert told(session.recall(GOAL)) == []

    memory.forget(tenant, "ada")  # the whole principal, its sessions with it
    with pytest.raises(NotFoundError):
        session.prefix  # noqa: B018 - the property is what is tested


def test_a_session_object_reads_an_erasure_by_another_handle_at_its_next_turn(
    memory: Memory, tenant: str, store_home: Any
) -> None:
    """Erased through another handle (another process, say), the object learns of it at
    its next turn, and from then on hands out the prefix the erasure left."""
    from recallflow import open_memory
    from recallflow.adapters.embedders.hashing import HashingEmbedder

    memory.beliefs.add_many(
        [indent(tenant, "b-locker", SECRET, subject="locker"), indent(tenant, *TABS)]
    )
    session = memory.open_session(tenant, "ada", policy=PATIENT)
    with open_memory(home=store_home, embedder=HashingEmbedder()) as other:
        other.forget_belief(tenant, "ada", "b-locker")

    turn = session.recall(GOAL)
    assert told(turn) == [("b-locker", CorrectionKind.FORGOTTEN)]
    assert "Quarry Street" not in session.prefix_text
    assert session.prefix == memory.resume_session(tenant, "ada", session.id, policy=PATIENT).prefix
    assert told(session.recall(GOAL)) == []


def test_a_turn_waits_for_its_locked_session_row_only_as_long_as_the_policy_says(
    memory: Memory, tenant: str
) -> None:
    """Another turn of the session, or an erasure of its principal, holds the session row
    until it commits; one that never does (a process stuck mid-transaction) must not hold
    the turn forever. Past ``sessions.lock_timeout_ms`` the turn is a
    ``WriteCancelledError`` and records nothing: the correction it would have told is
    told by the next turn, once."""
    import threading

    import psycopg

    from recallflow.errors import WriteCancelledError

    sessions = PATIENT.sessions.model_copy(update={"lock_timeout_ms": 300})
    policy = PATIENT.model_copy(update={"sessions": sessions})
    memory.beliefs.add_many([indent(tenant, *TABS), indent(tenant, *SPACES, subject="spaces")])
    session = memory.open_session(tenant, "ada", policy=policy)
    memory.retire(tenant, "ada", "b-spaces")
    outcome: list[BaseException | None] = []

    def turn() -> None:
        try:
            session.recall(GOAL)
            outcome.append(None)
        except BaseException as exc:  # the thread hands its outcome back
            outcome.append(exc)

    with psycopg.connect(memory.uri, autocommit=True) as holder:
        with holder.transaction():
            holder.execute(
                "SELECT 1 FROM sessions WHERE tenant_id = %s AND id = %s FOR UPDATE",
                (tenant, session.id),
            )
            runner = threading.Thread(target=turn, daemon=True)
            runner.start()
            runner.join(timeout=20)
            finished = not runner.is_alive()
        runner.join(timeout=60)  # the lock is released: a blocked turn goes on
    assert finished, "the turn waited for the session row past the policy's bound"
    assert len(outcome) == 1 and isinstance(outcome[0], WriteCancelledError)
    assert session.id in str(outcome[0])

    again = session.recall(GOAL)
    assert told(again) == [("b-spaces", CorrectionKind.RETIRED)]
    assert told(session.recall(GOAL)) == []


def test_an_open_waits_for_an_erasure_only_as_long_as_the_policy_says(
    memory: Memory, tenant: str
) -> None:
    """An open stores its session only once no erasure of the principal runs (the erasure
    holds the principal's erasure fence until it commits). One that never commits must not
    hold the open forever: past ``sessions.lock_timeout_ms`` it is a
    ``WriteCancelledError``, and no session is stored."""
    import threading

    import psycopg

    from recallflow.adapters.postgres.locks import erasure_fence_key
    from recallflow.errors import WriteCancelledError

    sessions = PATIENT.sessions.model_copy(update={"lock_timeout_ms": 300})
    policy = PATIENT.model_copy(update={"sessions": sessions})
    memory.beliefs.add(indent(tenant, *TABS))
    outcome: list[BaseException | None] = []

    def open_one() -> None:
        try:
            memory.open_session(tenant, "ada", policy=policy)
            outcome.append(None)
        except BaseException as exc:  # the thread hands its outcome back
            outcome.append(exc)

    with psycopg.connect(memory.uri, autocommit=True) as erasure:
        with erasure.transaction():  # what a running erasure holds
            erasure.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", erasure_fence_key(tenant, "ada")
            )
            runner = threading.Thread(target=open_one, daemon=True)
            runner.start()
            runner.join(timeout=20)
            finished = not runner.is_alive()
        runner.join(timeout=60)
    assert finished, "the open waited for the erasure past the policy's bound"
    assert len(outcome) == 1 and isinstance(outcome[0], WriteCancelledError)
    with memory.pool.connection() as conn:
        stored = conn.execute("SELECT count(*) FROM sessions WHERE tenant_id = %s", (tenant,))
        assert stored.fetchone() == (0,)
    assert memory.open_session(tenant, "ada", policy=policy).snapshot_ids == ("b-tabs",)


def _stuck_turn(memory: Memory, tenant: str, session_id: str, call: Any) -> tuple[bool, Any]:
    """Run ``call`` in a thread while another transaction holds the session's row, as a
    turn stuck mid-transaction would; return whether ``call`` finished before the row was
    let go, and what it returned or raised."""
    import threading

    import psycopg

    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # the thread hands its outcome back
            outcome.append(exc)

    with psycopg.connect(memory.uri, autocommit=True) as holder:
        with holder.transaction():
            holder.execute(
                "SELECT 1 FROM sessions WHERE tenant_id = %s AND id = %s FOR UPDATE",
                (tenant, session_id),
            )
            runner = threading.Thread(target=run, daemon=True)
            runner.start()
            runner.join(timeout=20)
            finished = not runner.is_alive()
            if finished:
                # While the turn is still stuck, the principal's other writes go through:
                # an erasure that gave up holds none of the principal's locks any more.
                memory.beliefs.add(indent(tenant, "b-later", "Ada pairs on Fridays.",
                                          subject="pairing"))  # fmt: skip
        runner.join(timeout=60)  # the row is let go: a blocked call goes on
    return finished, outcome[0] if outcome else None


def _short_wait() -> Any:
    sessions = PATIENT.sessions.model_copy(update={"lock_timeout_ms": 300})
    return PATIENT.model_copy(update={"sessions": sessions})


def test_ending_a_session_waits_for_a_turn_only_as_long_as_the_policy_says(
    memory: Memory, tenant: str
) -> None:
    """``Session.end`` locks the session row, which a turn holds for its whole recall;
    a turn that never lets go (a process stuck mid-transaction) must not hold the end
    forever: past ``sessions.lock_timeout_ms`` it is a ``WriteCancelledError`` naming the
    session, and no end is stored (the session still takes turns; ending it again works)."""
    from recallflow.errors import WriteCancelledError

    policy = _short_wait()
    memory.beliefs.add(indent(tenant, *TABS))
    session = memory.open_session(tenant, "ada", policy=policy)

    finished, raised = _stuck_turn(memory, tenant, session.id, session.end)

    assert finished, "the end waited for the session row past the policy's bound"
    assert isinstance(raised, WriteCancelledError), raised
    assert session.id in str(raised) and "not ended" in str(raised)
    assert session.recall(GOAL).block  # not ended: it still takes turns
    ended = session.end()
    assert memory.end_session(tenant, "ada", session.id) == ended


@pytest.mark.parametrize("scope", ["belief", "principal", "session"])
def test_an_erasure_waits_for_a_stuck_turn_only_as_long_as_the_policy_says(
    memory: Memory, tenant: str, scope: str
) -> None:
    """An erasure locks every session row of the principal (a forgotten belief's line is
    rewritten in each prefix; a whole principal's sessions are deleted) while it holds
    the principal's write lock and erasure fence. A turn stuck mid-transaction must not
    hold it forever — and, through it, every write of the principal: past
    ``sessions.lock_timeout_ms`` the erasure is a ``WriteCancelledError`` naming what it
    was to erase, nothing is erased, and the principal's writes go on meanwhile. Retried
    once the turn lets go, it erases."""
    from recallflow.errors import WriteCancelledError

    policy = _short_wait()
    memory.episodes.add(
        {"tenant_id": tenant, "principal_id": "ada", "id": "e-call", "session_id": "call",
         "occurred_at": "2026-03-01T09:00:00Z", "content": SECRET}
    )  # fmt: skip
    memory.beliefs.add_many(
        [
            indent(tenant, "b-locker", SECRET, subject="locker", source_episode_id="e-call"),
            indent(tenant, *TABS),
        ]
    )
    session = memory.open_session(tenant, "ada", policy=policy)

    def erase() -> Any:
        if scope == "belief":
            return memory.forget_belief(tenant, "ada", "b-locker", policy=policy)
        if scope == "session":  # the conversation's episode, with the belief learned in it
            return memory.forget_session(tenant, "ada", "call", with_beliefs=True, policy=policy)
        return memory.forget(tenant, "ada", policy=policy)

    finished, raised = _stuck_turn(memory, tenant, session.id, erase)

    assert finished, "the erasure waited for the session row past the policy's bound"
    assert isinstance(raised, WriteCancelledError), raised
    assert "nothing was erased" in str(raised)
    assert ("b-locker" in str(raised)) is (scope == "belief")
    assert ("session 'call'" in str(raised)) is (scope == "session")
    assert memory.beliefs.get(tenant, "ada", "b-locker").statement == SECRET
    assert SECRET in memory.resume_session(tenant, "ada", session.id, policy=policy).prefix_text
    with memory.pool.connection() as conn:
        erasures = conn.execute("SELECT count(*) FROM erasures WHERE tenant_id = %s", (tenant,))
        assert erasures.fetchone() == (0,)

    erase()  # retried once the turn let go: erased
    if scope != "principal":
        assert "Quarry Street" not in session.prefix_text
    else:
        with pytest.raises(NotFoundError):
            session.prefix  # noqa: B018 - the property is what is tested


# --- a local belief of another project is no side of a conflict here ------------------------

API_SPACES = ("b-api-spaces", "The api service indents with spaces.")


def local_to_api(tenant: str, bid: str, statement: str, set_id: str) -> dict[str, Any]:
    return indent(tenant, bid, statement, state="conflicted", conflict_set_id=set_id,
                  scope="project", origin_project="api", portability="local")  # fmt: skip


def test_a_local_side_of_another_project_disputes_nothing_in_a_recall_here(
    memory: Memory, tenant: str
) -> None:
    """A ``local`` belief does not hold outside its origin project, so it is no side of a
    conflict there: recalled in "web", the other side is a plain item — no conflict set,
    no conflicted discount — exactly as if the local one were not stored, while in "api"
    the two are the conflict they were written as."""
    memory.beliefs.add_many(
        [
            indent(tenant, *TABS, state="conflicted", conflict_set_id="cs-indent"),
            local_to_api(tenant, *API_SPACES, "cs-indent"),
        ]
    )
    asked = {"tenant_id": tenant, "principal_id": "ada", "project": "web", "working_state": GOAL}
    here = memory.recall(asked, policy=PATIENT)
    tabs = next(i for i in here.items if i.belief_id == "b-tabs")
    assert tabs.conflict_set_id is None
    assert "b-api-spaces" not in here.rendered_ids
    view = memory.explain(tenant, "ada", here.trace_id)
    assert not any(i.conflicted for i in view.items if i.belief_id == "b-tabs")

    scored = next(e for e in here.trace.scored if e.belief_id == "b-tabs")
    assert "conflicted" not in scored.breakdown.penalties

    in_api = memory.recall({**asked, "project": "api"}, policy=PATIENT)
    assert "- conflict cs-indent" in in_api.block


def test_a_session_here_is_told_nothing_of_a_local_side_of_another_project(
    memory: Memory, tenant: str
) -> None:
    """A session in "web" whose prefix shows ``b-tabs`` as a plain belief (its only other
    side is local to "api") must not be told it was "resolved" when that side is retired:
    it was never disputed here. And when the last side that does hold here leaves a
    three-way conflict, the survivor is told resolved, as a recall here then shows it
    plain, though the set is still a conflict in "api"."""
    memory.beliefs.add_many(
        [
            indent(tenant, *TABS, state="conflicted", conflict_set_id="cs-indent"),
            local_to_api(tenant, *API_SPACES, "cs-indent"),
        ]
    )
    session = memory.open_session(tenant, "ada", project="web", policy=PATIENT)
    assert session.snapshot_ids == ("b-tabs",)
    memory.retire(tenant, "ada", "b-api-spaces")
    assert told(session.recall(GOAL)) == []

    memory.beliefs.add_many(
        [
            indent(tenant, "b-tabs-2", "Ada indents with two tabs.", subject="indent-2",
                   state="conflicted", conflict_set_id="cs-2"),
            indent(tenant, "b-spaces-2", "Ada indents with two spaces.", subject="indent-2",
                   state="conflicted", conflict_set_id="cs-2"),
            local_to_api(tenant, "b-api-2", "The api service indents with two spaces.", "cs-2"),
        ]
    )  # fmt: skip
    later = memory.open_session(tenant, "ada", project="web", policy=PATIENT)
    assert "- conflict cs-2" in later.prefix_text
    memory.retire(tenant, "ada", "b-spaces-2")
    turn = later.recall({"goal": "how does Ada indent with two"})
    assert sorted(told(turn)) == [
        ("b-spaces-2", CorrectionKind.RETIRED),
        ("b-tabs-2", CorrectionKind.RESOLVED),
    ]
    asked = {"tenant_id": tenant, "principal_id": "ada", "project": "web",
             "working_state": {"goal": "how does Ada indent with two"}}  # fmt: skip
    shown = memory.recall(asked, policy=PATIENT)
    assert "- conflict" not in shown.block and "b-tabs-2" in shown.rendered_ids


def test_a_child_of_a_session_gone_with_its_principal_is_not_found(
    memory: Memory, tenant: str
) -> None:
    """After ``forget`` of the whole principal its sessions are gone, and every session
    call says so with ``NotFoundError``, as a resume does; a child run opened from a
    session object still in hand raised the database's raw foreign-key error instead,
    having run its snapshot for nothing. Its parent gone between the check and the write
    (a concurrent erasure), the write says the same; nothing is stored either way."""
    memory.beliefs.add(indent(tenant, *TABS))
    session = memory.open_session(tenant, "ada", policy=PATIENT)
    memory.forget(tenant, "ada")
    with pytest.raises(NotFoundError) as raised:
        session.child(GOAL)
    assert session.id in str(raised.value)

    memory.beliefs.add(indent(tenant, *TABS))
    again = memory.open_session(tenant, "ada", policy=PATIENT)
    store = memory._session_store
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "check_live", lambda *args: None)  # it was there when checked
        memory.forget(tenant, "ada")
        with pytest.raises(NotFoundError) as raced:
            again.child(GOAL)
    assert again.id in str(raced.value)
    with memory.pool.connection() as conn:
        rows = conn.execute("SELECT count(*) FROM sessions WHERE tenant_id = %s", (tenant,))
        assert rows.fetchone() == (0,)


def test_a_turn_needs_one_store_connection_at_a_time(memory: Memory, tenant: str) -> None:
    """A turn holds a store connection for its transaction (its session row locked)
    while its recall runs. The first turn under a policy the handle had not run turns
    with built that flow there, and recording the policy took a second store connection:
    with the others held — other sessions' turns waiting for their rows while an erasure
    of the principal runs, say — it waited for one and failed as "the store is
    unavailable". With one connection free, a turn goes through."""
    import uuid

    policy = PATIENT.model_copy(update={"name": f"fresh-{uuid.uuid4().hex[:8]}"})
    memory.beliefs.add(indent(tenant, *TABS))
    session = memory.open_session(tenant, "ada", policy=policy)
    store = memory.pool
    held = [store.getconn() for _ in range(store.max_size - 1)]
    try:
        turn = session.recall(GOAL)
    finally:
        for conn in held:
            store.putconn(conn)
    assert "b-tabs" not in turn.block  # the prefix holds it
    assert told(turn) == []
