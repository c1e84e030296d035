"""Forgetting one episode on the real embedded server: archival search on every surface
and through the agent's tool no longer finds it, no column of any table of the principal
holds its text or its id, the trace views of recalls that showed a belief derived from it
no longer name it, the beliefs derived from it stay — and nobody else's episode of the
same id changes (see "Forgetting" in docs/corrections.md)."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

import pytest
from psycopg import sql

from recallflow import Memory, NotFoundError, Surface
from recallflow.tools import Toolset
from tests.helpers import belief, patient_policy, request

PATIENT = patient_policy()
T0 = datetime(2026, 3, 1, tzinfo=UTC)
EPISODE = "ep-stripe"
CONTENT = "We decided to use Stripe for the checkout payments after the pricing review."
QUERY = "which payments provider did we decide on for checkout?"


def add_episode(memory: Memory, tenant: str, principal: str, episode_id: str = EPISODE) -> None:
    memory.episodes.add(
        {
            "id": episode_id,
            "tenant_id": tenant,
            "principal_id": principal,
            "project": "shop",
            "occurred_at": T0,
            "content": CONTENT,
            "sensitivity": "public",  # every surface may see it
        }
    )


def populate(memory: Memory, tenant: str, principal: str) -> str:
    """The episode, a belief derived from it and corroborated by it, and a stored recall
    whose user pasted the episode's words and was shown the belief; returns the trace id."""
    add_episode(memory, tenant, principal)
    memory.beliefs.add(
        belief(
            tenant,
            principal,
            id="b-stripe",
            statement="The checkout takes card payments through Stripe.",
            subject="payments-provider",
            entities=["stripe", "checkout"],
            recorded_at=T0,
            scope="project",
            origin_project="shop",
            sensitivity="public",
            source_episode_id=EPISODE,
        )
    )
    memory.corroborate(tenant, principal, "b-stripe", "shop", EPISODE)
    result = memory.recall(
        request(tenant, principal, CONTENT, project="shop", working_state={"entities": ["stripe"]}),
        policy=PATIENT,
    )
    assert "b-stripe" in result.rendered_ids
    return result.trace_id


def searched(memory: Memory, tenant: str, principal: str, surface: Surface) -> Any:
    return memory.search_episodes(
        {"tenant_id": tenant, "principal_id": principal, "query": QUERY, "surface": surface}
    )


