"""What the recall benchmarks share (node, arm, moment and overhead groups).

* :class:`QueryCachingEmbedder` wraps the store's embedder and remembers the vectors of
  small calls (≤ 16 texts: the query path, never a bulk load), so after one warm-up pass
  a recall's query embedding costs a dictionary lookup — "query embedding excluded".
  ``embedding:query`` times the embedder alone.
* :class:`PricedQueryEmbedder` gives the store's vectors, but only after putting the same
  texts through another embedder (MiniLM): a recall then pays the default embedder's query
  cost, uncached, exactly where ``query_vectors`` pays it, while its matches stay those of
  the store it searches (built with the hashing embedder).
* :func:`requests` turns the tier's fixed :class:`~benchmarks.datagen.BenchQuery` set
  into in-turn :class:`~recallflow.models.request.RecallRequest`\\ s.
* :class:`Captured` runs the in-turn DAG once per request asking for *every* node and
  keeps each node's inputs, so a node can be timed alone on realistic, fixed inputs by
  calling its function directly: a stage is timed in isolation, so its cost is not hidden
  in the whole recall's noise.
* :func:`run_direct` calls every node function in topological order with no driver and no
  adapter: the baseline of the ``overhead`` group.
* :class:`RecordingSearch` / :class:`ReplaySearch` record the belief-search answers of the
  capture pass and replay them from memory, so the ``overhead`` group times orchestration
  without database noise (a 1 ms jitter in an arm would swamp a 50 µs adapter).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from hamilton.node import DependencyType, Node, NodeType

from benchmarks.datagen import EPOCH, TIERS, BenchQuery, bench_queries, generate_principal
from benchmarks.stores import (
    NEIGHBOUR_PRINCIPAL,
    SEED,
    BenchStore,
    bench_embedder_name,
    bench_home,
    open_tier,
)
from recallflow.adapters.embedders import embedder_from_name
from recallflow.adapters.postgres.embedded import EmbeddedServer
from recallflow.dataflows import RESULT_NODE
from recallflow.dataflows.runner import RecallFlow
from recallflow.memory import Memory
from recallflow.models.request import Moment, RecallRequest, WorkingState
from recallflow.models.result import RecallResult
from recallflow.ports import BeliefSearch, Embedder, RecallPorts

#: Requests run before capturing (the capture pass itself warms the rest).
_WARM_UP = 4
#: Calls with more texts than this are bulk embedding (ingestion), never cached.
_QUERY_CALL_MAX = 16


class QueryCachingEmbedder:
    """The store's embedder, with the vectors of query-sized calls remembered."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self._cache: dict[str, npt.NDArray[np.float32]] = {}

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if len(texts) > _QUERY_CALL_MAX:
            return self.inner.embed(texts)
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            for text, row in zip(missing, self.inner.embed(missing), strict=True):
                self._cache[text] = row
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([self._cache[t] for t in texts])


class PricedQueryEmbedder:
    """``vectors`` (the store's embedder), each call first run through ``priced`` as well."""

    def __init__(self, vectors: Embedder, priced: Embedder) -> None:
        self.vectors = vectors
        self.priced = priced

    @property
    def name(self) -> str:
        return self.vectors.name

    @property
    def dimension(self) -> int:
        return self.vectors.dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        getattr(self.priced, "embed_queries", self.priced.embed)(texts)
        return self.vectors.embed(texts)


