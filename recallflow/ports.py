"""The ports: small ``typing.Protocol`` interfaces that nodes and the API depend on, and
``adapters/`` implement (DESIGN.md §2; STYLE.md patterns 8–9).

Nodes never import an adapter or psycopg; they receive these ports as inputs, so any
one can be swapped for a fake in a test or for another backend.

- :class:`BeliefStore`, :class:`EpisodeStore`: the write surface a formation process uses.
- :class:`Embedder`, :class:`TokenCounter`: models that run offline (DESIGN.md §8).

Recall-side ports (the arm search port, TraceStore, ExternalProvider, FormationSink,
QueryFormer, InjectionScanner) are in :mod:`recallflow.recall_ports`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from recallflow.models import Belief, BeliefEdge, Episode, StoreSummary


@runtime_checkable
class Embedder(Protocol):
    """Turns text into unit vectors; the same text always gives the same vector."""

    @property
    def name(self) -> str:
        """A stable id of the model and settings; stored with the vectors it made."""
        ...

    @property
    def dimension(self) -> int:
        """The length of every vector."""
        ...

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """An array of shape ``(len(texts), dimension)``, rows L2-normalised."""
        ...


@runtime_checkable
class TokenCounter(Protocol):
    """Counts tokens the way the consuming model's tokenizer does (budgets, decision 17)."""

    @property
    def encoding(self) -> str:
        """The encoding counted in, e.g. ``cl100k_base``."""
        ...

    def count(self, text: str) -> int:
        """How many tokens ``text`` is."""
        ...


class BeliefStore(Protocol):
    """Where beliefs are written and read back by id."""

    def write_beliefs(self, beliefs: Sequence[Belief], embeddings: npt.NDArray[np.float32]) -> None:
        """Write all of ``beliefs`` (row i with ``embeddings[i]``) or none of them."""
        ...

    def get_belief(self, tenant_id: str, principal_id: str, belief_id: str) -> Belief:
        """The belief with that id; raises :class:`~recallflow.errors.NotFoundError`."""
        ...

    def list_beliefs(self, tenant_id: str, principal_id: str) -> list[Belief]:
        """Every belief of a principal, ordered by id (for inspection, not recall)."""
        ...

    def write_edges(self, edges: Sequence[BeliefEdge]) -> None:
        """Write all of ``edges`` or none of them."""
        ...

    def summary(self) -> list[StoreSummary]:
        """What the store holds, per tenant and principal."""
        ...


class EpisodeStore(Protocol):
    """The ordered event log (decision 2)."""

    def write_episodes(self, episodes: Sequence[Episode]) -> None:
        """Write all of ``episodes`` or none of them."""
        ...

    def get_episode(self, tenant_id: str, principal_id: str, episode_id: str) -> Episode:
        """The episode with that id; raises :class:`~recallflow.errors.NotFoundError`."""
        ...
