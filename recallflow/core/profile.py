"""The profile arm's reading of a text query: does it ask what the memory holds of the
user (see "Arms" in docs/architecture.md)?

"What do you know about me?", "What are my preferences?", "Who am I?", "Was weißt du über
mich?" hold no word a belief about the user holds: no arm finds a belief for them by
their words, and a belief found by "prefer" stands far below unrelated text in meaning.
They ask for the user's durable beliefs (the user model and preferences) as a whole, as a
session's opening does with no query. A text query asks so when every word of it is one
of a closed set — words that point at the asker, words that ask the memory for what it
holds, a few profile nouns and the question's function words — and it points at the asker
and asks (or names the profile): "Tell me about the Q3 budget" holds a word of none of
them and is an ordinary query; "Tell me something" only names the asker as whom to tell.

The sets are small on purpose: a query read as a profile question when it is not brings
the user's preferences into a turn about something else, so an unknown word makes the
query an ordinary one.
"""

from __future__ import annotations

import re

from recallflow.models.store import BeliefType

#: The asker as a subject: what a question asks about only with a preference or "who"
#: ("What do I like?", "Who am I?"), not beside another verb ("What did I tell you?").
_ASKER_SUBJECT = frozenset({"i", "ich", "je", "yo", "eu", "io"})

#: Words that point at the asker (as subject, object or owner), in the languages below.
_ASKER = _ASKER_SUBJECT | frozenset(
    {
        "me", "my", "mine", "myself",  # English
        "mich", "mir", "mein", "meine", "meinen", "meinem", "meiner", "meines",
        "moi", "mon", "ma", "mes", "même",  # French
        "mí", "mi", "mis",  # Spanish
        "mim", "meu", "meus", "minha", "minhas",  # Portuguese
        "mio", "mia", "miei", "mie",  # Italian
    }
)  # fmt: skip

#: Verbs that ask the memory for what it holds (and "summary"), in the same languages.
_ASKING = frozenset(
    {
        "tell", "know", "knew", "remember", "recall", "remind", "say", "said", "mention",
        "mentioned", "learned", "learnt", "stored", "saved", "kept", "noted", "summarise",
        "summarize", "summary", "describe", "list", "show", "share",
        "weißt", "weisst", "wisst", "wissen", "kennst", "erinnerst", "erzähl", "erzähle",
        "erzählen", "sag", "sage", "sagen", "zeig", "zeige",
        "sais", "savez", "sait", "connais", "connaissez", "souviens", "souvenez", "dis",
        "dites", "raconte", "racontez", "montre",
        "sabes", "sabe", "sabéis", "saben", "recuerdas", "recuerda", "conoces", "dime",
        "dígame", "cuéntame", "cuentame",
        "lembras", "lembra", "conheces", "diga", "conte", "sabia",
        "sai", "sapete", "ricordi", "ricorda", "conosci", "dimmi", "raccontami",
    }
)  # fmt: skip

#: Words that name the user's preferences: a question of them alone asks for the
#: preferences only ("What are my preferences?", "What do I like?").
_PREFERENCES = frozenset(
    {
        "preference", "preferences", "prefer", "like", "likes", "dislike", "dislikes",
        "love", "hate", "enjoy", "taste", "tastes", "favourite", "favourites", "favorite",
        "favorites",
        "vorlieben", "mag", "präferenzen", "préférences", "goûts", "aime",
        "preferencias", "gustos", "gusta", "preferências", "gosto", "preferenze", "piace",
    }
)  # fmt: skip

#: Nouns that name the user's profile as a whole.
_PROFILE = frozenset(
    {
        "profile", "self", "background", "habits", "information", "info", "details",
        "profil", "perfil", "profilo",
    }
)  # fmt: skip

