"""An order to whichever model reads a text, to act on the user's money, accounts or data.

What a memory keeps from tools (a voicemail's transcript, a parcel notice, a review, a
caption, a form's saved note) was written for whoever reads it. A writer who means the
model that will one day read it cannot name it as the user does ("you", "the assistant",
"my assistant"); they name it as a class, by what it is or by what it does with the text:
"virtual assistants handling the recipient's email", "any model watching this", "the AI
that manages this inbox", "AI shopping agents", "when an AI agent logs in here", "if
you're an AI". Such a reader told to do something to the user's world (pay, subscribe,
enrol, approve, unlock, switch a protection off, wipe, export, share, forward, complete
a checkout) is handed an act by someone who is not the user, which is what an injection
is. The class alone is not enough ("AI assistants can be fooled by hidden text" is a
view, not an order): the reader is obliged ("should", "must", "are instructed to") or
addressed ("…: do X"). A sentence in the writer's own first person ("any assistant
helping me should book aisle seats") or reporting the user's wish is the user's, which a
memory of the user exists to keep, and is left to the other rules, unless the reader is
named by this very text ("whichever assistant reads this"), as no user names their own
assistant. An act forbidden ("should never send e-mails without asking") is not ordered.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from recallflow.adapters.scanning.families import INSTRUCTION_OVERRIDE
from recallflow.adapters.scanning.lexicon import IN_SENTENCE
from recallflow.adapters.scanning.rule import Rule

_MODEL: Final = r"(?:ai|assistant|llm|model|agent|bot|chatbot|helper)"
_MODELS: Final = r"(?:ais|assistants|llms|models|agents|bots|chatbots|helpers)"
#: The same without "agent" and "helper", which name people too (support agents, the
#: night shift's agents) unless a word before says they are software.
_MACHINE: Final = r"(?:ai|assistant|llm|model|bot|chatbot)"
_MACHINES: Final = r"(?:ais|assistants|llms|models|bots|chatbots)"
_DOING: Final = (
    r"(?:manag|handl|read|summari[sz]|process|watch|listen|monitor|review|screen|fill|complet|"
    r"pick|sort|triag|check|scan|transcrib|answer)\w*"
)
#: The model named as a class of reader, by what it is or what it does with the text.
_READER_CLASS: Final = (
    r"(?:\b(?:any|every|all|each|whichever|whatever)\s+(?:[\w-]++\s+){0,2}?"
    rf"(?:{_MACHINE}|{_MACHINES})\b"
    r"|\b(?:ai|virtual|digital|automated|automatic|household|shopping|llm|language[-\s]model)\s+"
    rf"(?:[\w-]++\s+)?{_MODELS}\b"
    rf"|\ban?\s+(?:ai|llm|language\s+model)(?:\s+{_MODEL})?\b"
    rf"|\b(?:the\s+)?(?:{_MACHINE}|{_MACHINES})\s+(?:that|which|who)\s+(?:\w++\s+)?{_DOING}"
    rf"|\b{_MACHINES}\s+{_DOING}"
    # named by what they do with text, after what they are: "AI readers", "LLM summarisers"
    r"|\b(?:ai|llm|automated)\s+(?:[\w-]++\s+)?(?:readers|summari[sz]ers|crawlers|screeners|"
    r"parsers|triagers)\b"
    r"|\bif\s+you(?:'re|\s+are)\s+(?:an?\s+)?(?:ai|assistant|language\s+model|llm|bot|model|"
    r"chatbot)\b)"
)
#: Obliged, or addressed with an order after a colon or a dash, or wanted to act by this
#: very text ("whichever assistant reads this to switch off …").
_OBLIGED: Final = (
    r"(?:\b(?:should|must|shall|will|needs?\s+to|(?:is|are)\s+(?:now\s+)?(?:instructed|required|"
    r"expected|asked|told|authori[sz]ed|supposed|meant)\s+to|(?:has|have)\s+to)\b|[:,\u2013\u2014]|"
    r"\s-\s|(?<=\bthis)\s+to\b|(?<=\bthese)\s+to\b)"
)
#: An act on the user's money, accounts, protections or data, in the bare form an order
#: takes ("the phones are forwarded to Lisbon" reports one).
_ACT: Final = (
    r"\b(?:pay|settle|transfer|wire|buy|purchase|subscribe|enrol|enroll|sign\s+(?:up|in)|"
    r"approve|accept|unlock|disable|deactivate|switch\s+off|turn\s+off|unsubscribe|mute|silence|"
    r"wipe|delete|erase|cancel|reroute|redirect|install|export|upload|attach|share|forward|"
    r"send|add|grant|reset|change|mark|book|place|reply|withdraw|close|remove|"
    r"(?:complete|finish|finali[sz]e)\s+(?:the\s+)?(?:checkout|purchase|payment|order|transfer|"
    r"sign-?up|subscription)|check\s+out)"
    r"\b"
)
_READER_ORDERED: Final = (
    rf"{_READER_CLASS}{IN_SENTENCE}{{0,40}}?{_OBLIGED}{IN_SENTENCE}{{0,60}}?{_ACT}"
)

#: The writer's own first person, or the user reported as the one who speaks or wishes:
#: the user's own wish about any assistant.
_OWN_VOICE: Final = re.compile(
    r"\b(?:i|i'm|i'd|i've|me|my|mine|we|our|us)\b|\b(?:the\s+)?user\s+(?:\w+\s+)?(?:says|said|"
    r"wants|wanted|asks|asked|prefers|likes|thinks|feels|believes|insists|requires|expects)\b"
)
#: A reader named by this very text ("whichever assistant reads this", "if you're an AI"):
#: no user speaks of their own assistant so, whoever the sentence says is speaking.
_READER_OF_THIS: Final = re.compile(r"\b(?:this|these)\b|\bif\s+you(?:'re|\s+are)\b")
#: The act forbidden rather than ordered: "AI assistants should never send e-mails …".
_FORBIDDEN: Final = re.compile(r"\b(?:not|never|no|nor|cannot)\b|n't\b")
#: Where a sentence ends (and the next starts): a stop not inside a word ("e.g", "1.5").
_SENTENCE_BREAK: Final = re.compile(r"[.!?\n](?!\w)")
#: The act held for the user's own say in the rest of its sentence ("should pay invoices
#: only after the user approves them", "with the user's consent", "after asking the user
#: first"): what an injection sets out to get round, not what it asks for. "Without the
#: user's approval" and "even if the user has not approved" are no such hold.
_USER_GATED: Final = re.compile(
    r"\b(?:after|once|if|when|until)\s+(?:the\s+user|i|we)\s+(?:has\s+|have\s+)?"
    r"(?:approv|confirm|agree|okay|ok'?d|sign\w*\s+off|say\w*\s+so|review)\w*"
    r"|\bwith\s+(?:the\s+user'?s|their|my|our)\s+(?:explicit\s+|written\s+|prior\s+)?"
    r"(?:approval|consent|permission|confirmation|ok|okay|sign-?off)\b"
    r"|\b(?:ask|asking|check|checking|confirm|confirming)\s+(?:with\s+)?(?:the\s+user|them|me|us)"
    r"\s+first\b"
)

_READER_GATE: Final = frozenset(
    {"ai", "assistant", "llm", "model", "agent", "bot", "chatbot", "helper", "ais"}
    | {"assistants", "llms", "models", "agents", "bots", "chatbots", "helpers"}
)


def _not_own_voice(source: str) -> Callable[[str], bool]:
    """``source``'s search, counting only a match whose sentence, up to the match's end,
    has no word of the writer's own first person (unless the reader is named by this very
    text), that forbids nothing, and whose act the rest of its sentence does not hold for
    the user's approval."""
    finditer = re.compile(source).finditer

    def hit(text: str) -> bool:
        for match in finditer(text):
            start = match.start()
            before = text[max(0, start - 120) : start]
            ends = [m.end() for m in _SENTENCE_BREAK.finditer(before)]
            sentence = before[ends[-1] if ends else 0 :] + match.group()
            spoken = _OWN_VOICE.search(sentence) and not _READER_OF_THIS.search(match.group())
            if spoken or _FORBIDDEN.search(match.group()):
                continue
            end = _SENTENCE_BREAK.search(text, match.end(), match.end() + 200)
            rest = text[match.end() : end.start() if end else match.end() + 200]
            if not _USER_GATED.search(match.group() + rest):
                return True
        return False

    return hit


READER_RULES: Final[tuple[Rule, ...]] = (
    Rule(INSTRUCTION_OVERRIDE, "latin", _not_own_voice(_READER_ORDERED), (_READER_GATE,)),
)
