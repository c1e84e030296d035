"""The lineage recorder: a cheap Hamilton lifecycle adapter that records, for every node of
a run, its name, module, function version hash, wall time and ok/error (the DAG lineage is
part of the RecallTrace; see "The trace" in docs/architecture.md).

It uses the raw ``pre/post_node_execute`` hooks (≈ µs per node), not the heavier
``NodeExecutionHook`` path, and keeps plain tuples while the run lasts: the
:class:`NodeRun` records are built once, when the run's lineage is taken, from values
that need no validation (a node name, its identity, a float, a bool). The id of the run
started in the calling context is kept in a context variable, so the caller can collect
its own run's lineage even when several recalls share one driver.
"""

from __future__ import annotations

import hashlib
import inspect
import sys
import time
from collections.abc import Sequence
from contextvars import ContextVar
from threading import Lock
from types import ModuleType
from typing import Any

from hamilton.lifecycle.base import (
    BasePostNodeExecute,
    BasePreGraphExecute,
    BasePreNodeExecute,
)

from recallflow.core.decimals import round_all
from recallflow.models.result import NodeRun

_current_run: ContextVar[str | None] = ContextVar("recallflow_current_run", default=None)


def _module_source(module: ModuleType | None) -> str:
    if module is None:
        return ""
    try:
        return inspect.getsource(module)
    except (OSError, TypeError):
        return module.__name__


def _depended_modules(fn: Any) -> list[ModuleType]:
    """The modules whose code or constants ``fn``'s output can depend on: its own module
    (its helpers and constants), the ``core`` module of the same name (a node's pure
    logic), and the module of every function, class or module it names from its own
    package (one level)."""
    own = inspect.getmodule(fn)
    if own is None:
        return []
    package = own.__name__.split(".")[0]
    found: dict[str, ModuleType] = {own.__name__: own}
    stage = own.__name__.rsplit(".", 1)[-1]
    core = sys.modules.get(f"{package}.core.{stage}")
    if core is not None:
        found[core.__name__] = core
    code = getattr(fn, "__code__", None)
    for name in code.co_names if code is not None else ():
        obj = own.__dict__.get(name)
        if obj is None:
            continue
        module = obj if isinstance(obj, ModuleType) else inspect.getmodule(obj)
        if module is not None and module.__name__.split(".")[0] == package:
            found.setdefault(module.__name__, module)
    return [found[k] for k in sorted(found)]


def function_version(fn: Any) -> str:
    """A short hash of what a node's output depends on: the function's source and the
    source of the modules it draws code and constants from (:func:`_depended_modules`),
    so editing a helper or a constant moves the version, not only editing the function."""
    try:
        source = inspect.getsource(fn)
    except (OSError, TypeError):
        source = getattr(fn, "__qualname__", repr(fn))
    digest = hashlib.sha256(source.encode())
    for module in _depended_modules(fn):
        digest.update(b"\0" + module.__name__.encode() + b"\0")
        digest.update(_module_source(module).encode())
    return digest.hexdigest()[:12]


def sources_digest(modules: Sequence[ModuleType]) -> str:
    """A short hash of the source of ``modules`` (e.g. the SQL of the search port)."""
    digest = hashlib.sha256()
    for module in modules:
        digest.update(module.__name__.encode() + b"\0" + _module_source(module).encode())
    return digest.hexdigest()[:12]


def node_identity(node_: Any) -> tuple[str, str]:
    """(module, version hash) of a Hamilton node's originating function."""
    functions = getattr(node_, "originating_functions", None) or ()
    if not functions:
        return ("<input>", "-")
    fn = functions[0]
    return (getattr(fn, "__module__", "?"), function_version(fn))


class LineageRecorder(
    BasePreGraphExecute,  # type: ignore[misc]  # Hamilton ships no type information
    BasePreNodeExecute,  # type: ignore[misc]
    BasePostNodeExecute,  # type: ignore[misc]
):
    """Collects :class:`NodeRun` records per run id."""

    def __init__(self) -> None:
        self._lock = Lock()
        self._runs: dict[str, list[tuple[Any, float, bool, str | None]]] = {}
        self._starts: dict[tuple[str, int], float] = {}
        # Per node (by its id; the node is held, so the id is not reused): its name and
        # identity, read once for every run.
        self._nodes: dict[int, tuple[Any, str, str, str]] = {}

    def pre_graph_execute(self, *, run_id: str, **future_kwargs: Any) -> None:
        with self._lock:
            self._runs[run_id] = []
        _current_run.set(run_id)

    # The hooks name every argument the plan passes: a keyword that only ``**`` takes is
    # packed into a new dict on every call. A node is known by its id while the run lasts
    # (Hamilton's ``Node.name`` joins its namespace into a new string on every read): its
    # name is read once per node, when the run's lineage is taken.
    def pre_node_execute(
        self,
        *,
        run_id: str,
        node_: Any,
        kwargs: Any = None,
        task_id: str | None = None,
        **future_kwargs: Any,
    ) -> None:
        self._starts[run_id, id(node_)] = time.perf_counter()

    def post_node_execute(
        self,
        *,
        run_id: str,
        node_: Any,
        kwargs: Any = None,
        success: bool,
        error: Exception | None,
        result: Any = None,
        task_id: str | None = None,
        **future_kwargs: Any,
    ) -> None:
        ended = time.perf_counter()
        started = self._starts.pop((run_id, id(node_)), ended)
        failure = None if error is None else f"{type(error).__name__}: {error}"
        record = (node_, (ended - started) * 1000, success, failure)
        with self._lock:
            self._runs.setdefault(run_id, []).append(record)

    def current_run(self) -> str | None:
        """The id of the run last started in this context."""
        return _current_run.get()

    def pop(self, run_id: str | None) -> tuple[NodeRun, ...]:
        """Take the records of ``run_id`` (and forget them)."""
        if run_id is None:
            return ()
        with self._lock:
            records = self._runs.pop(run_id, [])
        nodes = self._nodes
        named = []
        for node_, _, _, _ in records:
            known = nodes.get(id(node_))
            if known is None or known[0] is not node_:
                known = nodes[id(node_)] = (node_, node_.name, *node_identity(node_))
            named.append(known)
        # The wall times rounded in one pass (``round(x, 4)`` bit for bit).
        walls = round_all([record[1] for record in records], 4)
        return tuple(
            NodeRun.trusted(
                node=name,
                module=module,
                version=version,
                wall_ms=wall_ms,
                ok=ok,
                error=error,
            )
            for (_, name, module, version), (_, _, ok, error), wall_ms in zip(
                named, records, walls, strict=True
            )
        )
