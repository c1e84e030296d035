"""Token counts remembered across recalls: the same beliefs are recalled turn after turn,
and counting a statement's tokens costs tens of microseconds each time. The count of a
text never changes for one encoding, so a remembered count is exact.

A recall reads the counts as its principal
(:meth:`~recallflow.adapters.ownership.OwnedCache.owned_by`), as it reads scan verdicts: a
count remembered for one principal's text never serves another's."""

from __future__ import annotations

from functools import lru_cache

from recallflow.adapters.ownership import OwnedCache, Owner
from recallflow.ports import TokenCounter

#: Texts whose token counts are kept.
TOKEN_CACHE_SIZE = 16384


class CachedTokenCounter(OwnedCache):
    """``inner``, with the counts of the last :data:`TOKEN_CACHE_SIZE` texts kept."""

    def __init__(self, inner: TokenCounter, size: int = TOKEN_CACHE_SIZE) -> None:
        self.inner = inner

        def count_for(owner: Owner, text: str) -> int:
            """The count of ``text``, remembered under ``owner``."""
            return inner.count(text)

        self._count = lru_cache(maxsize=max(1, size))(count_for)

    @property
    def encoding(self) -> str:
        return self.inner.encoding

    def clear(self) -> None:
        """Drop every remembered count, and with it every text kept as a key (an erasure
        leaves no forgotten statement in the process)."""
        self._count.cache_clear()

    def count(self, text: str) -> int:
        return self._count(self._owner, text)
