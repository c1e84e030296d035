"""Schema migrations: numbered plain-SQL files applied in order.

Each file runs in its own transaction under a session advisory lock, and is recorded in
``schema_migrations`` with its checksum, so re-running is a no-op and two processes that
migrate at once apply each file exactly once. An applied file whose text later changed
is refused rather than silently skipped.

The files live in the repository's ``migrations/`` folder; a wheel carries them as
``recallflow/_migrations`` (see ``pyproject.toml``), so a non-editable install finds them.

Every connection recallflow opens names the schema version its code knows (the number of
its last migration) as its ``application_name``, ``recallflow/<N>``. So a process that
migrates can see, in ``pg_stat_activity``, connections of an earlier release still open on
the store, and refuses to migrate under them (:class:`EarlierReleaseOpenError`); and a new
connection of a process whose store has since moved past its code is refused
(:func:`refuse_newer_store`) instead of running its statements on a schema it does not
know. See "Stores written by an earlier version" in docs/operations.md.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict

from recallflow.errors import (
    ConfigurationError,
    EarlierReleaseOpenError,
    MigrationError,
    StoreTooNewError,
)

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
#: Advisory-lock key shared by every process that migrates or changes store settings.
MIGRATION_LOCK_KEY = 0x7265_6361_6C6C  # "recall"
#: How a connection's ``application_name`` begins: this prefix, then the schema version
#: its code knows.
APPLICATION_PREFIX = "recallflow/"
_APPLICATION = re.compile(r"^recallflow/(\d+)(?:\s|$)")


#: Checksums recorded by stores migrated before checksums left comments out: the whole
#: text of each file as first shipped, whose comments have been reworded since.
LEGACY_CHECKSUMS: dict[int, str] = {
    1: "8b4ed0cd03bce90349580dbe6b3477104e1b17a5b3b95aff6744cb534e61746e",
    2: "838b2c76a5403f5959058698cac2cbbab03cb9edd9a20e4ef2262929b042cbc8",
    4: "b0ccccbb8ce8c7f20c05036072435d0dbd5fa20d8c0d34a516c78b25237d9516",
}


def _statements(sql: str) -> str:
    """The SQL of a migration without its whole-line comments: comments document the
    schema and may be reworded; the statements are what an applied migration fixes."""
    lines = (line.rstrip() for line in sql.splitlines())
    return "\n".join(line for line in lines if line and not line.lstrip().startswith("--"))


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file."""

    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        """A hash of the migration's statements (comments left out)."""
        return hashlib.sha256(_statements(self.sql).encode()).hexdigest()

    def matches(self, recorded: str) -> bool:
        """True when ``recorded`` is this migration's checksum, or one a store recorded
        for the same statements before comments were left out."""
        whole_text = hashlib.sha256(self.sql.encode()).hexdigest()
        return recorded in {self.checksum, whole_text, LEGACY_CHECKSUMS.get(self.version)}


def migrations_dir() -> Path:
    """Where the migration files are: inside the installed package, else the repository."""
    packaged = Path(__file__).resolve().parents[2] / "_migrations"
    if packaged.is_dir():
        return packaged
    repo = Path(__file__).resolve().parents[3] / "migrations"
    if repo.is_dir():
        return repo
    raise ConfigurationError(f"no migrations found in {packaged} or {repo}")


def load_migrations(directory: Path | None = None) -> list[Migration]:
    """The migrations in ``directory``, ordered by number; gaps and duplicates are errors."""
    folder = directory or migrations_dir()
    found: list[Migration] = []
    for path in sorted(folder.glob("*.sql")):
        match = _NAME.match(path.name)
        if match is None:
            raise ConfigurationError(f"migration file {path.name!r} is not named NNNN_name.sql")
        found.append(Migration(int(match.group(1)), path.name, path.read_text(encoding="utf-8")))
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise ConfigurationError(f"migrations must be numbered 1..n without gaps, got {versions}")
    return found


@cache
def code_version() -> int:
    """The schema version this code knows: the number of its last migration."""
    return len(load_migrations())


