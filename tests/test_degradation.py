"""Every stage past the arms degrades instead of failing, on the real embedded server: the
candidate load and the relevance evidence (failing or timing out), the links between
candidates (held by a lock: the load and the evidence read with them are kept), the trace
write (a lock held on ``recall_traces``, a value the database refuses) and a hung external
provider (abandoned without leaking threads). The recall returns its block and the trace
says what was lost (see "Reliability" in docs/architecture.md)."""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
import pytest

from recallflow import Memory, open_memory
from recallflow.adapters.postgres.pool import RECALL_BACKSTOP_TIMEOUT_MS
from recallflow.models.result import Arm, RecallQuery
from recallflow.models.stages import HardFilter
from recallflow.nodes.arms.runner import abandoned_calls
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy
from recallflow.ports import Embedder, RawHits
from tests.helpers import active_view, belief, request

#: A hang guard: a wait that reaches it fails the test (it is not a time assertion).
GIVE_UP_S = 30.0
QUESTION = "How are invoices stored?"


def _seed(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many(
        [
            belief(
                tenant, id="b-cents", statement="Invoices are stored in cents.", subject="money"
            ),
            belief(tenant, id="b-tea", statement="The user drinks green tea.", subject="tea"),
        ]
    )


@contextmanager
def table_locked(memory: Memory, table: str) -> Iterator[threading.Event]:
    """Another session holds ``table`` in ACCESS EXCLUSIVE mode until the block ends (or
    the hang guard), as a long migration would; yields the event that releases it."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        with memory.pool.connection() as conn, conn.transaction():
            conn.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
            locked.set()
            release.wait(GIVE_UP_S)

    holder = threading.Thread(target=hold, name=f"lock-{table}")
    holder.start()
    try:
        assert locked.wait(GIVE_UP_S)
        yield release
    finally:
        release.set()
        holder.join()


# --- the candidate load and the evidence ------------------------------------------------


def test_a_candidate_load_past_its_bound_degrades_the_recall(memory: Memory, tenant: str) -> None:
    _seed(memory, tenant)
    healthy = memory.recall(request(tenant, goal=QUESTION))
    assert "b-cents" in healthy.rendered_ids
    # Only loading the candidates reads the not-here exclusions: the arms run, the load
    # waits for the lock until the recall pool's backstop cancels it.
    with table_locked(memory, "belief_exclusions"):
        result = memory.recall(request(tenant, goal=QUESTION))
    assert result.degraded
    assert set(result.trace.degraded_stages) == {"candidates"}
    assert "timeout" in result.trace.degraded_stages["candidates"]
    assert str(RECALL_BACKSTOP_TIMEOUT_MS) in result.trace.degraded_stages["candidates"]
    assert result.trace.degraded_arms == ()
    assert result.rendered_ids == () and result.block == ""  # what it can: nothing
    stored = memory.trace(tenant, "p1", result.trace_id)
    assert stored.degraded_stages == result.trace.degraded_stages
    # Nothing is left behind on the recall connections: the next recall is whole.
    again = memory.recall(request(tenant, goal=QUESTION))
    assert not again.degraded
    assert again.rendered_ids == healthy.rendered_ids


def test_links_held_by_a_lock_cost_only_the_neighbour_support(memory: Memory, tenant: str) -> None:
    _seed(memory, tenant)
    healthy = memory.recall(request(tenant, goal=QUESTION))
    # The candidates, their evidence and the links between them are read together; a lock
    # on the edges holds only the links (and graph expansion), each until the arms' timeout.
    with table_locked(memory, "belief_edges"):
        result = memory.recall(request(tenant, goal=QUESTION))
    assert result.trace.degraded_stages == {}
    assert Arm.GRAPH_EXPANDED in result.trace.degraded_arms
    assert any(
        a.arm == Arm.GRAPH_EXPANDED and "timeout" in (a.error or "") for a in result.trace.arms
    )
    assert result.rendered_ids == healthy.rendered_ids
    again = memory.recall(request(tenant, goal=QUESTION))
    assert not again.degraded


class _ScaledQueries:
    """The store's embedder for statements, broken for queries: every query vector times
    ``scale`` (0: a model that returns nothing for some input; NaN: one that fails on it).
    PostgreSQL takes a vector of length 0, and every cosine against it is NaN."""

    def __init__(self, inner: Embedder, scale: float) -> None:
        self._inner = inner
        self._scale = scale

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def dimension(self) -> int:
        return self._inner.dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return (self._inner.embed(texts) * self._scale).astype(np.float32)


@pytest.mark.parametrize(
    ("scale", "says"),
    [(0.0, "length 0, not 1"), (0.5, "length 0.5, not 1"), (math.nan, "not finite numbers")],
)
def test_a_query_vector_that_is_not_unit_length_degrades_the_recall(
    memory: Memory, tenant: str, scale: float, says: str
) -> None:
    # A vector of length 0 used to reach the database, whose every cosine against it is
    # NaN: the semantic arm returned the first ids it read, scored NaN, and every candidate's
    # evidence held NaN cosines.
    _seed(memory, tenant)
    healthy = memory.recall(request(tenant, goal=QUESTION))
    broken_embedder = _ScaledQueries(memory.embedder, scale)
    with open_memory(memory.uri, embedder=broken_embedder, operator=True) as broken:
        result = broken.recall(request(tenant, goal=QUESTION))
        stored = broken.trace(tenant, "p1", result.trace_id)
    assert set(result.trace.degraded_stages) == {"evidence"}
    assert says in result.trace.degraded_stages["evidence"]
    (semantic,) = (a for a in result.trace.arms if a.arm == Arm.SEMANTIC)
    assert semantic.hits == () and "field 'query_vectors'" in (semantic.error or "")
    scores = [h.raw_score for a in result.trace.arms for h in a.hits]
    assert scores and not any(math.isnan(s) for s in scores)
    assert stored.degraded_stages == result.trace.degraded_stages
    # The key arms still answer: the belief the question names is found by its words.
    assert "b-cents" in healthy.rendered_ids
    assert any(h.belief_id == "b-cents" for a in result.trace.arms for h in a.hits)


def test_evidence_the_database_refuses_leaves_the_candidates_loaded(
    memory: Memory, tenant: str
) -> None:
    # A unit query vector one component short passes the check made before it is sent,
    # and PostgreSQL refuses it (its dimensions differ from the column's): the candidates
    # are loaded again without their evidence, and the refusal is handed back with them.
    _seed(memory, tenant)
    f = active_view(tenant)
    short = memory.embedder.embed([QUESTION])[:, 1:]
    short = (short / np.linalg.norm(short, axis=1, keepdims=True)).astype(np.float32)
    search = memory._ports.belief_search
    ids = ["b-cents", "b-tea"]
    beliefs, evidence = search.load_with_evidence(
        f, ids, [QUESTION], short, [], DEFAULT_POLICY.limits
    )
    assert isinstance(evidence, psycopg.errors.DataError), evidence
    assert "dimensions" in str(evidence)
    assert sorted(b.id for b in beliefs) == sorted(b.id for b in search.load(f, ids))


# --- the trace write ------------------------------------------------------------------


def _trace_rows(memory: Memory, tenant: str, trace_id: str) -> int:
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM recall_traces WHERE tenant_id = %s AND id = %s",
            (tenant, trace_id),
        ).fetchone()
    assert row is not None
    return int(row[0])


@pytest.fixture
def quick_trace_policy() -> RetrievalPolicy:
    retention = DEFAULT_POLICY.retention.model_copy(update={"write_timeout_ms": 100})
    return DEFAULT_POLICY.model_copy(update={"retention": retention})


def test_a_lock_on_the_traces_bounds_the_write_and_the_recall_keeps_its_block(
    memory: Memory,
    tenant: str,
    quick_trace_policy: RetrievalPolicy,
    caplog: pytest.LogCaptureFixture,
) -> None:
    _seed(memory, tenant)
    memory.recall(request(tenant, goal=QUESTION), policy=quick_trace_policy)  # flow built
    unsaved = memory.unsaved_traces
    with (
        caplog.at_level(logging.WARNING, logger="recallflow.memory"),
        table_locked(memory, "recall_traces") as release,
    ):
        result = memory.recall(request(tenant, goal=QUESTION), policy=quick_trace_policy)
        # Returned while the lock is still held: the write gave up, it did not wait.
        assert not release.is_set()
    assert "b-cents" in result.rendered_ids
    assert memory.unsaved_traces == unsaved + 1
    assert any(result.trace_id in r.getMessage() for r in caplog.records)
    assert _trace_rows(memory, tenant, result.trace_id) == 0  # no partial trace
    # With the lock gone, traces are stored again (under the default timeout: 100 ms is
    # enough to give up on a lock, not a bound a loaded machine's write always meets).
    after = memory.recall(request(tenant, goal=QUESTION))
    assert _trace_rows(memory, tenant, after.trace_id) == 1
    assert memory.unsaved_traces == unsaved + 1


class _Provider:
    """An external provider that suggests ``hits``, fails with ``error``, or hangs until
    ``release`` is set."""

    def __init__(
        self,
        hits: RawHits = (),  # type: ignore[assignment]
        *,
        error: Exception | None = None,
        release: threading.Event | None = None,
    ) -> None:
        self.hits, self.error, self.release = list(hits), error, release
        self.calls = 0

    @property
    def name(self) -> str:
        return "test-provider"

    def search(self, f: HardFilter, queries: Sequence[RecallQuery], limit: int) -> RawHits:
        self.calls += 1
        if self.release is not None:
            self.release.wait(GIVE_UP_S)
        if self.error is not None:
            raise self.error
        return self.hits


def _external(timeout_ms: int = 200) -> RetrievalPolicy:
    limits = DEFAULT_POLICY.limits.model_copy(update={"timeout_ms": timeout_ms})
    return DEFAULT_POLICY.model_copy(
        update={"arms": (*DEFAULT_POLICY.arms, "external_hits"), "limits": limits}
    )


def test_a_trace_recording_an_error_with_a_nul_is_stored_and_reads_back(
    memory: Memory, tenant: str
) -> None:
    # The provider's error text carries a NUL, which PostgreSQL's JSON cannot read back:
    # the trace is kept (not lost) with the NUL written as the four characters \x00.
    _seed(memory, tenant)
    provider = _Provider(error=RuntimeError("index \x00 corrupt"))
    with open_memory(memory.uri, embedder=memory.embedder, external_provider=provider) as m:
        result = m.recall(request(tenant, goal=QUESTION), policy=_external(60_000))
        assert m.unsaved_traces == 0
    assert "b-cents" in result.rendered_ids
    assert result.trace.degraded_arms == (Arm.EXTERNAL,)
    assert _trace_rows(memory, tenant, result.trace_id) == 1
    stored = memory.trace(tenant, "p1", result.trace_id)
    errors = [a.error for a in stored.arms if a.error is not None]
    assert any("index \\x00 corrupt" in e for e in errors)
    assert stored.rendered_sha256 == result.rendered_sha256
    # Every read of the row's JSON still works (a NUL in it would fail them all).
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT operator_view ->> 'project' FROM recall_traces"
            " WHERE tenant_id = %s AND id = %s",
            (tenant, result.trace_id),
        ).fetchone()
    assert row == (result.trace.project,)


def test_a_stored_trace_holding_a_non_number_is_still_readable(memory: Memory, tenant: str) -> None:
    # JSON has no NaN: a trace that scored one (written before infinite input was
    # refused) holds null where the number was.
    _seed(memory, tenant)
    result = memory.recall(request(tenant, goal=QUESTION))
    with memory.pool.connection() as conn:
        conn.execute(
            "UPDATE recall_traces SET operator_view = jsonb_set(jsonb_set(operator_view::jsonb,"
            " '{floor}', 'null'), '{arms,0,latency_ms}', 'null')::json"
            " WHERE tenant_id = %s AND id = %s",
            (tenant, result.trace_id),
        )
    stored = memory.trace(tenant, "p1", result.trace_id)
    assert math.isnan(stored.floor) and math.isnan(stored.arms[0].latency_ms)
    assert stored.rendered_sha256 == result.rendered_sha256
    assert stored.rendered_ids == result.rendered_ids


@pytest.mark.parametrize(
    "answer",
    [
        [("b-cents", "high")],  # a score that is no number
        [("b-cents", None)],
        [("b-cents", [0.9])],
        [("b-tea", 0.5), ("b-cents", {"score": 0.9})],
    ],
)
def test_a_provider_answer_of_another_shape_degrades_the_recall(
    memory: Memory, tenant: str, answer: list[Any]
) -> None:
    """A provider whose pairs hold a score that is no number failed the whole recall with
    pydantic's error, raised from building the arm's hits after the provider returned; a
    provider that fails only degrades the recall, and so does one whose answer cannot be
    read: the block of the other arms, its trace stored, the arm's error saying why."""
    _seed(memory, tenant)
    provider = _Provider(answer)
    with open_memory(memory.uri, embedder=memory.embedder, external_provider=provider) as m:
        result = m.recall(request(tenant, goal=QUESTION), policy=_external(60_000))
        assert m.unsaved_traces == 0
    assert provider.calls == 1
    assert "b-cents" in result.rendered_ids
    assert result.trace.degraded_arms == (Arm.EXTERNAL,)
    (external,) = [a for a in result.trace.arms if a.arm == Arm.EXTERNAL]
    assert external.error is not None and "(belief id, score) pairs" in external.error
    assert "\n" not in external.error
    assert _trace_rows(memory, tenant, result.trace_id) == 1


# --- a hung external provider ---------------------------------------------------------


def _provider_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith("rf-provider"))


