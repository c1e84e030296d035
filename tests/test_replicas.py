"""Recalls read a real streaming replica (``open_memory(..., read_dsn=...)``), made from the
embedded server with ``pg_basebackup`` and started as a standby with the wheel's own
programs: they are served by it, read this handle's own writes, and fall back to the
primary when it is killed. Every process started here is stopped (checked)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import psycopg
import pytest

from recallflow import Memory, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres import embedded
from recallflow.adapters.postgres.embedded import DATABASE
from recallflow.adapters.postgres.pool import open_pool
from recallflow.adapters.postgres.replicas import (
    IdentityGuard,
    ReplicaBehind,
    ReplicaPool,
    WrittenLsn,
    store_identity,
)
from recallflow.errors import ConfigurationError, ReplicaMismatchError
from tests.helpers import belief, request
from tests.processes import postgres_pids, wait_until_gone

pytestmark = pytest.mark.slow


@dataclass
class Standby:
    pgdata: Path
    uri: str

    def replay_lag_bytes(self, primary_uri: str) -> int:
        with psycopg.connect(primary_uri, autocommit=True) as conn:
            row = conn.execute(
                "SELECT coalesce(max(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)), -1)"
                " FROM pg_stat_replication"
            ).fetchone()
        return int(row[0]) if row else -1

    def belief_scans(self) -> int:
        """Scans of the beliefs table this standby has served: only a recall reads it
        here (the handle's lag checks and these counting queries do not)."""
        with psycopg.connect(self.uri, autocommit=True) as conn:
            row = conn.execute(
                "SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0)"
                " FROM pg_stat_user_tables WHERE relname = 'beliefs'"
            ).fetchone()
        return int(row[0]) if row else 0

    def belief_scans_since(self, before: int, *, at_least: int, wait_s: float = 20.0) -> int:
        """Scans since ``before``, polled until ``at_least`` or ``wait_s``: a backend
        reports its counts up to a second after its transaction, later on a loaded box."""
        deadline = time.monotonic() + wait_s
        while True:
            seen = self.belief_scans() - before
            if seen >= at_least or time.monotonic() > deadline:
                return seen
            time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL the standby's postmaster and every backend (a crashed machine)."""
        for pid in postgres_pids(self.pgdata):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        assert wait_until_gone(self.pgdata) == []


@contextmanager
def standby_of(memory: Memory, root: Path) -> Iterator[Standby]:
    """A streaming standby of ``memory``'s embedded server, stopped on the way out."""
    query = parse_qs(urlparse(memory.uri).query)
    host, port = query["host"][0], query.get("port", ["5432"])[0]
    pgdata, sockets = root / "standby", root / "standby-sockets"
    pgdata.mkdir(mode=0o700)
    sockets.mkdir(mode=0o700)
    runner = embedded._runner(pgdata, "home")
    if runner.user is not None:
        os.chown(sockets, runner.user, runner.group or -1)
    bin_dir = embedded._bin_dir()
    runner.run(
        [
            str(bin_dir / "pg_basebackup"),
            *("-D", str(pgdata), "-h", host, "-p", port, "-U", embedded.SUPERUSER),
            *("-R", "-X", "stream", "-c", "fast"),
        ],
        timeout=300,
    )
    try:
        runner.run(
            [
                str(bin_dir / "pg_ctl"),
                *("-D", str(pgdata), "-l", str(pgdata / "log")),
                *("-o", f"-h '' -k {sockets} -p {port}", "-w", "-t", "60", "start"),
            ],
            timeout=90,
        )
        uri = f"postgresql://{embedded.SUPERUSER}:@/{DATABASE}?host={sockets}&port={port}"
        yield Standby(pgdata, uri)
    finally:
        for pid in postgres_pids(pgdata):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        assert wait_until_gone(pgdata) == [], "the standby's processes outlived the test"


def _caught_up(standby: Standby, primary_uri: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while standby.replay_lag_bytes(primary_uri) != 0:
        assert time.monotonic() < deadline, "the standby never caught up"
        time.sleep(0.05)


def test_recalls_read_the_replica_see_their_own_writes_and_survive_its_death(
    tmp_path: Path, fresh_home: Path
) -> None:
    home = fresh_home
    embedder = HashingEmbedder()
    with open_memory(home=home, embedder=embedder) as primary:
        primary.beliefs.add(
            belief("t", id="b-old", statement="Deploys go through Fly.io", subject="deploy")
        )
        primary_uri = primary.uri
        with (
            standby_of(primary, tmp_path) as standby,
            open_memory(
                home=home,
                embedder=embedder,
                read_dsn=standby.uri,
                replica_wait=5.0,
                operator=True,
            ) as memory,
        ):
            _caught_up(standby, primary_uri)
            with psycopg.connect(standby.uri, autocommit=True) as conn:
                assert conn.execute("SELECT pg_is_in_recovery()").fetchone() == (True,)
            # Recalls are served by the standby.
            before = standby.belief_scans()
            for _ in range(5):
                result = memory.recall(request("t", goal="How do we deploy?"))
                assert "b-old" in result.rendered_ids
                assert memory.trace("t", "p1", result.trace.id).id == result.trace.id
            assert standby.belief_scans_since(before, at_least=5) >= 5
            # A write through this handle is seen by the very next recall.
            memory.beliefs.add(
                belief("t", id="b-new", statement="Deploys now go through Render", subject="deploy")
            )
            result = memory.recall(request("t", goal="Where do deploys go through Render?"))
            assert "b-new" in result.rendered_ids
            # Several servers behind one DSN (libpq's multi-host string, connections spread
            # at random over the standby, paused, and the primary): every connection a
            # recall reads is checked for this handle's writes, not one per recall.
            hosts = [parse_qs(urlparse(u).query) for u in (standby.uri, primary_uri)]
            spread = (
                f"postgresql://{embedded.SUPERUSER}:@/{DATABASE}"
                f"?host={','.join(q['host'][0] for q in hosts)}"
                f"&port={','.join(q.get('port', ['5432'])[0] for q in hosts)}"
                "&load_balance_hosts=random"
            )
            hosts_run = [f"Host {n} runs the deploys of region {n}." for n in range(6)]
            memory.beliefs.add_many(
                [belief("t", id=f"b-host-{n}", statement=t) for n, t in enumerate(hosts_run)]
            )
            _caught_up(standby, primary_uri)
            with psycopg.connect(standby.uri, autocommit=True) as conn:
                conn.execute("SELECT pg_wal_replay_pause()")
            for n in range(6):  # a handle each: its pool's connections spread anew
                with open_memory(home=home, embedder=embedder, read_dsn=spread) as spread_memory:
                    spread_memory.corrections.retire("t", "p1", f"b-host-{n}", "moved")
                    for _ in range(3):
                        asked = request("t", goal=f"Which host runs the deploys of region {n}?")
                        assert f"b-host-{n}" not in spread_memory.recall(asked).rendered_ids
            # Deterministically: a connection to the paused standby is refused once the
            # handle's writes are past it, within the wait, and no sooner caught up.
            written = WrittenLsn()
            with psycopg.connect(primary_uri, autocommit=True) as conn:
                written.note(conn)
                guard = IdentityGuard(store_identity(conn), standby.uri, lambda: "")
            behind = open_pool(
                standby.uri,
                "recall",
                max_size=1,
                pool_class=partial(ReplicaPool, written=written, wait_s=0.05, guard=guard),
            )
            try:
                with pytest.raises(ReplicaBehind), behind.connection():
                    pass
            finally:
                behind.close()
            with psycopg.connect(standby.uri, autocommit=True) as conn:
                conn.execute("SELECT pg_wal_replay_resume()")
            _caught_up(standby, primary_uri)
            # The standby dies: recalls fall back to the primary, and say nothing is wrong.
            standby.kill()
            started = time.perf_counter()
            result = memory.recall(request("t", goal="Where do deploys go through Render?"))
            fallback_s = time.perf_counter() - started
            assert "b-new" in result.rendered_ids
            assert not result.trace.degraded_arms
            result = memory.recall(request("t", goal="How do we deploy?"))
            assert "b-old" in result.rendered_ids
            print(f"\nfirst recall after the standby died: {fallback_s * 1e3:.0f} ms")
        assert postgres_pids(tmp_path / "standby") == []


def test_a_standby_given_as_the_store_is_refused_saying_it_is_one(
    tmp_path: Path, fresh_home: Path
) -> None:
    """A replica given as the store (``dsn`` for ``read_dsn``, an easy slip) failed on the
    first migration: "cannot execute CREATE TABLE in a read-only transaction". It says the
    server is a standby and where it belongs."""
    with (
        open_memory(home=fresh_home, embedder=HashingEmbedder()) as primary,
        standby_of(primary, tmp_path) as standby,
    ):
        with pytest.raises(ConfigurationError, match="is a standby in recovery") as refused:
            open_memory(standby.uri, embedder=HashingEmbedder())
        assert "read_dsn" in str(refused.value)
        assert "CREATE TABLE" not in str(refused.value)


def test_a_replica_down_at_open_is_skipped(tmp_path: Path, fresh_home: Path) -> None:
    missing = f"postgresql://nobody:@/{DATABASE}?host={tmp_path / 'nowhere'}"
    with open_memory(home=fresh_home, embedder=HashingEmbedder(), read_dsn=missing) as memory:
        memory.beliefs.add(belief("t", id="b-1", statement="Deploys go through Fly.io"))
        for _ in range(3):
            assert "b-1" in memory.recall(request("t", goal="How do we deploy?")).rendered_ids


def test_a_replica_behind_another_handles_erasure_never_shows_what_was_forgotten(
    tmp_path: Path, fresh_home: Path
) -> None:
    """Another process forgets a belief while the replica has not replayed it (its replay
    paused here, as a lagging standby's is behind): a recall after the erasure returned
    must not show the belief, nor store it in its trace; the primary serves it instead,
    also once the belief is written again under its id with other words (the replica's
    row under that id is still the erased one). Caught up, the replica is read again."""
    home = fresh_home
    embedder = HashingEmbedder()
    secret = "Ada's locker code is 7713 at the Quarry Street gym."
    ask = request("t", goal="What is the locker code at the gym?")
    with open_memory(home=home, embedder=embedder) as eraser:
        eraser.beliefs.add_many(
            [
                belief("t", id="b-locker", statement=secret, subject="locker code"),
                belief("t", id="b-gym", statement="Ada's gym is on Quarry Street.", subject="gym"),
            ]
        )
        with (
            standby_of(eraser, tmp_path) as standby,
            open_memory(
                home=home, embedder=embedder, read_dsn=standby.uri, replica_wait=0.05, operator=True
            ) as memory,
        ):
            _caught_up(standby, eraser.uri)
            assert "b-locker" in memory.recall(ask).rendered_ids
            with psycopg.connect(standby.uri, autocommit=True) as conn:
                conn.execute("SELECT pg_wal_replay_pause()")
            eraser.forget_belief("t", "p1", "b-locker")

            result = memory.recall(ask)
            assert "b-locker" not in result.rendered_ids and secret not in result.block
            # Written again under its id with other words: the replica still holds the
            # erased row under that id.
            changed = "Ada's locker code at the gym was changed; she keeps it to herself."
            eraser.beliefs.add(belief("t", id="b-locker", statement=changed, subject="locker code"))
            again = memory.recall(ask)
            assert secret not in again.block and changed in again.block
            # (Read after the recalls: a read through this handle's store pool notes the
            # primary's position, and the next recall would wait for the replica.)
            stored = memory.trace("t", "p1", result.trace.id)
            assert "b-locker" not in stored.model_dump_json()

            with psycopg.connect(standby.uri, autocommit=True) as conn:
                conn.execute("SELECT pg_wal_replay_resume()")
            _caught_up(standby, eraser.uri)
            before = standby.belief_scans()
            result = memory.recall(ask)
            assert secret not in result.block
            assert standby.belief_scans_since(before, at_least=1) >= 1

            # Promoted apart from the primary, the replica has its identity but none of
            # the primary's later writes: this handle's own write is read on the primary,
            # and a handle opened on it is refused (it was read, whatever it missed).
            with psycopg.connect(standby.uri, autocommit=True) as conn:
                conn.execute("SELECT pg_promote(wait => true)")
            memory.beliefs.add(
                belief("t", id="b-card", statement="Ada's gym card number is 5521.", subject="card")
            )
            assert "b-card" in memory.recall(request("t", goal="Ada's gym card?")).rendered_ids
            with pytest.raises(ReplicaMismatchError, match="not the primary itself"):
                open_memory(home=home, embedder=embedder, read_dsn=standby.uri)


def test_a_read_dsn_of_another_store_is_refused_never_read(
    tmp_path: Path, fresh_home: Path
) -> None:
    """A ``read_dsn`` naming another store — here another database of the same server,
    holding a recallflow store of its own; another cluster differs in its system
    identifier and is refused alike — must never serve that store's beliefs as this
    one's: refused at open when it answers then, skipped for the primary when it only
    answers later."""
    embedder = HashingEmbedder()
    ask = request("t", goal="How do we deploy?")
    with open_memory(home=fresh_home, embedder=embedder) as primary:
        primary.beliefs.add(belief("t", id="b-mine", statement="Deploys go through Fly.io"))
        other = primary.uri.replace(f"/{DATABASE}?", "/otherstore?")
        assert other != primary.uri
        # Not there yet when the handle opens: skipped like a replica that is down.
        with open_memory(home=fresh_home, embedder=embedder, read_dsn=other) as memory:
            with psycopg.connect(primary.uri, autocommit=True) as conn:
                conn.execute("CREATE DATABASE otherstore")
            with open_memory(other, embedder=embedder) as stranger:
                stranger.beliefs.add(
                    belief("t", id="b-stranger", statement="Deploys go through Heroku")
                )
            for _ in range(3):
                assert memory.recall(ask).rendered_ids == ("b-mine",)
        with pytest.raises(ReplicaMismatchError, match="otherstore"):
            open_memory(home=fresh_home, embedder=embedder, read_dsn=other)
        with pytest.raises(ConfigurationError, match="'postgres'"):
            open_memory(
                home=fresh_home,
                embedder=embedder,
                read_dsn=primary.uri.replace(f"/{DATABASE}?", "/postgres?"),
            )
        # The primary itself is a replica of itself.
        with open_memory(home=fresh_home, embedder=embedder, read_dsn=primary.uri) as memory:
            assert memory.recall(ask).rendered_ids == ("b-mine",)


def test_the_replica_is_read_from_the_environment_and_named_by_it(
    fresh_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``RECALLFLOW_READ_DSN`` gives the replica to a handle whose code says none (the CLI's
    commands and the MCP server, a host configured by its environment), as
    ``RECALLFLOW_DSN`` gives the store: a replica of another store is refused naming the
    variable; an argument outranks it; the store's own server serves as its replica."""
    embedder = HashingEmbedder()
    monkeypatch.delenv("RECALLFLOW_READ_DSN", raising=False)
    with open_memory(home=fresh_home, embedder=embedder) as primary:
        primary.beliefs.add(belief("t", id="b-mine", statement="Deploys go through Fly.io"))
        assert primary._replica is None
        other = primary.uri.replace(f"/{DATABASE}?", "/postgres?")
        monkeypatch.setenv("RECALLFLOW_READ_DSN", other)
        with pytest.raises(ReplicaMismatchError, match=r"^RECALLFLOW_READ_DSN .*'postgres'"):
            open_memory(home=fresh_home, embedder=embedder)
        with pytest.raises(ReplicaMismatchError, match=r"^read_dsn .*'postgres'"):
            open_memory(home=fresh_home, embedder=embedder, read_dsn=other)
        monkeypatch.setenv("RECALLFLOW_READ_DSN", primary.uri)
        with open_memory(home=fresh_home, embedder=embedder) as memory:
            assert memory._replica is not None
            ask = request("t", goal="How do we deploy?")
            assert memory.recall(ask).rendered_ids == ("b-mine",)
        monkeypatch.setenv("RECALLFLOW_READ_DSN", "")  # empty is unset, as for RECALLFLOW_DSN
        with open_memory(home=fresh_home, embedder=embedder) as memory:
            assert memory._replica is None


def test_a_replica_of_another_cluster_is_refused(fresh_home: Path) -> None:
    """Same database name and oid (both made first after ``initdb``), another cluster:
    told apart by the system identifier."""
    with (
        open_memory(home=fresh_home, embedder=HashingEmbedder()) as primary,
        psycopg.connect(primary.uri, autocommit=True) as conn,
    ):
        mine = store_identity(conn)
        other = mine._replace(system=str(int(mine.system) + 1))
        guard = IdentityGuard(other, primary.uri, lambda: "")
        with pytest.raises(ReplicaMismatchError, match="another PostgreSQL cluster"):
            guard.verify(conn)
        assert guard.mismatch is not None
        # A role the server does not let read the system identifier compares the database
        # alone, rather than failing every replica connection (or the open) on it.
        conn.execute("REVOKE EXECUTE ON FUNCTION pg_control_system() FROM PUBLIC")
        conn.execute("CREATE ROLE limited_reader LOGIN")
        limited_uri = primary.uri.replace(f"{embedded.SUPERUSER}:@", "limited_reader:@")
        with psycopg.connect(limited_uri, autocommit=True) as limited:
            seen = store_identity(limited)
            assert seen == mine._replace(system="") and seen.same_store(mine)
            started = conn.execute("SELECT extract(epoch FROM pg_postmaster_start_time())::text")
            start = str(started.fetchone()[0])  # type: ignore[index]
            IdentityGuard(mine, limited_uri, lambda: start).verify(limited)
