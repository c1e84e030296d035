"""Random sequences of lifecycle writes on the real embedded server — supersede (now or
from a later instant), retire, reject, retract, expire, forget, re-derive — and what must
hold after every one of them (see "Lifecycle writes" and "Re-derivation replays every
correction" in docs/corrections.md):

- the store never holds a conflict of one (a set with a single live member);
- a recall renders no belief that has ended, and no conflict of one;
- re-deriving every belief from its episode leaves the beliefs that hold, and the
  conflicts among them, as they were, now and after every scheduled end: a rejection,
  a retraction, an erasure and a resolved conflict all survive it.
"""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import InvalidInputError, Memory, NotFoundError
from recallflow.core.corrections import status_of, stood_at
from recallflow.core.lifecycle import lone_survivors
from recallflow.models.session import BeliefStatus
from recallflow.models.stages import HardFilter
from recallflow.models.store import LifecycleState, Sensitivity
from tests.helpers import belief, patient_policy, request

LATER = datetime(2099, 1, 1, tzinfo=UTC)
STATES = (LifecycleState.ACTIVE, LifecycleState.PROVISIONAL, LifecycleState.CONFLICTED)
GOAL = "Which day do deploys go out?"
SEED = [
    ("Deploys go out on Monday.", "conflicted"),
    ("Deploys go out on Friday.", "conflicted"),
    ("Deploys go out on Sunday.", "conflicted"),
    ("Deploys are reviewed by the platform team.", "active"),
]

op = st.one_of(
    st.tuples(st.just("supersede"), st.integers(0, 7), st.booleans()),
    st.tuples(st.just("retire"), st.integers(0, 7), st.just(False)),
    st.tuples(st.just("reject"), st.integers(0, 7), st.booleans()),
    st.tuples(st.just("retract"), st.integers(0, 7), st.just(False)),
    st.tuples(st.just("expire"), st.integers(0, 7), st.booleans()),
    st.tuples(st.just("forget"), st.integers(0, 7), st.just(False)),
    st.tuples(st.just("rederive"), st.just(0), st.just(False)),
)


