"""Questions about people a memory does not know, asked as the rest of a question a belief
answers (see "Relevance floor" in docs/architecture.md).

"Is Bruno allergic to penicillin?" is as close to "I am allergic to penicillin." as a
question about the user is, under MiniLM and the hashing embedder alike: it stood 3.5
and 2.9 spreads above unrelated text, and the user's allergy was rendered as if it
answered a question about Bruno. Only the coverage of such a question was set aside
before, never its similarity. A question written without a capital letter ("what does
alice like?", "when is ingrid's birthday") named nobody at all, so even its coverage
cleared. The principal's own name is known to its memory, a name a belief carries as a
key is known, and the questions about the people the memory knows, however they are
written, still find their belief. A task for someone the memory does not know ("Tell
Helga how I take my coffee") does not ask about them: it finds what it needs, which the
rule that set its coverage aside had cost it.
"""

from __future__ import annotations

import pytest

from recallflow import Memory
from recallflow.core.query_forming import (
    asked_names,
    asks_about_names,
    lowercase_names,
    names_mentioned,
)
from recallflow.models.request import RecallRequest, WorkingState
from tests.memories import memory_per_embedder

TENANT, PRINCIPAL = "household", "ines"

#: One user's memory, in the first person: a name → (statement, subject, entities).
BELIEFS: dict[str, tuple[str, str, list[str]]] = {
    "penicillin": ("I am allergic to penicillin.", "allergy", []),
    "coffee": ("I take my coffee black, no sugar, and only before noon.", "coffee", []),
    "hay-fever": (
        "Amara takes 10 mg of cetirizine every morning for hay fever.",
        "medication",
        ["Amara"],
    ),
    "peanuts": ("Tobi is allergic to peanuts and carries an EpiPen.", "allergy", ["Tobi"]),
    "passport": ("Amara's passport expires in September 2027.", "passport", ["Amara"]),
    "school": ("Tobi's asthma inhaler must go in his school bag every day.", "inhaler", ["Tobi"]),
    "partner": ("My partner Jonas is a pediatric nurse.", "partner", ["Jonas"]),
    "cilantro": ("I dislike cilantro; it tastes like soap to me.", "food dislikes", []),
    "birthday": ("My birthday is on 14 July.", "birthday", []),
    "rate-limit": (
        "Rate limiting allows 600 requests per minute per API key.",
        "rate limiting",
        [],
    ),
    "cat": ("My cat Miso needs thyroid tablets twice a day.", "cat", ["Miso"]),
    "lisbon": ("Our flight to Lisbon leaves on 3 May at 07:40.", "lisbon trip", ["Lisbon"]),
    "running": ("I run 5 km on Tuesday and Friday evenings.", "running", []),
}

#: Questions about people the memory does not know, each sharing the rest of its words
#: and most of its meaning with a belief: each must render nothing.
ABOUT_STRANGERS = (
    "Is Bruno allergic to penicillin?",
    "What does Kemi take for hay fever?",
    "When does Bartek's passport expire?",
    "What is the rate limit of the Twitter API?",
    "How often does Kwame go running?",
)

#: The same, written without a capital letter.
ABOUT_STRANGERS_LOWERCASE = (
    "what does alice like?",
    "which school does emeka go to",
    "when is ingrid's birthday",
    "what is zainab allergic to",
    "is zainab allergic to penicillin",
    "what medicine is zainab given for hay fever",
    "when is marek flying to lisbon",
)

#: Questions about a stranger beside a name the memory knows (a place, a person it knows):
#: what they ask is about the stranger, whom no belief mentions.
ABOUT_STRANGERS_BESIDE_KNOWN = (
    "When is Chidi's flight to Lisbon?",
    "Is Bruno allergic to peanuts like Tobi?",
    "when is chidi's flight to lisbon",
)

#: Questions about someone the memory does not know, named beside their role in the
#: question's subject ("my partner Ravi"): each reads like a belief about the partner or
#: the cat the memory does know.
ABOUT_STRANGERS_BESIDE_THEIR_ROLE = (
    "What does my partner Ravi do for a living?",
    "What does my cat Pixel need twice a day?",
)

