"""Running one arm: its latency measured, and a failure or timeout turned into a degraded
:class:`ArmResult` instead of a failed recall. Not a node module.

There is one timeout, the policy's ``limits.timeout_ms``, and it stops the arm rather than
labelling it afterwards: a database arm's SQL runs under that ``statement_timeout``, so
PostgreSQL cancels it and the search raises :class:`TimeoutError`; an external provider,
which we cannot cancel, is abandoned by :func:`run_guarded_arm` when it is up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from recallflow.models.result import Arm, ArmHit, ArmResult
from recallflow.ports import RawHits

_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="recallflow-arm")


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def _ranked(arm: Arm, hits: RawHits, started: float) -> ArmResult:
    ranked = tuple(
        ArmHit(belief_id=belief_id, rank=rank, raw_score=score)
        for rank, (belief_id, score) in enumerate(hits, start=1)
    )
    return ArmResult(arm=arm, hits=ranked, latency_ms=_elapsed_ms(started))


def _failed(arm: Arm, exc: BaseException, started: float, timeout_ms: int) -> ArmResult:
    if isinstance(exc, TimeoutError):
        error = f"timeout after {timeout_ms} ms"
    else:
        error = f"{type(exc).__name__}: {exc}"
    return ArmResult(arm=arm, latency_ms=_elapsed_ms(started), error=error)


def run_arm(arm: Arm, search: Callable[[], RawHits], timeout_ms: int) -> ArmResult:
    """Run a database arm inline; its SQL carries ``timeout_ms`` as a statement timeout."""
    started = time.perf_counter()
    try:
        hits = search()
    except Exception as exc:  # an arm never fails the recall
        return _failed(arm, exc, started, timeout_ms)
    return _ranked(arm, hits, started)


def run_guarded_arm(arm: Arm, search: Callable[[], RawHits], timeout_ms: int) -> ArmResult:
    """Run an arm we do not control (a provider) in a thread, abandoning it on timeout."""
    started = time.perf_counter()
    future = _pool.submit(search)
    try:
        hits = future.result(timeout=timeout_ms / 1000)
    except Exception as exc:  # the wait's own TimeoutError included
        return _failed(arm, exc, started, timeout_ms)
    return _ranked(arm, hits, started)
