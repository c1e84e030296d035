"""Scan verdicts remembered across recalls (see "Trust boundary" in docs/architecture.md).

The same beliefs are recalled turn after turn, and scanning a statement through every
layer costs about a tenth of a millisecond. A scanner is deterministic for its
:attr:`version` (the trace records it), so a remembered verdict is the verdict.

A recall reads the verdicts as its principal
(:meth:`~recallflow.adapters.ownership.OwnedCache.owned_by`): a verdict remembered for one
principal's text never serves another's, so whether a statement was scanned before (a few
hundred microseconds saved) tells nothing of what another principal holds."""

from __future__ import annotations

from functools import lru_cache

from recallflow.adapters.ownership import OwnedCache, Owner
from recallflow.ports import InjectionScanner

#: Texts whose verdicts are kept.
SCAN_CACHE_SIZE = 16384


class CachedInjectionScanner(OwnedCache):
    """``inner``, with the verdicts on the last :data:`SCAN_CACHE_SIZE` texts kept."""

    def __init__(self, inner: InjectionScanner, size: int = SCAN_CACHE_SIZE) -> None:
        self.inner = inner

        def scan_for(owner: Owner, text: str) -> str | None:
            """The verdict on ``text``, remembered under ``owner``."""
            return inner.scan(text)

        self._scan = lru_cache(maxsize=max(1, size))(scan_for)

    @property
    def version(self) -> str:
        return self.inner.version

    def clear(self) -> None:
        """Drop every remembered verdict, and with it every text kept as a key (an erasure
        leaves no forgotten statement in the process)."""
        self._scan.cache_clear()

    def scan(self, text: str) -> str | None:
        """The family ``inner`` names for ``text`` (remembered), or None."""
        verdict: str | None = self._scan(self._owner, text)
        return verdict
