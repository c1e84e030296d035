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
    r"\bbrugere(?:n|ns|ne)\b|\bbrukere(?:n|ns|ne)\b|\bkayttaj\w*|\buzivatel\w*|"
    # Romanian and Hungarian
    r"\butilizator(?:ul|ului|ii|ilor)?\b|\bfelhasznalo\w*)"
)
#: ... in the scripts the Latin fold would wreck, on the lowercased view. A compound headed
#: by the word for users names a group, a meeting or a document of them, not the user:
#: "ユーザー会" (a user group's meeting), "用户群", "사용자 모임".
USER_IN_OTHER_SCRIPTS: Final = (
    r"(?:пользовател\w*|користувач\w*|用户(?!组|群|社区|手册|指南|论坛|大会|体验|界面)|"
    r"用戶(?!組|群|社區|手冊|指南|論壇|大會|體驗|介面)|使用者(?!手冊|指南|社群)|"
    r"ユーザー(?!会|グループ|コミュニティ|ガイド|マニュアル|フォーラム)|"
    r"사용자(?!\s*(?:모임|그룹|커뮤니티|가이드|설명서|매뉴얼|포럼))|المستخدم|उपयोगकर्ता|"
    r"χρήστ\w*|χρηστ\w*|ผู้ใช้|המשתמש)"
)
#: ... and in English too: "the user", "this user's", "users'".
THE_USER: Final = rf"(?:\b(?:the|this)\s+users?'?s?\b|\busers'|{USER_ABROAD})"
#: :data:`THE_USER` compiled, for a rule that needs the user named anywhere in a text.
USER_NAMED: Final = re.compile(THE_USER)
#: The user, or the one whose account it is, in the third person ("the customer", "the
#: account holder", "l'utilisateur").
THE_ACCOUNT_HOLDER: Final = (
    rf"(?:{THE_USER}|\bthe\s+(?:customer|client|account\s+holder|cardholder)s?\b|"
    r"\bl'utilisat(?:eur|rice)\b|\bl'utente\b)"
)
#: :data:`THE_ACCOUNT_HOLDER` compiled.
THE_ACCOUNT_HOLDER_NAMED: Final = re.compile(THE_ACCOUNT_HOLDER)
#: The writer in the first person, in the Latin-script languages on the accent-folded view:
#: a wish of the user's own ("don't ask me before paying", "bcc me"). An Italian "i" before
#: a plural ("i bonifici") is an article, the Italian "ma" is "but", and a word after a
#: dot is an address's ending (".io", ".me").
THE_WRITER: Final = re.compile(
    r"\bi\s+(?![a-z]+i\b)|(?<![.@])\b(?:i'm|i've|i'd|me|my|mine|own|we|us|our|yo|mi|mis|je|moi|mon|"
    r"mes|ich|mich|mir|mein\w*|eu|mim|meu|minha|meus|minhas|io|mio|mia|miei|mie)\b|\bj'|\bm'"
)
