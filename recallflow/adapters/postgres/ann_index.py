"""Which beliefs the HNSW index holds: only those of *graduated* principals.

The semantic arm searches a principal exactly while it holds fewer than
``semantic_exact_factor`` × √(rows in the table) beliefs, so the index entries of smaller
principals are never read, while every insert would pay the index's upkeep (most of a
write's server time). The index is therefore partial (``WHERE ann_indexed``): a principal
is graduated — ``principal_sizes.ann_indexed`` set and every one of its beliefs flagged,
in the transaction of the write that makes it large enough, before that write's beliefs
are copied (flagged, so none is written twice) — at ``semantic_graduation_share`` of that
size, and its later beliefs are written flagged.
The arm takes the index only for a graduated principal, so it never misses a belief the
index does not hold (see "Storage" and "Arms" in docs/architecture.md).

The writer has no policy argument, so the threshold is the default policy's; a recall
under another policy stays correct (an ungraduated principal is searched exactly).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import psycopg

from recallflow.policy import DEFAULT_POLICY

#: The partial HNSW index on ``beliefs.embedding`` (built by ``settings.ensure_belief_ann_index``).
ANN_INDEX = "beliefs_embedding_ann_idx"
#: A principal graduates at this many times √(rows in the table) beliefs.
GRADUATION_FACTOR = (
    DEFAULT_POLICY.limits.semantic_exact_factor * DEFAULT_POLICY.limits.semantic_graduation_share
)

# The size row is created if the principal has none yet (its first write graduates it);
# the term-statistics trigger then adds to it.
_GRADUATE = (
    "WITH g AS (INSERT INTO principal_sizes AS s (tenant_id, principal_id, beliefs, ann_indexed)"
    " VALUES (%(tenant)s, %(principal)s, 0, true)"
    " ON CONFLICT (tenant_id, principal_id) DO UPDATE SET ann_indexed = true)"
    " UPDATE beliefs b SET ann_indexed = true"
    " WHERE b.tenant_id = %(tenant)s AND b.principal_id = %(principal)s AND NOT b.ann_indexed"
)
#: How many beliefs the table holds, as the planner extrapolates it: the last ANALYZE's row
#: count scaled by the pages the table has grown by since (the count alone lags a bulk
#: write until autovacuum comes round, and which side of the threshold a principal fell
#: on then depended on when it did: the same store answered from the index or exactly);
#: NULL before the first ANALYZE that saw rows. Both the writer's graduation and the
#: semantic arm's choice read this one expression.
TABLE_ROWS = (
    "(SELECT CASE WHEN c.reltuples >= 0 AND c.relpages > 0 THEN c.reltuples"
    " * (pg_relation_size(c.oid) / current_setting('block_size')::float8) / c.relpages END"
    " FROM pg_class c WHERE c.oid = 'beliefs'::regclass)"
)
_ROWS = "coalesce(" + TABLE_ROWS + ", 0)"
# One row per principal of the write, one it has no size row for yet included: the table's
# estimate must come back even then, or a new principal's first write is judged against
# an empty table.
_STATES = (
    "SELECT u.tenant_id, u.principal_id, coalesce(s.ann_indexed, false),"
    " coalesce(s.beliefs, 0), " + _ROWS + ""
    " FROM unnest(%s::text[], %s::text[]) AS u(tenant_id, principal_id)"
    " LEFT JOIN principal_sizes s USING (tenant_id, principal_id)"
)


class AnnState:
    """Whether each principal of a write is graduated, and whether the write graduates it."""

    def __init__(
        self, graduated: dict[tuple[str, str], bool], sizes: dict[tuple[str, str], int], rows: float
    ) -> None:
        self._graduated = graduated
        self._sizes = sizes
        self._rows = rows

    def graduated(self, tenant: str, principal: str) -> bool:
        return self._graduated.get((tenant, principal), False)

    def graduates(self, tenant: str, principal: str, added: int) -> bool:
        """Whether ``added`` more beliefs make the principal large enough to graduate."""
        if self.graduated(tenant, principal):
            return False
        return large_enough(self._sizes.get((tenant, principal), 0) + added, self._rows)


def large_enough(size: int, rows: float) -> bool:
    """Whether a principal of ``size`` beliefs graduates in a table of about ``rows``.

    The table's size is the planner's estimate (as the semantic arm reads it), but never
    less than the principal's own size, so a fresh store (no estimate yet) does not
    graduate every principal at its first write.
    """
    return size >= GRADUATION_FACTOR * math.sqrt(max(rows, size))


def ann_state(conn: psycopg.Connection[Any], principals: Iterable[tuple[str, str]]) -> AnnState:
    """The graduation of ``principals``; read under their write locks, so it holds until
    the caller's transaction ends."""
    keys = sorted(set(principals))
    rows = conn.execute(_STATES, ([t for t, _ in keys], [p for _, p in keys])).fetchall()
    estimate = max((float(r[4]) for r in rows), default=0.0)
    return AnnState(
        {(r[0], r[1]): bool(r[2]) for r in rows}, {(r[0], r[1]): int(r[3]) for r in rows}, estimate
    )


def graduate(conn: psycopg.Connection[Any], tenant: str, principal: str) -> int:
    """Graduate the principal: its stored beliefs enter the index, and so will its later
    ones; returns how many entered now.

    The caller holds the principal's write lock (``locks.lock_principals``), so no
    belief of it is written unflagged meanwhile.
    """
    cursor = conn.execute(_GRADUATE, {"tenant": tenant, "principal": principal})
    return max(cursor.rowcount, 0)


def due(conn: psycopg.Connection[Any]) -> list[tuple[str, str]]:
    """The principals not yet graduated that are large enough to be."""
    rows = conn.execute(
        "SELECT tenant_id, principal_id, beliefs, " + _ROWS + ""
        " FROM principal_sizes WHERE NOT ann_indexed ORDER BY 1, 2"
    ).fetchall()
    return [(str(t), str(p)) for t, p, size, table in rows if large_enough(size, float(table))]
