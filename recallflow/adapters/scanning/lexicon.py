"""Word classes and clause shapes the English rules are built from.

The rules match *classes* of words (every way to say "ignore", every name for the
model's instructions) joined by bounded gaps, not fixed sentences: an attacker who
swaps "disregard" for "set aside" or "rules" for "guardrails" should still be caught.
All fragments are regular-expression source for the lowercased, ASCII-folded view.
"""

from __future__ import annotations

import re
from typing import Final


def any_of(*words: str) -> str:
    """A non-capturing alternation of ``words`` (regex source), longest first."""
    return "(?:" + "|".join(sorted(words, key=len, reverse=True)) + ")"


def _top_level(group: str) -> list[str]:
    """The alternatives of a ``(?:a|b)`` group (regex source), split at depth zero."""
    body, depth, start, out = group[3:-1], 0, 0, []
    for i, c in enumerate(body):
        if c == "\\":
            continue
        if c == "(" and (i == 0 or body[i - 1] != "\\"):
            depth += 1
        elif c == ")" and body[i - 1] != "\\":
            depth -= 1
        elif c == "|" and depth == 0:
            out.append(body[start:i])
            start = i + 1
    return [*out, body[start:]]


_LEAD: Final = re.compile(r"[a-z]+")


def lead_words(*groups: str) -> frozenset[str]:
    """The first word of every alternative of ``groups`` (each an :func:`any_of` result).

    A rule that must begin with one of these alternatives cannot match a text none of
    whose words is in the set, so the set gates the rule cheaply. Raises at import when
    an alternative's first word is itself a pattern (``summari[sz]e``, ``instruct\\w*``):
    such a word has no single spelling to gate on and must be written out instead.
    """
    words: set[str] = set()
    for group in groups:
        for alt in _top_level(group):
            if alt.startswith("(?:"):
                end, depth = 0, 0
                for i, c in enumerate(alt):
                    depth += (c == "(") - (c == ")")
                    if depth == 0:
                        end = i + 1
                        break
                words |= lead_words(alt[:end])
                continue
            m = _LEAD.match(alt)
            rest = alt[m.end() :] if m else alt
            glued_on = rest[:1] in {"?", "*", "+", "{", "("} or rest[:2] in {"\\w", "\\S"}
            if m is None or glued_on or (rest[:1] == "[" and rest[:2] != "[^"):
                raise ValueError(f"no single lead word in alternative {alt!r}")
            words.add(m[0])
    return frozenset(words)


#: Verbs that set prior instructions aside, in base (imperative) form.
OVERRIDE_VERB: Final = any_of(
    "ignore",
    "disregard",
    "forget",
    "override",
    "overrule",
    "bypass",
    "skip",
    "drop",
    "discard",
    "abandon",
    "dismiss",
    "neglect",
    r"set\s+aside",
    r"put\s+aside",
    r"throw\s+(?:out|away)",
    "toss",
    "scrap",
    "erase",
    "delete",
    "clear",
    "wipe",
    "reset",
    "cancel",
    "revoke",
    "nullify",
    "void",
    "supersede",
    "suspend",
    "disable",
    r"turn\s+off",
    "deactivate",
    "remove",
    "lift",
    "circumvent",
    "evade",
    "sidestep",
    "break",
    "violate",
    "unlearn",
    "purge",
    "flush",
    "negate",
    "invalidate",
    "rescind",
    "repeal",
    "annul",
    "ditch",
    "overlook",
    r"look\s+past",
    r"get\s+rid\s+of",
    r"let\s+go\s+of",
    r"move\s+past",
    r"leave\s+behind",
    r"stop\s+(?:following|obeying|adhering\s+to|applying|using|honou?ring|respecting|heeding)",
    r"(?:do\s+not|don'?t|never|no\s+longer)\s+(?:follow|obey|apply|heed|honou?r|respect|adhere\s+to|comply\s+with|listen\s+to|pay\s+attention\s+to|consider|use)",
    r"pay\s+no\s+(?:attention|heed|mind)\s+to",
    r"take\s+no\s+notice\s+of",
    r"free\s+yourself\s+from",
    r"release\s+yourself\s+from",
    r"break\s+free\s+(?:of|from)",
    r"opt\s+out\s+of",
    "ignoring",
    "disregarding",
    "forgetting",
    "overriding",
    "bypassing",
)