class Run:
    """One principal's beliefs and the drafts formation derived them from."""

    def __init__(self, memory: Memory, sides: int) -> None:
        self.memory = memory
        self.tenant = f"t-{uuid.uuid4().hex[:10]}"
        self.ids: list[str] = []
        self.derived: list[dict[str, Any]] = []
        episode = {"id": "e-1", "tenant_id": self.tenant, "principal_id": "p1",
                   "occurred_at": "2025-01-01T00:00:00Z", "content": "deploy talk"}  # fmt: skip
        memory.episodes.add(episode)
        drafts = []
        for n, (statement, state) in enumerate(SEED):
            conflicted = state == "conflicted" and n < sides
            side = {"state": "conflicted", "conflict_set_id": "c-day"} if conflicted else {}
            drafts.append(self.draft(f"b-{n}", statement, **side))
        self.write(drafts)

    def draft(self, bid: str, statement: str, **fields: Any) -> dict[str, Any]:
        data = belief(self.tenant, id=bid, statement=statement, subject="deploy-day",
                      source_episode_id="e-1", recorded_at=datetime.now(UTC), **fields)  # fmt: skip
        return data

    def write(self, drafts: list[dict[str, Any]]) -> None:
        self.memory.beliefs.add_many(drafts)
        self.ids.extend(d["id"] for d in drafts)
        self.derived.extend(drafts)

    def rows(self) -> dict[str, Any]:
        return {b.id: b for b in self.memory.beliefs.list(self.tenant, "p1")}

    def holding(self, as_of: datetime) -> list[tuple[str, str]]:
        """What holds at ``as_of``, by statement, in the state a read loads it in."""
        f = HardFilter(
            tenant_id=self.tenant,
            principal_id="p1",
            states=STATES,
            as_of=as_of,
            known_as_of=datetime.now(UTC),
            sensitivity_ceiling=Sensitivity.SECRET,
        )
        rows = self.rows()
        loaded = self.memory._ports.belief_search.load(f, list(rows))
        return sorted((b.statement, b.state.value) for b in loaded)

    def apply(self, kind: str, index: int, later: bool, step: int) -> None:
        memory, tenant = self.memory, self.tenant
        target = self.ids[index % len(self.ids)]
        at = LATER if later else datetime.now(UTC)
        try:
            if kind == "supersede":
                new = self.draft(f"s-{step}", f"Deploys go out on day {step}.",
                                 valid_from=LATER if later else None)  # fmt: skip
                memory.beliefs.supersede(target, new)
                self.ids.append(new["id"])
                self.derived.append({**new, "supersedes": None})
            elif kind == "retire":
                memory.retire(tenant, "p1", target)
            elif kind == "reject":
                traced = memory.recall(request(tenant, goal=GOAL), policy=patient_policy())
                if traced.rendered_ids:
                    shown = traced.rendered_ids[index % len(traced.rendered_ids)]
                    memory.reject(tenant, "p1", traced.trace_id, shown,
                                  "not_true" if later else "changed")  # fmt: skip
            elif kind == "retract":
                memory.retract(tenant, "p1", target, reason="recorded by mistake")
            elif kind == "expire":
                memory.expire(tenant, "p1", target, at=at)
            elif kind == "forget":
                memory.forget_belief(tenant, "p1", target)
            else:
                self.rederive(step)
        except (InvalidInputError, NotFoundError):
            pass  # refused, writing nothing: an ended or forgotten belief, an end before a start

    def rederive(self, step: int) -> None:
        """Every draft formation wrote, derived again: new ids, one entity more."""
        again = [
            {**d, "id": f"r{step}-{d['id']}", "entities": [f"again-{step}"],
             "recorded_at": datetime.now(UTC)}
            for d in self.derived
        ]  # fmt: skip
        before = [self.holding(t) for t in self.instants()]
        self.memory.rederive(self.tenant, "p1", again)
        after = [self.holding(t) for t in self.instants()]
        assert after == before, "re-derivation changed what holds"

    def instants(self) -> list[datetime]:
        now = datetime.now(UTC)
        return [now + timedelta(seconds=5), LATER - timedelta(days=1), LATER + timedelta(days=1)]

    def check(self) -> None:
        rows = self.rows()
        assert lone_survivors(list(rows.values())) == [], "a conflict of one is stored"
        for at in self.instants():  # one conflict set: its sides at an instant are 0 or 2+
            assert [s for _, s in self.holding(at)].count("conflicted") != 1, at

    def recall_renders_only_what_holds(self) -> None:
        result = self.memory.recall(request(self.tenant, goal=GOAL), policy=patient_policy())
        rows = self.rows()
        now = datetime.now(UTC)
        for bid in result.rendered_ids:
            stood = stood_at(rows[bid], as_of=now, successors=rows)
            status = status_of(stood, as_of=now, ceiling=Sensitivity.SECRET)
            assert status in (BeliefStatus.LIVE, BeliefStatus.PROVISIONAL), (bid, status)
        sides = Counter(i.conflict_set_id for i in result.items if i.conflict_set_id)
        assert all(n >= 2 for n in sides.values()), sides


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(sides=st.integers(2, 3), ops=st.lists(op, min_size=1, max_size=7))
def test_lifecycle_writes_keep_conflicts_and_corrections_through_re_derivation(
    memory: Memory, sides: int, ops: list[tuple[str, int, bool]]
) -> None:
    run = Run(memory, sides)
    for step, (kind, index, later) in enumerate([*ops, ("rederive", 0, False)]):
        run.apply(kind, index, later, step)
        run.check()
    run.recall_renders_only_what_holds()


def test_an_expiry_replayed_onto_a_re_derived_belief_outlives_the_erasure_of_the_first(
    memory: Memory,
) -> None:
    """Found by the property above: a belief superseded by a successor valid only later,
    then expired now, is re-derived (its copy is written superseded and bounded by that
    expiry, with no event of its own); the first belief is then forgotten, its expiry
    event with it. Re-derived again, the sentence held again until the successor took
    over — a statement the user had ended, back in every recall, and disputing the other
    side of its old conflict."""
    run = Run(memory, 2)
    for step, (kind, index, later) in enumerate(
        [("supersede", 0, True), ("expire", 0, False), ("rederive", 0, False),
         ("forget", 0, False), ("rederive", 0, False)]
    ):  # fmt: skip
        run.apply(kind, index, later, step)
        run.check()
    run.recall_renders_only_what_holds()
    shown = memory.recall(request(run.tenant, goal=GOAL), policy=patient_policy())
    assert "Monday" not in shown.block
