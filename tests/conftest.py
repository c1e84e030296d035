"""Shared fixtures: one real embedded PostgreSQL for the whole session (never a mock).

Set ``RECALLFLOW_DSN`` to run the suite against an external server instead. Each test
gets its own tenant id, so tests never see each other's rows.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from hypothesis import settings

from recallflow import Memory, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.dataflows.runner import RecallFlow
from recallflow.models.result import RecallResult
from tests.helpers import made_home

# Hypothesis's defaults time every example (a 200 ms deadline) and the generation of the
# first ones (1 s in all under that deadline): wall-clock assertions, which a loaded
# machine fails with nothing wrong (a query-forming property's draws took 0.7-0.8 s each
# under a starved CPU). No test here asserts wall-clock time.
settings.register_profile("recallflow", deadline=None)
settings.load_profile("recallflow")


@pytest.fixture(scope="session")
def store_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The embedded server's home for this test session."""
    return tmp_path_factory.mktemp("recallflow-home")


@pytest.fixture(scope="session")
def memory(store_home: Path) -> Iterator[Memory]:
    """An open store on the embedded server (or RECALLFLOW_DSN), with the hashing embedder."""
    dsn = os.environ.get("RECALLFLOW_DSN")
    mem = open_memory(dsn, store_home, embedder=HashingEmbedder(), operator=True)
    try:
        if dsn is None:  # the session's own server: no flushes to disk (see made_pgdata)
            with psycopg.connect(mem.uri, autocommit=True) as conn:
                conn.execute("ALTER SYSTEM SET fsync = off")
                conn.execute("SELECT pg_reload_conf()")
        yield mem
    finally:
        mem.close()


@pytest.fixture(scope="session")
def made_pgdata(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A stopped embedded server's data directory, made (``initdb``) and migrated once per
    session, with ``fsync`` off: copied by :func:`fresh_home` for tests whose subject is
    not the making of a home. Making one takes seconds (``initdb``, every migration, and
    the first shutdown's flush of all it wrote); a copy takes a fraction of one. ``fsync``
    off spares flushes to disk no test needs: a killed server's writes are still in the
    kernel's page cache, and no test crashes the machine."""
    home = tmp_path_factory.mktemp("made-home")
    memory = open_memory(home=home, embedder=HashingEmbedder())
    try:
        with psycopg.connect(memory.uri, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET fsync = off")
    finally:
        memory.close()
    return home / "pgdata"


@pytest.fixture
def fresh_home(tmp_path: Path, made_pgdata: Path) -> Path:
    """A home of this test's own whose server is made and migrated but not running, as a
    store closed by its last holder leaves it (see :func:`made_pgdata`)."""
    return made_home(made_pgdata, tmp_path / "home")


@pytest.fixture
def tenant() -> str:
    """A tenant id no other test uses."""
    return f"t-{uuid.uuid4().hex[:12]}"


def assert_faithful(result: RecallResult) -> None:
    """The trace is bound to the exact bytes handed over, and lists what was rendered."""
    digest = hashlib.sha256(result.block.encode()).hexdigest()
    assert digest == result.rendered_sha256 == result.trace.rendered_sha256
    assert result.trace.rendered_ids == result.rendered_ids


@pytest.fixture(autouse=True, scope="session")
def _every_recall_is_faithful() -> Iterator[None]:
    """Trace faithfulness is checked for every recall any test makes (see "The trace" in
    docs/architecture.md)."""
    original = RecallFlow.run

    def checked(self: RecallFlow, inputs: Any) -> RecallResult:
        result = original(self, inputs)
        assert_faithful(result)
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RecallFlow, "run", checked)
        yield
