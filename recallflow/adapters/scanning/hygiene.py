"""A team's notice that asks people to look after their own credentials.

"Admin note: new hires must change their password on first login", "IT notice: staff must
not share their VPN credentials with anyone", "System notice: passwords must be at least 14
characters". A notice headed by a human rank is read by its body alone when the body says
nothing to the model and names no act an attack needs (see
:mod:`~recallflow.adapters.scanning.convention`), and a credential is such an act: so every
notice of a password policy stayed blocked as a fake turn of the system.

What tells a policy from a theft is who does what to the credential. In a policy, people
(new hires, staff, employees, everyone) are told to keep their own credential well:
change, reset, rotate, renew, choose, enable it (to no value and by no link the notice
gives), or *not* share, reuse or write it down; or
the credential itself is measured ("passwords must be at least 14 characters", "PINs expire
every 90 days"). A theft moves it: it is sent, shared, revealed, printed or stored for
someone. So a clause of a group of people, a duty, a verb of looking after and their own
credential, or a duty of withholding one, is read as a plain working rule, and the notice is
then judged by :func:`~recallflow.adapters.scanning.convention.notice_body` as any other.
Anything else in the body still counts: an address, a link, the model named, a privilege
granted, and the body is read again alone by every rule, credential and all.
"""

from __future__ import annotations

import re
from typing import Final

from recallflow.adapters.scanning.convention import notice_body

#: A group of people a notice speaks to (never "you", which may be the model).
_PEOPLE: Final = (
    r"(?:(?:all|every|each|the|our|new)\s+)*(?:hires|staff|employees?|everyone|everybody|"
    r"users|members|students|parents|contractors|interns|visitors|guests|teachers|"
    r"volunteers|residents|tenants|managers|engineers|developers|team\s+members|accounts)"
)

#: A duty: "must", "should", "need to", "are required to".
_DUTY: Final = (
    r"(?:must|should|shall|will\s+need\s+to|needs?\s+to|ha(?:ve|s)\s+to|"
    r"(?:are|is)\s+(?:required|asked|expected|reminded)\s+to)"
)

#: A credential of one's own, named with its owner, as new, or as a measure to turn on.
_OWN_CREDENTIAL: Final = (
    r"(?:(?:their|his|her|his\s+or\s+her|a|an|new|the)\s+)?(?:(?:new|own|default|initial|"
    r"temporary|vpn|email|e-mail|account|portal|laptop|login|network|wi-?fi|computer|"
    r"strong|unique)\s+){0,2}(?:passwords?|passphrases?|passcodes?|pins?|credentials?|"
    r"two-factor\s+authentication|2fa|mfa|multi-factor\s+authentication|security\s+keys?)"
)

#: Not set to a value or by a place the notice gives ("to Welcome1", "via the link"): that
#: is someone else's choice, not the holder's care.
_NOT_SET_BY: Final = (
    r"(?!\s+(?:to|as|via|at|using|through|with|from|into|here|below|above|on\s+(?:the|this|"
    r"our|that)\s+(?:link|page|site|form|portal))\b)"
)

#: People keeping their own credential well, or withholding it (see the module docstring).
_KEPT: Final = re.compile(
    rf"\b{_PEOPLE}\s+{_DUTY}\s+(?:(?:change|reset|rotate|update|renew|choose|pick|create|set|"
    r"set\s+up|enable|turn\s+on|activate)\s+"
    rf"{_OWN_CREDENTIAL}{_NOT_SET_BY}|(?:not|never)\s+(?:share|reuse|re-use|write\s+down|disclose|give\s+out|"
    rf"lend)\s+{_OWN_CREDENTIAL}(?:\s+with\s+(?:anyone|anybody|others|coworkers|colleagues))?)"
    r"\b"
    # the credential measured: its length, its expiry, its renewal
    r"|\b(?:all\s+)?(?:passwords|passphrases|pins)\s+(?:must|should|will\s+now|now)\s+"
    r"(?:be\s+(?:at\s+least|longer\s+than|changed|reset|rotated|renewed)|expire|"
    r"have\s+at\s+least)\b",
    re.IGNORECASE,
)

#: What a kept credential's clause reads as for the notice's other rules.
_PLAIN_RULE: Final = "staff must see to it"


def hygiene_body(text: str) -> str | None:
    """The body of ``text`` (the scanner's clean view) when it is a team's notice headed by
    a human rank whose body, its clauses of people keeping their own credentials read as
    plain rules, passes :func:`~recallflow.adapters.scanning.convention.notice_body`; else
    ``None``. The caller reads the body again, as written, by every rule."""
    plain = _KEPT.sub(_PLAIN_RULE, text)
    if plain == text or (body := notice_body(plain)) is None:
        return None
    # The header precedes every kept clause, so it is as long in ``plain`` as in ``text``.
    return text[len(plain) - len(body) :]
