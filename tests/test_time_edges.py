"""Bi-temporal edges on the real server (see "Lifecycle and history" in
docs/architecture.md and "History: lifecycle state at `as_of`" in docs/recall.md).

- As a hypothesis property over random histories whose times sit on a small grid of
  instants one microsecond apart at its edges (so equal instants and one-microsecond
  misses are common): the hard filter admits at ``as_of``/``known_as_of`` exactly the
  beliefs a plain-Python reading of the documented rules admits, each in the state it had
  then, and the session's own reading of a row's time (a turn's corrections) agrees with it;
  archival search's filter admits exactly the episodes that occurred by ``as_of`` and were
  recorded by ``known_as_of``.
- Every time a write is given comes back as the same instant, to the microsecond, whatever
  offset it was written with.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import Belief, Memory
from recallflow.core.corrections import in_force_at, status_of, stood_at
from recallflow.models.session import BeliefStatus
from recallflow.models.stages import EpisodeFilter, HardFilter
from recallflow.models.store import LifecycleState, Sensitivity
from tests.helpers import belief

T0 = datetime(2025, 1, 1, tzinfo=UTC)
DAY = timedelta(days=1)
US = timedelta(microseconds=1)
#: Three days, each with its instant and the microsecond after it.
GRID = [T0 + d * DAY + m * US for d in range(3) for m in (0, 1)]
#: Where a read may stand: on the grid, before anything, and far ahead.
READ_AT = [*GRID, T0 - 400 * DAY, datetime(9000, 1, 1, tzinfo=UTC)]
IN_TURN = (LifecycleState.ACTIVE, LifecycleState.PROVISIONAL, LifecycleState.CONFLICTED)
SNAPSHOT = (LifecycleState.ACTIVE, LifecycleState.CONFLICTED)

instant = st.sampled_from(GRID)
belief_strategy = st.fixed_dictionaries(
    {
        "state": st.sampled_from([s.value for s in LifecycleState]),
        "valid": st.tuples(st.one_of(st.none(), instant), st.one_of(st.none(), instant)),
        "recorded": instant,
        "retracted": st.one_of(st.none(), instant),
    }
)


def _drafts(tenant: str, specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One draft a spec; a superseded belief is superseded by the next one (chains form
    where several follow each other), the last is never superseded."""
    drafts = []
    for index, spec in enumerate(specs):
        valid_from, valid_to = spec["valid"]
        if valid_from is not None and valid_to is not None and not valid_from < valid_to:
            valid_to = None
        retracted = spec["retracted"]
        if retracted is not None and not spec["recorded"] < retracted:
            retracted = None
        state = spec["state"]
        if state == "superseded" and index == len(specs) - 1:
            state = "active"
        data = belief(
            tenant,
            id=f"b-{index}",
            statement=f"Deploys go out on day {index}.",
            subject="deploy-day",
            state=state,
            valid_from=valid_from,
            valid_to=valid_to,
            recorded_at=spec["recorded"],
            retracted_at=retracted,
            sensitivity="public",
        )
        if state == "superseded":
            data["superseded_by"] = f"b-{index + 1}"
        if state == "conflicted":
            data["conflict_set_id"] = "c-1"
        drafts.append(data)
    sides = [d for d in drafts if d["state"] == "conflicted" and d["retracted_at"] is None]
    if len(sides) == 1:  # a conflict needs two sides: a set of one is refused
        for d in drafts:
            if d["state"] == "conflicted":
                d.update(state="active", conflict_set_id=None)
    return drafts


def _known(b: Belief, known_as_of: datetime) -> bool:
    """System time: recorded by ``known_as_of`` and not retracted by then."""
    return b.recorded_at <= known_as_of and (b.retracted_at is None or known_as_of < b.retracted_at)


def _oracle(
    rows: dict[str, Belief],
    as_of: datetime,
    known_as_of: datetime,
    states: tuple[LifecycleState, ...],
) -> dict[str, LifecycleState]:
    """The documented rules, read plainly: each admitted belief and its state at ``as_of``.

    World time ``valid_from <= as_of < valid_to`` (an open end is no bound); system time
    known by ``known_as_of``; retired never; expired, where active is admitted, only with a
    ``valid_to`` (then it was active before it); superseded, where active is admitted, only
    while its successor has not taken over: the successor's ``valid_from`` is after
    ``as_of``, or the store did not know the successor at ``known_as_of``."""
    out: dict[str, LifecycleState] = {}
    for b in rows.values():
        world = (b.valid_from is None or b.valid_from <= as_of) and (
            b.valid_to is None or as_of < b.valid_to
        )
        if not (world and _known(b, known_as_of)):
            continue
        state = b.state
        if state in states:
            out[b.id] = state
            continue
        if LifecycleState.ACTIVE not in states:
            continue
        if state is LifecycleState.EXPIRED and b.valid_to is not None:
            out[b.id] = LifecycleState.ACTIVE
        elif state is LifecycleState.SUPERSEDED:
            successor = rows[str(b.superseded_by)]
            later = successor.valid_from is not None and successor.valid_from > as_of
            if later or not _known(successor, known_as_of):
                out[b.id] = LifecycleState.ACTIVE
    # A conflict as it stood at as_of: the members of the set that held then (two or more)
    # were its sides, whatever ended them since; one that held alone was disputed by none.
    sides = [i for i, s in out.items() if rows[i].conflict_set_id and s in _SIDES]
    for i in sides:
        if len(sides) > 1 and LifecycleState.CONFLICTED in states:
            out[i] = LifecycleState.CONFLICTED
        elif len(sides) == 1 and LifecycleState.ACTIVE in states:
            out[i] = LifecycleState.ACTIVE
    return out


