"""A question that asks the memory for what it holds of someone gets it (see "Relevance
floor" in docs/architecture.md).

"Tell me about Mia", "What do you know about Tomasz?": the words that ask ("tell",
"know", "remember", "about") are held by no belief, and the floor's coverage weighed them
as much as the name, so a belief that holds only the name covered none of what was asked
beside it and rendered nothing, even when the name was the user's own and every belief
spelled it. Those words are now no part of what a belief must cover; a question of them
and a name asks for all the memory holds of the name. A name the memory does not know,
or a topic it has nothing on, still renders nothing.
"""

from __future__ import annotations

import pytest

from recallflow import Memory
from recallflow.core.query_forming import coverage_text, framed_text, names_mentioned
from recallflow.models.request import RecallRequest, WorkingState
from tests.memories import memory_per_embedder

TENANT, PRINCIPAL = "household", "olu"

BELIEFS = {
    "mia-violin": "Olu's daughter Mia plays the violin in the school orchestra.",
    "mia-nuts": "Mia is allergic to tree nuts and carries an adrenaline pen.",
    "tomasz-team": "Tomasz leads the payments team that Olu works with.",
    "tomasz-tea": "Tomasz drinks green tea and never coffee after noon.",
    "car": "The family car is a grey estate due for its service in March.",
    "garden": "The back garden has three raised beds of herbs.",
    "bank": "Household bills are paid from the joint account on the first of the month.",
    "gym": "Olu swims at the leisure centre on Monday and Thursday mornings.",
    "dentist": "The family dentist is on Carver Street, next to the library.",
    "holiday": "Next summer's holiday is a week of walking in the Lake District.",
}

#: Questions of nothing but asking words and a name, with the beliefs that name them.
ABOUT_SOMEONE = (
    ("Tell me about Mia", {"mia-violin", "mia-nuts"}),
    ("What do you know about Mia?", {"mia-violin", "mia-nuts"}),
    ("What do you remember about Tomasz?", {"tomasz-team", "tomasz-tea"}),
    ("Anything about Tomasz?", {"tomasz-team", "tomasz-tea"}),
)

#: Questions that open by asking the memory for what it holds, then name a topic: the
#: opening's "know" or "remember", which no belief holds, weighed as much as the topic.
FRAMED = (
    ("What do you know about the leisure centre?", {"gym"}),
    ("Do you remember anything about the garden?", {"garden"}),
    ("What can you tell me about the dentist?", {"dentist"}),
    ("Tell me everything you know about the holiday", {"holiday"}),
    ("What have you got on the car?", {"car"}),
)

#: Someone the memory does not know, topics it has nothing on.
NOTHING_HELD = (
    "Tell me about Bruno",
    "What do you know about Kwame?",
    "What do you remember about the weather in Lima?",
    "Tell me everything about quantum chromodynamics",
)


household = memory_per_embedder(
    "recallflow_memory_requests",
    (TENANT, PRINCIPAL),
    {name: {"statement": statement, "subject": name} for name, statement in BELIEFS.items()},
)


def _rendered(memory: Memory, ids: dict[str, str], goal: str) -> set[str]:
    request = RecallRequest(
        tenant_id=TENANT, principal_id=PRINCIPAL, working_state=WorkingState(goal=goal)
    )
    names = {v: k for k, v in ids.items()}
    return {names[i] for i in memory.recall(request, persist_trace=False).rendered_ids}


@pytest.mark.parametrize(("question", "expected"), ABOUT_SOMEONE)
def test_asking_what_the_memory_holds_of_someone_renders_it(
    household: tuple[Memory, dict[str, str]], question: str, expected: set[str]
) -> None:
    memory, ids = household
    assert expected <= _rendered(memory, ids, question)


@pytest.mark.parametrize(("question", "expected"), FRAMED)
def test_asking_the_memory_about_a_topic_renders_what_it_holds_of_it(
    household: tuple[Memory, dict[str, str]], question: str, expected: set[str]
) -> None:
    memory, ids = household
    assert expected <= _rendered(memory, ids, question)


@pytest.mark.parametrize("question", NOTHING_HELD)
def test_asking_for_what_the_memory_does_not_hold_renders_nothing(
    household: tuple[Memory, dict[str, str]], question: str
) -> None:
    memory, ids = household
    assert _rendered(memory, ids, question) == set()


@pytest.mark.parametrize(
    ("text", "aside", "names"),
    [
        ("Tell me about Mia", False, "Mia"),
        ("Tell me about Mia", True, None),
        ("What do you know about Tomasz?", True, None),
        ("What do you know about Mia's school?", True, "Mia"),
        ("Tell Helga how I take my coffee", True, "Helga"),
    ],
)
def test_a_query_of_asking_words_and_names_asks_for_the_names(
    text: str, aside: bool, names: str | None
) -> None:
    """A text of nothing but names and asking words asks about the names themselves; one
    with other words asks those of the names."""
    assert names_mentioned(text, request_aside=aside) == names


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Tell me about Mia", "me Mia"),
        ("What do you know about Tomasz?", "What do you Tomasz?"),
        ("What did Caroline tell Melanie about the race?", None),
        ("What did I say about the deploy?", None),
        ("Tell me about the weather in Paris", None),
    ],
)
def test_the_coverage_leaves_out_asking_words_only_beside_nothing_but_names(
    text: str, read: str | None
) -> None:
    """Beside other words, a word like "tell" may be what an answer says too."""
    assert coverage_text(text) == (text if read is None else read)


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("What do you know about my work?", "my work?"),
        ("So, what do you remember about the deploy?", "the deploy?"),
        ("Tell me everything you know about the staging database", "the staging database"),
        ("Remind me about the dentist", "the dentist"),
        ("Do you remember anything about Mia?", "Mia?"),
        # Asked of someone else, or of the memory's opinion, or about nothing: no opening.
        ("What did Caroline tell Melanie about the race?", None),
        ("What do you think about the deploy?", None),
        ("Did Mia know about the party?", None),
        ("Tell me about", None),
    ],
)
def test_an_opening_that_asks_the_memory_is_read_apart_from_what_it_asks_about(
    text: str, asked: str | None
) -> None:
    assert framed_text(text) == asked
    assert coverage_text(text, frame=True) == (text if asked is None else asked)