def application_name(conninfo: str) -> str:
    """The ``application_name`` of a connection this code opens on ``conninfo``:
    ``recallflow/<N>``, followed by the name the connection string gives (or
    ``PGAPPNAME``), so an operator's own label still shows in ``pg_stat_activity``. Ours
    comes first: the server cuts the name at 63 bytes, and the version must survive."""
    own = conninfo_to_dict(conninfo).get("application_name") or os.environ.get("PGAPPNAME")
    name = f"{APPLICATION_PREFIX}{code_version()}"
    return f"{name} {own}" if own else name


def release_of(name: str) -> int | None:
    """The schema version a connection's ``application_name`` says its code knows, or
    None for a connection that is not recallflow's (psql, another program, a release made
    before connections named themselves)."""
    match = _APPLICATION.match(name)
    return int(match.group(1)) if match else None


def earlier_releases(conn: psycopg.Connection[Any], version: int) -> dict[int, int]:
    """How many other connections to ``conn``'s database are open by code that knows an
    earlier schema version than ``version``: their count by that version."""
    rows = conn.execute(
        "SELECT application_name FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        " AND application_name LIKE %s",
        (APPLICATION_PREFIX + "%",),
    ).fetchall()
    found: dict[int, int] = {}
    for (name,) in rows:
        release = release_of(str(name or ""))
        if release is not None and release < version:
            found[release] = found.get(release, 0) + 1
    return found


def refuse_newer_store(conn: psycopg.Connection[Any]) -> None:
    """Raise :class:`StoreTooNewError` when ``conn``'s store records a migration this code
    does not have: a later release migrated it after this process opened it. Checked on
    each new pooled connection (one indexed read), never on a pooled one handed out again."""
    known = code_version()
    rows = conn.execute(
        "SELECT version, name FROM schema_migrations WHERE version > %s ORDER BY version",
        (known,),
    ).fetchall()
    if rows:
        raise _too_new([(int(v), str(name)) for v, name in rows], known)


def _too_new(beyond: list[tuple[int, str]], known: int) -> StoreTooNewError:
    """The refusal of a store that records the migrations ``beyond`` (version and name, in
    order), which code knowing ``known`` does not have."""
    return StoreTooNewError(
        store_version=beyond[-1][0], code_version=known, unknown=[name for _, name in beyond]
    )


def migrate(conn: psycopg.Connection[Any], directory: Path | None = None) -> list[str]:
    """Apply every pending migration to the connected database; returns the names applied.

    ``conn`` must be in autocommit mode; each migration gets its own transaction. When
    any is to be applied while connections of an earlier release are open on the store,
    nothing is applied: :class:`EarlierReleaseOpenError` says how many, of which version.
    """
    if not conn.autocommit:
        raise ConfigurationError("migrate() needs an autocommit connection")
    pending = load_migrations(directory)
    applied_now: list[str] = []
    conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        rows = conn.execute("SELECT version, name, checksum FROM schema_migrations").fetchall()
        done = {int(r[0]): (str(r[1]), str(r[2])) for r in rows}
        known = len(pending)
        beyond = sorted((v, name) for v, (name, _) in done.items() if v > known)
        if beyond:  # a later release's store: refuse before anything is written
            raise _too_new(beyond, known)
        if any(m.version not in done for m in pending):
            # Checked under the lock, before the first migration: an earlier release's
            # process would go on running its statements on a schema it does not know.
            earlier = earlier_releases(conn, known)
            if earlier:
                raise EarlierReleaseOpenError(
                    earlier, store_version=max(done, default=0), code_version=known
                )
        for migration in pending:
            if migration.version in done:
                name, checksum = done[migration.version]
                if not migration.matches(checksum):
                    raise ConfigurationError(
                        f"migration {name} was applied but its file has changed since; "
                        "add a new migration instead of editing an applied one"
                    )
                continue
            try:
                with conn.transaction():
                    conn.execute(migration.sql.encode())
                    conn.execute(
                        "INSERT INTO schema_migrations (version, name, checksum)"
                        " VALUES (%s, %s, %s)",
                        (migration.version, migration.name, migration.checksum),
                    )
            except psycopg.OperationalError:
                raise  # the server went away: the caller's retry resumes at this migration
            except psycopg.Error as exc:
                raise MigrationError(
                    f"migration {migration.name} failed and was rolled back ({exc}); the"
                    f" store stands whole at schema version {migration.version - 1} of"
                    f" {known}, and opening it again retries from there",
                    store_version=migration.version - 1,
                    code_version=known,
                ) from exc
            applied_now.append(migration.name)
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))
    return applied_now
