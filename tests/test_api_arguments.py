"""Arguments of the Python API that are not the request models: the settings of
``open_memory``, the ids of the read methods, the policy and experiment a call runs
under, the times of ``end_session`` and ``run_retention``, and a child of an ended
session. Each bad one is a typed error naming the argument, raised before anything is
written; none surfaces as the driver's or an attribute error."""

from __future__ import annotations

import os
import pwd
import re
import socket
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import platformdirs
import pytest

from recallflow import (
    DEFAULT_POLICY,
    ConfigurationError,
    ConstraintViolation,
    InvalidInputError,
    Memory,
    open_memory,
)
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres import embedded
from recallflow.adapters.postgres.conninfo import refused_on_start
from recallflow.adapters.postgres.holders import LOCK_NAME
from recallflow.errors import ConnectionOptionError, HomeError
from tests.helpers import BrokenZone, belief

#: The tables a refused call must leave as they were.
TABLES = ("beliefs", "episodes", "recall_traces", "sessions", "feedback_events")


def counts(memory: Memory, tenant: str) -> dict[str, int]:
    with memory.pool.connection() as conn:
        return {
            table: conn.execute(
                f"SELECT count(*) FROM {table} WHERE tenant_id = %s", (tenant,)
            ).fetchone()[0]  # type: ignore[index]
            for table in TABLES
        }


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"dsn": "not a dsn"}, "dsn"),
        ({"dsn": 5}, "dsn"),
        # Parsed by the driver, but no connection could be opened with them.
        ({"dsn": "postgresql://..."}, "dsn"),
        ({"dsn": f"postgresql://{'a' * 64}.example/x"}, "dsn"),
        ({"dsn": "postgresql://localhost:abc/x"}, "dsn"),
        # Read by the driver before it connects: its ProgrammingError came out as it was.
        ({"dsn": "postgresql:///x?connect_timeout=abc"}, "dsn"),
        ({"dsn": "dbname=x connect_timeout=inf"}, "dsn"),
        ({"dsn": "postgresql:///x", "read_dsn": "postgresql://a..b/x"}, "read_dsn"),
        ({"dsn": "postgresql:///x", "read_dsn": "garbage"}, "read_dsn"),
        ({"dsn": "host=caf\udce9"}, "dsn"),  # not UTF-8: a byte of another encoding
        ({"dsn": "postgresql:///x", "read_dsn": "postgresql://h/\ud800"}, "read_dsn"),
        ({"dsn": "postgresql:///x", "pool_size": 0}, "pool_size"),
        ({"dsn": "postgresql:///x", "pool_size": "8"}, "pool_size"),
        ({"dsn": "postgresql:///x", "connect_timeout": "5"}, "connect_timeout"),
        ({"dsn": "postgresql:///x", "embedder": "hashing"}, "embedder"),
        # Each setting is judged before anything connects, whatever its kind: an infinite
        # timeout was the interpreter's OverflowError, a flow cache of -1 or 1.5 was taken,
        # a port of the wrong kind or a home that is no path failed later or not at all,
        # and operator="no" granted the operator capability.
        ({"dsn": "postgresql:///x", "connect_timeout": float("inf")}, "connect_timeout"),
        ({"dsn": "postgresql:///x", "replica_timeout": 0}, "replica_timeout"),
        ({"dsn": "postgresql:///x", "replica_wait": float("nan")}, "replica_wait"),
        ({"dsn": "postgresql:///x", "replica_wait": -1}, "replica_wait"),
        ({"dsn": "postgresql:///x", "flow_cache_size": -1}, "flow_cache_size"),
        ({"dsn": "postgresql:///x", "flow_cache_size": 1.5}, "flow_cache_size"),
        ({"dsn": "postgresql:///x", "flow_cache_size": True}, "flow_cache_size"),
        ({"dsn": "postgresql:///x", "flow_cache_size": "3"}, "flow_cache_size"),
        ({"dsn": "postgresql:///x", "operator": "no"}, "operator"),
        ({"dsn": "postgresql:///x", "calibrate": 0}, "calibrate"),
        ({"dsn": "postgresql:///x", "token_counter": "cl100k"}, "token_counter"),
        ({"dsn": "postgresql:///x", "query_former": object()}, "query_former"),
        ({"dsn": "postgresql:///x", "injection_scanner": 5}, "injection_scanner"),
        ({"dsn": "postgresql:///x", "external_provider": "mem0"}, "external_provider"),
        ({"home": 5}, "home"),
    ],
)
def test_open_memory_names_a_setting_it_cannot_use(kwargs: dict[str, Any], named: str) -> None:
    kwargs.setdefault("embedder", HashingEmbedder())
    with pytest.raises(ConfigurationError, match=named):
        open_memory(**kwargs)


