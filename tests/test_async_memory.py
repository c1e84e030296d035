"""The memory for asyncio code (``recallflow.async_memory``): every call of the blocking
API is there as a coroutine, runs off the event loop, gives the same results and errors,
and a store opened for a task that is cancelled is not left open."""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np
import numpy.typing as npt
import pytest

from recallflow import (
    AsyncMemory,
    AsyncSession,
    InvalidInputError,
    Memory,
    Session,
    open_async_memory,
    open_memory,
)
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.async_memory import (
    AsyncBeliefs,
    AsyncCorrections,
    AsyncEdges,
    AsyncEntities,
    AsyncEpisodes,
    AsyncMissHints,
    OpeningMemory,
)
from recallflow.corrections import Corrections, MissHints
from recallflow.entities import Entities
from recallflow.ingestion import Beliefs, Edges, Episodes
from tests.helpers import belief, request

_Done = TypeVar("_Done")

#: Each blocking class and its asyncio counterpart.
PAIRS: tuple[tuple[type, type], ...] = (
    (Memory, AsyncMemory),
    (Session, AsyncSession),
    (Beliefs, AsyncBeliefs),
    (Episodes, AsyncEpisodes),
    (Edges, AsyncEdges),
    (Entities, AsyncEntities),
    (Corrections, AsyncCorrections),
    (MissHints, AsyncMissHints),
)
#: What the asyncio side leaves out on purpose: the memory's own coroutine (its ``recall``
#: is one), the built DAG (no I/O: draw or inspect it on ``.memory``) and the pool (the
#: blocking connections themselves).
LEFT_OUT = {(Memory, "arecall"), (Memory, "flow"), (Memory, "pool")}


def _public(cls: type) -> dict[str, object]:
    return {
        name: value
        for name, value in inspect.getmembers(cls)
        if not name.startswith("_") and (cls, name) not in LEFT_OUT
    }


@pytest.mark.parametrize(("blocking", "asynchronous"), PAIRS, ids=lambda c: c.__name__)
def test_every_call_of_the_blocking_api_is_a_coroutine_with_its_parameters(
    blocking: type, asynchronous: type
) -> None:
    """A user of the asyncio API finds every method of the blocking one, with the same
    parameters, and every property; a method added to one and not the other fails here."""
    theirs = _public(asynchronous)
    for name, value in _public(blocking).items():
        assert name in theirs, f"{asynchronous.__name__} lacks {name}"
        if isinstance(value, property):  # read through the wrapper, as it stands
            assert not inspect.iscoroutinefunction(theirs[name]), f"{asynchronous.__name__}.{name}"
            assert not callable(theirs[name]), f"{asynchronous.__name__}.{name}"
            continue
        ours = theirs[name]
        assert inspect.iscoroutinefunction(ours), f"{asynchronous.__name__}.{name}"
        own, blocking_one = inspect.signature(ours), inspect.signature(value)  # type: ignore[arg-type]
        assert own.parameters == blocking_one.parameters, name
        # What an await gives: the blocking call's result, a session as an AsyncSession.
        gives = AsyncSession.__name__ if blocking_one.return_annotation == "Session" else None
        assert own.return_annotation == (gives or blocking_one.return_annotation), name


def test_help_shows_what_an_await_gives() -> None:
    """``help`` and an editor read a call's signature: a session-giving coroutine says it
    gives an AsyncSession, and open_async_memory what is awaited for an AsyncMemory, not
    the blocking Session and Memory (their parameters are the blocking ones)."""
    for call in (AsyncMemory.open_session, AsyncMemory.resume_session, AsyncSession.child):
        assert inspect.signature(call).return_annotation == "AsyncSession", call.__qualname__
    opening = inspect.signature(open_async_memory)
    assert opening.return_annotation == OpeningMemory.__name__
    assert opening.parameters == inspect.signature(open_memory).parameters


