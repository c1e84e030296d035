"""The memory for asyncio code: every call of :class:`~recallflow.Memory` (and of its
namespaces and sessions) as a coroutine that runs the blocking call in a worker thread,
so an agent's event loop keeps serving its other tasks while a recall waits on the
database or a write waits on a lock.

The calls are the blocking ones, with the same arguments, results and errors: nothing
here reimplements them, and both objects read and write the same store, so an
:class:`AsyncMemory` and the :class:`~recallflow.Memory` it wraps can be used side by side.
A coroutine cancelled while its call runs does not cancel the call: the worker thread
finishes it (a write is made or refused whole, as always), and only its result is lost
to the cancelled task. See "From asyncio code" in docs/recall.md.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Callable, Coroutine, Generator
from types import TracebackType
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

from recallflow.corrections import Corrections, MissHints
from recallflow.entities import Entities
from recallflow.errors import InvalidInputError
from recallflow.ingestion import Beliefs, Edges, Episodes
from recallflow.memory import Memory, open_memory
from recallflow.sessions import Session

_P = ParamSpec("_P")
_R = TypeVar("_R")
_T = TypeVar("_T")
_W = TypeVar("_W")


class _Threaded(Generic[_T]):
    """What the asyncio side holds: the blocking object its calls run on."""

    __slots__ = ("_blocking",)

    def __init__(self, blocking: _T) -> None:
        self._blocking = blocking


class _Read(Generic[_T, _R]):
    """A property of the blocking object read through its asyncio wrapper: what a session
    is, or where a memory's store is, is held in memory and needs no worker thread."""

    def __init__(self, read: Callable[[_T], _R]) -> None:
        # Typed as the getter mypy sees a class's property as; at run time the property.
        self._read: Callable[[_T], _R] = read.fget if isinstance(read, property) else read
        self.__doc__ = read.__doc__

    @overload
    def __get__(self, wrapper: None, owner: type[object]) -> Self: ...
    @overload
    def __get__(self, wrapper: _Threaded[_T], owner: type[object]) -> _R: ...
    def __get__(self, wrapper: _Threaded[_T] | None, owner: type[object]) -> Self | _R:
        return self if wrapper is None else self._read(wrapper._blocking)


def _named_as(
    run: Callable[..., object], call: Callable[..., object], returns: object = None
) -> None:
    """Give the coroutine method ``run`` the name, docs and signature of the blocking
    ``call`` it runs (``help`` and ``inspect.signature`` show its parameters, and the
    result an await gives: ``returns`` when the call's result is handed back wrapped)."""
    run.__name__ = call.__name__
    run.__qualname__ = call.__qualname__
    run.__doc__ = call.__doc__
    signature = inspect.signature(call)
    if returns is not None:
        signature = signature.replace(return_annotation=returns)
    run.__signature__ = signature  # type: ignore[attr-defined]


