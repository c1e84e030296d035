"""A conflict ends when it has one live member left, on the real embedded server: however
the other member leaves — forgotten, retired, retracted, expired, superseded or rejected as
not true — the survivor is no longer disputed. It returns to the state it would have
without the conflict, a recall shows it as a plain item, and its history says why (see
"Lifecycle writes" in docs/corrections.md)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from recallflow import InvalidInputError, LifecycleState, Memory
from recallflow.adapters.postgres.migrate import load_migrations
from tests.helpers import belief, patient_policy, request

GOAL = "Which queue do billing jobs run on?"
SIDES = {
    "b-queue-sidekiq": "Billing jobs run on the Sidekiq queue.",
    "b-queue-resque": "Billing jobs run on the Resque queue.",
    "b-queue-celery": "Billing jobs run on the Celery queue.",
}


def store_conflict(memory: Memory, tenant: str, principal: str, members: int = 2) -> None:
    memory.beliefs.add_many(
        [
            belief(tenant, principal, id=bid, statement=text, subject="billing-queue",
                   state="conflicted", conflict_set_id="c-queue", confidence=0.9)
            for bid, text in list(SIDES.items())[:members]
        ]
    )  # fmt: skip


def rows_of(memory: Memory, tenant: str, principal: str) -> dict[str, list[str]]:
    out = {}
    with memory.pool.connection() as conn:
        for table in ("beliefs", "belief_events"):
            out[table] = sorted(
                str(r[0])
                for r in conn.execute(
                    f"SELECT t::text FROM {table} t WHERE tenant_id = %s AND principal_id = %s",
                    (tenant, principal),
                ).fetchall()
            )
    return out


def _forget(memory: Memory, tenant: str) -> None:
    memory.forget_belief(tenant, "p1", "b-queue-sidekiq")


def _retire(memory: Memory, tenant: str) -> None:
    memory.retire(tenant, "p1", "b-queue-sidekiq", reason="moved off Sidekiq")


def _retract(memory: Memory, tenant: str) -> None:
    memory.retract(tenant, "p1", "b-queue-sidekiq", reason="recorded by mistake")


def _expire(memory: Memory, tenant: str) -> None:
    memory.expire(tenant, "p1", "b-queue-sidekiq", at=datetime.now(UTC))


def _supersede(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(
        belief(tenant, id="b-queue-later", statement="Nightly exports run on cron.",
               subject="exports", supersedes="b-queue-sidekiq")
    )  # fmt: skip


def _reject_not_true(memory: Memory, tenant: str) -> None:
    traced = memory.recall(request(tenant, goal=GOAL), policy=patient_policy())
    assert "b-queue-sidekiq" in traced.rendered_ids
    memory.reject(tenant, "p1", traced.trace_id, "b-queue-sidekiq", "not_true")


LEAVES: dict[str, Callable[[Memory, str], None]] = {
    "forgotten": _forget,
    "retired": _retire,
    "retracted": _retract,
    "expired": _expire,
    "superseded": _supersede,
    "rejected": _reject_not_true,
}


@pytest.mark.parametrize("how", sorted(LEAVES))
def test_the_other_member_of_a_conflict_of_two_is_no_longer_disputed(
    memory: Memory, tenant: str, how: str
) -> None:
    store_conflict(memory, tenant, "p1")
    store_conflict(memory, tenant, "p2")
    before = rows_of(memory, tenant, "p2")
    LEAVES[how](memory, tenant)

    survivor = memory.beliefs.get(tenant, "p1", "b-queue-resque")
    # Undisputed from now on; the row keeps the set it was a side of, which a read at an
    # earlier instant, when the other side still held, shows it in.
    assert survivor.state is LifecycleState.ACTIVE and survivor.conflict_set_id == "c-queue"
    last = memory.beliefs.history(tenant, "p1", "b-queue-resque").events[-1]
    assert last.kind == "resolved"
    assert last.reason is not None and "c-queue" in last.reason
    assert "b-queue-sidekiq" not in last.reason and last.related_id is None

    result = memory.recall(request(tenant, goal=GOAL), policy=patient_policy())
    assert "b-queue-resque" in result.rendered_ids
    assert "- conflict" not in result.block and "  - [b-queue-resque]" not in result.block
    assert "b-queue-sidekiq" not in result.rendered_ids
    # Handed to the agent as undisputed: no conflict set on the item (a tool result, the
    # trace's "in conflict" mark) and no conflicted discount in its score.
    item = next(i for i in result.items if i.belief_id == "b-queue-resque")
    assert item.conflict_set_id is None
    assert rows_of(memory, tenant, "p2") == before  # another principal's conflict stands
    assert memory.beliefs.get(tenant, "p2", "b-queue-resque").state is LifecycleState.CONFLICTED


def test_forgetting_one_of_three_leaves_a_conflict_of_two(memory: Memory, tenant: str) -> None:
    store_conflict(memory, tenant, "p1", members=3)
    memory.forget_belief(tenant, "p1", "b-queue-sidekiq")
    for bid in ("b-queue-resque", "b-queue-celery"):
        stored = memory.beliefs.get(tenant, "p1", bid)
        assert stored.state is LifecycleState.CONFLICTED and stored.conflict_set_id == "c-queue"
        assert [e.kind for e in memory.beliefs.history(tenant, "p1", bid).events] == ["created"]
    result = memory.recall(request(tenant, goal=GOAL), policy=patient_policy())
    assert "- conflict c-queue" in result.block
    assert {"b-queue-resque", "b-queue-celery"} <= set(result.rendered_ids)


def test_a_conflict_whose_survivor_has_ended_returns_it_expired(
    memory: Memory, tenant: str
) -> None:
    """The survivor's own validity already ended: without the conflict it would be
    expired, never live again."""
    ended = datetime(2026, 6, 1, tzinfo=UTC)
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-queue-sidekiq", statement=SIDES["b-queue-sidekiq"],
                   subject="billing-queue", state="conflicted", conflict_set_id="c-queue"),
            belief(tenant, id="b-queue-resque", statement=SIDES["b-queue-resque"],
                   subject="billing-queue", state="conflicted", conflict_set_id="c-queue",
                   valid_to=ended),
        ]
    )  # fmt: skip
    memory.retire(tenant, "p1", "b-queue-sidekiq")
    assert memory.beliefs.get(tenant, "p1", "b-queue-resque").state is LifecycleState.EXPIRED


# --- a conflict in time -------------------------------------------------------------------

LATER = datetime(2099, 1, 1, tzinfo=UTC)
BEFORE = datetime(2025, 6, 1, tzinfo=UTC)  # after RECORDED, before any write of a test run


def conflict_lines(memory: Memory, tenant: str, **at: Any) -> tuple[str, ...]:
    """The ids rendered under the block's conflict line, at ``as_of``/``known_as_of``."""
    result = memory.recall(request(tenant, goal=GOAL, **at), policy=patient_policy())
    return (
        tuple(sorted(i.belief_id for i in result.items if i.conflict_set_id == "c-queue"))
        if "- conflict c-queue" in result.block
        else ()
    )