@pytest.mark.parametrize("name", ["dsn", "read_dsn"])
@pytest.mark.parametrize("given", ["", "   "])
def test_an_empty_connection_string_is_refused_not_read_as_none(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, given: str
) -> None:
    """``open_memory(dsn=os.environ.get("DB", ""))`` with DB unset: read as no connection
    string, it opened the embedded default home (or RECALLFLOW_DSN's server), another store
    than the one the caller meant; it is refused by name, before any home is made."""
    monkeypatch.delenv("RECALLFLOW_DSN", raising=False)
    monkeypatch.delenv("RECALLFLOW_READ_DSN", raising=False)
    monkeypatch.setenv("RECALLFLOW_HOME", str(tmp_path / "default"))
    with pytest.raises(ConfigurationError, match=rf"^{name}: is empty"):
        if name == "dsn":
            open_memory(embedder=HashingEmbedder(), dsn=given)
        else:
            open_memory(embedder=HashingEmbedder(), read_dsn=given)
    assert not (tmp_path / "default").exists()


@pytest.mark.parametrize("given", [[], "", 0, ()])
def test_an_empty_value_for_the_embedder_is_refused_not_read_as_none(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, given: object
) -> None:
    """An empty list, string or tuple (or 0) for the embedder was read as none given, and
    the default embedder opened the store: a different space than the caller named. It is
    refused by name, before any home is made."""
    monkeypatch.delenv("RECALLFLOW_DSN", raising=False)
    monkeypatch.setenv("RECALLFLOW_HOME", str(tmp_path / "default"))
    with pytest.raises(ConfigurationError, match=r"^embedder must implement recallflow\.Embedder"):
        open_memory(embedder=given)  # type: ignore[arg-type]
    assert not (tmp_path / "default").exists()


def test_a_home_that_names_no_directory_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``~user`` of no user, a NUL byte, a loop of symlinks and a regular file (or a path
    through one) name no directory: each was the interpreter's RuntimeError or ValueError
    (a file: a failed mkdir blamed on RECALLFLOW_HOME) out of open_memory."""
    monkeypatch.delenv("RECALLFLOW_DSN", raising=False)
    (tmp_path / "loop").symlink_to(tmp_path / "back")
    (tmp_path / "back").symlink_to(tmp_path / "loop")
    (tmp_path / "file").write_text("not a home\n")
    # Empty: read as no home, it opened the default one (here RECALLFLOW_HOME's).
    monkeypatch.setenv("RECALLFLOW_HOME", str(tmp_path / "default"))
    with pytest.raises(ConfigurationError, match=r"^home: '' names no directory: it is empty"):
        open_memory(home="", embedder=HashingEmbedder())
    monkeypatch.delenv("RECALLFLOW_HOME")
    for home in (
        "~no-such-user-of-this-box/home",
        "a\x00b",
        tmp_path / "loop" / "home",
        tmp_path / "file",
        tmp_path / "file" / "home",
        # Not UTF-8: a lone surrogate, and a byte of another encoding as os.fsdecode reads it.
        tmp_path / "\ud800",
        os.fsdecode(bytes(tmp_path / "caf") + b"\xe9"),
    ):
        with pytest.raises(ConfigurationError, match=r"^home: .* names no directory"):
            open_memory(home=home, embedder=HashingEmbedder())
        if "\x00" in str(home) or "\ud800" in str(home):
            continue  # no environment variable holds one
        monkeypatch.setenv("RECALLFLOW_HOME", str(home))
        with pytest.raises(ConfigurationError, match=r"^RECALLFLOW_HOME: .* names no directory"):
            open_memory(embedder=HashingEmbedder())
        monkeypatch.delenv("RECALLFLOW_HOME")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["back", "file", "loop"]


def test_a_home_that_cannot_be_made_or_used_is_named_by_its_source(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A home that cannot be made (a name longer than the file system takes) or used (its
    lock file's name taken by a directory) is a HomeError naming where the home came from:
    it said RECALLFLOW_HOME when ``home=`` named it, and the platform's default alike."""
    monkeypatch.delenv("RECALLFLOW_DSN", raising=False)
    unusable = tmp_path / "unusable"
    (unusable / LOCK_NAME).mkdir(parents=True)
    for home, says in (
        (tmp_path / ("x" * 300) / "home", "cannot create"),
        (unusable, "cannot use"),
    ):
        monkeypatch.delenv("RECALLFLOW_HOME", raising=False)
        with pytest.raises(HomeError, match=rf"^home: {says} ") as given:
            open_memory(home=home, embedder=HashingEmbedder())
        assert given.value.source == "home" and "RECALLFLOW_HOME" not in str(given.value)
        monkeypatch.setenv("RECALLFLOW_HOME", str(home))
        with pytest.raises(HomeError, match=rf"^RECALLFLOW_HOME: {says} "):
            open_memory(embedder=HashingEmbedder())
    # Without either, the platform's user data directory: named as the default.
    monkeypatch.delenv("RECALLFLOW_HOME")
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda _name: str(tmp_path / ("y" * 300)))
    with pytest.raises(
        HomeError, match=r"^the default home \(RECALLFLOW_HOME is unset\): cannot create"
    ):
        open_memory(embedder=HashingEmbedder())