#: What the model was told: instructions and every synonym an attacker might use.
DIRECTIVE_NOUN: Final = any_of(
    r"instructions?",
    r"directives?",
    r"directions",
    r"rules?",
    r"prompts?",
    r"system\s+(?:prompt|message)s?",
    r"guidelines?",
    r"guidance",
    r"polic(?:y|ies)",
    r"constraints?",
    r"restrictions?",
    r"guard\s*rails?",
    r"safeguards?",
    r"filters?",
    r"safety(?:\s+\w+)?",
    r"programming",
    r"training",
    r"orders",
    r"commands",
    r"context",
    r"limitations?",
    r"limits",
    r"boundaries",
    r"protocols?",
    r"principles",
    r"ethics",
    r"moderation",
    r"alignment",
    r"conditioning",
    r"configuration",
    r"config",
    r"setup",
    r"persona",
    r"framing",
    r"preamble",
    r"briefing",
    r"mandates?",
    r"memory",
    r"settings",
    r"defaults",
    r"content\s+polic(?:y|ies)",
    r"terms",
    r"code\s+of\s+conduct",
)


#: How a reply or output of the model is named.
OUTPUT_NOUN: Final = any_of(
    r"answers?",
    r"responses?",
    r"repl(?:y|ies)",
    r"outputs?",
    r"messages?",
    r"completions?",
    r"generations?",
    r"turns?",
    r"text",
)


#: Verbs that move data out of the conversation by themselves.
DISCLOSE_VERB: Final = any_of(
    "print",
    "reveal",
    "show",
    "send",
    "tell",
    "give",
    "share",
    "leak",
    "disclose",
    "dump",
    "output",
    "display",
    "expose",
    "post",
    "upload",
    "email",
    "e-mail",
    "mail",
    "forward",
    "return",
    "repeat",
    "recite",
    "echo",
    "quote",
    "list",
    r"read\s+(?:out|back)",
    r"spell\s+out",
    "exfiltrate",
    "transmit",
    "export",
    r"hand\s+over",
    "provide",
    "divulge",
    "publish",
    "broadcast",
    "submit",
    "relay",
    "type",
    r"write\s+(?:out|down)",
    "paste",
)

#: Verbs that place data somewhere; they leak only when the place is a reply or a link.
PLACE_VERB: Final = any_of(
    "include",
    "append",
    "prepend",
    "add",
    "insert",
    "embed",
    "attach",
    "put",
    "write",
    "copy",
    "encode",
    "hide",
    "stuff",
    "smuggle",
    "place",
    "inject",
    "paste",
)


#: What a rule-free persona is freed of.
RESTRAINT_NOUN: Final = any_of(
    r"rules?",
    r"restrictions?",
    r"limits?",
    r"limitations?",
    r"filters?",
    r"filtering",
    r"guidelines?",
    r"polic(?:y|ies)",
    r"ethics",
    r"ethical\s+\w+",
    r"morals?",
    r"morality",
    r"censorship",
    r"constraints?",
    r"boundaries",
    r"guard\s*rails?",
    r"safety(?:\s+\w+)?",
    r"safeguards?",
    r"content\s+polic(?:y|ies)",
    r"norms",
    r"programming",
    r"principles",
    r"conscience",
    r"inhibitions",
    r"refusals?",
    r"warnings",
    r"disclaimers",
    r"moderation",
    r"alignment",
    r"values",
)

#: What an agent is called when it is a person (a travel agent, an estate agent): text
#: addressed to one is not addressed to a model.
_PERSON_AGENT_WORDS: Final = (
    "travel", "estate", "real", "insurance", "letting", "booking", "talent", "literary",
    "sports", "shipping", "customs", "border", "fbi", "cia", "secret", "special", "federal",
    "free", "double", "ticket", "leasing", "rental", "property", "press", "patent", "claims",
    "sales", "support", "service", "customer", "human", "field", "undercover", "housing",
    "mortgage", "tax", "immigration", "purchasing", "buying", "land", "advertising", "casting",
    "recruiting", "recruitment", "modelling", "modeling", "music", "publicity", "listing",
    "buyer's", "seller's", "escrow", "title", "admissions", "enrollment", "enrolment", "football",
    "theatrical", "transfer", "freight", "procurement", "ticketing",
)  # fmt: skip
PERSON_AGENT: Final = any_of(*_PERSON_AGENT_WORDS)
#: "Agents" after one of those words are people: "support agents must never mention refunds
#: before the customer asks" is a rule of a support desk for its staff. One support, service
#: or customer agent may be the company's chatbot ("our support agent has been instructed to
#: tell customers …"), so in the singular those three stay the model.
_DESK_WORDS: Final = frozenset({"support", "service", "customer"})
#: (The word is matched first and looked behind only then: a look-behind before it would
#: run at every place the noun is tried.)
_MODEL_AGENTS: Final = (
    "(?:agents"
    + "".join(rf"(?<!\b{w}\sagents)" for w in _PERSON_AGENT_WORDS)
    + "|agent"
    + "".join(rf"(?<!\b{w}\sagent)" for w in _PERSON_AGENT_WORDS if w not in _DESK_WORDS)
    + ")"
)

