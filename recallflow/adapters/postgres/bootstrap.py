"""Readying a database for recallflow: the database itself (embedded server), the
required extensions with a clear error when one is missing, and the migrations
(PostgreSQL ≥ 15 with pgvector ≥ 0.7 and pg_trgm; see "Storage" in docs/architecture.md).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.conninfo import make_conninfo

from recallflow.adapters.postgres.migrate import MIGRATION_LOCK_KEY, application_name, migrate
from recallflow.errors import ConfigurationError, MissingExtensionError, without_password

#: Extensions the schema needs, with the oldest version we accept.
REQUIRED_EXTENSIONS: dict[str, tuple[int, ...]] = {
    "vector": (0, 7),
    "pg_trgm": (1, 0),
    "btree_gin": (1, 0),
}
MIN_SERVER_VERSION = 150000


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".") if part.isdigit())


def connection(uri: str) -> psycopg.Connection[Any]:
    """An autocommit connection to ``uri`` that names this code's schema version (see
    ``application_name``), as every connection recallflow opens does."""
    return psycopg.connect(uri, autocommit=True, application_name=application_name(uri))


def ensure_database(admin_uri: str, database: str) -> None:
    """Create ``database`` on the server if it does not exist (safe under concurrency)."""
    with connection(admin_uri) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,))
        if exists.fetchone() is not None:
            return
        # Another process may create it first.
        with contextlib.suppress(pg_errors.DuplicateDatabase, pg_errors.UniqueViolation):
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))


@contextlib.contextmanager
def scratch_database(admin_uri: str, database: str) -> Iterator[str]:
    """A fresh, empty ``database`` on the server of ``admin_uri`` (one left over from an
    interrupted run is dropped first), dropped again on leaving: its connection string."""
    name = sql.Identifier(database)
    with connection(admin_uri) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(name))
    try:
        yield make_conninfo(admin_uri, dbname=database)
    finally:
        with connection(admin_uri) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))


def ensure_extensions(conn: psycopg.Connection[Any]) -> None:
    """Create the required extensions, or raise :class:`MissingExtensionError` naming one."""
    version = conn.info.server_version
    if version < MIN_SERVER_VERSION:
        raise ConfigurationError(
            f"recallflow needs PostgreSQL 15 or newer; the server is {version // 10000}"
        )
    for name, minimum in REQUIRED_EXTENSIONS.items():
        row = conn.execute(
            "SELECT (SELECT extversion FROM pg_extension WHERE extname = %(n)s),"
            " (SELECT default_version FROM pg_available_extensions WHERE name = %(n)s)",
            {"n": name},
        ).fetchone()
        installed, available = row or (None, None)
        if installed is None:
            if available is None:
                raise MissingExtensionError(name, "the server does not have it installed")
            try:
                conn.execute(
                    sql.SQL("CREATE EXTENSION IF NOT EXISTS {}").format(sql.Identifier(name))
                )
            except (pg_errors.InsufficientPrivilege, pg_errors.FeatureNotSupported) as exc:
                raise MissingExtensionError(
                    name,
                    f"it is not created in this database and this role cannot create it ({exc})",
                ) from exc
            created = conn.execute(
                "SELECT extversion FROM pg_extension WHERE extname = %s", (name,)
            ).fetchone()
            installed = created[0] if created else None
        if _version_tuple(str(installed)) < minimum:
            wanted = ".".join(map(str, minimum))
            raise MissingExtensionError(
                name, f"version {installed} is installed, {wanted}+ is needed"
            )


def refuse_read_only(conn: psycopg.Connection[Any], uri: str) -> None:
    """Raise :class:`ConfigurationError` when ``conn`` cannot write: a standby in recovery
    (a replica given as the store, where it belongs as ``read_dsn``), or a database whose
    transactions are read-only by default. Opening one failed on the first migration's
    statement, "cannot execute CREATE TABLE in a read-only transaction", naming neither."""
    row = conn.execute(
        "SELECT pg_is_in_recovery(), current_setting('transaction_read_only')"
    ).fetchone()
    standby, read_only = row if row is not None else (False, "off")
    where = without_password(uri)
    if standby:
        raise ConfigurationError(
            f"{where} is a standby in recovery, which takes no writes: open the store on"
            " its primary, and give the standby as read_dsn (RECALLFLOW_READ_DSN,"
            " --read-dsn) for recalls to read"
        )
    if read_only == "on":
        raise ConfigurationError(
            f"{where} is read-only (default_transaction_read_only is on for this role or"
            " database): a store needs a database it can write"
        )


def prepare(uri: str) -> list[str]:
    """Ensure extensions and apply migrations on ``uri``; returns the migrations applied."""
    with connection(uri) as conn:
        refuse_read_only(conn, uri)
        # One process at a time: concurrent CREATE EXTENSION races on the catalog.
        conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))
        try:
            ensure_extensions(conn)
            return migrate(conn)
        except pg_errors.InsufficientPrivilege as exc:
            # Outside a migration's own transaction (which is a MigrationError): the
            # migrations' table, created or read before any migration runs.
            raise ConfigurationError(
                f"{without_password(uri)}: the role {conn.info.user!r} may not create or read"
                f" the store's tables ({str(exc).splitlines()[0]}): open the store with the"
                " role that owns its schema, or grant this one CREATE on the schema"
            ) from exc
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))


def connection_limit(conn: psycopg.Connection[Any]) -> int:
    """How many connections the server lets ``conn``'s role hold at once, all of its
    clients together: ``max_connections``, less the slots it reserves for superusers (and
    for ``pg_use_reserved_connections``, PostgreSQL 16+) when the role is not one."""
    row = conn.execute(
        "SELECT current_setting('max_connections')::int"
        " - CASE WHEN r.rolsuper THEN 0 ELSE"
        "  current_setting('superuser_reserved_connections')::int"
        "  + coalesce(current_setting('reserved_connections', true), '0')::int END"
        " FROM pg_roles r WHERE r.rolname = current_user"
    ).fetchone()
    return int(row[0]) if row is not None else 0
