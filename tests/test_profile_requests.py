"""A turn that asks what the memory holds of the user gets the user's durable beliefs (see
"Arms" in docs/architecture.md).

"What do you know about me?" and "What are my preferences?" hold no word of the beliefs
they ask for: no arm ranked those beliefs, or one ranked a preference by "prefer" far
below unrelated text in meaning, and the floor dropped it, so the turn rendered nothing.
Such a question is now answered as a session's opening is: the user's preferences and
user model, kept by the score floor, never another principal's, never a plain fact; a
question of the preferences alone gets the preferences alone. Any other query is
answered as before.
"""

from __future__ import annotations

import string
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recallflow import DEFAULT_POLICY, Memory
from recallflow.core.profile import profile_types
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.result import Arm, RecallResult
from recallflow.models.session import SessionKind
from recallflow.models.store import BeliefType
from recallflow.policy import Budget
from recallflow.visualizations.trace_view import trace_summary
from tests.helpers import embedder_or_skip, named_memory

TENANT, PRINCIPAL, OTHER = "studio", "noor", "kai"
DURABLE = (BeliefType.USER_MODEL, BeliefType.PREFERENCE)


def _belief(statement: str, kind: str, **fields: object) -> dict[str, object]:
    return {
        "statement": statement,
        "subject": statement.split()[1],
        "belief_type": kind,
        "source_authority": "user_stated",
        **fields,
    }


BELIEFS = {
    "bullets": _belief("Noor wants answers as short bullet lists.", "preference"),
    "metric": _belief("Noor uses metric units and 24-hour times.", "preference"),
    # Observed, not stated: a session's core holds it, and so does the answer.
    "habit": _belief(
        "Noor usually reviews pull requests in the morning.",
        "preference",
        confidence=0.6,
        source_authority="observed",
    ),
    "role": _belief("Noor is a structural engineer at a bridge consultancy.", "user_model"),
    "city": _belief("Noor lives in Rotterdam with two cats.", "user_model"),
    # A guess no one confirmed: under the score floor, as in a session's core.
    "guess": _belief(
        "Noor perhaps likes jazz.", "preference", confidence=0.2, source_authority="external"
    ),
    "inspection": _belief("The Erasmus bridge inspection is due in April.", "fact"),
    "staging": _belief("The staging server restarts nightly at two.", "fact"),
}
PREFERENCES = {"bullets", "metric", "habit"}
USER_MODEL = {"role", "city"}
FACTS = {"inspection", "staging"}

#: Another principal's durable beliefs, which no recall of Noor's may show.
THEIRS = (
    "Kai prefers long detailed essays with citations.",
    "Kai is a pastry chef in Lyon.",
)


@pytest.fixture(scope="module", params=["hashing", "minilm"])
def studio(
    request: pytest.FixtureRequest, memory: Memory
) -> Iterator[tuple[Memory, dict[str, str]]]:
    with named_memory(
        memory.uri,
        f"recallflow_profile_requests_{request.param}",
        embedder_or_skip(str(request.param)),
        (TENANT, PRINCIPAL),
        BELIEFS,
    ) as (mem, ids):
        theirs = mem.beliefs.add_many(
            [
                {
                    "tenant_id": TENANT,
                    "principal_id": OTHER,
                    "scope": "user",
                    "confidence": 0.95,
                    **_belief(text, "preference" if "prefers" in text else "user_model"),
                }
                for text in THEIRS
            ]
        )
        yield mem, {**ids, **{f"theirs-{i}": b.id for i, b in enumerate(theirs)}}


def _recall(memory: Memory, goal: str, **policy: object) -> RecallResult:
    request = RecallRequest(
        tenant_id=TENANT, principal_id=PRINCIPAL, working_state=WorkingState(goal=goal)
    )
    chosen = DEFAULT_POLICY.model_copy(update=policy) if policy else DEFAULT_POLICY
    return memory.recall(request, policy=chosen, persist_trace=False)


def _names(ids: dict[str, str], result: RecallResult) -> set[str]:
    by_id = {v: k for k, v in ids.items()}
    return {by_id.get(i, i) for i in result.rendered_ids}


ABOUT_ME = (
    "What do you know about me?",
    "Tell me about myself",
    "Who am I?",
    "Was weißt du über mich?",
    "¿Qué sabes de mí?",
)


@pytest.mark.parametrize("question", ABOUT_ME)
def test_a_question_about_the_user_renders_the_users_durable_beliefs(
    studio: tuple[Memory, dict[str, str]], question: str
) -> None:
    memory, ids = studio
    result = _recall(memory, question)
    rendered = _names(ids, result)
    assert rendered >= PREFERENCES | USER_MODEL
    # Never a plain fact, another principal's belief or a guess under the score floor.
    assert rendered <= PREFERENCES | USER_MODEL


@pytest.mark.parametrize("question", ["What are my preferences?", "What do I like?"])
def test_a_question_about_the_users_preferences_renders_only_preferences(
    studio: tuple[Memory, dict[str, str]], question: str
) -> None:
    memory, ids = studio
    rendered = _names(ids, _recall(memory, question))
    assert rendered >= PREFERENCES
    assert not rendered & (USER_MODEL | FACTS)


