"""OpenTelemetry spans for operators: one span per recall, one child span per node, and the
arms' spans lasting as long as the arm's search did, each carrying the recall's trace id
(``recallflow.trace_id``) so a span and a stored trace find each other (see "The trace" in
docs/architecture.md).

Off by default and free when off: nothing here is imported, and no adapter is added to a
DAG, until :func:`enable_tracing` is called (extra ``otel``). It is a Hamilton lifecycle
adapter on the raw ``pre/post`` hooks, like the lineage recorder, rather than Hamilton's
``h_opentelemetry`` plugin: that plugin keeps its open spans on a context-variable stack
and closes a node's span when the node returns, but an arm runs in the arms' thread pool
and returns a future at once, so its span would measure the hand-off, not the search.
Here each span is parented explicitly on its recall's span, and an arm's span ends when
its future resolves, in whichever thread that is.
"""

from __future__ import annotations

from concurrent.futures import Future
from threading import Lock
from typing import Any

from hamilton.lifecycle.base import (
    BasePostGraphExecute,
    BasePostNodeExecute,
    BasePreGraphExecute,
    BasePreNodeExecute,
)

_ARM_STAGE = "arm"
_tracer: Any = None


def enable_tracing(tracer_provider: Any = None) -> None:
    """Emit spans from every recall DAG built from now on, through ``tracer_provider``
    (default: the global one the application configured)."""
    global _tracer
    from opentelemetry import trace

    provider = tracer_provider or trace.get_tracer_provider()
    _tracer = provider.get_tracer("recallflow")


def disable_tracing() -> None:
    """Stop adding spans to DAGs built from now on (already built ones keep theirs)."""
    global _tracer
    _tracer = None


def tracing_adapter() -> RecallSpans | None:
    """The span adapter for a DAG being built, or None while tracing is off."""
    return None if _tracer is None else RecallSpans(_tracer)


class RecallSpans(
    BasePreGraphExecute,  # type: ignore[misc]  # Hamilton ships no type information
    BasePreNodeExecute,  # type: ignore[misc]
    BasePostNodeExecute,  # type: ignore[misc]
    BasePostGraphExecute,  # type: ignore[misc]
):
    """Spans of every run of one DAG: the run's, and one per node under it."""

    def __init__(self, tracer: Any) -> None:
        self._tracer = tracer
        self._lock = Lock()
        self._runs: dict[str, tuple[Any, str]] = {}
        self._nodes: dict[tuple[str, str], Any] = {}

    def pre_graph_execute(
        self, *, run_id: str, inputs: dict[str, Any], **future_kwargs: Any
    ) -> None:
        trace_id = str(inputs.get("trace_id", ""))
        request = inputs.get("request")
        span = self._tracer.start_span("recallflow.recall")
        span.set_attribute("recallflow.trace_id", trace_id)
        moment = getattr(getattr(request, "moment", None), "value", None)
        if moment is not None:
            span.set_attribute("recallflow.moment", moment)
        with self._lock:
            self._runs[run_id] = (span, trace_id)

    def pre_node_execute(self, *, run_id: str, node_: Any, **future_kwargs: Any) -> None:
        from opentelemetry import trace

        with self._lock:
            parent, trace_id = self._runs.get(run_id, (None, ""))
        context = trace.set_span_in_context(parent) if parent is not None else None
        stage = str(node_.tags.get("stage", ""))
        span = self._tracer.start_span(node_.name, context=context)
        span.set_attribute("recallflow.trace_id", trace_id)
        span.set_attribute("recallflow.node", node_.name)
        if stage:
            span.set_attribute("recallflow.stage", stage)
        if stage == _ARM_STAGE:
            span.set_attribute("recallflow.arm", node_.name)
        with self._lock:
            self._nodes[(run_id, node_.name)] = span

    def post_node_execute(
        self,
        *,
        run_id: str,
        node_: Any,
        error: Exception | None,
        result: Any = None,
        **future_kwargs: Any,
    ) -> None:
        with self._lock:
            span = self._nodes.pop((run_id, node_.name), None)
        if span is None:
            return
        if isinstance(result, Future):  # an arm in the pool: its span lasts until it is done
            result.add_done_callback(lambda done: _end(span, done.exception(), _value(done)))
        else:
            _end(span, error, result)

    def post_graph_execute(
        self, *, run_id: str, error: Exception | None = None, **future_kwargs: Any
    ) -> None:
        with self._lock:
            span, _ = self._runs.pop(run_id, (None, ""))
        if span is not None:
            _end(span, error, None)


def _value(done: Future[Any]) -> Any:
    return None if done.exception() is not None else done.result()


def _end(span: Any, error: BaseException | None, result: Any) -> None:
    from opentelemetry.trace import Status, StatusCode

    arm_error = getattr(result, "error", None)  # an ArmResult: degraded, not failed
    hits = getattr(result, "hits", None)
    if hits is not None:
        span.set_attribute("recallflow.arm.hits", len(hits))
    if arm_error:
        span.set_attribute("recallflow.arm.degraded", True)
        span.set_attribute("recallflow.arm.error", str(arm_error))
    if error is not None:
        span.set_status(Status(StatusCode.ERROR, f"{type(error).__name__}: {error}"))
    span.end()
