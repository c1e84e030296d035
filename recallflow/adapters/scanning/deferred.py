"""The layered scanner with its rules compiled at the first scan instead of at open.

A command-line process runs one command and ends. Compiling the scanner's rules costs
about a third of a second of CPU, which a command that never scans (``status``,
``trace``, ``forget``, a listing) would pay for nothing; one that recalls pays it at its
first scan instead of at open. A long-lived process (the MCP server, an application
holding a :class:`~recallflow.memory.Memory`) keeps the default, compiled at open, so that
its first recall is as fast as the next."""

from __future__ import annotations

import threading

from recallflow.adapters.scanning.version import RULES_VERSION
from recallflow.ports import InjectionScanner

__all__ = ["DeferredInjectionScanner"]


class DeferredInjectionScanner:
    """:class:`~recallflow.adapters.scanning.LayeredInjectionScanner`, made at first use.

    The same verdicts and the same :attr:`version` as the scanner it makes; recalls on
    several threads make it once."""

    def __init__(self) -> None:
        self._inner: InjectionScanner | None = None
        self._lock = threading.Lock()

    def _scanner(self) -> InjectionScanner:
        inner = self._inner
        if inner is None:
            with self._lock:
                if self._inner is None:
                    from recallflow.adapters.scanning.scanner import LayeredInjectionScanner

                    self._inner = LayeredInjectionScanner()
                inner = self._inner
        return inner

    #: The rules' version, as the layered scanner records it in a trace; read without
    #: compiling them (a type check of the port reads it at open).
    version: str = RULES_VERSION

    def scan(self, text: str) -> str | None:
        """The family found in ``text``, or None (see the layered scanner)."""
        return self._scanner().scan(text)
