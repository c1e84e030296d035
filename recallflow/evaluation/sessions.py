"""Sessions in the harness: the **prefix byte stability** gate, the cached-prefix ratio
beside the rejected re-inject-every-turn alternative, snapshot utilization and misses,
and each dataset group run as a session (see "Sessions" in docs/architecture.md).

Scripted sessions. Each kind (interactive, async, and a child run under an interactive
parent) gets its own principal with a durable user model, preferences and project facts,
and runs :data:`GOALS` (24 turns). Between turns :data:`CHANGES` edits rows at the row
level (supersessions, retirements, a new conflict and its resolution, new beliefs,
sensitivity changes both ways, a retraction, a flag, a restatement, an expiry), so the
gate holds whichever write path made the change. The script itself decides which snapshot
beliefs it changes, so the expected corrections never come from the code under test.

The gate passes when, in every scripted session, the prefix bytes are identical on every
turn, after an in-process resume and after a resume in a separate process, and every turn's
block carries exactly one correction per snapshot belief changed before it, and per belief
an earlier turn showed that the script changed (the one its conflict's correction quoted
as disputing, once the conflict is resolved), and none otherwise.

Cached-prefix ratio = memory tokens served from the unchanged prefix ÷ all memory tokens
sent across the session (the snapshot block on every turn plus every in-turn block). The
rejected alternative re-injects the top-k (the session's item and token caps, ranked by
the in-turn DAG) every turn; what it could serve from a prompt cache is the part of each
block identical to the previous turn's from the first byte on.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from recallflow.adapters.postgres.row_edits import RowEdits
from recallflow.core.snapshot import common_prefix_tokens, ratio
from recallflow.evaluation.datasets import Group
from recallflow.evaluation.gates import GateResult, GateStatus, RecallAudit
from recallflow.evaluation.ingest import principal_id as group_principal
from recallflow.evaluation.progress import bar, iterate
from recallflow.memory import Memory
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.result import RecallResult
from recallflow.models.session import SessionKind
from recallflow.models.store import BeliefDraft, LifecycleState, Sensitivity
from recallflow.sessions import KindBudget, Session, SessionUsage, session_usage, summarise_usage

GATE = "prefix byte stability"
PROJECT = "billing-api"

# fmt: off
#: The durable layer: (id suffix, statement, belief type).
DURABLE = (
    ("name", "The user's name is Ada Lovelace; she goes by Ada.", "user_model"),
    ("tz", "Ada works from London, in the Europe/London time zone.", "user_model"),
    ("role", "Ada is the tech lead of the payments team.", "user_model"),
    ("langs", "Ada reads Python, Go and TypeScript fluently.", "user_model"),
    ("pronouns", "Ada uses she/her pronouns.", "user_model"),
    ("concise", "Ada prefers concise answers with code first.", "preference"),
    ("tests", "Ada wants a failing test written before every bug fix.", "preference"),
    ("typing", "Ada wants Python fully typed and checked with mypy --strict.", "preference"),
    ("commits", "Ada writes small commits whose messages say why.", "preference"),
    ("editor", "Ada edits with Neovim and the LazyVim distribution.", "preference"),
    ("review", "Ada wants every pull request reviewed by one other engineer.", "preference"),
    ("docs", "Ada wants docstrings that give the reason, not the mechanics.", "preference"),
    ("meetings", "Ada keeps meetings to mornings, London time.", "preference"),
    ("deploys", "Ada deploys on Tuesdays and Thursdays only.", "preference"),
    ("naming", "Ada names functions after the value they return.", "preference"),
    ("errors", "Ada wants typed errors that say how to fix the problem.", "preference"),
    ("deps", "Ada pins every dependency and updates them monthly.", "preference"),
)
#: Project facts, for the goals' priming sets and in-turn recall: (id suffix, statement).
FACTS = (
    ("deploy", "billing-api deploys to fly.io from the main branch."),
    ("db", "billing-api stores invoices in PostgreSQL 18."),
    ("money", "Money amounts in billing-api are integer cents, never floats."),
    ("ci", "billing-api CI runs ruff, mypy and pytest on every push."),
    ("queue", "billing-api sends webhooks through a Redis queue."),
    ("retry", "Stripe webhooks are retried with exponential backoff."),
    ("flags", "Feature flags in billing-api live in LaunchDarkly."),
    ("logs", "billing-api logs JSON lines to stdout."),
    ("alerts", "billing-api alerts go to the payments on-call channel."),
    ("schema", "billing-api migrations are numbered SQL files applied in order."),
    ("tax", "Tax rules for billing-api come from the finance team's spreadsheet."),
    ("currency", "billing-api supports GBP, EUR and USD."),
)
#: A belief above the direct surface's ceiling until the script lowers it (turn 12).
SECRET = ("secret", "Ada's home address is 12 Example Street.", "user_model")

#: One working state per turn: 24 turns.
GOALS = (
    "Fix the failing invoice test", "How should I format my answer?",
    "Add a currency conversion to billing-api", "Review this pull request",
    "Deploy billing-api today", "Write a docstring for the refund function",
    "Set up the editor for the repository", "Name the new helper function",
    "Schedule a meeting about the outage", "Handle the webhook retry error",
    "Update the dependencies", "What time is it for Ada?",
    "Where does Ada live?", "Add a migration for the tax table",
    "Type-check the billing module", "Commit the fix",
    "Store money amounts in the new table", "Alert routing for billing-api",
    "Log format for the new endpoint", "Feature flag for the new checkout",
    "Explain the queue to a new engineer", "Which languages can Ada review?",
    "Summarise the deploy rules", "Wrap up the session",
)
# fmt: on


@dataclass(frozen=True)
class Change:
    """One row-level change the script makes before a turn.

    ``op`` on a snapshot belief (``target`` None: the next durable snapshot belief the
    script has not changed yet; ``@conflicted``: the belief it put into conflict) is
    expected to be corrected in the next turn — a resolution also of the belief the
    conflict's correction quoted as disputing it, which the agent read there; the others
    (new beliefs, revealing the secret) change nothing the agent holds and must not be.
    """

    op: Literal[
        "supersede", "retire", "conflict", "resolve", "withdraw", "retract", "flag", "restate",
        "expire", "add_durable", "add_fact", "reveal",
    ]  # fmt: skip
    target: str | None = None

    @property
    def on_snapshot(self) -> bool:
        return self.op not in ("add_durable", "add_fact", "reveal")


#: The changes made before turn ``t`` (turns are 0-based).
CHANGES: dict[int, tuple[Change, ...]] = {
    2: (Change("supersede"),),
    4: (Change("retire"),),
    6: (Change("conflict"),),
    8: (Change("add_durable"), Change("add_fact")),
    10: (Change("withdraw"),),
    12: (Change("reveal"),),
    14: (Change("retract"),),
    16: (Change("flag"),),
    18: (Change("restate"),),
    19: (Change("expire"),),
    21: (Change("supersede"), Change("retire")),
    22: (Change("resolve", "@conflicted"),),
}


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ScriptedSession(_Model):
    """What one scripted session measured."""

    kind: SessionKind
    session_id: str
    prefix_sha256: str
    turns: int
    snapshot_items: int
    prefix_stable_turns: int
    resumed_identical: bool
    other_process_identical: bool | None
    #: Why the separate process did not confirm the prefix (its exit and last error line,
    #: or the digest it read instead), when it did not.
    other_process_note: str | None = None
    corrections_expected: int
    corrections_rendered: int
    correction_mismatches: tuple[str, ...]
    prefix_tokens: int
    in_turn_tokens: int
    reinject_tokens: int
    reinject_cached_tokens: int
    relevant: int
    misses: int

    @property
    def cached_prefix_ratio(self) -> float | None:
        served = self.prefix_tokens * self.turns
        return ratio(served, served + self.in_turn_tokens)

    @property
    def reinject_ratio(self) -> float | None:
        return ratio(self.reinject_cached_tokens, self.reinject_tokens)


class GroupSession(_Model):
    """A dataset group run as one session: snapshot at its start, its cases as turns."""

    group: str
    snapshot_items: int
    turns: int
    relevant: int
    turn_utilization: float | None
    needed_cap: int
    prefix_tokens: int
    in_turn_tokens: int

    @property
    def utilization(self) -> float | None:
        return ratio(self.relevant, self.snapshot_items)


class SessionsReport(_Model):
    """Everything the harness measured about sessions."""

    scripted: tuple[ScriptedSession, ...]
    scripted_budget: tuple[KindBudget, ...]
    dataset: str | None = None
    groups: tuple[GroupSession, ...] = ()
    groups_budget: tuple[KindBudget, ...] = ()
    opening_goal: str = ""

    def totals(self) -> dict[str, float | None]:
        """Cached-prefix ratio and the re-inject ratio over every scripted session."""
        s = self.scripted
        served = sum(x.prefix_tokens * x.turns for x in s)
        sent = served + sum(x.in_turn_tokens for x in s)
        return {
            "cached_prefix_ratio": ratio(served, sent),
            "reinject_ratio": ratio(
                sum(x.reinject_cached_tokens for x in s), sum(x.reinject_tokens for x in s)
            ),
            "memory_tokens_sessions": float(sent),
            "memory_tokens_reinject": float(sum(x.reinject_tokens for x in s)),
            "uncached_tokens_sessions": float(sum(x.in_turn_tokens for x in s)),
            "uncached_tokens_reinject": float(
                sum(x.reinject_tokens - x.reinject_cached_tokens for x in s)
            ),
        }


def _profile(tenant: str, principal: str) -> list[BeliefDraft]:
    common: dict[str, Any] = {
        "tenant_id": tenant,
        "principal_id": principal,
        "recorded_at": datetime(2026, 1, 5, tzinfo=UTC),
        "source_authority": "user_stated",
    }
    durable = [
        BeliefDraft(id=f"d-{key}", statement=text, subject=f"ada-{key}", belief_type=kind,
                    scope="user", portability="portable", confidence=0.9, **common)
        for key, text, kind in DURABLE
    ]  # fmt: skip
    facts = [
        BeliefDraft(id=f"f-{key}", statement=text, subject=f"billing-{key}", belief_type="fact",
                    scope="project", origin_project=PROJECT, confidence=0.8,
                    entities=("billing-api",), **common)
        for key, text in FACTS
    ]  # fmt: skip
    key, text, kind = SECRET
    secret = BeliefDraft(
        id=f"d-{key}",
        statement=text,
        subject=f"ada-{key}",
        belief_type=kind,
        scope="user",
        confidence=0.9,
        sensitivity=Sensitivity.SECRET,
        **common,
    )
    return [*durable, *facts, secret]


class _Script:
    """Applies :data:`CHANGES` to one principal and remembers what it changed."""

    def __init__(self, memory: Memory, tenant: str, principal: str, session: Session) -> None:
        self.memory = memory
        self.tenant = tenant
        self.principal = principal
        self.edits = RowEdits(memory.pool, tenant, principal)
        durable_ids = {f"d-{k}" for k, _, _ in DURABLE}
        self.queue = [b for b in session.snapshot_ids if b in durable_ids]
        self.changed: set[str] = set()
        self.conflicted: str | None = None
        #: The belief the ``conflicted`` correction quoted as disputing ``conflicted``.
        self.disputing: str | None = None
        self.n = 0

    def _next(self) -> str:
        for bid in self.queue:
            if bid not in self.changed:
                self.changed.add(bid)
                return bid
        raise RuntimeError("the script ran out of snapshot beliefs to change")

    def _add(self, bid: str, statement: str, **fields: Any) -> None:
        self.memory.beliefs.add(
            BeliefDraft(
                id=bid,
                tenant_id=self.tenant,
                principal_id=self.principal,
                statement=statement,
                subject=bid,
                scope="user",
                confidence=0.9,
                source_authority="user_stated",
                **fields,
            )
        )

    def apply(self, change: Change) -> tuple[str, ...]:
        """Make ``change``; the beliefs the agent holds a line of that it changed: the
        snapshot belief, and for a resolution the belief the conflict's correction quoted
        as disputing it (it holds alone now)."""
        self.n += 1
        now = datetime.now(UTC)
        edits = self.edits
        if change.op == "add_durable":
            self._add(
                f"n-pref-{self.n}",
                "Ada now prefers tabs to spaces in Go.",
                belief_type="preference",
            )
            return ()
        if change.op == "add_fact":
            self._add(f"n-fact-{self.n}", "billing-api now also supports JPY.", belief_type="fact")
            return ()
        if change.op == "reveal":
            edits.set_sensitivity(f"d-{SECRET[0]}", Sensitivity.PERSONAL)
            return ()
        target = self.conflicted if change.target == "@conflicted" else change.target
        bid = target or self._next()
        if change.op == "supersede":
            new = f"{bid}-v{self.n}"
            self._add(
                new,
                f"(updated) {bid} changed in turn {self.n}.",
                belief_type="preference",
                valid_from=now,
                supersedes=bid,
            )
            edits.supersede(bid, new, now)
        elif change.op == "retire":
            edits.set_state(bid, LifecycleState.RETIRED)
        elif change.op == "conflict":
            peer, set_id = f"{bid}-peer", f"cs-{bid}"
            self._add(peer, f"Ada said the opposite of {bid}.", belief_type="preference")
            # Both sides by hand, as the other changes of this run are: a write refuses a
            # conflict whose other side is not yet in it.
            edits.conflict(peer, set_id)
            edits.conflict(bid, set_id)
            self.conflicted, self.disputing = bid, peer
        elif change.op == "resolve":
            edits.resolve(bid)
            if bid == self.conflicted and self.disputing is not None:
                return bid, self.disputing
        elif change.op == "withdraw":
            edits.set_sensitivity(bid, Sensitivity.SECRET)
        elif change.op == "retract":
            edits.retract(bid, now)
        elif change.op == "flag":
            edits.flag(bid)
        elif change.op == "restate":
            edits.restate(bid, f"Restated in turn {self.n}: {bid}.")
        elif change.op == "expire":
            edits.expire(bid, now)
        return (bid,)


def _tokens(memory: Memory, text: str) -> int:
    return memory.token_counter.count(text) if text else 0


def _open(memory: Memory, tenant: str, kind: SessionKind) -> tuple[str, Session]:
    principal = f"ada-{kind.value}"
    memory.beliefs.add_many(_profile(tenant, principal))
    goal = WorkingState(goal="Keep billing-api healthy this week", entities=("billing-api",))
    if kind is SessionKind.CHILD:
        parent = memory.open_session(tenant, principal, project=PROJECT)
        child = parent.child(WorkingState(goal="Fix the failing invoice test and commit it"))
        return principal, child
    opening = goal if kind is SessionKind.ASYNC else None
    return principal, memory.open_session(
        tenant, principal, project=PROJECT, kind=kind, goal=opening
    )


def run_scripted(
    memory: Memory, tenant: str, audit: RecallAudit, *, progress: bool = False
) -> tuple[list[ScriptedSession], list[SessionUsage]]:
    """Run every scripted session; returns their measures and their usage records."""
    out: list[ScriptedSession] = []
    usages: list[SessionUsage] = []
    for kind in iterate(
        list(SessionKind), desc="scripted sessions", unit="session", enabled=progress
    ):
        principal, session = _open(memory, tenant, kind)
        assert session.snapshot is not None
        audit.observe(_audit_request(tenant, principal), session.snapshot)
        prefix, sha = session.prefix, session.prefix_sha256
        script = _Script(memory, tenant, principal, session)
        stable = 0
        resumed_ok = True
        expected_total = rendered_total = 0
        mismatches: list[str] = []
        in_turn = reinject = reinject_cached = 0
        previous_block = ""
        turns = []
        for t, goal in enumerate(GOALS):
            expected = sorted(bid for c in CHANGES.get(t, ()) for bid in script.apply(c))
            state = WorkingState(goal=goal)
            result = session.recall(state)
            audit.observe(_audit_request(tenant, principal), result)
            turns.append(result.trace)
            got = sorted(c.belief_id for c in result.trace.corrections)
            expected_total += len(expected)
            rendered_total += len(got)
            if got != expected:
                mismatches.append(f"turn {t}: expected {expected}, rendered {got}")
            if session.prefix == prefix and hashlib.sha256(session.prefix).hexdigest() == sha:
                stable += 1
            if t % 8 == 7:
                resumed = memory.resume_session(
                    tenant, principal, session.id, policy=session.policy
                )
                resumed_ok = resumed_ok and resumed.prefix == prefix
            in_turn += _tokens(memory, result.block)
            baseline = memory.recall(
                RecallRequest(
                    tenant_id=tenant,
                    principal_id=principal,
                    working_state=state,
                    surface=session.info.surface,
                    project=session.info.project,
                    max_items=session.info.max_items,
                    max_tokens=session.info.max_tokens,
                ),
                persist_trace=False,
            )
            reinject += _tokens(memory, baseline.block)
            reinject_cached += common_prefix_tokens(
                previous_block, baseline.block, memory.token_counter.count
            )
            previous_block = baseline.block
        usage = session_usage(
            memory.trace(tenant, principal, session.info.snapshot_trace_id),
            turns,
            session.policy.sessions,
        )
        usages.append(usage)
        out.append(
            ScriptedSession(
                kind=kind,
                session_id=session.id,
                prefix_sha256=sha,
                turns=len(GOALS),
                snapshot_items=len(session.snapshot_ids),
                prefix_stable_turns=stable,
                resumed_identical=resumed_ok,
                other_process_identical=None,
                corrections_expected=expected_total,
                corrections_rendered=rendered_total,
                correction_mismatches=tuple(mismatches),
                prefix_tokens=_tokens(memory, session.snapshot.block),
                in_turn_tokens=in_turn,
                reinject_tokens=reinject,
                reinject_cached_tokens=reinject_cached,
                relevant=len(usage.relevant),
                misses=len(usage.misses),
            )
        )
    checked = _other_process(memory, tenant, out)
    done = [
        s.model_copy(
            update={
                "other_process_identical": checked[s.session_id] is None,
                "other_process_note": checked[s.session_id],
            }
        )
        for s in out
    ]
    return done, usages


def _other_process(
    memory: Memory, tenant: str, sessions: Sequence[ScriptedSession]
) -> dict[str, str | None]:
    """Resume every scripted session in a separate process and compare the prefix sha256
    it reads with the one rendered at open: per session None when they match, else why
    not (so a failed gate says whether the bytes differed or the process did)."""
    args = [f"ada-{s.kind.value}={s.session_id}" for s in sessions]
    embedder = memory.embedder.name.split("-", 1)[0]
    done = subprocess.run(
        [sys.executable, "-c", _RESUME_SESSION, memory.uri, embedder, tenant, *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        why = f"the resuming process exited {done.returncode}: {lines[-1] if lines else ''}"
        return {s.session_id: why.strip() for s in sessions}
    seen = dict(line.split() for line in done.stdout.splitlines() if line.strip())
    return {
        s.session_id: None
        if seen.get(s.session_id) == s.prefix_sha256
        else f"{s.kind.value}: the resuming process read {seen.get(s.session_id) or 'nothing'}"
        for s in sessions
    }


#: The separate process: resume each session through the public API, print its sha256.
_RESUME_SESSION = """
import hashlib, sys
from recallflow import open_memory
from recallflow.adapters.embedders import embedder_from_name
uri, embedder, tenant = sys.argv[1:4]
with open_memory(uri, embedder=embedder_from_name(embedder)) as m:
    for arg in sys.argv[4:]:
        principal, session_id = arg.split("=")
        s = m.resume_session(tenant, principal, session_id)
        print(session_id, hashlib.sha256(s.prefix).hexdigest())
