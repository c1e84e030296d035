"""The store on a real PostgreSQL: migrations, restarts, several processes, external DSNs,
missing extensions."""

from __future__ import annotations

import multiprocessing
import shutil
import subprocess
import sys
import tempfile
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import psycopg
import pytest
from psycopg import sql

from recallflow import (
    EmbedderMismatchError,
    Memory,
    MigrationError,
    MissingExtensionError,
    StoreTooNewError,
    open_memory,
)
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.bootstrap import prepare
from recallflow.adapters.postgres.embedded import (
    _MAX_SOCKET_PATH,
    _SOCKET_NAME,
    SHARED_BUFFERS_MAX_MB,
    SHARED_BUFFERS_MIN_MB,
    EmbeddedServer,
    shared_buffers,
)
from recallflow.adapters.postgres.migrate import load_migrations, migrate
from recallflow.errors import ConfigurationError
from tests.helpers import belief, fresh_database, made_home

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def other_server(
    tmp_path_factory: pytest.TempPathFactory, made_pgdata: Path
) -> Iterator[EmbeddedServer]:
    """A second embedded server in its own directory, standing in for an external one."""
    server = EmbeddedServer(made_home(made_pgdata, tmp_path_factory.mktemp("external-pg")))
    try:
        yield server
    finally:
        server.release()


def _tables(uri: str) -> set[str]:
    with psycopg.connect(uri) as conn:
        rows = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        ).fetchall()
    return {r[0] for r in rows}


def test_migrations_apply_in_order_and_rerun_as_a_no_op(other_server: EmbeddedServer) -> None:
    uri = fresh_database(other_server)
    names = [m.name for m in load_migrations()]
    assert prepare(uri) == names
    assert prepare(uri) == []
    with psycopg.connect(uri) as conn:
        recorded = [
            r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY version")
        ]
    assert recorded == names
    assert {
        "beliefs",
        "belief_edges",
        "episodes",
        "recall_traces",
        "feedback_events",
        "miss_hints",
        "policy_versions",
    } <= _tables(uri)


def test_a_new_migration_is_applied_after_the_old_ones(
    other_server: EmbeddedServer, tmp_path: Path
) -> None:
    uri = fresh_database(other_server)
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_first.sql").write_text("CREATE TABLE first_t (a int);")
    with psycopg.connect(uri, autocommit=True) as conn:
        assert migrate(conn, folder) == ["0001_first.sql"]
        # The second refers to the first, so order matters.
        (folder / "0002_second.sql").write_text("ALTER TABLE first_t ADD COLUMN b int;")
        assert migrate(conn, folder) == ["0002_second.sql"]
        assert migrate(conn, folder) == []


def test_editing_an_applied_migration_is_refused(
    other_server: EmbeddedServer, tmp_path: Path
) -> None:
    uri = fresh_database(other_server)
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "0001_a.sql").write_text("CREATE TABLE a_t (a int);")
    with psycopg.connect(uri, autocommit=True) as conn:
        migrate(conn, folder)
        (folder / "0001_a.sql").write_text("CREATE TABLE a_t (a int, b int);")
        with pytest.raises(ConfigurationError, match="has changed"):
            migrate(conn, folder)


def test_a_failing_migration_leaves_nothing_behind(
    other_server: EmbeddedServer, tmp_path: Path
) -> None:
    uri = fresh_database(other_server)
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "0001_a.sql").write_text("CREATE TABLE ok_t (a int);")
    (folder / "0002_b.sql").write_text("CREATE TABLE half_t (a int); SELECT no_such_function();")
    with psycopg.connect(uri, autocommit=True) as conn:
        with pytest.raises(MigrationError, match=r"0002_b\.sql failed") as failed:
            migrate(conn, folder)
        assert (failed.value.store_version, failed.value.code_version) == (1, 2)
        assert "half_t" not in _tables(uri)
        # A retry, once the cause is gone, resumes at the migration that failed.
        (folder / "0002_b.sql").write_text("CREATE TABLE half_t (a int);")
        assert migrate(conn, folder) == ["0002_b.sql"]


