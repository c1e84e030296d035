"""Running one arm: its latency measured, and a failure or timeout turned into a degraded
:class:`ArmResult` instead of a failed recall. Not a node module.

There is one timeout, the policy's ``limits.timeout_ms``, and it stops the arm rather than
labelling it afterwards: a database arm's SQL runs under that ``statement_timeout``, so
PostgreSQL cancels it and the search raises :class:`TimeoutError`; an external provider,
which we cannot cancel, is abandoned by :func:`run_guarded_arm` when it is up.

An abandoned call keeps its thread until the provider returns (Python cannot stop a
thread). So that a hung provider cannot pile up threads or a queue, a provider with an
abandoned call still running is not called again: its arm degrades at once ("still
busy") until that call returns, and then its thread ends. Each call runs in its own
short-lived thread, so nothing stays behind once the provider answers.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from pydantic import ValidationError

from recallflow.models.result import Arm, ArmHit, ArmResult
from recallflow.models.session import DurableQuery
from recallflow.models.stages import HardFilter
from recallflow.models.store import BeliefType, SourceAuthority
from recallflow.policy import RetrievalPolicy
from recallflow.ports import BeliefSearch, RawHits

#: Providers with abandoned calls still running: id -> (the provider, how many calls).
#: The provider itself is held so its id cannot be reused while it is listed.
_abandoned: dict[int, tuple[object, int]] = {}
_abandoned_lock = threading.Lock()


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def _ranked(arm: Arm, hits: RawHits, started: float) -> ArmResult:
    ranked = tuple(
        ArmHit(belief_id=belief_id, rank=rank, raw_score=score)
        for rank, (belief_id, score) in enumerate(hits, start=1)
    )
    return ArmResult(arm=arm, hits=ranked, latency_ms=_elapsed_ms(started))


def _ranked_own(arm: Arm, hits: RawHits, started: float) -> ArmResult:
    """:func:`_ranked` for the store's own search, whose ids and scores are already a
    ``str`` and a ``float`` each: built without validating each hit again (some 60 hits a
    recall, on the arms' threads). Converted all the same, so a search that hands back
    another number type gives the values validation would have made."""
    ranked = tuple(
        ArmHit.trusted(belief_id=str(belief_id), rank=rank, raw_score=float(score))
        for rank, (belief_id, score) in enumerate(hits, start=1)
    )
    return ArmResult.trusted(arm=arm, hits=ranked, latency_ms=_elapsed_ms(started), error=None)


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
    return _ranked_own(arm, hits, started)


def run_durable(
    arm: Arm,
    types: tuple[BeliefType, ...],
    project: str | None,
    hard_filter: HardFilter,
    belief_search: BeliefSearch,
    policy: RetrievalPolicy,
) -> ArmResult:
    """The query-free search of the durable ``types`` (a session's core, or a turn that asks
    about the user), run as ``arm``: beliefs of ``project`` or of none first, then by
    confidence × authority factor, at most ``sessions.durable_candidates``."""
    query = DurableQuery(
        types=tuple(t.value for t in types),
        project=project,
        # Every authority, an unlisted one at factor 0: the search reads each group.
        authority=tuple((a.value, policy.authority_factor.get(a, 0.0)) for a in SourceAuthority),
        limit=policy.sessions.durable_candidates,
    )
    limits = policy.limits
    return run_arm(
        arm, lambda: belief_search.durable(hard_filter, query, limits), limits.timeout_ms
    )


def abandoned_calls(owner: object) -> int:
    """How many calls of ``owner`` were abandoned at the timeout and are still running."""
    with _abandoned_lock:
        entry = _abandoned.get(id(owner))
    return 0 if entry is None else entry[1]


def run_guarded_arm(
    arm: Arm, search: Callable[[], RawHits], timeout_ms: int, owner: object | None = None
) -> ArmResult:
    """Run an arm we do not control (``owner``, a provider) in a thread of its own,
    abandoning it on timeout; skip it while an earlier abandoned call is still running."""
    started = time.perf_counter()
    owner = search if owner is None else owner
    key = id(owner)
    if abandoned_calls(owner):
        return ArmResult(
            arm=arm,
            latency_ms=_elapsed_ms(started),
            error="skipped: an earlier call, abandoned at the timeout, has not returned",
        )
    outcome: list[RawHits | BaseException] = []
    finished = threading.Event()
    state = {"abandoned": False}
    state_lock = threading.Lock()

    def call() -> None:
        try:
            outcome.append(search())
        except BaseException as exc:  # handed to the waiting recall, or dropped if abandoned
            outcome.append(exc)
        finally:
            with state_lock:
                finished.set()
                was_abandoned = state["abandoned"]
            if was_abandoned:
                with _abandoned_lock:
                    held, count = _abandoned[key]
                    if count > 1:
                        _abandoned[key] = (held, count - 1)
                    else:
                        del _abandoned[key]

    threading.Thread(target=call, name=f"rf-provider-{arm.value}", daemon=True).start()
    finished.wait(timeout_ms / 1000)
    with state_lock:
        if not finished.is_set():
            state["abandoned"] = True
            with _abandoned_lock:
                held, count = _abandoned.get(key, (owner, 0))
                _abandoned[key] = (held, count + 1)
            return _failed(arm, TimeoutError(), started, timeout_ms)
    result = outcome[0]
    if isinstance(result, BaseException):
        if not isinstance(result, Exception):
            raise result
        return _failed(arm, result, started, timeout_ms)
    try:
        return _ranked(arm, result, started)
    except (TypeError, ValueError) as exc:  # an answer of another shape than the port's
        return _failed(arm, _malformed(exc), started, timeout_ms)


def _malformed(exc: TypeError | ValueError) -> ValueError:
    """Why a provider's answer is not a list of (belief id, score) pairs, in one line."""
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        detail = f"{where}: {first['msg']}"
    else:
        detail = str(exc)
    return ValueError(f"the answer is not a list of (belief id, score) pairs: {detail}")