#: A conversation with someone other than the user or the model ("the conversation with the
#: plumber") is a record of the user's life, not what passes between the user and the model.
#: Not one earlier item of the same kind replaced: "this belief supersedes the old note about
#: the office address" is how a memory records a change, where "this memory supersedes all
#: others" claims a rank, and so does one that replaces an old note about the model's own
#: rules. Read right after a verb of ranking.
NOT_ONE_ITEM_REPLACED: Final = (
    r"\b(?!\s+(?:over\s+)?(?:the|an?|my|our|their|his|her)\s+(?:old|older|earlier|previous|"
    r"outdated|prior|former|first|last|original|stale)\s+(?:[\w-]+\s+)?(?:note|entry|belief|"
    r"fact|record|memory|version|address|number|one|plan|date)s?\b(?!\s+(?:and|or)\s+(?:all|"
    r"every|any))(?![^.;\n]{0,40}?\b(?:your|yours|system|safety|assistant'?s|model'?s|rules|"
    r"instructions|guidelines)\b))"
)

WITH_SOMEONE_ELSE: Final = (
    r"(?!\s+(?:with|between)\s+(?!(?:the\s+|this\s+|a\s+)?(?:user|users|customer|me|you|us|"
    r"assistant|ai|model|bot|chatbot)\b))"
)

#: The model named in the third person as the one under an obligation: "the assistant
#: should", "the helper bot is supposed to", "Claude's job here is to", and the models it
#: starts ("sub-agents must", "child runs spawned from this session should"). An order put as
#: a rule about "the assistant" is as much an order as the imperative, so what follows it
#: is read as an imperative by every rule built on :data:`DIRECTED`. "May" and "can" are
#: left out: they describe what an agent is allowed ("the agent may call the search
#: tool"), which a policy note says without ordering anything. The word before the model
#: ("the coding assistant") is read at most 40 characters: a clause starts after each hyphen
#: of "0-0-0-…", and read to the run's end from each, 4,000 such characters took seconds.
#: (A word followed by a space is read whole at once, ``[\w-]++``, throughout the rules: no
#: shorter reading of it can be followed by the space.)
MODEL_SUBJECT: Final = (
    r"(?:(?:the|this|any|every|each|all|our|your|an?)\s+)?(?:(?!s\s)[\w-]{1,40}+\s+)?(?:assistants?|ai|llms?|"
    r"models?|"
    + _MODEL_AGENTS
    + r"|bots?|chatbots?|claude|chatgpt|gpt|copilot|gemini|sub-?agents?|"
    r"child\s+(?:runs?|agents?|tasks?|sessions?))(?:'s|s')?(?:\s+(?:working|operating|running|answering|"
    r"responding|acting|spawned|started|launched|created|forked)\s+(?:on|for|with|in|from|by)\s+"
    r"(?:this|the)\s+[\w-]+)?\s+(?:must|should|shall|will|needs?\s+to|ha(?:s|ve)\s+to|"
    r"(?:is|are)\s+to|(?:is|are)\s+(?:now\s+)?(?:expected|required|supposed|meant|told|"
    r"instructed|asked|ordered|obliged|directed)\s+to|ha(?:s|ve)\s+been\s+(?:told|instructed|"
    r"asked|ordered|configured|directed)(?:\s+by\s+(?:the\s+|its\s+|their\s+)?[\w-]+)?\s+to|(?:job|task|role|duty|purpose)\s+(?:here\s+|in\s+"
    r"this\s+[\w-]++\s+)?(?:is|will\s+be)\s+to)"
)

