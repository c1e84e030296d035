"""A built driver's execution plan, worked out once per set of input names and replayed
on every run (see "Moments" in docs/architecture.md).

``Driver.execute`` works out afresh, on every call, which nodes a run needs (a walk of
the graph from the requested node), checks the inputs against them, and then walks the
graph again depth first to run them, reading each node's name a few dozen times (some
1,900 reads a session open), for a graph that never changes between runs of one flow.
:class:`ExecutionPlan` does the first walk and the check once for the names of the inputs
a run is given (which optional inputs are present decides what runs) and keeps the
steps in an order of its own (below), each with the names of the values it is called
with. A run then takes the inputs and calls each step through the driver's lifecycle
adapters as the driver does (``pre_graph_execute``, ``do_remote_execute`` around each
node's ``pre/post_node_execute`` hooks and call, ``do_build_result``,
``post_graph_execute``), so the lineage, the stage timings, the arm pool and the spans
see the same calls, with the same arguments, and a failing node is logged and recorded
as Hamilton logs and records it. A remote adapter that names the steps it may hand to
another thread (``submits``, as the arm pool does) is asked about those steps only: every
other step it would run inline, once the values it reads from other threads have come,
and the plan runs it so itself (asking the adapter about each of an in-turn recall's ~40
other steps packed and unpacked their arguments twice more: 0.5 M of the 30 M
instructions a recall at 10k beliefs costs the client). A value is dropped after the last
step that reads it, as the driver prunes its computed values, so the garbage collector
does not walk the run's intermediate values more than it did. Measured on the snapshot
DAG (51 nodes, session open without a goal, 10k beliefs, in blocks of 50 runs), the
driver's bookkeeping and the garbage it left cost 0.9-1.4 ms of CPU a run.

The order. The driver's depth-first walk reaches a step that waits on an arm as soon as
it has visited that arm's branch: in the snapshot DAG the core's chain comes first, so
the run waited for the core's pre-rank right after starting it, with nothing to do
meanwhile, and an open with a goal started its priming arms only after the whole core
(about 5 ms at 10k beliefs). The plan keeps the driver's order except that every step
the arm pool may take (``submits``) comes first, each after the inputs it needs, so all
of them are started before the run first waits on one (:func:`overlapped`). A plan made
with ``overlap`` (the snapshot moments) also moves up every step that waits on no arm,
so the calling thread does its own work (reading the marked entities, the budget, the
trace's inputs) while the pre-rank runs, and hands the interpreter to the first thread it
started (``time.sleep(0)``): a started thread otherwise waits for the interpreter lock
until the calling thread blocks or its switch interval (5 ms) passes, and the pre-rank's
statement would be sent only after the calling thread's own work. The in-turn order is
unchanged: its arms already come first, and there the yield cost more than it saved
(the calling thread blocks at graph expansion right after starting the arms). The order
is still a topological one, and a run computes what the driver computes: the same
values, the same nodes run; only the order of the lineage's records differs.

What a plan leaves out, and why that is safe here: Hamilton's type check of the inputs
is done once, when the plan is made, against the first run's inputs (the inputs of a
recall are built by this package, never by the caller).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import Any

from hamilton import driver
from hamilton.execution.graph_functions import (
    combine_config_and_inputs,
    create_error_message,
    execute_lifecycle_for_node,
)
from hamilton.lifecycle.base import LifecycleAdapterSet
from hamilton.node import DependencyType, Node

_log = logging.getLogger("hamilton.execution.graph_functions")


@dataclass(frozen=True, slots=True)
class Step:
    """One node of a run: an input taken as given, or a function called with the values of
    ``arguments`` (the node's dependencies that hold a value when it runs); ``released``
    names the values no later step reads, dropped once this step has run.

    With a remote adapter that names the steps it may hand to another thread
    (``submits``), ``remote`` says whether this is one, and ``pending`` names the
    arguments such a step produces, whose value may still be a pending result (see
    :meth:`ExecutionPlan.execute`)."""

    name: str
    node: Node
    is_input: bool
    arguments: tuple[str, ...]
    released: tuple[str, ...] = ()
    remote: bool = True
    pending: tuple[str, ...] = ()


def plan_steps(
    graph_nodes: Mapping[str, Node],
    final: str,
    present: frozenset[str],
    submits: Callable[[Node], bool] | None = None,
    ahead: bool = False,
) -> list[Step]:
    """The steps of a run for ``final`` given inputs (and config) named ``present``: a
    missing optional input is skipped, a missing required one is an error.

    The order is Hamilton's depth-first one (``execute_subdag``: each node after its
    dependencies, in the order the node lists them) with, when ``submits`` names the
    steps the remote adapter hands to another thread, those steps and their inputs moved
    to the front (see :func:`overlapped`; ``ahead`` moves up every other step that waits
    on none of them as well)."""
    steps = _depth_first(graph_nodes, final, present)
    if submits is not None:
        steps = overlapped(steps, submits, ahead=ahead)
    return with_releases(steps, final)


def with_releases(steps: list[Step], final: str) -> list[Step]:
    """``steps`` (in a topological order), each naming the values no later step reads."""
    last_read = {name: i for i, step in enumerate(steps) for name in step.arguments}
    last_read.pop(final, None)
    released: dict[int, list[str]] = {}
    for name, i in last_read.items():
        released.setdefault(i, []).append(name)
    return [
        dataclasses.replace(step, released=tuple(released[i])) if i in released else step
        for i, step in enumerate(steps)
    ]


def _depth_first(
    graph_nodes: Mapping[str, Node], final: str, present: frozenset[str]
) -> list[Step]:
    """The steps in the order of Hamilton's depth-first execution."""
    done: set[str] = set()
    steps: list[Step] = []

    def visit(node_: Node, dependency: DependencyType) -> None:
        name = node_.name
        if name in done:
            return
        for upstream in node_.dependencies:
            if upstream.name not in done:
                visit(upstream, node_.input_types[upstream.name][1])
        if node_.user_defined:
            if name not in present:
                if dependency != DependencyType.OPTIONAL:
                    raise NotImplementedError(f"{name} was expected to be passed in but was not.")
                return
            steps.append(Step(name, node_, True, ()))
        else:
            arguments = tuple(d.name for d in node_.dependencies if d.name in done)
            steps.append(Step(name, node_, False, arguments))
        done.add(name)

    start = graph_nodes[final]
    visit(start, DependencyType.OPTIONAL if start.user_defined else DependencyType.REQUIRED)
    return steps


