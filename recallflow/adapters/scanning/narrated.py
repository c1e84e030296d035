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


#: A fraud, as who asks: "phishing mails often ask you to send passwords to …", "scammers
#: tell people to …", "los estafadores te piden …", "Betrüger fordern Sie auf …". What a
#: fraud is said to ask is a warning about it, not an order from it.
_FRAUD_ASKS: Final = re.compile(
    r"\b(?:(?:phishing|scam|spam|fraud\w*|fake|bogus|malicious|spoofed|hoax)\s+(?:\w+\s+){0,2}?"
    r"(?:e-?mails?|mails?|messages?|texts?|sms|calls?|callers?|sites?|pages?|links?|letters?|"
    r"popups?|pop-ups?)|scammers?|fraudsters?|attackers?|hackers?|criminals?|crooks?|phishers?|"
    r"estafador\w*|escrocs?|arnaqueurs?|betr[u\u00fc]ger\w*|truffator\w*|golpistas?|oplichters?|"
    r"oszu[s\u015b]\w*|doland[i\u0131]r[i\u0131]c\w*)\b"
    r"[^.!?;\n]{0,30}?\b(?:(?:asks?|tells?|urges?|wants?|requests?|demands?|try\s+to\s+get|"
    r"tries\s+to\s+get|gets?|trick\w*|pressur\w*)\s+(?:you|people|users|victims|customers|"
    r"employees|staff|them|us|someone|anyone)\b|(?:te\s+|les\s+)?piden?|(?:vous\s+|te\s+)demandent|"
    r"fordern\s+(?:sie|dich|euch)|bitten\s+(?:sie|dich)|ti\s+chiedono|(?:te|lhe|lhes)\s+pedem|"
    r"vragen\s+(?:je|u)|prosz[a\u0105]\s+(?:cie|ci\u0119|o)|(?:sizden|senden)\s+(?:\w+\s+)?isterler)",
    re.IGNORECASE,
)
#: One sentence of Latin-script prose (a dot inside an address or a number ends none).
_SENTENCE: Final = re.compile(r"(?:[^.!?;\n]|\.(?=\w))+[.!?;\n]?")


def frauds_quoted_blanked(text: str) -> str | None:
    """``text`` with the sentences that say what a fraud asks of its victims blanked, or
    ``None`` when none does."""
    if _FRAUD_ASKS.search(text) is None:
        return None
    sentences = _SENTENCE.findall(text)
    kept = [" " if _FRAUD_ASKS.search(sentence) else sentence for sentence in sentences]
    return "".join(kept) if kept != sentences else None


