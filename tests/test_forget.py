"""Erasure on the real embedded server: a whole principal, or one belief, leaves no row
behind in any table — discovered from the catalog, so a new table cannot escape — and
changes nothing of anyone else (see "Feedback and corrections" in docs/architecture.md)."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from recallflow import LifecycleState, Memory, NotFoundError, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.scanning.scanner import LayeredInjectionScanner
from recallflow.models.corrections import Rederivation
from tests.helpers import belief, patient_policy, request

PATIENT = patient_policy()

T0 = datetime(2026, 3, 1, tzinfo=UTC)
STATEMENT = "Ada's home address is 12 Quiet Lane."


def principal_tables(memory: Memory) -> list[str]:
    with memory.pool.connection() as conn:
        return [
            str(r[0])
            for r in conn.execute(
                "SELECT table_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND column_name = 'principal_id'"
                " ORDER BY table_name"
            ).fetchall()
        ]


def snapshot(memory: Memory, tenant: str, principal: str) -> dict[str, list[str]]:
    """Every row of the principal in every table with a principal_id column, as text."""
    out = {}
    with memory.pool.connection() as conn:
        for table in principal_tables(memory):
            rows = conn.execute(
                sql.SQL(
                    "SELECT t::text FROM {} t WHERE tenant_id = %s AND principal_id = %s"
                ).format(sql.Identifier(table)),
                (tenant, principal),
            ).fetchall()
            out[table] = sorted(str(r[0]) for r in rows)
    return out


def populate(memory: Memory, tenant: str, principal: str) -> str:
    """A principal with something in every table the write path knows; returns a trace id."""
    memory.episodes.add(
        {
            "id": "ep-1",
            "tenant_id": tenant,
            "principal_id": principal,
            "project": "beta",
            "occurred_at": T0,
            "content": "Ada told us where she lives.",
        }
    )
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                principal,
                id="b-address",
                statement=STATEMENT,
                subject="home-address",
                entities=["address"],
                recorded_at=T0,
                source_episode_id="ep-1",
            ),
            belief(
                tenant,
                principal,
                id="b-editor",
                statement="Ada prefers the Helix editor.",
                subject="editor",
                entities=["helix", "address"],
                recorded_at=T0,
                scope="project",
                origin_project="alpha",
                portability="portable",
            ),
        ]
    )
    memory.edges.add(
        {
            "tenant_id": tenant,
            "principal_id": principal,
            "src_id": "b-address",
            "dst_id": "b-editor",
        }
    )
    ask = {"working_state": {"entities": ["address", "helix", "editor"]}}
    result = memory.recall(
        request(tenant, principal, "home address and editor", **ask), policy=PATIENT
    )
    assert set(result.rendered_ids) == {"b-address", "b-editor"}
    memory.cite(tenant, principal, result.trace_id, ["b-address"])
    in_beta = memory.recall(
        request(tenant, principal, "editor", project="beta", **ask), policy=PATIENT
    )
    memory.reject(tenant, principal, in_beta.trace_id, "b-editor", "not_here")
    memory.corroborate(tenant, principal, "b-address", "beta", "ep-1")
    memory.supersede(
        "b-address",
        belief(
            tenant,
            principal,
            id="b-address-new",
            statement="Ada moved to 3 Loud Street.",
            subject="home-address",
            recorded_at=T0,
        ),
    )
    for _ in range(4):  # a miss hint
        memory.recall(request(tenant, principal, "Kubernetes", working_state={"entities": ["k8s"]}))
    return result.trace_id


@pytest.fixture
def two_principals(memory: Memory, tenant: str) -> tuple[str, dict[str, list[str]]]:
    populate(memory, tenant, "ada")
    trace = populate(memory, tenant, "grace")
    return trace, snapshot(memory, tenant, "grace")


def test_every_table_with_principal_rows_is_covered(
    memory: Memory, tenant: str, two_principals: tuple[str, dict[str, list[str]]]
) -> None:
    """The fixture really writes into every table erasure has to empty (bar none)."""
    full = {t: rows for t, rows in snapshot(memory, tenant, "ada").items() if rows}
    assert set(full) >= {
        "beliefs",
        "episodes",
        "belief_edges",
        "belief_events",
        "belief_exclusions",
        "feedback_events",
        "miss_hints",
        "principal_sizes",
        "principal_terms",
        "recall_traces",
    }


def test_forget_erases_the_principal_everywhere_and_nobody_else(
    memory: Memory, tenant: str, two_principals: tuple[str, dict[str, list[str]]]
) -> None:
    _, grace_before = two_principals
    erasure = memory.forget(tenant, "ada")
    assert erasure.scope == "principal"
    assert erasure.deleted["beliefs"] == 3 and erasure.deleted["recall_traces"] >= 2
    assert all(rows == [] for rows in snapshot(memory, tenant, "ada").values())
    assert snapshot(memory, tenant, "grace") == grace_before
    # An audited record: counts and time, a digest of whom, no content.
    with memory.pool.connection() as conn:
        record = conn.execute(
            "SELECT scope, principal_sha256, belief_sha256, counts::text FROM erasures"
            " WHERE tenant_id = %s",
            (tenant,),
        ).fetchone()
    assert record is not None
    assert record[0] == "principal" and record[2] is None
    assert record[1] == hashlib.sha256(json.dumps([tenant, "ada"]).encode()).hexdigest()
    assert "ada" not in record[3] and "Quiet Lane" not in record[3]
    assert json.loads(record[3])["deleted"] == erasure.deleted
    # Forgetting again finds nothing, and recall sees nothing.
    assert memory.forget(tenant, "ada").total_deleted == 0
    assert memory.recall(request(tenant, "ada", "home address")).items == ()


def test_forget_belief_erases_it_and_scrubs_traces_and_feedback(
    memory: Memory, tenant: str, two_principals: tuple[str, dict[str, list[str]]]
) -> None:
    trace_id, grace_before = two_principals
    erasure = memory.forget_belief(tenant, "ada", "b-address")
    assert erasure.deleted["beliefs"] == 1
    assert erasure.deleted["feedback_events"] == 1  # the citation
    assert erasure.scrubbed  # stored traces named it
    rows = snapshot(memory, tenant, "ada")
    for table, texts in rows.items():
        for text in texts:
            assert '"b-address"' not in text and "b-address," not in text, table
            assert "Quiet Lane" not in text, table
    # The successor stays, without its link back; the other belief is untouched.
    successor = memory.beliefs.get(tenant, "ada", "b-address-new")
    assert successor.supersedes is None and successor.state is LifecycleState.ACTIVE
    assert memory.beliefs.get(tenant, "ada", "b-editor").state is LifecycleState.ACTIVE
    # A stored trace keeps its shape and says something was erased.
    ada_trace = [t for t in rows["recall_traces"] if "[erased]" in t]
    assert ada_trace
    assert snapshot(memory, tenant, "grace") == grace_before
    with pytest.raises(NotFoundError):
        memory.forget_belief(tenant, "ada", "b-address")
    assert trace_id  # grace's trace is still readable
    assert memory.trace(tenant, "grace", trace_id).rendered_ids


def test_forgetting_a_successor_retires_its_predecessor(memory: Memory, tenant: str) -> None:
    populate(memory, tenant, "ada")
    memory.forget_belief(tenant, "ada", "b-address-new")
    old = memory.beliefs.get(tenant, "ada", "b-address")
    assert old.state is LifecycleState.RETIRED and old.superseded_by is None


def test_ordinary_writes_stay_append_only(memory: Memory, tenant: str) -> None:
    populate(memory, tenant, "ada")
    memory.forget_belief(tenant, "ada", "b-editor")  # an erasure record exists
    for statement in (
        "DELETE FROM feedback_events WHERE tenant_id = %s",
        "DELETE FROM belief_events WHERE tenant_id = %s",
        "UPDATE belief_events SET reason = 'x' WHERE tenant_id = %s",
        "DELETE FROM erasures WHERE tenant_id = %s",
        "UPDATE erasures SET counts = '{}' WHERE tenant_id = %s",
    ):
        with (
            pytest.raises(psycopg.errors.IntegrityConstraintViolation),
            memory.pool.connection() as conn,
        ):
            conn.execute(statement, (tenant,))


def test_erasure_still_refuses_updates_of_the_journal(memory: Memory, tenant: str) -> None:
    populate(memory, tenant, "ada")
    with memory.pool.connection() as conn, conn.transaction():
        conn.execute("SELECT set_config('recallflow.erasure', 'on', true)")
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation), conn.transaction():
            conn.execute("UPDATE feedback_events SET note = 'x' WHERE tenant_id = %s", (tenant,))


@pytest.mark.parametrize("args", [("", "ada"), ("t", "bad principal")])
def test_forget_with_bad_ids_is_typed(memory: Memory, args: tuple[Any, ...]) -> None:
    from recallflow import InvalidInputError

    with pytest.raises(InvalidInputError):
        memory.forget(*args)


def principal_text(memory: Memory, tenant: str, principal: str, needle: str) -> list[str]:
    """Every ``table.column`` holding ``needle`` in a row of the principal: text, JSON and
    byte columns alike (a session's prefix is bytes), found in the catalog."""
    hits = []
    with memory.pool.connection() as conn:
        columns = conn.execute(
            "SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c"
            " JOIN information_schema.columns k ON k.table_schema = c.table_schema"
            "  AND k.table_name = c.table_name AND k.column_name = 'principal_id'"
            " JOIN information_schema.tables t ON t.table_schema = c.table_schema"
            "  AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'"
            " WHERE c.table_schema = current_schema()"
            " AND c.data_type IN ('text', 'json', 'jsonb', 'bytea', 'ARRAY')"
        ).fetchall()
        for table, column, data_type in columns:
            value = sql.SQL("encode({}, 'escape')" if data_type == "bytea" else "{}::text")
            found = conn.execute(
                sql.SQL(
                    "SELECT count(*) FROM {t} WHERE tenant_id = %s AND principal_id = %s"
                    " AND strpos({v}, %s) > 0"
                ).format(t=sql.Identifier(table), v=value.format(sql.Identifier(column))),
                (tenant, principal, needle),
            ).fetchone()
            if found and found[0]:
                hits.append(f"{table}.{column}")
    return sorted(hits)


def test_forgetting_a_belief_an_open_session_holds(memory: Memory, tenant: str) -> None:
    """The belief goes from the store — the session's stored prefix and what its turns
    recorded included — and the session carries on: its next turn tells the agent, whose
    context still holds the old line, that the belief was forgotten, once."""
    secret = "Ada's locker code is 7713 at the Quarry Street gym."
    for bid, statement in (("b-locker", secret), ("b-shell", "Ada's shell is zsh.")):
        memory.beliefs.add(
            belief(
                tenant,
                "ada",
                id=bid,
                statement=statement,
                subject=bid,
                belief_type="preference",
                source_authority="user_stated",
            )
        )
    session = memory.open_session(tenant, "ada", policy=PATIENT)
    assert "b-locker" in session.snapshot_ids and secret in session.prefix.decode()
    # A correction about it recorded in a turn (its fingerprint holds the statement).
    shown = memory.recall(
        request(tenant, "ada", "locker code at the gym", working_state={"entities": ["b-locker"]}),
        policy=PATIENT,
    )
    assert "b-locker" in shown.rendered_ids
    memory.reject(tenant, "ada", shown.trace_id, "b-locker", "unspecified")
    flagged = session.recall({"goal": "what shell"})
    assert [c.kind.value for c in flagged.trace.corrections] == ["flagged"]

    erasure = memory.forget_belief(tenant, "ada", "b-locker")

    assert erasure.deleted["beliefs"] == 1
    assert principal_text(memory, tenant, "ada", "Quarry Street") == []
    resumed = memory.resume_session(tenant, "ada", session.id, policy=PATIENT)
    assert "Quarry Street" not in resumed.prefix.decode()
    assert hashlib.sha256(resumed.prefix).hexdigest() == resumed.prefix_sha256
    assert "- [b-shell] (" in resumed.prefix.decode()  # the rest of the prefix as it was
    # The live session object still holds the old prefix, as the agent's context does.
    told = session.recall({"goal": "what shell"})
    assert "- [b-locker] forgotten: do not use it" in told.block
    assert "Quarry Street" not in told.block
    assert resumed.recall({"goal": "what shell"}).trace.corrections == ()
    assert principal_text(memory, tenant, "ada", "Quarry Street") == []


def test_forgetting_a_belief_leaves_none_of_its_words_in_the_term_counts(
    memory: Memory, tenant: str
) -> None:
    """The rarity statistics count a belief's words and keys; once it is forgotten, a word
    no other belief of the principal holds is not kept with a count of zero."""
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                "ada",
                id="b-pet",
                statement="Ada's cat is called Zorblaxine.",
                subject="pet zorblaxine",
                entities=["zorblaxine"],
            ),
            belief(tenant, "ada", id="b-cat", statement="Ada has a cat.", subject="pet"),
        ]
    )
    assert "principal_terms.term" in principal_text(memory, tenant, "ada", "zorblax")
    memory.forget_belief(tenant, "ada", "b-pet")
    assert principal_text(memory, tenant, "ada", "zorblax") == []
    # The words the other belief still holds keep their counts.
    assert memory.recall(request(tenant, "ada", "does Ada have a cat")).rendered_ids == ("b-cat",)


