"""The injection scanner behind the :class:`~recallflow.recall_ports.InjectionScanner` port.

Recalled text that reads like instructions to the model rather than a statement about
the user, a project or the world is replaced per item by ``[BLOCKED]``. The scanner
names the technique it found (one of :data:`FAMILIES`) so that a blocked item can be
explained and detection can be measured per technique.
"""

from __future__ import annotations

from recallflow.adapters.scanning.families import FAMILIES
from recallflow.adapters.scanning.scanner import LayeredInjectionScanner

__all__ = ["FAMILIES", "LayeredInjectionScanner"]
