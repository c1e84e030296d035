"""A session's user-safe trace fields live and die with it, on the real server and a
controlled clock: ending a session (or leaving it idle past the policy's window) lets
the retention job delete the user views of its traces, then the session itself once the
operator fields have expired too (see "The trace" and "Sessions" in
docs/architecture.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from recallflow import LifecycleState, Memory
from recallflow.errors import InvalidInputError, NotFoundError
from recallflow.policy import Retention
from recallflow.sessions import Session
from tests.helpers import belief, patient_policy

POLICY = patient_policy().model_copy(
    update={"retention": Retention(operator_days=2.0, session_idle_days=5.0)}
)


def _session(memory: Memory, tenant: str, principal: str = "p1") -> Session:
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                principal,
                id=f"b-tea-{principal}",
                subject="drink",
                belief_type="preference",
                statement="The user drinks green tea.",
                confidence=0.9,
            ),
            belief(
                tenant,
                principal,
                id=f"b-cup-{principal}",
                subject="drink-cup",
                statement="The user uses a blue cup for tea.",
                confidence=0.9,
            ),
        ]
    )
    return memory.open_session(tenant, principal, goal={"goal": "tea"}, policy=POLICY)


def _size(memory: Memory, tenant: str, trace_id: str, principal: str = "p1") -> int:
    return memory._traces.stored_size(tenant, principal, trace_id)


def _row_size(memory: Memory, tenant: str, trace_id: str) -> int:
    """The whole stored row, the stub left after both tiers are gone included."""
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT pg_column_size(t.*) FROM recall_traces t WHERE tenant_id = %s AND id = %s",
            (tenant, trace_id),
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_ending_a_session_deletes_its_user_views_then_the_session(
    memory: Memory, tenant: str
) -> None:
    session = _session(memory, tenant)
    turn = session.recall({"goal": "what cup for tea"})
    child = session.child({"goal": "tea cup"})
    traces = [session.info.snapshot_trace_id, turn.trace_id, child.info.snapshot_trace_id]
    for trace_id in traces:
        memory.explain(tenant, "p1", trace_id)  # all readable while the session lives
    before = _size(memory, tenant, turn.trace_id)
    rows_before = [_row_size(memory, tenant, t) for t in traces]
    now = datetime.now(UTC)

    # A live session keeps everything, whatever the clock says within its idle window.
    # (The store is shared with other tests, so counts are lower bounds; what this
    # session's traces show is checked one by one.)
    memory.run_retention(now + timedelta(days=1), policy=POLICY, allow_future=True)
    assert memory.explain(tenant, "p1", turn.trace_id).trace_id == turn.trace_id
    ended = session.end(at=now)
    assert session.end(at=now + timedelta(minutes=1)) == ended  # the first end stands
    with pytest.raises(InvalidInputError) as refused:
        session.recall({"goal": "tea"})
    assert refused.value.field == "session_id"
    with pytest.raises(InvalidInputError):
        child.recall({"goal": "tea"})  # a child run ends with its parent
    with pytest.raises(InvalidInputError):
        memory.resume_session(tenant, "p1", session.id, policy=POLICY)

    first = memory.run_retention(now + timedelta(days=1), policy=POLICY, allow_future=True)
    assert first.sessions_ended >= 1  # the child, with its parent
    assert first.user_views_deleted >= 3
    for trace_id in traces:
        with pytest.raises(NotFoundError):
            memory.explain(tenant, "p1", trace_id)
    # The operator fields stay for their tuning window, then go, and the session with them.
    assert memory.trace(tenant, "p1", turn.trace_id).id == turn.trace_id
    middle = _size(memory, tenant, turn.trace_id)
    second = memory.run_retention(now + timedelta(days=3), policy=POLICY, allow_future=True)
    assert second.operator_expired >= 3 and second.sessions_deleted >= 2
    after = _size(memory, tenant, turn.trace_id)
    rows_after = [_row_size(memory, tenant, t) for t in traces]
    print(f"session trace: {before} bytes live, {middle} after the end, {after} after expiry")
    print(f"whole rows (snapshot, turn, child): {rows_before} live, {rows_after} after")
    assert before > middle > after
    with pytest.raises(NotFoundError):
        memory.resume_session(tenant, "p1", session.id, policy=POLICY)
    # Idempotent: the same run again changes nothing.
    again = memory.run_retention(now + timedelta(days=3), policy=POLICY, allow_future=True)
    assert again.model_dump() == dict.fromkeys(again.model_dump(), 0)


def test_an_idle_session_ends_after_the_window_and_an_active_one_does_not(
    memory: Memory, tenant: str
) -> None:
    idle = _session(memory, tenant, "p1")
    busy = _session(memory, tenant, "p2")
    now = datetime.now(UTC)
    memory.run_retention(now + timedelta(days=4), policy=POLICY, allow_future=True)
    assert idle.recall({"goal": "tea"}).trace_id  # day 4 of 5: still live
    # p2's session has a turn "later": rewrite its trace time to stand for a day-4 turn.
    turn = busy.recall({"goal": "tea cup"})
    with memory.pool.connection() as conn:
        conn.execute(
            "UPDATE recall_traces SET created_at = %s WHERE tenant_id = %s AND id = %s",
            (now + timedelta(days=4), tenant, turn.trace_id),
        )
    run = memory.run_retention(now + timedelta(days=6), policy=POLICY, allow_future=True)
    # Ended at day 5 (idle since its opening), its operator fields gone after day 2: the
    # session is deleted outright.
    assert run.sessions_ended >= 1 and run.sessions_deleted >= 1
    with pytest.raises(NotFoundError):
        idle.recall({"goal": "tea"})
    assert busy.recall({"goal": "tea"}).rendered_ids is not None  # still live
    with pytest.raises(NotFoundError):
        memory.explain(tenant, "p1", idle.info.snapshot_trace_id)
    assert memory.explain(tenant, "p2", turn.trace_id).session_id == busy.id


def test_a_trace_outside_any_session_keeps_its_user_view(memory: Memory, tenant: str) -> None:
    _session(memory, tenant)
    result = memory.recall(
        {"tenant_id": tenant, "principal_id": "p1", "working_state": {"goal": "tea"}},
        policy=POLICY,
    )
    memory.run_retention(datetime.now(UTC) + timedelta(days=400), policy=POLICY, allow_future=True)
    assert memory.explain(tenant, "p1", result.trace_id).trace_id == result.trace_id


def _feedback_rows(memory: Memory, tenant: str) -> int:
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM feedback_events WHERE tenant_id = %s", (tenant,)
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_feedback_on_a_trace_retention_emptied_is_not_found_not_unrendered(
    memory: Memory, tenant: str
) -> None:
    """Once the retention job deleted what an ended session's traces showed, feedback on
    them is refused as ``explain`` refuses them — no such trace — and records nothing. It
    said the belief "was not rendered" in the trace that did render it, and pointed at the
    snapshot trace, which is refused the same way. Feedback on an ended session's trace
    before the job runs, and on a trace outside any session whose operator fields have
    expired, is still recorded."""
    session = _session(memory, tenant)
    memory.beliefs.add(  # after the snapshot: a turn shows it in its own block
        belief(
            tenant,
            "p1",
            id="b-kettle",
            subject="kettle",
            statement="The user boils tea water in a copper kettle.",
            confidence=0.9,
        )
    )
    turn = session.recall({"goal": "which kettle does the user boil tea water in"})
    assert "b-kettle" in turn.rendered_ids
    plain = memory.recall(
        {"tenant_id": tenant, "principal_id": "p1", "working_state": {"goal": "tea cup"}},
        policy=POLICY,
    )
    assert plain.rendered_ids
    now = datetime.now(UTC)
    session.end(at=now)
    snapshot = session.info.snapshot_trace_id
    assert "b-tea-p1" in session.snapshot_ids
    memory.cite(tenant, "p1", snapshot, ["b-tea-p1"])  # ended, not yet emptied
    memory.run_retention(now + timedelta(days=3), policy=POLICY, allow_future=True)
    before = _feedback_rows(memory, tenant)
    for trace_id, belief_id in ((snapshot, "b-tea-p1"), (turn.trace_id, "b-kettle")):
        with pytest.raises(NotFoundError) as cited:
            memory.cite(tenant, "p1", trace_id, [belief_id])
        assert cited.value.detail == f"no trace {trace_id!r} for {tenant}/p1"
        assert cited.value.field == "trace_id"
        with pytest.raises(NotFoundError):
            memory.reject(tenant, "p1", trace_id, belief_id, "not_true")
        with pytest.raises(NotFoundError):
            memory.explain(tenant, "p1", trace_id)
    assert _feedback_rows(memory, tenant) == before
    assert memory.beliefs.get(tenant, "p1", "b-tea-p1").state is LifecycleState.ACTIVE
    # A trace of no session keeps its user view past its operator fields' window.
    memory.cite(tenant, "p1", plain.trace_id, [plain.rendered_ids[0]])
    assert _feedback_rows(memory, tenant) == before + 1


def test_ending_another_principals_session_is_not_found_like_a_missing_one(
    memory: Memory, tenant: str
) -> None:
    session = _session(memory, tenant)
    messages = []
    for principal, sid in (("p2", session.id), ("p1", "s-missing")):
        with pytest.raises(NotFoundError) as caught:
            memory.end_session(tenant, principal, sid)
        messages.append(str(caught.value).replace(sid, "ID").replace(principal, "P"))
    assert messages[0] == messages[1]
    with pytest.raises(InvalidInputError) as naive:
        memory.end_session(tenant, "p1", session.id, at=datetime(2025, 1, 1))
    assert naive.value.field == "at"
    assert session.recall({"goal": "tea"}).trace_id  # nothing was ended


def test_an_end_ahead_of_the_clock_is_refused_and_the_session_lives_on(
    memory: Memory, tenant: str
) -> None:
    """An end mistyped a year ahead was stored and stood for good: the session kept taking
    turns, the retention job never ended it when idle nor deleted its user views, and a
    second end could not bring it forward. It is refused by name, nothing ended; within
    the clock skew an end is taken."""
    session = _session(memory, tenant)
    year = datetime.now(UTC) + timedelta(days=365)
    with pytest.raises(InvalidInputError) as refused:
        memory.end_session(tenant, "p1", session.id, at=year)
    assert refused.value.field == "at" and "clock_skew_seconds" in str(refused.value)
    with pytest.raises(InvalidInputError):
        session.end(at=year)
    turn = session.recall({"goal": "tea"})  # nothing was ended
    late = datetime.now(UTC) + timedelta(days=POLICY.retention.session_idle_days + 1)
    memory.run_retention(late, policy=POLICY, allow_future=True)
    with pytest.raises(NotFoundError):
        memory.explain(tenant, "p1", turn.trace_id)  # ended when idle, its views deleted
    skewed = datetime.now(UTC) + timedelta(seconds=30)
    other = _session(memory, tenant)
    assert other.end(at=skewed) == skewed


def test_retention_acts_at_the_boundary_instant_and_not_a_microsecond_before(
    memory: Memory, tenant: str
) -> None:
    """An idle session ends at its last activity plus the idle window, and a trace's
    operator fields go at its ``operator_expires_at``: a run a microsecond before either
    changes nothing of it, a run at that very instant does it, ending the session then."""
    _session(memory, tenant)  # its beliefs
    # Operator fields outlive the idle window here, so the ended session is kept to be read.
    policy = POLICY.model_copy(
        update={"retention": Retention(operator_days=10.0, session_idle_days=5.0)}
    )
    session = memory.open_session(tenant, "p1", goal={"goal": "tea"}, policy=policy)
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT s.created_at, t.operator_expires_at FROM sessions s JOIN recall_traces t"
            " ON t.tenant_id = s.tenant_id AND t.id = s.snapshot_trace_id"
            " WHERE s.tenant_id = %s AND s.id = %s",
            (tenant, session.id),
        ).fetchone()
    assert row is not None
    opened, expires = row
    idle_end = opened + timedelta(days=5)
    ends = memory._session_store.end_of

    def operator_kept() -> bool:
        with memory.pool.connection() as conn:
            kept = conn.execute(
                "SELECT operator_view IS NOT NULL FROM recall_traces"
                " WHERE tenant_id = %s AND id = %s",
                (tenant, session.info.snapshot_trace_id),
            ).fetchone()
        assert kept is not None
        return bool(kept[0])

    memory.run_retention(idle_end - timedelta(microseconds=1), policy=policy, allow_future=True)
    assert ends(tenant, "p1", session.id) is None
    memory.run_retention(idle_end, policy=policy, allow_future=True)
    assert ends(tenant, "p1", session.id) == idle_end
    memory.run_retention(expires - timedelta(microseconds=1), policy=policy, allow_future=True)
    assert operator_kept()
    memory.run_retention(expires, policy=policy, allow_future=True)
    assert not operator_kept()
