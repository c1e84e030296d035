"""Scan verdicts remembered across recalls (see "Trust boundary" in docs/architecture.md).

The same beliefs are recalled turn after turn, and scanning a statement through every
layer costs about a tenth of a millisecond. A scanner is deterministic for its
:attr:`version` (the trace records it), so a remembered verdict is the verdict.

A recall reads the verdicts as its principal (:meth:`CachedInjectionScanner.owned_by`):
a verdict remembered for one principal's text never serves another's, so whether a
statement was scanned before (a few hundred microseconds saved) tells nothing of what
another principal holds."""

from __future__ import annotations

from functools import lru_cache

from recallflow.ports import InjectionScanner

#: Texts whose verdicts are kept.
SCAN_CACHE_SIZE = 16384


class CachedInjectionScanner:
    """``inner``, with the verdicts on the last :data:`SCAN_CACHE_SIZE` texts kept."""

    def __init__(self, inner: InjectionScanner, size: int = SCAN_CACHE_SIZE) -> None:
        self.inner = inner
        self._owner: tuple[str, str] = ("", "")

        def scan_for(owner: tuple[str, str], text: str) -> str | None:
            """The verdict on ``text``, remembered under ``owner``."""
            return inner.scan(text)

        self._scan = lru_cache(maxsize=max(1, size))(scan_for)

    def owned_by(self, tenant_id: str, principal_id: str) -> CachedInjectionScanner:
        """These verdicts as one principal's reads see them: one size bound for all, but
        only the verdicts remembered for this principal's own texts."""
        view = object.__new__(CachedInjectionScanner)  # on every read: no __init__
        view.__dict__.update(self.__dict__, _owner=(tenant_id, principal_id))
        return view

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
