"""``memory.restate``: "it changed — now it is this", said in words. A new belief with the
new statement supersedes the old one and keeps the rest of it (subject, entities, type,
scope, origin project, portability, sensitivity) unless told otherwise, with every rule of a
supersession; bad input is refused by name and nothing is written."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import (
    ConflictError,
    ConstraintViolation,
    InvalidInputError,
    Memory,
    NotFoundError,
)
from recallflow.async_memory import AsyncMemory
from recallflow.corrections import CARRIED
from recallflow.models.result import CorrectionKind
from recallflow.models.store import Belief, BeliefDraft, LifecycleState, SourceAuthority
from tests.helpers import belief, request

OLD: dict[str, Any] = {
    "id": "b-deploy",
    "statement": "billing-api deploys to Heroku.",
    "subject": "billing deploy",
    "entities": ["billing-api", "heroku"],
    "belief_type": "procedure",
    "scope": "project",
    "origin_project": "billing",
    "portability": "local",
    "sensitivity": "personal",
    "source_authority": "user_stated",
}


def stored(memory: Memory, tenant: str, principal: str = "p1") -> list[Belief]:
    return memory.beliefs.list(tenant, principal)


@pytest.fixture
def deploy(memory: Memory, tenant: str) -> Belief:
    memory.episodes.add(
        {"id": "e-standup", "tenant_id": tenant, "principal_id": "p1",
         "occurred_at": "2026-03-02T09:00:00Z", "content": "We moved billing-api to Fly.io."}
    )  # fmt: skip
    return memory.beliefs.add(belief(tenant, **OLD))


def test_a_restatement_keeps_the_rest_of_the_belief_and_supersedes_it(
    memory: Memory, tenant: str, deploy: Belief
) -> None:
    new = memory.restate(tenant, "p1", "b-deploy", "billing-api deploys to Fly.io.",
                         source_episode_id="e-standup")  # fmt: skip
    assert new.id != deploy.id and new.statement == "billing-api deploys to Fly.io."
    assert {f: getattr(new, f) for f in CARRIED} == {f: getattr(deploy, f) for f in CARRIED}
    # Who vouches is said, not inherited: the old belief's user_stated does not carry over.
    assert new.source_authority is SourceAuthority.INFERRED
    assert new.source_episode_id == "e-standup" and new.supersedes == "b-deploy"
    old = memory.beliefs.get(tenant, "p1", "b-deploy")
    assert old.state is LifecycleState.SUPERSEDED and old.superseded_by == new.id
    # The change is read through the history of either belief.
    history = memory.beliefs.history(tenant, "p1", new.id)
    assert [link.id for link in history.predecessors] == ["b-deploy"]
    kinds = [e.kind.value for e in memory.beliefs.history(tenant, "p1", "b-deploy").events]
    assert kinds == ["created", "superseded"]
    # What is held now is the new statement, not both.
    held = memory.beliefs.held(tenant, "p1", surface="vault")
    assert [b.id for b in held] == [new.id]


def test_what_is_given_replaces_what_is_kept(memory: Memory, tenant: str, deploy: Belief) -> None:
    later = datetime.now(UTC) + timedelta(days=30)
    new = memory.restate(
        tenant, "p1", "b-deploy", "billing-api will deploy to Fly.io.",
        successor_id="b-deploy-fly", entities=["billing-api", "Fly.io"], sensitivity="internal",
        scope="user", source_authority="user_stated", valid_from=later,
    )  # fmt: skip
    assert new.id == "b-deploy-fly"
    assert new.entities == ("billing-api", "fly.io") and new.sensitivity == 1
    assert new.scope.value == "user" and new.origin_project == "billing"
    assert new.subject == deploy.subject and new.belief_type == deploy.belief_type
    assert new.source_authority is SourceAuthority.USER_STATED
    # A successor valid only later: the old belief holds until then, as for supersede.
    assert [b.id for b in memory.beliefs.held(tenant, "p1", surface="vault")] == ["b-deploy"]
    assert [
        b.id for b in memory.beliefs.held(tenant, "p1", surface="vault",
                                          as_of=later + timedelta(seconds=1))
    ] == ["b-deploy-fly"]  # fmt: skip


def test_a_retry_under_the_successors_id_is_stored_once(
    memory: Memory, tenant: str, deploy: Belief
) -> None:
    first = memory.restate(tenant, "p1", "b-deploy", "It deploys to Fly.io.", successor_id="b-2")
    again = memory.restate(tenant, "p1", "b-deploy", "It deploys to Fly.io.", successor_id="b-2")
    assert again == first and len(stored(memory, tenant)) == 2
    # Without the id, a second restatement of the same belief is refused: it changed once.
    with pytest.raises(ConflictError) as refused:
        memory.restate(tenant, "p1", "b-deploy", "It deploys to Render.")
    assert (refused.value.field, refused.value.item_id) == ("belief_id", "b-deploy")
    assert "'b-2'" in str(refused.value)  # restate the successor instead
    assert memory.restate(tenant, "p1", "b-2", "It deploys to Render.").supersedes == "b-2"
    # The same id with another statement is the retry's conflict, not a new belief.
    with pytest.raises(ConflictError):
        memory.restate(tenant, "p1", "b-deploy", "It deploys to AWS.", successor_id="b-2")


@pytest.mark.parametrize(
    ("belief_id", "statement", "arguments", "error", "field"),
    [
        ("b-nobody", "x holds.", {}, NotFoundError, "belief_id"),
        ("b-bob", "x holds.", {}, NotFoundError, "belief_id"),  # another principal's
        ("b-retired", "x holds.", {}, ConflictError, "belief_id"),
        ("b-deploy", "x holds.", {"successor_id": "b-retired"}, ConflictError, "successor_id"),
        ("b-deploy", "x holds.", {"successor_id": "b-deploy"}, InvalidInputError, "successor_id"),
        ("b-deploy", "x holds.", {"successor_id": "b 2"}, InvalidInputError, "successor_id"),
        ("b deploy", "x holds.", {}, InvalidInputError, "belief_id"),
        ("b-deploy", " \u200b ", {}, InvalidInputError, "statement"),
        ("b-deploy", 42, {}, InvalidInputError, "statement"),
        ("b-deploy", "x" * 4001, {}, InvalidInputError, "statement"),
        ("b-deploy", OLD["statement"], {}, InvalidInputError, "statement"),  # nothing changed
        ("b-deploy", "x holds.", {"entities": ["  "]}, InvalidInputError, "entities"),
        ("b-deploy", "x holds.", {"belief_type": "opinion"}, InvalidInputError, "belief_type"),
        ("b-deploy", "x holds.", {"sensitivity": "top"}, InvalidInputError, "sensitivity"),
        ("b-deploy", "x holds.", {"source_authority": "boss"}, InvalidInputError,
         "source_authority"),
        ("b-deploy", "x holds.", {"valid_from": "2026-03-02T09:00:00"}, InvalidInputError,
         "valid_from"),
        ("b-deploy", "x holds.", {"source_episode_id": "e-none"}, ConstraintViolation,
         "source_episode_id"),
        ("b-deploy", "x holds.", {"policy": "default"}, InvalidInputError, "policy"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_by_name_and_nothing_is_written(
    memory: Memory,
    tenant: str,
    deploy: Belief,
    belief_id: str,
    statement: Any,
    arguments: dict[str, Any],
    error: type[Exception],
    field: str,
) -> None:
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-retired", statement="Ada uses Emacs.", subject="editor",
                   scope="user", state="retired"),
            belief(tenant, "p2", id="b-bob", statement="Bob uses Vim.", subject="editor",
                   scope="user"),
        ]
    )  # fmt: skip
    before = stored(memory, tenant), stored(memory, tenant, "p2")
    with pytest.raises(error) as refused:
        memory.restate(tenant, "p1", belief_id, statement, **arguments)
    assert refused.value.field == field  # type: ignore[attr-defined]
    assert (stored(memory, tenant), stored(memory, tenant, "p2")) == before


def test_a_forgotten_belief_is_not_found(memory: Memory, tenant: str, deploy: Belief) -> None:
    memory.forget_belief(tenant, "p1", "b-deploy")
    with pytest.raises(NotFoundError) as refused:
        memory.restate(tenant, "p1", "b-deploy", "It deploys to Fly.io.")
    assert refused.value.field == "belief_id"
    assert str(refused.value).endswith(f"no belief 'b-deploy' for {tenant}/p1")
    assert stored(memory, tenant) == []


def test_an_open_session_is_told_of_the_restatement_in_its_next_turn(
    memory: Memory, tenant: str
) -> None:
    memory.beliefs.add(
        belief(tenant, id="p-concise", statement="The user prefers concise answers.",
               subject="answer style", belief_type="preference", source_authority="user_stated",
               confidence=0.9, portability="portable")
    )  # fmt: skip
    session = memory.open_session(tenant, "p1")
    assert "p-concise" in session.snapshot_ids
    new = memory.restate(tenant, "p1", "p-concise", "The user prefers long answers.",
                         source_authority="user_stated")  # fmt: skip
    turn = session.recall({"goal": "answer style"})
    assert [(c.belief_id, c.kind) for c in turn.trace.corrections] == [
        ("p-concise", CorrectionKind.SUPERSEDED)
    ]
    assert f"- [p-concise] no longer holds; replaced by [{new.id}]: {new.statement}" in turn.block


def test_restate_and_a_changed_rejection_build_the_same_successor(
    memory: Memory, tenant: str
) -> None:
    """One place builds a successor from a statement: a restatement and a ``changed``
    rejection's statement-only replacement keep the same fields of the same belief."""
    for bid in ("b-a", "b-b"):
        memory.beliefs.add(belief(tenant, **{**OLD, "id": bid, "recorded_at": None}))
    result = memory.recall(
        request(tenant, goal="Where does billing-api deploy?", surface="vault", project="billing")
    )
    if "b-a" not in result.rendered_ids:
        pytest.skip("the recall did not show the belief")
    rejected = memory.reject(tenant, "p1", result.trace_id, "b-a", "changed",
                             replacement="It deploys to Fly.io.")  # fmt: skip
    by_rejection = memory.beliefs.get(tenant, "p1", str(rejected.replacement_id))
    restated = memory.restate(tenant, "p1", "b-b", "It deploys to Fly.io.")
    fields = ("statement", "source_authority", *CARRIED)
    assert {f: getattr(restated, f) for f in fields} == {
        f: getattr(by_rejection, f) for f in fields
    }


