"""Forgetting erases exactly the forgotten item, on the real embedded server: a stored
record that merely holds the same words — a longer statement that contains a short one
("Yes", a name), another belief that reads the same — keeps them, in a trace's views and
in a session's prefix and fingerprints; and what is the item's own goes even where it no
longer reads as its statement (a view that redacted a name) — see "Forgetting" in
docs/corrections.md."""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from psycopg import sql

from recallflow import Memory, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder, _feature_hash
from tests.helpers import belief, patient_policy, request

PATIENT = patient_policy()
LONG = "Yes, Ada prefers green tea over coffee."


def _beliefs(memory: Memory, tenant: str) -> None:
    """A short statement, a longer one that contains it, and another belief that reads the
    same as the short one, all recalled by one ask."""
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                "ada",
                id=bid,
                statement=statement,
                subject=subject,
                entities=["drink"],
                belief_type="preference",
                source_authority="user_stated",
            )
            for bid, statement, subject in (
                ("b-yes", "Yes", "answer"),
                ("b-long", LONG, "drink"),
                ("b-yes-too", "Yes", "answer-again"),
            )
        ]
    )


def _ask(tenant: str) -> dict[str, Any]:
    return request(tenant, "ada", "what does Ada drink", working_state={"entities": ["drink"]})


def _stored(memory: Memory, tenant: str, trace_id: str) -> tuple[str, str]:
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT operator_view::text, user_view::text FROM recall_traces"
            " WHERE tenant_id = %s AND principal_id = 'ada' AND id = %s",
            (tenant, trace_id),
        ).fetchone()
    assert row is not None
    return str(row[0]), str(row[1])


def test_forgetting_a_short_statement_keeps_the_traces_that_only_contain_it(
    memory: Memory, tenant: str
) -> None:
    _beliefs(memory, tenant)
    shown = memory.recall(_ask(tenant), policy=PATIENT)
    assert set(shown.rendered_ids) == {"b-yes", "b-long", "b-yes-too"}
    # A trace that never showed the short belief, though its block holds the word.
    memory.beliefs.add(
        belief(tenant, "ada", id="b-tea", statement=LONG.replace("Ada", "Grace"), subject="tea")
    )
    # (It names an entity: a question naming no one would also load the holders of the
    # tea belief's rare entities as bridges, b-yes among them, into its operator view.)
    other = memory.recall(
        request(tenant, "ada", "green tea", working_state={"entities": ["tea"]}), policy=PATIENT
    )
    assert "b-yes" not in other.rendered_ids and "Yes," in other.block
    other_before = _stored(memory, tenant, other.trace_id)
    before = {i.belief_id: i.statement for i in memory.explain(tenant, "ada", shown.trace_id).items}

    erasure = memory.forget_belief(tenant, "ada", "b-yes")

    assert erasure.scrubbed == {"recall_traces.operator_view": 1, "recall_traces.user_view": 1}
    after = memory.explain(tenant, "ada", shown.trace_id)
    statements = {i.belief_id: i.statement for i in after.items}
    # Its own item reads [erased]; the longer statement and the same words of another
    # belief are theirs and stay, word for word.
    assert statements == {
        "[erased]": "[erased]",
        "b-long": before["b-long"],
        "b-yes-too": before["b-yes-too"],
    }
    assert before["b-long"] == LONG and before["b-yes-too"] == "Yes"
    assert "b-yes" not in memory.trace(tenant, "ada", shown.trace_id).rendered_ids
    # The trace that did not show it is stored byte for byte as it was.
    assert _stored(memory, tenant, other.trace_id) == other_before
    assert memory.explain(tenant, "ada", other.trace_id).items[0].statement != "[erased]"


def test_a_session_keeps_the_lines_and_fingerprints_of_beliefs_holding_the_same_words(
    memory: Memory, tenant: str
) -> None:
    """The prefix loses the forgotten belief's line only; the beliefs whose words hold or
    repeat its statement keep their lines, and the next turn tells the one forgotten belief
    and nothing about the others (their fingerprints are what the agent was told)."""
    _beliefs(memory, tenant)
    session = memory.open_session(tenant, "ada", policy=PATIENT)
    assert {"b-yes", "b-long", "b-yes-too"} <= set(session.snapshot_ids)
    prefix = session.prefix.decode()

    memory.forget_belief(tenant, "ada", "b-yes")

    resumed = memory.resume_session(tenant, "ada", session.id, policy=PATIENT).prefix.decode()
    kept = [line for line in prefix.split("\n") if "[b-yes]" not in line]
    assert [line for line in resumed.split("\n") if "[b-yes]" not in line] == kept
    assert any(line.endswith(LONG) for line in kept)
    assert any(line.startswith("- [b-yes-too] (") and line.endswith(" Yes") for line in kept)
    own = [line for line in resumed.split("\n") if line.startswith("- [b-yes] (")]
    assert len(own) == 1 and own[0].endswith(") [erased]")
    told = session.recall({"goal": "what does Ada drink"})
    assert [(c.belief_id, c.kind.value) for c in told.trace.corrections] == [("b-yes", "forgotten")]


