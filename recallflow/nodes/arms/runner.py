"""Running one arm: timing, failure and timeout turned into a degraded :class:`ArmResult`
instead of a failed turn (issue 3, item 4). Not a node module."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from recallflow.models.result import ArmHit, ArmResult
from recallflow.ports import RawHits

_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="recallflow-arm")


def _result(arm: str, hits: RawHits, started: float, timeout_ms: int) -> ArmResult:
    latency = (time.perf_counter() - started) * 1000
    if latency > timeout_ms:
        return ArmResult(arm=arm, latency_ms=latency, error=f"timeout after {timeout_ms} ms")
    ranked = tuple(
        ArmHit(belief_id=belief_id, rank=rank, raw_score=score)
        for rank, (belief_id, score) in enumerate(hits, start=1)
    )
    return ArmResult(arm=arm, hits=ranked, latency_ms=latency)


def run_arm(arm: str, search: Callable[[], RawHits], timeout_ms: int) -> ArmResult:
    """Run a database arm; its SQL carries a statement timeout, so it runs inline."""
    started = time.perf_counter()
    try:
        hits = search()
    except Exception as exc:  # an arm never fails the turn
        latency = (time.perf_counter() - started) * 1000
        return ArmResult(arm=arm, latency_ms=latency, error=f"{type(exc).__name__}: {exc}")
    return _result(arm, hits, started, timeout_ms)


def run_guarded_arm(arm: str, search: Callable[[], RawHits], timeout_ms: int) -> ArmResult:
    """Run an arm we do not control (a provider) in a thread, abandoning it on timeout."""
    started = time.perf_counter()
    future = _pool.submit(search)
    try:
        hits = future.result(timeout=timeout_ms / 1000)
    except FutureTimeout:
        latency = (time.perf_counter() - started) * 1000
        return ArmResult(arm=arm, latency_ms=latency, error=f"timeout after {timeout_ms} ms")
    except Exception as exc:
        latency = (time.perf_counter() - started) * 1000
        return ArmResult(arm=arm, latency_ms=latency, error=f"{type(exc).__name__}: {exc}")
    return _result(arm, hits, started, timeout_ms)