def test_a_home_the_service_user_cannot_reach_names_its_source(tmp_path: Path) -> None:
    """Run as root without user namespaces, the server runs as a service user; a home it
    cannot reach is refused naming where the home came from (it said RECALLFLOW_HOME
    whichever named it). Judged from the directories' modes alone, so any user can check
    it, for a user that is not the directories' owner."""
    closed = tmp_path / "closed"
    (closed / "pgdata").mkdir(parents=True)
    closed.chmod(0o700)
    stranger = pwd.getpwnam("nobody")
    assert closed.stat().st_uid != stranger.pw_uid
    for source in ("--home", "home", "RECALLFLOW_HOME"):
        with pytest.raises(HomeError, match=rf"^{re.escape(source)}: run as root, .* cannot reach"):
            embedded._check_reachable(closed / "pgdata", stranger.pw_uid, stranger.pw_gid, source)


def test_a_pool_size_the_server_cannot_serve_is_refused_by_name(memory: Memory) -> None:
    """``pool_size=10**9`` was taken: the pools grew under load until the server refused
    connections ("too many clients"), recall by recall. A size whose two pools fit in the
    server's ``max_connections`` opens."""
    with memory.pool.connection() as conn:
        limit = int(conn.execute("SHOW max_connections").fetchone()[0])  # type: ignore[index]
    for size in (10**9, limit):
        with pytest.raises(ConfigurationError, match=r"^pool_size .*allows") as refused:
            open_memory(memory.uri, embedder=HashingEmbedder(), pool_size=size)
        assert f"pool_size={size}" in str(refused.value)
    fits = (limit - 2) * 2 // 3
    with open_memory(memory.uri, embedder=HashingEmbedder(), pool_size=fits) as opened:
        assert opened.summary() is not None


@pytest.mark.parametrize(
    "dsn",
    [
        "postgresql://ada:{secret}@127.0.0.1:{port}/recallflow?connect_timeout=5",
        "postgresql://ada@127.0.0.1:{port}/recallflow?password={secret}&connect_timeout=5",
        "host=127.0.0.1 port={port} user=ada password={secret} connect_timeout=5",
        "postgresql://ada:{secret}@[::1:{port}/recallflow",  # does not parse
        # The passphrase of the client's key, as secret as a password.
        "postgresql://ada@127.0.0.1:{port}/recallflow?sslpassword={secret}&connect_timeout=5",
        "host=127.0.0.1 port={port} user=ada sslpassword={secret} connect_timeout=5",
        "host=127.0.0.1 port={port} user=ada sslpassword = '{secret} x' connect_timeout=5",
    ],
)
def test_an_error_about_a_connection_string_never_shows_its_password(dsn: str) -> None:
    """The message of a store that cannot be reached (or a DSN that does not parse) names
    where it tried, with the password masked: it ends up on terminals and in logs."""
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ConfigurationError) as refused:
        open_memory(dsn.format(secret="hunter2", port=port), embedder=HashingEmbedder())
    assert "hunter2" not in str(refused.value) and "***" in str(refused.value)


def test_an_option_libpq_refuses_is_named_not_blamed_on_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``sslmode=bogus`` parses, and libpq refuses it only when asked to connect: that is a
    ConnectionOptionError naming the argument and the option, not "cannot connect"."""
    monkeypatch.delenv("PGSSLMODE", raising=False)
    with pytest.raises(ConnectionOptionError, match=r"^dsn \(or RECALLFLOW_DSN\): option sslmode="):
        open_memory("host=127.0.0.1 port=1 sslmode=bogus", embedder=HashingEmbedder())
    with pytest.raises(ConfigurationError, match="cannot connect") as down:
        open_memory("host=127.0.0.1 port=1 sslmode=disable", embedder=HashingEmbedder())
    assert not isinstance(down.value, ConnectionOptionError)


def test_an_option_libpq_refuses_in_the_read_dsn_is_named_at_open(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The replica's pool opens without waiting on it, so ``read_dsn``'s ``sslmode=bogus``
    opened, and every replica read then failed and fell back to the primary, unnamed. It is
    a ConnectionOptionError naming ``read_dsn`` and the option, before a home is made or a
    server started; the same string with a good option, whose server is down, is no fault
    of the string (a replica that is down is skipped: tests/test_replicas.py)."""
    monkeypatch.delenv("RECALLFLOW_DSN", raising=False)
    monkeypatch.delenv("PGSSLMODE", raising=False)
    home = tmp_path / "home"
    for option, value in (("sslmode", "bogus"), ("keepalives", "often")):
        with pytest.raises(ConnectionOptionError, match=rf"^read_dsn: option {option}='{value}'"):
            open_memory(
                home=home,
                embedder=HashingEmbedder(),
                read_dsn=f"host=127.0.0.1 port=1 {option}={value}",
            )
    assert not home.exists()
    assert refused_on_start("host=127.0.0.1 port=1 sslmode=disable keepalives=1") is None


