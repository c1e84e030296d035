"""A name the query shares with a belief is not lexical evidence that the belief answers
it (see "Relevance floor" in docs/architecture.md).

A memory about one person names them in a few of its beliefs, so the name is one of its
rarest words. Asked something about that person which the memory does not hold, the
floor read the shared name as most of the query's rarity-weighted words: "How old is
Ingrid?" rendered the beliefs that spell "Ingrid", whatever they say. A belief whose only
words in common with a query are the names it mentions now covers none of it; questions
the memory answers, with the name or without, still find their belief.
"""

from __future__ import annotations

import pytest

from recallflow import Memory
from recallflow.core.query_forming import names_mentioned
from recallflow.models.request import RecallRequest, WorkingState
from tests.memories import memory_per_embedder

TENANT, PRINCIPAL = "allotment", "ingrid"

#: One person's memory: two of its beliefs name her.
BELIEFS = {
    "roses": "Ingrid grows climbing roses along the south fence of her allotment.",
    "knee": "Ingrid had knee surgery in spring and kneels on a foam pad.",
    "tomatoes": "She starts tomato seedlings indoors in late February.",
    "compost": "The compost heap is turned every second Sunday.",
    "water": "The allotment has no tap; she carries water from the trough by the gate.",
    "slugs": "She uses copper tape, never slug pellets, because of the hedgehogs.",
    "shed": "The shed key hangs on a nail behind the water butt.",
    "club": "She chairs the allotment society; its meetings are on the first Tuesday.",
    "beans": "Runner beans go up hazel poles she cuts from her brother's wood.",
    "teacher": "She taught primary school geography for thirty years before retiring.",
    "bees": "Two beehives stand in the far corner; she wears gloves but no veil.",
    "seeds": "Seeds are bought from a heritage catalogue in January.",
    "frost": "Dahlia tubers are lifted after the first frost and stored in newspaper.",
    "rhubarb": "The rhubarb crown by the shed is forced under an upturned bucket.",
    "netting": "Brassicas stay under netting all summer against pigeons.",
    "rain": "A rain gauge on the shed roof is read every morning.",
}

#: Questions about her the memory cannot answer: each must render an empty block.
UNANSWERABLE = (
    "How old is Ingrid?",
    "What is Ingrid's shoe size?",
    "Does Ingrid have a passport?",
    "What is Ingrid's favourite film?",
    "Where was Ingrid born?",
    "What is Ingrid's phone number?",
)

#: Questions it answers, naming her or not, with the belief that answers each.
ANSWERABLE = (
    ("Which roses does Ingrid grow?", "roses"),
    ("When is the compost heap turned?", "compost"),
    ("Where does Ingrid keep the shed key?", "shed"),
    ("What did Ingrid have surgery on?", "knee"),
    ("How does she keep slugs off without pellets?", "slugs"),
    ("When does she start tomato seedlings?", "tomatoes"),
)


garden = memory_per_embedder(
    "recallflow_floor_names",
    (TENANT, PRINCIPAL),
    {name: {"statement": statement, "subject": name} for name, statement in BELIEFS.items()},
)


def _rendered(memory: Memory, goal: str) -> list[str]:
    request = RecallRequest(
        tenant_id=TENANT, principal_id=PRINCIPAL, working_state=WorkingState(goal=goal)
    )
    return list(memory.recall(request, persist_trace=False).rendered_ids)


@pytest.mark.parametrize("garden", ["hashing"], indirect=True)
def test_asking_about_a_named_person_what_the_memory_does_not_hold_renders_nothing(
    garden: tuple[Memory, dict[str, str]],
) -> None:
    """With the hashing embedder, whose similarity a shared name barely lifts, what the
    floor reads of these questions is the coverage a shared name gave."""
    memory, ids = garden
    names = {v: k for k, v in ids.items()}
    leaks = {q: [names[i] for i in got] for q in UNANSWERABLE if (got := _rendered(memory, q))}
    assert not leaks, f"{memory.embedder.name}: {leaks}"


@pytest.mark.parametrize(("question", "answer"), ANSWERABLE)
def test_a_question_the_memory_answers_still_finds_its_belief(
    garden: tuple[Memory, dict[str, str]], question: str, answer: str
) -> None:
    memory, ids = garden
    assert ids[answer] in _rendered(memory, question)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("How old is Ingrid?", "Ingrid"),
        ("What is Ingrid's shoe size?", "Ingrid"),
        ("Who designed the Rolls-Royce Merlin engine?", "Rolls Royce Merlin"),
        ("What is the NHS number on Monday's letter?", None),
        ("Who is Ingrid?", None),
        ("Ingrid likes roses", None),
    ],
)
def test_the_names_a_query_mentions_are_not_acronyms_days_or_a_first_word(
    text: str, names: str | None
) -> None:
    assert names_mentioned(text) == names
