"""The per-principal write lock: every write that reads the store to decide what to write
(an id already stored, a supersession chain, an edge already there) takes it first, so two
writers of the same principal decide one after the other and the later one reads what the
earlier one committed."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import psycopg

#: The advisory-lock class of per-principal write locks (two-int key space).
_PRINCIPAL_LOCK_CLASS = 0x7265


def lock_principals(conn: psycopg.Connection[Any], principals: Iterable[tuple[str, str]]) -> None:
    """Serialise this transaction's lifecycle writes with others on the same principals."""
    for tenant, principal in sorted(set(principals)):
        conn.execute(
            "SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
            (_PRINCIPAL_LOCK_CLASS, f"{len(tenant)}:{tenant}{principal}"),
        )