def test_the_trace_says_which_beliefs_the_profile_question_kept(
    studio: tuple[Memory, dict[str, str]],
) -> None:
    memory, ids = studio
    result = _recall(memory, "What do you know about me?")
    trace = result.trace
    profile = next(a for a in trace.arms if a.arm is Arm.PROFILE)
    found = {h.belief_id for h in profile.hits}
    # The arm found the guess too; the score floor left it out.
    assert {ids[n] for n in PREFERENCES | USER_MODEL | {"guess"}} <= found
    assert not found & {ids[n] for n in FACTS | {"theirs-0", "theirs-1"}}
    assert ids["guess"] in trace.floor_dropped_ids
    assert set(trace.floor_profiled) <= set(result.rendered_ids)
    assert set(trace.floor_profiled) >= {ids["role"], ids["city"]}
    assert "kept as a belief about the user" in trace_summary(trace)


@pytest.mark.parametrize(
    "question", ["How is the Erasmus bridge inspection going?", "What is the capital of Peru?"]
)
def test_an_ordinary_question_does_not_run_the_profile_arm(
    studio: tuple[Memory, dict[str, str]], question: str
) -> None:
    memory, ids = studio
    result = _recall(memory, question)
    assert all(a.arm is not Arm.PROFILE for a in result.trace.arms)
    assert not _names(ids, result) & (PREFERENCES | USER_MODEL)
    assert result.trace.floor_profiled == ()


def test_with_profile_requests_off_the_question_finds_no_user_model(
    studio: tuple[Memory, dict[str, str]],
) -> None:
    memory, ids = studio
    result = _recall(memory, "What do you know about me?", profile_requests=False)
    assert not _names(ids, result) & USER_MODEL
    assert result.trace.retrieval_policy_version != DEFAULT_POLICY.version


@pytest.mark.parametrize(
    ("text", "types"),
    [
        ("What do you know about me?", DURABLE),
        ("what do you remember about me", DURABLE),
        ("Summarise what you know about me", DURABLE),
        ("Show me my profile", DURABLE),
        ("Who am I?", DURABLE),
        ("Que sais-tu de moi ?", DURABLE),
        ("O que você sabe sobre mim?", DURABLE),
        ("Cosa sai di me?", DURABLE),
        ("What are my preferences?", (BeliefType.PREFERENCE,)),
        ("Remind me what I prefer", (BeliefType.PREFERENCE,)),
        ("Was sind meine Vorlieben?", (BeliefType.PREFERENCE,)),
        # Not a question about the user: the asker is whom to tell, or the one who told,
        # or it is no question, or it asks about something else.
        ("Tell me something", ()),
        ("Can you remind me?", ()),
        ("What did I tell you?", ()),
        ("Did I mention it?", ()),
        ("I know", ()),
        ("What do you know?", ()),
        ("What do you know about Ada?", ()),
        ("What do you know about my work?", ()),
        ("How do I like my answers?", ()),
        ("What did I say about the deploy?", ()),
        ("Who are you?", ()),
        ("What do you know about me from 2023?", ()),
    ],
)
def test_which_texts_ask_for_the_users_profile(text: str, types: tuple[BeliefType, ...]) -> None:
    assert profile_types(text, DURABLE) == types


def test_a_profile_question_asks_only_for_the_durable_types_there_are() -> None:
    assert profile_types("What do you know about me?", (BeliefType.USER_MODEL,)) == (
        BeliefType.USER_MODEL,
    )
    # With preferences not durable, a question of preferences asks for what is.
    assert profile_types("What are my preferences?", (BeliefType.USER_MODEL,)) == (
        BeliefType.USER_MODEL,
    )


_QUESTIONS = st.sampled_from(
    ["What do you know about me?", "Who am I?", "What are my preferences?", "Tell me about myself"]
)
#: Words of topics, and made-up words (no word of a profile question starts with "zq").
_UNKNOWN = st.one_of(
    st.sampled_from(["budget", "deploy", "coffee", "Lisbon", "invoices", "weather", "cats"]),
    st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=8).map(lambda w: "zq" + w),
)


@settings(max_examples=200, deadline=None)
@given(_QUESTIONS, st.integers(min_value=0, max_value=8), _UNKNOWN)
def test_a_word_outside_the_question_makes_it_an_ordinary_query(
    question: str, at: int, word: str
) -> None:
    """One word about something else ("…about me and the budget?") is a topic: the
    profile arm stays out, wherever the word stands."""
    words = question.split()
    words.insert(min(at, len(words)), word)
    assert profile_types(" ".join(words), DURABLE) == ()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_reads_as_some_durable_types_or_none(text: str) -> None:
    types = profile_types(text, DURABLE)
    assert types in ((), DURABLE, (BeliefType.PREFERENCE,))
    assert profile_types(text, DURABLE) == types


def test_in_a_session_the_question_renders_no_belief_the_prefix_holds(
    studio: tuple[Memory, dict[str, str]],
) -> None:
    """The prefix already holds the core; the turn adds only what the prefix lacks."""
    memory, ids = studio
    sessions = DEFAULT_POLICY.sessions
    budgets = dict(sessions.budgets)
    budgets[SessionKind.INTERACTIVE] = Budget(max_items=2, max_tokens=1500)
    small = DEFAULT_POLICY.model_copy(
        update={"sessions": sessions.model_copy(update={"budgets": budgets})}
    )
    session = memory.open_session(TENANT, PRINCIPAL, policy=small)
    held = set(session.snapshot_ids)
    assert len(held) == 2
    assert held <= {ids[n] for n in PREFERENCES | USER_MODEL}
    turn = session.recall(WorkingState(goal="What do you know about me?"))
    shown = set(turn.rendered_ids)
    assert not shown & held
    assert shown | held >= {ids[n] for n in PREFERENCES | USER_MODEL}
