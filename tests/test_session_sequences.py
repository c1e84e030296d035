"""Random sequences of session turns, writes, corrections, erasures and resumes, on the
real embedded server, held to what a user of a session would notice (see
docs/sessions.md and "Forgetting" in docs/corrections.md):

- nothing rendered after an erasure — a turn's block, any open session object's prefix,
  a resumed session's prefix — holds the erased belief's words;
- a session object's prefix is, byte for byte, the one a resume reads, and untouched
  by anything but an erasure;
- a change is told once: a turn that left nothing for later is followed by a turn that
  tells nothing, on the same session object or a resumed one;
- another principal's or tenant's beliefs are never rendered, nor a belief above the
  sensitivity ceiling of the session's surface (a child's: the narrower of its own and
  its parent's);
- a rendered belief marked as disputed is rendered with another side of its conflict:
  no prefix, block or recall shows a conflict of one (a conflict's side may be a local
  belief of another project, which holds only there).

Every belief's statement carries a word of its own (a token, never part of an id, which
an erasure keeps), so its words are found in any text by that token alone.
"""

from __future__ import annotations

import os
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from recallflow import Memory
from recallflow.models.request import Surface
from recallflow.models.result import RecallResult
from recallflow.models.store import Sensitivity
from recallflow.policy import SURFACE_CEILINGS
from recallflow.sessions import Session
from tests.helpers import belief, patient_policy

PATIENT = patient_policy()
#: More examples when asked (a probe run), a few in the suite.
EXAMPLES = int(os.environ.get("RECALLFLOW_SESSION_SEQUENCES", "5"))