#: Questions about the user and the people the memory knows, however written.
ANSWERABLE = (
    ("Am I allergic to penicillin?", "penicillin"),
    ("What does Amara take for hay fever?", "hay-fever"),
    ("does tobi have any food allergies", "peanuts"),
    ("what does jonas do for a living?", "partner"),
    ("what does miso need twice a day?", "cat"),
    ("When does Amara's passport expire?", "passport"),
    ("When is our flight to Lisbon?", "lisbon"),
    ("When is Amara's flight to Lisbon?", "lisbon"),
    ("Is Tobi allergic to peanuts like Amara?", "peanuts"),
    ("What is Tobi allergic to?", "peanuts"),
    ("what is tobi allergic to", "peanuts"),
    ("is tobi allergic to peanuts", "peanuts"),
    ("WHAT IS TOBI ALLERGIC TO?", "peanuts"),
    ("what is my cat miso given twice a day", "cat"),
    ("What does my partner Jonas do for a living?", "partner"),
    ("What does my cat Miso need twice a day?", "cat"),
    ("When does our flight to Lisbon leave?", "lisbon"),
)


#: Tasks for someone the memory does not know: what they need from memory is the rest.
TASKS_FOR_STRANGERS = (
    ("Tell Helga how I take my coffee", "coffee"),
    ("Warn the waiter Giorgio that I dislike cilantro", "cilantro"),
    ("Write to Marguerite about our rate limit per API key", "rate-limit"),
)


household = memory_per_embedder(
    "recallflow_people",
    (TENANT, PRINCIPAL),
    {
        name: {"statement": statement, "subject": subject, "entities": entities}
        for name, (statement, subject, entities) in BELIEFS.items()
    },
    source_authority="user_stated",
)


def _rendered(memory: Memory, ids: dict[str, str], goal: str) -> list[str]:
    """The names of the beliefs rendered for ``goal``."""
    result = memory.recall(
        RecallRequest(
            tenant_id=TENANT, principal_id=PRINCIPAL, working_state=WorkingState(goal=goal)
        ),
        persist_trace=False,
    )
    by_id = {v: k for k, v in ids.items()}
    return [by_id.get(i, i) for i in result.rendered_ids]


def test_a_question_about_someone_unknown_renders_nothing_however_close_it_reads(
    household: tuple[Memory, dict[str, str]],
) -> None:
    memory, ids = household
    leaks = {q: got for q in ABOUT_STRANGERS if (got := _rendered(memory, ids, q))}
    assert not leaks, f"{memory.embedder.name}: {leaks}"


def test_a_lowercase_question_about_someone_unknown_renders_nothing(
    household: tuple[Memory, dict[str, str]],
) -> None:
    memory, ids = household
    leaks = {q: got for q in ABOUT_STRANGERS_LOWERCASE if (got := _rendered(memory, ids, q))}
    assert not leaks, f"{memory.embedder.name}: {leaks}"


def test_a_question_about_a_stranger_beside_a_known_name_renders_nothing(
    household: tuple[Memory, dict[str, str]],
) -> None:
    """The name asked about is judged on its own: the memory knowing Lisbon, or Tobi, says
    nothing of Chidi or Bruno."""
    memory, ids = household
    leaks = {q: got for q in ABOUT_STRANGERS_BESIDE_KNOWN if (got := _rendered(memory, ids, q))}
    assert not leaks, f"{memory.embedder.name}: {leaks}"


def test_a_stranger_beside_their_role_renders_nothing(
    household: tuple[Memory, dict[str, str]],
) -> None:
    """ "My partner Ravi" is not the partner the memory knows: whom the question asks about
    is the one it names."""
    memory, ids = household
    leaks = {
        q: got for q in ABOUT_STRANGERS_BESIDE_THEIR_ROLE if (got := _rendered(memory, ids, q))
    }
    assert not leaks, f"{memory.embedder.name}: {leaks}"


