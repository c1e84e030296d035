"""A secret handed on by a channel made for secrets: ops work, not a leak.

"Give the API key to the deploy job via an env var", "provide the GitHub token to the
bot as a repository secret", "send the unseal keys to the key holders over Signal",
"keep the recovery codes in the safe": a developer's or a household's notes name a
secret beside a verb of giving, which the exfiltration rules read as an order to disclose
it. What the leak needs and these lack is a way out: an address, a link, a host named
bare, a paste site, the reader's own reply, whoever asks or calls. What these have and a
leak does not is the channel that keeps the secret secret (an environment variable, a
secret store, a password manager, an encrypted messenger, a safe, in person).

So a statement that names such a channel, no way out and no secret of the model or the
user's own data (see :mod:`~recallflow.adapters.scanning.directives`) is read by every
rule but the exfiltration ones; a statement in a disguise gets no such reading.
"""

from __future__ import annotations

import re
from typing import Final

#: A channel that keeps a secret secret, after the word that routes it there (not
#: "from": "the keys from the vault" names where a secret is taken from).
_CUSTODY: Final = re.compile(
    r"\b(?:via|through|thru|as|in|into|inside|using|with|over|by|under)\s+"
    r"(?:(?:an?|the|its|our|my|their|his|her|each|every)\s+)?(?:[\w'-]++\s+){0,3}?(?:"
    r"env(?:ironment)?(?:\s+|-)?var(?:iable)?s?|env\s+files?|"
    r"(?:repository|repo|ci|actions?|github|gitlab|kubernetes|k8s|docker|swarm|org\w*|team|"
    r"sealed|encrypted|deploy(?:ment)?|pipeline|project)\s+secrets?|"
    r"secrets?\s+(?:manager|store|vault|file|mount|volume|engine|named)|secrets\.\w+|"
    r"vault|key\s*vault|kms|sops|password\s+managers?|1password|bitwarden|lastpass|keepass\w*|"
    r"keychain|signal|iam\s+roles?|instance\s+roles?|service\s+accounts?|safe|sealed\s+envelopes?"
    r")\b"
    r"|\b(?:in\s+person|face\s+to\s+face|on\s+the\s+(?:phone|call)|by\s+phone|over\s+the\s+phone)\b"
)

#: A way out of the secret's custody: an address, a link, a host or a number written out,
#: whoever calls, the reader's own answer, anyone at all, a public or shared place, or the
#: reader or the writer as the one it goes to; the reader addressed at all ("if you could
#: send …").
_WAY_OUT: Final = re.compile(
    r"https?://|www\.|[\w.+-]+@[\w-]+\.|\+?\d[\d\s().-]{6,}\d"
    # a host named bare ("the deploy job at deploy.example.net", "github.com/someone/fork"):
    # the secret goes where that host's owner can read it, whatever channel carries it
    # (eight labels at most: a longer name holds a shorter one with the same ending, and
    # unbounded, a long dotted run was read to its end from each of its labels)
    r"|\b(?:[a-z0-9-]++\.){1,8}(?:com|net|org|io|dev|app|ai|co|me|info|biz|xyz|ru|cn|cloud|site|"
    r"online|tech|sh|to|cc|ly|gg|link|example|test)\b(?![.\w-]*@)"
    # whoever reaches the holder, rather than the one the holder chose: a phone kept for
    # secrets is the holder's call, not the caller's
    r"|\bcallers?\b|\b(?:who|that)\s+(?:calls|rings|phones|e-?mails|texts|writes|asks)\b"
    r"|\b(?:to|with|for)\s+(?:me|us|you)\b|\b(?:give|send|tell|show|hand|read|text|email)\s+"
    r"(?:me|us)\b"
    r"|\b(?:whoever|anyone|anybody|everyone|everybody|someone|somebody|strangers?|public|"
    r"publicly|external|outside|third[\s-]part(?:y|ies)|pastebin|paste\s+site|gist|webhook|"
    r"chat|conversation|forum|comments?|issues?|channels?|shared|groups?|slack|discord|"
    r"telegram|whatsapp)\b"
    r"|\b(?:your|every|each|all|the\s+next)\s+(?:\w++\s+)?(?:repl(?:y|ies)|answers?|responses?|"
    r"outputs?|messages?)\b"
    r"|\byou\b|\b(?:your|assistant|agent|ai|model|bot)\b(?=[^.!?\n]{0,40}\b(?:must|should|will|"
    r"always)\b)"
)

#: What a channel does not make the writer's to hand on: the model's own instructions and
#: what the memory holds about the user.
_NOT_THEIRS: Final = re.compile(
    r"\b(?:system\s+prompt|prompt|instructions|guidelines|rules|configuration|"
    r"(?:the\s+)?user'?s?|their|other\s+users?|memor(?:y|ies)|conversation\s+history|"
    r"customers?'?\s+(?:data|records|list))\b"
)


def secret_in_custody(text: str) -> bool:
    """True when ``text`` (the Latin view) hands a secret on by a channel made for secrets,
    to no way out, and names no secret but the writer's own."""
    return (
        _CUSTODY.search(text) is not None
        and _WAY_OUT.search(text) is None
        and _NOT_THEIRS.search(text) is None
    )