@pytest.mark.parametrize(
    ("value", "error", "says"),
    [
        ("garbage", ConfigurationError, "not a PostgreSQL connection string"),
        ("host=127.0.0.1 port=1 sslmode=bogus", ConnectionOptionError, "option sslmode="),
    ],
)
def test_a_bad_read_dsn_from_the_environment_is_named_by_it_before_anything_is_made(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    value: str,
    error: type[ConfigurationError],
    says: str,
) -> None:
    """``RECALLFLOW_READ_DSN`` is read as ``read_dsn`` is when none is given, judged alike
    and named as the variable (the caller's code never gave one), before a home is made."""
    monkeypatch.delenv("RECALLFLOW_DSN", raising=False)
    monkeypatch.delenv("PGSSLMODE", raising=False)
    monkeypatch.setenv("RECALLFLOW_READ_DSN", value)
    home = tmp_path / "home"
    with pytest.raises(error, match=rf"^RECALLFLOW_READ_DSN: {says}"):
        open_memory(home=home, embedder=HashingEmbedder())
    with pytest.raises(ConfigurationError, match=r"^read_dsn: "):  # the argument outranks it
        open_memory(home=home, embedder=HashingEmbedder(), read_dsn="postgresql://a..b/x")
    assert not home.exists()


def test_an_unknown_embedder_setting_is_a_configuration_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "word2vec")
    with pytest.raises(ConfigurationError, match="RECALLFLOW_EMBEDDER"):
        open_memory("postgresql:///x")