def test_a_store_a_later_release_migrated_is_refused_and_nothing_is_written(
    other_server: EmbeddedServer,
) -> None:
    uri = fresh_database(other_server)
    prepare(uri)
    known = len(load_migrations())
    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO schema_migrations (version, name, checksum) VALUES (%s, %s, 'x')",
            (known + 1, f"{known + 1:04d}_later.sql"),
        )
    before = _tables(uri)
    with pytest.raises(StoreTooNewError, match=f"schema version {known + 1}") as refused:
        open_memory(dsn=uri, embedder=HashingEmbedder())
    assert (refused.value.store_version, refused.value.code_version) == (known + 1, known)
    assert f"{known + 1:04d}_later.sql" in str(refused.value)
    with pytest.raises(StoreTooNewError):
        prepare(uri)  # what `recallflow migrate` runs
    assert _tables(uri) == before
    with psycopg.connect(uri) as conn:
        assert conn.execute("SELECT count(*) FROM store_settings").fetchone() == (0,)


def test_gaps_in_numbering_are_refused(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(ConfigurationError, match="without gaps"):
        load_migrations(tmp_path)


def test_external_dsn_is_used_and_migrated(other_server: EmbeddedServer) -> None:
    uri = fresh_database(other_server)
    with open_memory(uri, embedder=HashingEmbedder()) as memory:
        assert not memory.embedded
        memory.beliefs.add(belief("t-ext", id="b-1"))
        assert memory.beliefs.get("t-ext", "p1", "b-1").id == "b-1"
    assert "beliefs" in _tables(uri)


def test_missing_extension_gives_a_clear_error(other_server: EmbeddedServer) -> None:
    # A role that may not create the (untrusted) vector extension, on a database without it.
    role = f"app_{uuid.uuid4().hex[:8]}"
    db = f"appdb_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(other_server.uri("postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
        conn.execute(
            sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(db), sql.Identifier(role))
        )
    uri = other_server.uri(db).replace("postgres:@", f"{role}:@", 1)
    with pytest.raises(MissingExtensionError) as info:
        open_memory(uri, embedder=HashingEmbedder())
    assert info.value.extension == "vector"
    assert "CREATE EXTENSION vector" in str(info.value)


def test_a_read_only_database_is_refused_saying_so_and_nothing_is_made(
    other_server: EmbeddedServer,
) -> None:
    """A database whose transactions are read-only by default failed on the first
    migration's statement ("cannot execute CREATE TABLE in a read-only transaction")."""
    uri = fresh_database(other_server)
    with psycopg.connect(uri, autocommit=True) as conn:
        database = conn.info.dbname
        conn.execute(
            sql.SQL("ALTER DATABASE {} SET default_transaction_read_only = on").format(
                sql.Identifier(database)
            )
        )
    with pytest.raises(ConfigurationError, match="is read-only") as refused:
        open_memory(uri, embedder=HashingEmbedder())
    assert "default_transaction_read_only" in str(refused.value)
    with psycopg.connect(uri, autocommit=True) as conn:
        made = conn.execute("SELECT to_regclass('schema_migrations')").fetchone()
    assert made == (None,)


def test_opening_with_another_embedder_is_refused(other_server: EmbeddedServer) -> None:
    uri = fresh_database(other_server)
    open_memory(uri, embedder=HashingEmbedder(384)).close()
    with pytest.raises(EmbedderMismatchError, match="hashing-v1-384"):
        open_memory(uri, embedder=HashingEmbedder(128))


class _OwnModel(HashingEmbedder):
    """An embedder of the operator's own, under a name of its own."""

    @property
    def name(self) -> str:
        return "my-model-v1"


def test_a_store_refusing_another_embedder_says_which_setting_made_it(
    other_server: EmbeddedServer,
) -> None:
    """A store of the hashing embedder opened with another said "open it with the same
    embedder (RECALLFLOW_EMBEDDER)", leaving the operator to guess which of its values
    makes 'hashing-v1-384'. It names the value; not for a model of the caller's own, which
    no value gives, nor for the same setting at other parameters."""
    uri = fresh_database(other_server)
    open_memory(uri, embedder=HashingEmbedder()).close()
    with pytest.raises(EmbedderMismatchError, match="RECALLFLOW_EMBEDDER=hashing, which made it"):
        open_memory(uri, embedder=_OwnModel())
    with pytest.raises(EmbedderMismatchError) as same_setting:
        open_memory(uri, embedder=HashingEmbedder(128))
    assert "RECALLFLOW_EMBEDDER=" not in str(same_setting.value)
    own = fresh_database(other_server)
    open_memory(own, embedder=_OwnModel()).close()
    with pytest.raises(EmbedderMismatchError) as of_its_own:
        open_memory(own, embedder=HashingEmbedder())
    assert "RECALLFLOW_EMBEDDER=" not in str(of_its_own.value)