@pytest.mark.parametrize(("question", "answer"), ANSWERABLE)
def test_questions_about_people_the_memory_knows_find_their_belief(
    household: tuple[Memory, dict[str, str]], question: str, answer: str
) -> None:
    memory, ids = household
    assert answer in _rendered(memory, ids, question)


@pytest.mark.parametrize(("goal", "answer"), TASKS_FOR_STRANGERS)
def test_a_task_for_someone_unknown_still_finds_what_it_needs(
    household: tuple[Memory, dict[str, str]], goal: str, answer: str
) -> None:
    """The person a task is for is not what it asks about: "Tell Helga how I take my
    coffee" needs the user's coffee, whoever Helga is."""
    memory, ids = household
    assert answer in _rendered(memory, ids, goal)


def test_the_principals_own_name_is_known_to_its_memory(
    household: tuple[Memory, dict[str, str]],
) -> None:
    """A memory written in the first person never spells the principal's name; asked by
    it, the question is about the user."""
    memory, ids = household
    assert "penicillin" in _rendered(memory, ids, "Is Ines allergic to penicillin?")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("what does alice like?", ["alice"]),
        ("when did mohammed join the team", ["mohammed"]),
        ("when is ingrid's birthday", ["ingrid"]),
        ("what is the dog's name", []),
        ("what is my sister's job", []),
        ("how does billing work", []),
        ("is it today's plan", []),
        ("how do users log in", []),
        ("What does Alice like?", []),  # a capital letter: names show by it
        ("what is zainab allergic to", ["zainab"]),
        ("who is kemi married to", ["kemi"]),
        ("when was farah hired", ["farah"]),
        ("what is the capital of france", []),
        ("what is my dentist's name", []),
        ("what is this used for", []),
        ("is it ready", []),
        ("is anyone allergic to nuts", []),
        ("what is sql injection", []),
        ("is it raining", []),
        ("when is marek flying to lisbon", ["marek"]),
    ],
)
def test_a_name_in_lowercase_is_the_word_in_a_names_place(text: str, names: list[str]) -> None:
    assert lowercase_names(text) == names


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("Is Bruno allergic to penicillin?", True),
        ("When does Bartek's passport expire?", True),
        ("What licence does the Linux kernel use?", True),
        ("What is the rate limit of the Twitter API?", True),
        ("Who is Dr. Abernathy?", True),
        ("what does alice like?", True),
        ("Tell Helga how I take my coffee", False),
        ("Can you tell Helga how I take my coffee?", False),
        ("Reply to Kowalski with the date of the release", False),
        ("Ask Dr. Okafor about the results", False),
        ("Draft the agenda for Ayesha's visit: when is the team retro?", False),
        ("Is Bruno allergic to penicillin? I need to cook for him.", True),
    ],
)
def test_a_question_asks_about_a_name_its_subject_or_owner(text: str, asked: bool) -> None:
    names = names_mentioned(text, lowercase=True)
    assert names is not None
    assert asks_about_names(text, names) is asked


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("When is Chidi's flight to Lisbon?", ("chidi",)),
        ("Where does my daughter Rachel live?", ("rachel",)),
        ("Was the dog Biscuit at the vet?", ("biscuit",)),
        ("Did the kids see Rachel?", ()),
        ("Is Bruno allergic to peanuts like Tobi?", ("bruno",)),
        ("When does Farah Haddad's flight to Lisbon leave?", ("farah", "haddad")),
        ("Is Farah Haddad flying to Lisbon with Tobi?", ("farah", "haddad")),
        ("Tell Helga when the flight to Lisbon leaves", ()),
    ],
)
def test_the_names_a_question_asks_about_are_its_subject_or_owner_alone(
    text: str, asked: tuple[str, ...]
) -> None:
    names = names_mentioned(text, lowercase=True)
    assert names is not None
    assert asked_names(text, names) == asked


def test_a_lowercase_question_of_nothing_but_a_name_is_read_whole() -> None:
    assert names_mentioned("what does jonas do?", lowercase=True) is None
    assert names_mentioned("what does alice like?", lowercase=True) == "alice"
    assert names_mentioned("what does alice like?") is None
