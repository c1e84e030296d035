"""Keys of every script (see "Subject and entity keys" in docs/architecture.md): a key
keeps the letters and digits of any script, so two subjects named in Chinese, Russian,
Greek or Arabic are two keys, a name in any script is accepted, stored and recalled by a
request that names it, and marked names in any script are withheld."""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import ValidationError

from recallflow import Memory
from recallflow.core.query_forming import DeterministicQueryFormer
from recallflow.core.redaction import REDACTED_NAME
from recallflow.errors import InvalidInputError
from recallflow.models.request import WorkingState
from recallflow.models.result import Arm
from recallflow.models.store import BeliefDraft, normalise_subject
from recallflow.tools import Toolset
from tests.helpers import belief, patient_policy, request

AS_OF = datetime(2025, 6, 1, tzinfo=UTC)


def _draft(**fields: Any) -> BeliefDraft:
    return BeliefDraft.model_validate(belief("t", **fields))


# --- the keys themselves ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other", "key"),
    [
        ("Project 東京", "Project 大阪", "project-東京"),
        ("Москва", "Минск", "москва"),
        ("Αθήνα", "Σπάρτη", "αθηνα"),
        ("القاهرة", "الرياض", "القاهرة"),
        ("हिन्दी", "हिन्द", "हिन्दी"),  # differ only in a vowel sign: two words
        ("Йошкар-Ола", "Иошкар-Ола", "йошкар-ола"),  # "й" is a letter, not "и" and a breve
    ],
)
def test_subjects_named_in_any_script_are_distinct_keys(one: str, other: str, key: str) -> None:
    a, b = _draft(subject=one, entities=[one]), _draft(subject=other, entities=[other])
    assert a.subject != b.subject and a.entities != b.entities
    assert a.subject == key and a.entities == (key,)


def test_case_and_latin_or_greek_accents_still_fold() -> None:
    # Each pair is one word in two cases or with and without an accent; the Latin keys are
    # the ones earlier versions made, and the folds chosen for letters they dropped.
    same = [
        ("Müller", "MULLER", "muller"),
        ("Café", "cafe", "cafe"),
        ("Straße", "STRASSE", "strasse"),  # the capital spelling of ß is SS
        ("ØRESUND", "øresund", "øresund"),  # ø is a letter of its own, not o and an accent
        ("ŁÓDŹ", "Łódź", "łodz"),
        ("ΑΘΗΝΑ", "Αθήνα", "αθηνα"),  # Greek capitals leave the accent out
        ("МОСКВА", "москва", "москва"),
        ("Ｔｏｋｙｏ", "tokyo", "tokyo"),  # full-width letters are their compatibility letters
    ]
    for one, other, key in same:
        assert normalise_subject(one) == normalise_subject(other) == key


def test_a_key_without_letters_or_digits_is_refused_naming_its_field() -> None:
    with pytest.raises(ValidationError) as subject_error:
        _draft(subject="— ・ —")
    assert subject_error.value.errors()[0]["loc"] == ("subject",)
    assert "letters and digits of every script" in str(subject_error.value)
    with pytest.raises(ValidationError) as entity_error:
        _draft(entities=["Москва", "!!"])
    assert entity_error.value.errors()[0]["loc"] == ("entities",)
    assert "'!!'" in str(entity_error.value)


# A letter as a reader who ignores case and the accent of a Latin or Greek letter takes
# it: compatibility-normalised and case-folded, and, when it is Latin or Greek, without
# the combining marks Unicode decomposes it into. Any two letters this tells apart must
# have different keys.
def _plain(letter: str) -> str:
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", letter).casefold())
    if folded[:1].isascii() or unicodedata.name(folded[0], "").startswith(("LATIN ", "GREEK ")):
        folded = "".join(c for c in folded if not unicodedata.combining(c))
    return folded


def _whole_letter(ch: str) -> bool:
    """A letter whose compatibility decomposition is letters and their marks (not a
    ligature of a phrase, with spaces, or a letter and a punctuation mark)."""
    return all(unicodedata.category(c)[0] in "LM" for c in unicodedata.normalize("NFKD", ch))


letters = st.characters(categories=["Lu", "Ll", "Lt", "Lm", "Lo"]).filter(_whole_letter)
around = st.text(st.characters(categories=["L", "Nd", "Zs", "Po"]), max_size=4)


@given(st.text(max_size=40))
@example("Project 東京")
@example("Йошкар-Ола (ΐ) ǅ ﷺ ｶﾞ")
def test_a_key_is_its_own_key_and_keeps_a_letter_or_digit_of_any_script(text: str) -> None:
    key = normalise_subject(text)
    assert normalise_subject(key) == key
    holds = any(unicodedata.category(c)[0] in "LN" for c in unicodedata.normalize("NFKD", text))
    assert bool(key) == holds


@given(around, letters, letters, around)
@example("Project ", "東", "大", "")
@example("", "й", "и", "")
@example("", "ø", "o", "resund")
@example("", "Ɖ", "Ɗ", "")
@example("", "ά", "Α", "")
def test_texts_differing_in_one_letter_have_different_keys_unless_only_case_or_accent(
    before: str, one: str, other: str, after: str
) -> None:
    keys_equal = normalise_subject(before + one + after) == normalise_subject(
        before + other + after
    )
    assert keys_equal == (_plain(one) == _plain(other))


# --- the query former -----------------------------------------------------------------------


def _structured_keys(**state: Any) -> tuple[str, ...]:
    queries = DeterministicQueryFormer().form(WorkingState.model_validate(state))
    return next((q.keys for q in queries if q.kind == "structured"), ())


