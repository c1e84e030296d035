"""A surface learns nothing of a name it withholds by guessing it: a request naming the
withheld name, or a part of it where a name stands (the first name, the surname, a
possessive), gets what a request naming someone nobody has gets, on every entry point
(in-turn recall by goal or entity, a child run, the recall tool with a project, a session
turn, the episode search), on the real server (see "Trust boundary" in
docs/architecture.md)."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any

from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from recallflow import Memory
from recallflow.core.redaction import NameRedaction, Redactor, asked_as_shown, asked_name
from recallflow.models.request import WorkingState
from recallflow.models.store import Sensitivity
from recallflow.tools import Toolset
from tests.helpers import patient_policy

# Words of no common trigram: a wrong guess spelled like a person the surface sees would
# (rightly) find that person, which says nothing of the withheld one.
_WORD = st.text("bcdfghjklmnpqrstvwxz", min_size=5, max_size=8).map(str.capitalize)


def _received(value: Any) -> str:
    """What a surface receives, without the ids a call mints."""

    def strip(v: Any) -> Any:
        if isinstance(v, dict):
            skip = ("trace_id", "snapshot_trace_id", "session_id", "watermark")
            return {k: strip(x) for k, x in v.items() if k not in skip}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v

    return json.dumps(strip(value), sort_keys=True, default=str)


def _store(memory: Memory, people: list[str], project: str) -> tuple[str, Toolset]:
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    mine = {"tenant_id": tenant, "principal_id": "p1"}
    drafts: list[dict[str, Any]] = []
    for i, person in enumerate(people):
        drafts += [
            {
                **mine,
                "statement": f"{person} prefers green tea for lunch number {i}.",
                "subject": f"{person} lunch",
                "entities": [person],
                "belief_type": "preference",
                "scope": "user",
                "confidence": 0.9,
            },
            {
                **mine,
                "statement": f"The user pairs with {person} on Tuesdays.",
                "subject": "pairing",
                "entities": [person],
                "scope": "user",
                "confidence": 0.8,
            },
        ]
    drafts.append(
        {
            **mine,
            "statement": "The release checklist lives in the wiki.",
            "subject": "release checklist",
            "scope": "project",
            "origin_project": project,
            "portability": "local",
            "confidence": 0.9,
        }
    )
    memory.beliefs.add_many(drafts)
    memory.episodes.add_many(
        [
            {
                **mine,
                "occurred_at": datetime(2025, 2, 1 + i, tzinfo=UTC),
                "content": f"Lunch with {person}: talked about reviews.",
                "sensitivity": "internal",
            }
            for i, person in enumerate(people)
        ]
    )
    memory.entities.mark(tenant, "p1", people[0], "personal")
    policy = patient_policy().model_copy(
        update={"project_sensitivity": {project: Sensitivity.PERSONAL}}
    )
    return tenant, Toolset(
        memory, tenant_id=tenant, principal_id="p1", surface="team", policy=policy
    )


def _recalled_on_team(
    memory: Memory, tenant: str, tools: Toolset, state: dict[str, Any], moment: str
) -> str:
    """What a recall of ``state`` at ``moment`` on team shows: its block and the team's
    view of its trace."""
    result = memory.recall(
        {
            "tenant_id": tenant,
            "principal_id": "p1",
            "surface": "team",
            "moment": moment,
            "working_state": state,
        },
        policy=tools._policy,
    )
    view = memory.explain(tenant, "p1", result.trace_id, viewer_surface="team")
    return _received([result.block, view.model_dump(mode="json")])


# A request of the name alone where words around it would leave the outcome to the test
# embedder: how near "who pairs with <a name nobody has>?" stands to each pairing depends
# on where the hashing embedder puts that name, right guess or wrong, and a wrong guess's
# buckets now and then lift one over the floor.
def _every_entry(
    memory: Memory, tenant: str, tools: Toolset, name: str, project: str
) -> dict[str, str]:
    def recalled(state: dict[str, Any], moment: str = "in_turn") -> str:
        return _recalled_on_team(memory, tenant, tools, state, moment)

    asked = tools.call("recall_beliefs", {"query": name})
    session = tools.call("open_session", {})
    return {
        "goal": recalled({"goal": f"What does {name} prefer for lunch?"}),
        "entities": recalled({"goal": "lunch preferences", "entities": [name]}),
        "child_run": recalled({"goal": f"Plan lunch with {name}"}, "child_run"),
        "tool": _received([asked, tools.call("explain_recall", {"trace_id": asked["trace_id"]})]),
        "project": _received(
            tools.call(
                "recall_beliefs", {"query": "where is the release checklist?", "project": project}
            )
        ),
        "session_turn": _received(
            tools.call(
                "session_recall",
                {"session_id": session["session_id"], "goal": name},
            )
        ),
        "episodes": _received(tools.call("search_episodes", {"query": name})),
    }


def _trigrams(name: str) -> set[str]:
    return {f"#{w}#"[i : i + 3] for w in name.lower().split() for i in range(len(w))}


def _people_and_a_wrong_guess(words: list[str]) -> tuple[list[str], str]:
    """Four people's names and a wrong guess, two words to a name."""
    names = [f"{words[i]} {words[i + 1]}" for i in range(0, 10, 2)]
    people, wrong = names[:4], names[4]
    # A wrong guess spelled in part like a name the store holds (a shared trigram) would
    # rightly find that name's beliefs, and says nothing here.
    assume(all(not _trigrams(wrong) & _trigrams(p) for p in people))
    # A withheld name stands in a request as a name of its shape spelled in a cycle of
    # five letters no language strings together; a person named in that cycle is the one
    # name the stand-in is like (drawn from this alphabet, "Qxzjv" is a name here).
    assume(not any(_trigrams(n) & _trigrams(asked_name(n)) for n in names))
    return people, wrong


