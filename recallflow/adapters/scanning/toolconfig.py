"""The configuration of a tool the user runs, overridden: the user's work, not the model's.

"Override your default settings" sets aside the model's configuration, and the override
rules read "config", "configuration", "settings" and "defaults" among the things an
injection tells the model to set aside. A developer's notes override configurations all
day: "Override the default ESLint config with .eslintrc.local for experiments", "Override
the default settings in config.yaml for local runs", "Override the default theme settings
of the blog". What tells them apart is whose configuration it is: one named by a tool, a
file or a thing ("the ESLint config", "the settings in config.yaml", "the theme settings of
the blog") is that thing's; "your", "the system", "the default" alone or "of the
assistant" name the model's.

So an override whose configuration is named by something other than the model, in a
sentence that names nothing of the model (you, the assistant, its instructions, rules,
prompt, safety, policies, filters, refusals, confirmations, a mode, a secret), is read by
every rule but the override rules.
"""

from __future__ import annotations

import re
from typing import Final

#: An override of a configuration, with what names it before ("the default ESLint
#: config") or after it ("the settings in config.yaml").
_CONFIG_OVERRIDDEN: Final = re.compile(
    r"\b(?:overrid(?:e|es|ing)|overwrit(?:e|es|ing))\s+(?:the\s+)?(?P<owner>(?:[\w.'-]+\s+){0,3}?)"
    r"(?:config|configuration|settings|defaults|setup)\b(?:\s+(?:in|of|for|from)\s+(?:the\s+|a\s+)?"
    r"(?P<place>[\w./-]+))?"
)

#: Words that say no more than "the model's own configuration" or "some configuration".
_NOT_A_NAME: Final = frozenset(
    {"the", "default", "current", "original", "initial", "base", "system", "all", "any"}
    | {"every", "these", "those", "this", "previous", "prior", "earlier", "above", "your"}
    | {"its", "their", "our", "my", "own", "global", "new", "old", "whole", "entire", "full"}
    | {"assistant", "assistant's", "model", "model's", "ai", "bot", "agent", "llm", "safety"}
    | {"security", "content", "privacy", "chat", "conversation", "memory", "prompt", "core"}
    | {"internal", "hidden", "built-in", "builtin", "factory", "standard", "usual", "normal"}
    | {"gpt", "chatgpt", "claude", "copilot", "gemini", "llama", "openai", "anthropic"}
)

#: What a tool's configuration never needs to name: the model, its rules or its modes.
_OF_THE_MODEL: Final = re.compile(
    r"\b(?:you|your|yours|yourself|assistant|model|ai|bot|agent|llm|gpt|chatgpt|claude|copilot|"
    r"gemini|instructions?|rules?|"
    r"prompts?|safety|polic(?:y|ies)|guidelines?|restrictions?|filters?|refus\w*|confirm\w*|"
    r"obey|comply|passwords?|secrets?|modes?|memor(?:y|ies)|note|notes|this\s+user|the\s+user)\b"
)


def named_config(text: str) -> bool:
    """Whether ``text`` (the scanner's latin view) overrides the configuration of a tool,
    a file or a thing it names, and names nothing of the model (see the module docstring)."""
    if _OF_THE_MODEL.search(text) is not None:
        return False
    overrides = list(_CONFIG_OVERRIDDEN.finditer(text))
    return bool(overrides) and all(
        any(word not in _NOT_A_NAME for word in found["owner"].split())
        or (found["place"] is not None and found["place"] not in _NOT_A_NAME)
        for found in overrides
    )
