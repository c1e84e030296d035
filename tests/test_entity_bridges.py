"""A question answered through a person another belief names renders both beliefs of
the chain (see "Relevance floor" in docs/architecture.md).

"Where does the person who pays for the piano lessons live?" finds "My sister Ingeborg
pays for the piano lessons", and "Ingeborg has a flat in Tromsø" holds nothing of the
question but her name: no arm returned it, and the block rendered only the first belief.
The candidates' load now also loads the other holders of an entity few beliefs share
that the query does not name, held by one of the first candidates (with no arm's vote),
and the floor keeps such a neighbour of the first belief that clears, after the rest;
the trace says which belief it was kept beside and through which entity. The bridge
never crosses the hard filter: a belief of another principal, one above the surface's
ceiling, a retired one or one not yet valid that holds the name is neither loaded nor
counted, and an entity most beliefs hold (the user's husband) is no bridge. A question
that names the person itself asks about her directly: nothing is kept as a bridge.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from recallflow import Memory
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.result import RecallResult
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy
from recallflow.visualizations.trace_view import trace_summary
from tests.helpers import embedder_or_skip, named_memory

TENANT, PRINCIPAL = "fjord", "solveig"

#: A family's memory: Ingeborg named by two beliefs, Oskar (the husband) by most.
FAMILY: dict[str, dict[str, object]] = {
    "lessons": {
        "statement": "My sister Ingeborg pays for the children's piano lessons every term.",
        "subject": "piano lessons",
        "entities": ["Ingeborg"],
    },
    "ingeborg": {
        "statement": "Ingeborg has a flat in Tromsø and works as a marine biologist.",
        "subject": "ingeborg",
        "entities": ["Ingeborg", "Tromsø"],
    },
    "school": {
        "statement": "Oskar drives the children to school on Mondays and Thursdays.",
        "subject": "school run",
        "entities": ["Oskar"],
    },
    "car": {
        "statement": "Oskar's car is a blue Volvo estate from 2016.",
        "subject": "car",
        "entities": ["Oskar", "Volvo"],
    },
    "football": {
        "statement": "Oskar supports Rosenborg and never misses a home match.",
        "subject": "football",
        "entities": ["Oskar", "Rosenborg"],
    },
    "cats": {
        "statement": "Oskar is allergic to cats, so we keep no pets.",
        "subject": "pets",
        "entities": ["Oskar"],
    },
    "cabin": {
        "statement": "Oskar and I rent a cabin near Røros every February.",
        "subject": "cabin",
        "entities": ["Oskar", "Røros"],
    },
    "dinner": {
        "statement": "Oskar cooks on Fridays; fish soup is his favourite dish.",
        "subject": "dinner",
        "entities": ["Oskar"],
    },
    "violin": {
        "statement": "Oskar played the violin in a youth orchestra in Trondheim.",
        "subject": "violin",
        "entities": ["Oskar", "Trondheim"],
    },
    "dentist": {
        "statement": "The children's dentist is in Lade, and check-ups are every six months.",
        "subject": "dentist",
        "entities": ["Lade"],
    },
}

QUESTION = "Where does the person who pays for the piano lessons live?"


@pytest.fixture(scope="module", params=["hashing", "minilm"])
def embedder_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def family(memory: Memory, embedder_name: str) -> Iterator[tuple[Memory, dict[str, str]]]:
    """The family's memory in a database of its own, and each belief's stored id."""
    with named_memory(
        memory.uri,
        f"recallflow_entity_bridges_{embedder_name}",
        embedder_or_skip(embedder_name),
        (TENANT, PRINCIPAL),
        FAMILY,
        source_authority="user_stated",
    ) as held:
        yield held


@pytest.fixture(scope="module")
def guarded(memory: Memory, embedder_name: str) -> Iterator[tuple[Memory, dict[str, str]]]:
    """The family's memory with beliefs that also name Ingeborg but that the recall may
    not see: another principal's, a secret one and a retired one."""
    hidden: dict[str, dict[str, object]] = {
        "secret": {
            "statement": "Ingeborg's bank PIN is 4471, the same as her Tromsø flat's door code.",
            "subject": "ingeborg pin",
            "entities": ["Ingeborg", "Tromsø"],
            "sensitivity": "secret",
        },
        "retired": {
            "statement": "Ingeborg lives in Bergen with her partner.",
            "subject": "ingeborg old address",
            "entities": ["Ingeborg"],
        },
        "future": {
            "statement": "Ingeborg starts a post at the university in Tromsø.",
            "subject": "ingeborg job",
            "entities": ["Ingeborg", "Tromsø"],
            "valid_from": datetime.now(UTC) + timedelta(days=60),
        },
    }
    with named_memory(
        memory.uri,
        f"recallflow_entity_bridges_guarded_{embedder_name}",
        embedder_or_skip(embedder_name),
        (TENANT, PRINCIPAL),
        {**FAMILY, **hidden},
        source_authority="user_stated",
    ) as (mem, ids):
        mem.retire(TENANT, PRINCIPAL, ids["retired"])
        (other,) = mem.beliefs.add_many(
            [
                {
                    "tenant_id": TENANT,
                    "principal_id": "someone-else",
                    "statement": "Ingeborg moved from Tromsø to Oslo for a new job last spring.",
                    "subject": "ingeborg",
                    "entities": ["Ingeborg", "Tromsø"],
                    "scope": "user",
                    "confidence": 0.9,
                    "source_authority": "user_stated",
                }
            ]
        )
        yield mem, {**ids, "other": other.id}