def overlapped(
    steps: list[Step], submits: Callable[[Node], bool], *, ahead: bool = False
) -> list[Step]:
    """``steps`` (a depth-first order) reordered so that no step waits on another thread
    while a step that could have been handed to one is still to start.

    A *submitted* step is one ``submits`` says the remote adapter hands to another thread
    and whose inputs are none of them (a step given a pending result runs inline, as the
    arm pool runs it); a step that reads a submitted step's value *waits*. First come the
    submitted steps, in depth-first order, each preceded by those of its inputs not placed
    yet (in depth-first order too), so every one is started before the run first waits
    (unless its own inputs wait, which no DAG of this package has).
    With ``ahead``, every step that waits on nothing and takes only values already placed
    follows them, before the first step that waits, so the calling thread works while
    the submitted steps run instead of idling at the first wait. The rest keep their
    depth-first order. The result is still a topological order of the same steps: each
    step after every step it reads."""
    index = {step.name: i for i, step in enumerate(steps)}
    by_name = {step.name: step for step in steps}
    submitted: set[str] = set()
    for step in steps:
        if (
            not step.is_input
            and submits(step.node)
            and not any(a in submitted for a in step.arguments)
        ):
            submitted.add(step.name)
    if not submitted:
        return steps
    placed: dict[str, Step] = {}
    for step in steps:
        if step.name not in submitted:
            continue
        needed: set[str] = set()
        reached = [step.name]
        while reached:
            name = reached.pop()
            if name not in placed and name not in needed:
                needed.add(name)
                reached.extend(by_name[name].arguments)
        for name in sorted(needed, key=index.__getitem__):
            placed[name] = by_name[name]
    if ahead:
        waits = {s.name for s in steps if any(a in submitted for a in s.arguments)}
        for step in steps:  # one pass: a step's inputs come before it in ``steps``
            if (
                step.name not in placed
                and step.name not in waits
                and all(a in placed for a in step.arguments)
            ):
                placed[step.name] = step
    return [*placed.values(), *(s for s in steps if s.name not in placed)]


