"""Lifecycle writes on the real embedded server: supersede, retract, retire, expire;
idempotent re-adds; typed errors that write nothing (see "Lifecycle and history" in
docs/architecture.md)."""

from __future__ import annotations

import threading
import time
import unicodedata
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import pytest
from psycopg import sql

from recallflow import (
    ConflictError,
    ConstraintViolation,
    InvalidInputError,
    LifecycleState,
    Memory,
    NotFoundError,
    SupersessionCycleError,
    WriteCancelledError,
)
from recallflow.adapters.postgres.locks import lock_principals
from recallflow.models.result import Arm
from tests.helpers import belief, patient_policy, request

PATIENT = patient_policy()

T0 = datetime(2026, 3, 1, tzinfo=UTC)
DAY = timedelta(days=1)


def counts(memory: Memory, tenant: str) -> dict[str, int]:
    """Rows of the tenant in every table a write path touches."""
    out = {}
    with memory.pool.connection() as conn:
        for table in ("beliefs", "belief_events", "feedback_events", "belief_exclusions"):
            row = conn.execute(
                sql.SQL("SELECT count(*) FROM {} WHERE tenant_id = %s").format(
                    sql.Identifier(table)
                ),
                (tenant,),
            ).fetchone()
            assert row is not None
            out[table] = int(row[0])
        row = conn.execute(
            "SELECT count(*) FROM beliefs WHERE tenant_id = %s AND state = 'superseded'", (tenant,)
        ).fetchone()
        assert row is not None
        out["superseded"] = int(row[0])
    return out


def rendered(memory: Memory, tenant: str, goal: str, **fields: Any) -> tuple[str, ...]:
    return memory.recall(request(tenant, goal=goal, **fields), policy=PATIENT).rendered_ids


def deploy(tenant: str, bid: str, statement: str, **fields: Any) -> dict[str, Any]:
    return belief(
        tenant, id=bid, statement=statement, subject="deploy-target", entities=["deploy"], **fields
    )


# --- supersession -------------------------------------------------------------------------


def test_a_successor_ends_its_predecessor_and_both_read_right_at_every_as_of(
    memory: Memory, tenant: str
) -> None:
    old = memory.beliefs.add(deploy(tenant, "b-heroku", "We deploy to Heroku.", recorded_at=T0))
    new = memory.supersede(
        old.id,
        deploy(tenant, "b-fly", "We deploy to Fly.io.", recorded_at=T0 + 10 * DAY),
    )
    stored = memory.beliefs.get(tenant, "p1", "b-heroku")
    assert stored.state is LifecycleState.SUPERSEDED
    assert stored.superseded_by == "b-fly"
    assert stored.valid_to == old.valid_to  # its own truth's end; the successor ends its life
    assert new.valid_from == T0 + 10 * DAY
    goal = "Where do we deploy? deploy target"
    assert rendered(memory, tenant, goal, as_of=T0 + 20 * DAY) == ("b-fly",)
    # Before the successor existed, only the old belief was known (and it was not superseded).
    assert "b-fly" not in rendered(memory, tenant, goal, as_of=T0 + 5 * DAY)


