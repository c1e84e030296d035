"""A belief's history on the real store: the events of every write about it in the order
they were recorded, its supersession chain read from either end, and the isolation of
``beliefs.history`` (see "History of one belief" in docs/corrections.md)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import (
    BeliefHistory,
    ConflictError,
    HistoryEventKind,
    InvalidInputError,
    LifecycleState,
    Memory,
    NotFoundError,
    Surface,
)
from recallflow.policy import DEFAULT_POLICY
from tests.helpers import belief, patient_policy, request

T0 = datetime(2026, 3, 1, tzinfo=UTC)
DAY = timedelta(days=1)
K = HistoryEventKind


def kinds(history: BeliefHistory) -> list[str]:
    return [e.kind.value for e in history.events]


def store(memory: Memory, tenant: str, principal: str = "p1") -> None:
    memory.episodes.add_many(
        [
            {
                "id": f"ep-{p}",
                "tenant_id": tenant,
                "principal_id": principal,
                "project": p,
                "occurred_at": T0,
                "content": f"A session in {p}.",
            }
            for p in ("alpha", "beta")
        ]
    )
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                principal,
                id="b-editor",
                statement="The user prefers the Helix editor.",
                subject="editor",
                entities=["helix", "editor"],
                scope="project",
                origin_project="alpha",
                portability="portable",
                recorded_at=T0,
                source_episode_id="ep-alpha",
            ),
            belief(
                tenant,
                principal,
                id="b-shell",
                statement="The user prefers the fish shell.",
                subject="shell",
                entities=["fish", "shell"],
                recorded_at=T0,
                source_episode_id="ep-alpha",
            ),
        ]
    )


def recalled(memory: Memory, tenant: str, principal: str = "p1") -> str:
    result = memory.recall(
        request(
            tenant,
            principal,
            "What editor and shell does the user prefer?",
            project="alpha",
            working_state={"entities": ["helix", "editor", "fish", "shell"]},
        ),
        policy=patient_policy(),
    )
    assert set(result.rendered_ids) == {"b-editor", "b-shell"}
    return result.trace_id


def chain_of(memory: Memory, tenant: str, length: int, principal: str = "p1") -> list[str]:
    """``length`` beliefs, each superseding the one before; valid from T0 + i days."""
    ids = [f"b-v{i}" for i in range(length)]
    memory.beliefs.add(belief(tenant, principal, id=ids[0], statement="Version 0.", valid_from=T0))
    for i in range(1, length):
        memory.beliefs.supersede(
            ids[i - 1],
            belief(
                tenant, principal, id=ids[i], statement=f"Version {i}.", valid_from=T0 + i * DAY
            ),
        )
    return ids


# --- events ---------------------------------------------------------------------------------


def test_a_belief_cited_corroborated_and_rejected_as_changed_shows_each_write_in_order(
    memory: Memory, tenant: str
) -> None:
    store(memory, tenant)
    trace = recalled(memory, tenant)
    memory.cite(tenant, "p1", trace, ["b-editor"])
    memory.corroborate(tenant, "p1", "b-editor", "beta", "ep-beta")
    memory.reject(
        tenant,
        "p1",
        trace,
        "b-editor",
        "changed",
        note="switched last week",
        replacement=belief(
            tenant,
            id="b-editor-zed",
            statement="The user prefers the Zed editor.",
            subject="editor",
        ),
    )
    old = memory.beliefs.history(tenant, "p1", "b-editor")
    assert old.belief.state is LifecycleState.SUPERSEDED
    assert kinds(old) == [
        "created",
        "cited",
        "corroborated",
        "promoted",
        "rejected_changed",
        "superseded",
    ]
    created, cited, corroborated, promoted, rejected, superseded = old.events
    assert created.at == T0  # when the store recorded it
    assert cited.trace_id == rejected.trace_id == trace
    assert cited.surface is rejected.surface is Surface.DIRECT  # where the recall was shown
    assert (corroborated.project, corroborated.evidence_id) == ("beta", "ep-beta")
    assert promoted.reason is not None and "beta" in promoted.reason
    assert rejected.note == "switched last week"
    assert superseded.related_id == "b-editor-zed"
    new = memory.beliefs.get(tenant, "p1", "b-editor-zed")
    assert superseded.effective_at == new.valid_from  # the world time it took over
    assert [link.id for link in old.successors] == ["b-editor-zed"]

    replacement = memory.beliefs.history(tenant, "p1", "b-editor-zed")
    assert kinds(replacement) == ["created", "took_over"]
    assert replacement.events[1].related_id == "b-editor"
    assert [link.id for link in replacement.predecessors] == ["b-editor"]
    assert replacement.predecessors[0].state is LifecycleState.SUPERSEDED


def test_every_other_correction_is_an_event_with_what_it_recorded(
    memory: Memory, tenant: str
) -> None:
    store(memory, tenant)
    trace = recalled(memory, tenant)
    memory.beliefs.add(belief(tenant, id="b-old", statement="Old.", valid_from=T0))
    memory.reject(tenant, "p1", trace, "b-shell", "not_here")
    memory.reject(tenant, "p1", trace, "b-shell", "unspecified", note="not sure")
    memory.retract(tenant, "p1", "b-editor", "formation misread the episode")
    memory.corrections.expire(tenant, "p1", "b-old", at=T0 + DAY, reason="moved")
    memory.retire(tenant, "p1", "b-old", reason="never mind")

    shell = memory.beliefs.history(tenant, "p1", "b-shell")
    assert kinds(shell) == ["created", "rejected_not_here", "excluded", "rejected_unspecified"]
    assert shell.events[1].project == shell.events[2].project == "alpha"
    assert shell.events[3].note == "not sure" and shell.belief.flagged
    editor = memory.beliefs.history(tenant, "p1", "b-editor")
    assert kinds(editor) == ["created", "retracted"]
    assert editor.events[1].reason == "formation misread the episode"
    assert editor.belief.retracted_at is not None
    old = memory.beliefs.history(tenant, "p1", "b-old")
    assert kinds(old) == ["created", "expired", "retired"]
    assert old.events[1].effective_at == T0 + DAY and old.events[1].reason == "moved"
    assert old.events[2].effective_at is None and old.events[2].reason == "never mind"
    assert old.belief.state is LifecycleState.RETIRED


def test_the_latest_events_are_read_on_request_with_how_many_came_before(
    memory: Memory, tenant: str
) -> None:
    """A belief cited on every turn has an event a turn, and the history read and sent them
    all, each time (20,000 events: 0.4-0.6 s a read; the tool then showed the model 50).
    Asked for the latest so many, it reads those and counts the rest; by default, all."""
    store(memory, tenant)
    trace = recalled(memory, tenant)
    memory.reject(tenant, "p1", trace, "b-shell", "not_here")
    memory.reject(tenant, "p1", trace, "b-shell", "unspecified", note="not sure")
    whole = memory.beliefs.history(tenant, "p1", "b-shell")
    assert len(whole.events) == 4 and whole.earlier_events == 0
    latest = memory.beliefs.history(tenant, "p1", "b-shell", events=2)
    assert latest.events == whole.events[-2:] and latest.earlier_events == 2
    assert latest.belief == whole.belief
    roomy = memory.beliefs.history(tenant, "p1", "b-shell", events=10)
    assert roomy.events == whole.events and roomy.earlier_events == 0
    # More than any belief has, past what the database counts in (a bigint): all of them.
    for many in (2**63 - 1, 2**63, 10**30):
        assert memory.beliefs.history(tenant, "p1", "b-shell", events=many) == whole
    for bad in (0, -1, True, 2.0, "2"):
        with pytest.raises(InvalidInputError) as refused:
            memory.beliefs.history(tenant, "p1", "b-shell", events=bad)  # type: ignore[arg-type]
        assert refused.value.field == "events"


def test_a_belief_nothing_happened_to_has_its_creation_only(memory: Memory, tenant: str) -> None:
    store(memory, tenant)
    history = memory.beliefs.history(tenant, "p1", "b-shell")
    assert history.belief == memory.beliefs.get(tenant, "p1", "b-shell")
    assert kinds(history) == ["created"] and history.events[0].at == T0
    assert history.predecessors == history.successors == ()
    assert not history.more_predecessors and not history.more_successors


# --- the chain --------------------------------------------------------------------------------


def test_the_chain_reads_the_same_from_either_end(memory: Memory, tenant: str) -> None:
    ids = chain_of(memory, tenant, 4)
    first = memory.beliefs.history(tenant, "p1", ids[0])
    assert [(link.id, link.hops) for link in first.successors] == [
        ("b-v1", 1),
        ("b-v2", 2),
        ("b-v3", 3),
    ]
    last = memory.beliefs.history(tenant, "p1", ids[-1])
    assert [(link.id, link.hops) for link in last.predecessors] == [
        ("b-v0", 3),
        ("b-v1", 2),
        ("b-v2", 1),
    ]
    for bid in ids:
        history = memory.beliefs.history(tenant, "p1", bid)
        whole = [link.id for link in history.predecessors] + [bid]
        whole += [link.id for link in history.successors]
        assert whole == ids
    # Each link as it stands: superseded ones valid until their successor took over.
    for link in last.predecessors:
        stored = memory.beliefs.get(tenant, "p1", link.id)
        assert (link.state, link.superseded_by, link.statement) == (
            LifecycleState.SUPERSEDED,
            stored.superseded_by,
            stored.statement,
        )
        assert link.valid_from == T0 + int(link.id[-1]) * DAY
    assert last.belief.state is LifecycleState.ACTIVE


def test_a_belief_that_replaced_two_lists_both(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-a", statement="A."),
            belief(tenant, id="b-b", statement="B.", superseded_by="b-c"),
            belief(tenant, id="b-c", statement="C.", supersedes="b-a"),
        ]
    )
    merged = memory.beliefs.history(tenant, "p1", "b-c")
    assert [link.id for link in merged.predecessors] == ["b-a", "b-b"]
    assert sorted(e.related_id or "" for e in merged.events if e.kind is K.TOOK_OVER) == [
        "b-a",
        "b-b",
    ]


def test_the_chain_stops_at_the_policys_bound_and_says_so(memory: Memory, tenant: str) -> None:
    ids = chain_of(memory, tenant, 5)
    feedback = DEFAULT_POLICY.feedback.model_copy(update={"history_links": 2})
    short = DEFAULT_POLICY.model_copy(update={"feedback": feedback})
    first = memory.beliefs.history(tenant, "p1", ids[0], policy=short)
    assert [link.id for link in first.successors] == ids[1:3] and first.more_successors
    last = memory.beliefs.history(tenant, "p1", ids[-1], policy=short)
    assert [link.id for link in last.predecessors] == ids[2:4] and last.more_predecessors
    middle = memory.beliefs.history(tenant, "p1", ids[2], policy=short)
    assert not middle.more_predecessors and not middle.more_successors
    with pytest.raises(InvalidInputError) as info:
        memory.beliefs.history(tenant, "p1", ids[0], policy=feedback)  # type: ignore[arg-type]
    assert info.value.field == "policy"


# --- isolation ------------------------------------------------------------------------------


def _message(memory: Memory, tenant: str, principal: str, belief_id: str, read: Any) -> str:
    with pytest.raises(NotFoundError) as info:
        read(tenant, principal, belief_id)
    return str(info.value)


def test_another_principals_belief_is_not_found_like_a_missing_one(
    memory: Memory, tenant: str
) -> None:
    chain_of(memory, tenant, 3)
    other_tenant = f"{tenant}-other"
    for t, p in ((tenant, "p2"), (other_tenant, "p1")):
        memory.beliefs.add(belief(t, p, id="b-lonely", statement="Someone else's."))
        for bid in ("b-v1", "b-nowhere"):
            asked = _message(memory, t, p, bid, memory.beliefs.history)
            assert asked == _message(memory, t, p, bid, memory.beliefs.get)
            assert asked == f"field 'belief_id': no belief {bid!r} for {t}/{p}"
    # The same id under another principal: its own history, nothing of p1's chain.
    memory.beliefs.add(belief(tenant, "p2", id="b-v1", statement="Another v1."))
    theirs = memory.beliefs.history(tenant, "p2", "b-v1")
    assert theirs.belief.statement == "Another v1." and kinds(theirs) == ["created"]
    assert theirs.predecessors == theirs.successors == ()
    assert "b-v0" not in theirs.model_dump_json() and "b-v2" not in theirs.model_dump_json()


@pytest.mark.parametrize("field", ["tenant_id", "principal_id", "belief_id"])
def test_a_malformed_id_is_named(memory: Memory, tenant: str, field: str) -> None:
    args = {"tenant_id": tenant, "principal_id": "p1", "belief_id": "b-1"}
    args[field] = "has space"
    with pytest.raises(InvalidInputError) as info:
        memory.beliefs.history(args["tenant_id"], args["principal_id"], args["belief_id"])
    assert info.value.field == field


def test_a_forgotten_belief_is_not_found_and_its_neighbours_do_not_name_it(
    memory: Memory, tenant: str
) -> None:
    ids = chain_of(memory, tenant, 3)
    memory.forget_belief(tenant, "p1", ids[1])
    asked = _message(memory, tenant, "p1", ids[1], memory.beliefs.history)
    assert asked == _message(memory, tenant, "p1", ids[1], memory.beliefs.get)
    for bid in (ids[0], ids[2]):
        history = memory.beliefs.history(tenant, "p1", bid)
        assert ids[1] not in history.model_dump_json()
        assert "Version 1." not in history.model_dump_json()
        assert history.predecessors == history.successors == ()
    # The belief it had superseded is retired by the erasure, and its history says why.
    before = memory.beliefs.history(tenant, "p1", ids[0])
    assert before.belief.state is LifecycleState.RETIRED
    assert kinds(before) == ["created", "retired"]
    assert before.events[1].reason == "its successor was forgotten"
    assert kinds(memory.beliefs.history(tenant, "p1", ids[2])) == ["created"]


# --- a property: any sequence of lifecycle writes ----------------------------------------------

_IDS = ["b-a", "b-b", "b-c"]
_STATES = {K.SUPERSEDED: LifecycleState.SUPERSEDED, K.RETIRED: LifecycleState.RETIRED}
_WRITES = st.lists(
    st.one_of(
        st.tuples(st.just("supersede"), st.sampled_from(_IDS)),
        st.tuples(st.just("retire"), st.sampled_from(_IDS)),
        st.tuples(st.just("expire"), st.sampled_from(_IDS)),
        st.tuples(st.just("retract"), st.sampled_from(_IDS)),
        st.tuples(st.just("corroborate"), st.sampled_from(_IDS)),
    ),
    min_size=1,
    max_size=10,
)


def _write(
    memory: Memory, tenant: str, op: str, target: str, step: int, ended: set[str]
) -> str | None:
    """Apply one write to the newest belief of ``target``'s chain; returns a new id, if any.
    Evidence for a belief ended by an earlier write (``ended``) is refused."""
    if op == "corroborate" and target in ended:
        with pytest.raises(ConflictError, match=target):
            memory.corroborate(tenant, "p1", target, "alpha", f"ep-{step % 2}")
        return None
    if op in ("retire", "expire", "retract"):
        ended.add(target)
    if op == "supersede":
        new_id = f"{target}-{step}"
        successor = belief(tenant, id=new_id, statement=f"{target} changed at step {step}.")
        if memory.beliefs.get(tenant, "p1", target).state is LifecycleState.RETIRED:
            # It never held: nothing to replace, and superseded it would hold again.
            with pytest.raises(ConflictError, match="retired"):
                memory.beliefs.supersede(target, successor)
            return None
        memory.beliefs.supersede(target, successor)
        return new_id
    if op == "retire":
        memory.retire(tenant, "p1", target)
    elif op == "expire":
        memory.expire(tenant, "p1", target)
    elif op == "retract":
        memory.retract(tenant, "p1", target, "withdrawn")
    else:
        memory.corroborate(tenant, "p1", target, "alpha", f"ep-{step % 2}")
    return None


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(writes=_WRITES)
def test_any_sequence_of_writes_leaves_an_ordered_history_that_agrees_with_the_store(
    memory: Memory, writes: list[tuple[str, str]]
) -> None:
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    memory.episodes.add_many(
        [
            {
                "id": f"ep-{i}",
                "tenant_id": tenant,
                "principal_id": "p1",
                "occurred_at": T0,
                "content": f"Evidence {i}.",
            }
            for i in range(2)
        ]
    )
    memory.beliefs.add_many([belief(tenant, id=b, statement=f"{b} as first said.") for b in _IDS])
    newest = {b: b for b in _IDS}
    ended: set[str] = set()
    for step, (op, root) in enumerate(writes):
        created = _write(memory, tenant, op, newest[root], step, ended)
        if created is not None:
            newest[root] = created
    for stored in memory.beliefs.list(tenant, "p1"):
        history = memory.beliefs.history(tenant, "p1", stored.id)
        assert history.belief == stored
        times = [e.at for e in history.events]
        assert times == sorted(times) and history.events[0].kind is K.CREATED
        # The chain is the store's links, each link as the store holds it now.
        if stored.superseded_by is None:
            assert history.successors == ()
        else:
            assert history.successors[0].id == stored.superseded_by
            last = [e for e in history.events if e.kind is K.SUPERSEDED][-1]
            assert last.related_id == stored.superseded_by
        for link in (*history.predecessors, *history.successors):
            now = memory.beliefs.get(tenant, "p1", link.id)
            assert (link.state, link.superseded_by, link.valid_to) == (
                now.state,
                now.superseded_by,
                now.valid_to,
            )
        for before, after in zip(history.successors, history.successors[1:], strict=False):
            assert before.superseded_by == after.id
        chain = [stored.id, *(link.id for link in history.predecessors)]
        assert all(link.superseded_by in chain for link in history.predecessors)
        # What the events say happened is what the row shows: the state is the one the
        # last supersession or retirement set, else expired by an expiry (which never
        # undoes another end), else active.
        said = [e.kind for e in history.events]
        ends = [k for k in said if k in _STATES]
        expected = LifecycleState.EXPIRED if K.EXPIRED in said else LifecycleState.ACTIVE
        assert stored.state is (_STATES[ends[-1]] if ends else expected)
        assert (K.RETRACTED in said) == (stored.retracted_at is not None)
        # Retired after its supersession, it never held: nothing replaced it.
        links = [k for k in said if k in (K.SUPERSEDED, K.RETIRED)]
        replaced = bool(links) and links[-1] is K.SUPERSEDED
        assert replaced == (stored.superseded_by is not None)