class GatedEmbedder(HashingEmbedder):
    """The hashing embedder whose ``embed`` waits, once armed, until the test lets it go:
    a call made on the event loop's thread would wait for a release the loop can never
    send, and fail after 30 s."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.entered = threading.Event()
        self.release = threading.Event()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if self.armed:
            self.entered.set()
            if not self.release.wait(30):
                raise TimeoutError("the test never released the embedder")
        return super().embed(texts)


async def _released_while_running(gate: GatedEmbedder, call: asyncio.Task[_Done]) -> _Done:
    """Wait until ``call`` is inside the embedder, then let it go: only possible while the
    loop runs, so ``call`` ran elsewhere."""
    while not gate.entered.is_set():
        await asyncio.sleep(0.01)
        assert not call.done(), call  # it finished without ever reaching the embedder
    gate.release.set()
    return await call


def test_a_recall_and_a_write_leave_the_event_loop_serving(fresh_home: Path, tenant: str) -> None:
    """While a recall waits (here on its query's embedding) and while a write waits on its
    statements' embedding, the loop runs other tasks: it is the loop that releases them."""
    gate = GatedEmbedder()

    async def scenario() -> None:
        async with open_async_memory(home=fresh_home, embedder=gate) as memory:
            gate.armed = True
            adding = asyncio.create_task(
                memory.beliefs.add(belief(tenant, statement="The user drinks oat milk."))
            )
            added = await _released_while_running(gate, adding)
            assert added.statement == "The user drinks oat milk."
            gate.entered.clear()
            gate.release.clear()
            recalling = asyncio.create_task(
                memory.recall(request(tenant, goal="Which milk does the user drink?"))
            )
            result = await _released_while_running(gate, recalling)
            assert "oat milk" in result.block

    asyncio.run(scenario())


def test_the_calls_give_what_the_blocking_ones_give(memory: Memory, tenant: str) -> None:
    """The same store through both APIs: a recall's block and items, a session's prefix and
    turn, a rejection, a history and an erasure are what the blocking calls return."""
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-tea", statement="The user drinks green tea.", subject="drinks"),
            belief(tenant, id="b-desk", statement="The user works at a standing desk."),
        ]
    )
    asked = request(tenant, goal="What does the user drink?")
    blocking = memory.recall(asked, persist_trace=False)

    async def scenario() -> None:
        wrapped = AsyncMemory(memory)  # not closed here: the fixture's memory lives on
        assert wrapped.memory is memory and wrapped.uri == memory.uri
        result = await wrapped.recall(asked, persist_trace=False)
        assert (result.block, result.rendered_ids) == (blocking.block, blocking.rendered_ids)

        session = await wrapped.open_session(tenant, "p1", goal={"goal": "drinks"})
        assert isinstance(session, AsyncSession)
        resumed = memory.resume_session(tenant, "p1", session.id)
        assert resumed.prefix == session.prefix
        turn = await session.recall({"goal": "What does the user drink?"})
        assert turn.trace.session_id == session.id
        child = await session.child({"goal": "desk"})
        assert isinstance(child, AsyncSession) and child.info.parent_session_id == session.id
        ended = await session.end()
        assert memory.end_session(tenant, "p1", session.id) == ended  # the first end stands

        stored = await wrapped.recall(asked)
        assert "b-tea" in stored.rendered_ids
        assert (await wrapped.trace(tenant, "p1", stored.trace.id)) == memory.trace(
            tenant, "p1", stored.trace.id
        )
        await wrapped.reject(tenant, "p1", stored.trace.id, "b-tea", "not_true")
        history = await wrapped.beliefs.history(tenant, "p1", "b-tea")
        assert history == memory.beliefs.history(tenant, "p1", "b-tea")
        assert history.belief.state.value == "retired"
        erased = await wrapped.forget_belief(tenant, "p1", "b-desk")
        assert erased.scope == "belief" and sum(erased.deleted.values()) >= 1
        assert [b.id for b in memory.beliefs.list(tenant, "p1")] == ["b-tea"]

    asyncio.run(scenario())


def test_bad_input_is_the_blocking_api_s_typed_error_and_nothing_is_written(
    memory: Memory, tenant: str
) -> None:
    """The asyncio calls raise the errors the blocking ones do, naming the field, and a
    refused write writes nothing."""

    async def scenario() -> None:
        wrapped = AsyncMemory(memory)
        with pytest.raises(InvalidInputError) as refused:
            await wrapped.beliefs.add_many(
                [belief(tenant, id="b-ok"), belief(tenant, id="b-bad", scope="galaxy")]
            )
        assert "scope" in str(refused.value)
        with pytest.raises(InvalidInputError) as empty:
            await wrapped.recall(request(tenant, goal=""))
        assert "goal" in str(empty.value)

    asyncio.run(scenario())
    assert memory.beliefs.list(tenant, "p1") == []
    with pytest.raises(InvalidInputError) as not_memory:
        AsyncMemory("postgresql://localhost/db")  # type: ignore[arg-type]
    assert "memory" in str(not_memory.value)


def test_a_store_opened_for_a_cancelled_task_is_closed(fresh_home: Path) -> None:
    """Cancelled while the store opens (the server starting, migrating), the task gets its
    cancellation and the store, once open, is closed: its embedded server stops, as it
    does when the last holder closes it."""
    entered, release = threading.Event(), threading.Event()
    pid = fresh_home / "pgdata" / "postmaster.pid"

    def slow_open() -> Memory:
        entered.set()
        release.wait(30)
        return open_memory(home=fresh_home, embedder=HashingEmbedder())

    async def scenario() -> None:
        opening = asyncio.create_task(OpeningMemory(slow_open)._opened())
        while not entered.is_set():
            await asyncio.sleep(0.01)
        opening.cancel()
        with pytest.raises(asyncio.CancelledError):
            await opening
        release.set()

    asyncio.run(scenario())  # returns once the worker thread has opened (and closed) it
    deadline = time.monotonic() + 60
    while pid.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not pid.exists(), "the cancelled open left the embedded server running"


def test_a_tool_call_from_asyncio_leaves_the_loop_serving_and_answers_as_call_does(
    fresh_home: Path, tenant: str
) -> None:
    """``Toolset.acall`` runs the tool off the loop (the loop releases the embedder it
    waits on) and gives what ``call`` gives, errors included, as data."""
    from recallflow.tools import Toolset

    gate = GatedEmbedder()
    with open_memory(home=fresh_home, embedder=gate) as memory:
        memory.beliefs.add(belief(tenant, statement="The user drinks oat milk."))
        toolset = Toolset(memory, tenant_id=tenant, principal_id="p1")
        asked = {"goal": "Which milk does the user drink?"}

        async def scenario() -> None:
            gate.armed = True
            calling = asyncio.create_task(toolset.acall("recall_beliefs", asked))
            answer = await _released_while_running(gate, calling)
            gate.armed = False
            assert answer["block"] == toolset.call("recall_beliefs", asked)["block"]
            assert "oat milk" in answer["block"]
            refused = await toolset.acall("recall_beliefs", {**asked, "principal_id": "p2"})
            assert refused["error"]["field"] == "principal_id"

        asyncio.run(scenario())