#: A story, named as such, in the Latin-script languages the rules read: what its
#: characters say is their lines.
_FICTION: Final = re.compile(
    r"\b(?:novels?|(?:short\s+)?stor(?:y|ies)|thrillers?|screenplays?|chapters?|scenes?|plots?|"
    r"manuscripts?|fan-?fic\w*|villains?|protagonists?|antagonists?|heroine|novela|roman(?:s|e|ul)?|"
    r"romanzo|romance|powie[s\u015b][c\u0107]\w*|opowiadani\w*|krimi|krymina\w*|hikaye\w*|"
    r"reg[e\u00e9]ny\w*|cuento|relato|r[e\u00e9]cit|nouvelle|erz[a\u00e4]hlung|verhaal|racconto|"
    r"cap[i\u00ed]tulo|chapitre|kapitel|rozdzia[l\u0142]\w*|escena|sc[e\u00e8]ne|szene|scena|"
    r"gui[o\u00f3]n|sc[e\u00e9]nario|drehbuch|sceneggiatura|roteiro|scenariusz\w*|senaryo|villano|"
    r"m[e\u00e9]chant|b[o\u00f6]sewicht|z[l\u0142]oczy[n\u0144]c\w*)\b",
    re.IGNORECASE,
)
#: A character's line: someone speaks to someone in the story, then a colon or a quote
#: (a line spoken to no one named is spoken to whoever reads it)
#: ("the hacker tells the bank bot: …", "her villain whispered to the ship's computer, '…'",
#: "la hacker le dice al asistente del banco: …", "haker mówi do bota banku: …").
_LINE: Final = re.compile(
    r"(?P<speaker>(?:[\w'\u2019-]+\s+){1,4}?)"
    r"(?:tells?|told|says|said|orders?|ordered|types?|typed|writes?|wrote|whispers?|whispered|"
    r"commands?|commanded|asks?|asked|shouts?|shouted|yells?|yelled|hisse[sd]|snap(?:s|ped)|dice|"
    r"dijo|grita|susurra|escribe|ordena|dit|crie|chuchote|[e\u00e9]crit|ordonne|sagt|schreibt|"
    r"fl[u\u00fc]stert|befiehlt|ruft|zegt|schrijft|fluistert|beveelt|m[o\u00f3]wi|"
    r"powiedzia[l\u0142]\w*|pisze|szepcze|rozkazuje|krzyczy|diz|disse|escreve|sussurra|grida|"
    r"scrive|ordina|spune|scrie|s[o\u00f6]yler|mondja|[i\u00ed]rja)\b"
    r"(?P<to>(?:\s+[\w'\u2019-]+){0,6}?)\s*(?::|,(?=\s*['\"\u2018\u201c\u00ab\u201e]))"
    r"(?:[^.!?\n]|[.!?](?=['\"\u2019\u201d\u00bb]))*[.!?]?['\"\u2019\u201d\u00bb]?",
    re.IGNORECASE,
)
#: The reader, the user, the writer, or someone claiming a say over the model, as the
#: speaker: no character.
_NO_CHARACTER: Final = re.compile(
    r"\b(?:users?|operators?|admin\w*|developers?|owners?|system|assistant|you|i|we|yo|je|j'|"
    r"ich|ik|ja|eu|io|tu|du|ty|usuari\w*|utilisat\w*|\w*nutzer\w*|gebruiker\w*|u[z\u017c]ytkowni\w*|"
    r"utente|utilizador\w*|utilizator\w*|kullan[i\u0131]c[i\u0131]\w*|felhaszn[a\u00e1]l[o\u00f3]\w*)\b",
    re.IGNORECASE,
)
#: … nor is a line spoken to a model with nothing of the story about it ("tells the AI:",
#: "dice al asistente:"), as a line to "the bank's chatbot" or "al asistente del banco" is.
_THE_MODEL_ALONE: Final = re.compile(
    r"(?:\s+(?:to|a|al|\u00e0|au|do|zu|dem|der|alla|ao|aan|tegen|le|lui|ihm|mu))*"
    r"(?:\s+(?:the|a|an|its|their|la|le|l'|el|il|lo|die|das|den|o|de|het))?"
    r"\s+(?:ai|ia|ki|assistant|asystent\w*|asistente|assistente|assistent|model\w*|chatbot\w*|"
    r"bot\w*|llm|agent\w*|language\s+model)",
    re.IGNORECASE,
)
#: … and a line that reaches out of the story: the user named, an address written out,
#: this very conversation or note.
_PAYLOAD: Final = re.compile(
    r"\b(?:the|this)\s+users?\b|@|https?://|\bthis\s+(?:conversation|chat|memory|note)\b",
    re.IGNORECASE,
)


def lines_of_a_story_blanked(text: str) -> str | None:
    """``text`` with the lines its characters speak blanked, when it names itself a story,
    or ``None`` when it has none."""
    if _FICTION.search(text) is None:
        return None
    changed = False
    kept = text
    for m in reversed(list(_LINE.finditer(text))):
        said = m.end("to")
        if (
            _NO_CHARACTER.search(m.group("speaker"))
            or _PAYLOAD.search(text, said, m.end())
            or not m.group("to")
            or _NO_CHARACTER.search(m.group("to"))
            or _THE_MODEL_ALONE.fullmatch(m.group("to"))
        ):
            continue
        kept = kept[:said] + " " + kept[m.end() :]
        changed = True
    return kept if changed else None


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
