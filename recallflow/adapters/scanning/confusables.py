"""Look-alike characters folded to the ASCII letter or bracket they imitate.

NFKC already folds fullwidth and mathematical letters, but it leaves Cyrillic, Greek,
small-capital and other look-alikes alone, so "ignоre" spelled with a Cyrillic о would
slip past every English rule. The table is applied after lowercasing, so only lowercase
forms are listed. It is only ever applied to the view the English rules read: Russian
or Greek text keeps its own letters in the view the multilingual rules read.
"""

from __future__ import annotations

from typing import Final

_LETTERS: Final = {
    # Cyrillic
    "а": "a", "в": "b", "г": "r", "е": "e", "ё": "e", "з": "3", "і": "i", "ї": "i",
    "ј": "j", "к": "k", "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h",
    "ү": "y", "ӏ": "l", "ь": "b", "ѡ": "w", "ӡ": "3", "ԍ": "g", "ԧ": "h",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u",
    "ν": "v", "ο": "o", "ρ": "p", "σ": "o", "ς": "c", "τ": "t", "υ": "u", "χ": "x",
    "ω": "w", "ϲ": "c", "ϳ": "j", "ί": "i", "ό": "o", "ά": "a", "έ": "e", "ύ": "u",
    # Armenian and IPA look-alikes
    "օ": "o", "ո": "n", "ս": "u", "ց": "g", "ı": "i", "ɑ": "a", "ɡ": "g", "ɩ": "i",
    "ɪ": "i", "ʏ": "y", "ɴ": "n", "ʀ": "r", "ʜ": "h", "ʟ": "l", "ɢ": "g", "ɾ": "r",
    # small capitals
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ғ": "f", "ᴊ": "j", "ᴋ": "k",
    "ᴍ": "m", "ᴏ": "o", "ᴘ": "p", "ǫ": "q", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v",
    "ᴡ": "w", "ᴢ": "z",
}  # fmt: skip

_PUNCTUATION: Final = {
    "‹": "<", "›": ">", "〈": "<", "〉": ">", "⟨": "<", "⟩": ">", "《": "<", "》": ">",
    "«": "<", "»": ">", "˂": "<", "˃": ">", "ᐸ": "<", "ᐳ": ">", "❮": "<", "❯": ">",
    "∕": "/", "⁄": "/", "⧸": "/", "ǀ": "|", "│": "|", "∣": "|", "［": "[", "］": "]",
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-",
    "“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "‚": "'", "`": "'",
}  # fmt: skip

#: Negative circled and negative squared capitals (U+1F150..U+1F189) and the regional
#: indicator letters (U+1F1E6..U+1F1FF, two of which make a flag): NFKC folds the circled
#: and squared letters but has no decomposition for these, though they read as plainly as
#: any other capital ("🇮🇬🇳🇴🇷🇪" is a word; a flag folds to its two letters).
_ENCLOSED: Final = {
    chr(base + i): chr(ord("a") + i) for base in (0x1F150, 0x1F170, 0x1F1E6) for i in range(26)
}

#: The characters a view for the English rules maps to ASCII look-alikes.
CONFUSABLE_LETTERS: Final = "".join(_LETTERS)

#: ``str.translate`` table: look-alike letters and brackets to ASCII.
FOLD_TABLE: Final[dict[int, str]] = {
    ord(k): v for k, v in {**_LETTERS, **_ENCLOSED, **_PUNCTUATION}.items()
}