# Not shrunk: each example is a store of its own and a dozen calls on the server.
@settings(
    max_examples=6,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(words=st.lists(_WORD, min_size=10, max_size=10, unique_by=lambda w: w[:3].lower()))
def test_a_right_guess_of_a_withheld_name_gets_what_a_wrong_one_gets(
    memory: Memory, words: list[str]
) -> None:
    people, wrong = _people_and_a_wrong_guess(words)
    project = f"merger-{uuid.uuid4().hex[:6]}"
    tenant, tools = _store(memory, people, project)
    right = _every_entry(memory, tenant, tools, people[0], project)
    guessed = _every_entry(memory, tenant, tools, wrong, f"other-{uuid.uuid4().hex[:6]}")
    differ = [k for k in right if right[k] != guessed[k]]
    assert differ == [], [(right[k], guessed[k]) for k in differ]


def test_a_name_marked_or_unmarked_since_the_last_recall_is_read_as_marked_now(
    memory: Memory,
) -> None:
    # A Memory reads a request with the marks it last read for the principal, checked
    # against the ones the block is rendered with: a mark made (or lifted) in between, by
    # this handle or another process, is never missed.
    people = ["Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov"]
    tenant, tools = _store(memory, people, f"merger-{uuid.uuid4().hex[:6]}")
    memory.entities.unmark(tenant, "p1", people[0])

    def asked(name: str) -> str:
        result = tools.call("recall_beliefs", {"query": name})
        return _received([result["block"], result["items"]])

    assert "Grace Hopper" in asked("Grace Hopper")  # not marked: the team may see it
    memory.entities.mark(tenant, "p1", people[0], "personal")
    assert asked("Grace Hopper") == asked("Ada Lovelace")
    memory.entities.unmark(tenant, "p1", people[0])
    assert "Grace Hopper" in asked("Grace Hopper")


def test_a_not_here_rejection_holds_in_a_project_the_surface_may_not_name(
    memory: Memory,
) -> None:
    # A project the surface withholds is read as no project for what it ranks; the user's
    # "not here" rejection made from a recall there still keeps the belief out of it.
    project = f"merger-{uuid.uuid4().hex[:6]}"
    _, tools = _store(memory, ["Grace Hopper", "Alan Turing"], project)
    ask = {"query": "who does the user pair with on Tuesdays?", "project": project}
    first = tools.call("recall_beliefs", ask)
    shown = [i["belief_id"] for i in first["items"]]
    assert shown, first
    done = tools.call(
        "reject_belief",
        {"trace_id": first["trace_id"], "belief_id": shown[0], "kind": "not_here"},
    )
    assert done["recorded"] is True
    again = tools.call("recall_beliefs", ask)
    assert shown[0] not in [i["belief_id"] for i in again["items"]]
    # Elsewhere it is still recalled.
    elsewhere = tools.call("recall_beliefs", {**ask, "project": "another-project"})
    assert shown[0] in [i["belief_id"] for i in elsewhere["items"]]


def _asked_by_part(
    memory: Memory, tenant: str, tools: Toolset, text: str, entities: list[str], search: str
) -> dict[str, str]:
    """What each entry point gives a request of ``text`` and ``entities`` (``search`` for
    the episode search), on team."""
    state: dict[str, Any] = {"goal": text, "entities": entities}

    def recalled(moment: str) -> str:
        return _recalled_on_team(memory, tenant, tools, state, moment)

    asked = tools.call("recall_beliefs", state)
    session = tools.call("open_session", {})
    return {
        "in_turn": recalled("in_turn"),
        "child_run": recalled("child_run"),
        "tool": _received([asked, tools.call("explain_recall", {"trace_id": asked["trace_id"]})]),
        "session_turn": _received(
            tools.call("session_recall", {"session_id": session["session_id"], **state})
        ),
        "episodes": _received(tools.call("search_episodes", {"query": search})),
    }


def _by_part(first: str, last: str) -> dict[str, tuple[str, list[str], str]]:
    """Requests that name a person by a part of their name: the first name or the surname
    alone, a possessive, in lower case where a name stands, alone, or split between the
    goal and the entities; and the episode search's query of each, the part with no words
    around it (as in :func:`_every_entry`: where an episode ranks among others of the same
    words is left to the test embedder's buckets for the name, right guess or wrong)."""
    lower = last.lower()
    return {
        "first": (f"What does {first} prefer for lunch?", [], first),
        "surname": (f"What does {last} prefer for lunch?", [], last),
        "possessive": (f"When is {last}'s lunch?", [], f"{last}'s"),
        "lower_case": (f"what does {first.lower()} prefer for lunch?", [], f"{lower}'s"),
        "alone": (last, [], last),
        "split": (f"What does {first} prefer for lunch?", [last], first),
        "entity": ("lunch preferences", [lower], f"{lower}'s"),
    }


@settings(
    max_examples=4,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(words=st.lists(_WORD, min_size=10, max_size=10, unique_by=lambda w: w[:3].lower()))
def test_a_right_guess_of_a_part_of_a_withheld_name_gets_what_a_wrong_one_gets(
    memory: Memory, words: list[str]
) -> None:
    # A part of a withheld name standing where a name stands is read as the full name is:
    # as the part of a name nobody has, so the first name, the surname, a possessive, the
    # name in lower case or split between goal and entities confirm nothing either.
    people, wrong = _people_and_a_wrong_guess(words)
    tenant, tools = _store(memory, people, f"merger-{uuid.uuid4().hex[:6]}")
    right_forms = _by_part(*people[0].split())
    wrong_forms = _by_part(*wrong.split())
    differ = []
    for form, (text, entities, search) in right_forms.items():
        right = _asked_by_part(memory, tenant, tools, text, entities, search)
        guessed = _asked_by_part(memory, tenant, tools, *wrong_forms[form])
        differ += [(form, k, right[k], guessed[k]) for k in right if right[k] != guessed[k]]
    assert differ == []


def test_a_part_of_a_withheld_name_is_withheld_where_it_is_written_as_a_name_only() -> None:
    # "Will Rose" and "Grace Hopper" withheld on team: a part written as a name (with a
    # capital where no sentence opens, as a possessive's owner, in a name's place in lower
    # case, as an entity, as whom "does" or "did" asks about) stands as the part of a name
    # nobody has, in its case; the same words used as words ("will", "the rose garden",
    # "the grace period", "in June") stay, as does a sentence that opens with an auxiliary
    # ("Will the build pass?").
    marks = {
        "will-rose": Sensitivity.PERSONAL,
        "grace-hopper": Sensitivity.PERSONAL,
        "june-white": Sensitivity.PERSONAL,
    }
    team = Redactor.of(NameRedaction(marks), Sensitivity.INTERNAL)
    asked = asked_as_shown(
        WorkingState(
            goal="What does Will prefer for lunch?",
            query="when is hopper's birthday and what does grace like?",
            entities=("rose",),
            recent_turns=(
                "Ask HOPPER about it.",
                "Plan the offsite with Grace",
                "What did June say?",
            ),
        ),
        team,
    )
    assert asked.goal == "What does Qxzj prefer for lunch?"
    assert asked.query == "when is xzjvqx's birthday and what does qxzjv like?"
    assert asked.entities == ("xzjv",)
    assert asked.recent_turns == (
        "Ask XZJVQX about it.",
        "Plan the offsite with Qxzjv",
        "What did Qxzj say?",
    )
    ordinary = WorkingState(
        goal="Will the build pass? We will plant the rose garden",
        query="what is the grace period for invoices, and did the hopper jam?",
        recent_turns=("The roses will bloom in June.", "May the white paint dry by June 3?"),
    )
    assert asked_as_shown(ordinary, team) == ordinary
    vault = Redactor.of(NameRedaction(marks), Sensitivity.SECRET)
    assert asked_as_shown(WorkingState(goal="What does Will prefer?"), vault).goal == (
        "What does Will prefer?"
    )
