"""A migration under processes of an earlier release: every connection names the schema
version its code knows (``application_name`` ``recallflow/<N>``), a migration is refused
while connections of an earlier version are open on the store, and a process whose store
a later release migrated is refused a new connection instead of running old statements on
a new schema."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from recallflow import EarlierReleaseOpenError, Memory, StoreTooNewError, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.bootstrap import ensure_database
from recallflow.adapters.postgres.migrate import MIGRATION_LOCK_KEY, load_migrations, migrate
from recallflow.cli.main import main
from tests.helpers import belief, request

#: The schema version this code knows: its last migration's number.
KNOWN = len(load_migrations())
#: How far behind the stores of these tests are: three migrations to apply.
BEHIND = KNOWN - 3


@pytest.fixture
def old_store(memory: Memory, tmp_path: Path) -> str:
    """A store an earlier release made: migrated up to ``BEHIND``, the rest to apply."""
    database = f"rf_guard_{uuid.uuid4().hex[:8]}"
    ensure_database(make_conninfo(memory.uri, dbname="postgres"), database)
    for m in load_migrations():
        if m.version <= BEHIND:
            (tmp_path / m.name).write_text(m.sql)
    uri = make_conninfo(memory.uri, dbname=database)
    with psycopg.connect(uri, autocommit=True) as conn:
        migrate(conn, tmp_path)
    return uri


def _versions(uri: str) -> list[int]:
    with psycopg.connect(uri) as conn:
        rows = conn.execute("SELECT version FROM schema_migrations ORDER BY version")
        return [int(r[0]) for r in rows.fetchall()]


@pytest.fixture
def earlier_release(old_store: str) -> Iterator[list[psycopg.Connection[Any]]]:
    """Two connections of a process of the release before this one, open on the store."""
    named = f"recallflow/{KNOWN - 1}"
    conns = [psycopg.connect(old_store, application_name=named) for _ in range(2)]
    try:
        yield conns
    finally:
        for conn in conns:
            conn.close()


def test_an_earlier_release_left_open_refuses_the_migration_and_nothing_is_applied(
    old_store: str,
    earlier_release: list[psycopg.Connection[Any]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(EarlierReleaseOpenError) as refused:
        open_memory(dsn=old_store, embedder=HashingEmbedder())
    error = refused.value
    assert error.connections == {KNOWN - 1: 2}
    assert (error.store_version, error.code_version) == (BEHIND, KNOWN)
    assert f"2 connections of an earlier recallflow (2 of schema version {KNOWN - 1})" in str(error)
    assert "stop those processes first" in str(error)
    assert _versions(old_store) == list(range(1, BEHIND + 1))
    # `recallflow migrate` makes the same check, and says it in one line.
    assert main(["migrate", "--dsn", old_store]) == 1
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "2 connections of an earlier recallflow" in err
    assert _versions(old_store) == list(range(1, BEHIND + 1))
    # Once the earlier release's process is stopped, the store opens and is migrated.
    for conn in earlier_release:
        conn.close()
    with open_memory(dsn=old_store, embedder=HashingEmbedder()) as memory:
        memory.beliefs.add(belief("t-guard", id="b-1"))
    assert _versions(old_store) == list(range(1, KNOWN + 1))


def test_processes_of_this_release_opening_at_once_migrate_it_once(old_store: str) -> None:
    """Two processes of this release open the old store together: each sees the other's
    connections named with the same version, which does not stop it, and each migration
    is applied once."""
    opened: list[Memory] = []
    failed: list[BaseException] = []

    def open_one() -> None:
        try:
            opened.append(open_memory(dsn=old_store, embedder=HashingEmbedder()))
        except BaseException as exc:  # reported by the assertion below
            failed.append(exc)

    with psycopg.connect(old_store, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))
        openers = [threading.Thread(target=open_one) for _ in range(2)]
        for opener in openers:
            opener.start()
        waiting = 0
        deadline = time.monotonic() + 60
        while waiting < 2 and time.monotonic() < deadline:  # both wait on the lock
            row = holder.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock' AND application_name = %s",
                (f"recallflow/{KNOWN}",),
            ).fetchone()
            waiting = int(row[0]) if row else 0
            time.sleep(0.05)
        holder.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))
        for opener in openers:
            opener.join(120)
    try:
        assert waiting == 2, "the openers' connections do not name this release"
        assert failed == []
        assert len(opened) == 2
        assert _versions(old_store) == list(range(1, KNOWN + 1))
    finally:
        for memory in opened:
            memory.close()


def test_a_users_own_connections_do_not_stop_a_migration(old_store: str) -> None:
    """psql, another program, a connection without a name: none is recallflow's, so none
    blocks; and a connection string's own application_name is kept after ours."""
    others = [
        psycopg.connect(old_store, application_name="psql"),
        psycopg.connect(old_store, application_name="recallflow/not-a-version"),
        psycopg.connect(old_store),
    ]
    try:
        labelled = make_conninfo(old_store, application_name="billing-agent")
        with open_memory(dsn=labelled, embedder=HashingEmbedder()) as memory:
            memory.beliefs.add(belief("t-guard", id="b-1"))
            with psycopg.connect(old_store) as conn:
                names = {
                    str(r[0])
                    for r in conn.execute(
                        "SELECT application_name FROM pg_stat_activity"
                        " WHERE datname = current_database()"
                    ).fetchall()
                }
        assert f"recallflow/{KNOWN} billing-agent" in names
        assert _versions(old_store) == list(range(1, KNOWN + 1))
    finally:
        for conn in others:
            conn.close()


def test_a_process_whose_store_a_later_release_migrated_is_refused_new_connections(
    memory: Memory,
) -> None:
    """This process opened the store; then a later release migrated it. Its next new
    connection (here after the server ended its sessions) finds the store too new and
    says so, and so does every call after it, instead of running this release's
    statements on a schema it does not know."""
    database = f"rf_guard_{uuid.uuid4().hex[:8]}"
    ensure_database(make_conninfo(memory.uri, dbname="postgres"), database)
    uri = make_conninfo(memory.uri, dbname=database)
    old = open_memory(dsn=uri, embedder=HashingEmbedder())
    try:
        old.beliefs.add(belief("t-guard", id="b-1"))
        with psycopg.connect(uri, autocommit=True) as conn:  # the later release's work
            conn.execute(
                "INSERT INTO schema_migrations (version, name, checksum) VALUES (%s, %s, 'x')",
                (KNOWN + 1, f"{KNOWN + 1:04d}_later.sql"),
            )
            others = (
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            while conn.execute(others).fetchall():  # until every one of them has ended
                time.sleep(0.05)
        with pytest.raises(StoreTooNewError) as refused:
            old.beliefs.add(belief("t-guard", id="b-2"))
        assert (refused.value.store_version, refused.value.code_version) == (KNOWN + 1, KNOWN)
        assert f"{KNOWN + 1:04d}_later.sql" in str(refused.value)
        started = time.monotonic()
        with pytest.raises(StoreTooNewError):  # and at once from then on, not after a wait
            old.beliefs.add(belief("t-guard", id="b-3"))
        assert time.monotonic() - started < 0.5
        with pytest.raises(StoreTooNewError):  # the recall pool's new connections too
            old.recall(request("t-guard", goal="dark mode"))
        with psycopg.connect(uri) as conn:
            assert conn.execute("SELECT count(*) FROM beliefs").fetchone() == (1,)
    finally:
        old.close()