def _arm_pool_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith("rf-arm"))


def _threads_outside_the_arm_pool() -> int:
    return threading.active_count() - _arm_pool_threads()


def test_a_hung_provider_is_abandoned_without_leaking_threads(memory: Memory, tenant: str) -> None:
    _seed(memory, tenant)
    release = threading.Event()
    provider = _Provider([("b-cents", 1.0)], release=release)
    with open_memory(memory.uri, embedder=memory.embedder, external_provider=provider) as m:
        release.set()  # healthy at first: the handle's own threads (pools, arms) start
        for _ in range(2):
            m.recall(request(tenant, goal=QUESTION), policy=_external(60_000))
        # The arm pool starts its threads on demand up to its bound, so it may grow while
        # a hung arm holds one of them; every other thread must stay as it was.
        baseline = _threads_outside_the_arm_pool()
        release.clear()
        provider.calls = 0
        try:
            for _ in range(5):
                result = m.recall(request(tenant, goal=QUESTION), policy=_external())
                arm = next(a for a in result.trace.arms if a.arm is Arm.EXTERNAL)
                assert arm.error is not None and not arm.hits
                assert "b-cents" in result.rendered_ids  # the other arms still found it
                # One call hangs; the later recalls do not call it again, so neither
                # threads nor queued calls pile up behind it.
                assert provider.calls == 1
                assert abandoned_calls(provider) == 1
                assert _threads_outside_the_arm_pool() <= baseline + 1
                executor = m._arm_pool._pool
                assert len(executor._threads) <= executor._max_workers
        finally:
            release.set()
        deadline = time.monotonic() + GIVE_UP_S
        while abandoned_calls(provider) or _provider_threads():
            assert time.monotonic() < deadline, "the abandoned call's thread never ended"
            time.sleep(0.01)
        assert _threads_outside_the_arm_pool() == baseline
        # Answering again, it is called again.
        healthy = m.recall(request(tenant, goal=QUESTION), policy=_external(60_000))
        arm = next(a for a in healthy.trace.arms if a.arm is Arm.EXTERNAL)
        assert arm.error is None and [h.belief_id for h in arm.hits] == ["b-cents"]
        assert provider.calls == 2


# --- a connection whose pipeline failed ------------------------------------------------


def test_a_trace_write_that_gave_up_on_a_lock_leaves_no_pool_warning(
    memory: Memory,
    tenant: str,
    quick_trace_policy: RetrievalPolicy,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The trace write's pipeline times out on the lock and its connection is closed (see
    # tests/test_pipeline_failures.py): the pool replaces it without a WARNING of its own
    # (the recall already said the trace was not stored), and the next trace is stored.
    _seed(memory, tenant)
    memory.recall(request(tenant, goal=QUESTION), policy=quick_trace_policy)  # flow built
    with caplog.at_level(logging.WARNING), table_locked(memory, "recall_traces"):
        memory.recall(request(tenant, goal=QUESTION), policy=quick_trace_policy)
    after = memory.recall(request(tenant, goal=QUESTION))
    assert _trace_rows(memory, tenant, after.trace_id) == 1
    assert not [r.getMessage() for r in caplog.records if r.name.startswith("psycopg")]