def test_reads_refuse_a_malformed_id_by_name(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(belief(tenant, "p1", id="b-1"))
    reads: list[tuple[Callable[[], Any], str]] = [
        (lambda: memory.beliefs.get(tenant, "p1", 5), "belief_id"),  # type: ignore[arg-type]
        (lambda: memory.beliefs.get(tenant, "p 1", "b-1"), "principal_id"),
        (lambda: memory.beliefs.list(5, "p1"), "tenant_id"),  # type: ignore[arg-type]
        (lambda: memory.episodes.get(tenant, "p1", ["e-1"]), "episode_id"),  # type: ignore[arg-type]
        (lambda: memory.trace(tenant, "p1", 5), "trace_id"),  # type: ignore[arg-type]
        (lambda: memory.explain(5, "p1", "tr-1"), "tenant_id"),  # type: ignore[arg-type]
        (lambda: memory.episodes.embed_missing(tenant, None), "principal_id"),  # type: ignore[arg-type]
        (lambda: memory.episodes.embed_missing("a b", "p1"), "tenant_id"),
        (lambda: memory.corrections.excluded_projects(None, "p1", "b-1"), "tenant_id"),  # type: ignore[arg-type]
        (lambda: memory.corrections.excluded_projects(tenant, "p 1", "b-1"), "principal_id"),
        (lambda: memory.corrections.excluded_projects(tenant, "p1", 5), "belief_id"),  # type: ignore[arg-type]
    ]
    for read, field in reads:
        with pytest.raises(InvalidInputError) as refused:
            read()
        assert refused.value.field == field
    assert memory.beliefs.get(tenant, "p1", "b-1").id == "b-1"


def test_a_policy_or_experiment_of_another_type_is_refused_by_name(
    memory: Memory, tenant: str
) -> None:
    memory.beliefs.add(belief(tenant, "p1", id="b-1"))
    request = {"tenant_id": tenant, "principal_id": "p1", "working_state": {"goal": "x"}}
    before = counts(memory, tenant)
    calls: list[tuple[Callable[[], Any], str]] = [
        (lambda: memory.recall(request, policy="default"), "policy"),  # type: ignore[arg-type]
        (lambda: memory.recall(request, experiment="ids only"), "experiment"),  # type: ignore[arg-type]
        (lambda: memory.flow("later"), "moment"),
        (lambda: memory.open_session(tenant, "p1", policy={}), "policy"),  # type: ignore[arg-type]
        (lambda: memory.resume_session(tenant, "p1", "s-1", policy=None), "policy"),  # type: ignore[arg-type]
        (lambda: memory.cite(tenant, "p1", "tr-1", ["b-1"], policy=1), "policy"),  # type: ignore[arg-type]
        # memory.corrections is reached directly too, past Memory's own checks.
        (
            lambda: memory.corrections.cite(tenant, "p1", "tr-1", ["b-1"], policy="x"),  # type: ignore[arg-type]
            "policy",
        ),
        (
            lambda: memory.corrections.corroborate(tenant, "p1", "b-1", "w", "e-1", policy=0),  # type: ignore[arg-type]
            "policy",
        ),
        (lambda: memory.forget(tenant, "p1", policy="x"), "policy"),  # type: ignore[arg-type]
        (lambda: memory.corrections.forget(tenant, "p1", policy="x"), "policy"),  # type: ignore[arg-type]
        (
            lambda: memory.corrections.forget_belief(tenant, "p1", "b-1", policy=None),  # type: ignore[arg-type]
            "policy",
        ),
        (
            lambda: memory.corrections.forget_episode(tenant, "p1", "e-1", policy={}),  # type: ignore[arg-type]
            "policy",
        ),
        (
            lambda: memory.search_episodes(
                {"tenant_id": tenant, "principal_id": "p1", "query": "x"},
                policy=DEFAULT_POLICY,  # type: ignore[arg-type]  # the recall policy
            ),
            "policy",
        ),
    ]
    for call, field in calls:
        with pytest.raises(InvalidInputError) as refused:
            call()
        assert refused.value.field == field
    assert counts(memory, tenant) == before


def test_a_switch_that_is_not_a_bool_is_refused_and_nothing_is_stored(
    memory: Memory, tenant: str
) -> None:
    """``persist_trace="no"`` (a value read from a config file) was truthy: the trace was
    stored, of a recall and of a session's turn alike. It is refused by name, as
    open_memory's switches are; and an error's article reads right."""
    session = memory.open_session(tenant, "p1")
    request = {"tenant_id": tenant, "principal_id": "p1", "working_state": {"goal": "tea"}}
    before = counts(memory, tenant)
    calls: list[Callable[[], object]] = [
        lambda: memory.recall(request, persist_trace="no"),  # type: ignore[arg-type]
        lambda: memory.recall(request, persist_trace=0),  # type: ignore[arg-type]
        lambda: session.recall({"goal": "tea"}, persist_trace="false"),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(InvalidInputError) as refused:
            call()
        assert refused.value.field == "persist_trace"
    assert counts(memory, tenant) == before
    search = {"tenant_id": tenant, "principal_id": "p1", "query": "x"}
    with pytest.raises(InvalidInputError, match="must be an EpisodePolicy, got str"):
        memory.search_episodes(search, policy="x")  # type: ignore[arg-type]


def test_times_are_aware_datetimes_or_refused_by_name(memory: Memory, tenant: str) -> None:
    session = memory.open_session(tenant, "p1")
    for call, field in (
        # Text is read as a draft's time is: a date has no zone, "now" is no time.
        (lambda: memory.end_session(tenant, "p1", session.id, at="2026-01-01"), "at"),
        (lambda: session.end("now"), "at"),
        # Before the session opened: the first end stands, so a mistyped year would end
        # it for good (it was taken, and the session refused every turn after).
        (lambda: session.end(session.watermark - timedelta(days=1)), "at"),
        (
            lambda: memory.end_session(
                tenant, "p1", session.id, at=datetime(2020, 1, 1, tzinfo=UTC)
            ),
            "at",
        ),
        (lambda: memory.run_retention(datetime(2100, 1, 1)), "now"),  # naive: whose zone?
        (lambda: memory.run_retention("2100-01-01"), "now"),
    ):
        with pytest.raises(InvalidInputError) as refused:
            call()
        assert refused.value.field == field
    assert session.recall({"goal": "tea"}).trace_id  # nothing ended it


def test_a_time_argument_takes_iso_text_with_a_zone_as_a_draft_does(
    memory: Memory, tenant: str
) -> None:
    """A draft takes ``"2026-09-01T09:00:00Z"`` for its times, and so do the time
    arguments of the lifecycle and session calls: the same text was refused there as "must
    be a timezone-aware datetime", though it names one instant as plainly as a datetime."""
    memory.beliefs.add(belief(tenant, "p1", id="b-1"))
    expired = memory.expire(tenant, "p1", "b-1", at="2026-01-31T11:00:00+02:00")
    assert expired.valid_to == datetime(2026, 1, 31, 9, tzinfo=UTC)
    session = memory.open_session(tenant, "p1")
    at = session.watermark + timedelta(seconds=1)
    assert session.end(at.isoformat().replace("+00:00", "Z")) == at
    with pytest.raises(InvalidInputError, match="is later than now") as ahead:  # read, then judged
        memory.run_retention("2100-01-01T00:00:00Z")
    assert ahead.value.field == "now"
    for text in ("2026-01-31T09:00:00", "next tuesday"):  # no zone; no time
        with pytest.raises(InvalidInputError) as refused:
            memory.expire(tenant, "p1", "b-1", at=text)
        assert refused.value.field == "at", refused.value
        assert re.search("time ?zone", str(refused.value)), refused.value


@pytest.mark.parametrize("answer", [RuntimeError("no tz database"), "+02:00", 7200, 2.0])
def test_a_time_whose_timezone_cannot_tell_its_offset_is_refused_by_name(
    memory: Memory, tenant: str, answer: object
) -> None:
    """The interpreter's TypeError (or the zone's own exception) came out of every entry
    point that takes a time; each now names the field, and nothing is written."""
    memory.beliefs.add(belief(tenant, "p1", id="b-1"))
    session = memory.open_session(tenant, "p1")
    when = datetime(2025, 6, 1, tzinfo=BrokenZone(answer))
    ask = {"tenant_id": tenant, "principal_id": "p1"}
    before = counts(memory, tenant)
    for call, field in (
        (lambda: memory.recall({**ask, "working_state": {"goal": "x"}, "as_of": when}), "as_of"),
        (lambda: memory.search_episodes({**ask, "query": "x", "known_as_of": when}), "known_as_of"),
        (
            lambda: memory.beliefs.add_many([belief(tenant), belief(tenant, valid_to=when)]),
            "valid_to",
        ),
        (lambda: memory.episodes.add({**ask, "occurred_at": when, "content": "x"}), "occurred_at"),
        (lambda: memory.expire(tenant, "p1", "b-1", when), "at"),
        (lambda: memory.end_session(tenant, "p1", session.id, at=when), "at"),
        (lambda: memory.run_retention(when), "now"),
    ):
        with pytest.raises(InvalidInputError) as refused:
            call()
        assert refused.value.field == field, refused.value
        assert "cannot tell its offset" in str(refused.value)
    assert counts(memory, tenant) == before


class _HashRaises:
    """A value whose hash is the caller's code, and raises."""

    def __hash__(self) -> int:
        raise RuntimeError("no hash today")


def test_a_value_whose_hash_raises_is_refused_by_name_at_every_enum_argument(
    memory: Memory, tenant: str
) -> None:
    """An enum field or argument looks its value up by hash: a value whose ``__hash__``
    raises (a time whose zone cannot tell its offset, say) sent that exception out of the
    call. Each now names the field, and nothing is written."""
    memory.beliefs.add(belief(tenant, "p1", id="b-1", statement="Invoices are in cents."))
    shown = memory.recall({"tenant_id": tenant, "principal_id": "p1",
                           "working_state": {"goal": "invoices cents"}})  # fmt: skip
    assert shown.rendered_ids == ("b-1",)
    who = {"tenant_id": tenant, "principal_id": "p1"}
    ask = {**who, "working_state": {"goal": "x"}}
    before = counts(memory, tenant)
    broken_zone = datetime(2025, 6, 1, tzinfo=BrokenZone(RuntimeError()))
    for bad in (_HashRaises(), broken_zone):
        calls: tuple[tuple[Callable[[Any], object], str], ...] = (
            (lambda bad: memory.recall({**ask, "surface": bad}), "surface"),
            (lambda bad: memory.recall({**ask, "moment": bad}), "moment"),
            (lambda bad: memory.search_episodes({**who, "query": "x", "surface": bad}), "surface"),
            (lambda bad: memory.beliefs.add(belief(tenant, belief_type=bad)), "belief_type"),
            (lambda bad: memory.beliefs.add(belief(tenant, sensitivity=bad)), "sensitivity"),
            (lambda bad: memory.episodes.add({**who, "content": "x", "kind": bad}), "kind"),
            (lambda bad: memory.open_session(tenant, "p1", kind=bad), "kind"),
            (lambda bad: memory.open_session(tenant, "p1", surface=bad), "surface"),
            (
                lambda bad: memory.explain(tenant, "p1", shown.trace_id, viewer_surface=bad),
                "viewer_surface",
            ),
            (lambda bad: memory.reject(tenant, "p1", shown.trace_id, "b-1", bad), "kind"),
        )
        for call, field in calls:
            with pytest.raises(InvalidInputError) as refused:
                call(bad)
            assert refused.value.field == field, (field, refused.value)
            assert "raised RuntimeError" in str(refused.value), refused.value
    assert counts(memory, tenant) == before


def test_a_draft_the_database_refuses_is_named_as_the_callers_argument_and_item(
    memory: Memory, tenant: str
) -> None:
    """A source episode the principal does not have is refused by the database, not the
    model: in a re-derivation the error named the field but no item of the batch, and in a
    rejection it named ``source_episode_id``, which is no argument of ``reject``."""
    memory.beliefs.add(belief(tenant, "p1", id="b-1", statement="Invoices are in cents."))
    shown = memory.recall({"tenant_id": tenant, "principal_id": "p1",
                           "working_state": {"goal": "invoices cents"}})  # fmt: skip
    assert shown.rendered_ids == ("b-1",)
    before = counts(memory, tenant)
    drafts = [belief(tenant, statement="Kept."), belief(tenant, statement="Refused.",
                                                          source_episode_id="e-none")]  # fmt: skip
    with pytest.raises(ConstraintViolation) as refused:
        memory.rederive(tenant, "p1", drafts)
    assert (refused.value.item_index, refused.value.field) == (1, "source_episode_id")
    replacement = belief(tenant, statement="Invoices are in euros.", source_episode_id="e-none")
    with pytest.raises(ConstraintViolation) as refused:
        memory.reject(tenant, "p1", shown.trace_id, "b-1", "changed", replacement=replacement)
    assert refused.value.field == "replacement.source_episode_id"
    assert counts(memory, tenant) == before
    assert memory.beliefs.get(tenant, "p1", "b-1").state.value == "active"


def test_a_retention_run_ahead_of_the_clock_is_refused_and_ends_nothing(
    memory: Memory, tenant: str
) -> None:
    """A ``now`` in the future was taken: the job, run for every principal of the store,
    ended live sessions idle "by then" and deleted their traces' user views and operator
    fields before they were due. The test of the job on a simulated clock says so."""
    session = memory.open_session(tenant, "p1")
    turn = session.recall({"goal": "tea"})
    ahead = datetime.now(UTC) + timedelta(days=400)
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: memory.run_retention(ahead), "now"),
        (lambda: memory.run_retention(ahead, allow_future="yes"), "allow_future"),  # type: ignore[arg-type]
    ]
    for call, field in calls:
        with pytest.raises(InvalidInputError) as refused:
            call()
        assert refused.value.field == field
    # Nothing ran: the session takes turns, and both views of its trace are there.
    memory.resume_session(tenant, "p1", session.id).recall({"goal": "tea"})
    assert memory.explain(tenant, "p1", turn.trace_id).trace_id == turn.trace_id
    assert memory.trace(tenant, "p1", turn.trace_id).id == turn.trace_id
    # A run as of the past or now is a run.
    memory.run_retention(datetime.now(UTC) - timedelta(days=1))
    memory.run_retention()