def run_sequences(memory: Memory) -> None:
    class Sequences(RuleBasedStateMachine):
        beliefs = Bundle("beliefs")

        @initialize()
        def start(self) -> None:
            self.tenant = f"t-{uuid.uuid4().hex[:12]}"
            self.n = 0
            self.tokens: dict[str, str] = {}  # belief id -> its token, while it is stored
            self.level: dict[str, Sensitivity] = {}  # token -> its belief's sensitivity
            self.erased: set[str] = set()  # tokens of forgotten beliefs
            self.foreign: set[str] = set()  # tokens of other principals and tenants
            # (id, object, prefix as opened, the surface's ceiling)
            self.sessions: list[tuple[str, Session, bytes, Sensitivity]] = []
            for tenant, principal in ((self.tenant, "bob"), (f"{self.tenant}-x", "ada")):
                token = self.token()
                memory.beliefs.add(self.draft(f"f{self.n}", token, tenant=tenant, who=principal))
                self.foreign.add(token)
            # Every sequence starts with a session over a few beliefs: its prefix is what
            # the writes after it are corrected against.
            for level in (Sensitivity.PUBLIC, Sensitivity.PERSONAL, Sensitivity.SECRET):
                token = self.token()
                memory.beliefs.add(self.draft(f"b{self.n}", token, sensitivity=level.name.lower()))
                self.tokens[f"b{self.n}"] = token
                self.level[token] = level
            self.open(None, Surface.DIRECT)

        # --- helpers -----------------------------------------------------------------

        def token(self) -> str:
            self.n += 1
            return f"qz{uuid.uuid4().hex[:6]}k{self.n}"

        def draft(
            self, bid: str, token: str, *, tenant: str | None = None, who: str = "ada", **f: Any
        ) -> dict[str, Any]:
            return belief(
                tenant or self.tenant,
                who,
                **{
                    "id": bid,
                    "statement": f"Ada's setting {token} is on.",
                    "subject": token,
                    "entities": [token],
                    "belief_type": "preference",
                    "source_authority": "user_stated",
                    **f,
                },
            )

        def rendered_clean(
            self, text: str, where: str, ceiling: Sensitivity = Sensitivity.SECRET
        ) -> None:
            for token in self.erased | self.foreign:
                assert token not in text, f"{where} holds {token}:\n{text}"
            for token, level in self.level.items():
                assert level <= ceiling or token not in text, (
                    f"{where}, on a surface up to {ceiling.name}, holds {level.name} {token}"
                )

        def sides_shown(self, result: RecallResult, where: str) -> None:
            sets = Counter(i.conflict_set_id for i in result.items if i.conflict_set_id)
            lone = sorted(c for c, n in sets.items() if n < 2)
            assert not lone, f"{where} shows a conflict of one ({lone}):\n{result.block}"

        # --- writes --------------------------------------------------------------------

        @rule(target=beliefs, level=st.sampled_from(list(Sensitivity)))
        def add(self, level: Sensitivity) -> str:
            token = self.token()
            bid = f"b{self.n}"
            memory.beliefs.add(self.draft(bid, token, sensitivity=level.name.lower()))
            self.tokens[bid] = token
            self.level[token] = level
            return bid

        @rule(bid=beliefs, later=st.booleans())
        def expire(self, bid: str, later: bool) -> None:
            if bid in self.tokens:
                at = datetime.now(UTC) + (timedelta(days=1) if later else timedelta(0))
                memory.expire(self.tenant, "ada", bid, at=at)

        @rule(target=beliefs, local=st.booleans())
        def add_conflict(self, local: bool) -> str:
            """Two sides; with ``local``, the second is local to a project no session
            here runs in ("api"), so it is no side in any of them."""
            set_id = f"cs-{self.token()}"
            ids = []
            drafts = []
            for side in range(2):
                token = self.token()
                ids.append(f"b{self.n}")
                away = (
                    {"scope": "project", "origin_project": "api", "portability": "local"}
                    if local and side
                    else {}
                )
                drafts.append(
                    self.draft(ids[-1], token, state="conflicted", conflict_set_id=set_id, **away)
                )
                self.tokens[ids[-1]] = token
            memory.beliefs.add_many(drafts)
            return ids[0]

        @rule(target=beliefs, old=beliefs)
        def supersede(self, old: str) -> str:
            token = self.token()
            bid = f"b{self.n}"
            try:
                memory.supersede(old, self.draft(bid, token))
            except Exception:  # forgotten, already superseded, retired: nothing written
                assert bid not in {b.id for b in memory.beliefs.list(self.tenant, "ada")}
                return old
            self.tokens[bid] = token
            return bid

        @rule(bid=beliefs)
        def retire(self, bid: str) -> None:
            if bid in self.tokens:
                memory.retire(self.tenant, "ada", bid)

        @rule(bid=beliefs, kind=st.sampled_from(["not_here", "unspecified"]))
        def reject(self, bid: str, kind: str) -> None:
            token = self.tokens.get(bid)
            if token is None:
                return
            shown = memory.recall(
                {
                    "tenant_id": self.tenant,
                    "principal_id": "ada",
                    "project": "web",
                    "working_state": {"goal": f"Is {token} on?", "entities": [token]},
                },
                policy=PATIENT,
            )
            self.rendered_clean(shown.block, "a recall's block")
            self.sides_shown(shown, "a recall")
            if bid in shown.rendered_ids:
                memory.reject(self.tenant, "ada", shown.trace_id, bid, kind)

        @rule(bid=consumes(beliefs))
        def forget(self, bid: str) -> None:
            token = self.tokens.pop(bid, None)
            if token is None:
                return
            memory.forget_belief(self.tenant, "ada", bid)
            self.erased.add(token)

        # --- sessions ------------------------------------------------------------------

        @precondition(lambda self: len(self.sessions) < 3)
        @rule(project=st.sampled_from([None, "web"]), surface=st.sampled_from(list(Surface)))
        def open(self, project: str | None, surface: Surface) -> None:
            session = memory.open_session(
                self.tenant, "ada", project=project, surface=surface, policy=PATIENT
            )
            ceiling = SURFACE_CEILINGS[surface]
            self.rendered_clean(session.prefix_text, "a new prefix", ceiling)
            assert session.snapshot is not None
            self.sides_shown(session.snapshot, "a new prefix")
            self.sessions.append((session.id, session, session.prefix, ceiling))

        @precondition(lambda self: 0 < len(self.sessions) < 3)
        @rule(which=st.integers(0, 2), surface=st.sampled_from(list(Surface)))
        def child(self, which: int, surface: Surface) -> None:
            parent = self.sessions[which % len(self.sessions)]
            goal = {"goal": "Which settings are on?", "entities": list(self.tokens.values())[:3]}
            if not goal["entities"]:
                goal.pop("entities")
            run = parent[1].child(goal, surface=surface)
            ceiling = min(parent[3], SURFACE_CEILINGS[surface])
            self.rendered_clean(run.prefix_text, "a child's prefix", ceiling)
            assert run.snapshot is not None
            self.sides_shown(run.snapshot, "a child's prefix")
            self.sessions.append((run.id, run, run.prefix, ceiling))

        @precondition(lambda self: bool(self.sessions))
        @rule(
            which=st.integers(0, 2),
            ask=st.sampled_from(["live", "erased", "foreign"]),
            pick=st.integers(0, 63),
        )
        def turn(self, which: int, ask: str, pick: int) -> None:
            sid, session, _, ceiling = self.sessions[which % len(self.sessions)]
            pool = {
                "live": list(self.tokens.values()),
                "erased": sorted(self.erased),
                "foreign": sorted(self.foreign),
            }[ask] or ["settings"]
            asked = pool[pick % len(pool)]
            goal = {"goal": f"Is {asked} on?", "entities": [asked]}
            first = session.recall(goal)
            self.rendered_clean(first.block, "a turn's block", ceiling)
            self.sides_shown(first, "a turn's block")
            ids = [c.belief_id for c in first.trace.corrections]
            assert len(ids) == len(set(ids)), f"one belief corrected twice in a turn: {ids}"
            if first.trace.corrections_deferred:
                return
            # Nothing changed since: the next turn, here or resumed, tells nothing.
            resumed = memory.resume_session(self.tenant, "ada", sid, policy=PATIENT)
            again = resumed.recall(goal)
            assert again.trace.corrections == (), [
                (c.belief_id, c.kind.value) for c in again.trace.corrections
            ]
            assert session.recall(goal).trace.corrections == ()

        @precondition(lambda self: bool(self.sessions))
        @rule(which=st.integers(0, 2))
        def resume(self, which: int) -> None:
            index = which % len(self.sessions)
            sid, session, opened, ceiling = self.sessions[index]
            resumed = memory.resume_session(self.tenant, "ada", sid, policy=PATIENT)
            assert resumed.prefix == session.prefix
            self.sessions[index] = (sid, resumed, opened, ceiling)

        @invariant()
        def prefixes(self) -> None:
            if not hasattr(self, "sessions"):
                return
            for sid, session, opened, ceiling in self.sessions:
                self.rendered_clean(session.prefix_text, f"session {sid}'s prefix", ceiling)
                stored = memory.resume_session(self.tenant, "ada", sid, policy=PATIENT)
                assert stored.prefix == session.prefix
                if b"[erased]" not in stored.prefix:
                    assert stored.prefix == opened  # only an erasure rewrites a prefix

        def teardown(self) -> None:
            if hasattr(self, "tenant"):
                for tenant, principal in (
                    (self.tenant, "ada"),
                    (self.tenant, "bob"),
                    (f"{self.tenant}-x", "ada"),
                ):
                    memory.forget(tenant, principal)

    run_state_machine_as_test(
        Sequences,
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=20,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )


def test_sessions_under_random_writes_turns_erasures_and_resumes(memory: Memory) -> None:
    run_sequences(memory)
