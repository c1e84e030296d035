"""Writers and readers of one principal at once: an erasure racing the recalls that read
what it erases (see "While the store is down" in docs/operations.md)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

import pytest

from recallflow import (
    ConfigurationError,
    ErasedMeanwhileError,
    Memory,
    RecallResult,
    StoreUnavailableError,
    open_memory,
)
from recallflow.adapters.embedders.hashing import HashingEmbedder
from tests.helpers import belief, patient_policy, request

SECRET = "The user's password hint is blue-horse."


def traces_holding(memory: Memory, tenant: str, text: str) -> int:
    """Stored traces of the tenant whose row holds ``text`` anywhere."""
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM recall_traces t WHERE tenant_id = %s AND strpos(t::text, %s) > 0",
            (tenant, text),
        ).fetchone()
    assert row is not None
    return int(row[0])


def in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    """``call`` started in a thread; the list gets its result or what it raised."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # handed to the test, which asserts on it
            outcome.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def snapshot_paused_after_reading_the_secret(
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[threading.Event, threading.Event]:
    """Every flow run, once it has read ``b-secret`` (and rendered it alone), sets the first
    event and waits for the second before it returns: a session's open held between its
    snapshot's read and its write."""
    read, release = threading.Event(), threading.Event()
    run_flow = Memory._run_flow

    def paused_run_flow(self: Memory, *args: Any, **kwargs: Any) -> RecallResult:
        result = run_flow(self, *args, **kwargs)
        assert result.rendered_ids == ("b-secret",)  # the snapshot read the belief
        read.set()
        assert release.wait(30)
        return result

    monkeypatch.setattr(Memory, "_run_flow", paused_run_flow)
    return read, release


def waiting(
    memory: Memory, what: str, pattern: str, unless: Callable[[], bool] = lambda: False
) -> bool:
    """Whether a session of the store waits for a lock of type ``what`` running a
    statement like ``pattern``; polled until it does, or ``unless()`` (a hang guard of
    30 s)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not unless():
        with memory.pool.connection() as conn:
            row = conn.execute(
                "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND wait_event = %s AND query LIKE %s",
                (what, pattern),
            ).fetchone()
        if row is not None:
            return True
        time.sleep(0.02)
    return False


class SkewedDateTime(datetime):
    """``datetime`` whose ``now`` reads a clock ``offset`` off the real one."""

    offset = timedelta(0)

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> Any:
        return datetime.now(tz) + cls.offset


def skew_application_clock(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Every wall-clock read of the library's modules reads a clock ``seconds`` off the
    database server's (ahead when positive), as a process on another machine may."""
    skewed = type("Skewed", (SkewedDateTime,), {"offset": timedelta(seconds=seconds)})
    for name, module in list(sys.modules.items()):
        if name.startswith("recallflow") and getattr(module, "datetime", None) is datetime:
            monkeypatch.setattr(module, "datetime", skewed)


def paused_saves(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """Make every recall wait before it stores its trace: the first event is set once one
    has read the store and waits, the second lets it go on."""
    read, release = threading.Event(), threading.Event()
    save = Memory._save

    def paused_save(self: Memory, *args: Any, **kwargs: Any) -> bool:
        read.set()
        assert release.wait(30)
        return save(self, *args, **kwargs)

    monkeypatch.setattr(Memory, "_save", paused_save)
    return read, release


@pytest.mark.parametrize("scope", ["principal", "belief"])
def test_a_recall_that_read_before_an_erasure_stores_no_trace_of_what_was_erased(
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch, scope: str
) -> None:
    """The recall reads the belief, the erasure commits, then the recall stores its trace:
    the erasure has already scrubbed the traces it could see, so a trace stored now would
    keep the erased statement for as long as traces are kept."""
    memory.beliefs.add(belief(tenant, id="b-secret", statement=SECRET, subject="password"))
    read, release = paused_saves(monkeypatch)  # read: the recall has read and built its block
    unsaved = memory.unsaved_traces
    thread, outcome = in_thread(
        lambda: memory.recall(request(tenant, goal="password hint"), policy=patient_policy())
    )
    assert read.wait(30)
    if scope == "principal":
        memory.forget(tenant, "p1")
    else:
        memory.forget_belief(tenant, "p1", "b-secret")
    release.set()
    thread.join(30)
    result = outcome[0]
    assert isinstance(result, RecallResult), result
    assert result.rendered_ids == ("b-secret",)  # it did read the belief before it was erased
    assert traces_holding(memory, tenant, SECRET) == 0
    assert traces_holding(memory, tenant, "b-secret") == 0
    assert memory.unsaved_traces == unsaved + 1  # the loss is counted, as any unsaved trace


def test_a_trace_written_while_an_erasure_runs_waits_for_it_and_is_not_stored(
    memory: Memory, tenant: str
) -> None:
    """The erasure has begun (it waits here on a row of its principal's traces) when the
    recall stores its trace: the trace waits for the erasure to finish, then sees it."""
    memory.beliefs.add(belief(tenant, id="b-secret", statement=SECRET, subject="password"))
    earlier = memory.recall(request(tenant, goal="password hint"), policy=patient_policy())
    policy = patient_policy()
    policy = policy.model_copy(
        update={"retention": policy.retention.model_copy(update={"write_timeout_ms": 60_000})}
    )
    with memory.pool.connection() as blocker, blocker.transaction():
        blocker.execute(
            "SELECT 1 FROM recall_traces WHERE tenant_id = %s AND id = %s FOR UPDATE",
            (tenant, earlier.trace.id),
        )
        eraser, erased = in_thread(lambda: memory.forget(tenant, "p1"))
        assert waiting(memory, "transactionid", "DELETE FROM %recall_traces%")
        recaller, recalled = in_thread(
            lambda: memory.recall(request(tenant, goal="password hint"), policy=policy)
        )
        # The trace's write waits for the erasure (or, unfenced, is stored right away).
        waiting(
            memory, "advisory", "%pg_advisory_xact_lock_shared%", lambda: not recaller.is_alive()
        )
    eraser.join(30)
    recaller.join(30)
    assert not isinstance(erased[0], BaseException), erased[0]
    result = recalled[0]
    assert isinstance(result, RecallResult), result
    assert result.rendered_ids == ("b-secret",)
    assert traces_holding(memory, tenant, SECRET) == 0


@pytest.mark.parametrize("skew", [0.0, 120.0])
def test_a_session_opened_across_an_erasure_is_refused_and_stores_nothing(
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch, skew: float
) -> None:
    """The open reads its snapshot, the erasure commits, then the open stores the session:
    its prefix holds the erased statement, so neither the session nor its trace is stored,
    and the caller is told to open it again (which reads the store as the erasure left
    it), whatever the application's clock reads (``skew`` seconds ahead of the server's)."""
    skew_application_clock(monkeypatch, skew)
    memory.beliefs.add(
        belief(
            tenant, id="b-secret", statement=SECRET, subject="password", belief_type="preference"
        )
    )
    read, release = snapshot_paused_after_reading_the_secret(monkeypatch)
    thread, outcome = in_thread(lambda: memory.open_session(tenant, "p1"))
    assert read.wait(30)
    memory.forget_belief(tenant, "p1", "b-secret")
    release.set()
    thread.join(30)
    assert isinstance(outcome[0], ErasedMeanwhileError), outcome[0]
    assert "retry the same call" in str(outcome[0])
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM sessions s WHERE tenant_id = %s"
            " AND (strpos(s::text, %s) > 0 OR strpos(convert_from(prefix, 'UTF8'), %s) > 0)",
            (tenant, "b-secret", SECRET),
        ).fetchone()
    assert row == (0,)
    assert traces_holding(memory, tenant, SECRET) == 0
    monkeypatch.undo()
    reopened = memory.open_session(tenant, "p1")
    assert SECRET.encode() not in reopened.prefix


def test_a_recall_whose_marks_cannot_be_read_fails_typed_and_stores_nothing(
    memory: Memory, tenant: str
) -> None:
    """The marked entities say which names a recall withholds, so a recall is never
    rendered without them; when the server cancels their read (here its statement timeout,
    behind a lock an ALTER TABLE or a restore would hold), the recall fails with the
    library's typed error, never the driver's."""
    memory.beliefs.add(belief(tenant, id="b-1", statement=SECRET, subject="password"))
    with memory.pool.connection() as blocker, blocker.transaction():
        blocker.execute("LOCK TABLE entity_sensitivity IN ACCESS EXCLUSIVE MODE")
        with pytest.raises(StoreUnavailableError) as raised:
            memory.recall(request(tenant, goal="password hint"))
    assert "marked entities could not be read" in str(raised.value)
    assert "retry" in str(raised.value)
    assert traces_holding(memory, tenant, "b-1") == 0
    # The lock gone, the same Memory recalls again.
    again = memory.recall(request(tenant, goal="password hint"), policy=patient_policy())
    assert again.rendered_ids == ("b-1",)


def test_a_recall_running_when_its_memory_is_closed_fails_as_closed(
    memory: Memory, store_home: Path, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another thread (or the exit handler) closes the Memory while a recall is under
    way: the recall fails with the closed Memory's ConfigurationError, not with the arms'
    executor's RuntimeError or CancelledError."""
    memory.beliefs.add(belief(tenant, id="b-1", statement=SECRET, subject="password"))
    own = open_memory(home=store_home, embedder=HashingEmbedder())
    checked, closed = threading.Event(), threading.Event()
    probe = own._recall_pool.probe

    def probe_then_wait(*args: Any, **kwargs: Any) -> None:
        probe(*args, **kwargs)
        checked.set()  # the recall has checked the store and is about to run its arms
        assert closed.wait(30)

    monkeypatch.setattr(own._recall_pool, "probe", probe_then_wait)
    thread, outcome = in_thread(lambda: own.recall(request(tenant, goal="password hint")))
    assert checked.wait(30)
    own.close()
    closed.set()
    thread.join(30)
    assert isinstance(outcome[0], ConfigurationError), repr(outcome[0])
    assert "closed" in str(outcome[0])


def misses(memory: Memory, tenant: str) -> int:
    with memory.pool.connection() as conn:
        row = conn.execute("SELECT count(*) FROM miss_hints WHERE tenant_id = %s", (tenant,))
        found = row.fetchone()
    assert found is not None
    return int(found[0])


@pytest.mark.parametrize("skew", [0.0, 120.0])
def test_a_recall_that_missed_before_its_principal_was_forgotten_records_no_miss(
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch, skew: float
) -> None:
    """A miss hint keeps the subject the principal asked about; one recorded after the
    principal was forgotten would outlive the erasure, whatever the application's clock
    reads (``skew`` seconds ahead of the server's)."""
    skew_application_clock(monkeypatch, skew)
    memory.beliefs.add(belief(tenant, id="b-1", statement=SECRET, subject="password"))
    goal = request(tenant, goal="kubernetes helm chart", working_state={"entities": ["helm"]})
    memory.recall(goal)
    assert misses(memory, tenant) == 1  # this goal is a miss
    memory.forget(tenant, "p1")
    memory.beliefs.add(belief(tenant, id="b-1", statement=SECRET, subject="password"))
    read, release = paused_saves(monkeypatch)
    thread, outcome = in_thread(lambda: memory.recall(goal))
    assert read.wait(30)
    memory.forget(tenant, "p1")
    release.set()
    thread.join(30)
    assert isinstance(outcome[0], RecallResult), outcome[0]
    assert misses(memory, tenant) == 0


@pytest.mark.parametrize("skew", [120.0, 600.0, -120.0])
def test_an_erasure_fences_a_recall_whatever_the_application_clock_reads(
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch, skew: float
) -> None:
    """The application's clock runs ahead of the server's or behind it: a recall that read
    a belief before its erasure committed still stores no trace of it, and a recall that
    began after the erasure stores its trace."""
    memory.beliefs.add(belief(tenant, id="b-secret", statement=SECRET, subject="password"))
    skew_application_clock(monkeypatch, skew)
    with monkeypatch.context() as paused:
        read, release = paused_saves(paused)
        thread, outcome = in_thread(
            lambda: memory.recall(request(tenant, goal="password hint"), policy=patient_policy())
        )
        assert read.wait(30)
        memory.forget_belief(tenant, "p1", "b-secret")
        release.set()
        thread.join(30)
    assert isinstance(outcome[0], RecallResult), outcome[0]
    assert outcome[0].rendered_ids == ("b-secret",)
    assert traces_holding(memory, tenant, SECRET) == 0
    assert traces_holding(memory, tenant, "b-secret") == 0
    # After the erasure: the recall's trace and a session's open are stored.
    unsaved = memory.unsaved_traces
    memory.beliefs.add(belief(tenant, id="b-next", statement="The user drinks tea.", subject="tea"))
    memory.recall(request(tenant, goal="what does the user drink"), policy=patient_policy())
    assert memory.unsaved_traces == unsaved
    memory.open_session(tenant, "p1")
    assert memory.unsaved_traces == unsaved


def erasures_held_before_commit(
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[threading.Event, threading.Event]:
    """Make every erasure wait once it has deleted its rows and recorded when they were
    gone, before it commits: the first event is set once one waits there, the second lets
    it commit."""
    from recallflow.adapters.postgres import erasure

    recorded, release = threading.Event(), threading.Event()
    record = erasure._record

    def held_record(*args: Any, **kwargs: Any) -> tuple[int, datetime]:
        stamped = record(*args, **kwargs)
        recorded.set()
        assert release.wait(30)
        return stamped

    monkeypatch.setattr(erasure, "_record", held_record)
    return recorded, release


def opened_across_held_erasure(
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> object:
    """What ``open_session`` gives (or raises) when it reads its snapshot, holding
    ``b-secret``, while a ``forget_belief`` of that belief has recorded its time and waits
    to commit, and stores it once the erasure has committed."""
    recorded, commit = erasures_held_before_commit(monkeypatch)
    eraser, erased = in_thread(lambda: memory.forget_belief(tenant, "p1", "b-secret"))
    assert recorded.wait(30)
    read, release = snapshot_paused_after_reading_the_secret(monkeypatch)
    opener, outcome = in_thread(lambda: memory.open_session(tenant, "p1"))
    assert read.wait(30)
    commit.set()
    eraser.join(30)
    assert not isinstance(erased[0], BaseException), erased[0]
    release.set()
    opener.join(30)
    return outcome[0]


@pytest.mark.parametrize("scope", ["principal", "belief"])
def test_a_recall_that_began_after_an_erasure_recorded_its_time_but_before_it_committed_stores_no_trace(  # noqa: E501
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch, scope: str
) -> None:
    """The erasure records when its rows were gone a moment before it commits; a recall
    that begins reading in that moment still reads the belief (the deletion is not
    committed), so it stores no trace of it once the erasure has committed, although it
    began after the recorded instant."""
    memory.beliefs.add(belief(tenant, id="b-secret", statement=SECRET, subject="password"))
    recorded, commit = erasures_held_before_commit(monkeypatch)
    forget = memory.forget if scope == "principal" else memory.forget_belief
    ids = ("p1",) if scope == "principal" else ("p1", "b-secret")
    eraser, erased = in_thread(lambda: forget(tenant, *ids))
    assert recorded.wait(30)
    read, release = paused_saves(monkeypatch)
    unsaved = memory.unsaved_traces
    recaller, outcome = in_thread(
        lambda: memory.recall(request(tenant, goal="password hint"), policy=patient_policy())
    )
    assert read.wait(30)
    commit.set()
    eraser.join(30)
    assert not isinstance(erased[0], BaseException), erased[0]
    release.set()
    recaller.join(30)
    result = outcome[0]
    assert isinstance(result, RecallResult), result
    assert result.rendered_ids == ("b-secret",)  # it read the belief the erasure took
    assert traces_holding(memory, tenant, SECRET) == 0
    assert traces_holding(memory, tenant, "b-secret") == 0
    assert memory.unsaved_traces == unsaved + 1


def test_a_session_opened_after_an_erasure_recorded_its_time_but_before_it_committed_is_refused(
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session's open that reads its snapshot while an erasure that has recorded its
    time is still to commit: its prefix holds the erased statement, so it raises
    ``ErasedMeanwhileError`` and stores neither the session nor its trace."""
    memory.beliefs.add(
        belief(
            tenant, id="b-secret", statement=SECRET, subject="password", belief_type="preference"
        )
    )
    assert isinstance(opened_across_held_erasure(memory, tenant, monkeypatch), ErasedMeanwhileError)
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM sessions s WHERE tenant_id = %s"
            " AND (strpos(s::text, %s) > 0 OR strpos(convert_from(prefix, 'UTF8'), %s) > 0)",
            (tenant, "b-secret", SECRET),
        ).fetchone()
    assert row == (0,)
    assert traces_holding(memory, tenant, SECRET) == 0


def test_a_recall_that_missed_after_an_erasure_recorded_its_time_but_before_it_committed_records_no_miss(  # noqa: E501
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recall that weighs the principal's beliefs while an erasure of the whole
    principal that has recorded its time is still to commit, and misses: its miss would
    outlive the erasure."""
    memory.beliefs.add(belief(tenant, id="b-1", statement=SECRET, subject="password"))
    goal = request(tenant, goal="hint for the helm chart", working_state={"entities": ["helm"]})
    recorded, commit = erasures_held_before_commit(monkeypatch)
    eraser, erased = in_thread(lambda: memory.forget(tenant, "p1"))
    assert recorded.wait(30)
    read, release = paused_saves(monkeypatch)
    recaller, outcome = in_thread(lambda: memory.recall(goal, policy=patient_policy()))
    assert read.wait(30)
    commit.set()
    eraser.join(30)
    assert not isinstance(erased[0], BaseException), erased[0]
    release.set()
    recaller.join(30)
    result = outcome[0]
    assert isinstance(result, RecallResult), result
    assert result.rendered_ids == ()  # a miss
    assert "b-1" in result.trace.ranked_ids  # that weighed the belief the erasure took
    assert misses(memory, tenant) == 0


def test_every_belief_a_stored_turn_names_is_one_its_write_checks(
    memory: Memory, tenant: str
) -> None:
    """The write of a trace checks the beliefs it names as read (``read_ids``): every
    belief id anywhere in a turn's trace is among them — the prefix's, a replacement a
    correction tells, the candidates — but the one a ``forgotten`` line names, which is
    gone by then, and the turn that tells it is stored."""
    from recallflow.core.erasure import read_ids
    from recallflow.models.result import CorrectionKind

    def preference(bid: str, statement: str) -> dict[str, Any]:
        return belief(
            tenant,
            id=bid,
            statement=statement,
            subject=bid,
            belief_type="preference",
            source_authority="user_stated",
            confidence=0.9,
        )

    memory.beliefs.add_many(
        [
            preference("p-tabs", "The user indents with tabs."),
            preference("p-short", "The user prefers short answers."),
            preference("p-tea", "The user drinks green tea."),
            belief(tenant, id="b-editor", statement="The user edits in vim.", subject="editor"),
        ]
    )
    session = memory.open_session(tenant, "p1", policy=patient_policy())
    assert {"p-tabs", "p-short", "p-tea"} <= set(session.snapshot_ids)
    memory.supersede("p-short", preference("p-long", "The user prefers long answers."))
    memory.forget_belief(tenant, "p1", "p-tea")
    unsaved = memory.unsaved_traces
    turn = session.recall({"goal": "how long should answers be, and which editor?"})
    kinds = {c.belief_id: c.kind for c in turn.trace.corrections}
    assert kinds.get("p-tea") is CorrectionKind.FORGOTTEN
    assert kinds.get("p-short") is CorrectionKind.SUPERSEDED
    assert memory.unsaved_traces == unsaved  # the turn naming the forgotten belief is stored
    held = {"p-tabs", "p-short", "p-long", "b-editor"}
    named: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str) and value in held | {"p-tea"}:
            named.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(turn.trace.model_dump(mode="json"))
    assert "p-long" in named
    assert named - {"p-tea"} <= set(read_ids(turn.trace))
    assert "p-tea" not in read_ids(turn.trace)


def test_a_session_stored_without_its_trace_after_an_erasure_recorded_its_time_is_refused(
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The open's trace cannot be stored with its session (here a write that fails), so
    the session row is stored alone; it is checked as the pair is: an erasure that
    recorded its time before the open began reading and committed after took a belief the
    prefix froze, so the open raises ``ErasedMeanwhileError`` and stores nothing."""
    from recallflow.adapters.postgres.sessions import PostgresSessionStore

    memory.beliefs.add(
        belief(
            tenant, id="b-secret", statement=SECRET, subject="password", belief_type="preference"
        )
    )
    insert = PostgresSessionStore._insert

    def without_trace(self: PostgresSessionStore, *args: Any, **kwargs: Any) -> None:
        if len(args) > 2 and args[2] is not None:
            raise RuntimeError("the trace's write failed")
        insert(self, *args, **kwargs)

    monkeypatch.setattr(PostgresSessionStore, "_insert", without_trace)
    assert isinstance(opened_across_held_erasure(memory, tenant, monkeypatch), ErasedMeanwhileError)
    with memory.pool.connection() as conn:
        row = conn.execute("SELECT count(*) FROM sessions WHERE tenant_id = %s", (tenant,))
        assert row.fetchone() == (0,)
