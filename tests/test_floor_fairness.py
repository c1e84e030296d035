"""The benchmark's floor runs under the conditions the recall runs under, so the ratio
between them measures recallflow's own work (see "The floor" in docs/benchmarks.md): the
recall pool's settings, its zone as the pool names it, and the trace committed without
waiting for the WAL flush, as the recall's trace write commits it."""

from __future__ import annotations

from typing import Any

import psycopg

from benchmarks.floor import connect
from recallflow import Memory
from recallflow.adapters.postgres.pool import RECALL_SETTINGS, open_pool


def _shown(conn: psycopg.Connection[Any], names: list[str]) -> dict[str, str]:
    rows = [conn.execute("SELECT current_setting(%s)", (n,)).fetchone() for n in names]
    return {n: str(r[0]) for n, r in zip(names, rows, strict=True) if r is not None}


def test_the_floor_connection_matches_the_recall_pool(memory: Memory) -> None:
    names = [*RECALL_SETTINGS, "TimeZone"]
    pool = open_pool(memory.uri, "recall", min_size=1, max_size=1)
    try:
        with pool.connection() as conn:
            recall = _shown(conn, names)
    finally:
        pool.close()
    with connect(memory.uri) as conn:
        floor = _shown(conn, [*names, "synchronous_commit"])
    assert floor.pop("synchronous_commit") == "off"
    assert floor == recall