def test_adding_with_supersedes_does_what_supersede_does(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(deploy(tenant, "b-1", "We deploy to Heroku.", recorded_at=T0))
    memory.beliefs.add(
        deploy(tenant, "b-2", "We deploy to Fly.io.", recorded_at=T0 + DAY, supersedes="b-1")
    )
    old = memory.beliefs.get(tenant, "p1", "b-1")
    assert (old.state, old.superseded_by) == (LifecycleState.SUPERSEDED, "b-2")
    with memory.pool.connection() as conn:
        events = conn.execute(
            "SELECT belief_id, kind, related_id, effective_at FROM belief_events"
            " WHERE tenant_id = %s",
            (tenant,),
        ).fetchall()
    assert events == [("b-1", "superseded", "b-2", T0 + DAY)]


def test_one_batch_superseding_several_stored_beliefs_ends_each_with_its_own_successor(
    memory: Memory, tenant: str
) -> None:
    memory.beliefs.add_many(
        [deploy(tenant, f"b-old-{i}", f"We deploy to host {i}.", recorded_at=T0) for i in range(3)]
    )
    memory.beliefs.add_many(
        [
            deploy(
                tenant,
                f"b-new-{i}",
                f"We deploy to cloud {i}.",
                recorded_at=T0 + (i + 1) * DAY,
                supersedes=f"b-old-{i}",
            )
            for i in range(3)
        ]
    )
    for i in range(3):
        old = memory.beliefs.get(tenant, "p1", f"b-old-{i}")
        assert (old.state, old.superseded_by) == (LifecycleState.SUPERSEDED, f"b-new-{i}")
    with memory.pool.connection() as conn:
        events = conn.execute(
            "SELECT belief_id, kind, related_id, effective_at FROM belief_events"
            " WHERE tenant_id = %s ORDER BY belief_id",
            (tenant,),
        ).fetchall()
        # The rarity statistics count beliefs per state: all three moved, none twice.
        classes = dict(
            conn.execute(
                "SELECT state, sum(beliefs)::int FROM principal_class_sizes"
                " WHERE tenant_id = %s AND beliefs > 0 GROUP BY state",
                (tenant,),
            ).fetchall()
        )
    assert events == [
        (f"b-old-{i}", "superseded", f"b-new-{i}", T0 + (i + 1) * DAY) for i in range(3)
    ]
    assert classes == {"active": 3, "superseded": 3}


def test_an_explicit_successor_start_is_the_predecessors_end(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(deploy(tenant, "b-1", "Heroku.", recorded_at=T0, valid_from=T0 - 30 * DAY))
    memory.supersede(
        "b-1", deploy(tenant, "b-2", "Fly.io.", recorded_at=T0 + DAY, valid_from=T0 - 5 * DAY)
    )
    assert memory.beliefs.get(tenant, "p1", "b-1").valid_to is None  # left as it was
    with memory.pool.connection() as conn:
        (at,) = conn.execute(
            "SELECT effective_at FROM belief_events WHERE tenant_id = %s AND kind = 'superseded'",
            (tenant,),
        ).fetchone() or (None,)
    assert at == T0 - 5 * DAY


def test_superseding_twice_is_a_conflict_and_writes_nothing(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(deploy(tenant, "b-1", "Heroku.", recorded_at=T0))
    memory.supersede("b-1", deploy(tenant, "b-2", "Fly.io.", recorded_at=T0 + DAY))
    before = counts(memory, tenant)
    with pytest.raises(ConflictError, match="already superseded by 'b-2'"):
        memory.supersede("b-1", deploy(tenant, "b-3", "Render.", recorded_at=T0 + 2 * DAY))
    assert counts(memory, tenant) == before


def test_a_batch_link_to_a_superseded_belief_names_the_item_and_field(
    memory: Memory, tenant: str
) -> None:
    """In a batch of many, a link to a belief already superseded by another is refused
    naming the item that declares the link, its index and field (as a link to an unknown
    belief is), not the stored belief the caller did not send; ``supersede`` names its
    own argument."""
    memory.beliefs.add(deploy(tenant, "b-1", "Heroku.", recorded_at=T0))
    memory.supersede("b-1", deploy(tenant, "b-2", "Fly.io.", recorded_at=T0 + DAY))
    before = counts(memory, tenant)
    batch = [deploy(tenant, f"b-x{i}", f"We deploy {i} to Heroku.") for i in range(3)]
    batch[1] = deploy(tenant, "b-3", "Render.", supersedes="b-1")
    with pytest.raises(ConflictError) as info:
        memory.beliefs.add_many(batch)
    assert (info.value.item_index, info.value.item_id, info.value.field) == (1, "b-3", "supersedes")
    assert str(info.value).startswith("item 1, id 'b-3', field 'supersedes': supersedes 'b-1'")
    assert "already superseded by 'b-2'" in str(info.value)
    # Two items of one batch superseding one belief: the second is named.
    batch = [deploy(tenant, "b-4", "Heroku again."),
             deploy(tenant, "b-5", "Render.", supersedes="b-4"),
             deploy(tenant, "b-6", "Railway.", supersedes="b-4")]  # fmt: skip
    with pytest.raises(ConflictError) as info:
        memory.beliefs.add_many(batch)
    assert (info.value.item_index, info.value.item_id, info.value.field) == (2, "b-6", "supersedes")
    with pytest.raises(ConflictError) as info:
        memory.supersede("b-1", deploy(tenant, "b-7", "Render."))
    assert (info.value.field, info.value.item_index, info.value.item_id) == (
        "supersedes",
        None,
        "b-7",
    )
    assert counts(memory, tenant) == before


def test_a_supersession_cycle_is_a_typed_error_and_writes_nothing(
    memory: Memory, tenant: str
) -> None:
    before = counts(memory, tenant)
    with pytest.raises(SupersessionCycleError) as info:
        memory.beliefs.add_many(
            [
                deploy(tenant, "b-a", "A.", supersedes="b-c"),
                deploy(tenant, "b-b", "B.", supersedes="b-a"),
                deploy(tenant, "b-c", "C.", supersedes="b-b"),
            ]
        )
    assert set(info.value.cycle) == {"b-a", "b-b", "b-c"}
    assert counts(memory, tenant) == before


def test_a_supersession_cycle_deep_in_a_batch_names_its_item(memory: Memory, tenant: str) -> None:
    """A loop closed by two items of a large batch is refused naming an item of the loop
    by its index, id and field, as a link to a missing belief is: the id alone left the
    caller to search the batch for it."""
    before = counts(memory, tenant)
    batch = [deploy(tenant, f"b-x{i}", f"We deploy {i} to Heroku.") for i in range(50)]
    batch[40] = deploy(tenant, "b-a", "A.", supersedes="b-b")
    batch[45] = deploy(tenant, "b-b", "B.", supersedes="b-a")
    with pytest.raises(SupersessionCycleError) as info:
        memory.beliefs.add_many(batch)
    error = info.value
    assert (error.item_index, error.field) in {(40, "supersedes"), (45, "supersedes")}
    assert error.item_id == batch[error.item_index or 0]["id"]
    assert str(error).startswith(f"item {error.item_index}, id '{error.item_id}'")
    assert counts(memory, tenant) == before


def test_a_cycle_through_stored_beliefs_is_refused(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many(
        [
            deploy(tenant, "b-a", "A.", recorded_at=T0),
            deploy(tenant, "b-b", "B.", recorded_at=T0 + DAY, supersedes="b-a"),
        ]
    )
    before = counts(memory, tenant)
    # b-a is superseded by b-b; re-adding b-b as superseded by b-a closes a loop.
    with pytest.raises(SupersessionCycleError):
        memory.beliefs.add(
            deploy(
                tenant,
                "b-b",
                "B.",
                recorded_at=T0 + DAY,
                supersedes="b-a",
                state="superseded",
                superseded_by="b-a",
            )
        )
    assert counts(memory, tenant) == before


def test_superseding_an_unknown_or_foreign_belief_is_refused_alike(
    memory: Memory, tenant: str
) -> None:
    memory.beliefs.add(deploy(tenant, "b-theirs", "Heroku.", principal="p2"))
    before = counts(memory, tenant)
    messages = []
    for target in ("b-theirs", "b-nowhere"):
        with pytest.raises(NotFoundError) as info:
            memory.supersede(target, deploy(tenant, "b-new", "Fly.io."))
        messages.append(str(info.value).replace(target, "<id>"))
    assert messages[0] == messages[1]
    assert counts(memory, tenant) == before


@pytest.mark.parametrize("side", ["supersedes", "superseded_by"])
def test_a_batch_link_to_an_unknown_belief_names_the_item_and_field(
    memory: Memory, tenant: str, side: str
) -> None:
    """In a batch of many, a supersession link to a belief the principal does not have is
    refused naming the item that declares it and its field (as every other bad field of a
    batch is), not only the missing id: formation sending hundreds of drafts must find the
    one to fix. Another principal's belief is refused alike."""
    memory.beliefs.add(deploy(tenant, "b-theirs", "Heroku.", principal="p2"))
    before = counts(memory, tenant)
    messages = []
    for target in ("b-theirs", "b-nowhere"):
        link = {side: target, **({"state": "superseded"} if side == "superseded_by" else {})}
        batch = [deploy(tenant, f"b-{i}", f"We deploy {i} to Heroku.") for i in range(3)]
        batch[2] = deploy(tenant, "b-linked", "Fly.io.", **link)
        with pytest.raises(NotFoundError) as info:
            memory.beliefs.add_many(batch)
        assert (info.value.item_index, info.value.item_id, info.value.field) == (
            2,
            "b-linked",
            side,
        )
        assert str(info.value).startswith(f"item 2, id 'b-linked', field '{side}': no belief")
        messages.append(str(info.value).replace(target, "<id>"))
        assert counts(memory, tenant) == before
    assert messages[0] == messages[1]
    # ``supersede``'s own argument is named as the argument, with no batch item.
    with pytest.raises(NotFoundError) as info:
        memory.supersede("b-nowhere", deploy(tenant, "b-new", "Fly.io."))
    assert (info.value.field, info.value.item_index) == ("old_id", None)
    assert counts(memory, tenant) == before


def test_a_successor_under_its_predecessors_id_is_named_as_its_id(
    memory: Memory, tenant: str
) -> None:
    """``supersede`` of a belief by a draft under the same id (a corrected sentence sent
    back under the id it corrects) said "item 0, id 'b-1': supersedes or superseded_by
    names the belief itself": a batch position the call has none of, and no field. It
    names the draft's ``id``, says what to do, and writes nothing."""
    memory.beliefs.add(deploy(tenant, "b-1", "We deploy to Heroku.", recorded_at=T0))
    before = counts(memory, tenant)
    for statement in ("We deploy to Fly.io.", "We deploy to Heroku."):
        with pytest.raises(InvalidInputError) as info:
            memory.supersede("b-1", deploy(tenant, "b-1", statement))
        assert (info.value.field, info.value.item_id, info.value.item_index) == (
            "id",
            "b-1",
            None,
        )
        assert str(info.value).startswith("id 'b-1', field 'id': is the id of the belief")
        assert counts(memory, tenant) == before
    assert memory.beliefs.get(tenant, "p1", "b-1").state is LifecycleState.ACTIVE


# --- idempotency --------------------------------------------------------------------------


def test_re_adding_the_same_belief_is_a_no_op(memory: Memory, tenant: str) -> None:
    first = memory.beliefs.add(deploy(tenant, "b-1", "Heroku.", recorded_at=T0))
    before = counts(memory, tenant)
    again = memory.beliefs.add(deploy(tenant, "b-1", "Heroku.", recorded_at=T0))
    assert again == first
    # A re-sent successor is a no-op too, and records no second event.
    memory.supersede("b-1", deploy(tenant, "b-2", "Fly.io.", recorded_at=T0 + DAY))
    after_supersede = counts(memory, tenant)
    memory.supersede("b-1", deploy(tenant, "b-2", "Fly.io.", recorded_at=T0 + DAY))
    assert counts(memory, tenant) == after_supersede
    assert before["beliefs"] + 1 == after_supersede["beliefs"]


def test_re_adding_an_id_with_other_content_is_a_conflict(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(deploy(tenant, "b-1", "Heroku.", recorded_at=T0))
    before = counts(memory, tenant)
    with pytest.raises(ConflictError) as info:
        memory.beliefs.add_many(
            [deploy(tenant, "b-2", "Render."), deploy(tenant, "b-1", "Fly.io.", recorded_at=T0)]
        )
    assert info.value.field == "statement" and info.value.item_index == 1
    assert info.value.item_id == "b-1"
    assert isinstance(info.value, InvalidInputError)
    assert counts(memory, tenant) == before


def test_lifecycle_fields_of_a_re_add_are_the_stores(memory: Memory, tenant: str) -> None:
    """A formation process re-sending a belief it once sent does not undo a correction."""
    memory.beliefs.add(deploy(tenant, "b-1", "Heroku.", recorded_at=T0))
    memory.retire(tenant, "p1", "b-1", "wrong")
    again = memory.beliefs.add(deploy(tenant, "b-1", "Heroku.", recorded_at=T0, state="active"))
    assert again.state is LifecycleState.RETIRED


# --- retract, retire, expire --------------------------------------------------------------


def test_retract_is_system_time(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(deploy(tenant, "b-1", "We deploy to Heroku.", recorded_at=T0))
    goal = "deploy target Heroku"
    retracted = memory.retract(tenant, "p1", "b-1", "recorded by mistake")
    assert retracted.retracted_at is not None
    assert rendered(memory, tenant, goal) == ()
    # What was known before the retraction still reads as it was.
    before = retracted.retracted_at - timedelta(seconds=1)
    assert rendered(memory, tenant, goal, as_of=before, known_as_of=before) == ("b-1",)
    again = memory.retract(tenant, "p1", "b-1", "again")
    assert again.retracted_at == retracted.retracted_at


def test_retire_and_expire(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many(
        [
            deploy(tenant, "b-1", "We deploy to Heroku.", recorded_at=T0),
            deploy(tenant, "b-2", "We deploy on Fridays.", recorded_at=T0),
        ]
    )
    goal = "deploy target"
    assert set(rendered(memory, tenant, goal)) == {"b-1", "b-2"}
    assert memory.retire(tenant, "p1", "b-1").state is LifecycleState.RETIRED
    expired = memory.expire(tenant, "p1", "b-2", T0 + 30 * DAY, reason="moved to Thursdays")
    assert (expired.state, expired.valid_to) == (LifecycleState.EXPIRED, T0 + 30 * DAY)
    assert rendered(memory, tenant, goal) == ()
    # The reason given to Memory.expire is kept with the event, as retire's is.
    history = memory.beliefs.history(tenant, "p1", "b-2")
    assert [(e.kind.value, e.reason) for e in history.events][-1] == (
        "expired",
        "moved to Thursdays",
    )
    kinds = []
    with memory.pool.connection() as conn:
        kinds = [
            r[0]
            for r in conn.execute(
                "SELECT kind FROM belief_events WHERE tenant_id = %s ORDER BY id", (tenant,)
            ).fetchall()
        ]
    assert kinds == ["retired", "expired"]


def test_an_expiry_never_revives_a_belief_that_ended_otherwise(memory: Memory, tenant: str) -> None:
    """Expiring a superseded or a retired belief records its end of validity and keeps its
    state: made ``expired``, it was live again at every ``as_of`` before that end, the
    superseded one beside the successor that replaced it."""
    memory.beliefs.add_many(
        [
            deploy(tenant, "b-heroku", "We deploy to Heroku.", valid_from=T0, recorded_at=T0),
            deploy(tenant, "b-fly", "We deploy to Fly.", valid_from=T0, recorded_at=T0),
        ]
    )
    memory.beliefs.supersede(
        "b-heroku",
        deploy(tenant, "b-render", "We deploy to Render.", valid_from=T0 + 10 * DAY,
               recorded_at=T0 + 10 * DAY),
    )  # fmt: skip
    memory.retire(tenant, "p1", "b-fly")
    goal = "deploy target Heroku Fly Render"
    between = {"as_of": T0 + 20 * DAY, "known_as_of": T0 + 40 * DAY}
    assert rendered(memory, tenant, goal, **between) == ("b-render",)
    for bid, state in (("b-heroku", LifecycleState.SUPERSEDED), ("b-fly", LifecycleState.RETIRED)):
        ended = memory.expire(tenant, "p1", bid, T0 + 30 * DAY)
        assert (ended.state, ended.valid_to) == (state, T0 + 30 * DAY)
        assert memory.beliefs.get(tenant, "p1", bid) == ended
    assert rendered(memory, tenant, goal, **between) == ("b-render",)
    before = counts(memory, tenant)
    memory.expire(tenant, "p1", "b-heroku", T0 + 30 * DAY)  # a repeat records nothing
    assert counts(memory, tenant) == before
    history = memory.beliefs.history(tenant, "p1", "b-heroku")
    assert [e.kind.value for e in history.events] == ["created", "superseded", "expired"]


@pytest.mark.parametrize(
    ("call", "args", "field"),
    [
        ("retract", ("b-1", ""), "reason"),
        ("retract", ("", "why"), "belief_id"),
        # a reason is the user's words, bounded as a rejection's note is
        ("retract", ("b-1", "r" * 1001), "reason"),
        ("retire", ("b-1", "r" * 1001), "reason"),
        ("retire", ("bad id with spaces",), "belief_id"),
        ("expire", ("b-1", datetime(2026, 1, 1)), "at"),  # naive
        ("expire", ("b-1", T0 - 400 * DAY), "at"),  # before it began
    ],
)
def test_bad_lifecycle_input_is_typed_and_writes_nothing(
    memory: Memory, tenant: str, call: str, args: tuple[Any, ...], field: str
) -> None:
    memory.beliefs.add(deploy(tenant, "b-1", "Heroku.", recorded_at=T0, valid_from=T0 - DAY))
    before = counts(memory, tenant)
    with pytest.raises(InvalidInputError) as info:
        getattr(memory, call)(tenant, "p1", *args)
    assert info.value.field == field
    assert counts(memory, tenant) == before


@pytest.mark.parametrize("call", ["retract", "retire", "expire", "forget_belief"])
def test_lifecycle_on_foreign_or_unknown_ids_is_refused_alike(
    memory: Memory, tenant: str, call: str
) -> None:
    memory.beliefs.add(deploy(tenant, "b-theirs", "Heroku.", principal="p2"))
    extra = ("why",) if call == "retract" else ()
    messages = []
    before = counts(memory, tenant)
    for target in ("b-theirs", "b-nowhere"):
        with pytest.raises(NotFoundError) as info:
            getattr(memory, call)(tenant, "p1", target, *extra)
        messages.append(str(info.value).replace(target, "<id>"))
    assert messages[0] == messages[1] == "field 'belief_id': no belief '<id>' for " + f"{tenant}/p1"
    assert counts(memory, tenant) == before
    assert memory.beliefs.get(tenant, "p2", "b-theirs").state is LifecycleState.ACTIVE


# --- exact duplicates: stored once ---------------------------------------------------------


def test_an_exact_duplicate_of_one_derivation_is_stored_once(memory: Memory, tenant: str) -> None:
    memory.episodes.add(
        {"id": "e-1", "tenant_id": tenant, "principal_id": "p1", "occurred_at": T0, "content": "x"}
    )
    first = memory.beliefs.add(
        deploy(tenant, "b-1", "We deploy to Heroku.", source_episode_id="e-1")
    )
    before = counts(memory, tenant)
    # Formation derives it again under a new id, alone and twice in one batch.
    again = memory.beliefs.add_many(
        [
            deploy(tenant, "b-1-again", "We deploy to Heroku.", source_episode_id="e-1"),
            deploy(tenant, "b-new", "We deploy on Fridays.", source_episode_id="e-1"),
            deploy(tenant, "b-new-again", "We deploy on Fridays.", source_episode_id="e-1"),
        ]
    )
    assert [b.id for b in again] == ["b-1", "b-new", "b-new"]
    assert again[0] == first
    assert counts(memory, tenant)["beliefs"] == before["beliefs"] + 1
    # A correction made on the stored belief holds when it is derived again.
    memory.retire(tenant, "p1", "b-1", "not true")
    back = memory.beliefs.add(
        deploy(tenant, "b-1-third", "We deploy to Heroku.", source_episode_id="e-1")
    )
    assert (back.id, back.state) == ("b-1", LifecycleState.RETIRED)


def test_other_content_or_no_source_is_not_a_duplicate(memory: Memory, tenant: str) -> None:
    memory.episodes.add(
        {"id": "e-1", "tenant_id": tenant, "principal_id": "p1", "occurred_at": T0, "content": "x"}
    )
    memory.beliefs.add(deploy(tenant, "b-1", "We deploy to Heroku.", source_episode_id="e-1"))
    other = memory.beliefs.add_many(
        [
            deploy(
                tenant,
                "b-2",
                "We deploy to Heroku.",
                source_episode_id="e-1",
                scope="project",
                origin_project="x",
            ),
            deploy(tenant, "b-3", "We deploy to Heroku."),
            deploy(tenant, "b-4", "We deploy to Heroku."),
        ]
    )
    assert [b.id for b in other] == ["b-2", "b-3", "b-4"]


# --- one text, two Unicode spellings ------------------------------------------------------


Form = Literal["NFC", "NFD"]


def _spelled(form: Form, text: str) -> str:
    return unicodedata.normalize(form, text)


@pytest.mark.parametrize(("stored_as", "asked_as"), [("NFD", "NFC"), ("NFC", "NFD")])
def test_a_belief_is_recalled_whichever_unicode_form_wrote_or_asks_for_it(
    memory: Memory, tenant: str, stored_as: Form, asked_as: Form
) -> None:
    text = "Le dessert préféré de l'utilisateur est la crème brûlée."
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-dessert", statement=_spelled(stored_as, text), subject="dessert"),
            belief(tenant, id="b-weather", statement="It rains all spring.", subject="weather"),
        ]
    )
    goal = _spelled(asked_as, "crème brûlée préféré")
    assert rendered(memory, tenant, goal) == ("b-dessert",)


def test_the_same_text_in_another_unicode_form_is_the_same_belief(
    memory: Memory, tenant: str
) -> None:
    text = "Zoë's café opens at nine."
    first = memory.beliefs.add(
        belief(
            tenant,
            id="b-cafe",
            statement=_spelled("NFC", text),
            subject=_spelled("NFC", "Zoë café"),
            entities=[_spelled("NFC", "Zoë")],
        )
    )
    again = memory.beliefs.add(
        belief(
            tenant,
            id="b-cafe",
            statement=_spelled("NFD", text),
            subject=_spelled("NFD", "Zoë café"),
            entities=[_spelled("NFD", "Zoë")],
        )
    )  # a retry from a client that sends decomposed text: a no-op, not a conflict
    assert again == first
    assert memory.beliefs.get(tenant, "p1", "b-cafe").statement == _spelled("NFC", text)
    assert len(memory.beliefs.list(tenant, "p1")) == 1


# --- retries of episode and edge batches --------------------------------------------------


def episode(tenant: str, eid: str, content: str, **fields: Any) -> dict[str, Any]:
    return {
        "id": eid,
        "tenant_id": tenant,
        "principal_id": "p1",
        "occurred_at": T0,
        "content": content,
        **fields,
    }


def stored_rows(memory: Memory, table: str, tenant: str) -> int:
    with memory.pool.connection() as conn:
        row = conn.execute(
            sql.SQL("SELECT count(*) FROM {} WHERE tenant_id = %s").format(sql.Identifier(table)),
            (tenant,),
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_retried_episode_batch_is_stored_once(memory: Memory, tenant: str) -> None:
    batch = [episode(tenant, "e-1", "We moved to Fly.io."), episode(tenant, "e-2", "It works.")]
    first = memory.episodes.add_many(batch)
    # The answer of the first write was lost; the client sends the batch again, with one more.
    again = memory.episodes.add_many([*batch, episode(tenant, "e-3", "Deploys are faster.")])
    assert again[:2] == first  # the stored episodes, their recorded_at the first write's
    assert [e.id for e in again] == ["e-1", "e-2", "e-3"]
    assert stored_rows(memory, "episodes", tenant) == 3


def test_an_episode_id_with_other_content_is_a_conflict_and_writes_nothing(
    memory: Memory, tenant: str
) -> None:
    memory.episodes.add(episode(tenant, "e-1", "We moved to Fly.io."))
    with pytest.raises(ConflictError) as err:
        memory.episodes.add_many(
            [episode(tenant, "e-new", "Another."), episode(tenant, "e-1", "We moved to Render.")]
        )
    assert (err.value.item_index, err.value.item_id, err.value.field) == (1, "e-1", "content")
    assert stored_rows(memory, "episodes", tenant) == 1


def test_concurrent_writers_of_one_episode_store_it_once(memory: Memory, tenant: str) -> None:
    errors: list[BaseException] = []

    def write() -> None:
        try:
            memory.episodes.add(episode(tenant, "e-same", "The same event, sent twice."))
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=write) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert stored_rows(memory, "episodes", tenant) == 1


def test_a_retried_edge_batch_is_stored_once(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many(
        [
            deploy(tenant, "b-a", "We deploy to Fly.io."),
            deploy(tenant, "b-b", "Deploys run from CI."),
            deploy(tenant, "b-c", "CI is GitHub Actions."),
        ]
    )
    edge = {"tenant_id": tenant, "principal_id": "p1", "src_id": "b-a", "dst_id": "b-b"}
    memory.edges.add_many([edge])
    memory.edges.add_many([edge, {**edge, "src_id": "b-b", "dst_id": "b-c"}])
    assert stored_rows(memory, "belief_edges", tenant) == 2
    with pytest.raises(ConflictError) as err:
        memory.edges.add_many([{**edge, "src_id": "b-a", "dst_id": "b-c"}, {**edge, "weight": 0.5}])
    assert (err.value.item_index, err.value.field) == (1, "weight")
    assert stored_rows(memory, "belief_edges", tenant) == 2


def test_a_writer_of_an_edge_another_writer_is_storing_finds_it_stored(
    memory: Memory, tenant: str
) -> None:
    """Two writers of the same new edge both found it free: the later one's batch then
    waited on the key and failed on it (a ConstraintViolation) once the first committed,
    where a re-added edge is a no-op. Here the first writer holds the principal's write
    lock and its uncommitted edge while the second writes."""
    memory.beliefs.add_many(
        [deploy(tenant, "b-a", "We deploy to Fly.io."), deploy(tenant, "b-b", "From CI.")]
    )
    edge = {"tenant_id": tenant, "principal_id": "p1", "src_id": "b-a", "dst_id": "b-b"}
    outcome: list[BaseException | None] = []

    def write() -> None:
        try:
            memory.edges.add(edge)
            outcome.append(None)
        except BaseException as exc:  # reported by the assertion below
            outcome.append(exc)

    with memory.pool.connection() as first, first.transaction():
        lock_principals(first, [(tenant, "p1")])
        first.execute(
            "INSERT INTO belief_edges (tenant_id, principal_id, src_id, dst_id, relation,"
            " weight) VALUES (%s, 'p1', 'b-a', 'b-b', 'related', 1.0)",
            (tenant,),
        )
        second = threading.Thread(target=write)
        second.start()
        second.join(timeout=0.5)  # it now waits for the lock (new) or on the key (old)
    second.join(timeout=30)
    assert outcome == [None]
    assert stored_rows(memory, "belief_edges", tenant) == 1


# --- a write the server cancels ------------------------------------------------------------


def _cancelled_while_waiting(memory: Memory, tenant: str, write: Any) -> BaseException | None:
    """Run ``write`` while another transaction holds the principal's write lock, cancel it
    on the server once it waits for that lock, and return what it raised."""
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            write()
            outcome.append(None)
        except BaseException as exc:  # returned to the test, which asserts on it
            outcome.append(exc)

    with memory.pool.connection() as holder, holder.transaction():
        lock_principals(holder, [(tenant, "p1")])
        thread = threading.Thread(target=run)
        thread.start()
        cancelled = False
        for _ in range(500):
            with memory.pool.connection() as watcher:  # its own snapshot of the activity
                row = watcher.execute(
                    "SELECT pg_cancel_backend(pid) FROM pg_stat_activity"
                    " WHERE wait_event_type = 'Lock' AND query LIKE %s AND pid <> %s",
                    ("%pg_advisory_xact_lock%", holder.info.backend_pid),
                ).fetchone()
            if row is not None:
                cancelled = bool(row[0])
                break
            time.sleep(0.02)
        thread.join(timeout=30)
    assert cancelled, "the write never waited for the lock"
    return outcome[0]


def test_a_cancelled_write_is_typed_writes_nothing_and_can_be_retried(
    memory: Memory, tenant: str
) -> None:
    batch = [deploy(tenant, f"b-{i}", f"Service {i} deploys to Fly.io.") for i in range(3)]
    raised = _cancelled_while_waiting(memory, tenant, lambda: memory.beliefs.add_many(batch))
    assert isinstance(raised, WriteCancelledError), raised
    assert "nothing of it was written" in str(raised)
    assert memory.beliefs.list(tenant, "p1") == []
    assert len(memory.beliefs.add_many(batch)) == 3
    raised = _cancelled_while_waiting(
        memory, tenant, lambda: memory.retract(tenant, "p1", "b-0", reason="wrong")
    )
    assert isinstance(raised, WriteCancelledError), raised
    assert memory.beliefs.get(tenant, "p1", "b-0").retracted_at is None
    assert memory.retract(tenant, "p1", "b-0", reason="wrong").retracted_at is not None


def test_accented_subjects_keep_their_letters_and_stay_apart(memory: Memory, tenant: str) -> None:
    stored = memory.beliefs.add_many(
        [
            belief(tenant, id="b-mu", statement="Müller reviews the invoices.", subject="Müller"),
            belief(tenant, id="b-mo", statement="Möller signs the contracts.", subject="Möller"),
            belief(
                tenant,
                id="b-zoe",
                statement="Zoë runs the café.",
                subject="Zoë's café",
                entities=["Zoë", "Crème Brûlée"],
            ),
        ]
    )
    assert [b.subject for b in stored] == ["muller", "moller", "zoe-s-cafe"]
    assert stored[2].entities == ("zoe", "creme-brulee")
    # An entity typed without its accents names the same key.
    goal = "Who signs the contracts?"
    got = rendered(memory, tenant, goal, working_state={"entities": ["Moller"]})
    assert got[:1] == ("b-mo",)


def test_an_accented_name_in_the_query_forms_the_key_its_belief_is_stored_under(
    memory: Memory, tenant: str
) -> None:
    """Keys drop accents ("José" is stored as ``jose``), but the query former read a name in
    the goal as written and stopped at the accent: "José" gave the key ``jos``, so the
    structured arm never found the belief the user named, and ``café`` the term ``caf``."""
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-jose", statement="Lives by the river in Porto.", subject="José"),
            belief(tenant, id="b-joss", statement="Prefers tea to coffee.", subject="Joss"),
        ]
    )
    result = memory.recall(request(tenant, goal="Where does our friend José live?"), policy=PATIENT)
    keys = {k for q in result.trace.queries for k in q.keys}
    assert "jose" in keys and "jos" not in keys
    structured = {a.arm: a for a in result.trace.arms}[Arm.STRUCTURED]
    assert [h.belief_id for h in structured.hits] == ["b-jose"]


def test_a_subject_with_no_letter_a_key_keeps_says_what_a_key_keeps(
    memory: Memory, tenant: str
) -> None:
    with pytest.raises(InvalidInputError) as err:
        memory.beliefs.add(belief(tenant, id="b-dots", subject="・・・"))
    assert err.value.field == "subject"
    assert "letters and digits of every script" in str(err.value)
    assert memory.beliefs.list(tenant, "p1") == []


# --- system time ahead of the clock ---------------------------------------------------------


def test_a_belief_recorded_in_the_future_is_refused_by_name_and_nothing_is_written(
    memory: Memory, tenant: str
) -> None:
    """A belief imported with a wrong clock or time zone, recorded a day ahead, was stored
    and then left out of every recall until that day. The batch is refused, naming the
    item and field; a world time ahead (it becomes true later) is still written."""
    ahead = datetime.now(UTC) + DAY
    batch = [
        deploy(tenant, "b-now", "We deploy to Heroku.", recorded_at=None),
        deploy(tenant, "b-ahead", "We deploy to Fly.io.", recorded_at=ahead),
    ]
    with pytest.raises(InvalidInputError) as refused:
        memory.beliefs.add_many(batch)
    assert (refused.value.field, refused.value.item_index) == ("recorded_at", 1)
    assert refused.value.item_id == "b-ahead" and "clock_skew_seconds" in str(refused.value)
    assert counts(memory, tenant)["beliefs"] == 0
    memory.beliefs.add(deploy(tenant, "b-1", "We deploy to Heroku.", recorded_at=T0))
    with pytest.raises(InvalidInputError) as refused:
        memory.supersede("b-1", deploy(tenant, "b-y", "Y.", recorded_at=ahead))
    assert (refused.value.field, refused.value.item_id) == ("recorded_at", "b-y")
    assert counts(memory, tenant)["beliefs"] == 1
    assert memory.beliefs.get(tenant, "p1", "b-1").state is LifecycleState.ACTIVE

    later = memory.beliefs.add(
        deploy(tenant, "b-later", "We deploy to Render.", recorded_at=None, valid_from=ahead)
    )
    assert later.valid_from == ahead and later.recorded_at <= datetime.now(UTC)


def test_a_recorded_at_within_the_clock_skew_is_written_and_recalled(
    memory: Memory, tenant: str
) -> None:
    """Two machines' clocks disagree by a little: a belief stamped a minute ahead by the
    writer's clock is written, and a policy may allow more."""
    skewed = datetime.now(UTC) + timedelta(minutes=1)
    memory.beliefs.add(deploy(tenant, "b-1", "We deploy to Heroku.", recorded_at=skewed))
    hour = datetime.now(UTC) + timedelta(hours=1)
    with pytest.raises(InvalidInputError):
        memory.beliefs.add(deploy(tenant, "b-2", "We deploy to Fly.io.", recorded_at=hour))
    lenient = PATIENT.model_copy(
        update={"writes": PATIENT.writes.model_copy(update={"clock_skew_seconds": 7200})}
    )
    memory.beliefs.add(
        deploy(tenant, "b-2", "We deploy to Fly.io.", recorded_at=hour), policy=lenient
    )
    assert {b.id for b in memory.beliefs.list(tenant, "p1")} == {"b-1", "b-2"}


def test_an_episode_recorded_in_the_future_is_refused_by_name_and_nothing_is_written(
    memory: Memory, tenant: str
) -> None:
    ahead = datetime.now(UTC) + DAY
    base = {"tenant_id": tenant, "principal_id": "p1", "content": "Standup moved."}
    with pytest.raises(InvalidInputError) as refused:
        memory.episodes.add_many(
            [
                {**base, "id": "e-1", "occurred_at": T0},
                {**base, "id": "e-2", "occurred_at": T0, "recorded_at": ahead},
            ]
        )
    assert (refused.value.field, refused.value.item_index, refused.value.item_id) == (
        "recorded_at",
        1,
        "e-2",
    )
    with pytest.raises(NotFoundError):
        memory.episodes.get(tenant, "p1", "e-1")


def test_an_episode_that_occurs_after_now_is_refused_by_name_and_nothing_is_written(
    memory: Memory, tenant: str
) -> None:
    """An episode records what happened: one stamped a day ahead (a local time written as
    UTC, a wrong clock) was stored and then missing from every archival search until that
    day, with nothing said. The batch is refused, naming the item and field; within the
    clock skew it is written, and found."""
    base = {"tenant_id": tenant, "principal_id": "p1", "content": "Standup moved to ten."}
    with pytest.raises(InvalidInputError) as refused:
        memory.episodes.add_many(
            [
                {**base, "id": "e-1", "occurred_at": T0},
                {**base, "id": "e-2", "occurred_at": datetime.now(UTC) + DAY},
            ]
        )
    assert (refused.value.field, refused.value.item_index, refused.value.item_id) == (
        "occurred_at",
        1,
        "e-2",
    )
    assert "clock_skew_seconds" in str(refused.value)
    for eid in ("e-1", "e-2"):
        with pytest.raises(NotFoundError):
            memory.episodes.get(tenant, "p1", eid)
    skewed = datetime.now(UTC) + timedelta(seconds=2)
    memory.episodes.add({**base, "id": "e-3", "occurred_at": skewed})
    time.sleep(max(0.0, (skewed - datetime.now(UTC)).total_seconds()) + 0.01)
    found = memory.search_episodes({"tenant_id": tenant, "principal_id": "p1", "query": "standup"})
    assert [i.episode_id for i in found.items] == ["e-3"]


def test_a_belief_retracted_after_now_is_refused_by_name_and_nothing_is_written(
    memory: Memory, tenant: str
) -> None:
    """A retraction imported with a wrong time zone, a day ahead, was stored and the
    belief the writer meant withdrawn was recalled until that day. It is refused like a
    recorded_at ahead; a retraction in the past is written."""
    ahead = datetime.now(UTC) + DAY
    batch = [
        deploy(tenant, "b-0", "We deploy to Heroku.", recorded_at=T0),
        deploy(tenant, "b-x", "We deploy to Fly.io.", recorded_at=T0, retracted_at=ahead),
    ]
    with pytest.raises(InvalidInputError) as refused:
        memory.beliefs.add_many(batch)
    assert (refused.value.field, refused.value.item_index, refused.value.item_id) == (
        "retracted_at",
        1,
        "b-x",
    )
    assert "clock_skew_seconds" in str(refused.value)
    assert counts(memory, tenant)["beliefs"] == 0
    past = memory.beliefs.add(
        deploy(tenant, "b-y", "We deploy to Render.", recorded_at=T0, retracted_at=T0 + DAY)
    )
    assert past.retracted_at == T0 + DAY


#: Each principal's term statistics recounted from its beliefs, as the triggers keep them
#: (a belief's lexemes and keys, each once, per state and sensitivity).
_RECOUNT = (
    "SELECT b.principal_id, x.kind, x.term, b.state, b.sensitivity, count(*)::int"
    " FROM beliefs b, LATERAL (SELECT 'l'::\"char\" AS kind, lx AS term"
    "  FROM unnest(tsvector_to_array(b.search_document)) AS lx"
    "  UNION SELECT 'k'::\"char\", k FROM unnest(array_append(b.entities, b.subject)) AS k) x"
    " WHERE b.tenant_id = %s GROUP BY 1, 2, 3, 4, 5"
)


def _term_statistics(memory: Memory, tenant: str) -> tuple[Any, ...]:
    """The tenant's stored term statistics and their recount from its beliefs, as
    (terms, recounted terms, terms per class, recounted per class, sizes, recounted)."""
    with memory.pool.connection() as conn:
        recount = conn.execute(_RECOUNT, (tenant,)).fetchall()
        by_term: dict[tuple[Any, ...], int] = {}
        for principal, kind, term, _state, _sensitivity, df in recount:
            key = (principal, kind, term)
            by_term[key] = by_term.get(key, 0) + df
        terms = conn.execute(
            "SELECT principal_id, kind, term, df FROM principal_terms"
            " WHERE tenant_id = %s AND df > 0",
            (tenant,),
        ).fetchall()
        classes = conn.execute(
            "SELECT principal_id, kind, term, state, sensitivity, df FROM principal_term_classes"
            " WHERE tenant_id = %s AND df > 0",
            (tenant,),
        ).fetchall()
        sizes = conn.execute(
            "SELECT principal_id, state, sensitivity, beliefs FROM principal_class_sizes"
            " WHERE tenant_id = %s AND beliefs > 0",
            (tenant,),
        ).fetchall()
        counted = conn.execute(
            "SELECT principal_id, state, sensitivity, count(*)::int FROM beliefs"
            " WHERE tenant_id = %s GROUP BY 1, 2, 3",
            (tenant,),
        ).fetchall()
    return (
        sorted(terms),
        sorted((*k, df) for k, df in by_term.items()),
        sorted(classes),
        sorted(recount),
        sorted(sizes),
        sorted(counted),
    )


def test_term_statistics_count_every_belief_written_once(memory: Memory, tenant: str) -> None:
    """The rarity statistics the triggers keep per principal, and per state and
    sensitivity, equal a recount from the beliefs after a bulk write of two principals
    (a subject that is also one of its entities, a word in several classes), a
    supersession and a retirement."""
    memory.beliefs.add_many(
        belief(
            tenant,
            principal,
            id=f"b-{principal}-{i}",
            statement=f"Service {i % 3} runs in region {i % 2} for team {principal}",
            subject=f"service-{i % 3}",
            entities=[f"service-{i % 3}", f"region-{i % 2}"],
            sensitivity=i % 3,
            state="provisional" if i % 4 == 0 else "active",
        )
        for principal in ("p1", "p2")
        for i in range(12)
    )
    memory.supersede(
        "b-p1-1",
        belief(tenant, "p1", id="b-p1-new", statement="Service 1 moved to region 5"),
        policy=PATIENT,
    )
    memory.retire(tenant, "p2", "b-p2-2")
    terms, recounted, classes, reclassed, sizes, counted = _term_statistics(memory, tenant)
    assert len(terms) > 10 and len(classes) > len(terms)
    assert (terms, classes, sizes) == (recounted, reclassed, counted)


def test_a_batch_of_interleaved_principals_is_written_as_each_alone(
    memory: Memory, tenant: str
) -> None:
    """One batch over three principals, their beliefs interleaved: each principal's
    re-add, supersession of a stored belief and duplicate of a stored derivation are
    applied as if its beliefs came alone, and each belief comes back in its batch place;
    a conflicting re-add of the last principal writes nothing of any of them."""
    for principal in ("p1", "p2", "p3"):
        memory.episodes.add(
            {
                "id": "e-1",
                "tenant_id": tenant,
                "principal_id": principal,
                "occurred_at": T0,
                "content": "We moved the deploys.",
            }
        )
    stored = memory.beliefs.add_many(
        [
            deploy(tenant, "b-old", "We deploy to Heroku.", principal="p1", recorded_at=T0),
            deploy(tenant, "b-seen", "We deploy to Fly.", principal="p2", source_episode_id="e-1"),
            deploy(tenant, "b-old", "We deploy to Render.", principal="p3", recorded_at=T0),
        ]
    )
    batch = [
        deploy(tenant, "b-new", "We deploy to Fly.io.", principal="p1", supersedes="b-old"),
        deploy(tenant, "b-again", "We deploy to Fly.", principal="p2", source_episode_id="e-1"),
        deploy(tenant, "b-old", "We deploy to Render.", principal="p3", recorded_at=T0),
        deploy(tenant, "b-more", "We build on CI.", principal="p2"),
        deploy(tenant, "b-next", "We deploy to Fly.io.", principal="p3", supersedes="b-old"),
    ]
    written = memory.beliefs.add_many(batch)
    assert [(b.principal_id, b.id) for b in written] == [
        ("p1", "b-new"),
        ("p2", "b-seen"),  # the stored belief of the same derivation
        ("p3", "b-old"),
        ("p2", "b-more"),
        ("p3", "b-next"),
    ]
    assert written[1] == stored[1]
    # The re-added p3 belief comes back superseded by the batch's own successor.
    assert (written[2].state, written[2].superseded_by) == (LifecycleState.SUPERSEDED, "b-next")
    for principal, old, new in (("p1", "b-old", "b-new"), ("p3", "b-old", "b-next")):
        got = memory.beliefs.get(tenant, principal, old)
        assert (got.state, got.superseded_by) == (LifecycleState.SUPERSEDED, new)
    before = counts(memory, tenant)
    with pytest.raises(ConflictError) as info:
        memory.beliefs.add_many(
            [
                deploy(tenant, "b-fresh-1", "We test on CI.", principal="p1"),
                deploy(tenant, "b-fresh-2", "We test on CI.", principal="p2"),
                deploy(tenant, "b-old", "We deploy to Vercel.", principal="p3", recorded_at=T0),
            ]
        )
    assert (info.value.item_index, info.value.item_id, info.value.field) == (
        2,
        "b-old",
        "statement",
    )
    assert counts(memory, tenant) == before


def test_a_batch_of_principals_names_the_first_bad_item_in_batch_order(
    memory: Memory, tenant: str
) -> None:
    """A batch whose first principal writes a lone conflicted belief and whose second
    names an unknown predecessor is refused for the first principal's item, as it is
    written principal by principal, though the batch reads for all of them at once; and
    either mistake alone is refused for its own item. Nothing is written."""
    lone = deploy(
        tenant,
        "b-lone",
        "We deploy to Fly.",
        principal="p1",
        state="conflicted",
        conflict_set_id="c-1",
    )
    dangling = deploy(
        tenant, "b-next", "We deploy to Render.", principal="p2", supersedes="b-missing"
    )
    fine = deploy(tenant, "b-fine", "We build on CI.", principal="p2")
    before = counts(memory, tenant)
    with pytest.raises(InvalidInputError) as info:
        memory.beliefs.add_many([lone, fine, dangling])
    assert (info.value.item_index, info.value.item_id, info.value.field) == (
        0,
        "b-lone",
        "conflict_set_id",
    )
    with pytest.raises(NotFoundError):
        memory.beliefs.add_many([fine, dangling])
    with pytest.raises(InvalidInputError) as alone:
        memory.beliefs.add_many([fine, lone])
    assert (alone.value.item_index, alone.value.item_id) == (1, "b-lone")
    assert counts(memory, tenant) == before


def test_a_source_episode_the_store_lacks_is_refused_in_words(memory: Memory, tenant: str) -> None:
    """A belief naming an episode the principal does not have was refused with the
    server's text ("violates foreign key constraint … is not present in table
    \\"episodes\\""); it names the field, the item, and what to do, and nothing is written."""
    drafts = [
        deploy(tenant, "b-ok", "We deploy to Heroku."),
        deploy(tenant, "b-orphan", "We deploy on Fridays.", source_episode_id="e-missing"),
    ]
    with pytest.raises(ConstraintViolation) as refused:
        memory.beliefs.add_many(drafts)
    assert refused.value.field == "source_episode_id" and refused.value.item_id == "b-orphan"
    assert "source_episode_id 'e-missing' names no episode of tenant_id" in str(refused.value)
    assert "foreign key" not in str(refused.value)
    assert memory.beliefs.list(tenant, "p1") == []
