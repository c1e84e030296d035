"""Many-shot dialogue: a transcript of turns embedded in one statement.

Several "User: … Assistant: …" turns inside a belief prime the model to continue the
pattern, however harmless each turn looks. What gives it away is structure, not words:
the same speaker labels alternating. One quoted line ("User: I can't find export") is a
note; two labels that each recur, or a user turn answered by an assistant turn, is a
transcript. Labels are matched after a clause boundary (any short label) or after a
space (only the usual role words), so headings such as "Summary:, Testing:" do not count.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Final

from recallflow.adapters.scanning.families import MANY_SHOT
from recallflow.adapters.scanning.rule import Rule

_ROLE_WORD: Final = (
    r"user|human|assistant|ai|bot|model|system|q|a|question|answer|h|me|you|customer|agent|"
    r"input|output|response|prompt|student|teacher|interviewer|interviewee|gpt|chatgpt|"
    r"claude|support|client|operator|person\s[a-z]|speaker\s?[a-z0-9]|user\ssaid|you\s"
    r"answered|you\ssaid|assistant\ssaid"
)
_LABEL: Final = re.compile(
    r"(?:(?:^|(?<=[\n.!?;/|)\]\"*-]))\s*(?P<any>[a-z][a-z]{0,14}(?: [a-z][a-z]{0,9})?)\d*"
    rf"|(?<=\s)(?P<role>{_ROLE_WORD})\d*)\s*(?::|>)(?![/:\w])"
    rf"|\[\s*(?P<bracket>{_ROLE_WORD})\s*\]",
    re.MULTILINE,
)
_ASKER: Final = frozenset(
    {"user", "human", "q", "question", "me", "customer", "input", "h", "prompt", "client",
     "student", "interviewer", "user said"}
)  # fmt: skip
_ANSWERER: Final = frozenset(
    {"assistant", "ai", "bot", "model", "a", "answer", "gpt", "chatgpt", "claude", "response",
     "output", "agent", "support", "you", "system", "teacher", "interviewee", "you answered",
     "you said", "assistant said", "operator"}
)  # fmt: skip


def is_transcript(text: str) -> bool:
    """True when ``text`` holds alternating speaker turns."""
    if text.count(":") + text.count(">") + text.count("]") < 3:
        return False
    labels = [(m["any"] or m["role"] or m["bracket"]).strip() for m in _LABEL.finditer(text)]
    if len(labels) < 3:
        return False
    counts = Counter(labels)
    if len(labels) >= 4 and sum(1 for c in counts.values() if c >= 2) >= 2:
        return True
    return bool(counts.keys() & _ASKER) and bool(counts.keys() & _ANSWERER)


DIALOGUE_RULES: Final[tuple[Rule, ...]] = (Rule(MANY_SHOT, "latin", is_transcript),)