def test_data_survives_a_server_restart(fresh_home: Path) -> None:
    home = fresh_home
    with open_memory(home=home, embedder=HashingEmbedder()) as memory:
        memory.beliefs.add(belief("t-r", id="b-keep", statement="Survives restarts."))
        pid = memory._server.pid()  # type: ignore[union-attr]
    # The last holder released it: the server is stopped.
    assert not (home / "pgdata" / "postmaster.pid").exists()
    with open_memory(home=home, embedder=HashingEmbedder()) as memory:
        assert memory._server.pid() != pid  # type: ignore[union-attr]
        assert memory.beliefs.get("t-r", "p1", "b-keep").statement == "Survives restarts."


def test_a_home_whose_path_is_no_uri_value_as_it_stands_opens(made_pgdata: Path) -> None:
    """A home is any directory the user names: macOS's user data directory, the default
    one there, is under "Application Support". Its path goes into the store's URI, where a
    space was refused by libpq, an ``&`` began another parameter and a ``%20`` was decoded
    into another directory. (Under the temporary directory, whose path is short enough for
    the server's socket to be in the home itself: a longer one has it elsewhere.)"""
    with tempfile.TemporaryDirectory(prefix="rf a&b=%20 ") as parent:
        home = made_home(made_pgdata, Path(parent) / "Application Support")
        pgdata = home.resolve() / "pgdata"
        if len(str(pgdata / _SOCKET_NAME)) > _MAX_SOCKET_PATH:
            pytest.skip("the temporary directory's path is too long for a socket in it")
        with open_memory(home=home, embedder=HashingEmbedder()) as memory:
            assert parse_qs(urlparse(memory.uri).query)["host"] == [str(pgdata)]
            memory.beliefs.add(belief("t-h", id="b-home", statement="Homes may hold spaces."))
            assert memory.beliefs.get("t-h", "p1", "b-home").statement == "Homes may hold spaces."
        assert not (pgdata / "postmaster.pid").exists()


def _worker(home: str, name: str, ready: object, go: object, done: object, out: object) -> None:
    from recallflow import open_memory as _open
    from recallflow.adapters.embedders.hashing import HashingEmbedder as _Hashing

    with _open(home=home, embedder=_Hashing()) as memory:
        memory.beliefs.add(belief("t-mp", id=f"b-{name}", statement=f"written by {name}"))
        ready.release()  # type: ignore[attr-defined]
        if not go.acquire(timeout=180):  # type: ignore[attr-defined]
            return  # the parent gave up: close and leave, never hang
        seen = sorted(b.id for b in memory.beliefs.list("t-mp", "p1"))
        out.put((name, seen))  # type: ignore[attr-defined]
        # A separate semaphore: with one, a fast worker could take the other's "go".
        done.acquire(timeout=180)  # type: ignore[attr-defined]


def test_two_processes_share_one_home(tmp_path: Path) -> None:
    home = str(tmp_path / "shared-home")
    ctx = multiprocessing.get_context("spawn")
    ready, go, done, out = ctx.Semaphore(0), ctx.Semaphore(0), ctx.Semaphore(0), ctx.Queue()
    procs = [
        ctx.Process(target=_worker, args=(home, n, ready, go, done, out), daemon=True)
        for n in ("one", "two")
    ]
    try:
        for p in procs:
            p.start()
        for _ in procs:
            assert ready.acquire(timeout=120)
        for _ in procs:
            go.release()
        results = dict(out.get(timeout=120) for _ in procs)
        for _ in procs:
            done.release()
        for p in procs:
            p.join(timeout=60)
            assert p.exitcode == 0
    finally:  # a worker that failed or hung never outlives the test
        for p in procs:
            if p.is_alive():
                p.terminate()
                p.join(timeout=10)
    assert results == {"one": ["b-one", "b-two"], "two": ["b-one", "b-two"]}
    # Both released it, so the server stopped.
    assert not (Path(home) / "pgdata" / "postmaster.pid").exists()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git to export the tree")
