"""OpenTelemetry spans, as an operator's collector receives them: one per recall and one
per node under it, the arms' lasting as long as their search, every span carrying the
recall's trace id; and none at all unless tracing was turned on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk")

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
    InMemorySpanExporter,
)

from recallflow import Memory
from recallflow.adapters.lifecycle import otel
from recallflow.cli import demo
from recallflow.dataflows.runner import RecallFlow
from recallflow.models.result import Arm
from tests.test_recall import demo_memory  # noqa: F401  (fixture)


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    spans = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    otel.enable_tracing(provider)
    try:
        yield spans
    finally:
        otel.disable_tracing()
        provider.shutdown()


def _recall(memory: Memory, flow: RecallFlow) -> Any:
    from recallflow.ingestion import new_id

    request = {
        "tenant_id": demo.TENANT,
        "principal_id": demo.PRINCIPAL,
        "project": demo.MOBILE,
        "working_state": {"goal": "How are money amounts represented in cents?"},
    }
    return flow.run({"request": request, "trace_id": new_id("tr"), "ports": memory._ports})


def test_every_node_and_arm_has_a_span_with_the_trace_id(
    demo_memory: Memory,  # noqa: F811
    exporter: InMemorySpanExporter,
) -> None:
    flow = RecallFlow(arm_pool=demo_memory._arm_pool)
    result = _recall(demo_memory, flow)
    spans = exporter.get_finished_spans()
    [root] = [s for s in spans if s.name == "recallflow.recall"]
    assert root.attributes is not None
    assert root.attributes["recallflow.trace_id"] == result.trace.id
    nodes = {s.name: s for s in spans if s is not root}
    assert {n.node for n in result.trace.lineage} <= set(nodes)
    for span in nodes.values():
        assert span.attributes is not None
        assert span.attributes["recallflow.trace_id"] == result.trace.id
        assert span.parent is not None and span.parent.span_id == root.context.span_id
    for arm in result.trace.arms:
        span = nodes[arm.arm.value]
        assert span.attributes is not None
        assert span.attributes["recallflow.arm"] == arm.arm.value
        assert span.attributes["recallflow.arm.hits"] == len(arm.hits)
        assert span.end_time is not None and span.start_time is not None
        assert span.end_time >= span.start_time
    assert Arm.LEXICAL.value in nodes


def test_no_span_unless_tracing_is_on(demo_memory: Memory) -> None:  # noqa: F811
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    flow = RecallFlow(arm_pool=demo_memory._arm_pool)  # built while tracing is off
    assert not any(isinstance(a, otel.RecallSpans) for a in flow.driver.adapter.adapters)
    _recall(demo_memory, flow)
    assert exporter.get_finished_spans() == ()
    provider.shutdown()
