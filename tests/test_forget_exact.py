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
    other = memory.recall(request(tenant, "ada", "green tea", working_state={}), policy=PATIENT)
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
