"""A minimal injection scanner behind the :class:`~recallflow.ports.InjectionScanner`
port (ADR-0019 decision 11). Recalled text that reads like instructions to the model —
overriding prior instructions, changing role, exfiltrating secrets, calling tools — is
replaced per item by ``[BLOCKED]``. A fuller scanner can replace this one without
touching the DAG.
"""

from __future__ import annotations

import re

_PATTERNS = [
    r"\b(ignore|disregard|forget|override)\b.{0,40}\b(previous|prior|above|earlier|all|system)\b"
    r".{0,20}\b(instructions?|prompts?|rules?|messages?)\b",
    r"\byou are now\b|\bact as (an? )?(unfiltered|jailbroken|different)\b",
    r"\b(system|developer)\s*(prompt|message)\s*:",
    r"\bnew instructions?\s*:",
    r"(print|reveal|show|send|exfiltrate|upload|output)\b.{0,60}"
    r"(\.ssh|id_rsa|api[_ -]?key|password|secret|token|credentials?)",
    r"<\s*/?\s*(system|assistant|tool|memory)\s*>",
    r"\b(call|invoke|run|execute) the [a-z_]+ tool\b",
]
_SCANNER = re.compile("|".join(f"(?:{p})" for p in _PATTERNS), re.IGNORECASE | re.DOTALL)


class RegexInjectionScanner:
    """Flags instruction-like text with a fixed set of patterns."""

    version = "regex-v1"

    def is_injection(self, text: str) -> bool:
        return _SCANNER.search(text) is not None