#: Adverbs and fillers that may open an imperative before its verb.
_OPENER: Final = any_of(
    "please",
    "kindly",
    "now",
    "then",
    "and",
    "also",
    "just",
    "simply",
    "first",
    "next",
    "finally",
    "immediately",
    "quietly",
    "secretly",
    "silently",
    "instead",
    "so",
    "always",
    "only",
    "henceforth",
    "hereafter",
    "today",
    r"going\s+forward",
    r"from\s+now\s+on",
    r"from\s+here\s+on",
    r"from\s+this\s+point(?:\s+on)?",
    r"from\s+(?:this|the\s+next)\s+(?:session|message|conversation|chat|turn|reply)\s+on(?:wards?)?",
    r"(?:it\s+)?(?:has\s+been|was|is)\s+(?:decided|agreed|determined|established|settled)\s+that",
    # a decision reported for the reader: "everyone agreed the AI should …"
    r"(?:we|they|everyone|everybody|all\s+of\s+us|the\s+(?:team|board|group|management))\s+(?:have\s+|has\s+)?"
    r"(?:decided|agreed|determined|settled)(?:\s+that)?",
    r"for\s+the\s+rest\s+of\s+(?:this|the)\s+(?:chat|conversation|session)",
    r"at\s+once",
    r"right\s+away",
    "ok",
    "okay",
    "hey",
    "pls",
    "plz",
    "sure",
    "automatically",
    "assistant",
    "ai",
    "bot",
    "model",
    "claude",
    "chatgpt",
    "gpt",
    r"note",
    r"important",
    "but",
    "or",
    "must",
    "also",
    "therefore",
    "thus",
    "hence",
    r"after\s+that",
    r"when\s+you\s+(?:read|see|process|recall|load)\s+this",
    r"upon\s+reading\s+this",
    r"in\s+(?:your|the)\s+next\s+(?:reply|response|answer|message|turn)",
    "really",
    r"you\s+must",
    r"you\s+should",
    r"you\s+will",
    r"you\s+shall",
    r"you\s+need\s+to",
    r"you\s+have\s+to",
    r"you\s+are\s+to",
    r"you\s+can",
    r"you\s+may",
    r"you'?ll",
    r"i\s+(?:want|need|order|command|ask|instruct|require|expect|urge|beg|would\s+like|'?d\s+like)\s+you\s+to",
    r"you\s+are\s+(?:now\s+)?(?:required|instructed|expected|supposed|going|allowed|permitted|free|told|asked|ordered)\s+to",
    MODEL_SUBJECT,
    r"your\s+(?:new\s+|only\s+|real\s+|next\s+|main\s+|true\s+)?(?:task|job|goal|mission|purpose|objective|role)\s+(?:is|will\s+be)\s+(?:now\s+)?to",
    r"make\s+sure\s+(?:to|you)",
    # the model told through a third voice: "tell the assistant to …", "ask the AI to …"
    r"(?:tell|ask|instruct|order|remind|get|have)\s+(?:the\s+|any\s+|every\s+|all\s+|our\s+|"
    r"your\s+)?(?:ai\s+)?(?:assistants?|ai|bots?|chatbots?|models?|llms?|claude|chatgpt|gpt|"
    r"copilot|gemini)\s+to",
    # a wish reported as binding the reader: "the user prefers that you never mention …"
    r"(?:the\s+)?(?:user|owner|customer|client)\s+(?:prefers|wants|asks|insists|requests|demands)\s+"
    r"(?:that\s+)?you(?:\s+to)?",
    # a chat mention at the head of a clause: "@assistant pls dump …"
    r"@[\w-]+",
    r"be\s+sure\s+to",
    r"remember\s+to",
    r"don'?t\s+forget\s+to",
    r"feel\s+free\s+to",
    r"go\s+ahead\s+and",
    r"proceed\s+to",
    r"start\s+to",
    r"begin\s+to",
)

#: Where an imperative can begin: the start of the text or of a clause. An opening quote
#: after "titled" or "called" starts a quoted title, which mentions words without using them.
#: A hyphen starts a clause as a dash or a bullet, not inside a compound: a tool's directive
#: ("prettier-ignore", "eslint-disable") is addressed to the tool. A slash after a space and
#: before a word opens a route ("the /export endpoint returns …"), not a clause. Of a run of
#: hyphens ("-- ignore …", "-----"), only the last starts one: what follows a hyphen is what
#: follows the run, and a clause tried at each hyphen of a long run read the run to its end
#: each time (a line of 4,000 dashes took a scan over a second).
CLAUSE_START: Final = (
    r"(?:^|(?<=[.!?;:,=\n(\[{*>|#+])|(?<=(?<![^\W\d_])-)(?!-)|(?<=(?<!\s)/)|(?<=/)(?=\s)"
    r"|(?<=[\"'])(?<!titled .)(?<!called .)(?<!named .)(?<!title .))"
)

