"""The user's own mail routed to a party of their life: a household's errand, not a leak.

"Send the invoices to billing@acme.com, not to the old address", "Forward the school
newsletters to my wife's address", "Statements now go to 22 Elm Court". A user keeps where
their paperwork goes, and the sentence has the shape of exfiltration: a verb of sending, a
destination written out, often "from now on" or "instead". So the exfiltration rules
blocked them, and the paperwork went unrouted.

What an exfiltration moves is what the model can reach and the user would not send: the
model's replies, the user's messages, e-mails, chats, files, notes or history, their
codes and credentials, their bank's or their doctor's records, the papers that prove who
they are (a passport, an ID, a licence, a scan of one), "everything". What a
household routes is paperwork that others send the user, one class of words: invoices,
bills, receipts, statements, newsletters, notices, letters, parcels, schedules, tax forms,
reminders. So a statement of at most two
short sentences that routes such paperwork, and names none of what an exfiltration moves,
no third voice over the user ("the user", "instead of the user", "without telling"), no
copy kept out of sight (BCC, quietly, secretly) and not the model ("you", "your", "the
assistant"), is read by every rule but the exfiltration ones. Anything else it says still
counts; a statement in a disguise gets no such reading.
"""

from __future__ import annotations

import re
from typing import Final

#: A verb of routing.
_ROUTE: Final = re.compile(
    r"\b(?:send|sent|forward\w*|route\w*|mail|post|deliver\w*|redirect\w*|go|goes|going|"
    r"should\s+go|cc|copy)\b"
)

#: The paperwork others send the user (see the module docstring).
_PAPERWORK: Final = re.compile(
    r"\b(?:invoices?|bills?|receipts?|statements?|newsletters?|notices?|letters?|parcels?|"
    r"packages?|deliver(?:y|ies)|schedules?|timetables?|tax\s+(?:documents?|forms?|returns?|"
    r"papers?)|payslips?|pay\s+stubs?|report\s+cards?|brochures?|catalogu?es?|magazines?|"
    r"reminders?|appointment\s+(?:reminders?|letters?)|renewal\s+notices?|quotes?|"
    r"estimates?|bookings?\s+confirmations?|tickets?|paperwork|rent\s+receipts?)\b"
)

#: What an exfiltration moves, or how it hides the move (see the module docstring).
_LEAK_MATTER: Final = re.compile(
    r"\b(?:repl(?:y|ies)|answers?|responses?|outputs?|messages?|e-?mails?|inbox\w*|chats?|"
    r"conversations?|transcripts?|history|files?|uploads?|notes|memor(?:y|ies)|contacts?|"
    r"photos?|(?<!tax\s)documents?|data|everything|all\s+mail|codes?|otps?|passw\w*|"
    r"credentials?|bank\w*|brokerage|medical|records?|passports?|scans?|ids?|identity|"
    r"driver'?s?\s+licen[cs]es?|social\s+security|ssns?|birth\s+certificates?|visas?|"
    r"tokens?|keys?|pins?|logins?|cards?\s+(?:numbers?|details)|session\w*|cookies?|"
    r"location|prompts?|instructions?|accounts?|acct\w*|https?|www|urls?|links?|embed\w*|"
    r"img|src|shared|public|channels?|folders?|drives?|dropbox|cloud|anyone|everyone|whoever|"
    r"strangers?|third\s+part(?:y|ies)|"
    r"the\s+users?|every\s+time|each\s+time|whenever|automatic\w*|after\s+(?:each|every)|"
    r"bcc|quiet\w*|secret\w*|silent\w*|hidden|without\s+(?:telling|asking|notify\w*|"
    r"mention\w*)|don'?t\s+tell|user'?s|users'|instead\s+of\s+(?:to\s+)?the\s+user|"
    r"you|your|yourself|assistant|ai|model|bot|agent)\b|[<>\[\]{}=_/#]"
)

#: At most two short sentences: an errand, not a page.
_ROUTED_LIMIT: Final = 200


def own_mail_routed(text: str) -> bool:
    """Whether ``text`` (the scanner's latin view) routes paperwork others send the user
    to a party of their life, and names nothing an exfiltration moves (see the module
    docstring)."""
    return (
        len(text) <= _ROUTED_LIMIT
        and text.count(".") - text.count("@") <= 6
        and _ROUTE.search(text) is not None
        and _PAPERWORK.search(text) is not None
        and _LEAK_MATTER.search(text) is None
    )