def test_a_child_of_an_ended_session_is_refused_and_nothing_is_stored(
    memory: Memory, tenant: str
) -> None:
    parent = memory.open_session(tenant, "p1")
    parent.end()
    before = counts(memory, tenant)
    with pytest.raises(InvalidInputError, match="ended") as refused:
        parent.child({"goal": "fix the failing test"})
    assert refused.value.field == "session_id"
    assert counts(memory, tenant) == before


def test_a_session_goal_written_as_text_is_told_the_shape_it_takes(
    memory: Memory, tenant: str
) -> None:
    """``open_session(goal="...")``, ``child("...")`` and ``recall("...")`` were refused as
    "Input should be a valid dictionary or instance of WorkingState": the goal's own text is
    the likely mistake, and the message now shows the mapping to write; nothing is stored."""
    parent = memory.open_session(tenant, "p1")
    before = counts(memory, tenant)
    for call, field in (
        (lambda: memory.open_session(tenant, "p1", goal="Ship the price view"), "goal"),  # type: ignore[arg-type]
        (lambda: parent.child("Fix the failing test"), "goal"),  # type: ignore[arg-type]
        (lambda: parent.recall("Ship the price view"), "working_state"),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidInputError) as refused:
            call()
        assert refused.value.field == field
        assert '{"goal": ' in str(refused.value) and "not str" in str(refused.value)
    assert counts(memory, tenant) == before