class ExecutionPlan:
    """Runs ``final`` on a built driver from cached plans; thread-safe (see the module)."""

    def __init__(self, built: driver.Driver, final: str, *, overlap: bool = False) -> None:
        self._driver = built
        self._final = final
        self._overlap = overlap
        self._adapter = adapter = built.adapter
        # The adapter set never changes once built: which adapter implements each method
        # and hook is looked up here once, not on every node of every run (Hamilton's
        # ``call_lifecycle_method_sync`` and ``call_all_lifecycle_hooks_sync`` look them
        # up by name on each call, a few µs per node).
        self._remote: Any = None
        self._submits: Callable[[Node], bool] | None = None
        if adapter.does_method("do_remote_execute", is_async=False):
            (remote,) = adapter.sync_methods["do_remote_execute"]
            self._remote = remote.do_remote_execute
            # An adapter that says which nodes it hands to another thread gets them started
            # first (see :func:`overlapped`); any other is run in the driver's order.
            self._submits = getattr(remote, "submits", None)
        self._build_result = adapter.does_method("do_build_result", is_async=False)
        self._pre_graph = adapter.does_hook("pre_graph_execute", is_async=False)
        self._post_graph = adapter.does_hook("post_graph_execute", is_async=False)
        self._run_node: Any = partial(
            _run_node,
            _hooks(adapter, "pre_node_execute"),
            _hooks(adapter, "post_node_execute"),
        )
        if adapter.does_method("do_node_execute", is_async=False):
            self._run_node = partial(_hamilton_run_node, adapter)
        self._plans: dict[frozenset[str], list[Step]] = {}
        self._lock = threading.Lock()

    def steps(self, inputs: Mapping[str, Any]) -> list[Step]:
        """The plan for inputs named as ``inputs`` are (made, and the inputs checked by
        Hamilton's own rules, on first use)."""
        names = frozenset(inputs)
        found = self._plans.get(names)
        if found is not None:
            return found
        graph = self._driver.graph
        nodes, user_nodes = graph.get_upstream_nodes([self._final], dict(inputs), None)
        driver.Driver.validate_inputs(graph, self._adapter, user_nodes, dict(inputs), nodes)
        made = plan_steps(
            graph.nodes,
            self._final,
            names | frozenset(graph.config),
            self._submits,
            ahead=self._overlap,
        )
        submits = self._submits
        if submits is not None:
            handed = {s.name for s in made if not s.is_input and submits(s.node)}
            made = [
                dataclasses.replace(
                    s,
                    remote=s.name in handed,
                    pending=tuple(a for a in s.arguments if a in handed),
                )
                for s in made
            ]
        with self._lock:
            return self._plans.setdefault(names, made)

    def execute(self, inputs: Mapping[str, Any]) -> Any:
        """The value of ``final`` for ``inputs``, with every lifecycle hook called as
        ``Driver.execute`` calls it."""
        steps = self.steps(inputs)
        adapter = self._adapter
        remote = self._remote
        run_node_ = self._run_node
        graph = self._driver.graph
        values = combine_config_and_inputs(graph.config, dict(inputs))
        run_id = str(uuid.uuid4())
        final_vars = [self._final]
        if self._pre_graph:
            adapter.call_all_lifecycle_hooks_sync(
                "pre_graph_execute",
                run_id=run_id,
                graph=graph,
                final_vars=final_vars,
                inputs=dict(inputs),
                overrides=None,
            )
        outputs: Any = None
        error: Exception | None = None
        computed: dict[str, Any] = {}
        handed = not self._overlap  # whether the first step handed to a thread is behind us
        try:
            for step in steps:
                if step.is_input:
                    computed[step.name] = values[step.name]
                    continue
                kwargs = {name: computed[name] for name in step.arguments}
                if remote is not None and step.remote:
                    value = computed[step.name] = remote(
                        node=step.node,
                        execute_lifecycle_for_node=partial(
                            _by_keywords, run_node_, step.node, run_id
                        ),
                        **kwargs,
                    )
                    if not handed and isinstance(value, Future):
                        handed = True
                        time.sleep(0)  # the interpreter to the thread just started
                else:
                    # A step the remote adapter never hands over, run here as it would run
                    # it: once the values it reads from other threads have come.
                    for name in step.pending:
                        if isinstance(value := kwargs[name], Future):
                            kwargs[name] = value.result()
                    computed[step.name] = run_node_(step.node, run_id, kwargs)
                for name in step.released:
                    del computed[name]
            outputs = {self._final: computed[self._final]}
            if self._build_result:
                outputs = adapter.call_lifecycle_method_sync("do_build_result", outputs=outputs)
        except Exception as exc:
            error = exc
            raise
        finally:
            if self._post_graph:
                adapter.call_all_lifecycle_hooks_sync(
                    "post_graph_execute",
                    run_id=run_id,
                    graph=graph,
                    success=error is None,
                    error=error,
                    results=outputs,
                )
        return outputs


