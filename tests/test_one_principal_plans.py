"""A recall in a store of one principal, the commonest embedded store (one user), reads
what its matches need, not the whole table: the principal then holds every row of
``beliefs`` and ``principal_terms``, so a plan that reads the principal whole (a
sequential scan, or an index read end to end through a filter) reads the table whole,
and costs what the user's whole memory holds on every turn. Planned without the
parameters' values (every arm's plan is generic from its sixth run on, and the arms that
count the caller's view and the trigram arm's from the first), the planner has no other
principals to tell it the principal is a small part of the table; two such plans were
made: the rarity count's ``recorded_at`` branch and the trigram arm's key probe, each
reading the whole table (10-86 ms and 21-160 ms a statement at 10k-50k beliefs).

Every statement one recall's arms and its load send is replayed as sent (text,
parameters, settings, prepared) under ``auto_explain``, in its own plan mode and with
every plan forced generic, and no scan of either table that runs may be a sequential
scan or discard most of the principal's rows by filter."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest

from recallflow import Memory, RecallRequest, WorkingState, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres import search
from recallflow.adapters.postgres.pool import RECALL_SETTINGS
from recallflow.adapters.postgres.statements import set_configs, setting_values
from tests.helpers import made_home, patient_policy

TENANT = "t-one"
PRINCIPAL = "p-only"
BELIEFS = 2_000
RECORDED = datetime(2026, 1, 1, tzinfo=UTC)
_SERVICES = ("billing", "search", "payments", "ledger", "mail", "mobile", "checkout", "auth")
_THINGS = ("retries", "caches", "shards", "queues", "deploys", "alerts", "backups", "tests")
_PLACES = ("staging", "production", "nightly", "canary", "eu", "us", "local", "preview")
_TOOLS = ("postgres", "redis", "kafka", "terraform", "grafana", "sentry", "docker", "stripe")
GOALS = (
    ("How does the billing service retry webhooks on staging?", ("postgres",)),
    ("Where do the ledger backups run?", ("terraform", "grafna")),
    ("Which alerts page us for checkout deploys in production?", ("sentry",)),
)
#: Each statement's plan must leave most of the principal unread by its filters.
MOST = BELIEFS // 2


def _drafts() -> list[dict[str, Any]]:
    out = []
    for i in range(BELIEFS):
        service, thing = _SERVICES[i % 8], _THINGS[i // 8 % 8]
        place, tool = _PLACES[i // 64 % 8], _TOOLS[i * 7 % 8]
        out.append(
            {
                "tenant_id": TENANT,
                "principal_id": PRINCIPAL,
                "id": f"b-{i:05d}",
                "statement": f"The {service} service {thing} run on {place} with {tool} ({i}).",
                "subject": f"{service} {thing} {place} {i}",
                "entities": [tool, f"{service}-{i % 97}"],
                "scope": "user",
                "recorded_at": RECORDED + timedelta(minutes=i),
            }
        )
    return out


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory, made_pgdata: Path) -> Iterator[Memory]:
    """A store of its own holding one principal, vacuumed and analyzed, as a store that
    autovacuum has been round is (the plans depend on the table's statistics)."""
    home = made_home(made_pgdata, tmp_path_factory.mktemp("one-principal-home"))
    with open_memory(home=home, embedder=HashingEmbedder()) as memory:
        memory.beliefs.add_many(_drafts())
        with psycopg.connect(memory.uri, autocommit=True) as conn:
            conn.execute("VACUUM (ANALYZE)")
        yield memory


Captured = tuple[bytes, list[Any], dict[str, str]]


def _recall_statements(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> list[Captured]:
    """Every arm statement and the load's (with its evidence) of one recall per goal, as
    sent: text, parameters, and the settings it runs under."""
    captured: list[Captured] = []
    execute = search._execute
    raw_execute = psycopg.RawCursor.execute

    def recording(
        conn: Any,
        statement: Any,
        params: Any,
        wanted: Any,
        row_factory: Any = None,
        local: Any = None,
    ) -> Any:
        captured.append((statement.text, statement.bind(params), {**wanted, **(local or {})}))
        return execute(conn, statement, params, wanted, row_factory, local)

    def recording_raw(self: Any, query: Any, params: Any = None, **kwargs: Any) -> Any:
        if isinstance(query, bytes) and b"ev_cosines" in query:
            captured.append((query, list(params or []), dict(search._EVIDENCE_SESSION)))
        return raw_execute(self, query, params, **kwargs)

    monkeypatch.setattr(search, "_execute", recording)
    monkeypatch.setattr(psycopg.RawCursor, "execute", recording_raw)
    try:
        for goal, entities in GOALS:
            request = RecallRequest(
                tenant_id=TENANT,
                principal_id=PRINCIPAL,
                working_state=WorkingState(goal=goal, entities=entities),
            )
            memory.recall(request, policy=patient_policy())
    finally:
        monkeypatch.undo()
    return captured


def _plans(conn: psycopg.Connection[Any], statement: Captured, mode: dict[str, str]) -> Any:
    """The plan ``statement`` ran with (prepared, under its settings and ``mode``), from
    ``auto_explain``."""
    text, params, settings = statement
    notes: list[str] = []
    conn.add_notice_handler(lambda d: notes.append(d.message_primary or ""))
    with conn.transaction():
        cur = psycopg.RawCursor(conn)
        wanted = {**RECALL_SETTINGS, **settings, **mode, "statement_timeout": "60000"}
        cur.execute(set_configs(len(wanted), local=True), setting_values(wanted))
        cur.execute(b"SET LOCAL client_min_messages = log")
        cur.execute(text, params, prepare=True, binary=True)
        cur.fetchall()
        cur.execute(b"SET LOCAL client_min_messages = warning")
    plans = [json.loads(n.split("plan:", 1)[1]) for n in notes if "plan:" in n.split("\n")[0]]
    assert plans, "auto_explain reported no plan"
    return plans[-1]["Plan"]


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


def test_no_recall_statement_reads_the_whole_principal(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    statements = _recall_statements(memory, monkeypatch)
    assert any(b"word_similarity" in s[0] for s in statements), "no trigram statement ran"
    assert any(b"recorded_at > $" in s[0] for s in statements), "no statement counted the view"
    with psycopg.connect(memory.uri, autocommit=True, prepare_threshold=0) as conn:
        for setup in (
            "LOAD 'auto_explain'",
            "SET auto_explain.log_min_duration = 0",
            "SET auto_explain.log_analyze = on",
            "SET auto_explain.log_timing = off",
            "SET auto_explain.log_format = json",
        ):
            conn.execute(setup.encode())
        for mode in ({}, {"plan_cache_mode": "force_generic_plan"}):
            for statement in statements:
                plan = _plans(conn, statement, mode)
                for node in _nodes(plan):
                    if node.get("Relation Name") not in ("beliefs", "principal_terms"):
                        continue
                    if not node.get("Actual Loops"):
                        continue  # never run (a branch another one's count chose against)
                    where = (node["Relation Name"], statement[0][:60], mode)
                    assert node["Node Type"] != "Seq Scan", where
                    removed = node.get("Rows Removed by Filter", 0) * node["Actual Loops"]
                    assert removed < MOST, (removed, node.get("Index Name"), where)