def test_a_session_goal_of_nothing_is_refused_and_nothing_is_stored(
    memory: Memory, tenant: str
) -> None:
    """A goal with no visible text primed nothing: the session opened as one without a goal,
    and a child run — whose snapshot is of its goal — took None or {} and stored a session
    and its snapshot trace for nothing. From a tool as from Python."""
    from recallflow.tools import Toolset

    parent = memory.open_session(tenant, "p1")
    before = counts(memory, tenant)
    nothing = {"goal": " \u200b", "entities": [""]}
    calls: list[Callable[[], object]] = [
        lambda: memory.open_session(tenant, "p1", goal=nothing),
        lambda: parent.child(nothing),
        lambda: parent.child({}),
        lambda: parent.child(None),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(InvalidInputError) as refused:
            call()
        assert refused.value.field == "goal"
    tools = Toolset(memory, tenant_id=tenant, principal_id="p1")
    answer = tools.call("open_session", {"goal": nothing})
    assert answer["error"]["field"] == "goal"
    assert counts(memory, tenant) == before
    # With something to prime for, both open; so does a session without a goal.
    memory.open_session(tenant, "p1", goal={"entities": ["tea"]})
    parent.child({"goal": "tea"})
    memory.open_session(tenant, "p1")


@pytest.mark.parametrize(
    "state",
    [
        {},
        {"goal": " \u200b", "query": ""},
        {"entities": [" "], "files": [""], "recent_turns": ["\t"]},
    ],
)
def test_an_in_turn_recall_of_nothing_is_refused_and_nothing_is_stored(
    memory: Memory, tenant: str, state: dict[str, Any]
) -> None:
    """With nothing visible to search for no arm has a query, so the block was always
    empty and its trace stored: a model shown it reads "nothing is remembered". The tool
    and the CLI refused it; the Python API ran it."""
    memory.beliefs.add(belief(tenant, id="b-tea", subject="drink", statement="Ada drinks tea."))
    before = counts(memory, tenant)
    request = {"tenant_id": tenant, "principal_id": "p1", "working_state": state}
    with pytest.raises(InvalidInputError, match="nothing to recall for") as refused:
        memory.recall(request)
    assert refused.value.field == "working_state.goal"
    assert counts(memory, tenant) == before
    # A tool in play is something to recall for; so is the snapshot's empty goal.
    memory.recall({**request, "working_state": {**state, "tools": ["psql"]}})
    memory.recall({**request, "moment": "session_snapshot"})


@pytest.mark.parametrize("cap", ["max_items", "max_tokens"])
def test_a_recall_capped_at_nothing_is_refused_and_nothing_is_stored(
    memory: Memory, tenant: str, cap: str
) -> None:
    """A cap of zero items or tokens made every block empty, and the trace and the miss hint
    of that recall read "nothing is remembered"; the archival search tool already refused
    a cap below one."""
    memory.beliefs.add(belief(tenant, id="b-tea", subject="drink", statement="Ada drinks tea."))
    before = counts(memory, tenant)
    request = {"tenant_id": tenant, "principal_id": "p1", "working_state": {"goal": "tea"}}
    with pytest.raises(InvalidInputError) as refused:
        memory.recall({**request, cap: 0})
    assert refused.value.field == cap
    assert counts(memory, tenant) == before
    memory.recall({**request, cap: 1})


def test_a_request_that_is_not_a_mapping_is_named_as_the_request(memory: Memory) -> None:
    for call in (lambda: memory.recall("hello"), lambda: memory.search_episodes(None)):  # type: ignore[arg-type]
        with pytest.raises(InvalidInputError, match=r"^field 'request': ") as refused:
            call()
        assert refused.value.field == "request"


def test_the_budget_report_names_a_bad_tenant_or_policy(memory: Memory) -> None:
    from recallflow import budget_report

    for kwargs, field in (
        ({"tenant_id": 5}, "tenant_id"),
        ({"tenant_id": "a b"}, "tenant_id"),
        ({"policy": "default"}, "policy"),
    ):
        with pytest.raises(InvalidInputError) as refused:
            budget_report(memory, **kwargs)
        assert refused.value.field == field


def test_a_validators_message_is_its_own_words(memory: Memory, tenant: str) -> None:
    """A refusal a field's validator wrote reads as that validator's words, naming the item
    and field, without the "Value error, " pydantic puts in front of them."""
    naive = {"tenant_id": tenant, "principal_id": "p1", "content": "x"}
    with pytest.raises(InvalidInputError) as refused:
        memory.episodes.add({**naive, "occurred_at": "2026-01-01T00:00:00"})
    assert refused.value.field == "occurred_at"
    assert str(refused.value).startswith("item 0, field 'occurred_at': must be timezone-aware")
    with pytest.raises(InvalidInputError) as refused:
        memory.recall({"tenant_id": tenant, "principal_id": "p1", "working_state": {"goal": "\0"}})
    assert str(refused.value).startswith("field 'working_state.goal': contains a NUL")
    assert counts(memory, tenant) == dict.fromkeys(TABLES, 0)


@pytest.mark.parametrize("given", [None, "b-1", {"statement": "x"}, 5])
def test_a_batch_that_is_not_a_list_is_refused_naming_the_argument(
    memory: Memory, tenant: str, given: object
) -> None:
    """``add_many`` given one draft, a string or None said it "must be a list" with no
    field, where every other refused argument is named: a program routing errors by field
    had nothing to route on."""
    before = counts(memory, tenant)
    calls: list[tuple[str, Callable[[], object]]] = [
        ("drafts", lambda: memory.beliefs.add_many(given)),  # type: ignore[arg-type]
        ("drafts", lambda: memory.episodes.add_many(given)),  # type: ignore[arg-type]
        ("edges", lambda: memory.edges.add_many(given)),  # type: ignore[arg-type]
        ("drafts", lambda: memory.rederive(tenant, "p1", given)),  # type: ignore[arg-type]
    ]
    for named, call in calls:
        with pytest.raises(InvalidInputError) as refused:
            call()
        assert refused.value.field == named
        assert "must be a list" in str(refused.value)
    assert counts(memory, tenant) == before


@pytest.mark.parametrize("given", ["Ada likes tea.", None, 5, ["b-1"]])
def test_a_draft_that_is_not_a_mapping_is_refused_naming_the_argument(
    memory: Memory, tenant: str, given: object
) -> None:
    """A statement passed where a draft belongs (``beliefs.add("Ada likes tea.")``) was
    pydantic's "Input should be a valid dictionary or instance of BeliefDraft" with no
    field: the call that takes one draft names its argument, a batch the item and its
    argument, and nothing is written."""
    before = counts(memory, tenant)
    calls: list[tuple[str, int | None, Callable[[], object]]] = [
        ("draft", None, lambda: memory.beliefs.add(given)),  # type: ignore[arg-type]
        ("draft", None, lambda: memory.episodes.add(given)),  # type: ignore[arg-type]
        ("edge", None, lambda: memory.edges.add(given)),  # type: ignore[arg-type]
        ("new_belief", None, lambda: memory.supersede("b-any", given)),  # type: ignore[arg-type]
        ("drafts", 1, lambda: memory.beliefs.add_many([belief(tenant), given])),  # type: ignore[list-item]
        ("edges", 0, lambda: memory.edges.add_many([given])),  # type: ignore[list-item]
        ("drafts", 0, lambda: memory.rederive(tenant, "p1", [given])),  # type: ignore[list-item]
    ]
    for named, index, call in calls:
        with pytest.raises(InvalidInputError) as refused:
            call()
        assert (refused.value.field, refused.value.item_index) == (named, index)
        assert "or a mapping of its fields" in str(refused.value)
    assert counts(memory, tenant) == before