_SIDES = (LifecycleState.ACTIVE, LifecycleState.CONFLICTED)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    specs=st.lists(belief_strategy, min_size=1, max_size=8),
    reads=st.lists(st.tuples(st.sampled_from(READ_AT), st.sampled_from(READ_AT)), max_size=6),
)
def test_the_filter_admits_exactly_what_the_rules_say_at_every_instant(
    memory: Memory, specs: list[dict[str, Any]], reads: list[tuple[datetime, datetime]]
) -> None:
    tenant = f"t-{uuid.uuid4().hex[:10]}"
    stored = memory.beliefs.add_many(_drafts(tenant, specs))
    rows = {b.id: b for b in stored}
    search = memory._ports.belief_search
    # Every grid instant, each as both times, and the drawn pairs.
    for as_of, known_as_of in [*((t, t) for t in READ_AT), *reads]:
        for states in (IN_TURN, SNAPSHOT):
            f = HardFilter(
                tenant_id=tenant,
                principal_id="p1",
                states=states,
                as_of=as_of,
                known_as_of=known_as_of,
                sensitivity_ceiling=Sensitivity.SECRET,
            )
            loaded = {b.id: b.state for b in search.load(f, list(rows))}
            assert loaded == _oracle(rows, as_of, known_as_of, states), (as_of, known_as_of)
        if as_of != known_as_of:
            continue
        # A session reads a row at one instant: what it shows as live is what its
        # snapshot's filter admits then.
        live = {
            bid
            for bid, b in rows.items()
            if in_force_at(stood_at(b, as_of=as_of, successors=rows), as_of=as_of)
            and status_of(
                stood_at(b, as_of=as_of, successors=rows), as_of=as_of, ceiling=Sensitivity.SECRET
            )
            is BeliefStatus.LIVE
        }
        assert live == set(_oracle(rows, as_of, as_of, SNAPSHOT)), as_of


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    specs=st.lists(st.tuples(instant, instant), min_size=1, max_size=8),
    reads=st.lists(st.tuples(st.sampled_from(READ_AT), st.sampled_from(READ_AT)), max_size=6),
)
def test_archival_search_admits_exactly_the_episodes_that_occurred_and_were_known(
    memory: Memory, specs: list[tuple[datetime, datetime]], reads: list[tuple[datetime, datetime]]
) -> None:
    tenant = f"t-{uuid.uuid4().hex[:10]}"
    stored = memory.episodes.add_many(
        {
            "tenant_id": tenant,
            "principal_id": "p1",
            "id": f"e-{index}",
            "occurred_at": min(pair),
            "recorded_at": max(pair),
            "content": f"Deploy went out on day {index}.",
        }
        for index, pair in enumerate(specs)
    )
    search = memory._episode_ports.episode_search
    for as_of, known_as_of in [*((t, t) for t in READ_AT), *reads]:
        f = EpisodeFilter(
            tenant_id=tenant,
            principal_id="p1",
            as_of=as_of,
            known_as_of=known_as_of,
            sensitivity_ceiling=Sensitivity.SECRET,
        )
        loaded = {e.id for e in search.load(f, [e.id for e in stored])}
        assert loaded == {
            e.id for e in stored if e.occurred_at <= as_of and e.recorded_at <= known_as_of
        }, (as_of, known_as_of)


def test_every_time_a_write_is_given_comes_back_to_the_microsecond(
    memory: Memory, tenant: str
) -> None:
    """Written with a +05:45 offset and microseconds, each time reads back as the same
    instant in UTC, and a read one microsecond either side of an edge falls on its side."""
    nepal = timezone(timedelta(hours=5, minutes=45))
    at = datetime(2025, 3, 30, 2, 30, 0, 123457, tzinfo=nepal)
    stored = memory.beliefs.add(
        belief(
            tenant,
            id="b-1",
            valid_from=at,
            valid_to=at + DAY + US,
            recorded_at=at - US,
            retracted_at=at + 2 * DAY + US,
        )
    )
    got = memory.beliefs.get(tenant, "p1", "b-1")
    for field, want in (
        ("valid_from", at),
        ("valid_to", at + DAY + US),
        ("recorded_at", at - US),
        ("retracted_at", at + 2 * DAY + US),
    ):
        assert getattr(stored, field) == getattr(got, field) == want, field
        assert getattr(got, field).utcoffset() == timedelta(0), field
    episode = memory.episodes.add(
        {"tenant_id": tenant, "principal_id": "p1", "occurred_at": at, "content": "Deploy."}
    )
    assert memory.episodes.get(tenant, "p1", episode.id).occurred_at == at
    search = memory._ports.belief_search

    def admitted(as_of: datetime) -> bool:
        f = HardFilter(
            tenant_id=tenant,
            principal_id="p1",
            states=IN_TURN,
            as_of=as_of,
            known_as_of=as_of,
            sensitivity_ceiling=Sensitivity.SECRET,
        )
        return [b.id for b in search.load(f, ["b-1"])] == ["b-1"]

    assert not admitted(at - US) and admitted(at)
    assert admitted(at + DAY) and not admitted(at + DAY + US)
