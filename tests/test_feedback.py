"""Usage feedback, typed rejections, evidence and promotion, miss hints, and re-derivation
that replays corrections — on the real embedded server, through recall (see "Feedback and
corrections" in docs/architecture.md)."""

from __future__ import annotations

import json
import uuid
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg import sql

from recallflow import (
    ConfidenceBand,
    ConflictError,
    InvalidInputError,
    LifecycleState,
    Memory,
    NotFoundError,
    RecallRequest,
    RecallResult,
    RejectionKind,
)
from recallflow.core.lifecycle import corroborated_confidence
from recallflow.core.misses import MissState, after_miss
from recallflow.errors import NotRenderedError
from recallflow.policy import DEFAULT_POLICY, Feedback
from tests.helpers import belief, patient_policy, request

PATIENT = patient_policy()

T0 = datetime(2026, 3, 1, tzinfo=UTC)
DAY = timedelta(days=1)
GOAL = "What editor and shell does the user prefer?"


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
            for p in ("alpha", "beta", "gamma")
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
                confidence=0.9,
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
                scope="user",
                confidence=0.6,
                recorded_at=T0,
                source_episode_id="ep-alpha",
            ),
        ]
    )


def recall(memory: Memory, tenant: str, project: str | None = "alpha", **kw: Any) -> RecallResult:
    return memory.recall(
        request(
            tenant,
            kw.pop("principal", "p1"),
            GOAL,
            project=project,
            working_state={"entities": ["helix", "editor", "fish", "shell"]},
            **kw,
        ),
        policy=PATIENT,
    )


def rows(memory: Memory, tenant: str) -> dict[str, int]:
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
    return out


@pytest.fixture
def traced(memory: Memory, tenant: str) -> RecallResult:
    store(memory, tenant)
    result = recall(memory, tenant)
    assert set(result.rendered_ids) == {"b-editor", "b-shell"}
    return result


# --- citation -----------------------------------------------------------------------------