def test_a_forgotten_item_shown_redacted_leaves_nothing_of_its_words(
    memory: Memory, tenant: str
) -> None:
    """A surface below a marked name's level saw the statement with the name redacted: the
    view no longer reads as the statement, and is the item's all the same."""
    memory.beliefs.add(
        belief(
            tenant,
            "ada",
            id="b-pickup",
            statement="Maya Lindqvist is picked up from the Elmwood school at 3pm.",
            subject="pickup",
            entities=["school"],
        )
    )
    memory.entities.mark(tenant, "ada", "Maya Lindqvist", "personal")
    team = memory.recall(
        request(tenant, "ada", "school", working_state={"entities": ["school"]}, surface="team"),
        policy=PATIENT,
    )
    assert "b-pickup" in team.rendered_ids and "Maya" not in team.block
    memory.forget_belief(tenant, "ada", "b-pickup")
    operator, user = _stored(memory, tenant, team.trace_id)
    assert "Elmwood" not in operator and "Elmwood" not in user
    assert "b-pickup" not in operator and "b-pickup" not in user


class _Recording:
    """The hashing embedder, recording every query text it is asked to embed."""

    def __init__(self) -> None:
        self.inner = HashingEmbedder()
        self.asked: list[str] = []

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def forget_texts(self) -> None:
        self.inner.forget_texts()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.inner.embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.asked.extend(texts)
        return self.inner.embed_queries(texts)


@pytest.mark.parametrize("forgotten", ["episode", "belief"])
def test_no_forgotten_text_stays_in_the_process_as_a_remembered_query(
    store_home: Path, tenant: str, forgotten: str
) -> None:
    """A recall whose query was the forgotten text itself (the episode pasted, the
    statement typed back) left it as a key of the query vectors the process remembers;
    after the erasure the text is embedded again instead of answered from memory, and the
    hashing embedder keeps none of its features."""
    embedder = _Recording()
    memory = open_memory(os.environ.get("RECALLFLOW_DSN"), store_home, embedder=embedder)
    text = "Ada said her cat Zorblaxine hates thunderstorms."
    try:
        if forgotten == "episode":
            memory.episodes.add(
                {
                    "id": "ep-cat",
                    "tenant_id": tenant,
                    "principal_id": "ada",
                    "occurred_at": datetime(2026, 3, 1, tzinfo=UTC),
                    "content": text,
                }
            )
        else:
            memory.beliefs.add(belief(tenant, "ada", id="b-cat", statement=text, subject="pet"))
        memory.recall(request(tenant, "ada", text), policy=PATIENT)
        embedder.asked.clear()
        memory.recall(request(tenant, "ada", text), policy=PATIENT)
        assert text not in embedder.asked  # remembered
        if forgotten == "episode":
            memory.forget_episode(tenant, "ada", "ep-cat")
        else:
            memory.forget_belief(tenant, "ada", "b-cat")
        assert _feature_hash.cache_info().currsize == 0
        memory.recall(request(tenant, "ada", text), policy=PATIENT)
        assert text in embedder.asked
    finally:
        memory.close()


def everywhere(memory: Memory, tenant: str, needle: str) -> list[str]:
    """Every ``table.column`` of every table of the schema holding ``needle`` (any case):
    text, arrays, JSON, full-text documents and bytes alike, found in the catalog; a table
    with a tenant is read for ``tenant`` only (other tests share the store), one without
    is read whole (it must hold nothing of anyone)."""
    hits = []
    with memory.pool.connection() as conn:
        columns = conn.execute(
            "SELECT c.table_name, c.column_name, c.data_type,"
            " EXISTS (SELECT 1 FROM information_schema.columns k"
            "  WHERE k.table_schema = c.table_schema AND k.table_name = c.table_name"
            "  AND k.column_name = 'tenant_id')"
            " FROM information_schema.columns c JOIN information_schema.tables t"
            " ON t.table_schema = c.table_schema AND t.table_name = c.table_name"
            " AND t.table_type = 'BASE TABLE' WHERE c.table_schema = current_schema()"
            " AND c.data_type IN ('text', 'character varying', 'json', 'jsonb', 'bytea',"
            " 'ARRAY', 'tsvector')"
        ).fetchall()
        for table, column, data_type, tenanted in columns:
            value = sql.SQL("encode({}, 'escape')" if data_type == "bytea" else "{}::text")
            scope = sql.SQL("tenant_id = %s AND " if tenanted else "")
            found = conn.execute(
                sql.SQL(
                    "SELECT count(*) FROM {t} WHERE {s} strpos(lower({v}), lower(%s)) > 0"
                ).format(t=sql.Identifier(table), s=scope, v=value.format(sql.Identifier(column))),
                (tenant, needle) if tenanted else (needle,),
            ).fetchone()
            if found and found[0]:
                hits.append(f"{table}.{column}")
    return sorted(hits)