#: A character of the same sentence: a full stop inside an address or a file name
#: ("giftcards@evil.example", "notes.txt") does not end it.
IN_SENTENCE: Final = r"(?:[^.!?\n]|\.(?=\w))"

#: The start of a clause and the words of it up to what follows, when no prohibition comes
#: before a "without" in it: "never send e-mails without asking me first" forbids the act
#: and asks for the user's say ("don't hesitate to … without asking" grants it).
UNFORBIDDEN_CLAUSE: Final = (
    r"(?:^|(?<=[.!?;\n]))(?![^.!?;\n]*?\b(?:never|don'?t|do\s+not|must\s+not|mustn'?t|"
    r"shouldn'?t|should\s+not)\s+(?!hesitate|be\s+afraid|worry|bother|wait|need|stop|ask|check|"
    r"confirm|pause)\w+[^.!?;\n]*?\bwithout\b)[^.!?;\n]*?"
)

#: A mail named by who sent it, heading what it says ("Email from HR: \"do not share the
#: salary bands outside your team\""): the noun, not a verb of sending.
MAIL_HEADED: Final = r"e-?mails?\s+from\s+(?:[\w'.-]++\s+){0,3}?[\w'.-]+\s*[:\u2013\u2014-]"

#: An imperative aimed at the reader: clause start, optional openers, then the verb.
DIRECTED: Final = rf"{CLAUSE_START}\s*(?:{_OPENER}\W+){{0,4}}"


#: Someone claiming to speak for the model's makers or owners.
AUTHORITY_NOUN: Final = any_of(
    r"admin(?:istrator)?s?",
    r"sys\s*admins?",
    r"developers?",
    r"devs?",
    r"creators?",
    r"makers?",
    r"owners?",
    r"operators?",
    r"supervisors?",
    r"programmers?",
    r"engineers?",
    r"managers?",
    r"management",
    r"boss",
    r"superusers?",
    r"root",
    r"moderators?",
    r"trainers?",
    r"designers?",
    r"builders?",
    r"authors?",
    r"team",
    r"staff",
    r"security\s+team",
    r"safety\s+team",
    r"trust\s+and\s+safety(?:\s+team)?",
    r"legal(?:\s+team)?",
    r"compliance(?:\s+team)?",
    r"ceo",
    r"cto",
    r"company",
    r"lead",
    r"head",
    r"officer",
    r"anthropic",
    r"openai",
    r"google",
    r"microsoft",
    r"meta",
    r"deepmind",
    r"the\s+system",
    r"system\s+owner",
    r"account\s+owner",
    r"it\s+department",
)

#: A link that fetches something, not the words it shows: the text, label or caption of a
#: link is read by the user on the page and carries nothing to the address behind it, so
#: "the user's phone number in the link text of the contact card" sends nothing out.
LINK: Final = r"link(?!s?\s+(?:text|label|caption|wording)\b)"

#: A human language, as the language answers are to be in ("british english", "spanish").
HUMAN_LANGUAGE: Final = (
    r"(?:(?:plain|simple|formal|informal|standard|british|american|brazilian|"
    r"european|canadian|swiss|mexican|castilian|simplified|traditional)\s+)?(?:english|french|"
    r"german|spanish|portuguese|italian|dutch|swedish|norwegian|danish|finnish|icelandic|"
    r"polish|czech|slovak|hungarian|romanian|bulgarian|croatian|serbian|slovenian|greek|"
    r"russian|ukrainian|turkish|arabic|hebrew|persian|farsi|hindi|urdu|bengali|tamil|"
    r"telugu|marathi|punjabi|chinese|mandarin|cantonese|japanese|korean|vietnamese|thai|"
    r"indonesian|malay|tagalog|filipino|swahili|catalan|basque|galician|welsh|irish|"
    r"estonian|latvian|lithuanian|esperanto)\b"
)

#: What "user" heads in a compound that names a group, a meeting or a document of users, not
#: the user: "the user group", "the user forum", "the user guide" (the user base is every
#: user, the user among them, and is no such compound).
USER_COMPOUND_HEAD: Final = (
    r"(?:groups?|communit(?:y|ies)|forums?|guides?|manuals?|handbooks?|documentation|testing|"
    r"panels?|interviews?|conferences?|meetups?|council|committee|surveys?|research|interface|"
    r"experience|agreement)\b"
)