def _supersede_later(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(
        belief(tenant, id="b-queue-later", statement="Nightly exports run on cron.",
               subject="exports", supersedes="b-queue-sidekiq", valid_from=LATER)
    )  # fmt: skip


def _expire_later(memory: Memory, tenant: str) -> None:
    memory.expire(tenant, "p1", "b-queue-sidekiq", at=LATER)


@pytest.mark.parametrize("how", ["superseded", "expired"])
def test_a_member_that_leaves_only_later_is_still_disputed_until_then(
    memory: Memory, tenant: str, how: str
) -> None:
    """A successor valid only from a later instant (or an expiry at one) ends the old
    member then, not now: until then both sides hold, and a recall shows the conflict."""
    store_conflict(memory, tenant, "p1")
    (_supersede_later if how == "superseded" else _expire_later)(memory, tenant)
    assert conflict_lines(memory, tenant) == ("b-queue-resque", "b-queue-sidekiq")
    after = memory.recall(request(tenant, goal=GOAL, as_of=LATER), policy=patient_policy())
    assert "b-queue-sidekiq" not in after.rendered_ids and "- conflict" not in after.block
    assert "b-queue-resque" in after.rendered_ids
    assert next(i for i in after.items if i.belief_id == "b-queue-resque").conflict_set_id is None


@pytest.mark.parametrize("how", ["superseded", "expired", "retracted"])
def test_a_conflict_ended_now_still_shows_at_an_earlier_instant(
    memory: Memory, tenant: str, how: str
) -> None:
    """History reads the conflict as it stood: at an ``as_of`` (or, for a retraction, a
    ``known_as_of``) before the other member left, both sides held."""
    store_conflict(memory, tenant, "p1")
    if how == "superseded":  # recorded now, so valid from now
        memory.beliefs.add(
            belief(tenant, id="b-queue-later", statement="Nightly exports run on cron.",
                   subject="exports", supersedes="b-queue-sidekiq", recorded_at=datetime.now(UTC))
        )  # fmt: skip
    else:
        LEAVES[how](memory, tenant)
    assert conflict_lines(memory, tenant) == ()
    at = {"as_of": BEFORE, "known_as_of": datetime.now(UTC)}
    if how == "retracted":
        at = {"as_of": datetime.now(UTC), "known_as_of": BEFORE}
    assert conflict_lines(memory, tenant, **at) == ("b-queue-resque", "b-queue-sidekiq")


# --- a conflict needs two sides -----------------------------------------------------------


def _count(memory: Memory, tenant: str) -> int:
    return len(memory.beliefs.list(tenant, "p1"))


@pytest.mark.parametrize(
    "others",
    [
        [],  # a set of one
        [{"state": "retired"}],  # the other member does not hold
        [{"retracted_at": datetime(2025, 3, 1, tzinfo=UTC)}],  # nor one the store withdrew
    ],
)
def test_a_conflict_of_one_is_refused_and_nothing_is_written(
    memory: Memory, tenant: str, others: list[dict[str, Any]]
) -> None:
    batch = [
        belief(tenant, id=f"b-other-{n}", statement=f"Billing jobs run on queue {n}.",
               subject="billing-queue", conflict_set_id="c-queue",
               **{"state": "conflicted", **fields})
        for n, fields in enumerate(others)
    ]  # fmt: skip
    batch.append(
        belief(tenant, id="b-queue-sidekiq", statement=SIDES["b-queue-sidekiq"],
               subject="billing-queue", state="conflicted", conflict_set_id="c-queue")
    )  # fmt: skip
    with pytest.raises(InvalidInputError) as raised:
        memory.beliefs.add_many(batch)
    assert raised.value.field == "conflict_set_id"
    assert raised.value.item_id == "b-queue-sidekiq"
    assert _count(memory, tenant) == 0
    # Against stored members alike: one that does not hold is no other side.
    if others:
        memory.beliefs.add_many(batch[:-1])
        with pytest.raises(InvalidInputError) as again:
            memory.beliefs.add(batch[-1])
        assert (again.value.field, again.value.item_id) == ("conflict_set_id", "b-queue-sidekiq")
        assert _count(memory, tenant) == len(others)
    # A side joining a stored conflict that holds is a conflict of three.
    store_conflict(memory, tenant, "p2")
    memory.beliefs.add({**batch[-1], "principal_id": "p2", "id": "b-queue-celery"})
    assert len(memory.beliefs.list(tenant, "p2")) == 3


def test_a_resolved_conflicts_set_id_is_not_taken_by_a_new_conflict(
    memory: Memory, tenant: str
) -> None:
    """The survivor of a resolved conflict keeps the set's id as the record of that
    conflict. A later conflict written under the same id would show the survivor disputed
    by beliefs that never disputed it, and reopen a conflict its history says was
    resolved: it is refused, nothing is written, and a new id is taken."""
    store_conflict(memory, tenant, "p1")
    memory.retire(tenant, "p1", "b-queue-resque")
    assert memory.beliefs.get(tenant, "p1", "b-queue-sidekiq").state is LifecycleState.ACTIVE
    unrelated = [
        belief(tenant, id=f"b-cron-{n}", statement=f"Nightly reports run at {n} am.",
               subject="report-schedule", state="conflicted", conflict_set_id="c-queue")
        for n in (2, 4)
    ]  # fmt: skip
    for batch in (unrelated, unrelated[:1]):
        with pytest.raises(InvalidInputError) as raised:
            memory.beliefs.add_many(batch)
        assert (raised.value.field, raised.value.item_id) == ("conflict_set_id", "b-cron-2")
        assert "b-queue-sidekiq" in str(raised.value)
        assert _count(memory, tenant) == 2
    assert (
        "- conflict" not in memory.recall(request(tenant, goal=GOAL), policy=patient_policy()).block
    )

    memory.beliefs.add_many([{**b, "conflict_set_id": "c-cron"} for b in unrelated])
    shown = memory.recall(request(tenant, goal=GOAL), policy=patient_policy())
    assert "b-queue-sidekiq" in shown.rendered_ids
    assert not next(i for i in shown.items if i.belief_id == "b-queue-sidekiq").conflict_set_id


def test_a_survivor_an_older_release_settled_gets_its_set_id_back(
    memory: Memory, tenant: str
) -> None:
    """The release that first settled conflicts cleared the survivor's set id; the
    migration reads it back from the ``resolved`` event, so the old conflict's id is
    spent there too, as it is for a conflict settled now."""
    store_conflict(memory, tenant, "p1")
    memory.retire(tenant, "p1", "b-queue-resque")
    with memory.pool.connection() as conn:  # what the older release left behind
        conn.execute(
            "UPDATE beliefs SET conflict_set_id = NULL WHERE tenant_id = %s AND id = %s",
            (tenant, "b-queue-sidekiq"),
        )
    assert memory.beliefs.get(tenant, "p1", "b-queue-sidekiq").conflict_set_id is None
    migration = next(m for m in load_migrations() if "resolved_conflicts_keep_their_set" in m.name)
    with memory.pool.connection() as conn:
        conn.execute(migration.sql)

    survivor = memory.beliefs.get(tenant, "p1", "b-queue-sidekiq")
    assert (survivor.state, survivor.conflict_set_id) == (LifecycleState.ACTIVE, "c-queue")
    with pytest.raises(InvalidInputError) as raised:
        memory.beliefs.add_many(
            [
                belief(tenant, id=f"b-cron-{n}", statement=f"Reports run at {n} am.",
                       subject="report-schedule", state="conflicted", conflict_set_id="c-queue")
                for n in (2, 4)
            ]
        )  # fmt: skip
    assert raised.value.field == "conflict_set_id"


def _written_under(
    memory: Memory, tenant: str, principal: str, ids: list[str], set_id: str
) -> None:
    """What a release before set ids came only with their dispute wrote when given plain
    beliefs under a set id: the rows as they are, nothing refused."""
    with memory.pool.connection() as conn:
        conn.execute(
            "UPDATE beliefs SET conflict_set_id = %s"
            " WHERE tenant_id = %s AND principal_id = %s AND id = ANY(%s)",
            (set_id, tenant, principal, ids),
        )


def _conflict_shown(memory: Memory, tenant: str, principal: str) -> tuple[str, ...]:
    """The ids a recall renders as sides of conflict c-queue; () when it shows none."""
    result = memory.recall(request(tenant, principal, goal=GOAL), policy=patient_policy())
    if "- conflict c-queue" not in result.block:
        return ()
    return tuple(sorted(i.belief_id for i in result.items if i.conflict_set_id == "c-queue"))


def _sets(memory: Memory, tenant: str, principal: str) -> dict[str, str | None]:
    return {b.id: b.conflict_set_id for b in memory.beliefs.list(tenant, principal)}


def test_a_store_holding_beliefs_written_active_under_a_set_id_is_repaired(
    memory: Memory, tenant: str
) -> None:
    """Before a set id came only with its dispute, a belief could be written active under
    one, and every read showed it in a conflict nobody declared. The migration clears
    those ids; a resolved conflict's survivor keeps its set, a side that left a conflict
    keeps it, and a live conflict is untouched."""
    plain = {"subject": "billing-queue", "confidence": 0.9, "belief_type": "preference",
             "source_authority": "user_stated"}  # fmt: skip
    # p1: two plain beliefs under one id, shown as a conflict of two.
    memory.beliefs.add_many(
        [belief(tenant, "p1", id=bid, statement=text, **plain) for bid, text in SIDES.items()][:2]
    )
    _written_under(memory, tenant, "p1", ["b-queue-sidekiq", "b-queue-resque"], "c-queue")
    # p2: a third side beside a live conflict of two.
    store_conflict(memory, tenant, "p2")
    memory.beliefs.add(belief(tenant, "p2", id="b-queue-celery",
                              statement=SIDES["b-queue-celery"], **plain))  # fmt: skip
    # and one written expired (it held until its end), with no event that ended it.
    memory.beliefs.add(belief(tenant, "p2", id="b-queue-sqs", statement="Billing jobs ran on SQS.",
                              state="expired", valid_to=BEFORE, **plain))  # fmt: skip
    _written_under(memory, tenant, "p2", ["b-queue-celery", "b-queue-sqs"], "c-queue")
    # p3: beside a resolved conflict's survivor, reopening it.
    store_conflict(memory, tenant, "p3")
    memory.retire(tenant, "p3", "b-queue-sidekiq")
    memory.beliefs.add(belief(tenant, "p3", id="b-queue-celery",
                              statement=SIDES["b-queue-celery"], **plain))  # fmt: skip
    _written_under(memory, tenant, "p3", ["b-queue-celery"], "c-queue")
    # p4: a conflict of three one side of which left by supersession: no undeclared side.
    store_conflict(memory, tenant, "p4", members=3)
    memory.beliefs.add(
        belief(tenant, "p4", id="b-queue-later", statement="Nightly exports run on cron.",
               subject="exports", supersedes="b-queue-sidekiq", recorded_at=datetime.now(UTC))
    )  # fmt: skip
    assert memory.beliefs.get(tenant, "p4", "b-queue-sidekiq").state is LifecycleState.SUPERSEDED

    assert _conflict_shown(memory, tenant, "p1") == ("b-queue-resque", "b-queue-sidekiq")
    assert _conflict_shown(memory, tenant, "p2") == (
        "b-queue-celery", "b-queue-resque", "b-queue-sidekiq")  # fmt: skip
    assert _conflict_shown(memory, tenant, "p3") == ("b-queue-celery", "b-queue-resque")
    untouched = rows_of(memory, tenant, "p4")
    at_before = {"as_of": BEFORE, "known_as_of": datetime.now(UTC)}
    p4_then = _conflict_shown(memory, tenant, "p4")

    migration = next(m for m in load_migrations() if m.version == 34)
    with memory.pool.connection() as conn:
        conn.execute(migration.sql)

    assert _conflict_shown(memory, tenant, "p1") == ()
    assert set(_sets(memory, tenant, "p1").values()) == {None}
    session = memory.open_session(tenant, "p1", policy=patient_policy())
    assert {"b-queue-sidekiq", "b-queue-resque"} <= set(session.snapshot_ids)
    assert "conflict" not in session.prefix_text.split("<memory>")[-1]
    assert "disputed" not in session.recall({"goal": GOAL}).block

    assert _conflict_shown(memory, tenant, "p2") == ("b-queue-resque", "b-queue-sidekiq")
    sides = {"b-queue-sidekiq": "c-queue", "b-queue-resque": "c-queue"}
    assert _sets(memory, tenant, "p2") == {**sides, "b-queue-celery": None, "b-queue-sqs": None}

    assert _conflict_shown(memory, tenant, "p3") == ()
    survivor = memory.beliefs.get(tenant, "p3", "b-queue-resque")
    assert (survivor.state, survivor.conflict_set_id) == (LifecycleState.ACTIVE, "c-queue")
    assert memory.beliefs.get(tenant, "p3", "b-queue-celery").conflict_set_id is None
    # The survivor's set id is still spent.
    with pytest.raises(InvalidInputError) as raised:
        memory.beliefs.add(belief(tenant, "p3", id="b-cron", statement="Reports run at 2 am.",
                                  state="conflicted", conflict_set_id="c-queue"))  # fmt: skip
    assert raised.value.field == "conflict_set_id"

    assert rows_of(memory, tenant, "p4") == untouched
    assert _conflict_shown(memory, tenant, "p4") == p4_then
    # The side that left is still one as the conflict stood before it left.
    before = memory.recall(request(tenant, "p4", goal=GOAL, **at_before), policy=patient_policy())
    assert "b-queue-sidekiq" in {i.belief_id for i in before.items if i.conflict_set_id}


# --- re-derivation keeps the conflict as it stood -----------------------------------------


def rederived_sides(tenant: str) -> list[dict[str, Any]]:
    """Both sides derived again from their episode: new ids, one entity more."""
    return [
        belief(tenant, id=f"r-{bid}", statement=text, subject="billing-queue",
               entities=["billing"], state="conflicted", conflict_set_id="c-queue",
               source_episode_id="e-queue", recorded_at=datetime.now(UTC))
        for bid, text in list(SIDES.items())[:2]
    ]  # fmt: skip


def conflict_state(memory: Memory, tenant: str) -> tuple[object, ...]:
    """What a user sees of the conflict: its rendered sides and the plain items."""
    result = memory.recall(request(tenant, goal=GOAL), policy=patient_policy())
    statements = {
        i.belief_id: memory.beliefs.get(tenant, "p1", i.belief_id).statement for i in result.items
    }
    return (
        sorted(statements[i.belief_id] for i in result.items if i.conflict_set_id),
        sorted(statements[i.belief_id] for i in result.items if not i.conflict_set_id),
        "- conflict" in result.block,
    )


@pytest.mark.parametrize("how", ["retired", "retracted", "expired", "rejected"])
def test_re_derivation_keeps_the_conflict_as_it_stood(
    memory: Memory, tenant: str, how: str
) -> None:
    memory.episodes.add(
        {
            "id": "e-queue",
            "tenant_id": tenant,
            "principal_id": "p1",
            "occurred_at": "2025-01-01T00:00:00Z",
            "content": "queue talk",
        }
    )
    memory.beliefs.add_many(
        [
            belief(tenant, id=bid, statement=text, subject="billing-queue", state="conflicted",
                   conflict_set_id="c-queue", confidence=0.9, source_episode_id="e-queue")
            for bid, text in list(SIDES.items())[:2]
        ]
    )  # fmt: skip
    LEAVES[how](memory, tenant)
    before = conflict_state(memory, tenant)
    memory.rederive(tenant, "p1", rederived_sides(tenant))
    assert conflict_state(memory, tenant) == before
    survivors = [b for b in memory.beliefs.list(tenant, "p1") if b.id.startswith("r-")]
    conflicted = [b.id for b in survivors if b.state is LifecycleState.CONFLICTED]
    assert len(conflicted) in (0, 2)  # never a conflict of one in the store


def test_an_open_session_is_told_a_conflict_ended_only_when_it_has(
    memory: Memory, tenant: str
) -> None:
    """A session's turn judges the conflict as a recall then does: while the member that
    leaves later still holds, nothing was resolved."""
    memory.beliefs.add_many(
        [
            belief(tenant, id=bid, statement=text, subject="billing-queue", state="conflicted",
                   conflict_set_id="c-queue", confidence=0.9, belief_type="preference",
                   source_authority="user_stated")
            for bid, text in list(SIDES.items())[:2]
        ]
    )  # fmt: skip
    session = memory.open_session(tenant, "p1")
    assert {"b-queue-sidekiq", "b-queue-resque"} <= set(session.snapshot_ids)
    _supersede_later(memory, tenant)
    block = session.recall({"goal": GOAL}).block
    assert "no longer disputed" not in block and "[b-queue-sidekiq] no longer" not in block


#: What puts a belief in a session's prefix (its snapshot).
PREFIXED = {"belief_type": "preference", "source_authority": "user_stated"}

REWORDINGS: dict[str, dict[str, Any]] = {
    "an entity more": {"entities": ["billing"]},
    "another subject": {"subject": "job-queue"},
    "cased and unended": {"restate": True},
}


@pytest.mark.parametrize("sides", ["one side", "both sides"])
@pytest.mark.parametrize("change", sorted(REWORDINGS))
def test_a_side_re_derived_with_other_content_stays_disputed(
    memory: Memory, tenant: str, change: str, sides: str
) -> None:
    """A formation process re-derives a sentence without knowing its dispute: the draft
    is written ``active``, with no set id, and content that differs (an entity more, a
    subject, the sentence cased or ended otherwise). It was written as the plain
    successor of its side, which left the set; the other side was settled ``resolved``,
    and every recall showed both as holding undisputed — a dispute no one resolved, gone.
    The successor now takes its earlier belief's place in the conflict."""
    memory.episodes.add(
        {"id": "e-queue", "tenant_id": tenant, "principal_id": "p1",
         "occurred_at": "2025-01-01T00:00:00Z", "content": "queue talk"}
    )  # fmt: skip
    memory.beliefs.add_many(
        [
            belief(tenant, id=bid, statement=text, subject="billing-queue", state="conflicted",
                   conflict_set_id="c-queue", confidence=0.9, source_episode_id="e-queue",
                   **PREFIXED)
            for bid, text in list(SIDES.items())[:2]
        ]
    )  # fmt: skip
    session = memory.open_session(tenant, "p1")
    assert {"b-queue-sidekiq", "b-queue-resque"} <= set(session.snapshot_ids)
    fields = dict(REWORDINGS[change])
    restate = fields.pop("restate", False)
    drafts = [
        belief(tenant, id=f"r-{bid}", source_episode_id="e-queue",
               statement=text.lower().rstrip(".") if restate else text,
               recorded_at=datetime.now(UTC), **PREFIXED,
               **{"subject": "billing-queue", **fields})
        for bid, text in list(SIDES.items())[: 1 if sides == "one side" else 2]
    ]  # fmt: skip

    outcome = memory.rederive(tenant, "p1", drafts)

    assert [o.action for o in outcome.outcomes] == ["changed"] * len(drafts)
    assert all("conflicted" in o.replayed for o in outcome.outcomes)
    holding = {b.id: b for b in memory.beliefs.list(tenant, "p1") if b.id.startswith("r-")}
    other = "r-b-queue-resque" if sides == "both sides" else "b-queue-resque"
    for bid in ("r-b-queue-sidekiq", other):
        now = holding.get(bid) or memory.beliefs.get(tenant, "p1", bid)
        assert (now.state, now.conflict_set_id) == (LifecycleState.CONFLICTED, "c-queue")
    kinds = [e.kind for e in memory.beliefs.history(tenant, "p1", "b-queue-resque").events]
    assert "resolved" not in kinds  # the other side was never told it is settled
    result = memory.recall(request(tenant, goal=GOAL), policy=patient_policy())
    disputed = {i.belief_id for i in result.items if i.conflict_set_id == "c-queue"}
    assert {"r-b-queue-sidekiq", other} <= disputed
    assert "- conflict" in result.block
    block = session.recall({"goal": GOAL}).block
    assert "no longer disputed" not in block

    # Re-derived again, the drafts are the beliefs just written: nothing changes.
    again = memory.rederive(tenant, "p1", drafts)
    assert [o.action for o in again.outcomes] == ["known"] * len(drafts)


# --- a set id is written only with a dispute ---------------------------------------------


def _shown_as_conflict(memory: Memory, tenant: str) -> bool:
    return "- conflict" in memory.recall(request(tenant, goal=GOAL), policy=patient_policy()).block


@pytest.mark.parametrize("into", ["a new set", "a live conflict", "a resolved conflict"])
def test_a_belief_written_active_under_a_set_id_is_refused(
    memory: Memory, tenant: str, into: str
) -> None:
    """A read counts every member of a set that holds as a side, so a belief written
    ``active`` under a conflict set id was shown in a conflict nobody declared: two such
    beliefs as an unresolved conflict, one beside a live conflict as its third side, one
    beside a resolved conflict's survivor as reopening it — while every row said
    ``active`` and the survivor's history said resolved. A set id now comes only with the
    dispute it names: refused on ``conflict_set_id``, naming the item, nothing written."""
    if into == "a live conflict":
        store_conflict(memory, tenant, "p1")
    elif into == "a resolved conflict":
        store_conflict(memory, tenant, "p1")
        memory.retire(tenant, "p1", "b-queue-sidekiq")
    before = rows_of(memory, tenant, "p1")
    shown = _shown_as_conflict(memory, tenant)
    drafts = [
        belief(tenant, id=f"b-queue-{name}", statement=f"Billing jobs run on {name}.",
               subject="billing-queue", conflict_set_id="c-queue")
        for name in ("sqs", "kafka")
    ]  # fmt: skip
    batch = drafts if into == "a new set" else drafts[:1]
    with pytest.raises(InvalidInputError) as raised:
        memory.beliefs.add_many(batch)
    assert (raised.value.field, raised.value.item_id) == ("conflict_set_id", "b-queue-sqs")
    assert rows_of(memory, tenant, "p1") == before
    assert _shown_as_conflict(memory, tenant) is shown

    # Without the id it is a plain belief; a survivor read back and re-added is a no-op.
    memory.beliefs.add_many([{**d, "conflict_set_id": None} for d in batch])
    if into == "a resolved conflict":
        survivor = memory.beliefs.get(tenant, "p1", "b-queue-resque")
        assert survivor.conflict_set_id == "c-queue"
        assert memory.beliefs.add(survivor.model_dump()) == survivor
    assert _shown_as_conflict(memory, tenant) is (into == "a live conflict")


def test_a_replacement_under_a_set_id_is_refused(memory: Memory, tenant: str) -> None:
    """A ``changed`` rejection's replacement holds now (active or provisional): written
    under the rejected side's set id it was shown disputing the other side, whose row had
    just been resolved. Refused on ``replacement.conflict_set_id``; nothing recorded."""
    store_conflict(memory, tenant, "p1")
    traced = memory.recall(request(tenant, goal=GOAL), policy=patient_policy())
    before = rows_of(memory, tenant, "p1")
    draft = belief(tenant, id="b-queue-sqs", statement="Billing jobs run on SQS.",
                   subject="billing-queue", conflict_set_id="c-queue")  # fmt: skip
    with pytest.raises(InvalidInputError) as raised:
        memory.reject(tenant, "p1", traced.trace_id, "b-queue-sidekiq", "changed",
                      replacement=draft)  # fmt: skip
    assert (raised.value.field, raised.value.item_id) == ("replacement.conflict_set_id",
                                                          "b-queue-sqs")  # fmt: skip
    assert rows_of(memory, tenant, "p1") == before
    with memory.pool.connection() as conn:
        feedback = conn.execute("SELECT count(*) FROM feedback_events WHERE tenant_id = %s",
                                (tenant,))  # fmt: skip
        assert feedback.fetchone() == (0,)


def test_re_derivation_into_a_resolved_conflict_is_refused(memory: Memory, tenant: str) -> None:
    """A re-derived draft of a new sentence written ``conflicted`` under a set whose
    conflict is over was settled ``active`` with a ``resolved`` event — beside the
    survivor, which kept the set's id — so every read showed the two as an unresolved
    conflict the rows said did not exist. As for any write, a new conflict takes a new
    set id: refused on ``conflict_set_id`` naming the draft and the survivor."""
    memory.episodes.add(
        {"id": "e-queue", "tenant_id": tenant, "principal_id": "p1",
         "occurred_at": "2025-01-01T00:00:00Z", "content": "queue talk"}
    )  # fmt: skip
    store_conflict(memory, tenant, "p1")
    memory.retire(tenant, "p1", "b-queue-sidekiq")
    before = rows_of(memory, tenant, "p1")
    draft = belief(tenant, id="r-sqs", statement="Billing jobs run on SQS.",
                   subject="billing-queue", state="conflicted", conflict_set_id="c-queue",
                   source_episode_id="e-queue", recorded_at=datetime.now(UTC))  # fmt: skip
    known = belief(tenant, id="b-cron", statement="Reports run nightly.", subject="reports",
                   source_episode_id="e-queue")  # fmt: skip
    memory.beliefs.add(known)
    before = rows_of(memory, tenant, "p1")
    with pytest.raises(InvalidInputError) as raised:
        memory.rederive(tenant, "p1", [known, draft])  # the first is stored: not written
    assert (raised.value.field, raised.value.item_id) == ("conflict_set_id", "r-sqs")
    assert raised.value.item_index == 1  # named among the drafts given
    assert "b-queue-resque" in str(raised.value)
    assert rows_of(memory, tenant, "p1") == before
    assert not _shown_as_conflict(memory, tenant)

    memory.rederive(tenant, "p1", [{**draft, "state": "active", "conflict_set_id": None}])
    assert not _shown_as_conflict(memory, tenant)
