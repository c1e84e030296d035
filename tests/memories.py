"""The module fixture the floor and transfer tests share: a memory of named beliefs in a
database of its own, once per embedder (the fast hashing one and the default MiniLM, whose
similarities are the ones a user gets)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from recallflow.memory import Memory
from tests.helpers import embedder_or_skip, named_memory

#: A memory fixture's value: the memory, and the stored id of each belief by its name.
Named = tuple[Memory, dict[str, str]]


def memory_per_embedder(
    database: str,
    principal: tuple[str, str],
    beliefs: Mapping[str, Mapping[str, Any]],
    **common: Any,
) -> Callable[..., Iterator[Named]]:
    """A module-scoped fixture holding ``beliefs`` of ``principal`` (with ``common``
    fields, see :func:`tests.helpers.named_memory`) in the database ``database``_hashing or
    ``database``_minilm, parametrised by the embedder; skipped where MiniLM is not
    installed."""

    @pytest.fixture(scope="module", params=["hashing", "minilm"])
    def fixture(request: pytest.FixtureRequest, memory: Memory) -> Iterator[Named]:
        with named_memory(
            memory.uri,
            f"{database}_{request.param}",
            embedder_or_skip(str(request.param)),
            principal,
            beliefs,
            **common,
        ) as held:
            yield held

    return fixture
