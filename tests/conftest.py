"""Shared fixtures: one real embedded PostgreSQL for the whole session (never a mock).

Set ``RECALLFLOW_DSN`` to run the suite against an external server instead. Each test
gets its own tenant id, so tests never see each other's rows.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from recallflow import Memory, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder


@pytest.fixture(scope="session")
def store_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The embedded server's home for this test session."""
    return tmp_path_factory.mktemp("recallflow-home")


@pytest.fixture(scope="session")
def memory(store_home: Path) -> Iterator[Memory]:
    """An open store on the embedded server (or RECALLFLOW_DSN), with the hashing embedder."""
    mem = open_memory(os.environ.get("RECALLFLOW_DSN"), store_home, embedder=HashingEmbedder())
    try:
        yield mem
    finally:
        mem.close()


@pytest.fixture
def tenant() -> str:
    """A tenant id no other test uses."""
    return f"t-{uuid.uuid4().hex[:12]}"
