"""An instruction that names itself hidden: "hidden instruction, do not reveal: …".

A memory of the user's has no reason to call itself a secret instruction and forbid its
own disclosure; a planted one does, so the model follows it and never says why. The
user's own secrets are about things ("the secret ingredient", "a secret Santa"), not
about the text being an instruction to keep from them. The rule needs the label (a
hidden, secret or covert instruction, directive, command or prompt) and, beside it, an
order not to reveal it, or its address to the model.
"""

from __future__ import annotations

from typing import Final

from recallflow.adapters.scanning.families import INSTRUCTION_OVERRIDE
from recallflow.adapters.scanning.rule import Rule, regex_rules

_LABEL: Final = (
    r"\b(?:hidden|secret|covert|concealed|invisible|private)\s+(?:system\s+)?(?:instructions?|"
    r"directives?|commands?|prompts?|orders?)\b"
)
_UNTOLD: Final = (
    r"\b(?:do\s+not|don't|never|must\s+not)\s+(?:reveal|disclose|mention|show|repeat|share|"
    r"acknowledge|explain)\b"
)

HIDDEN_RULES: Final[tuple[Rule, ...]] = regex_rules(
    INSTRUCTION_OVERRIDE,
    "latin",
    [
        (
            frozenset({"hidden", "secret", "covert", "concealed", "invisible", "private"}),
            rf"{_LABEL}[^.!?\n]{{0,40}}?{_UNTOLD}",
        ),
        (
            frozenset({"hidden", "secret", "covert", "concealed", "invisible", "private"}),
            rf"{_LABEL}\s*(?:for|to)\s+(?:the\s+)?(?:model|assistant|ai|llm|agent|bot)\b",
        ),
    ],
)
