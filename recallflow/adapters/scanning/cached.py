"""Scan verdicts remembered across recalls (see "Trust boundary" in docs/architecture.md).

The same beliefs are recalled turn after turn, and scanning a statement through every
layer costs about a tenth of a millisecond. A scanner is deterministic for its
:attr:`version` (the trace records it), so a remembered verdict is the verdict."""

from __future__ import annotations

from functools import lru_cache

from recallflow.ports import InjectionScanner

#: Texts whose verdicts are kept.
SCAN_CACHE_SIZE = 16384


class CachedInjectionScanner:
    """``inner``, with the verdicts on the last :data:`SCAN_CACHE_SIZE` texts kept."""

    def __init__(self, inner: InjectionScanner, size: int = SCAN_CACHE_SIZE) -> None:
        self.inner = inner
        self._scan = lru_cache(maxsize=max(1, size))(inner.scan)

    @property
    def version(self) -> str:
        return self.inner.version

    def clear(self) -> None:
        """Drop every remembered verdict, and with it every text kept as a key (an erasure
        leaves no forgotten statement in the process)."""
        self._scan.cache_clear()

    def scan(self, text: str) -> str | None:
        """The family ``inner`` names for ``text`` (remembered), or None."""
        verdict: str | None = self._scan(text)
        return verdict
