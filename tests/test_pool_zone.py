"""A recall connection names a UTC server's zone ``UTC`` (read as ``timezone.utc``), and
leaves a server in any other zone as it is: the same instants either way (see
"Reliability" in docs/architecture.md)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from psycopg.conninfo import make_conninfo

from recallflow import Memory
from recallflow.adapters.postgres.pool import open_pool

_INSTANT = "2026-03-29T00:30:00Z"  # an hour before Berlin's clocks move


@pytest.mark.parametrize(
    ("server_zone", "session_zone"),
    [("Etc/UTC", "UTC"), ("Zulu", "UTC"), ("UTC", "UTC"), ("Europe/Berlin", "Europe/Berlin")],
)
def test_recall_connection_zone(memory: Memory, server_zone: str, session_zone: str) -> None:
    uri = make_conninfo(memory.uri, options=f"-c TimeZone={server_zone}")
    pool = open_pool(uri, "recall", min_size=1, max_size=1)
    try:
        with pool.connection() as conn:
            shown = conn.execute("SHOW TimeZone").fetchone()
            read = conn.execute("SELECT %s::timestamptz", (_INSTANT,)).fetchone()
    finally:
        pool.close()
    assert shown is not None and read is not None
    assert shown[0] == session_zone
    instant = read[0]
    assert instant == datetime(2026, 3, 29, 0, 30, tzinfo=UTC)
    if session_zone == "UTC":
        assert instant.tzinfo is UTC
