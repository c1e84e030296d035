"""Groups ``moment:session_snapshot`` and ``moment:child_run``: the snapshot moments at
every selected tier (see "Sessions" in docs/architecture.md).

* ``moment:session_snapshot`` — ``Memory.open_session`` end to end (the snapshot DAG, its
  trace and the session row written), with no opening goal (the query-free core alone:
  the "who am I talking to" layer) and with one of the tier's fixed queries as the
  opening goal (core plus priming set); ``snapshot_dag`` is the snapshot DAG alone
  (``Memory.recall`` at the snapshot moment, trace not stored).
* ``moment:child_run`` — ``Session.child`` under one open parent session, each fixed
  query as the child's goal.

Query embedding is excluded (cached after a warm-up pass), as in ``moment:in_turn``.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable
from typing import Any

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.recall_harness import requests
from benchmarks.stores import BenchStore
from recallflow.models.request import Moment, WorkingState
from recallflow.sessions import Session


def _cycle(items: list[Any]) -> Callable[[], Any]:
    source = itertools.cycle(items)
    return lambda: next(source)


@pytest.mark.parametrize(
    ("variant", "opening"),
    [("open_session", "no_goal"), ("open_session", "goal"), ("snapshot_dag", "goal")],
)
def test_session_snapshot(
    benchmark: BenchmarkFixture, bench_store: BenchStore, variant: str, opening: str
) -> None:
    memory = bench_store.memory
    reqs = requests(bench_store)
    goals: list[WorkingState | None] = (
        [None] * len(reqs) if opening == "no_goal" else [r.working_state for r in reqs]
    )

    def open_one(index: int) -> Session:
        return memory.open_session(
            bench_store.tenant_id,
            bench_store.principal_id,
            project=reqs[index].project,
            goal=goals[index],
        )

    # One pass warms the embedding cache and the driver, and gives the composition figures.
    opened = [open_one(i) for i in range(len(reqs))]
    benchmark.group = "moment:session_snapshot"
    benchmark.extra_info.update(
        tier=bench_store.tier.name,
        variant=variant,
        opening=opening,
        embedder=memory.embedder.name,
        mean_items=statistics.fmean(len(s.snapshot_ids) for s in opened),
        mean_core_items=statistics.fmean(
            sum(1 for b in s.info.beliefs if b.part.value == "core") for s in opened
        ),
        query_embedding="excluded (cached)",
    )
    if variant == "open_session":
        nxt = _cycle(list(range(len(reqs))))
        benchmark(lambda: open_one(nxt()))
    else:
        snapshots = [r.model_copy(update={"moment": Moment.SESSION_SNAPSHOT}) for r in reqs]
        nxt_req = _cycle(snapshots)
        benchmark(lambda: memory.recall(nxt_req(), persist_trace=False))


def test_child_run(benchmark: BenchmarkFixture, bench_store: BenchStore) -> None:
    memory = bench_store.memory
    reqs = requests(bench_store)
    parent = memory.open_session(
        bench_store.tenant_id, bench_store.principal_id, project=reqs[0].project
    )
    children = [parent.child(r.working_state) for r in reqs]
    benchmark.group = "moment:child_run"
    benchmark.extra_info.update(
        tier=bench_store.tier.name,
        embedder=memory.embedder.name,
        mean_items=statistics.fmean(len(c.snapshot_ids) for c in children),
        query_embedding="excluded (cached)",
    )
    nxt = _cycle([r.working_state for r in reqs])
    benchmark(lambda: parent.child(nxt()))