@settings(max_examples=10, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    given=st.fixed_dictionaries(
        {},
        optional={
            "subject": st.sampled_from(["deploy target", "hosting"]),
            "entities": st.lists(st.sampled_from(["fly.io", "render", "aws"]), max_size=2),
            "belief_type": st.sampled_from(["fact", "procedure", "environment"]),
            "scope": st.sampled_from(["user", "project"]),
            "origin_project": st.sampled_from(["billing", "mobile"]),
            "portability": st.sampled_from(["portable", "contextual", "local"]),
            "sensitivity": st.sampled_from(["public", "internal", "secret"]),
        },
    ),
)
def test_each_field_is_the_one_given_or_else_the_old_beliefs(
    memory: Memory, given: dict[str, Any]
) -> None:
    """Whatever subset of fields is given, the successor has each one given and the old
    belief's value of every other, and the old belief is superseded by it."""
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    old = memory.beliefs.add(belief(tenant, **OLD))
    new = memory.restate(tenant, "p1", old.id, "billing-api deploys to Fly.io.", **given)
    expected = memory.beliefs.add(
        belief(tenant, **{**{f: getattr(old, f) for f in CARRIED}, **given,
                          "id": "b-expected", "statement": "Something else."})
    )  # fmt: skip
    assert {f: getattr(new, f) for f in CARRIED} == {f: getattr(expected, f) for f in CARRIED}
    assert memory.beliefs.get(tenant, "p1", old.id).superseded_by == new.id


def test_the_asyncio_twin_restates(memory: Memory, tenant: str, deploy: Belief) -> None:
    async def restated() -> Belief:
        return await AsyncMemory(memory).corrections.restate(
            tenant, "p1", "b-deploy", "billing-api deploys to Fly.io."
        )

    new = asyncio.run(restated())
    assert memory.beliefs.get(tenant, "p1", "b-deploy").superseded_by == new.id


def test_the_successors_confidence_is_its_own(memory: Memory, tenant: str, deploy: Belief) -> None:
    """The successor starts at a new belief's confidence unless one is given, whatever the
    old belief's; a confidence out of range is refused by name and nothing is written."""
    with pytest.raises(InvalidInputError) as err:
        memory.restate(tenant, "p1", deploy.id, "It deploys to Fly.io.", confidence=2.0)
    assert err.value.field == "confidence"
    assert memory.beliefs.get(tenant, "p1", deploy.id).superseded_by is None
    sure = memory.restate(tenant, "p1", deploy.id, "It deploys to Fly.io.", confidence=0.95)
    assert sure.confidence == 0.95
    again = memory.restate(tenant, "p1", sure.id, "It deploys to Render.")
    assert again.confidence == BeliefDraft.model_fields["confidence"].default
