"""Bounded resources: many policies, and many open/close cycles, leave threads, file
descriptors, exit handlers and server processes where they started."""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from recallflow import Memory, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.policy import DEFAULT_POLICY
from tests.helpers import belief, request
from tests.processes import kill_all, postmaster_pid, wait_until_gone

TENANT = "t-resources"
POOL_SIZE = 8


def _exit_handlers() -> int:
    counter = getattr(atexit, "_ncallbacks", None)
    if counter is None:
        pytest.skip("this Python does not expose its exit handler count")
    return int(counter())


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _arm_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith("rf-arm")}


@pytest.fixture
def home(fresh_home: Path) -> Iterator[Path]:
    try:
        yield fresh_home
    finally:
        kill_all(fresh_home / "pgdata")


def _open(home: Path, flow_cache_size: int = 16) -> Memory:
    return open_memory(
        home=home, embedder=HashingEmbedder(), pool_size=POOL_SIZE, flow_cache_size=flow_cache_size
    )


def test_many_policies_share_one_bounded_set_of_threads(home: Path) -> None:
    others = _arm_threads()  # flows other tests built on their own, outside any Memory
    with _open(home, flow_cache_size=4) as memory:
        memory.beliefs.add(belief(TENANT, statement="The user drinks green tea.", subject="tea"))
        ask = request(TENANT, goal="tea")
        first = memory.recall(ask, policy=DEFAULT_POLICY)
        for k in range(1, 41):
            memory.recall(ask, policy=DEFAULT_POLICY.model_copy(update={"rrf_k": 60 + k}))
            assert len(_arm_threads() - others) <= POOL_SIZE
        # The first policy's flow was dropped from the cache long ago; rebuilt, it
        # recalls the same.
        again = memory.recall(ask, policy=DEFAULT_POLICY)
        assert again.rendered_ids == first.rendered_ids
    assert _arm_threads() - others == set()


def _cycle(home: Path, recall: bool) -> None:
    with _open(home) as memory:
        if recall:
            memory.recall(request(TENANT, goal="tea"), persist_trace=False)


def test_open_close_cycles_leave_resources_where_they_started(home: Path) -> None:
    pgdata = home / "pgdata"
    _cycle(home, recall=True)  # imports, lazily built process-wide pools, the exit handler
    before = (threading.active_count(), _open_fds(), _exit_handlers())
    keeper = _open(home)  # keeps the server up, so the cycles below measure the handles
    try:
        server = postmaster_pid(pgdata)
        for i in range(100):
            _cycle(home, recall=i % 10 == 0)
        assert postmaster_pid(pgdata) == server  # one server all along
    finally:
        keeper.close()
    assert wait_until_gone(pgdata) == []
    # A few cycles that start and stop the server each time.
    for _ in range(3):
        _cycle(home, recall=True)
        assert wait_until_gone(pgdata) == []
    after = (threading.active_count(), _open_fds(), _exit_handlers())
    assert after == before
