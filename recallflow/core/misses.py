"""Recall misses as a formation signal, pure (see "Feedback and corrections" in
docs/architecture.md).

A recall *misses* when nothing cleared the relevance floor. Its *subject* is the recall's
normalised query keys (the structured query's keys; for a recall with none, the content
words of its text queries), so asking about the same thing again in other words that
name the same keys counts as the same subject. Misses of one subject are counted from the
first miss of a window; when the count reaches the policy's threshold within the window,
one re-derivation hint is queued for the subject and stays pending until acknowledged.
Further misses while it is pending count, but queue nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from recallflow.core.query_forming import content_terms
from recallflow.models.result import RecallQuery, RecallResult
from recallflow.policy import Feedback


def miss_subject(queries: Sequence[RecallQuery], rule: Feedback) -> str | None:
    """The subject of a recall's queries: its sorted normalised keys, space-separated, at
    most ``rule.miss_subject_keys`` of them."""
    keys = {k for q in queries if q.kind == "structured" for k in q.keys}
    if not keys:
        texts = [q.text for q in queries if q.kind == "text"]
        words = content_terms(texts, limit=len(" ".join(texts)), min_length=rule.miss_min_word)
        keys = set(words)
    subject = " ".join(sorted(keys)[: rule.miss_subject_keys])
    return subject or None


def missed_subject(result: RecallResult, rule: Feedback) -> str | None:
    """The subject of ``result`` when nothing in it cleared the floor, else None.

    Something cleared the floor when an item was rendered (a blocked one too), the budget
    dropped one, or — in a session's turn — a belief of the prefix cleared it (the turn
    does not repeat what the prefix holds).
    """
    trace = result.trace
    if trace.rendered_ids or trace.budget_dropped or trace.snapshot_relevant:
        return None
    return miss_subject(trace.queries, rule)


@dataclass(frozen=True)
class MissState:
    """One subject's row of the miss-hint queue."""

    miss_count: int
    first_missed_at: datetime
    last_missed_at: datetime
    queued_at: datetime | None = None
    acknowledged_at: datetime | None = None

    @property
    def pending(self) -> bool:
        return self.queued_at is not None and self.acknowledged_at is None


def after_miss(state: MissState | None, at: datetime, rule: Feedback) -> MissState:
    """The subject's state after one more miss at ``at``."""
    window = timedelta(hours=rule.miss_window_hours)
    if (
        state is not None
        and state.acknowledged_at is None
        and (state.pending or at - state.first_missed_at <= window)
    ):
        count = state.miss_count + 1
        queued = state.queued_at
        if queued is None and count >= rule.miss_threshold:
            queued = at
        return MissState(count, state.first_missed_at, at, queued)
    # A fresh window: the first miss, the window expired, or the last hint acknowledged.
    return MissState(1, at, at, at if rule.miss_threshold <= 1 else None)