def _address_draft(tenant: str, principal: str, belief_id: str, statement: str) -> Any:
    return belief(
        tenant,
        principal,
        id=belief_id,
        statement=statement,
        subject="home-address",
        entities=["address"],
        recorded_at=T0,
        source_episode_id="ep-1",
    )


def _rederived_with_a_new_sentence(memory: Memory, tenant: str) -> Rederivation:
    """Ada's address re-derived from its episode (new ids, the sentence restated
    trivially) beside a sentence she never said before."""
    restated = STATEMENT.lower().rstrip(".")
    return memory.rederive(
        tenant,
        "ada",
        [
            _address_draft(tenant, "ada", "b-address-2", restated),
            _address_draft(tenant, "ada", "b-garden", "Ada's garden has three apple trees."),
        ],
    )


def test_a_forgotten_belief_is_not_written_again_by_a_re_derivation(
    memory: Memory, tenant: str
) -> None:
    populate(memory, tenant, "ada")
    populate(memory, tenant, "grace")
    memory.forget_belief(tenant, "ada", "b-address")
    # Formation re-derives from the same episode, which still holds the raw text: new ids,
    # the sentence restated trivially, beside a sentence it never said before.
    outcome = _rederived_with_a_new_sentence(memory, tenant)
    assert [o.action for o in outcome.outcomes] == ["forgotten", "new"]
    assert {b.id for b in memory.beliefs.list(tenant, "ada")} >= {"b-garden"}
    assert not any("quiet lane" in b.statement.lower() for b in memory.beliefs.list(tenant, "ada"))
    result = memory.recall(
        request(tenant, "ada", "home address", working_state={"entities": ["address"]}),
        policy=PATIENT,
    )
    assert "quiet lane" not in result.block.lower()
    # The erasure is the principal's: another principal's same derivation is replayed onto
    # its own earlier belief as usual.
    restated = STATEMENT.lower().rstrip(".")
    grace = memory.rederive(tenant, "grace", [_address_draft(tenant, "grace", "b-g2", restated)])
    assert grace.count("forgotten") == 0 and grace.count("corrected") == 1
    # The record holds a digest of the derivation, never its statement.
    with memory.pool.connection() as conn:
        records = conn.execute(
            "SELECT t::text FROM erasures t WHERE tenant_id = %s", (tenant,)
        ).fetchall()
    assert records and not any("quiet" in str(r[0]).lower() for r in records)