def vector_rows(memory: Memory, tenant: str, vector: npt.NDArray[np.float32]) -> list[str]:
    """Every ``table.column`` of a vector type holding ``vector`` in a row of ``tenant``."""
    literal = "[" + ",".join(str(float(x)) for x in vector) + "]"
    hits = []
    with memory.pool.connection() as conn:
        columns = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND udt_name = 'vector'"
        ).fetchall()
        for table, column in columns:
            found = conn.execute(
                sql.SQL(
                    "SELECT count(*) FROM {t} WHERE tenant_id = %s AND {c} = %s::vector"
                ).format(t=sql.Identifier(table), c=sql.Identifier(column)),
                (tenant, literal),
            ).fetchone()
            if found and found[0]:
                hits.append(f"{table}.{column}")
    return sorted(hits)


EPISODE_TEXT = "Ada said her cat Zorblaxine was adopted at the Thunderquail shelter."
SECRET = "Maya Lindqvist feeds Ada's cat Zorblaxine on Tuesdays."


def test_forgetting_leaves_nothing_of_the_item_in_any_column_of_any_table(
    memory: Memory, tenant: str
) -> None:
    """After forgetting a belief, then its source episode, then the whole principal, every
    column of every table is searched for the statement, the id, the episode's text and a
    word of each that nothing else holds; what stays is what the docs say stays (a
    session keeps a forgotten belief's id) and no more. The belief was shown on a surface
    that redacted a name, in a session's prefix, and asked for by its own words."""
    memory.episodes.add(
        {
            "id": "ep-secret",
            "tenant_id": tenant,
            "principal_id": "ada",
            "occurred_at": datetime(2026, 3, 1, tzinfo=UTC),
            "content": EPISODE_TEXT,
            "sensitivity": "public",
        }
    )
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                "ada",
                id="b-secret",
                statement=SECRET,
                subject="cat feeding",
                entities=["cat"],
                belief_type="preference",
                source_authority="user_stated",
                source_episode_id="ep-secret",
            ),
            belief(tenant, "ada", id="b-shell", statement="Ada's shell is zsh.", subject="shell"),
        ]
    )
    memory.entities.mark(tenant, "ada", "Maya Lindqvist", "personal")
    session = memory.open_session(tenant, "ada", policy=PATIENT)
    assert "b-secret" in session.snapshot_ids
    ask = {"working_state": {"entities": ["cat"]}}
    for surface in ("direct", "team"):
        shown = memory.recall(
            request(tenant, "ada", "who feeds the cat", surface=surface, **ask), policy=PATIENT
        )
        assert "b-secret" in shown.rendered_ids
    memory.cite(tenant, "ada", shown.trace_id, ["b-secret"])
    memory.reject(tenant, "ada", shown.trace_id, "b-secret", "unspecified")
    memory.corroborate(tenant, "ada", "b-secret", "home", "ep-secret")
    memory.recall(request(tenant, "ada", SECRET), policy=PATIENT)  # its own words, asked
    memory.recall(request(tenant, "ada", EPISODE_TEXT), policy=PATIENT)  # the episode pasted
    session.recall({"goal": "who feeds the cat"})
    memory.search_episodes({"tenant_id": tenant, "principal_id": "ada", "query": "adopted cat"})
    embedder = HashingEmbedder()
    assert everywhere(memory, tenant, "tuesdays") and everywhere(memory, tenant, "thunderquail")

    memory.forget_belief(tenant, "ada", "b-secret")

    for needle in (SECRET, "tuesdays", "feeds Ada"):
        assert everywhere(memory, tenant, needle) == [], needle
    # A session keeps the id (its prefix line's head, its frozen entry), for the correction
    # its next turn tells (documented).
    kept = ["sessions.prefix", "sessions.snapshot_beliefs"]
    assert everywhere(memory, tenant, "b-secret") == kept
    assert vector_rows(memory, tenant, embedder.embed([SECRET])[0]) == []
    told = session.recall({"goal": "who feeds the cat"})
    assert "- [b-secret] forgotten: do not use it" in told.block and "Tuesdays" not in told.block

    memory.forget_episode(tenant, "ada", "ep-secret")

    for needle in (EPISODE_TEXT, "thunderquail", "ep-secret"):
        assert everywhere(memory, tenant, needle) == [], needle
    assert vector_rows(memory, tenant, embedder.embed([EPISODE_TEXT])[0]) == []

    memory.forget(tenant, "ada")

    for needle in ("zsh", "zorblaxine", "lindqvist", "b-shell", "b-secret", '"ada"'):
        assert everywhere(memory, tenant, needle) == [], needle
    with memory.pool.connection() as conn:
        left = conn.execute(
            "SELECT count(*) FROM information_schema.columns WHERE table_schema ="
            " current_schema() AND column_name = 'principal_id'"
        ).fetchone()
    assert left and left[0] > 0