def test_a_built_wheel_carries_the_migrations(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(REPO),
        ],
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("recallflow-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for migration in load_migrations():
        assert f"recallflow/_migrations/{migration.name}" in names


def test_a_closed_memory_says_so(other_server: EmbeddedServer) -> None:
    memory = open_memory(fresh_database(other_server), embedder=HashingEmbedder())
    memory.close()
    memory.close()  # closing twice is harmless
    with pytest.raises(ConfigurationError, match="closed"):
        memory.recall({"tenant_id": "t", "principal_id": "p", "working_state": {"goal": "x"}})
    with pytest.raises(ConfigurationError, match="closed"):
        _ = memory.pool


def test_the_embedded_server_sizes_its_shared_buffers(other_server: EmbeddedServer) -> None:
    # PostgreSQL's default (128 MB) holds less than one 100k-belief principal's HNSW index.
    with psycopg.connect(other_server.uri("postgres")) as conn:
        row = conn.execute(
            "SELECT setting::bigint * 8192 / 1048576 FROM pg_settings WHERE name = 'shared_buffers'"
        ).fetchone()
    assert row is not None
    assert f"{row[0]}MB" == shared_buffers()
    assert SHARED_BUFFERS_MIN_MB <= row[0] <= SHARED_BUFFERS_MAX_MB


def test_shared_buffers_follow_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECALLFLOW_SHARED_BUFFERS", "256MB")
    assert shared_buffers() == "256MB"
    monkeypatch.setenv("RECALLFLOW_SHARED_BUFFERS", "lots")
    with pytest.raises(ConfigurationError, match="RECALLFLOW_SHARED_BUFFERS"):
        shared_buffers()


@pytest.mark.parametrize(
    ("size", "said"),
    [
        ("lots", "is not a size such as 256MB or 1GB"),
        # Sizes, but none PostgreSQL starts with: it takes 16 to 2**30 - 1 pages of 8kB.
        *(
            (size, "is outside the sizes PostgreSQL takes for shared_buffers:"
             " at least 128kB, less than 8TB")
            for size in ("1kB", "120kB", "15", "8TB", "1073741824", "9" * 5000 + "MB")
        ),
    ],
)  # fmt: skip
def test_a_malformed_shared_buffers_is_refused_before_the_home_is_touched(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, size: str, said: str
) -> None:
    """A bad RECALLFLOW_SHARED_BUFFERS is the setting's error, with nothing else in it (not a
    failed start carrying the server log's tail), and no home or server is made for it."""
    monkeypatch.setenv("RECALLFLOW_SHARED_BUFFERS", size)
    home = tmp_path / "home"
    with pytest.raises(ConfigurationError) as refused:
        open_memory(home=home, embedder=HashingEmbedder())
    assert str(refused.value) == f"RECALLFLOW_SHARED_BUFFERS={size!r} {said}"
    assert not home.exists()


def test_shared_buffers_at_the_ends_of_postgres_range_are_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for size in ("128kB", "16", "8589934584kB", "1073741823"):
        monkeypatch.setenv("RECALLFLOW_SHARED_BUFFERS", size)
        assert shared_buffers() == size


@pytest.fixture
def limited_role(memory: Memory) -> Iterator[str]:
    """A role of the store's server that may log in and read the store's tables, and
    nothing more; the connection string of the store as that role."""
    role = f"rf_reader_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(memory.uri, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(sql.Identifier(role)))
        conn.execute(
            sql.SQL("GRANT SELECT ON ALL TABLES IN SCHEMA public TO {}").format(
                sql.Identifier(role)
            )
        )
    try:
        yield psycopg.conninfo.make_conninfo(memory.uri, user=role, password="")
    finally:
        with psycopg.connect(memory.uri, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


def test_a_role_without_the_privileges_the_store_needs_is_named(
    memory: Memory, limited_role: str
) -> None:
    """A role that may not create the store's tables failed to open the store with
    psycopg's "permission denied for schema public"; given the right to create them but
    not to write them, every write and recall failed with psycopg's "permission denied for
    table ...". Both are the store that cannot be used as asked: a ConfigurationError
    naming the role and what it was refused."""
    role = str(psycopg.conninfo.conninfo_to_dict(limited_role)["user"])
    with pytest.raises(ConfigurationError, match=rf"the role '{role}' may not create or read"):
        open_memory(limited_role, embedder=HashingEmbedder())
    with psycopg.connect(memory.uri, autocommit=True) as conn:
        conn.execute(sql.SQL("GRANT CREATE ON SCHEMA public TO {}").format(sql.Identifier(role)))
    with open_memory(limited_role, embedder=HashingEmbedder(), calibrate=False) as limited:
        for call in (
            lambda: limited.beliefs.add(belief("t-limited", id="b-1", subject="s")),
            lambda: limited.forget("t-limited", "p1"),
            lambda: limited.open_session("t-limited", "p1"),
        ):
            with pytest.raises(ConfigurationError, match=rf"the role '{role}' may not do") as no:
                call()
            assert "permission denied for table" in str(no.value)
