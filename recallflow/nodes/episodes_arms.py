"""Arms of archival episode search: full text and vector over the event log, each under
the episode filter (see "Moments" and "Arms" in docs/architecture.md).

As recall's arms, a failure or timeout degrades the search (recorded in the trace)
instead of failing it, and both are tagged ``stage="arm"`` so the arm thread pool runs
them concurrently.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from hamilton.function_modifiers import tag

from recallflow.models.result import EpisodeArm, EpisodeArmResult, EpisodeHit
from recallflow.models.stages import EpisodeFilter
from recallflow.policy import EpisodePolicy
from recallflow.ports import EpisodeSearch, RawHits


def _run(arm: EpisodeArm, search: Callable[[], RawHits], timeout_ms: int) -> EpisodeArmResult:
    started = time.perf_counter()
    try:
        hits = search()
    except Exception as exc:  # an arm never fails the search
        latency = (time.perf_counter() - started) * 1000
        return EpisodeArmResult(arm=arm, latency_ms=latency, error=f"{type(exc).__name__}: {exc}")
    latency = (time.perf_counter() - started) * 1000
    if latency > timeout_ms:
        return EpisodeArmResult(arm=arm, latency_ms=latency, error=f"timeout after {timeout_ms} ms")
    ranked = tuple(
        EpisodeHit(episode_id=episode_id, rank=rank, raw_score=score)
        for rank, (episode_id, score) in enumerate(hits, start=1)
    )
    return EpisodeArmResult(arm=arm, hits=ranked, latency_ms=latency)


@tag(stage="arm")
def episode_text_hits(
    episode_filter: EpisodeFilter,
    episode_query: str,
    episode_search: EpisodeSearch,
    episode_policy: EpisodePolicy,
) -> EpisodeArmResult:
    """Episodes holding words of the query (as the surface shows it), most words first."""
    p = episode_policy
    return _run(
        EpisodeArm.FULL_TEXT,
        lambda: episode_search.full_text(
            episode_filter, episode_query, p.query_words, p.per_arm, p.text_candidate_cap
        ),
        p.timeout_ms,
    )


@tag(stage="arm")
def episode_vector_hits(
    episode_filter: EpisodeFilter,
    episode_query_vector: npt.NDArray[np.float32],
    episode_search: EpisodeSearch,
    episode_policy: EpisodePolicy,
) -> EpisodeArmResult:
    """Episodes nearest in meaning to the query, nearest first (the floor judges how near
    is near enough)."""
    p = episode_policy
    return _run(
        EpisodeArm.VECTOR,
        lambda: episode_search.vector(
            episode_filter, episode_query_vector, p.per_arm, p.hnsw_ef_search, p.exact_episodes
        ),
        p.timeout_ms,
    )
