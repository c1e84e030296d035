"""A working state is searched by everything it says, not only its goal.

An agent often knows only what a turn is about — the entity it is looking at, the file
open in the editor — or has only the last few turns to go by. Two such states rendered
nothing from a store that held the answer:

* a state that names entities (or tools, or files) and has no goal, query or turn: the
  names reached only the structured arm, which found the beliefs that carry them, but no
  text query meant no relevance to rank them by, and every one fell under the floor's
  score;
* a state whose last turn is the agent's own reply ("I'll look at it"): only the last
  turn was searched, and what the user asked the turn before was not.

And a turn's speaker label ("Dana: …") was searched as if it were what the turn is about:
the principal's name is in many of the principal's beliefs, which came back whatever the
turn said.
"""

from __future__ import annotations

import pytest

from recallflow import Memory
from recallflow.core.query_forming import DeterministicQueryFormer
from recallflow.models.request import RecallRequest, WorkingState
from tests.helpers import add_named

PRINCIPAL = "dana"

#: A developer's memory of one project; each belief by the name the tests use.
BELIEFS = {
    "idempotency": (
        "Idempotency keys for POST requests are kept in Redis for 24 hours.",
        "idempotency keys",
        ["redis"],
    ),
    "migrations": (
        "Database migrations use Alembic; never edit a migration that has been merged.",
        "migrations",
        ["alembic"],
    ),
    "latency": (
        "The /balances endpoint must keep its p99 latency under 150 ms.",
        "balances latency slo",
        [],
    ),
    "logging": ("The service logs JSON lines through structlog.", "logging library", []),
    "deploy": ("The service deploys to Fly.io with a rolling strategy.", "deploy", ["fly-io"]),
    "money": ("Money is stored as integer cents in bigint columns.", "money", ["cents"]),
    "review": ("Code review comments are phrased as questions.", "review style", []),
    "flags": ("Feature flags come from a self-hosted Unleash server.", "feature flags", []),
    "merges": ("Dana prefers squash merges to keep a linear history.", "merge style", []),
    "hours": ("Dana takes no meetings before ten in the morning.", "working hours", []),
    "editor": ("Dana edits code in Neovim.", "editor", []),
    "e2e": ("End-to-end tests run with Detox on an Android emulator.", "e2e tests", []),
}


@pytest.fixture
def stored(memory: Memory, tenant: str) -> dict[str, str]:
    """The beliefs stored for ``tenant``; the stored id of each by its name here."""
    return add_named(
        memory,
        tenant,
        PRINCIPAL,
        BELIEFS,
        scope="project",
        origin_project="ledger-api",
        confidence=0.8,
    )


def _rendered(memory: Memory, tenant: str, state: WorkingState) -> tuple[str, ...]:
    request = RecallRequest(
        tenant_id=tenant, principal_id=PRINCIPAL, project="ledger-api", working_state=state
    )
    return memory.recall(request).rendered_ids


@pytest.mark.parametrize(
    ("names", "expected"),
    [(("Redis",), "idempotency"), (("alembic",), "migrations"), (("Fly.io",), "deploy")],
)
def test_a_state_that_only_names_an_entity_recalls_the_beliefs_about_it(
    memory: Memory, tenant: str, stored: dict[str, str], names: tuple[str, ...], expected: str
) -> None:
    rendered = _rendered(memory, tenant, WorkingState(entities=names))
    assert stored[expected] in rendered
    assert stored["review"] not in rendered


def test_a_state_that_only_lists_a_file_recalls_the_beliefs_its_name_is_about(
    memory: Memory, tenant: str, stored: dict[str, str]
) -> None:
    rendered = _rendered(memory, tenant, WorkingState(files=("e2e/login.detox.ts",)))
    assert stored["e2e"] in rendered


def test_a_state_that_only_names_an_entity_the_memory_lacks_recalls_nothing(
    memory: Memory, tenant: str, stored: dict[str, str]
) -> None:
    assert _rendered(memory, tenant, WorkingState(entities=("Kafka",))) == ()


def test_a_turn_before_the_agents_own_reply_is_searched(
    memory: Memory, tenant: str, stored: dict[str, str]
) -> None:
    state = WorkingState(
        recent_turns=(
            "User: the p99 latency of the balances endpoint regressed after the release",
            "Assistant: I'll look at the query plan.",
        )
    )
    assert stored["latency"] in _rendered(memory, tenant, state)


def test_names_become_a_text_query_only_when_the_state_has_no_text() -> None:
    former = DeterministicQueryFormer()
    alone = former.form(WorkingState(entities=("Redis",), files=("src/cache.py",)))
    assert [(q.text, q.source) for q in alone if q.kind == "text"] == [("Redis, cache", "names")]
    with_goal = former.form(WorkingState(goal="Speed up the cache", entities=("Redis",)))
    assert [q.source for q in with_goal if q.kind == "text"] == ["goal"]


def test_a_turns_speaker_label_is_not_searched_as_its_topic(
    memory: Memory, tenant: str, stored: dict[str, str]
) -> None:
    state = WorkingState(
        recent_turns=(
            "Dana: the p99 latency of the balances endpoint regressed after the release",
            "Assistant: I'll look at the query plan.",
        )
    )
    rendered = _rendered(memory, tenant, state)
    assert stored["latency"] in rendered
    assert not {stored["merges"], stored["hours"], stored["editor"]} & set(rendered)
    texts = [q.text for q in DeterministicQueryFormer().form(state) if q.kind == "text"]
    assert texts == [
        "I'll look at the query plan.",
        "the p99 latency of the balances endpoint regressed after the release",
    ]


def test_only_a_speakers_name_or_role_is_taken_for_a_label() -> None:
    turns = (
        "deploy failed: timeout on the balances endpoint",
        "TypeError: balance is undefined",
        "assistant: checking the logs",
        "Mary Jane: the export is late",
    )
    texts = [q.text for q in DeterministicQueryFormer().form(WorkingState(recent_turns=turns[1:]))]
    assert texts[:3] == ["the export is late", "checking the logs", turns[1]]
    (first, *_) = DeterministicQueryFormer().form(WorkingState(recent_turns=turns[:1]))
    assert first.text == turns[0]