def test_citation_adds_utility_and_resets_decay_but_never_confidence(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    before = memory.beliefs.get(tenant, "p1", "b-shell")
    cited = memory.cite(tenant, "p1", traced.trace_id, ["b-shell"])
    assert cited.cited == ("b-shell",)
    after = memory.beliefs.get(tenant, "p1", "b-shell")
    assert after.confidence == before.confidence
    assert after.utility == before.utility + DEFAULT_POLICY.feedback.citation_utility
    assert after.last_reinforced_at is not None
    assert after.last_reinforced_at > (before.last_reinforced_at or T0)
    # The same citation from the same trace counts once; the trace says the model cited it.
    again = memory.cite(tenant, "p1", traced.trace_id, ["b-shell"])
    assert again.already_cited == ("b-shell",)
    assert memory.beliefs.get(tenant, "p1", "b-shell").utility == after.utility
    with memory.pool.connection() as conn:
        cited_rows = conn.execute(
            "SELECT trace_id, belief_id FROM feedback_events"
            " WHERE tenant_id = %s AND kind = 'cited'",
            (tenant,),
        ).fetchall()
    assert cited_rows == [(traced.trace_id, "b-shell")]


def test_citation_raises_the_cited_belief_in_a_later_recall(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    score = {e.belief_id: e.breakdown.utility for e in traced.trace.scored}
    memory.cite(tenant, "p1", traced.trace_id, ["b-shell"])
    later = {e.belief_id: e.breakdown.utility for e in recall(memory, tenant).trace.scored}
    assert later["b-shell"] > score["b-shell"]
    assert later["b-editor"] == score["b-editor"]


def _end(memory: Memory, tenant: str, how: str, at: datetime) -> None:
    """End b-shell (rendered by the ``traced`` recall) as ``how`` says."""
    successor = belief(
        tenant, id="b-shell-new", statement="The user prefers the zsh shell.", subject="shell",
        entities=["zsh", "shell"], scope="user", confidence=0.6, valid_from=at,
    )  # fmt: skip
    if how == "retired":
        memory.retire(tenant, "p1", "b-shell", reason="never true")
    elif how == "retracted":
        memory.retract(tenant, "p1", "b-shell", reason="withdrawn")
    elif how == "expired":
        memory.expire(tenant, "p1", "b-shell", at=at)
    else:
        memory.beliefs.supersede(
            "b-shell", {k: v for k, v in successor.items() if k != "recorded_at"}
        )


@pytest.mark.parametrize("how", ["retired", "retracted", "expired", "superseded"])
def test_a_citation_of_a_belief_ended_since_the_recall_is_recorded_but_not_reinforced(
    memory: Memory, tenant: str, traced: RecallResult, how: str
) -> None:
    """The model cited what it was shown, and that is recorded; but a belief the store has
    ended since gained utility silently, kept "fresh" though no recall shows it now. It is
    named in ``ended``, and gains nothing; the one still holding is reinforced."""
    _end(memory, tenant, how, datetime.now(UTC) - timedelta(seconds=1))
    before = {b: memory.beliefs.get(tenant, "p1", b) for b in ("b-shell", "b-editor")}
    done = memory.cite(tenant, "p1", traced.trace_id, ["b-shell", "b-editor"])
    assert (done.cited, done.ended, done.already_cited) == (("b-editor",), ("b-shell",), ())
    shell = memory.beliefs.get(tenant, "p1", "b-shell")
    assert (shell.utility, shell.last_reinforced_at) == (
        before["b-shell"].utility,
        before["b-shell"].last_reinforced_at,
    )
    editor = memory.beliefs.get(tenant, "p1", "b-editor")
    assert editor.utility == before["b-editor"].utility + DEFAULT_POLICY.feedback.citation_utility
    # The trace says the model cited it; a repeat is a repeat, whatever the belief's state.
    assert memory.beliefs.history(tenant, "p1", "b-shell").events[-1].kind.value == "cited"
    again = memory.cite(tenant, "p1", traced.trace_id, ["b-shell"])
    assert (again.cited, again.ended, again.already_cited) == ((), (), ("b-shell",))


def test_a_citation_of_a_belief_whose_successor_is_not_yet_in_force_reinforces_it(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    _end(memory, tenant, "superseded", datetime.now(UTC) + timedelta(days=30))
    before = memory.beliefs.get(tenant, "p1", "b-shell").utility
    done = memory.cite(tenant, "p1", traced.trace_id, ["b-shell"])
    assert (done.cited, done.ended) == (("b-shell",), ())
    assert memory.beliefs.get(tenant, "p1", "b-shell").utility > before


def test_a_citation_of_a_belief_forgotten_since_is_refused_as_not_rendered(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    memory.forget_belief(tenant, "p1", "b-shell")
    before = rows(memory, tenant)
    with pytest.raises(NotRenderedError) as refused:
        memory.cite(tenant, "p1", traced.trace_id, ["b-editor", "b-shell"])
    assert (refused.value.field, refused.value.item_id) == ("belief_id", "b-shell")
    assert rows(memory, tenant) == before


# --- typed rejections ---------------------------------------------------------------------


def test_not_true_retires(memory: Memory, tenant: str, traced: RecallResult) -> None:
    done = memory.reject(tenant, "p1", traced.trace_id, "b-shell", "not_true")
    assert done.kind is RejectionKind.NOT_TRUE and done.recorded
    assert done.belief.state is LifecycleState.RETIRED
    assert "b-shell" not in recall(memory, tenant).rendered_ids


def test_changed_with_a_replacement_supersedes(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    replacement = belief(
        tenant,
        id="b-shell-zsh",
        statement="The user prefers the zsh shell.",
        subject="shell",
        entities=["zsh", "shell"],
    )
    done = memory.reject(
        tenant, "p1", traced.trace_id, "b-shell", "changed", replacement=replacement
    )
    assert done.replacement_id == "b-shell-zsh"
    assert done.belief.state is LifecycleState.SUPERSEDED
    assert done.belief.superseded_by == "b-shell-zsh"
    assert memory.beliefs.get(tenant, "p1", "b-shell-zsh").supersedes == "b-shell"
    after = recall(memory, tenant).rendered_ids
    assert "b-shell-zsh" in after and "b-shell" not in after


def test_changed_without_a_replacement_ends_it_now(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    done = memory.reject(tenant, "p1", traced.trace_id, "b-shell", RejectionKind.CHANGED)
    assert done.belief.state is LifecycleState.EXPIRED
    assert done.belief.valid_to is not None and done.belief.valid_to > T0  # it held until now
    assert "b-shell" not in recall(memory, tenant).rendered_ids


def test_not_here_excludes_it_in_this_project_only(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    in_beta = recall(memory, tenant, project="beta")
    assert "b-editor" in in_beta.rendered_ids
    done = memory.reject(tenant, "p1", in_beta.trace_id, "b-editor", "not_here")
    assert done.project == "beta"
    assert memory.corrections.excluded_projects(tenant, "p1", "b-editor") == ("beta",)
    assert memory.beliefs.get(tenant, "p1", "b-editor").state is LifecycleState.ACTIVE
    assert "b-editor" not in recall(memory, tenant, project="beta").rendered_ids
    assert "b-editor" in recall(memory, tenant, project="alpha").rendered_ids
    assert "b-editor" in recall(memory, tenant, project="gamma").rendered_ids


@pytest.mark.parametrize("how", ["restate", "changed", "supersede"])
def test_what_replaces_a_belief_rejected_as_not_here_does_not_hold_there_either(
    memory: Memory, tenant: str, traced: RecallResult, how: str
) -> None:
    """The user said the editor belief does not hold in beta. Restated, or replaced by a
    changed rejection in alpha, or superseded, its successor was recalled in beta again,
    as if the user had never said it; a re-derivation's successor keeps the exclusion."""
    in_beta = recall(memory, tenant, project="beta")
    memory.reject(tenant, "p1", in_beta.trace_id, "b-editor", "not_here")
    said = "The user prefers the Helix editor with its default keymap."
    if how == "restate":
        new = memory.restate(tenant, "p1", "b-editor", said)
    elif how == "changed":
        replaced = memory.reject(tenant, "p1", traced.trace_id, "b-editor", "changed",
                                 replacement=said)  # fmt: skip
        assert replaced.replacement_id is not None
        new = memory.beliefs.get(tenant, "p1", replaced.replacement_id)
    else:
        old = memory.beliefs.get(tenant, "p1", "b-editor")
        draft = {**old.model_dump(include={"tenant_id", "principal_id", "subject", "entities",
                                           "scope", "origin_project", "portability"}),
                 "statement": said}  # fmt: skip
        new = memory.supersede("b-editor", draft)
    assert memory.corrections.excluded_projects(tenant, "p1", new.id) == ("beta",)
    assert new.id not in recall(memory, tenant, project="beta").rendered_ids
    assert new.id in recall(memory, tenant, project="gamma").rendered_ids
    assert new.id in recall(memory, tenant, project="alpha").rendered_ids


def test_a_belief_rejected_as_not_here_before_its_successor_takes_over_stays_out_after(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    """A belief superseded by a successor valid only later still holds, and is rejected as
    not here in beta; once the successor takes over it was recalled in beta, though it
    holds in the belief's place."""
    later = datetime.now(UTC) + 30 * DAY
    successor = memory.restate(tenant, "p1", "b-editor", "The user prefers the Zed editor.",
                               valid_from=later)  # fmt: skip
    in_beta = recall(memory, tenant, project="beta")
    assert "b-editor" in in_beta.rendered_ids
    memory.reject(tenant, "p1", in_beta.trace_id, "b-editor", "not_here")
    assert memory.corrections.excluded_projects(tenant, "p1", successor.id) == ("beta",)
    then = later + DAY
    assert successor.id not in recall(memory, tenant, project="beta", as_of=then).rendered_ids
    assert successor.id in recall(memory, tenant, project="gamma", as_of=then).rendered_ids


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=st.lists(st.sampled_from(["restate", "later", "reject"]), min_size=1, max_size=6))
def test_once_rejected_as_not_here_nothing_in_its_place_is_recalled_there(
    memory: Memory, ops: list[str]
) -> None:
    """Whatever order the restatements (in force now, or only later) and the not-here
    rejections in beta come in, no belief down the supersession chain of a belief the
    user rejected as not here in beta is recalled there, now or once a later one takes
    over; what holds is still recalled in gamma."""
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    store(memory, tenant)
    head, rejected = "b-editor", set[str]()
    then = datetime.now(UTC) + 60 * DAY
    for step, op in enumerate(ops):
        if op == "reject":  # each belief of the chain the recall in beta showed
            shown = recall(memory, tenant, project="beta")
            for belief_id in set(shown.rendered_ids) - {"b-shell"}:
                memory.reject(tenant, "p1", shown.trace_id, belief_id, "not_here")
                rejected.add(belief_id)
            continue
        statement = f"The user prefers the Helix editor, setup {step}."
        valid_from = datetime.now(UTC) + 30 * DAY if op == "later" else None
        with suppress(ConflictError):  # superseded by one valid only later: not restated
            head = memory.restate(tenant, "p1", head, statement, valid_from=valid_from).id
    stored = {b.id: b for b in memory.beliefs.list(tenant, "p1") if b.subject == "editor"}
    kept_out: set[str] = set()
    for first in rejected:
        down: str | None = first
        while down is not None:
            kept_out.add(down)
            down = stored[down].superseded_by
    for as_of in (None, then):
        kw = {} if as_of is None else {"as_of": as_of}
        assert not set(recall(memory, tenant, project="beta", **kw).rendered_ids) & kept_out
        assert set(recall(memory, tenant, project="gamma", **kw).rendered_ids) & set(stored)


def test_unspecified_flags_and_down_weights_but_never_retires(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    score = {e.belief_id: e.score for e in traced.trace.scored}
    done = memory.reject(tenant, "p1", traced.trace_id, "b-shell", "unspecified", note="meh")
    assert done.belief.flagged and done.belief.state is LifecycleState.ACTIVE
    later = recall(memory, tenant).trace
    entry = next(e for e in later.scored if e.belief_id == "b-shell")
    assert entry.breakdown.penalties["flagged"] == DEFAULT_POLICY.penalties.flagged
    assert entry.score < score["b-shell"]


def test_a_flagged_belief_is_rendered_as_flagged(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    """A belief the user flagged as possibly wrong still ranks, a little lower, and its
    line says it is flagged: it rendered exactly as an unflagged one, so the model
    repeated as settled what the user had just disputed. The other lines are unchanged."""
    before = {i.belief_id: i for i in traced.items}
    memory.reject(tenant, "p1", traced.trace_id, "b-shell", "unspecified")
    later = recall(memory, tenant)
    (line,) = [line for line in later.block.splitlines() if "[b-shell]" in line]
    assert "; flagged as possibly wrong) " in line
    assert later.block.count("flagged as possibly wrong") == 1
    flagged = next(i for i in later.items if i.belief_id == "b-shell")
    assert flagged.flagged and not before["b-shell"].flagged
    assert [i.belief_id for i in later.items if i.flagged] == ["b-shell"]


def test_a_repeated_rejection_is_recorded_once(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    memory.reject(tenant, "p1", traced.trace_id, "b-shell", "unspecified")
    before = rows(memory, tenant)
    again = memory.reject(tenant, "p1", traced.trace_id, "b-shell", "unspecified")
    assert not again.recorded
    assert rows(memory, tenant) == before


def test_a_repeated_change_names_the_stored_replacement_or_is_refused(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    """A repeat of a 'changed' rejection answered with the id of its new replacement,
    though nothing was stored under it: the new statement was dropped, and the caller told
    it was kept. A retry that says the same names the replacement stored the first time;
    one that says something else is refused, naming the replacement to correct instead."""
    zsh = {"statement": "The user prefers the zsh shell.", "subject": "shell", "scope": "user"}
    first = memory.reject(
        tenant, "p1", traced.trace_id, "b-shell", "changed", replacement=belief(tenant, **zsh)
    )
    before = rows(memory, tenant)
    retry = memory.reject(
        tenant, "p1", traced.trace_id, "b-shell", "changed", replacement=belief(tenant, **zsh)
    )
    assert not retry.recorded and retry.replacement_id == first.replacement_id
    assert retry.replacement_id is not None
    assert memory.beliefs.get(tenant, "p1", retry.replacement_id).statement == zsh["statement"]
    nushell = belief(tenant, **{**zsh, "statement": "The user prefers nushell."})
    with pytest.raises(ConflictError) as refused:
        memory.reject(tenant, "p1", traced.trace_id, "b-shell", "changed", replacement=nushell)
    assert refused.value.field == "replacement" and f"{first.replacement_id!r}" in str(
        refused.value
    )
    assert rows(memory, tenant) == before
    # Ended without a replacement first: a replacement later is refused, not dropped.
    memory.reject(tenant, "p1", traced.trace_id, "b-editor", "changed")
    before = rows(memory, tenant)
    with pytest.raises(ConflictError):
        memory.reject(tenant, "p1", traced.trace_id, "b-editor", "changed", replacement=nushell)
    assert rows(memory, tenant) == before


#: What a correction given as a statement alone did not touch: the successor keeps it.
UNCORRECTED = (
    "subject",
    "entities",
    "belief_type",
    "scope",
    "origin_project",
    "portability",
    "sensitivity",
)
ZED = "The user prefers the Zed editor."


def test_a_statement_replacement_supersedes_by_a_successor_keeping_the_rest(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    old = memory.beliefs.get(tenant, "p1", "b-editor")
    done = memory.reject(tenant, "p1", traced.trace_id, "b-editor", "changed", replacement=ZED)
    assert done.belief.state is LifecycleState.SUPERSEDED and done.replacement_id is not None
    new = memory.beliefs.get(tenant, "p1", done.replacement_id)
    assert (new.statement, new.supersedes) == (ZED, "b-editor")
    assert {f: getattr(new, f) for f in UNCORRECTED} == {
        "subject": "editor",
        "entities": ("helix", "editor"),
        "belief_type": old.belief_type,
        "scope": "project",
        "origin_project": "alpha",
        "portability": "portable",
        "sensitivity": old.sensitivity,
    }
    assert new.source_authority == "inferred"  # as any draft that does not say
    stated = memory.reject(
        tenant, "p1", traced.trace_id, "b-shell", "changed",
        replacement="The user prefers the zsh shell.", source_authority="user_stated",
    )  # fmt: skip
    assert stated.replacement_id is not None
    assert memory.beliefs.get(tenant, "p1", stated.replacement_id).source_authority == (
        "user_stated"
    )
    after = recall(memory, tenant).rendered_ids
    assert done.replacement_id in after and "b-editor" not in after


def test_cli_tool_and_python_build_the_same_successor_from_a_statement(
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same correction through each surface, one principal each: the same successor,
    but for who vouches for it — the person typing at the terminal states it; the model's
    relayed statement, like a bare Python call, is inferred."""
    from recallflow.cli.main import main
    from recallflow.tools import Toolset

    monkeypatch.setenv("RECALLFLOW_DSN", memory.uri)
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    successors = {}
    for principal in ("py", "tool", "cli"):
        store(memory, tenant, principal)
        trace_id = recall(memory, tenant, principal=principal).trace_id
        if principal == "py":
            done = memory.reject(
                tenant, principal, trace_id, "b-editor", "changed", replacement=ZED
            )
            successor = done.replacement_id
        elif principal == "tool":
            tools = Toolset(memory, tenant_id=tenant, principal_id=principal, policy=PATIENT)
            arguments = {"trace_id": trace_id, "belief_id": "b-editor", "kind": "changed"}
            successor = tools.call("reject_belief", {**arguments, "replacement": ZED})[
                "replacement_id"
            ]
        else:
            who = ["--tenant", tenant, "--principal", principal, "--json"]
            reject = ["reject", trace_id, "b-editor", "--kind", "changed", "--replacement", ZED]
            assert main([*reject, *who]) == 0
            successor = json.loads(capsys.readouterr().out)["replacement_id"]
        assert successor is not None
        new = memory.beliefs.get(tenant, principal, successor)
        successors[principal] = {
            f: getattr(new, f) for f in (*UNCORRECTED, "statement", "supersedes")
        }
        successors[principal]["source_authority"] = new.source_authority.value
    assert successors["tool"] == successors["py"]
    assert successors["cli"] == {**successors["py"], "source_authority": "user_stated"}
    assert successors["py"]["source_authority"] == "inferred"


def test_an_unrendered_belief_with_a_statement_is_refused_alike_whether_it_exists(
    memory: Memory,
    tenant: str,
    traced: RecallResult,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Rejecting with a replacement reads the rejected belief to build its successor; it is
    read only once the trace is found to have shown it, so the refusal of one it did not
    show says nothing of whether it exists — from Python, the tool and the command line."""
    from recallflow.cli.main import main
    from recallflow.tools import Toolset

    memory.beliefs.add(belief(tenant, id="b-later", statement="Unrelated.", subject="other"))
    before = rows(memory, tenant)

    def python(belief_id: str) -> str:
        with pytest.raises(NotRenderedError) as refused:
            memory.reject(tenant, "p1", traced.trace_id, belief_id, "changed", replacement=ZED)
        return str(refused.value)

    tools = Toolset(memory, tenant_id=tenant, principal_id="p1", policy=PATIENT)

    def tool(belief_id: str) -> str:
        arguments = {"trace_id": traced.trace_id, "belief_id": belief_id, "kind": "changed"}
        return json.dumps(tools.call("reject_belief", {**arguments, "replacement": ZED}))

    monkeypatch.setenv("RECALLFLOW_DSN", memory.uri)
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")

    def cli(belief_id: str) -> str:
        reject = ["reject", traced.trace_id, belief_id, "--kind", "changed"]
        code = main([*reject, "--replacement", ZED, "--tenant", tenant, "--principal", "p1"])
        return f"{code} {capsys.readouterr().err}"

    for surface in (python, tool, cli):
        assert surface("b-later") == surface("b-nobody").replace("b-nobody", "b-later")
    assert "not rendered" in python("b-nobody") and "not rendered" in cli("b-nobody")
    assert rows(memory, tenant) == before


def test_the_command_line_names_the_flag_of_a_refused_field(
    memory: Memory,
    tenant: str,
    traced: RecallResult,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A store's refusal of a value the user typed as a flag names the flag, in one line."""
    from recallflow.cli.args import EXIT_USAGE
    from recallflow.cli.main import main

    monkeypatch.setenv("RECALLFLOW_DSN", memory.uri)
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    reject = ["reject", traced.trace_id, "b-shell", "--kind", "changed", "--replacement"]
    who = ["--tenant", tenant, "--principal", "p1"]
    assert main([*reject, "The user prefers the zsh shell.", *who]) == 0
    capsys.readouterr()
    # Said again from the same trace with another statement: refused, on --replacement.
    assert main([*reject, "The user prefers the nushell shell.", *who]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("recallflow reject: error: --replacement: ") and err.count("\n") == 1
    assert "field" not in err and "Traceback" not in err
    # A note of invisible characters only is refused as the flag's value, nothing recorded.
    with pytest.raises(SystemExit) as exited:
        main(
            [
                "reject",
                traced.trace_id,
                "b-editor",
                "--kind",
                "unspecified",
                "--note",
                "\u200b",
                *who,
            ]
        )
    err = capsys.readouterr().err
    assert exited.value.code == EXIT_USAGE and err.count("\n") == 1
    assert "--note" in err and "no visible text" in err
    assert not memory.beliefs.get(tenant, "p1", "b-editor").flagged


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "field"),
    [
        (("b-shell", "wrong"), {}, InvalidInputError, "kind"),
        (("b-shell", 3), {}, InvalidInputError, "kind"),
        (("b-other", "not_true"), {}, InvalidInputError, "belief_id"),  # not rendered
        (("b-shell", "not_true"), {"replacement": {"statement": "x"}}, InvalidInputError, None),
        (("b-shell", "changed"), {"replacement": {"statement": "x"}}, InvalidInputError, None),
        (("b-shell", "not_here"), {"project": "beta"}, InvalidInputError, "project"),
        # A project is only for not_here, as a replacement is only for changed: it was
        # dropped without a word, and the belief retired or flagged all the same.
        (("b-shell", "not_true"), {"project": "alpha"}, InvalidInputError, "project"),
        (("b-shell", "unspecified"), {"project": "alpha"}, InvalidInputError, "project"),
        (("b-shell", "changed"), {"project": "alpha"}, InvalidInputError, "project"),
        # The note is bounded as the reject_belief tool and `recallflow reject` bound it.
        (("b-shell", "unspecified"), {"note": "n" * 1001}, InvalidInputError, "note"),
        # A note of invisible characters only says nothing, as a replacement of them does.
        (("b-shell", "unspecified"), {"note": "\u200b\u2060"}, InvalidInputError, "note"),
        (("b-shell", "not_true"), {"note": " \u200b "}, InvalidInputError, "note"),
    ],
)
def test_bad_rejections_are_typed_and_write_nothing(
    memory: Memory,
    tenant: str,
    traced: RecallResult,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    error: type[Exception],
    field: str | None,
) -> None:
    memory.beliefs.add(belief(tenant, id="b-other", statement="Unrelated.", subject="other"))
    before = rows(memory, tenant)
    with pytest.raises(error) as info:
        memory.reject(tenant, "p1", traced.trace_id, *args, **kwargs)
    if field is not None:
        assert getattr(info.value, "field", None) == field
    assert rows(memory, tenant) == before


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"state": "retired"}, "replacement.state"),
        ({"state": "expired"}, "replacement.state"),
        ({"valid_to": "2001-01-01T00:00:00Z"}, "replacement.valid_to"),
    ],
)
def test_a_replacement_no_recall_would_show_is_refused(
    memory: Memory, tenant: str, traced: RecallResult, change: dict[str, str], field: str
) -> None:
    """A replacement is what holds now: one retired, expired or no longer valid would
    leave the rejected belief superseded by a belief no recall shows, the fact lost."""
    before = rows(memory, tenant)
    draft = {
        **belief(tenant, id="b-shell-gone", statement="The user prefers fish.", subject="shell"),
        **change,
    }
    with pytest.raises(InvalidInputError) as refused:
        memory.reject(tenant, "p1", traced.trace_id, "b-shell", "changed", replacement=draft)
    assert refused.value.field == field
    assert rows(memory, tenant) == before
    assert memory.beliefs.get(tenant, "p1", "b-shell").state is LifecycleState.ACTIVE


def test_a_change_of_a_belief_not_yet_in_force_needs_its_replacement(
    memory: Memory,
    tenant: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A belief valid only from a later instant (a plan), shown by a recall at that
    instant and rejected as changed without a replacement, has not held yet and cannot stop
    holding now: refused on ``kind``, the field the caller gave, saying what to do instead
    (it was refused on an ``at`` the caller never gave), and nothing is written; on the
    command line, one line naming ``--kind``. With its replacement it is corrected."""
    from recallflow.cli.args import EXIT_USAGE
    from recallflow.cli.main import main

    later = datetime.now(UTC) + 400 * DAY
    memory.beliefs.add(
        belief(
            tenant,
            id="b-move",
            statement="The user will move to Bergen.",
            subject="home",
            entities=["bergen"],
            valid_from=later,
        )
    )
    shown = memory.recall(
        request(
            tenant,
            "p1",
            "Where will the user move?",
            as_of=later + DAY,
            working_state={"entities": ["bergen"]},
        ),
        policy=PATIENT,
    )
    assert "b-move" in shown.rendered_ids
    before = rows(memory, tenant)
    with pytest.raises(ConflictError) as refused:
        memory.reject(tenant, "p1", shown.trace_id, "b-move", "changed")
    assert (refused.value.field, refused.value.item_id) == ("kind", "b-move")
    assert "not_true" in str(refused.value) and "replacement" in str(refused.value)
    assert rows(memory, tenant) == before
    monkeypatch.setenv("RECALLFLOW_DSN", memory.uri)
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    who = ["--tenant", tenant, "--principal", "p1"]
    argv = ["reject", shown.trace_id, "b-move", "--kind", "changed", *who]
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("recallflow reject: error: --kind: ") and err.count("\n") == 1
    assert "'at'" not in err and "Traceback" not in err
    assert rows(memory, tenant) == before
    moved = memory.reject(
        tenant, "p1", shown.trace_id, "b-move", "changed", replacement="The user will move to Oslo."
    )
    assert moved.belief.state is LifecycleState.SUPERSEDED and moved.replacement_id


def test_a_replacement_that_conflicts_rolls_the_rejection_back(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    before = rows(memory, tenant)
    with pytest.raises(ConflictError):
        memory.reject(
            tenant,
            "p1",
            traced.trace_id,
            "b-shell",
            "changed",
            replacement=belief(tenant, id="b-editor", statement="Other content.", subject="x"),
        )
    assert rows(memory, tenant) == before
    assert memory.beliefs.get(tenant, "p1", "b-shell").state is LifecycleState.ACTIVE


def test_a_replacement_under_a_taken_id_is_named_as_the_replacement(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    """A replacement draft whose id is already stored with other content is refused naming
    the replacement's field — not "item 0" of a batch the caller never wrote — and one
    under the rejected belief's own id says so; neither records anything."""
    before = rows(memory, tenant)
    taken = belief(tenant, id="b-editor", statement="The user prefers fish.", subject="shell")
    with pytest.raises(ConflictError) as refused:
        memory.reject(tenant, "p1", traced.trace_id, "b-shell", "changed", replacement=taken)
    assert refused.value.field == "replacement.statement"
    assert (refused.value.item_id, refused.value.item_index) == ("b-editor", None)
    assert str(refused.value).startswith("id 'b-editor', field 'replacement.statement': ")
    own = belief(tenant, id="b-shell", statement="The user prefers zsh.", subject="shell")
    with pytest.raises(InvalidInputError) as refused_own:
        memory.reject(tenant, "p1", traced.trace_id, "b-shell", "changed", replacement=own)
    assert refused_own.value.field == "replacement.id"
    assert rows(memory, tenant) == before
    assert memory.beliefs.get(tenant, "p1", "b-shell").state is LifecycleState.ACTIVE


def test_feedback_by_another_principal_is_refused_like_a_missing_trace(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    store(memory, tenant, "p2")
    before = rows(memory, tenant)
    messages = []
    for trace_id in (traced.trace_id, "tr-nowhere"):
        with pytest.raises(NotFoundError) as info:
            memory.reject(tenant, "p2", trace_id, "b-shell", "not_true")
        messages.append(str(info.value).replace(trace_id, "<id>"))
        with pytest.raises(NotFoundError):
            memory.cite(tenant, "p2", trace_id, ["b-shell"])
    assert messages[0] == messages[1]
    assert rows(memory, tenant) == before
    assert memory.beliefs.get(tenant, "p1", "b-shell").state is LifecycleState.ACTIVE


def test_a_rejection_needs_a_rendered_belief_not_just_a_known_one(
    memory: Memory, tenant: str
) -> None:
    store(memory, tenant)
    empty = recall(memory, tenant, as_of=T0 - DAY)  # before anything was recorded
    assert empty.rendered_ids == ()
    with pytest.raises(InvalidInputError, match="was not rendered"):
        memory.reject(tenant, "p1", empty.trace_id, "b-shell", "not_true")
    with pytest.raises(InvalidInputError, match="was not rendered"):
        memory.cite(tenant, "p1", empty.trace_id, ["b-shell"])


# --- confidence: only evidence moves it ---------------------------------------------------

_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("cite"), st.sampled_from(["b-editor", "b-shell"])),
        st.tuples(
            st.just("reject"),
            st.sampled_from(["b-editor", "b-shell"]),
            st.sampled_from(list(RejectionKind)),
        ),
        st.tuples(
            st.just("corroborate"),
            st.sampled_from(["b-editor", "b-shell"]),
            st.sampled_from(["alpha", "beta", "gamma"]),
        ),
    ),
    min_size=1,
    max_size=12,
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=_OPS)
def test_confidence_moves_only_with_corroborating_evidence(
    memory: Memory, ops: list[tuple[Any, ...]]
) -> None:
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    store(memory, tenant)
    trace = recall(memory, tenant).trace_id
    seen: set[tuple[str, str]] = set()
    ended: set[str] = set()  # retired (not true) or expired (changed): no evidence counts
    excluded: set[tuple[str, str]] = set()  # not here in the trace's project: none from there
    for op in ops:
        target = op[1]
        before = memory.beliefs.get(tenant, "p1", target).confidence
        if op[0] == "cite":
            memory.cite(tenant, "p1", trace, [target])
            expected = before
        elif op[0] == "reject":
            memory.reject(tenant, "p1", trace, target, op[2])
            if op[2] in (RejectionKind.NOT_TRUE, RejectionKind.CHANGED):
                ended.add(target)
            if op[2] is RejectionKind.NOT_HERE:
                excluded.add((target, "alpha"))
            expected = before
        elif target in ended or (target, op[2]) in excluded:
            with pytest.raises(ConflictError):
                memory.corroborate(tenant, "p1", target, op[2], f"ep-{op[2]}")
            expected = before
        else:
            memory.corroborate(tenant, "p1", target, op[2], f"ep-{op[2]}")
            fresh = (target, op[2]) not in seen
            seen.add((target, op[2]))
            gain = DEFAULT_POLICY.feedback.corroboration_gain
            expected = corroborated_confidence(before, gain) if fresh else before
        after = memory.beliefs.get(tenant, "p1", target).confidence
        assert after == pytest.approx(expected)
        if op[0] == "corroborate" and (target, op[2]) in seen and expected != before:
            assert after > before


@given(
    confidence=st.floats(0, 1),
    gains=st.lists(st.floats(0, 1), max_size=20),
    citations=st.integers(0, 10_000),
)
def test_the_confidence_rule_ignores_usage_and_never_leaves_the_unit_interval(
    confidence: float, gains: list[float], citations: int
) -> None:
    value = confidence
    for gain in gains:
        new = corroborated_confidence(value, gain)
        assert value <= new <= 1.0
        value = new
    # Citations are not an input of the rule: any number of them leaves it where it is.
    assert corroborated_confidence(value, 0.0) == value


# --- promotion ----------------------------------------------------------------------------


def test_two_projects_of_evidence_promote_to_user_scope(memory: Memory, tenant: str) -> None:
    store(memory, tenant)
    before = recall(memory, tenant, project="beta")
    item = next(i for i in before.items if i.belief_id == "b-editor")
    assert item.origin_project == "alpha"  # attributed to where it was learned
    assert item.band is ConfidenceBand.MEDIUM  # one band lower than its HIGH confidence
    promoted = memory.corroborate(tenant, "p1", "b-editor", "beta", "ep-beta")
    assert promoted.scope.value == "user"
    assert promoted.corroborating_projects == ("beta",)
    after = recall(memory, tenant, project="beta")
    item = next(i for i in after.items if i.belief_id == "b-editor")
    assert item.origin_project is None
    assert item.band is ConfidenceBand.HIGH
    entry = next(e for e in after.trace.scored if e.belief_id == "b-editor")
    assert not entry.transferred and "transferred_uncorroborated" not in entry.breakdown.penalties


def test_corroboration_needs_the_principals_own_evidence(memory: Memory, tenant: str) -> None:
    store(memory, tenant)
    store(memory, tenant, "p2")
    before = rows(memory, tenant)
    with pytest.raises(NotFoundError, match="no episode"):
        memory.corroborate(tenant, "p1", "b-editor", "beta", "ep-missing")
    with pytest.raises(InvalidInputError):
        memory.corroborate(tenant, "p1", "b-editor", "no spaces allowed", "ep-beta")
    assert rows(memory, tenant) == before


def test_evidence_from_a_project_the_belief_was_rejected_in_neither_counts_nor_promotes(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    """The user said the editor belief does not hold in alpha, its origin. Evidence from
    alpha was counted all the same, and alpha, as the origin, counted toward promotion: one
    corroboration from beta made the belief user scope, recalled at full weight and with no
    attribution in every project, on the word of the one project the user rejected it in."""
    memory.reject(tenant, "p1", traced.trace_id, "b-editor", "not_here")
    before = rows(memory, tenant)
    with pytest.raises(ConflictError, match="not here") as refused:
        memory.corroborate(tenant, "p1", "b-editor", "alpha", "ep-alpha")
    assert refused.value.field == "project" and refused.value.item_id == "b-editor"
    assert rows(memory, tenant) == before
    counted = memory.corroborate(tenant, "p1", "b-editor", "beta", "ep-beta")
    assert counted.scope.value == "project"  # beta alone: one project, not two
    item = next(
        i for i in recall(memory, tenant, project="gamma").items if i.belief_id == "b-editor"
    )
    assert item.origin_project == "alpha"  # still attributed where it was learned
    promoted = memory.corroborate(tenant, "p1", "b-editor", "gamma", "ep-gamma")
    assert promoted.scope.value == "user"  # beta and gamma


def test_evidence_for_an_ended_belief_is_refused_and_changes_nothing(
    memory: Memory, tenant: str
) -> None:
    """Corroboration says a belief still holds; a belief the store has ended does not, so
    evidence for it neither raises its confidence nor promotes it to user scope."""
    store(memory, tenant)
    memory.retract(tenant, "p1", "b-editor", reason="the user switched editors")
    editor = memory.beliefs.get(tenant, "p1", "b-editor")
    shell = memory.beliefs.get(tenant, "p1", "b-shell").corroboration_count
    before = rows(memory, tenant)
    with pytest.raises(ConflictError, match="retracted") as refused:
        memory.corroborate(tenant, "p1", "b-editor", "beta", "ep-beta")
    assert refused.value.field == "belief_id" and refused.value.item_id == "b-editor"
    assert rows(memory, tenant) == before
    assert memory.beliefs.get(tenant, "p1", "b-editor") == editor

    memory.retire(tenant, "p1", "b-shell", reason="never true")
    retired = rows(memory, tenant)
    with pytest.raises(ConflictError, match="retired"):
        memory.corroborate(tenant, "p1", "b-shell", "beta", "ep-beta")
    assert rows(memory, tenant) == retired
    assert memory.beliefs.get(tenant, "p1", "b-shell").corroboration_count == shell


def test_evidence_for_a_superseded_belief_names_its_successor(memory: Memory, tenant: str) -> None:
    store(memory, tenant)
    now = datetime.now(UTC)
    later = belief(
        tenant,
        "p1",
        id="b-editor-later",
        statement="The user prefers the Zed editor.",
        subject="editor",
        entities=["zed", "editor"],
        scope="project",
        origin_project="alpha",
        portability="portable",
        confidence=0.9,
        valid_from=now + timedelta(days=30),
    )
    memory.beliefs.add_many([{**later, "supersedes": "b-editor"}])
    # Until its successor takes over the old belief still holds: evidence counts.
    counted = memory.beliefs.get(tenant, "p1", "b-editor").corroboration_count
    held = memory.corroborate(tenant, "p1", "b-editor", "gamma", "ep-gamma")
    assert held.corroboration_count == counted + 1
    memory.beliefs.add_many(
        [
            {
                **belief(
                    tenant,
                    "p1",
                    id="b-editor-now",
                    statement="The user prefers the Kakoune editor.",
                    subject="editor",
                    entities=["kakoune", "editor"],
                    scope="project",
                    origin_project="alpha",
                    portability="portable",
                    confidence=0.9,
                ),
                "supersedes": "b-editor-later",
            }
        ]
    )
    with pytest.raises(ConflictError, match="b-editor-now"):
        memory.corroborate(tenant, "p1", "b-editor-later", "beta", "ep-beta")
    fresh = memory.beliefs.get(tenant, "p1", "b-editor-now").corroboration_count
    done = memory.corroborate(tenant, "p1", "b-editor-now", "beta", "ep-beta")
    assert done.corroboration_count == fresh + 1 and done.corroborating_projects == ("beta",)


# --- miss hints ---------------------------------------------------------------------------


def test_repeated_misses_queue_one_hint_until_acknowledged(memory: Memory, tenant: str) -> None:
    store(memory, tenant)
    ask: dict[str, Any] = {"working_state": {"entities": ["Kubernetes"]}}
    threshold = DEFAULT_POLICY.feedback.miss_threshold
    for _ in range(threshold - 1):
        assert memory.recall(request(tenant, goal="Kubernetes cluster", **ask)).items == ()
    assert memory.miss_hints.pending(tenant, "p1") == []
    for _ in range(2):
        memory.recall(request(tenant, goal="Kubernetes cluster", **ask))
    pending = memory.miss_hints.pending(tenant, "p1")
    assert [h.subject for h in pending] == ["kubernetes"]
    assert pending[0].miss_count == threshold + 1
    # A recall that finds something is no miss.
    assert recall(memory, tenant).items
    assert len(memory.miss_hints.pending(tenant, "p1")) == 1
    acked = memory.miss_hints.ack(tenant, "p1", "kubernetes")
    assert acked.acknowledged_at is not None
    assert memory.miss_hints.pending(tenant, "p1") == []
    assert memory.miss_hints.ack(tenant, "p1", "kubernetes") == acked  # idempotent
    with pytest.raises(NotFoundError):
        memory.miss_hints.ack(tenant, "p1", "helm")
    with pytest.raises(NotFoundError):
        memory.miss_hints.ack(tenant, "p2", "kubernetes")
    # The refusal names the subject by its start: one sent by the megabyte is not echoed.
    with pytest.raises(NotFoundError) as missing:
        memory.miss_hints.ack(tenant, "p1", "helm-" + "x" * 1_000_000)
    assert len(str(missing.value)) < 500 and "subject 'helm-xxx" in str(missing.value)


def test_a_session_turn_that_finds_nothing_is_a_miss(memory: Memory, tenant: str) -> None:
    """Session turns — the path an agent in a conversation takes, and the session_recall
    tool's — never counted a miss, so the subjects a session asked about in vain never
    reached formation. A turn whose relevant belief the prefix already holds is no miss,
    though its block is empty."""
    store(memory, tenant)
    session = memory.open_session(
        tenant, "p1", project="alpha", goal={"goal": GOAL}, policy=PATIENT
    )
    assert "b-shell" in session.snapshot_ids
    for _ in range(DEFAULT_POLICY.feedback.miss_threshold):
        turn = session.recall({"goal": "Kubernetes cluster", "entities": ["Kubernetes"]})
        assert turn.items == ()
    assert [h.subject for h in memory.miss_hints.pending(tenant, "p1")] == ["kubernetes"]
    for _ in range(DEFAULT_POLICY.feedback.miss_threshold):
        held = session.recall({"goal": "fish shell", "entities": ["fish", "shell"]})
        assert "b-shell" not in held.rendered_ids and "b-shell" in held.trace.snapshot_relevant
    assert [h.subject for h in memory.miss_hints.pending(tenant, "p1")] == ["kubernetes"]


def test_misses_outside_the_window_do_not_add_up(memory: Memory, tenant: str) -> None:
    rule = Feedback(miss_threshold=2, miss_window_hours=1)
    queue = memory._miss_queue
    queue.record_miss(tenant, "p1", ["helm"], at=T0, rule=rule)
    queue.record_miss(tenant, "p1", ["helm"], at=T0 + timedelta(hours=2), rule=rule)
    assert memory.miss_hints.pending(tenant, "p1") == []
    queue.record_miss(tenant, "p1", ["helm"], at=T0 + timedelta(hours=2, minutes=30), rule=rule)
    assert [h.queued_at for h in memory.miss_hints.pending(tenant, "p1")] == [
        T0 + timedelta(hours=2, minutes=30)
    ]


@given(gaps=st.lists(st.integers(0, 180), min_size=1, max_size=30))
def test_a_subject_is_queued_once_per_window_of_enough_misses(gaps: list[int]) -> None:
    rule = Feedback(miss_threshold=3, miss_window_hours=1)
    state: MissState | None = None
    at = T0
    queued = 0
    for gap in gaps:
        at += timedelta(minutes=gap)
        before = state.queued_at if state else None
        state = after_miss(state, at, rule)
        queued += state.queued_at is not None and state.queued_at != before
        assert state.miss_count >= 1
        if state.queued_at is not None:
            assert state.miss_count >= rule.miss_threshold
    assert queued <= 1  # never acknowledged: at most one hint


# --- re-derivation ------------------------------------------------------------------------


def rederived(tenant: str, principal: str = "p1") -> list[dict[str, Any]]:
    """The two beliefs of :func:`store` derived again from the same episode, new ids."""
    return [
        belief(
            tenant,
            principal,
            id=f"r-{uuid.uuid4().hex[:8]}",
            statement=statement,
            subject=subject,
            entities=[subject],
            scope="user",
            recorded_at=T0 + 40 * DAY,
            source_episode_id="ep-alpha",
        )
        for statement, subject in (
            ("The user prefers the Helix editor.", "editor"),
            ("The user prefers the fish shell.", "shell"),
        )
    ]


def test_a_rejected_belief_does_not_come_back_after_re_derivation(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    memory.reject(tenant, "p1", traced.trace_id, "b-shell", "not_true")
    outcome = memory.rederive(tenant, "p1", rederived(tenant))
    assert [o.action for o in outcome.outcomes] == ["changed", "corrected"]
    assert set(outcome.outcomes[1].replayed) == {"rejected_not_true", "retired"}
    after = recall(memory, tenant).rendered_ids
    statements = {memory.beliefs.get(tenant, "p1", i).statement for i in after}
    assert "The user prefers the fish shell." not in statements
    assert "The user prefers the Helix editor." in statements  # nothing else was lost
    # Re-deriving again changes nothing: every draft is now known.
    again = memory.rederive(tenant, "p1", rederived(tenant))
    assert {o.action for o in again.outcomes} == {"known"}


def test_a_later_expiry_does_not_turn_a_replayed_supersession_into_an_expiry(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    """A belief superseded and then given an end of validity stays superseded, and so does
    its re-derivation: replayed as expired, the draft was live beside the replacement at
    every ``as_of`` before that end."""
    memory.beliefs.supersede(
        "b-shell",
        belief(tenant, id="b-shell-zsh", statement="The user prefers the zsh shell.",
               subject="shell", entities=["zsh", "shell"], valid_from=T0 + DAY),
    )  # fmt: skip
    memory.expire(tenant, "p1", "b-shell", T0 + 30 * DAY)
    outcome = memory.rederive(tenant, "p1", rederived(tenant))
    assert outcome.outcomes[1].action == "corrected"
    draft = memory.beliefs.get(tenant, "p1", outcome.outcomes[1].belief_id)
    assert (draft.state, draft.superseded_by) == (LifecycleState.SUPERSEDED, "b-shell-zsh")
    between = recall(memory, tenant, as_of=T0 + 10 * DAY, known_as_of=T0 + 50 * DAY)
    assert draft.id not in between.rendered_ids and "b-shell" not in between.rendered_ids


@pytest.mark.parametrize(
    "restated",
    [
        "the user prefers the fish shell.",  # casing
        "The user prefers the fish shell",  # the full stop dropped
        "The user prefers the fish shell!",
        "THE USER PREFERS THE FISH SHELL .",
        "The user prefers the ﬁsh shell.",  # a compatibility ligature (NFKC)
    ],
)
def test_a_rejection_holds_when_formation_restates_the_sentence_trivially(
    memory: Memory, tenant: str, traced: RecallResult, restated: str
) -> None:
    """A re-derivation rarely reproduces a sentence byte for byte: the same words from the
    same episode, cased or ended differently, are the same derivation."""
    memory.reject(tenant, "p1", traced.trace_id, "b-shell", "not_true")
    drafts = rederived(tenant)
    drafts[1]["statement"] = restated
    outcome = memory.rederive(tenant, "p1", drafts)
    assert outcome.outcomes[1].action == "corrected"
    shown = {
        memory.beliefs.get(tenant, "p1", i).statement for i in recall(memory, tenant).rendered_ids
    }
    assert restated not in shown and "The user prefers the fish shell." not in shown


@pytest.mark.parametrize("kind", ["not_true", "changed", "not_here"])
def test_a_rejection_holds_when_formation_writes_typographic_quotes_and_dashes(
    memory: Memory, tenant: str, kind: str
) -> None:
    """A formation model writes "user's" one pass and "user’s" the next, a hyphen one
    pass and an en dash the next. Those are the same sentence: the rejected belief must
    not come back beside what the user said (not true: recalled again; changed: recalled
    beside its replacement; not here: recalled in the project it was rejected in)."""
    episode = {"tenant_id": tenant, "principal_id": "p1", "project": "alpha", "occurred_at": T0}
    memory.episodes.add({**episode, "id": "ep-quotes", "content": "Setting up the shell."})
    said = "The user's shell is fish - with the Tide prompt."
    draft = belief(tenant, "p1", id="b-fish", statement=said, subject="shell",
                   entities=["fish", "shell"], source_episode_id="ep-quotes")  # fmt: skip
    memory.beliefs.add(draft)
    traced = recall(memory, tenant)
    assert "b-fish" in traced.rendered_ids
    replacement = {"replacement": "The user's shell is zsh."} if kind == "changed" else {}
    memory.reject(tenant, "p1", traced.trace_id, "b-fish", kind, **replacement)
    again = {**draft, "id": "b-fish-again",
             "statement": "The user’s shell is fish – with the Tide prompt."}  # fmt: skip
    outcome = memory.rederive(tenant, "p1", [again])
    assert outcome.outcomes[0].action == "corrected"
    shown = {
        memory.beliefs.get(tenant, "p1", i).statement for i in recall(memory, tenant).rendered_ids
    }
    assert not any("fish" in statement for statement in shown)


def test_a_derivation_forgotten_before_typographic_marks_were_folded_stays_forgotten() -> None:
    """An erasure record keeps a digest of the derivation key as it was folded then; the
    digests a re-derivation is checked against include that one, so a belief forgotten
    with a curly apostrophe in it is not written again."""
    from recallflow.core.replay import derivation_digests, key_digest
    from recallflow.models.store import Belief

    statement = "The user’s shell is fish."
    draft = Belief.model_validate(
        belief("t", id="b-1", statement=statement, subject="s", source_episode_id="e")
    )
    before = key_digest("t", "p1", ("e", "the user’s shell is fish"))
    assert before in derivation_digests("t", "p1", draft)


def test_a_sentence_derived_twice_in_one_re_derivation_is_one_belief(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    """A formation model may write one sentence twice in a pass, cased or ended
    differently. Replayed each on its own, both drafts of the live editor belief became its
    successor, and the whole re-derivation was refused ("is already superseded"); both
    drafts of a new sentence were written, and recalled twice. The later is the belief the
    first became, and a rejection holds for both."""
    memory.reject(tenant, "p1", traced.trace_id, "b-shell", "not_true")
    drafts = rederived(tenant)
    twice = [
        {**drafts[0], "id": "r-editor-again", "statement": "the user prefers the Helix editor"},
        {**drafts[1], "id": "r-shell-again", "statement": "THE USER PREFERS THE FISH SHELL"},
        {**drafts[1], "id": "r-tea", "statement": "The user drinks green tea.", "subject": "tea",
         "entities": ["tea"]},
        {**drafts[1], "id": "r-tea-again", "statement": "the user drinks green tea!",
         "subject": "tea", "entities": ["tea"]},
    ]  # fmt: skip
    outcome = memory.rederive(tenant, "p1", [*drafts, *twice])
    actions = [o.action for o in outcome.outcomes]
    assert actions == ["changed", "corrected", "known", "known", "new", "known"]
    ids = [o.belief_id for o in outcome.outcomes]
    assert ids[2] == ids[0] and ids[3] == ids[1] and ids[5] == ids[4] == "r-tea"
    assert memory.beliefs.get(tenant, "p1", "b-editor").superseded_by == ids[0]
    stored = {b.id for b in memory.beliefs.list(tenant, "p1")}
    assert not stored & {"r-editor-again", "r-shell-again", "r-tea-again"}
    live = [b.statement for b in memory.beliefs.list(tenant, "p1") if b.state.value == "active"]
    assert sorted(live) == ["The user drinks green tea.", "The user prefers the Helix editor."]
    shown = [
        memory.beliefs.get(tenant, "p1", i).statement for i in recall(memory, tenant).rendered_ids
    ]
    assert sorted(shown) == ["The user drinks green tea.", "The user prefers the Helix editor."]
    again = memory.rederive(tenant, "p1", [*drafts, *twice])
    assert {o.action for o in again.outcomes} == {"known"}


def test_other_words_are_another_derivation() -> None:
    """Folding stops at case, compatibility forms, spacing and the closing punctuation:
    a sentence whose words or numbers differ is not matched to a rejected one."""
    from recallflow.core.replay import derivation_key
    from recallflow.models.store import Belief

    def key(statement: str) -> tuple[str | None, str]:
        draft = belief("t", id="b-1", statement=statement, subject="s", source_episode_id="e")
        return derivation_key(Belief.model_validate(draft))

    assert key("Budget is 3.5k.") != key("Budget is 35k.")
    assert key("Ada uses Neovim.") != key("Ada uses Neovim?")
    assert key("Ada does not use Neovim.") != key("Ada uses Neovim.")
    assert key("Ada uses  Neovim.") == key("ada uses neovim")


@given(
    text=st.text(st.sampled_from("ab '-\"."), min_size=1, max_size=30),
    marks=st.lists(st.sampled_from(list("\u2018\u2019\u201c\u201d\u2013\u2014")), max_size=30),
)
def test_typographic_marks_never_make_another_derivation(text: str, marks: list[str]) -> None:
    """Whatever plain quotes and hyphens a sentence holds, writing any of them as its
    typographic form (the curly quote, the en or em dash) is the same derivation."""
    from recallflow.core.replay import folded_statement

    plain = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-",
             "\u2014": "-"}  # fmt: skip
    typographic = list(text)
    for position, mark in zip(
        [i for i, ch in enumerate(text) if ch in "'\"-"], marks, strict=False
    ):
        if plain[mark] == text[position]:
            typographic[position] = mark
    assert folded_statement("".join(typographic)) == folded_statement(text)


def test_without_replay_a_re_derivation_would_undo_the_rejection(
    memory: Memory, tenant: str, traced: RecallResult
) -> None:
    """Why the replay step exists: the same drafts added plainly bring the belief back."""
    memory.reject(tenant, "p1", traced.trace_id, "b-shell", "not_true")
    memory.beliefs.add_many(rederived(tenant))
    after = recall(memory, tenant).rendered_ids
    statements = {memory.beliefs.get(tenant, "p1", i).statement for i in after}
    assert "The user prefers the fish shell." in statements


def test_re_derivation_refuses_drafts_of_another_principal(memory: Memory, tenant: str) -> None:
    store(memory, tenant)
    before = rows(memory, tenant)
    with pytest.raises(InvalidInputError) as info:
        memory.rederive(tenant, "p1", [*rederived(tenant), *rederived(tenant, "p2")])
    assert info.value.item_index == 2 and info.value.field == "principal_id"
    assert rows(memory, tenant) == before


# --- the correction-durability gate --------------------------------------------------------


def test_the_durability_gate_holds_and_can_fail(memory: Memory, tenant: str) -> None:
    from recallflow.evaluation import durability
    from recallflow.evaluation.gates import GateStatus

    def patient(req: RecallRequest) -> RecallResult:
        return memory.recall(req, policy=PATIENT)

    gate = durability.correction_durability(memory, tenant, patient)
    assert gate.status is GateStatus.PASS, gate.detail
    assert gate.detail.startswith("12/12 rejections (3 not_true, 3 changed, 3 not_here, 3 ")
    assert "0 of 4 unrejected beliefs lost" in gate.detail

    # The same script, with a re-derivation (every draft re-labelled, so none is an exact
    # duplicate stored once) written without replay, must be caught.
    plain = f"{tenant}-plain"
    script = durability.reject_scripted(memory, plain, patient)
    memory.beliefs.add_many(
        d.model_copy(update={"entities": (*d.entities, "rederived")})
        for d in durability.drafts(plain, generation="r")
    )
    found = durability.problems(memory, plain, script, patient)
    assert {p.split(":")[0] for p in found} == set(durability.SCRIPT)


@pytest.mark.parametrize("owner", ["tenant_id", "principal_id"])
def test_a_draft_of_another_owner_is_refused_on_the_field_that_differs(
    memory: Memory, tenant: str, traced: RecallResult, owner: str
) -> None:
    """A re-derived draft or a replacement of another tenant was refused on
    ``principal_id``, which was the same: the error names the field that differs."""
    other = {**rederived(tenant)[0], owner: "someone-else"}
    with pytest.raises(InvalidInputError) as refused:
        memory.rederive(tenant, "p1", [other])
    assert refused.value.field == owner
    replacement = {**other, "id": "b-elsewhere"}
    with pytest.raises(InvalidInputError) as refused:
        memory.reject(tenant, "p1", traced.trace_id, "b-shell", "changed", replacement=replacement)
    assert refused.value.field == f"replacement.{owner}"