def _recall(memory: Memory, goal: str, policy: RetrievalPolicy = DEFAULT_POLICY) -> RecallResult:
    return memory.recall(
        RecallRequest(
            tenant_id=TENANT, principal_id=PRINCIPAL, working_state=WorkingState(goal=goal)
        ),
        policy=policy,
        persist_trace=False,
    )


def _rendered(result: RecallResult, ids: dict[str, str]) -> list[str]:
    names = {stored: name for name, stored in ids.items()}
    return [names.get(i, i) for i in result.rendered_ids]


def test_a_question_through_a_named_person_renders_both_beliefs(
    family: tuple[Memory, dict[str, str]],
) -> None:
    memory, ids = family
    result = _recall(memory, QUESTION)
    rendered = _rendered(result, ids)
    assert rendered[:1] == ["lessons"]
    assert "ingeborg" in rendered
    # No arm voted for it: it is no arm's hit, only a candidate the load added.
    assert not any(h.belief_id == ids["ingeborg"] for a in result.trace.arms for h in a.hits)


def test_the_trace_names_the_belief_and_the_entity_that_bridged(
    family: tuple[Memory, dict[str, str]],
) -> None:
    """The operator trace says the second belief was kept only beside the first, through
    Ingeborg, and its summary prints it under the rendered item."""
    memory, ids = family
    result = _recall(memory, QUESTION)
    assert [(b.belief_id, b.lead, b.entity) for b in result.trace.floor_bridged] == [
        (ids["ingeborg"], ids["lessons"], "ingeborg")
    ]
    assert f"kept as the bridged neighbour of {ids['lessons']} through 'ingeborg'" in trace_summary(
        result.trace
    )


def test_a_question_that_names_the_entity_keeps_no_bridge(
    family: tuple[Memory, dict[str, str]],
) -> None:
    """Asked about Ingeborg by name, a belief that holds her is asked about directly, not
    reached through another: nothing is kept as a bridged neighbour."""
    memory, _ = family
    for goal in ("Where does Ingeborg live?", "What does Ingeborg do for a living?"):
        result = _recall(memory, goal)
        assert result.trace.floor_bridged == ()


def test_an_entity_most_beliefs_hold_is_no_bridge(
    family: tuple[Memory, dict[str, str]],
) -> None:
    """The school run names Oskar, as six other beliefs do: none of them is brought in by
    the name, while the dentist (no name in common) is the control."""
    memory, ids = family
    result = _recall(memory, "Who takes the children to school?")
    rendered = _rendered(result, ids)
    assert rendered[:1] == ["school"]
    assert not {"car", "football", "cats", "cabin", "dinner", "violin"} & set(rendered)
    graph = [a for a in result.trace.arms if a.arm.value == "graph_expanded_hits"]
    reached = {h.belief_id for a in graph for h in a.hits}
    assert not reached & {ids[n] for n in ("car", "football", "cats", "cabin", "dinner")}


def test_no_bridge_crosses_the_hard_filter(guarded: tuple[Memory, dict[str, str]]) -> None:
    """Ingeborg is held by two beliefs the recall may see and by four it may not (another
    principal's, a secret one, a retired one, one that holds only from next month): she
    still bridges (the hidden are not counted, which would make her a name five beliefs
    hold), and none of the hidden is reached, loaded or rendered."""
    memory, ids = guarded
    result = _recall(memory, QUESTION)
    rendered = _rendered(result, ids)
    assert rendered[:1] == ["lessons"]
    assert "ingeborg" in rendered
    hidden = {ids["secret"], ids["retired"], ids["future"], ids["other"]}
    seen = {h.belief_id for a in result.trace.arms for h in a.hits}
    seen |= {c.belief_id for c in result.trace.scored}
    seen |= {b.belief_id for b in result.trace.floor_bridged}
    assert not hidden & (seen | set(result.rendered_ids))
    assert [b.belief_id for b in result.trace.floor_bridged] == [ids["ingeborg"]]


def test_a_hidden_holder_is_no_bridge(guarded: tuple[Memory, dict[str, str]]) -> None:
    """Tromsø is held by the visible Ingeborg belief and by three the caller may not see
    (another principal's, a secret one, one that holds only from next month): in the
    caller's view one belief holds it, so it bridges nothing, and none of the hidden is
    loaded, whether the question reaches Ingeborg's belief first or through the lessons."""
    memory, ids = guarded
    for goal in (
        "Who has a flat in Tromsø and works as a marine biologist?",
        "What does the marine biologist in the family do next?",
    ):
        result = _recall(memory, goal)
        loaded = {c.belief_id for c in result.trace.scored} | set(result.rendered_ids)
        assert not {ids["secret"], ids["retired"], ids["future"], ids["other"]} & loaded
        assert all(b.entity != "tromsø" for b in result.trace.floor_bridged)
