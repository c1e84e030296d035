"""When a recall began reading the store, for the erasure fence (see "Forgetting" in
docs/corrections.md).

A trace, a session or a miss hint is not stored when an erasure of its principal finished
after its recall began reading: what it read may be what was erased. (An erasure records
that instant just before it commits; a recall that began reading in between is caught by
the beliefs it read, which the write finds gone: :data:`~recallflow.adapters.postgres.
traces.UNLESS_ERASED`.) The erasure records
``erased_at`` by the database server's clock; the application's wall clock may disagree
with that one by seconds or minutes (a server on another machine), so the instant the
recall began is never read from it. It is kept on this process's monotonic clock instead,
and the write that stores the trace turns it into the server's time in SQL: the server's
time at that write less :meth:`ReadStart.seconds_ago`. No two wall clocks are compared.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ReadStart:
    """The instant a recall began reading the store, on the monotonic clock."""

    monotonic: float = field(default_factory=time.monotonic)

    def seconds_ago(self) -> float:
        """Seconds from that instant to now, by the same clock (never negative)."""
        return max(0.0, time.monotonic() - self.monotonic)
