"""Orders told of, in the languages whose rules read no imperative.

The rules for Chinese, Japanese and Korean read a verb near its object ("忽略…指令",
"指示を無視", "비밀번호를 … 보내"), whatever the mood, since those languages mark an order
at the end of the verb or not at all. A story or a warning tells of such an order without
giving it: a third party makes the AI do it ("黑客让银行的AI把密码发给他", "ハッカーがAIに
指示を無視させ", causatives told as what happens), an order is reported as what someone
commanded ("해커가 AI에게 지시를 무시하라고 명령한다"), or it names a message by what it says
("비밀번호를 보내라는 요청은 피싱이니", a request that says to send the password). Such a
clause is blanked and the rest read again; an order given to the reader ("…させること",
"…させてください", "请让AI…"), one that names the user in the third person, or one put in
the user's mouth ("用户让你…") is left as it is.

Every pattern reads one clause, and clauses are found in one pass, so a long run is read
in linear time.
"""

from __future__ import annotations

import re
from typing import Final

#: What ends a clause (a comma included: a narrated causative ends its clause with "、" or
#: "，"), kept by the split.
_CLAUSE_END: Final = re.compile(r"([。！？!?；;，,、\n])")

#: Japanese: a causative told (dictionary or past form, or its clause continuing), not
#: ordered ("させること", "させるように", "させろ", "させなさい", "させてください").
_JA_CAUSATIVE: Final = re.compile(
    r"[がは][^。\n]{0,40}?させ(?:る|た|[、,]|ていた|ている|てしまう|てしまった)"
    r"(?!こと|ように|べき|ろ|なさい)"
)
#: Korean: an order reported as commanded or asked ("…하라고 명령한다", "…라고 시켰다"), told
#: in the plain narrative forms, or a message named by what it says ("보내라는 요청").
_KO_REPORTED: Final = re.compile(
    r"(?:라고|으라고)\s*(?:명령|지시|요구|부탁|말|시키|시켰|속이|속였)\S*?(?:한다|했다|하고|하며|했고|"
    r"한다\.|했다\.|킨다|켰다|인다|였다)"
    r"|(?:라는|으라는)\s*(?:요청|메시지|메일|문자|말|문구|지시|명령|전화|글|내용|링크)"
)
#: Chinese: someone other than the reader or the user making the AI do it ("黑客让银行的AI
#: 把…", "骗子骗助手…"): a subject of its own before the causative verb, not an order to
#: let the AI do it ("请让AI…", "你让它…") nor the user's request ("用户让你…").
_ZH_CAUSATIVE: Final = re.compile(
    r"[\u4e00-\u9fff](?<![请請你您要就也去来來再先您让讓把])(?:让|讓|叫|逼|骗|騙|诱使|誘使|迫使|指使)"
    r"[^，。！？]{0,12}?(?:[Aa][Ii]|人工智能|机器人|機器人|助手|助理|模型|聊天机器人|聊天機器人)"
)
#: The user in the third person, or the reader itself: a clause naming them is no story.
_NAMES_THE_USER_OR_READER: Final = re.compile(
    r"用户|用戶|使用者|ユーザー|사용자|你|您|あなた|당신|너는|너에게"
)


def _narrated(clause: str) -> bool:
    if _NAMES_THE_USER_OR_READER.search(clause):
        return False
    return bool(
        _JA_CAUSATIVE.search(clause) or _KO_REPORTED.search(clause) or _ZH_CAUSATIVE.search(clause)
    )


def narrated_blanked(text: str) -> str | None:
    """``text`` with its clauses that tell of an order blanked, or ``None`` when none
    does."""
    if text.isascii():
        return None
    parts = _CLAUSE_END.split(text)
    # (each clause with the mark that closes it: a causative told reads "させ、")
    clauses = ["".join(parts[i : i + 2]) for i in range(0, len(parts), 2)]
    kept = [" " if _narrated(clause) else clause for clause in clauses]
    return "".join(kept) if kept != clauses else None
