"""What a trace says of the items the trust boundary blocked (see "Trust boundary" in
docs/architecture.md): a recall's trace and an archival search's trace count them alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TypedDict


class BlockedCounts(TypedDict):
    """The trace fields of blocked items: shown as [BLOCKED], per family, and dropped by
    the budget before they were shown."""

    blocked: int
    blocked_by_family: dict[str, int]
    blocked_unrendered: int


def blocked_counts(shown: Mapping[str, str], blocked_ids: Sequence[str]) -> BlockedCounts:
    """``shown``: each rendered [BLOCKED] item's id and the scanner family that blocked it;
    ``blocked_ids``: every item the boundary blocked, rendered or not."""
    return BlockedCounts(
        blocked=len(shown),
        blocked_by_family=dict(sorted(Counter(shown.values()).items())),
        blocked_unrendered=len(set(blocked_ids) - shown.keys()),
    )