def _threaded(
    call: Callable[Concatenate[_T, _P], _R],
) -> Callable[Concatenate[_Threaded[_T], _P], Coroutine[Any, Any, _R]]:
    """``call`` (a method of the blocking class) as a coroutine method of its asyncio
    wrapper, with the same parameters and result, run in a worker thread."""

    async def run(self: _Threaded[_T], /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        return await asyncio.to_thread(call, self._blocking, *args, **kwargs)

    _named_as(run, call)
    return run


def _threaded_as(
    wrap: Callable[[_R], _W],
) -> Callable[
    [Callable[Concatenate[_T, _P], _R]],
    Callable[Concatenate[_Threaded[_T], _P], Coroutine[Any, Any, _W]],
]:
    """:func:`_threaded`, with the call's result handed back wrapped by ``wrap`` (a
    session as an :class:`AsyncSession`)."""

    def threaded(
        call: Callable[Concatenate[_T, _P], _R],
    ) -> Callable[Concatenate[_Threaded[_T], _P], Coroutine[Any, Any, _W]]:
        async def run(self: _Threaded[_T], /, *args: _P.args, **kwargs: _P.kwargs) -> _W:
            return wrap(await asyncio.to_thread(call, self._blocking, *args, **kwargs))

        _named_as(run, call, inspect.signature(wrap).return_annotation)
        return run

    return threaded


class AsyncBeliefs(_Threaded[Beliefs]):
    """:class:`~recallflow.ingestion.Beliefs` (``memory.beliefs``) for asyncio code."""

    __slots__ = ()
    add = _threaded(Beliefs.add)
    add_many = _threaded(Beliefs.add_many)
    supersede = _threaded(Beliefs.supersede)
    prepare = _threaded(Beliefs.prepare)
    get = _threaded(Beliefs.get)
    history = _threaded(Beliefs.history)
    held = _threaded(Beliefs.held)
    list = _threaded(Beliefs.list)


class AsyncEpisodes(_Threaded[Episodes]):
    """:class:`~recallflow.ingestion.Episodes` (``memory.episodes``) for asyncio code."""

    __slots__ = ()
    add = _threaded(Episodes.add)
    add_many = _threaded(Episodes.add_many)
    get = _threaded(Episodes.get)
    logged = _threaded(Episodes.logged)
    embed_missing = _threaded(Episodes.embed_missing)


class AsyncEdges(_Threaded[Edges]):
    """:class:`~recallflow.ingestion.Edges` (``memory.edges``) for asyncio code."""

    __slots__ = ()
    add = _threaded(Edges.add)
    add_many = _threaded(Edges.add_many)
    of = _threaded(Edges.of)


class AsyncEntities(_Threaded[Entities]):
    """:class:`~recallflow.entities.Entities` (``memory.entities``) for asyncio code."""

    __slots__ = ()
    mark = _threaded(Entities.mark)
    unmark = _threaded(Entities.unmark)
    marked = _threaded(Entities.marked)


class AsyncCorrections(_Threaded[Corrections]):
    """:class:`~recallflow.corrections.Corrections` (``memory.corrections``) for asyncio
    code."""

    __slots__ = ()
    retract = _threaded(Corrections.retract)
    retire = _threaded(Corrections.retire)
    expire = _threaded(Corrections.expire)
    cite = _threaded(Corrections.cite)
    reject = _threaded(Corrections.reject)
    restate = _threaded(Corrections.restate)
    unflag = _threaded(Corrections.unflag)
    excluded_projects = _threaded(Corrections.excluded_projects)
    corroborate = _threaded(Corrections.corroborate)
    rederive = _threaded(Corrections.rederive)
    forget = _threaded(Corrections.forget)
    forget_belief = _threaded(Corrections.forget_belief)
    forget_episode = _threaded(Corrections.forget_episode)
    forget_project = _threaded(Corrections.forget_project)
    forget_session = _threaded(Corrections.forget_session)


class AsyncMissHints(_Threaded[MissHints]):
    """:class:`~recallflow.corrections.MissHints` (``memory.miss_hints``) for asyncio
    code."""

    __slots__ = ()
    pending = _threaded(MissHints.pending)
    ack = _threaded(MissHints.ack)
    report = _threaded(MissHints.report)
    ack_report = _threaded(MissHints.ack_report)


def _as_async(session: Session) -> AsyncSession:
    """A session as the asyncio side hands it out."""
    return AsyncSession(session)


class AsyncSession(_Threaded[Session]):
    """A :class:`~recallflow.sessions.Session` for asyncio code: its turns, child runs
    and end as coroutines; what it is (its prefix, watermark, snapshot) as the blocking
    session's properties. Those are held in memory; they read the store only after this
    memory handle has erased something of the session's principal, to hand out the
    rewritten prefix instead of the forgotten words."""

    __slots__ = ()

    @property
    def session(self) -> Session:
        """The blocking session this one runs its calls on."""
        return self._blocking

    id = _Read(Session.id)
    info = _Read(Session.info)
    kind = _Read(Session.kind)
    prefix = _Read(Session.prefix)
    prefix_text = _Read(Session.prefix_text)
    prefix_sha256 = _Read(Session.prefix_sha256)
    watermark = _Read(Session.watermark)
    snapshot_ids = _Read(Session.snapshot_ids)
    policy = _Read(Session.policy)
    snapshot = _Read(Session.snapshot)
    ceiling = _Read(Session.ceiling)

    recall = _threaded(Session.recall)
    end = _threaded(Session.end)
    child = _threaded_as(_as_async)(Session.child)


class AsyncMemory(_Threaded[Memory]):
    """A :class:`~recallflow.Memory` for asyncio code. Open one with
    :func:`open_async_memory`, or wrap a memory you hold (``AsyncMemory(memory)``); use it
    as an async context manager, or await :meth:`close`.

    Every method of the memory and of its namespaces (``beliefs``, ``episodes``, ``edges``,
    ``entities``, ``corrections``, ``miss_hints``) is here as a coroutine with the same
    arguments; sessions come back as :class:`AsyncSession`. The memory's properties are
    read from the memory as they are."""

    __slots__ = ("beliefs", "corrections", "edges", "entities", "episodes", "miss_hints")

    def __init__(self, memory: Memory) -> None:
        if not isinstance(memory, Memory):
            raise InvalidInputError(
                f"must be a Memory, got {type(memory).__name__}", field="memory"
            )
        super().__init__(memory)
        self.beliefs = AsyncBeliefs(memory.beliefs)
        self.episodes = AsyncEpisodes(memory.episodes)
        self.edges = AsyncEdges(memory.edges)
        self.entities = AsyncEntities(memory.entities)
        self.corrections = AsyncCorrections(memory.corrections)
        self.miss_hints = AsyncMissHints(memory.miss_hints)

    @property
    def memory(self) -> Memory:
        """The blocking memory this one runs its calls on."""
        return self._blocking

    uri = _Read(Memory.uri)
    embedder = _Read(Memory.embedder)
    calibration = _Read(Memory.calibration)
    token_counter = _Read(Memory.token_counter)
    embedded = _Read(Memory.embedded)
    home = _Read(Memory.home)
    unsaved_traces = _Read(Memory.unsaved_traces)

    summary = _threaded(Memory.summary)
    recall = _threaded(Memory.recall)
    search_episodes = _threaded(Memory.search_episodes)
    trace = _threaded(Memory.trace)
    explain = _threaded(Memory.explain)
    run_retention = _threaded(Memory.run_retention)
    end_session = _threaded(Memory.end_session)
    supersede = _threaded(Memory.supersede)
    retract = _threaded(Memory.retract)
    retire = _threaded(Memory.retire)
    expire = _threaded(Memory.expire)
    cite = _threaded(Memory.cite)
    reject = _threaded(Memory.reject)
    restate = _threaded(Memory.restate)
    unflag = _threaded(Memory.unflag)
    corroborate = _threaded(Memory.corroborate)
    rederive = _threaded(Memory.rederive)
    forget = _threaded(Memory.forget)
    forget_belief = _threaded(Memory.forget_belief)
    forget_episode = _threaded(Memory.forget_episode)
    forget_project = _threaded(Memory.forget_project)
    forget_session = _threaded(Memory.forget_session)
    export_principal = _threaded(Memory.export_principal)
    import_principal = _threaded(Memory.import_principal)
    close = _threaded(Memory.close)

    open_session = _threaded_as(_as_async)(Memory.open_session)
    resume_session = _threaded_as(_as_async)(Memory.resume_session)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


class OpeningMemory:
    """A store being opened for asyncio code: await it for its :class:`AsyncMemory`, or
    use it as an async context manager, which closes the memory on the way out::

        async with open_async_memory() as memory: ...
        memory = await open_async_memory()

    Opening (starting the embedded server, migrating, calibrating) runs in a worker
    thread. When the awaiting task is cancelled while it runs, the store is closed once
    the thread has opened it: nobody holds it then, and it would keep its pools and the
    embedded server for as long as the process lived."""

    __slots__ = ("_memory", "_opens")

    def __init__(self, opens: Callable[[], Memory]) -> None:
        self._opens = opens
        self._memory: AsyncMemory | None = None

    async def _opened(self) -> AsyncMemory:
        opening = _Opening(self._opens)
        try:
            return AsyncMemory(await asyncio.to_thread(opening.run))
        except asyncio.CancelledError:
            opening.abandon()
            raise

    def __await__(self) -> Generator[Any, None, AsyncMemory]:
        return self._opened().__await__()

    async def __aenter__(self) -> AsyncMemory:
        self._memory = await self._opened()
        return self._memory

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._memory is not None:
            await self._memory.close()


class _Opening:
    """One open for a task that may give up waiting for it (see :class:`OpeningMemory`):
    whichever of the worker thread and the task comes second closes the memory, so it is
    closed exactly once whether the cancellation lands while the thread opens or after."""

    __slots__ = ("_abandoned", "_lock", "_memory", "_opens")

    def __init__(self, opens: Callable[[], Memory]) -> None:
        self._opens = opens
        self._lock = threading.Lock()
        self._abandoned = False
        self._memory: Memory | None = None

    def run(self) -> Memory:
        """In the worker thread: open, and close at once if the task gave up meanwhile."""
        memory = self._opens()
        with self._lock:
            if not self._abandoned:
                self._memory = memory
                return memory
        memory.close()
        return memory

    def abandon(self) -> None:
        """In the cancelled task: close the memory if the thread had opened it already."""
        with self._lock:
            self._abandoned = True
            memory, self._memory = self._memory, None
        if memory is not None:
            memory.close()


def _opening(opens: Callable[_P, Memory]) -> Callable[_P, OpeningMemory]:
    def opening(*args: _P.args, **kwargs: _P.kwargs) -> OpeningMemory:
        return OpeningMemory(lambda: opens(*args, **kwargs))

    return opening


#: :func:`~recallflow.open_memory` for asyncio code, with the same arguments (see
#: :class:`OpeningMemory`).
open_async_memory = _opening(open_memory)
open_async_memory.__name__ = "open_async_memory"
open_async_memory.__qualname__ = "open_async_memory"
open_async_memory.__doc__ = (
    "Open a store as :func:`~recallflow.open_memory` does, with the same arguments, for"
    " asyncio code: await the result for an :class:`AsyncMemory`, or use it as an async"
    " context manager (see :class:`OpeningMemory`)."
)
open_async_memory.__signature__ = inspect.signature(open_memory).replace(  # type: ignore[attr-defined]
    return_annotation=OpeningMemory.__name__
)
