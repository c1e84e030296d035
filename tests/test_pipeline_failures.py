"""A failed pipeline leaves the pool's connection fit for the next statement.

psycopg prepares a statement once it has run often enough on a connection (at once on a
recall connection). A pipeline that fails can
leave psycopg believing statements are prepared that the server no longer holds, and every
later use of one of them on that connection then fails ("prepared statement ... does not
exist"): a trace write or a session open that timed out would make later, unrelated calls
fail for no reason of their own.
"""

from __future__ import annotations

import logging

import psycopg
import pytest

from recallflow.adapters.postgres.health import GuardedPool
from recallflow.adapters.postgres.pool import PoolRole, open_pool
from recallflow.adapters.postgres.statements import pipeline
from recallflow.memory import Memory


def _fail_in_a_pipeline(pool: GuardedPool) -> None:
    with (
        pool.connection() as conn,
        pytest.raises(psycopg.errors.DivisionByZero),
        pipeline(conn),
    ):
        conn.execute("SELECT 1 / %s::int", (0,))


def _statements(pool: GuardedPool, round_: int) -> list[int]:
    """Several statements, each run often enough to be prepared on the connection."""
    with pool.connection() as conn:
        return [
            int(conn.execute(f"SELECT %s::int + {n}", (round_,)).fetchone()[0])  # type: ignore[index]
            for n in range(4)
            for _ in range(8)
        ][::8]


@pytest.mark.parametrize("role", ["store", "recall"])
def test_statements_run_after_every_failed_pipeline_of_their_connection(
    memory: Memory, role: PoolRole
) -> None:
    # One connection, so every call below shares it (or the one that replaced it).
    pool = open_pool(memory.uri, role, min_size=1, max_size=1)
    try:
        _fail_in_a_pipeline(pool)  # before any statement is prepared on the connection
        for round_ in range(3):
            assert _statements(pool, round_) == [round_ + n for n in range(4)]
            _fail_in_a_pipeline(pool)  # now with prepared statements
            assert _statements(pool, round_) == [round_ + n for n in range(4)]
    finally:
        pool.close()


def test_a_connection_closed_by_its_failed_pipeline_is_replaced_without_a_warning(
    memory: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    # The closed connection leaves the pool as one that failed its check would, so a
    # handled failure prints no "discarding closed connection" WARNING, and the pool of
    # one connection still serves the next call (on the replacement).
    pool = open_pool(memory.uri, "recall", min_size=1, max_size=1)
    try:
        with caplog.at_level(logging.WARNING):
            for round_ in range(3):
                _fail_in_a_pipeline(pool)
                assert _statements(pool, round_) == [round_ + n for n in range(4)]
    finally:
        pool.close()
    assert not [r.getMessage() for r in caplog.records if r.name.startswith("psycopg")]
