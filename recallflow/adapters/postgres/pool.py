"""The connection pools.

Two pools on one server, so a read setting can never hurt a write:

- the **recall** pool, used by every arm: autocommit (each arm opens its own short
  transaction), statements prepared on first use (recall queries repeat, so parsing is
  paid once; the server keeps choosing custom or generic plans, since a generic plan
  measured 2× slower for the trigram arm), HNSW iterative scan (so a filtered vector
  search does not silently return too few rows), a backstop statement timeout, and no JIT
  (it costs milliseconds on short queries). The numbers an arm tunes (``hnsw.ef_search``,
  the trigram threshold, its own statement timeout) are not set here: each arm sets them
  from the policy with ``SET LOCAL`` (:mod:`recallflow.adapters.postgres.search`);
- the **store** pool, for ingestion and traces: autocommit with explicit transactions,
  no statement timeout (a bulk COPY with index builds may take minutes).

The ``configure`` callback checks that the store has not moved past this code's schema
(a later release migrated it after the pool opened: see ``refuse_newer_store``), registers
pgvector's types and applies the settings once per new connection; each connection names
the schema version its code knows as its ``application_name`` (``migrate.py``). Both
are ``GuardedPool`` objects (``health.py``): a wait for a connection is bounded by
``timeout``, and a lost server is reported as a typed error and reconnected to (see
"Lifetime of the embedded server" in docs/operations.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any, Literal

import psycopg
from pgvector.psycopg import register_vector
from psycopg_pool import PoolTimeout

from recallflow.adapters.postgres.health import GuardedPool, Revive
from recallflow.adapters.postgres.migrate import application_name, refuse_newer_store

#: The statement timeout of a recall-pool statement that is not an arm's (loading the
#: candidates): a backstop that keeps a stuck query from holding a connection, not a
#: tuning number. Each arm runs under the policy's ``limits.timeout_ms`` instead.
RECALL_BACKSTOP_TIMEOUT_MS = 2000

#: Settings of every connection of the recall pool.
RECALL_SETTINGS: dict[str, str] = {
    "hnsw.iterative_scan": "relaxed_order",
    "statement_timeout": str(RECALL_BACKSTOP_TIMEOUT_MS),
    "jit": "off",
    # A recall's statements read hundreds of rows, never a table: starting parallel
    # workers costs more than it saves (7.8 ms for a Gather over four empty index scans
    # at 100k beliefs, the whole statement taking 9 ms without it).
    "max_parallel_workers_per_gather": "0",
}
#: Settings of every connection of the store pool.
STORE_SETTINGS: dict[str, str] = {"jit": "off"}

PoolRole = Literal["recall", "store"]

#: How long a call waits for a connection before it raises StoreUnavailableError (s).
CONNECT_TIMEOUT_S = 2.0

#: How long a pooled connection may sit unused before it is checked with a round trip
#: when it is handed out (s). Within it, a server that ended the session has closed its
#: socket, which the pool sees without a round trip; a connection unused for longer may
#: have lost a server that could not say so (a host gone, a middlebox that dropped the
#: idle flow), so it is checked as before (see ``GuardedPool``).
CHECK_AFTER_IDLE_S = 30.0


#: The server's names of UTC itself (``initdb`` picks one from the host's zone). A
#: recall connection whose session zone is one of them is set to ``UTC``, the one name
#: psycopg reads as ``datetime.timezone.utc``: under any other name it builds every
#: timestamp it reads with a ``ZoneInfo`` (a conversion per value: 0.34 against 0.11 µs a
#: timestamp), and every difference or comparison of such a timestamp with the request's
#: UTC ``as_of`` asks both zones for their offset (the scoring's decays, the state at
#: as_of). The same instants in the same zone, named so that they cost less; a server in
#: any other zone is left as it is.
_UTC_ZONES = frozenset({"UTC", "Etc/UTC", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu"})


def utc_named(conn: psycopg.Connection[Any]) -> dict[str, str]:
    """The setting that names ``conn``'s session zone ``UTC`` when the server calls UTC by
    another of its names (``_UTC_ZONES``); none otherwise."""
    zone = conn.info.parameter_status("TimeZone")
    return {"TimeZone": "UTC"} if zone in _UTC_ZONES and zone != "UTC" else {}


def _configure(
    settings: dict[str, str],
    recall: bool,
    verify: Callable[[psycopg.Connection[Any]], None] | None,
    conn: psycopg.Connection[Any],
) -> None:
    conn.autocommit = True
    if verify is not None:  # before anything assumes the store's schema is there
        verify(conn)
    refuse_newer_store(conn)
    if recall:
        conn.prepare_threshold = 0
    register_vector(conn)
    wanted = {**settings, **utc_named(conn)} if recall else settings
    for name, value in wanted.items():
        conn.execute("SELECT set_config(%s, %s, false)", (name, value))


def open_pool(
    uri: str,
    role: PoolRole,
    *,
    min_size: int = 1,
    max_size: int = 8,
    timeout: float = CONNECT_TIMEOUT_S,
    revive: Revive | None = None,
    pool_class: Callable[..., GuardedPool] = GuardedPool,
    wait: bool = True,
    verify: Callable[[psycopg.Connection[Any]], None] | None = None,
) -> GuardedPool:
    """An opened pool on ``uri``, waited on so a bad server fails here, not mid-recall
    (``wait=False``: a replica that is down at open is only skipped by recalls).

    ``timeout`` bounds each wait for a connection, and also how long the pool keeps
    retrying a lost connection in the background before it opens new ones only on demand
    (so a server that comes back is used by the next call, not after a long back-off).
    ``revive`` is called when the server looks dead (see ``GuardedPool``); ``verify``
    checks each new connection before it is used, and refuses it by raising.
    """
    settings = RECALL_SETTINGS if role == "recall" else STORE_SETTINGS
    pool = pool_class(
        uri,
        revive=revive,
        check_after_idle_s=CHECK_AFTER_IDLE_S,
        min_size=min_size,
        max_size=max_size,
        configure=partial(_configure, settings, role == "recall", verify),
        open=False,
        name=f"recallflow-{role}",
        timeout=timeout,
        reconnect_timeout=timeout,
        kwargs={
            "connect_timeout": max(2, math.ceil(timeout)),  # libpq's minimum is 2 s
            "application_name": application_name(uri),
        },
    )
    try:
        pool.open(wait=wait, timeout=30)
    except PoolTimeout:
        refused = pool.refusal()  # a later release migrated the store just now
        if refused is not None:
            raise refused from None
        raise
    return pool