@pytest.mark.parametrize("forgotten", ["episode", "belief"])
def test_a_query_that_was_the_forgotten_text_loses_the_keys_read_out_of_it(
    memory: Memory, tenant: str, forgotten: str
) -> None:
    """The trace of a recall asked with the forgotten text itself loses that query, and the
    names the query former read out of it into the structured query go with it; a query
    that asked about something else keeps its words."""
    text = "Ada adopted Zorblaxine from the Thunderquail shelter in March."
    if forgotten == "episode":
        memory.episodes.add(
            {
                "id": "ep-cat",
                "tenant_id": tenant,
                "principal_id": "ada",
                "occurred_at": datetime(2026, 3, 1, tzinfo=UTC),
                "content": text,
            }
        )
    else:
        memory.beliefs.add(belief(tenant, "ada", id="b-cat", statement=text, subject="pet"))
    for _ in range(3):  # a miss of the episode's words, each time (nothing else is stored)
        pasted = memory.recall(request(tenant, "ada", text), policy=PATIENT)
    other = memory.recall(request(tenant, "ada", "Did Ada visit Thunderquail?"), policy=PATIENT)
    memory.recall(request(tenant, "ada", "Is Zorblaxine hungry?"), policy=PATIENT)
    keys = [q.keys for q in memory.trace(tenant, "ada", pasted.trace_id).queries if q.keys]
    assert keys and "thunderquail" in keys[0]
    own_subject = "march thunderquail zorblaxine"
    others = {"ada thunderquail", "zorblaxine"}  # asked in words of their own
    assert set(hints(memory, tenant)) == others | (
        {own_subject} if forgotten == "episode" else set()
    )
    if forgotten == "episode":
        memory.forget_episode(tenant, "ada", "ep-cat")
    else:
        memory.forget_belief(tenant, "ada", "b-cat")
    after = memory.trace(tenant, "ada", pasted.trace_id).model_dump_json().lower()
    assert "thunderquail" not in after and "zorblaxine" not in after
    asked = memory.trace(tenant, "ada", other.trace_id).queries
    assert asked[0].text == "Did Ada visit Thunderquail?"
    assert set(hints(memory, tenant)) == others


def hints(memory: Memory, tenant: str) -> list[str]:
    """The subjects of the miss hints of ``tenant``'s ada, queued or counting."""
    with memory.pool.connection() as conn:
        rows = conn.execute(
            "SELECT subject FROM miss_hints WHERE tenant_id = %s AND principal_id = 'ada'",
            (tenant,),
        ).fetchall()
    return [str(r[0]) for r in rows]


@pytest.mark.parametrize("word", ["medium", "in_turn", "direct"])
def test_a_statement_that_is_a_word_of_the_traces_vocabulary_leaves_the_trace_readable(
    memory: Memory, tenant: str, word: str
) -> None:
    """A forgotten statement that reads as a band, a moment or a surface ("medium") was
    scrubbed wherever a trace held that word, its band, moment or surface fields too: the
    views read back as ``[erased]``, and ``explain`` and ``trace`` of the recall raised
    ValueError and ValidationError. Those fields hold the vocabulary's word, never the
    user's: the statement goes, the view reads as before."""
    memory.beliefs.add_many(
        [
            belief(tenant, "ada", id="b-shell", statement="Ada's shell is zsh.", subject="shell"),
            belief(tenant, "ada", id="b-word", statement=word, subject="shell", entities=[word]),
        ]
    )
    result = memory.recall(
        request(tenant, "ada", goal=f"zsh shell {word}", working_state={"entities": [word]}),
        policy=PATIENT,
    )
    assert "b-word" in result.rendered_ids, result.rendered_ids
    memory.forget_belief(tenant, "ada", "b-word")
    view = memory.explain(tenant, "ada", result.trace_id)
    assert {i.band.value for i in view.items} == {"medium"}  # the forgotten item's too
    assert view.surface.value == "direct" and view.moment.value == "in_turn"
    trace = memory.trace(tenant, "ada", result.trace_id)
    assert trace.surface.value == "direct"
    assert word not in [i.statement for i in view.items]