def _part(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return hashlib.sha1(value.tobytes()).hexdigest()
    return repr(value)


def _call_key(method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    parts = [method, *map(_part, args), *(f"{k}={_part(v)}" for k, v in sorted(kwargs.items()))]
    return "|".join(parts)


class RecordingSearch:
    """A belief search that remembers every answer of the search it wraps, by call."""

    def __init__(self, inner: BeliefSearch) -> None:
        self._inner = inner
        self._lock = threading.Lock()
        self.answers: dict[str, Any] = {}

    def __getattr__(self, method: str) -> Callable[..., Any]:
        target = getattr(self._inner, method)

        def call(*args: Any, **kwargs: Any) -> Any:
            answer = target(*args, **kwargs)
            with self._lock:
                self.answers[_call_key(method, args, kwargs)] = answer
            return answer

        return call


class ReplaySearch:
    """A belief search that answers from a :class:`RecordingSearch`'s answers, instantly."""

    def __init__(self, answers: Mapping[str, Any]) -> None:
        self._answers = dict(answers)

    def __getattr__(self, method: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            return self._answers[_call_key(method, args, kwargs)]

        return call


def requests(bench: BenchStore) -> list[RecallRequest]:
    """One in-turn request per fixed query, as of the generated world's "now"."""
    return [_request(bench, q) for q in bench.queries]


@contextmanager
def warm_tier(tier: str) -> Iterator[tuple[EmbeddedServer, Memory, list[RecallRequest]]]:
    """The benchmark server, the tier's store (built first when not cached) and its
    in-turn requests, after two passes over them (the query embedding cache, the prepared
    statements, the built flow), for the scripts that time recalls in a loop; the store
    is closed and the server released at the end."""
    server = EmbeddedServer(bench_home())
    try:
        embedder = QueryCachingEmbedder(embedder_from_name(bench_embedder_name()))
        store = open_tier(server, TIERS[tier], embedder=embedder)
        try:
            reqs = requests(store)
            for req in reqs * 2:
                store.memory.recall(req)
            yield server, store.memory, reqs
        finally:
            store.memory.close()
    finally:
        server.release()


def principal_requests(
    bench: BenchStore, beliefs: int
) -> tuple[str, list[RecallRequest], list[tuple[str, ...]]] | None:
    """A principal of the tier holding ``beliefs`` beliefs, its in-turn requests and their
    ground truth; None when the tier has no principal of that size. The measured principal
    is preferred; otherwise the first neighbour, whose queries are generated again (the
    generator is deterministic, so they match the stored beliefs)."""
    tier = bench.tier
    if tier.beliefs == beliefs:
        queries: tuple[BenchQuery, ...] = bench.queries
        principal = bench.principal_id
    elif tier.neighbours and tier.neighbour_beliefs == beliefs:
        principal = NEIGHBOUR_PRINCIPAL
        queries = bench_queries(generate_principal(SEED, principal, beliefs))
    else:
        return None
    reqs = [_request(bench, q, principal) for q in queries]
    return principal, reqs, [q.relevant_ids for q in queries]


def _request(bench: BenchStore, query: BenchQuery, principal: str | None = None) -> RecallRequest:
    return RecallRequest(
        tenant_id=bench.tenant_id,
        principal_id=principal or bench.principal_id,
        working_state=WorkingState(goal=query.text, entities=query.entities),
        moment=Moment.IN_TURN,
        project=query.project,
        session_id="s-bench",
        as_of=EPOCH,
    )


def flow_inputs(bench: BenchStore, flow: RecallFlow, request: RecallRequest) -> dict[str, Any]:
    """The inputs ``Memory.recall`` hands the driver, for ``request``."""
    memory = bench.memory
    return {
        "request": request,
        "trace_id": "tr-bench",
        "policy": flow.policy,
        "dag_version": flow.dag_version,
        "ports": memory._ports,
    }


def _config_values(flow: RecallFlow) -> dict[str, Any]:
    return dict(flow.driver.graph.config)


def topological(nodes: Mapping[str, Node]) -> list[Node]:
    """The standard (function) nodes of a graph, each after everything it depends on."""
    order: list[Node] = []
    seen: set[str] = set()

    def visit(node: Node) -> None:
        if node.name in seen:
            return
        seen.add(node.name)
        for dep in node.dependencies:
            visit(dep)
        if node.node_role == NodeType.STANDARD:
            order.append(node)

    for name in sorted(nodes):
        visit(nodes[name])
    return order


def _call(node: Node, values: Mapping[str, Any]) -> Any:
    kwargs = {}
    for name, (_type, dependency) in node.input_types.items():
        if name in values:
            kwargs[name] = values[name]
        elif dependency == DependencyType.REQUIRED:
            raise KeyError(f"node {node.name} needs {name}")
    return node.callable(**kwargs)


def run_direct(order: Iterable[Node], inputs: Mapping[str, Any]) -> RecallResult:
    """Every node function called in topological order, no driver, no adapter."""
    values = dict(inputs)
    for node in order:
        values[node.name] = _call(node, values)
    result: RecallResult = values[RESULT_NODE]
    return result


@dataclass
class Captured:
    """A tier's in-turn DAG with every node's value for each fixed request."""

    flow: RecallFlow
    order: list[Node]
    inputs: list[dict[str, Any]]
    values: list[dict[str, Any]]
    replay: list[dict[str, Any]]

    def node(self, name: str) -> Node:
        return self.flow.driver.graph.nodes[name]

    def args(self, name: str) -> list[dict[str, Any]]:
        """The keyword arguments ``name``'s function got, one dict per request."""
        node = self.node(name)
        return [{k: v[k] for k in node.input_types if k in v} for v in self.values]

    def stage(self, name: str) -> str:
        return str(self.node(name).tags.get("stage", ""))

    def errors(self) -> int:
        """Arm failures seen while capturing (a degraded run would time the wrong path)."""
        result = [v[RESULT_NODE] for v in self.values]
        return sum(len(r.trace.degraded_arms) for r in result)


def capture(bench: BenchStore) -> Captured:
    """Run the in-turn DAG once per fixed request, after a short warm-up."""
    flow = bench.memory.flow(Moment.IN_TURN)
    order = topological(flow.driver.graph.nodes)
    config = _config_values(flow)
    inputs = [{**config, **flow_inputs(bench, flow, r)} for r in requests(bench)]
    for item in inputs[:_WARM_UP]:  # prepared statements, embedding cache, OS cache
        run_direct(order, item)
    recorder = RecordingSearch(bench.memory._ports.belief_search)
    values = []
    for item in inputs:
        ports: RecallPorts = item["ports"]
        state = {**item, "ports": replace(ports, belief_search=cast(BeliefSearch, recorder))}
        for node in order:
            state[node.name] = _call(node, state)
        values.append(state)
    # A node timed on its captured arguments calls the store's own search: through the
    # recorder, every timed arm call also built its answer's key from the reprs of the
    # filter, the ids and the limits (a sixth of the semantic arm's instructions).
    live = bench.memory._ports.belief_search
    for state in values:
        for key, value in state.items():
            if value is recorder:
                state[key] = live
        state["ports"] = replace(state["ports"], belief_search=live)
    replayed = cast(BeliefSearch, ReplaySearch(recorder.answers))
    replay = [{**item, "ports": replace(item["ports"], belief_search=replayed)} for item in inputs]
    return Captured(flow=flow, order=order, inputs=inputs, values=values, replay=replay)