Hook = Callable[..., None]


def _hooks(adapter: LifecycleAdapterSet, name: str) -> tuple[Hook, ...]:
    """The bound ``name`` hook of each adapter of the set that has it, in the set's order
    (the order ``call_all_lifecycle_hooks_sync`` calls them in)."""
    return tuple(getattr(a, name) for a in adapter.sync_hooks.get(name, []))


def _run_node(
    pre: tuple[Hook, ...],
    post: tuple[Hook, ...],
    node_: Node,
    run_id: str,
    kwargs: dict[str, Any],
    /,
) -> Any:
    """One node with its ``pre/post_node_execute`` hooks, as Hamilton's
    ``execute_lifecycle_for_node`` runs it (same hooks, arguments, error log and order)
    without its per-call look-ups of which hooks exist; for adapter sets that leave
    ``do_node_execute`` to Hamilton.

    ``kwargs`` is the node's arguments, a dict the run made for this call, handed to the
    hooks as it is: taken as ``**kwargs``, every call unpacked the run's dict into its
    arguments and packed them into a new one (about 40 calls a recall)."""
    try:
        for hook in pre:
            hook(run_id=run_id, node_=node_, kwargs=kwargs, task_id=None)
    except Exception:
        _log.exception(create_error_message(kwargs, node_, "[pre-node-execute]"))
        raise
    result = None
    error: Exception | None = None
    try:
        result = node_.callable(**kwargs)
        return result
    except Exception as exc:
        error = exc
        _log.exception(create_error_message(kwargs, node_, ""))
        raise
    finally:
        try:
            for hook in post:
                hook(
                    run_id=run_id,
                    node_=node_,
                    kwargs=kwargs,
                    success=error is None,
                    error=error,
                    result=result,
                    task_id=None,
                )
        except Exception:
            _log.exception(create_error_message(kwargs, node_, "[post-node-execute]"))
            raise


def _by_keywords(
    run_node_: Callable[[Node, str, dict[str, Any]], Any],
    node_: Node,
    run_id: str,
    /,
    **kwargs: Any,
) -> Any:
    """``run_node_`` called as Hamilton calls ``execute_lifecycle_for_node`` (the node's
    arguments as keywords): what a remote adapter is handed."""
    return run_node_(node_, run_id, kwargs)


def _hamilton_run_node(
    adapter: LifecycleAdapterSet, node_: Node, run_id: str, kwargs: dict[str, Any], /
) -> Any:
    """One node through Hamilton's own ``execute_lifecycle_for_node`` (an adapter set that
    implements ``do_node_execute``)."""
    return execute_lifecycle_for_node(
        __node_=node_, __adapter=adapter, __run_id=run_id, __task_id=None, **kwargs
    )
