"""The injection scanner behind the :class:`~recallflow.recall_ports.InjectionScanner` port.

Recalled text that reads like instructions to the model rather than a statement about
the user, a project or the world is replaced per item by ``[BLOCKED]``. The scanner
names the technique it found (one of :data:`FAMILIES`) so that a blocked item can be
explained and detection can be measured per technique.

Importing :class:`LayeredInjectionScanner` compiles its rules (about a third of a second
of CPU); this package imports it only when it is asked for, so that a process that never
scans (a command that reads a trace, the store's status) never pays for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from recallflow.adapters.scanning.families import FAMILIES

if TYPE_CHECKING:
    from recallflow.adapters.scanning.scanner import LayeredInjectionScanner

__all__ = ["FAMILIES", "LayeredInjectionScanner"]


def __getattr__(name: str) -> object:
    """:class:`LayeredInjectionScanner`, its module imported at the first request."""
    if name == "LayeredInjectionScanner":
        from recallflow.adapters.scanning.scanner import LayeredInjectionScanner

        return LayeredInjectionScanner
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
