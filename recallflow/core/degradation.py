"""How a stage that failed is recorded when the recall degrades instead of failing (see
"Reliability" in docs/architecture.md)."""

from __future__ import annotations


def failure_text(exc: BaseException) -> str:
    """One line for the trace: the error's type and the first line of its message."""
    if isinstance(exc, TimeoutError):
        return f"timeout: {exc}" if str(exc) else "timeout"
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__