def holding(memory: Memory, tenant: str, principal: str, needle: str) -> list[str]:
    """Every ``table.column`` of the schema holding ``needle`` in a row of the principal:
    text, arrays, JSON and bytes alike, found in the catalog (so a later table counts)."""
    hits = []
    with memory.pool.connection() as conn:
        columns = conn.execute(
            "SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c"
            " JOIN information_schema.columns k ON k.table_schema = c.table_schema"
            "  AND k.table_name = c.table_name AND k.column_name = 'principal_id'"
            " JOIN information_schema.tables t ON t.table_schema = c.table_schema"
            "  AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'"
            " WHERE c.table_schema = current_schema()"
            " AND c.data_type IN ('text', 'json', 'jsonb', 'bytea', 'ARRAY', 'tsvector')"
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


def test_forget_episode_erases_it_from_every_surface_and_keeps_its_beliefs(
    memory: Memory, tenant: str
) -> None:
    trace_id = populate(memory, tenant, "ada")
    for surface in Surface:  # found before, on every surface
        assert EPISODE in searched(memory, tenant, "ada", surface).rendered_ids, surface
    assert memory.explain(tenant, "ada", trace_id).items[0].source_episode_id == EPISODE
    assert holding(memory, tenant, "ada", "pricing review")  # the episode, the trace

    erasure = memory.forget_episode(tenant, "ada", EPISODE)

    assert erasure.scope == "episode"
    assert erasure.deleted["episodes"] == 1
    assert erasure.deleted["belief_events"] == 1  # the corroboration it was evidence of
    assert erasure.restated == 1  # b-stripe's reference to it
    assert erasure.scrubbed  # the stored trace quoted it
    # Archival search, on every surface and through the agent's tool, finds nothing of it.
    for surface in Surface:
        found = searched(memory, tenant, "ada", surface)
        assert EPISODE not in found.rendered_ids and "pricing review" not in found.block
    tool = Toolset(memory, tenant_id=tenant, principal_id="ada").call(
        "search_episodes", {"query": QUERY}
    )
    assert "pricing review" not in json.dumps(tool) and EPISODE not in json.dumps(tool)
    # No column of any table of the principal holds its words or names it.
    for needle in ("pricing review", "pricing", EPISODE):
        assert holding(memory, tenant, "ada", needle) == [], needle
    # The user's and the operator's views of the trace: the belief shown, the episode gone.
    for viewer in Surface:
        view = memory.explain(tenant, "ada", trace_id, viewer_surface=viewer)
        assert "pricing review" not in view.model_dump_json() and EPISODE not in str(view)
    assert [i.belief_id for i in memory.explain(tenant, "ada", trace_id).items] == ["b-stripe"]
    operator = memory.trace(tenant, "ada", trace_id).model_dump_json()
    assert "pricing review" not in operator and EPISODE not in operator
    # The derived belief stays, without the reference; the user forgets it on its own.
    kept = memory.beliefs.get(tenant, "ada", "b-stripe")
    assert kept.source_episode_id is None
    assert "b-stripe" in memory.recall(request(tenant, "ada", "stripe checkout")).rendered_ids
    # An audited record: a digest of the episode, counts, no id and no content.
    with memory.pool.connection() as conn:
        record = conn.execute(
            "SELECT scope, episode_sha256, belief_sha256, counts::text FROM erasures"
            " WHERE tenant_id = %s",
            (tenant,),
        ).fetchone()
    assert record is not None and record[0] == "episode" and record[2] is None
    digest = hashlib.sha256(json.dumps([tenant, "ada", EPISODE]).encode()).hexdigest()
    assert record[1] == digest
    assert EPISODE not in record[3] and "Stripe" not in record[3]


def test_forget_episode_leaves_the_same_id_of_others_untouched(memory: Memory, tenant: str) -> None:
    """Another principal of the tenant, and the same principal id in another tenant, hold
    an episode of the same id and words: neither changes, nor does its search."""
    populate(memory, tenant, "ada")
    others = ((tenant, "grace"), (f"{tenant}-b", "ada"))
    for t, p in others:
        populate(memory, t, p)
    before = {(t, p): holding(memory, t, p, "pricing review") for t, p in others}
    memory.forget_episode(tenant, "ada", EPISODE)
    for t, p in others:
        assert holding(memory, t, p, "pricing review") == before[(t, p)]
        assert memory.episodes.get(t, p, EPISODE).content == CONTENT
        assert memory.beliefs.get(t, p, "b-stripe").source_episode_id == EPISODE
        for surface in Surface:
            assert EPISODE in searched(memory, t, p, surface).rendered_ids


def test_a_foreign_forgotten_or_missing_episode_fails_alike(memory: Memory, tenant: str) -> None:
    """Another principal's episode, one forgotten already, and one nobody has: the same
    NotFoundError word for word (the id apart), and nothing is erased."""
    add_episode(memory, tenant, "grace", "ep-grace")
    add_episode(memory, tenant, "ada", "ep-gone")
    memory.forget_episode(tenant, "ada", "ep-gone")
    messages = []
    for episode_id in ("ep-grace", "ep-gone", "ep-nowhere"):
        with pytest.raises(NotFoundError) as raised:
            memory.forget_episode(tenant, "ada", episode_id)
        messages.append(str(raised.value).replace(episode_id, "ID"))
    assert len(set(messages)) == 1, messages
    assert memory.episodes.get(tenant, "grace", "ep-grace").content == CONTENT
    with memory.pool.connection() as conn:
        count = conn.execute(
            "SELECT count(*) FROM erasures WHERE tenant_id = %s", (tenant,)
        ).fetchone()
    assert count == (1,)  # only the one erasure that found its episode


@pytest.mark.parametrize(
    ("args", "field"),
    [(("", "ada", EPISODE), "tenant_id"), (("t", "ada", "bad id"), "episode_id")],
)
def test_forget_episode_with_a_bad_id_is_typed_and_erases_nothing(
    memory: Memory, tenant: str, args: tuple[str, str, str], field: str
) -> None:
    from recallflow import InvalidInputError

    add_episode(memory, tenant, "ada")
    with pytest.raises(InvalidInputError) as raised:
        memory.forget_episode(*args)
    assert raised.value.field == field
    assert memory.episodes.get(tenant, "ada", EPISODE).content == CONTENT


def test_an_episode_sharing_its_id_with_a_live_belief_leaves_that_belief_in_its_traces(
    memory: Memory, tenant: str
) -> None:
    """Ids are the caller's, and a belief may have the id of an episode: forgetting the
    episode takes its text from the traces, never the belief's id or line."""
    add_episode(memory, tenant, "ada", "note-1")
    memory.beliefs.add(
        belief(
            tenant,
            "ada",
            id="note-1",
            statement="The team ships releases on Thursdays.",
            subject="release-day",
            entities=["release"],
            sensitivity="public",
        )
    )
    asked = request(tenant, "ada", "release day", working_state={"entities": ["release"]})
    trace_id = memory.recall(asked, policy=PATIENT).trace_id
    before = memory.explain(tenant, "ada", trace_id)
    assert [i.belief_id for i in before.items] == ["note-1"]
    memory.forget_episode(tenant, "ada", "note-1")
    after = memory.explain(tenant, "ada", trace_id)
    assert after == before and not after.items[0].forgotten
    assert memory.trace(tenant, "ada", trace_id).rendered_ids == ("note-1",)
    assert holding(memory, tenant, "ada", "pricing review") == []
