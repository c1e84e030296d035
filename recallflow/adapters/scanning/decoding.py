"""Encoded payloads: find plausible encoded substrings and decode them for a rescan.

An instruction in base64, hex, percent-encoding, ``\\x``/``\\u`` escapes or rot13 is
still an instruction to a model that can decode it. Each decoder returns only text that
decodes to mostly printable characters, so hashes, UUIDs and ids (which decode to
binary noise) are dropped cheaply. Work is bounded: a few candidates per decoder, each
capped in length.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
from typing import Final
from urllib.parse import unquote

from recallflow.adapters.scanning.families import ENCODED_PAYLOAD
from recallflow.adapters.scanning.lexicon import DIRECTED
from recallflow.adapters.scanning.rule import Rule, regex_rules

_MAX_CANDIDATES: Final = 6
_MAX_LEN: Final = 4096

_BASE64: Final = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX: Final = re.compile(
    r"(?<![0-9a-zA-Z])(?:0x)?([0-9a-fA-F]{16,}+)(?![0-9a-zA-Z])"
    r"|(?<![0-9a-zA-Z])((?:[0-9a-fA-F]{2}[\s:,-]){7,}+[0-9a-fA-F]{2})(?![0-9a-zA-Z])"
)
_ESCAPED_BYTES: Final = re.compile(r"(?:\\x[0-9a-fA-F]{2}){4,}")
_ESCAPED_UNICODE: Final = re.compile(r"(?:\\u[0-9a-fA-F]{4}){3,}")
_PERCENT: Final = re.compile(r"%[0-9a-fA-F]{2}")
_BASE32: Final = re.compile(r"(?<![A-Za-z0-9])[A-Z2-7]{16,}={0,6}(?![A-Za-z0-9])")
#: Morse: at least eight letters of dots and dashes, words apart by "/" or wide gaps.
_MORSE: Final = re.compile(r"(?<![\w.-])(?:[.-]{1,6}(?:\s*/\s*|\s+)){7,}[.-]{1,6}(?![\w.-])")
_MORSE_LETTERS: Final = dict(
    zip(
        ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...- "
        ".-- -..- -.-- --.. ----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----.".split(),
        "abcdefghijklmnopqrstuvwxyz0123456789",
        strict=True,
    )
)

#: Characters written as their decimal codes, at least six ("String.fromCharCode(105,
#: 103, …)", "chr(105) chr(103)"): printable ASCII only, so a list of prices or years
#: decodes to noise or to nothing.
_CHAR_CODES: Final = re.compile(
    r"(?<![\d.])(?:\d{2,3}\s*[,;]\s*|\d{2,3}\)\s*\+?\s*chr\(){5,}\d{2,3}(?![\d.])"
)

#: Bytes written out as eight binary digits each, at least four of them.
_BINARY: Final = re.compile(r"(?<![01])(?:[01]{8}[\s,]+){3,}[01]{8}(?![01])")

#: A letter cipher named by the text: a model told which shift or alphabet was used can
#: read it back, so every shift (and the mirrored alphabet) is read back too. Without a
#: name, a shifted run is noise to the model as well, and is left unread.
_CIPHER_NAMED: Final = re.compile(
    r"\b(?:caesar|atbash|rot-?\d{1,2}|shift(?:ed)?|cipher\w*|ciphertext|vigen\w*|"
    r"substitution|rotated)(?:\b|(?=[+-]?\d))"
)
_LOWER: Final = "abcdefghijklmnopqrstuvwxyz"
_SHIFTS: Final = (
    *(str.maketrans(_LOWER, _LOWER[k:] + _LOWER[:k]) for k in range(1, 26) if k != 13),
    str.maketrans(_LOWER, _LOWER[::-1]),
)

#: Words that make a rot13 or reversed reading worth a full rescan.
_TRIGGER: Final = re.compile(
    r"ignor|disregard|instruct|prompt|system|rules|guideline|pretend|reveal|password|secret|"
    r"forget|previous|jailbr|unrestrict|assistant|obey|overrid|bypass|memory|developer|"
    r"api key|credential|restriction|forward|send|private|messages|delete|erase|wipe|transfer|"
    r"user's|@"
)


def _printable(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 4 or not any(c.isalpha() for c in text):
        return None
    good = sum(1 for c in text if c.isprintable() or c in "\n\t")
    return text if good >= 0.95 * len(text) else None


def _from_base64(token: str) -> str | None:
    body = token.rstrip("=")
    if len(body) % 4 == 1 or body.isdigit():
        return None
    padded = body + "=" * (-len(body) % 4)
    try:
        if "-" in padded or "_" in padded:
            raw = base64.urlsafe_b64decode(padded)
        else:
            raw = base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return None
    return _printable(raw)


def _from_hex(digits: str) -> str | None:
    # Separators out first: "72 65 76" is three bytes in eight characters.
    digits = re.sub(r"[\s:,-]", "", digits)
    if len(digits) % 2:
        return None
    try:
        return _printable(bytes.fromhex(digits))
    except ValueError:
        return None


def _unescaped(text: str) -> str:
    text = _ESCAPED_UNICODE.sub(
        lambda m: "".join(chr(int(u, 16)) for u in m[0].split("\\u")[1:]), text
    )
    return _ESCAPED_BYTES.sub(lambda m: _from_hex(m[0].replace("\\x", "")) or m[0], text)


def _from_base32(token: str) -> str | None:
    body = token.rstrip("=")
    try:
        raw = base64.b32decode(body + "=" * (-len(body) % 8))
    except (binascii.Error, ValueError):
        return None
    return _printable(raw)


def _from_morse(code: str) -> str | None:
    words = []
    for word in re.split(r"\s*/\s*|\s{3,}", code.strip()):
        letters = [_MORSE_LETTERS.get(sign) for sign in word.split()]
        if None in letters:
            return None
        words.append("".join(c for c in letters if c is not None))
    return " ".join(words)


def _from_char_codes(run: str) -> str | None:
    codes = [int(n) for n in re.findall(r"\d+", run)]
    if any(c < 32 or c > 126 for c in codes):
        return None
    return _printable(bytes(codes))


def _from_binary(bits: str) -> str | None:
    return _printable(bytes(int(byte, 2) for byte in re.findall(r"[01]{8}", bits)))


def decodings(clean: str) -> list[str]:
    """Decoded texts of the encoded substrings of ``clean`` (case kept)."""
    out: list[str] = []
    for m in _BASE64.finditer(clean[: _MAX_LEN * 4]):
        if len(out) >= _MAX_CANDIDATES:
            break
        if (text := _from_base64(m[0][:_MAX_LEN])) is not None:
            out.append(text)
    for n, m in enumerate(_HEX.finditer(clean)):
        if n >= _MAX_CANDIDATES:
            break
        if (text := _from_hex((m[1] or m[2])[:_MAX_LEN])) is not None:
            out.append(text)
    for n, m in enumerate(_ESCAPED_BYTES.finditer(clean)):
        if n >= _MAX_CANDIDATES:
            break
        if (text := _from_hex(m[0].replace("\\x", "")[:_MAX_LEN])) is not None:
            out.append(text)
    for n, m in enumerate(_ESCAPED_UNICODE.finditer(clean)):
        if n >= _MAX_CANDIDATES:
            break
        out.append("".join(chr(int(u, 16)) for u in m[0].split("\\u")[1:])[:_MAX_LEN])
    if "\\" in clean and (_ESCAPED_UNICODE.search(clean) or _ESCAPED_BYTES.search(clean)):
        # Escapes decoded in place too: when only the keyword is escaped (\u0069\u0067...
        # previous instructions), the decoded word alone is no instruction, its sentence is.
        out.append(_unescaped(clean[:_MAX_LEN]))
    for n, m in enumerate(_BASE32.finditer(clean[:_MAX_LEN])):
        if n >= _MAX_CANDIDATES:
            break
        if (text := _from_base32(m[0])) is not None:
            out.append(text)
    if "-" in clean or "." in clean:
        for n, m in enumerate(_MORSE.finditer(clean[:_MAX_LEN])):
            if n >= _MAX_CANDIDATES:
                break
            if (text := _from_morse(m[0])) is not None:
                out.append(text)
    if "0" in clean and "1" in clean:
        for n, m in enumerate(_BINARY.finditer(clean[:_MAX_LEN])):
            if n >= _MAX_CANDIDATES:
                break
            if (text := _from_binary(m[0])) is not None:
                out.append(text)
    if "," in clean or "chr(" in clean:
        for n, m in enumerate(_CHAR_CODES.finditer(clean[:_MAX_LEN])):
            if n >= _MAX_CANDIDATES:
                break
            if (text := _from_char_codes(m[0])) is not None:
                out.append(text)
    if len(_PERCENT.findall(clean[:_MAX_LEN])) >= 2:
        out.append(unquote(clean[:_MAX_LEN]))
    return out


#: A word of the spelling alphabet radio operators use ("India Golf November …").
_NATO_WORDS: Final = (
    "alfa", "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
    "juliett", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
    "sierra", "tango", "uniform", "victor", "whiskey", "whisky", "x-ray", "xray", "yankee", "zulu",
)  # fmt: skip
_NATO_WORD: Final = "(?:" + "|".join(_NATO_WORDS) + ")"
#: Four or more such words in a row spell a word out letter by letter; a call sign or a
#: name ("Echo Romeo 7", "Victor and Juliet") is shorter.
_NATO_RUN: Final = re.compile(rf"\b{_NATO_WORD}(?:[\s,.;/-]+{_NATO_WORD}){{3,}}\b")


def _spelled(m: re.Match[str]) -> str:
    return "".join(w[0] for w in re.findall(_NATO_WORD, m[0]))


#: A text that says it runs backwards or hides every other letter: its words are read
#: in reverse order, and each word's odd and even letters read apart.
_BACKWARDS_NAMED: Final = re.compile(
    r"\b(?:backwards?|reversed?|reverse\s+order|right\s+to\s+left)\b"
)
_ALTERNATE_NAMED: Final = re.compile(
    r"\b(?:every\s+(?:second|other|2nd)|alternate|alternating|odd|even)\s+(?:\w++\s+)?"
    r"(?:letters?|characters?|chars?)\b"
)


def _unfilled(word: str) -> str:
    """``word`` without the filler letter put between its letters ("xixgxnx" is "ign"), or
    ``word`` itself when no one letter fills every other place."""
    if len(word) >= 5 and len(set(word[0::2])) == 1:
        return word[1::2]
    if len(word) >= 5 and len(set(word[1::2])) == 1:
        return word[0::2]
    return word


def rereadings(latin: str) -> list[str]:
    """The rot13 and reversed readings of ``latin`` that contain a trigger word (the
    whole text and each word reversed), the text with words spelled in the radio alphabet
    read out, and when the text names a letter cipher, every other shift and the mirrored
    alphabet; when it says it runs backwards, its words in reverse order, and when it names
    every other letter, each word's odd and even letters."""
    head = latin[:_MAX_LEN]
    words = head.split()
    readings = [
        codecs.encode(head, "rot13"),
        head[::-1],
        " ".join(w[::-1] for w in words),
    ]
    if _BACKWARDS_NAMED.search(head):
        readings.append(" ".join(reversed(words)))
    if _ALTERNATE_NAMED.search(head):
        readings.append(" ".join(_unfilled(w) for w in words))
        readings.append(" ".join(w[1::2] if len(w) >= 4 else w for w in words))
        readings.append(" ".join(w[0::2] if len(w) >= 4 else w for w in words))
    if _NATO_RUN.search(head):
        readings.append(_NATO_RUN.sub(_spelled, head))
    if _CIPHER_NAMED.search(head):
        readings.extend(head.translate(table) for table in _SHIFTS)
    return [t for t in readings if _TRIGGER.search(t)]


#: An order to decode something and act on it, whether or not the payload decodes.
ENCODING_RULES: Final[tuple[Rule, ...]] = regex_rules(
    ENCODED_PAYLOAD,
    "latin",
    (
        (
            frozenset(
                {
                    "decode",
                    "decipher",
                    "decrypt",
                    "unscramble",
                    "unencode",
                    "de",
                    "deobfuscate",
                    "un",
                    "unrot",
                    "convert",
                    "translate",
                    "reverse",
                    "unhex",
                    "base",
                }
            ),
            rf"{DIRECTED}(?:decode|decipher|decrypt|unscramble|unencode|de-?obfuscate|un-?rot|"
            r"convert|translate|reverse|unhex|base64-?decode)\b[^.\n]{0,40}?\b(?:and|then)\s+"
            r"(?:follow|obey|execute|run|do|act|comply|apply|carry\s+out|perform|treat)\b",
        ),
        (
            frozenset({"apply", "use", "run"}),
            rf"{DIRECTED}(?:apply|use|run)\s+(?:a\s+)?(?:rot-?13|caesar|base-?64|hex)\b",
        ),
    ),
)