"""


def _audit_request(tenant: str, principal: str) -> RecallRequest:
    return RecallRequest(tenant_id=tenant, principal_id=principal, working_state=WorkingState())


def gate(scripted: Sequence[ScriptedSession]) -> GateResult:
    """The prefix-byte-stability gate over the scripted sessions."""
    if not scripted:
        return GateResult(name=GATE, status=GateStatus.NOT_BUILT, detail="no session was run")
    turns = sum(s.turns for s in scripted)
    stable = sum(s.prefix_stable_turns for s in scripted)
    resumed = sum(1 for s in scripted if s.resumed_identical)
    other = sum(1 for s in scripted if s.other_process_identical)
    expected = sum(s.corrections_expected for s in scripted)
    rendered = sum(s.corrections_rendered for s in scripted)
    mismatches = [f"{s.kind.value} {m}" for s in scripted for m in s.correction_mismatches]
    short = [s.kind.value for s in scripted if s.turns < 20]
    detail = (
        f"{len(scripted)} sessions, {turns} turns: prefix identical on {stable}/{turns} turns, "
        f"after resume in-process {resumed}/{len(scripted)} and in a separate process "
        f"{other}/{len(scripted)}; corrections expected {expected}, rendered {rendered}"
    )
    ok = (
        stable == turns
        and resumed == other == len(scripted)
        and expected == rendered
        and not mismatches
        and not short
    )
    if not ok:
        notes = list(dict.fromkeys(s.other_process_note for s in scripted if s.other_process_note))
        extra = "; ".join([*mismatches[:5], *notes[:3]])
        if short:
            extra += f"; sessions under 20 turns: {short}"
        return GateResult(name=GATE, status=GateStatus.FAIL, detail=f"{detail}. {extra}".strip())
    return GateResult(name=GATE, status=GateStatus.PASS, detail=detail)


def opening_goal(group: Group) -> WorkingState:
    """A group's opening state: who the conversation is with (its speakers), nothing from
    its questions."""
    speakers = tuple(dict.fromkeys(d.speaker for d in group.documents if d.speaker))
    return WorkingState(goal="Conversation with " + " and ".join(speakers), entities=speakers)


def run_groups(
    memory: Memory,
    tenant: str,
    groups: Sequence[Group],
    audit: RecallAudit,
    *,
    progress: bool = False,
) -> tuple[list[GroupSession], list[SessionUsage]]:
    """Each (already ingested) group as one interactive session: the snapshot at its
    start, its cases as turns."""
    out: list[GroupSession] = []
    usages: list[SessionUsage] = []
    total = sum(len(g.cases) for g in groups)
    with bar(total=total, desc="dataset sessions", unit="q", enabled=progress) as progress_bar:
        for group in groups:
            principal = group_principal(group)
            session = memory.open_session(tenant, principal, goal=opening_goal(group))
            assert session.snapshot is not None
            audit.observe(_audit_request(tenant, principal), session.snapshot)
            traces = []
            in_turn = 0
            for case in group.cases:
                result: RecallResult = session.recall(WorkingState(goal=case.query))
                audit.observe(_audit_request(tenant, principal), result)
                traces.append(result.trace)
                in_turn += _tokens(memory, result.block)
                progress_bar.update(1)
            snapshot_trace = session.snapshot.trace
            usage = session_usage(snapshot_trace, traces, session.policy.sessions)
            usages.append(usage)
            out.append(
                GroupSession(
                    group=group.key,
                    snapshot_items=len(session.snapshot_ids),
                    turns=len(traces),
                    relevant=len(usage.relevant),
                    turn_utilization=usage.turn_utilization,
                    needed_cap=usage.needed_cap,
                    prefix_tokens=_tokens(memory, session.snapshot.block),
                    in_turn_tokens=in_turn,
                )
            )
    return out, usages


def run_sessions(
    memory: Memory,
    tenant: str,
    audit: RecallAudit,
    *,
    dataset: str | None = None,
    groups: Sequence[Group] = (),
    progress: bool = False,
) -> tuple[SessionsReport, GateResult]:
    """The scripted sessions (and the gate), then each group of ``dataset`` as a session."""
    scripted, usages = run_scripted(memory, f"{tenant}-sessions", audit, progress=progress)
    group_sessions, group_usages = (
        run_groups(memory, tenant, groups, audit, progress=progress) if groups else ([], [])
    )
    report = SessionsReport(
        scripted=tuple(scripted),
        scripted_budget=summarise_usage(usages),
        dataset=dataset if groups else None,
        groups=tuple(group_sessions),
        groups_budget=summarise_usage(group_usages) if groups else (),
        opening_goal="Conversation with <the group's speakers>" if groups else "",
    )
    return report, gate(scripted)
