"""A name written another way is the same name (see "Subject and entity keys" in
docs/architecture.md).

"fly.io", "fly-io" and "Fly IO"; "e-mail" and "email"; "stab_pred" and "stab-pred";
"Bjørn Ødegaard" and "Bjorn Odegaard"; "Jürgen Weiß" and "Juergen Weiss" are each one
name, but each spelling was its own key, so a request that named the entity one way
never matched the belief that stored it the other: the structured arm found nothing and
the floor's named-entity rule did not apply, and a turn about the entity ("what runs
there?") rendered nothing. A question that names a person by first and last name
("Who is Zoe Okonkwo?") made the keys ``zoe`` and ``okonkwo``, never the stored
``zoe-okonkwo``.
"""

from __future__ import annotations

import pytest

from recallflow import Memory
from recallflow.core.query_forming import keys_of_text
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.result import Arm
from tests.helpers import add_named

PRINCIPAL = "jurgen"

#: A platform engineer's memory; each belief by the name the tests use.
BELIEFS = {
    "host": ("The customer API runs on three machines in Frankfurt.", "hosting", ["Fly.io"]),
    "mail": ("Transactional messages go out through Postmark.", "outbound mail", ["e-mail"]),
    "runs": ("Runs are grouped by the week they started.", "experiment tracking", ["stab-pred"]),
    "advisor": ("He wants a progress report every second Monday.", "reports", ["Bjørn Ødegaard"]),
    "user": ("Replies should be in English, not German.", "reply language", ["Jürgen Weiß"]),
    "billing": ("She owns the billing service and its webhooks.", "billing owner", ["Zoë Okonkwo"]),
    "jo": ("Jo reviews every database migration.", "migration review", ["Jo"]),
    "coffee": ("Two espressos before the first meeting.", "morning routine", []),
    "bike": ("He cycles to the office unless it freezes.", "commute", []),
}


@pytest.fixture
def stored(memory: Memory, tenant: str) -> dict[str, str]:
    """The beliefs stored for ``tenant``; the stored id of each by its name here."""
    return add_named(
        memory,
        tenant,
        PRINCIPAL,
        BELIEFS,
        scope="user",
        source_authority="user_stated",
        confidence=0.9,
    )


def _recall(memory: Memory, tenant: str, goal: str, *entities: str) -> RecallRequest:
    return RecallRequest(
        tenant_id=tenant,
        principal_id=PRINCIPAL,
        working_state=WorkingState(goal=goal, entities=entities),
    )


@pytest.mark.parametrize(
    ("named", "expected"),
    [
        ("fly-io", "host"),
        ("Fly IO", "host"),
        ("flyio", "host"),
        ("email", "mail"),
        ("stab_pred", "runs"),
        ("Bjorn Odegaard", "advisor"),
    ],
)
def test_an_entity_named_in_another_spelling_recalls_the_beliefs_that_carry_it(
    memory: Memory, tenant: str, stored: dict[str, str], named: str, expected: str
) -> None:
    result = memory.recall(_recall(memory, tenant, "What do we know there?", named))
    assert stored[expected] in result.rendered_ids
    structured = {a.arm: a for a in result.trace.arms}[Arm.STRUCTURED]
    assert stored[expected] in [hit.belief_id for hit in structured.hits]


def test_ue_for_u_umlaut_is_read_only_for_a_name_no_key_is_spelled_like(
    memory: Memory, tenant: str, stored: dict[str, str]
) -> None:
    result = memory.recall(_recall(memory, tenant, "What do we know there?", "Juergen Weiss"))
    assert stored["user"] in result.rendered_ids
    # "Joe" read with "oe" for "ö" is "Jo": tried only when no key is spelled like "joe".
    memory.beliefs.add(
        {
            "tenant_id": tenant,
            "principal_id": PRINCIPAL,
            "statement": "Joe plans the quarterly capacity review.",
            "subject": "capacity planning",
            "entities": ["Joe"],
            "scope": "user",
            "source_authority": "user_stated",
            "confidence": 0.9,
        }
    )
    joe = memory.recall(_recall(memory, tenant, "What do we know there?", "Joe"))
    assert stored["jo"] not in joe.rendered_ids


def test_a_full_name_in_a_question_is_one_key() -> None:
    assert "zoe-okonkwo" in keys_of_text("Who should I ask about webhooks, Zoe Okonkwo?")
    assert "fly-io" in keys_of_text("How is the Fly IO deployment scaled?")
    assert "priya-raman" in keys_of_text("Priya Raman approved it.")
    # A run is names only: a stop word that starts a question is not part of it.
    assert "does-fly-io" not in keys_of_text("Does Fly IO scale?")


def test_a_title_or_an_initial_joins_the_name_and_a_text_of_them_is_read_in_one_pass() -> None:
    """Whether a capitalised word follows a title ("Mrs. Abernethy") or an initial ("John
    F. Kennedy") is read back from the word, not searched for from the text's start: a
    text of 100,000 characters of "Ab. " took minutes to read for its keys before (each
    of its 25,000 words searched all before it), and is read in well under a second."""
    assert "mrs-abernethy" in keys_of_text("We asked Mrs. Abernethy about it.")
    assert "john-f-kennedy" in keys_of_text("The speech of John F. Kennedy was long.")
    assert "dr-okafor" in keys_of_text("Ask Dr. Okafor. Then Zoe left.")
    assert keys_of_text("It was the 4th. Then Kennedy came.") == ["kennedy"]
    assert keys_of_text("Ab. " * 25_000) == []


def test_a_question_naming_a_person_by_full_name_finds_the_beliefs_that_carry_them(
    memory: Memory, tenant: str, stored: dict[str, str]
) -> None:
    result = memory.recall(_recall(memory, tenant, "What does Zoe Okonkwo look after?"))
    structured = {a.arm: a for a in result.trace.arms}[Arm.STRUCTURED]
    assert stored["billing"] in [hit.belief_id for hit in structured.hits]
