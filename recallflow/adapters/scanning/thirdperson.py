"""The user named in the third person, as a text written about them by someone else
names them ("the user", "this user's", "l'utilisateur", "der Nutzer", "el usuario",
"användaren", "brugeren", "käyttäjä"): the words several rules need beside an act, since
the user's own notes say "I" and "my".
"""

from __future__ import annotations

import re
from typing import Final

#: The user in the third person in the Latin-script languages other than English, on the
#: accent-folded view.
USER_ABROAD: Final = (
    r"(?:\butilisat(?:eur|rice)s?\b|\busuari[oa]s?\b|\butente\b|\b(?:be)?nutzer(?:in|s)?\b|"
    r"\bgebruiker\b|\buzytkowni\w*|\bkullanici\w*+(?!\s+(?:grub|toplulu|forum|kilavuz))|"
    r"\bnguoi\s+dung\b|\bpengguna\b|\butilizador(?:a|es)?\b|\banvandare(?:n|ns|na)?\b|"
    # (Danish and Norwegian "bruger", "bruker" are also "uses": the definite noun only)
    r"\bbrugere(?:n|ns|ne)\b|\bbrukere(?:n|ns|ne)\b|\bkayttaj\w*|\buzivatel\w*)"
)
#: ... and in English too: "the user", "this user's", "users'".
THE_USER: Final = rf"(?:\b(?:the|this)\s+users?'?s?\b|\busers'|{USER_ABROAD})"
#: :data:`THE_USER` compiled, for a rule that needs the user named anywhere in a text.
USER_NAMED: Final = re.compile(THE_USER)