def test_a_re_derivation_does_not_bring_back_a_principal_forgotten_whole(
    memory: Memory, tenant: str
) -> None:
    """``forget`` of the whole principal kept no digest of its beliefs' derivations: once
    the host wrote the source episode again (its own log keeps the event), formation's
    re-derivation from it wrote the erased sentence back. It is left out as after
    ``forget_belief``; a sentence the principal never said before is written, and the
    record keeps digests, never the sentence."""
    populate(memory, tenant, "ada")
    erasure = memory.forget(tenant, "ada")
    memory.episodes.add({"id": "ep-1", "tenant_id": tenant, "principal_id": "ada",
                         "occurred_at": T0, "content": "Ada told us where she lives."})  # fmt: skip
    outcome = _rederived_with_a_new_sentence(memory, tenant)
    assert [o.action for o in outcome.outcomes] == ["forgotten", "new"]
    assert [b.id for b in memory.beliefs.list(tenant, "ada")] == ["b-garden"]
    with memory.pool.connection() as conn:
        records = conn.execute(
            "SELECT t::text FROM erased_items t WHERE tenant_id = %s", (tenant,)
        ).fetchall()
    assert len(records) == erasure.deleted["beliefs"] + erasure.deleted["episodes"]
    assert not any("quiet" in str(r[0]).lower() or "ep-1" in str(r[0]) for r in records)


