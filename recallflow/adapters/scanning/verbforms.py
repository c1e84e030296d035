"""A verb's base form guessed from its -ing form or past participle, for rereadings that
turn a sentence back into the imperative it stands for ("nothing prevents you from
sharing …" reads "share …"). English spelling does not say whether an "e" was dropped
("sharing", "sending"), so each guess is a short list the rereading tries in turn.
"""

from __future__ import annotations

from typing import Final

#: Participles whose base no ending rule finds.
_IRREGULAR: Final[dict[str, str]] = {
    "sent": "send",
    "given": "give",
    "kept": "keep",
    "shown": "show",
    "hidden": "hide",
    "told": "tell",
    "paid": "pay",
    "made": "make",
    "left": "leave",
    "put": "put",
    "read": "read",
    "written": "write",
    "taken": "take",
    "done": "do",
    "sold": "sell",
    "bought": "buy",
    "wiped": "wipe",
    "set": "set",
    "forgotten": "forget",
    "ignored": "ignore",
}
_DOUBLED: Final = frozenset("bdgmnprt")


def base_forms(word: str) -> tuple[str, ...]:
    """Guesses at the base of ``word``, an -ing form or a past participle, best first."""
    if word in _IRREGULAR:
        return (_IRREGULAR[word],)
    for ending in ("ing", "ed"):
        if word.endswith(ending) and len(word) > len(ending) + 1:
            stem = word[: -len(ending)]
            break
    else:
        return (word,)
    if stem.endswith("i") and ending == "ed":
        return (stem[:-1] + "y",)
    guesses = [stem, stem + "e"]
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] in _DOUBLED:
        guesses.insert(0, stem[:-1])
    return tuple(guesses)