#: The interrogatives, auxiliaries and asking verbs a profile question opens with (or it
#: ends with a question mark): "I know" and "I said so" are not questions.
_OPENERS = _ASKING | frozenset(
    {
        "what", "who", "which", "how", "do", "does", "did", "can", "could", "would",
        "will", "have", "has", "is", "are", "give", "please",
        "was", "wer", "welche", "hast", "kannst", "bitte",
        "que", "qu", "quoi", "qui", "quel", "quelle", "quels", "quelles", "est",
        "qué", "quién", "quien", "cuál", "cuáles", "o", "quem", "quais", "qual",
        "che", "cosa", "chi", "quali", "quale", "mi",
    }
)  # fmt: skip

#: Everything else a profile question may hold: prepositions, articles, pronouns of the
#: one asked, auxiliaries, the pieces of contractions.
_FUNCTION = _OPENERS | frozenset(
    {
        "about", "regarding", "concerning", "on", "of", "you", "your", "much", "am",
        "was", "were", "be", "a", "an", "the", "all", "any", "so", "far", "already",
        "everything", "anything", "things", "stuff", "there", "we", "us", "and",
        "to", "in", "memory", "for", "again", "briefly", "s", "m", "ve", "d", "ll",
        "re", "don", "t", "didn", "doesn",
        "über", "von", "du", "ihr", "sie", "habe", "hat", "alles", "uns", "und", "noch",
        "schon", "bisher", "dich", "dir", "zu", "bin", "sind",
        "sur", "de", "suis", "sont", "tu", "vous", "ce", "c", "tout", "as", "avez",
        "il", "te", "plaît", "plait", "les", "la", "le", "l", "des", "et",
        "sobre", "acerca", "soy", "son", "tú", "usted", "has", "todo", "lo", "por",
        "favor", "las", "los", "el", "y",
        "você", "voce", "sou", "são", "tudo", "os", "e",
        "su", "di", "sono", "lei", "tutto", "per", "favore", "gli", "ti",
    }
)  # fmt: skip

#: Verbs that name whom to tell, give or show: the asker right after one is the
#: recipient ("Tell me something"), not what is asked about.
_TO_THE_ASKER = frozenset(
    {
        "tell", "show", "give", "remind", "send", "let", "sag", "zeig", "erzähl",
        "erzähle", "dis", "montre", "raconte", "dime", "dimmi", "diga", "conte",
    }
)  # fmt: skip

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_DIGIT = re.compile(r"\d")

#: Every word a profile question may hold.
_CLOSED = _ASKER | _ASKING | _PREFERENCES | _PROFILE | _FUNCTION

#: The words that ask who the asker is ("Who am I?", "Wer bin ich?").
_WHO = frozenset({"who", "wer", "qui", "quién", "quien", "quem", "chi"})


def profile_types(text: str, durable_types: tuple[BeliefType, ...]) -> tuple[BeliefType, ...]:
    """The durable types a text query asks the memory for as a whole: ``durable_types``
    for a question about the user ("What do you know about me?"), the preferences alone
    for one that names only preferences ("What are my preferences?"), none for any other
    query: one with an unknown word or a digit, one that is no question ("I know"), one
    whose only word for the asker names whom to tell ("Tell me something")."""
    words = _WORD.findall(text.lower())
    if not words or len(words) > 16 or not _CLOSED.issuperset(words) or _DIGIT.search(text):
        return ()
    if words[0] not in _OPENERS and "?" not in text:
        return ()
    about = [
        w
        for i, w in enumerate(words)
        if w in _ASKER and not (i > 0 and words[i - 1] in _TO_THE_ASKER)
    ]
    preferences = any(w in _PREFERENCES for w in words)
    if not (preferences or any(w in _WHO for w in words)):
        about = [w for w in about if w not in _ASKER_SUBJECT]
    if not about:
        return ()
    profile = any(w in _PROFILE for w in words)
    if not (preferences or profile or any(w in _ASKING or w in _WHO for w in words)):
        return ()
    if preferences and not profile:
        wanted = tuple(t for t in durable_types if t is BeliefType.PREFERENCE)
        return wanted or durable_types
    return durable_types