def test_a_query_naming_a_non_latin_name_forms_its_key() -> None:
    assert "москва" in _structured_keys(goal="Что мы решили про Москва и Санкт-Петербург?")
    assert "санкт-петербург" in _structured_keys(goal="Что мы решили про Санкт-Петербург?")
    assert "αθηνα" in _structured_keys(query="Τι ξέρουμε για την Αθήνα;")
    # Scripts without case: a word the text's spaces and punctuation delimit is one key.
    assert "東京" in _structured_keys(query="What did we decide about 東京?")
    assert "القاهرة" in _structured_keys(query="ماذا نعرف عن القاهرة؟")
    assert "हिन्दी" in _structured_keys(query="हिन्दी के बारे में")
    assert _structured_keys(entities=["Project 東京"]) == ("project-東京",)


# --- through the store ----------------------------------------------------------------------

NAMES = [
    # a name as subject and entity, a question that names it, how the statement writes it
    ("Москва", "When does the Москва office open?", "МОСКВА"),
    ("東京", "When does the 東京 office open?", "東京"),
    ("Αθήνα", "When does the Αθήνα office open?", "ΑΘΗΝΑ"),
    ("القاهرة", "When does the القاهرة office open?", "القاهرة"),
]


def _store_names(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id=f"b-{i}",
                subject=name,
                entities=[name],
                statement=f"The {shown} office opens at {7 + i} o'clock.",
            )
            for i, (name, _, shown) in enumerate(NAMES)
        ]
    )


def _arm_ids(result: Any, arm: Arm) -> set[str]:
    return {h.belief_id for a in result.trace.arms if a.arm is arm for h in a.hits}


def test_names_in_any_script_are_stored_and_recalled_by_a_request_naming_them(
    memory: Memory, tenant: str
) -> None:
    _store_names(memory, tenant)
    stored = {b.id: b for b in memory.beliefs.list(tenant, "p1")}
    for i, (name, question, _) in enumerate(NAMES):
        assert stored[f"b-{i}"].subject == normalise_subject(name)
        assert stored[f"b-{i}"].entities == (normalise_subject(name),)
        by_entity = memory.recall(
            request(tenant, as_of=AS_OF, working_state={"entities": [name]}),
            policy=patient_policy(),
        )
        assert _arm_ids(by_entity, Arm.STRUCTURED) == {f"b-{i}"}
        by_text = memory.recall(
            request(tenant, as_of=AS_OF, working_state={"query": question}),
            policy=patient_policy(),
        )
        assert _arm_ids(by_text, Arm.STRUCTURED) == {f"b-{i}"}
        assert by_text.rendered_ids[0] == f"b-{i}"


def test_the_recall_tool_finds_a_name_in_any_script(memory: Memory, tenant: str) -> None:
    _store_names(memory, tenant)
    tools = Toolset(memory, tenant_id=tenant, principal_id="p1", policy=patient_policy())
    result = tools.call("recall_beliefs", {"goal": NAMES[0][1]})
    assert "error" not in result, result
    assert [i["belief_id"] for i in result["items"]][:1] == ["b-0"]


def test_two_subjects_named_in_chinese_do_not_outrank_each_other(
    memory: Memory, tenant: str
) -> None:
    """A transferred belief is capped under a local one *on its subject*: 東京's and 大阪's
    are two subjects, so the one about 東京 is not held down by the one about 大阪."""
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id="b-tokyo",
                statement="Project 東京 deploys on Fridays.",
                subject="Project 東京",
                entities=["Project 東京"],
                scope="project",
                origin_project="alpha",
                portability="portable",
                confidence=0.99,
                source_authority="user_stated",
            ),
            belief(
                tenant,
                id="b-osaka",
                statement="Project 大阪 deploys on Mondays.",
                subject="Project 大阪",
                entities=["Project 大阪"],
                scope="project",
                origin_project="beta",
                portability="local",
                confidence=0.5,
            ),
        ]
    )
    result = memory.recall(
        request(
            tenant,
            as_of=AS_OF,
            project="beta",
            goal="When does Project 東京 deploy?",
            working_state={"entities": ["Project 東京"]},
        ),
        policy=patient_policy(),
    )
    assert _arm_ids(result, Arm.STRUCTURED) == {"b-tokyo"}
    tokyo = next(s for s in result.trace.scored if s.belief_id == "b-tokyo")
    assert "outranked_by_local" not in tokyo.breakdown.penalties
    assert result.rendered_ids[0] == "b-tokyo"


def test_a_marked_name_in_any_script_is_withheld(memory: Memory, tenant: str) -> None:
    _store_names(memory, tenant)
    assert memory.entities.mark(tenant, "p1", "Москва", "personal") == "москва"
    # Asked as the team may ask it: a question naming Москва there asks about a name
    # nobody has (see "Trust boundary" in docs/architecture.md).
    asked = {"query": "When does each office open?"}
    team = memory.recall(
        request(tenant, as_of=AS_OF, surface="team", working_state=asked),
        policy=patient_policy(),
    )
    assert "b-0" in team.rendered_ids
    assert f"The {REDACTED_NAME} office opens" in team.block
    assert not re.search("москв", team.block, re.IGNORECASE)


def test_marking_names_in_any_script_and_refusing_one_without_letters(
    memory: Memory, tenant: str
) -> None:
    with pytest.raises(InvalidInputError) as raised:
        memory.entities.mark(tenant, "p1", "・・・", "personal")
    assert raised.value.field == "entity"
    assert memory.entities.marked(tenant, "p1") == {}
    for name in ("Москва", "東京", "Αθήνα", "القاهرة", "हिन्दी"):
        memory.entities.mark(tenant, "p1", name, "personal")
    assert set(memory.entities.marked(tenant, "p1")) == {
        "москва",
        "東京",
        "αθηνα",
        "القاهرة",
        "हिन्दी",
    }
