"""The per-principal locks.

The write lock: every write that reads the store to decide what to write (an id already
stored, a supersession chain, an edge already there) takes it first, so two writers of the
same principal decide one after the other and the later one reads what the earlier one
committed.

The erasure fence: an erasure holds it exclusively until it commits; a record written from
what a recall read earlier (its trace) holds it shared for its one INSERT, so the record
either lands before the erasure, which then removes it, or after the erasure committed,
where its INSERT sees the erasure's record and the rows it deleted (see "Writers at once" in
docs/operations.md). Only erasures take it exclusively, so a trace never waits for an
ordinary write, however long.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import psycopg

#: The advisory-lock class of per-principal write locks (two-int key space).
_PRINCIPAL_LOCK_CLASS = 0x7265
#: The advisory-lock class of per-principal erasure fences.
_ERASURE_FENCE_CLASS = 0x7266

#: The statement that holds a principal's erasure fence shared until the transaction ends;
#: its parameters are :func:`erasure_fence_key`.
HOLD_ERASURE_FENCE = "SELECT pg_advisory_xact_lock_shared(%s, hashtext(%s))"


def _key(tenant: str, principal: str) -> str:
    return f"{len(tenant)}:{tenant}{principal}"


def lock_principals(conn: psycopg.Connection[Any], principals: Iterable[tuple[str, str]]) -> None:
    """Serialise this transaction's lifecycle writes with others on the same principals:
    their locks are taken in one statement (a batch of many principals made a round trip
    each), in the principals' order, so two writers of overlapping sets never wait on each
    other crosswise."""
    keys = [_key(tenant, principal) for tenant, principal in sorted(set(principals))]
    if keys:
        conn.execute(
            "SELECT pg_advisory_xact_lock(%s, hashtext(k.key))"
            " FROM unnest(%s::text[]) WITH ORDINALITY AS k(key, n) ORDER BY k.n",
            (_PRINCIPAL_LOCK_CLASS, keys),
        )


def erasure_fence_key(tenant: str, principal: str) -> tuple[int, str]:
    """The parameters of :data:`HOLD_ERASURE_FENCE` for one principal."""
    return (_ERASURE_FENCE_CLASS, _key(tenant, principal))


def fence_erasure(conn: psycopg.Connection[Any], tenant: str, principal: str) -> None:
    """Hold the principal's erasure fence exclusively until this transaction ends: a trace
    being written waits for the erasure, and the erasure for a trace being written."""
    conn.execute(
        "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", erasure_fence_key(tenant, principal)
    )