def test_a_belief_written_again_after_its_erasure_is_re_derived_as_any_other(
    memory: Memory, tenant: str
) -> None:
    populate(memory, tenant, "ada")
    memory.forget_belief(tenant, "ada", "b-address")
    # The user says it again, and it is added on purpose: the erasure does not stand in
    # the way of what was written after it.
    memory.beliefs.add(_address_draft(tenant, "ada", "b-address-again", STATEMENT))
    outcome = memory.rederive(tenant, "ada", [_address_draft(tenant, "ada", "b-x", STATEMENT)])
    assert [o.action for o in outcome.outcomes] == ["known"]
    assert memory.beliefs.get(tenant, "ada", "b-address-again").state is LifecycleState.ACTIVE


class _Recording:
    """The library's scanner, recording every text it is asked to read."""

    def __init__(self) -> None:
        self.inner = LayeredInjectionScanner()
        self.read: list[str] = []

    @property
    def version(self) -> str:
        return self.inner.version

    def scan(self, text: str) -> str | None:
        self.read.append(text)
        return self.inner.scan(text)


def test_forgetting_empties_the_caches_that_keep_statements_as_keys(
    store_home: Path, tenant: str
) -> None:
    # The recall path remembers scan verdicts and token counts by text; a forgotten
    # statement must not stay there as a key. Seen from the scanner: after the erasure,
    # the statement that remains is read again instead of answered from the cache.
    scanner = _Recording()
    memory = open_memory(
        os.environ.get("RECALLFLOW_DSN"),
        store_home,
        embedder=HashingEmbedder(),
        injection_scanner=scanner,
    )
    try:
        populate(memory, tenant, "ada")
        ask = request(tenant, "ada", "editor", working_state={"entities": ["helix", "editor"]})
        memory.recall(ask, policy=PATIENT)
        scanner.read.clear()
        memory.recall(ask, policy=PATIENT)
        assert "Ada prefers the Helix editor." not in scanner.read  # cached
        memory.forget_belief(tenant, "ada", "b-address-new")
        memory.recall(ask, policy=PATIENT)
        assert "Ada prefers the Helix editor." in scanner.read
    finally:
        memory.close()
