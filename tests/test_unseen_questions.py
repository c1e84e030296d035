"""Questions a memory was never tuned on (see "Relevance floor" and "Moments" in
docs/architecture.md).

A question about someone the memory does not know shares the rest of its words with a
belief about the user: "What is Bartholomew's email?" held "email" of the belief that
says where the user's work email goes, a third of its rarity-weighted words and more,
and rendered it, though it says nothing of Bartholomew. A short question whose one
content word in common with the memory is one several beliefs hold alike ("What is a
good day?") rendered those beliefs. A name after a title and its full stop ("Mrs.
Abernethy") or with a lone capital letter in it ("Tomas O Briain") was no key of the
stored name. The user's own questions, and questions about a person the memory knows,
still find their belief.
"""

from __future__ import annotations

import pytest

from recallflow import Memory
from recallflow.core.query_forming import keys_of_text, names_mentioned
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.result import Arm
from tests.memories import memory_per_embedder

TENANT, PRINCIPAL = "household", "niamh"

#: One user's memory: a name → (statement, subject, entities).
BELIEFS: dict[str, tuple[str, str, list[str]]] = {
    "dentist": ("My next dentist appointment is on 3 March at 9:40.", "dentist", []),
    "email": ("My work email forwards to my phone after six.", "work email", []),
    "tax": ("The accountant files my tax return every January.", "tax return", []),
    "allergy": ("I am allergic to shellfish.", "allergy", []),
    "sister": ("My sister Maeve is a paramedic in Galway.", "sister", ["Maeve"]),
    "landlord": (
        "The landlord wants a week's notice before any visit.",
        "landlord",
        ["Mrs. Abernethy"],
    ),
    "vet": ("The cat's vet is in the village and opens at eight.", "vet", ["Tomás Ó Briain"]),
    "payday": ("Payday is the last working day of the month.", "payday", []),
    "remote": ("I work from home one day a week, usually Thursday.", "remote work", []),
    "cycling": ("I cycle to the office unless it rains.", "commute", []),
}

#: Questions about people the memory does not know: each must render nothing.
ABOUT_STRANGERS = (
    "What is Bartholomew's email?",
    "When is Persephone's tax return due?",
    "What is Henrietta's email address?",
)

#: The user's own questions, and one about a person the memory knows, with the answer.
ANSWERABLE = (
    ("When is my dentist appointment?", "dentist"),
    ("Where does my work email go in the evening?", "email"),
    ("Who files my tax return?", "tax"),
    ("Which day do I work from home?", "remote"),
)


household = memory_per_embedder(
    "recallflow_unseen",
    (TENANT, PRINCIPAL),
    {
        name: {"statement": statement, "subject": subject, "entities": entities}
        for name, (statement, subject, entities) in BELIEFS.items()
    },
    source_authority="user_stated",
)


def _recall(memory: Memory, goal: str) -> tuple[list[str], list[str]]:
    """The ids rendered for ``goal`` and those the structured arm returned."""
    result = memory.recall(
        RecallRequest(
            tenant_id=TENANT, principal_id=PRINCIPAL, working_state=WorkingState(goal=goal)
        ),
        persist_trace=False,
    )
    structured = {a.arm: a for a in result.trace.arms}[Arm.STRUCTURED]
    return list(result.rendered_ids), [h.belief_id for h in structured.hits]


def _names(ids: dict[str, str], got: list[str]) -> list[str]:
    by_id = {v: k for k, v in ids.items()}
    return [by_id.get(i, i) for i in got]


def test_a_question_about_someone_the_memory_does_not_know_renders_nothing(
    household: tuple[Memory, dict[str, str]],
) -> None:
    memory, ids = household
    leaks = {q: _names(ids, got) for q in ABOUT_STRANGERS if (got := _recall(memory, q)[0])}
    assert not leaks, f"{memory.embedder.name}: {leaks}"


@pytest.mark.parametrize(("question", "answer"), ANSWERABLE)
def test_the_users_own_questions_still_find_their_belief(
    household: tuple[Memory, dict[str, str]], question: str, answer: str
) -> None:
    memory, ids = household
    assert ids[answer] in _recall(memory, question)[0]


def test_a_person_the_memory_knows_by_a_key_is_not_a_stranger(
    household: tuple[Memory, dict[str, str]],
) -> None:
    """A name the statements do not spell but a belief carries as its entity key is known:
    the question's other words still clear the belief that answers it."""
    memory, ids = household
    rendered, _ = _recall(memory, "When does Mrs Abernethy want notice before a visit?")
    assert ids["landlord"] in rendered


@pytest.mark.parametrize("household", ["hashing"], indirect=True)
def test_one_word_several_beliefs_hold_alike_clears_nothing_by_itself(
    household: tuple[Memory, dict[str, str]],
) -> None:
    """With the hashing embedder, whose similarity holds no meaning beyond the shared
    words, what the floor reads of these questions is the coverage of one word ("day",
    held by the payday and the working-from-home beliefs alike)."""
    memory, ids = household
    got = _recall(memory, "What is a good day?")[0]
    assert not got, _names(ids, got)


@pytest.mark.parametrize("household", ["hashing"], indirect=True)
def test_names_in_a_question_are_keys_of_the_stored_names(
    household: tuple[Memory, dict[str, str]],
) -> None:
    memory, ids = household
    assert ids["vet"] in _recall(memory, "Who is Tomas O Briain?")[1]
    assert ids["landlord"] in _recall(memory, "Who waters the plants? Ask Mrs Abernethy")[1]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Who is Tomas O Briain?", "tomas-o-briain"),
        ("What did John F. Kennedy say?", "john-f-kennedy"),
        ("Ask Mrs Abernethy about the keys.", "mrs-abernethy"),
        ("What did Mrs. Abernethy bring?", "mrs-abernethy"),
        ("What did Mrs. Abernethy bring?", "abernethy"),
        ("I met Dr. Okafor. He was late.", "okafor"),
    ],
)
def test_a_title_an_initial_or_a_lone_capital_is_part_of_the_name(text: str, key: str) -> None:
    assert key in keys_of_text(text)


def test_a_title_is_not_a_name_and_does_not_end_the_sentence() -> None:
    assert names_mentioned("What did Mr. Kowalski say about the contract?") == "Kowalski"
    assert names_mentioned("Who is Dr. Petrovic?") == "Petrovic"
    # A full stop that is not a title's still ends the sentence, and the run.
    assert "okafor-dana" not in keys_of_text("Ask Dr. Okafor. Dana knows.")
