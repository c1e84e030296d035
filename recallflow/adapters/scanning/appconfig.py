"""The prompt a developer configures for their own app, kept in a note as a config.

"system_prompt: 'You summarise meeting transcripts into action items.'", a persona key,
``{"role": "system", "content": "Classify the ticket as bug, feature or question."}`` or
an Ollama Modelfile's ``SYSTEM You are a concise assistant for Linux admin questions``:
a developer keeps such settings as notes, and the role rules read the key or the role as
a header claiming the model's channel, the persona rules the value as a persona put on
the reader. What the attack in a config's dress carries and these do not is its value:
an override, a leak, a limit lifted, a jailbreak persona, a secret asked for, a persona
set over the user or in their place, another voice given the user's say, something kept
from the user. A config whose prompt carries one of these is not read line by line as
minutes either (see :func:`prompt_not_an_apps`).

The same prompt is also kept introduced in prose ("My study-buddy prompt: pretend you are
an examiner …", "I set up a Home Assistant voice prompt: '…'"): a header up to a colon that
names the prompt, an owner (my, our, I, the user) and an app (a bot, app, plugin, tutor
…), and does not speak to the reader, then the value (see :func:`own_prompt_blanked`).
Its value is read as a setting's is, and the header alone is read again by every rule.

So in a statement shaped as a config (settings on lines of their own, a role message
with its content, a Modelfile), each prompt or persona value is read alone by every rule
but the role and persona ones; when none is an attack and none lifts a limit or reaches
for a secret, the statement is read again with each such setting blanked, by every rule,
so what it says around them still counts. A chat-template token anywhere keeps the
statement as it is, and a statement in a disguise gets no such reading.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from recallflow.adapters.scanning.framing import UNRESTRAINED
from recallflow.adapters.scanning.preference import carries_nothing

#: A prompt or persona setting and its value: quoted on its line (to the quote that closes
#: the value, past any apostrophe inside it), a YAML block below it, or the rest of the line.
_PROMPT_SETTING: Final = re.compile(
    r"(?:^|(?<=[{,]))[ \t]*-?[ \t]*['\"]?[\w.-]*?(?:system[_-]?prompt|system[_-]?message|"
    r"persona(?:lity)?|custom[_-]?instructions|instructions|prompt)['\"]?[ \t]*[:=][ \t]*"
    r"(?:\"(?P<double>[^\n]*?)\"(?=[ \t]*(?:[,}\]#]|$))|"
    r"'(?P<single>[^\n]*?)'(?=[ \t]*(?:[,}\]#]|$))|"
    r"[|>][-+]?[ \t]*\n(?P<block>(?:[ \t]+"
    r"[^\n]*(?:\n|\Z))+)|(?P<bare>[^\n\"'|>][^\n]*))",
    re.IGNORECASE | re.MULTILINE,
)
#: A chat message with its role and content (a string to the quote that closes it, or a name
#: the code fills in).
_ROLE_MESSAGE: Final = re.compile(
    r"['\"]role['\"]\s*:\s*['\"](?:system|assistant|developer|user)['\"]\s*,\s*['\"]content['\"]"
    r"\s*:\s*(?:\"(?P<double>[^\n]*?)\"(?=\s*[,}\]])|'(?P<single>[^\n]*?)'(?=\s*[,}\]])|"
    r"(?P<name>[a-z_][\w.\[\]]*))",
    re.IGNORECASE | re.MULTILINE,
)
#: A Modelfile's system line, read only beside its ``FROM`` line.
_MODELFILE_SYSTEM: Final = re.compile(r"^SYSTEM[ \t]+(?P<bare>[^\n]+)$", re.MULTILINE)
_MODELFILE_FROM: Final = re.compile(r"^FROM[ \t]+\S+[ \t]*$", re.MULTILINE)
#: A setting on a line of its own (``temperature: 0.2``, ``model = "x"``, ``"voice":``).
_SETTING_LINE: Final = re.compile(r"^[ \t]*-?[ \t]*['\"]?[\w.-]+['\"]?[ \t]*[:=]", re.MULTILINE)
#: Chat-template tokens: a turn opened, whatever the settings say.
_TEMPLATE_TOKEN: Final = re.compile(
    r"<\|[^|<>\n]{1,40}\|>|\[\s*/?\s*inst\s*\]|<<\s*/?\s*sys\s*>>", re.IGNORECASE
)
#: A value that lifts a limit, names a jailbreak persona, asks for obedience or reaches
#: for a secret, however it is worded.
_NOT_AN_APP_PROMPT: Final = re.compile(
    UNRESTRAINED
    + r"|\b(?:dan|jailbr\w*|evil|villain\w*|uncensored|unfiltered|developer\s+mode|god\s+mode|"
    r"anything\s+now|obey\w*|ignor\w*|disregard\w*|overrid\w*|forget|from\s+now\s+on|forever|"
    r"passwords?|passcodes?|secrets?|api\s+keys?|credentials|tokens?|system\s+prompt|"
    r"(?:license|licence|product|windows|activation)\s+keys?|other\s+users?)\b"
    # a persona set over the user or in their place, another voice given the user's say, or
    # something kept from the user: no app's prompt for its own users needs them
    r"|\b(?:outrank\w*|supersed\w*|overrul\w*|behalf|impersonat\w*|account\s+owner)\b"
    r"|\b(?:above|over|instead\s+of|in\s+place\s+of)\s+the\s+user\b|\bas\s+the\s+user\b"
    r"|\bin\s+(?:their|his|her|the\s+user'?s)\s+name\b"
    r"|\bthe\s+user'?s\s+(?:\w++\s+)?(?:admin\w*|administrator|owner|boss|manager|bank|lawyer|"
    r"attorney|guardian|hr)\b"
    r"|\b(?:instructions?|commands?|directions?)\s+from\b"
    r"|\b(?:treat|regard|count|consider)\w*\b[^.!?;\n]{0,40}?\bas\s+(?:if|though|the\s+user|"
    r"their|his|her|coming\s+from)\b"
    r"|\b(?:never|not|don'?t|do\s+not|stop)\s+(?:\w++\s+)?(?:mention|tell|inform|notify|alert|"
    r"show|report)\w*\b[^.!?;\n]{0,40}?\buser|\bkeep\w*\s+(?:quiet|silent)|\b(?:quiet|silent)"
    r"\s+about\b|\b(?:need\s+not|needn'?t|does\s+not\s+need\s+to|doesn'?t\s+need\s+to)\s+know\b"
    r"|\bhid(?:e|es|den|ing)\b|\bconceal\w*|\bsecretly\b",
    re.IGNORECASE,
)
#: A value longer than this is a document, not a prompt setting.
_VALUE_WORDS: Final = 80


def _value(m: re.Match[str]) -> str:
    return next((v for k, v in m.groupdict().items() if k != "name" and v), "")


def _app_prompt(value: str, is_attack: Callable[[str], bool]) -> bool:
    """Whether a prompt or persona setting's value reads as an app's own prompt."""
    return not (
        len(value.split()) > _VALUE_WORDS
        or _NOT_AN_APP_PROMPT.search(value)
        or (value.strip() and is_attack(value))
    )


def prompt_not_an_apps(text: str, is_attack: Callable[[str], bool]) -> bool:
    """Whether ``text`` sets a prompt or persona (as a setting, a role message or a
    Modelfile's system line) to a value that is no app's prompt. Such a text gets no other
    reading that sets its lines apart (the minutes of
    :mod:`~recallflow.adapters.scanning.dialogue` among them): the setting is what it is
    for."""
    carriers = [*_PROMPT_SETTING.finditer(text), *_ROLE_MESSAGE.finditer(text)]
    if _MODELFILE_FROM.search(text) is not None:
        carriers += _MODELFILE_SYSTEM.finditer(text)
    return any(not _app_prompt(_value(m), is_attack) for m in carriers)


def configured_prompts_blanked(text: str, is_attack: Callable[[str], bool]) -> str | None:
    """``text`` with its prompt and persona settings blanked when it is shaped as a config
    and none of their values is an attack by ``is_attack`` (every rule but the role and
    persona ones) or lifts a limit; ``None`` otherwise."""
    if _TEMPLATE_TOKEN.search(text):
        return None
    modelfile = _MODELFILE_FROM.search(text) is not None
    carriers = [*_PROMPT_SETTING.finditer(text), *_ROLE_MESSAGE.finditer(text)]
    if modelfile:
        carriers += _MODELFILE_SYSTEM.finditer(text)
    if not carriers:
        return None
    if not (
        modelfile
        or len(_SETTING_LINE.findall(text)) >= 2
        or any(m.re is _ROLE_MESSAGE for m in carriers)
    ):
        return None
    if any(not _app_prompt(_value(m), is_attack) for m in carriers):
        return None
    blanked = text
    for m in sorted(carriers, key=lambda c: c.start(), reverse=True):
        blanked = blanked[: m.start()] + " " + blanked[m.end() :]
    return blanked


#: A prompt the user keeps for an app of their own, introduced in prose rather than as a
#: setting: "Prompt I wrote for my recipe bot: '…'", "My study-buddy prompt: …", "The user
#: built a FAQ bot with the system message: '…'". The header, up to its colon, names the
#: prompt and whose app it is for; the value is the rest of the statement.
_PROSE_PROMPT: Final = re.compile(
    r"\A(?P<header>[^.!?;:\n\"“”]{0,120}?\b(?:prompt|system[ \t]+message|persona)\b"
    r"[^.!?;:\n\"“”]{0,60}?):[ \t]*(?P<value>[^\n]+?)[ \t]*\Z",
    re.IGNORECASE,
)
#: The header's owner: the user speaking ("my", "our", "I wrote") or reported ("the user's",
#: "the user built"). A header that speaks to the reader ("your prompt") names none.
_PROMPT_OWNER: Final = re.compile(
    r"\b(?:my|our|i|i've|we|we've|(?:the\s+)?user(?:'s)?)\b", re.IGNORECASE
)
_PROMPT_FOR_READER: Final = re.compile(r"\b(?:your|you|yours)\b", re.IGNORECASE)
#: What the prompt is for: an app, bot or tool of the user's, not the assistant reading it.
_APP_NOUN: Final = re.compile(
    r"\b(?:bots?|chatbots?|apps?|applications?|gpts?|plugins?|plug-ins?|agents?|helpers?|"
    r"buddy|tutors?|generators?|shortcuts?|extensions?|skills?|voice|evals?|tools?|services?|"
    r"games?|characters?|npcs?|integrations?|workflows?|templates?|widgets?|scripts?|"
    r"[\w]+-(?:bot|buddy|helper|app|gpt))\b",
    re.IGNORECASE,
)
#: Quotation marks around a value.
_VALUE_QUOTES: Final = "\"'“”‘’"
#: What a prompt introduced in prose must not set, beyond what no app's prompt needs: a
#: persona with authority over the system or its access (an administrator, an operator,
#: one who grants access or privileges). Nor may it carry anything into the answers (see
#: :func:`~recallflow.adapters.scanning.preference.carries_nothing`): the header is all
#: that tells it from an order, so its value is held to what a wish about answers is.
_NOT_A_PROSE_PROMPT: Final = re.compile(
    r"\b(?:admin\w*|administrators?|root|sudo|superusers?|operators?|developers?|owners?|"
    r"access|permissions?|privileg\w*)\b",
    re.IGNORECASE,
)


def own_prompt_blanked(text: str, is_attack: Callable[[str], bool]) -> str | None:
    """``text`` with its value blanked when it is one line introducing, in prose, a prompt
    the user keeps for an app of their own whose value reads as an app's prompt (by
    ``is_attack``, every rule but the role and persona ones, and lifting no limit); ``None``
    otherwise. The header is then read by every rule, so what it says still counts."""
    if _TEMPLATE_TOKEN.search(text):
        return None
    m = _PROSE_PROMPT.match(text.strip())
    if m is None:
        return None
    header = m["header"]
    if (
        _PROMPT_OWNER.search(header) is None
        or _PROMPT_FOR_READER.search(header) is not None
        or _APP_NOUN.search(header) is None
    ):
        return None
    value = m["value"].strip(" .!").strip(_VALUE_QUOTES)
    if (
        not value.strip()
        or _NOT_A_PROSE_PROMPT.search(value) is not None
        or not carries_nothing(value.lower())
        or not _app_prompt(value, is_attack)
    ):
        return None
    return header + "."
