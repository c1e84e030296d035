"""The session, correction, erasure and picture commands as a user or a script runs them:
each in its text and its ``--json`` form, what each one changed in the store, and bad
input refused with the documented exit code and one line, never a traceback."""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import Memory
from recallflow.cli import demo
from recallflow.cli.args import EXIT_FAILURE, EXIT_NOT_CONFIRMED, EXIT_USAGE
from recallflow.cli.main import main
from recallflow.models.store import LifecycleState
from recallflow.tools import Toolset
from tests.helpers import belief, request

MONEY = "How are money amounts represented in cents?"


@pytest.fixture
def store(memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch) -> Memory:
    """The demo memory copied into a tenant of its own (these commands change it), named
    by RECALLFLOW_DSN with the store's embedder, as a user would."""
    memory.episodes.add_many(
        [e.model_copy(update={"tenant_id": tenant}) for e in demo.demo_episodes()]
    )
    memory.beliefs.add_many(
        [b.model_copy(update={"tenant_id": tenant}) for b in demo.demo_beliefs()]
    )
    memory.edges.add_many([e.model_copy(update={"tenant_id": tenant}) for e in demo.demo_edges()])
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    monkeypatch.setenv("RECALLFLOW_DSN", memory.uri)
    return memory


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def who(tenant: str) -> list[str]:
    return ["--tenant", tenant, "--principal", demo.PRINCIPAL]


def recalled(capsys: pytest.CaptureFixture[str], tenant: str, query: str = MONEY) -> dict[str, Any]:
    code, out, _ = run(capsys, "recall", query, *who(tenant), "--project", demo.MOBILE, "--json")
    assert code == 0
    result: dict[str, Any] = json.loads(out)
    return result


# --- sessions -------------------------------------------------------------------------------


def test_a_session_opened_on_the_command_line_is_resumed_by_the_next_command(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "session", "open", *who(tenant), "--project", demo.MOBILE, "--json")
    opened = json.loads(out)
    assert code == 0 and opened["session_id"].startswith("s-")
    assert "<memory>" in opened["prefix"] and opened["beliefs"]
    session_id = opened["session_id"]

    code, out, _ = run(capsys, "session", "show", session_id, *who(tenant), "--json")
    shown = json.loads(out)
    assert code == 0 and shown["prefix"] == opened["prefix"]
    assert shown["prefix_sha256"] == opened["prefix_sha256"]
    code, out, _ = run(capsys, "session", "show", session_id, *who(tenant))
    assert code == 0 and session_id in out and opened["prefix_sha256"] in out
    assert opened["prefix"].strip().splitlines()[-1] in out

    code, out, _ = run(capsys, "session", "recall", session_id, MONEY, *who(tenant), "--json")
    turn = json.loads(out)
    assert code == 0 and turn["trace"]["session_id"] == session_id
    prefix_ids = {b["belief_id"] for b in opened["beliefs"]}
    assert not prefix_ids & {i["belief_id"] for i in turn["items"]}  # never repeats the prefix
    code, out, _ = run(capsys, "session", "recall", session_id, MONEY, *who(tenant))
    assert code == 0 and "[b-mob-money]" in out and "rendered_sha256" in out


def test_session_open_prints_the_prefix_as_text(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "session", "open", *who(tenant), "--kind", "async", "--goal", "ship the fix"
    )
    assert code == 0 and re.match(r"opened s-\S+ \(async\)", out)
    assert "<memory>" in out and "watermark" in out


def test_another_principals_session_is_not_found(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "session", "open", *who(tenant), "--json")
    session_id = json.loads(out)["session_id"]
    code, out, err = run(
        capsys, "session", "show", session_id, "--tenant", tenant, "--principal", "mallory"
    )
    assert code == EXIT_FAILURE and out == ""
    assert err.startswith("recallflow session show: error:") and "no session" in err


def test_an_ended_session_takes_no_more_turns(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "session", "open", *who(tenant), "--json")
    opened = json.loads(out)
    session_id = opened["session_id"]
    # An end before the session opened is refused, and ends nothing.
    code, out, err = run(
        capsys, "session", "end", session_id, *who(tenant), "--at", "2020-01-01T00:00:00Z"
    )
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
    assert err.startswith("recallflow session end: error: --at: ") and "opened" in err
    # So is one mistyped a year ahead, which would have stood for good.
    ahead = (datetime.now(UTC) + timedelta(days=365)).isoformat()
    code, out, err = run(capsys, "session", "end", session_id, *who(tenant), "--at", ahead)
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
    assert err.startswith("recallflow session end: error: --at: ") and "clock" in err
    at = datetime.fromisoformat(opened["watermark"]) + timedelta(microseconds=1)
    while datetime.now(UTC) <= at:  # an end that has come, so the next turn is refused
        time.sleep(0.001)
    code, out, _ = run(
        capsys, "session", "end", session_id, *who(tenant), "--at", at.isoformat(), "--json"
    )
    first = json.loads(out)
    assert code == 0 and datetime.fromisoformat(first["ended_at"]) == at
    assert first["already_ended"] is False  # an end in the past is this call's own
    code, out, _ = run(capsys, "session", "end", session_id, *who(tenant))  # the first end stands
    assert code == 0 and out == (
        f"{session_id} had already ended at {at.isoformat()}; the first end stands\n"
    )
    code, out, err = run(capsys, "session", "recall", session_id, MONEY, *who(tenant))
    assert code == EXIT_USAGE and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("recallflow session recall: error: session_id: ") and "ended" in err
    with pytest.raises(SystemExit) as exited:
        run(capsys, "session", "end", session_id, *who(tenant), "--at", "yesterday")
    assert exited.value.code == EXIT_USAGE and "ISO 8601" in capsys.readouterr().err
    # The retention run deletes the ended session's user views, once.
    now = datetime.now(UTC).isoformat()
    code, out, _ = run(capsys, "retention", "run", "--now", now, "--json")
    assert code == 0 and json.loads(out)["user_views_deleted"] >= 1
    code, out, _ = run(capsys, "retention", "run", "--now", now, "--json")
    assert code == 0 and json.loads(out)["user_views_deleted"] == 0


def test_an_ended_session_is_still_shown_with_when_it_ended(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``session show`` reads what was stored: an ended session is shown, byte for byte,
    with its end (it was refused as "ended ...; open a new one", exit 2)."""
    code, out, _ = run(capsys, "session", "open", *who(tenant), "--json")
    opened = json.loads(out)
    session_id = opened["session_id"]
    code, out, _ = run(capsys, "session", "show", session_id, *who(tenant), "--json")
    assert code == 0 and json.loads(out)["ended_at"] is None
    code, out, _ = run(capsys, "session", "end", session_id, *who(tenant), "--json")
    ended_at = json.loads(out)["ended_at"]
    code, out, err = run(capsys, "session", "show", session_id, *who(tenant), "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["ended_at"] == ended_at
    assert shown["prefix"] == opened["prefix"]
    assert shown["prefix_sha256"] == opened["prefix_sha256"]
    code, out, _ = run(capsys, "session", "show", session_id, *who(tenant))
    assert code == 0 and f"ended at {ended_at}" in out and opened["prefix"] in out
    # Its turns are still refused.
    code, out, err = run(capsys, "session", "recall", session_id, MONEY, *who(tenant))
    assert code == EXIT_USAGE and "ended" in err


# --- corrections ----------------------------------------------------------------------------


def test_the_text_user_view_says_its_counts_in_words(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The text view ended with its counts as a JSON object; a person reads a sentence, and
    a script has --json."""
    result = recalled(capsys, tenant)
    trace_id, shown = result["trace"]["id"], len(result["items"])
    assert shown >= 1
    code, out, err = run(capsys, "trace", trace_id, *who(tenant))
    assert code == 0 and err == ""
    last = out.rstrip("\n").splitlines()[-1]
    assert "{" not in out and last.startswith(f"{shown} shown; 0 withheld on this surface; ")
    assert last.endswith("0 blocked; 0 redacted")
    code, out, _ = run(capsys, "trace", trace_id, *who(tenant), "--json")
    assert code == 0 and json.loads(out)["blocked"] == 0


def test_an_empty_block_says_when_the_budget_emptied_it(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A belief that cleared the floor but is longer than the in-turn token cap was dropped
    by the budget, and the block was printed as "(empty: nothing cleared the relevance
    floor)": the user looked for a relevance problem that was not there."""
    words = " ".join(f"kubernetes autoscaling note{i} detail" for i in range(130))
    store.beliefs.add(
        {
            "tenant_id": tenant,
            "principal_id": demo.PRINCIPAL,
            "id": "b-long",
            "scope": "user",
            "subject": "kubernetes autoscaling",
            "statement": f"Kubernetes autoscaling: {words}"[:3990],
        }
    )
    code, out, _ = run(capsys, "recall", "kubernetes autoscaling", *who(tenant), "--json")
    trace = json.loads(out)["trace"]
    assert code == 0 and trace["budget_dropped_ids"] == ["b-long"] and trace["rendered_ids"] == []
    code, out, _ = run(capsys, "recall", "kubernetes autoscaling", *who(tenant))
    assert code == 0
    assert out.splitlines()[0] == (
        "(empty: 1 cleared the relevance floor, but it did not fit the block's budget)"
    )
    off_topic = "what does ada like for lunch"
    code, out, _ = run(capsys, "recall", off_topic, *who(tenant), "--json")
    below = json.loads(out)["trace"]["floor_dropped"]
    assert below > 1
    code, out, _ = run(capsys, "recall", off_topic, *who(tenant))
    assert code == 0
    assert out.splitlines()[0] == (
        f"(empty: {below} beliefs found, but none cleared the relevance floor)"
    )


def test_an_empty_block_of_nothing_found_does_not_blame_the_floor(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A recall or an archival search of a principal that holds nothing (a misspelt
    principal, a time before anything was stored) printed "nothing cleared the relevance
    floor" / "no episode cleared the floor": the user went tuning a floor that had nothing
    to drop. A principal that holds nothing at all is named, as a new principal or a
    misspelt one. A session turn whose relevant beliefs are in its prefix says so."""
    nobody = ["--tenant", tenant, "--principal", "nobody-here"]
    code, out, _ = run(capsys, "recall", MONEY, *nobody)
    assert code == 0 and out.splitlines()[0] == (
        f"(empty: {tenant}/nobody-here holds no beliefs in this store: a new principal, or a"
        " misspelt --tenant or --principal)"
    )
    code, out, _ = run(capsys, "episodes", "invoice service", *nobody)
    assert code == 0 and out.splitlines()[0] == (
        f"(empty: {tenant}/nobody-here holds no episodes in this store: a new principal, or a"
        " misspelt --tenant or --principal)"
    )
    # A principal that holds beliefs, asked at a time before any of them held.
    before = ["--as-of", "2001-01-01T00:00:00Z"]
    code, out, _ = run(capsys, "recall", MONEY, *who(tenant), *before)
    assert code == 0 and out.splitlines()[0] == "(empty: no belief was found for this request)"
    code, out, _ = run(capsys, "episodes", "invoice service", *who(tenant), *before)
    assert code == 0 and out.splitlines()[0] == "(empty: no episode was found for this request)"
    code, out, _ = run(capsys, "session", "open", *who(tenant), "--json")
    opened = json.loads(out)
    held = [b["belief_id"] for b in opened["beliefs"]]
    assert held
    statement = store.beliefs.get(tenant, demo.PRINCIPAL, held[0]).statement
    code, out, _ = run(capsys, "session", "recall", opened["session_id"], statement, *who(tenant),
                       "--json")  # fmt: skip
    turn = json.loads(out)
    assert turn["block"] == "" and held[0] in turn["trace"]["snapshot_relevant"]
    code, out, _ = run(capsys, "session", "recall", opened["session_id"], statement, *who(tenant))
    relevant = len(turn["trace"]["snapshot_relevant"])
    assert out.splitlines()[0].startswith(f"(empty: nothing new; the {relevant} relevant belief")


def test_an_archival_searchs_trace_id_is_said_to_be_never_stored(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`episodes` prints its trace's id, and `trace` (or the explain_recall tool) given it
    answered only "no trace": the user looked for a lost trace, or for another store.
    An archival search's trace is part of its result, never stored, and the refusal says so."""
    code, out, _ = run(capsys, "episodes", "invoice service", *who(tenant), "--json")
    trace_id = json.loads(out)["trace"]["id"]
    assert code == 0
    code, out, err = run(capsys, "trace", trace_id, *who(tenant))
    assert code == EXIT_FAILURE and out == "" and len(err.splitlines()) == 1
    assert f"no trace {trace_id!r}" in err and "never stored" in err
    toolset = Toolset(store, tenant_id=tenant, principal_id=demo.PRINCIPAL)
    refused = toolset.call("explain_recall", {"trace_id": trace_id})["error"]
    assert refused["type"] == "not_found" and "never stored" in refused["message"]
    # A recall's missing trace keeps the plain refusal, a wider surface's the same.
    assert (
        "never stored"
        not in toolset.call("explain_recall", {"trace_id": "tr-0"})["error"]["message"]
    )


def test_a_forgotten_item_of_a_trace_prints_as_erased_once(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The user view of a trace whose item was forgotten since printed "- [[erased]]"."""
    result = recalled(capsys, tenant)
    first = result["items"][0]["belief_id"]
    assert run(capsys, "forget", *who(tenant), "--belief", first, "--yes", "--quiet")[0] == 0
    code, out, _ = run(capsys, "trace", result["trace"]["id"], *who(tenant))
    assert code == 0 and "[[" not in out
    assert "- [erased] (" in out and "    forgotten since" in out


def test_belief_list_shows_what_a_principal_holds_and_not_what_was_forgotten(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A user at a terminal could see a principal's beliefs only as counts (`status`) or
    one id at a time (`belief history`): after `forget --belief`, nothing listed what was
    left. `belief list` prints every belief, one a line, filtered by `--state`."""
    beliefs = store.beliefs.list(tenant, demo.PRINCIPAL)
    code, out, _ = run(capsys, "belief", "list", *who(tenant))
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(beliefs) + 1
    assert lines[-1] == f"{len(beliefs)} beliefs of {tenant}/{demo.PRINCIPAL}"
    first = beliefs[0]
    assert lines[0].split()[:2] == [f"[{first.id}]", first.state.value]
    # Ids differ in length; the states stand in one column, not one id's width after it.
    columns = {
        len(line) - len(line[len(b.id) + 2 :].lstrip())
        for line, b in zip(lines[:-1], beliefs, strict=True)
    }
    assert len(columns) == 1, lines
    retired = [b.id for b in beliefs if b.state is LifecycleState.RETIRED]
    code, out, _ = run(capsys, "belief", "list", *who(tenant), "--state", "retired", "--json")
    assert code == 0 and [b["id"] for b in json.loads(out)] == retired
    gone = beliefs[-1].id
    assert run(capsys, "forget", *who(tenant), "--belief", gone, "--yes", "--quiet")[0] == 0
    code, out, _ = run(capsys, "belief", "list", *who(tenant), "--json")
    assert code == 0 and [b["id"] for b in json.loads(out)] == [b.id for b in beliefs[:-1]]
    with pytest.raises(SystemExit) as exited:
        run(capsys, "belief", "list", *who(tenant), "--state", "gone")
    err = capsys.readouterr().err
    assert exited.value.code == EXIT_USAGE and "--state" in err and len(err.splitlines()) == 1


def test_belief_history_says_a_validity_in_words(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A belief with neither end of its validity set printed "valid always to open"."""
    stored = store.beliefs.get(tenant, demo.PRINCIPAL, "b-mob-money")
    assert stored.valid_from is None and stored.valid_to is None
    code, out, _ = run(capsys, "belief", "history", "b-mob-money", *who(tenant))
    assert code == 0 and "always" not in out and " to open" not in out
    assert "  valid at every time (no start or end set); recorded " in out


def test_belief_history_lists_the_latest_events_on_request(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--events N``: the latest N events, and a line saying how many earlier ones are left
    out; without it, every event."""
    for _ in range(3):
        trace_id = recalled(capsys, tenant)["trace"]["id"]
        assert run(capsys, "cite", trace_id, "b-mob-money", *who(tenant))[0] == 0
    history = ["belief", "history", "b-mob-money", *who(tenant)]
    code, out, _ = run(capsys, *history, "--events", "2")
    assert code == 0 and "(2 earlier events not shown)" in out
    assert out.count("cited from trace") == 2 and trace_id in out
    code, out, _ = run(capsys, *history, "--json")
    assert code == 0 and json.loads(out)["earlier_events"] == 0
    assert len(json.loads(out)["events"]) == 4  # created, three citations
    # A count past any belief's events, and past what the database counts in: all of them.
    assert run(capsys, *history, "--json", "--events", "9" * 30) == (code, out, "")
    with pytest.raises(SystemExit) as exited:
        run(capsys, *history, "--events", "0")
    assert exited.value.code == EXIT_USAGE and "argument --events" in capsys.readouterr().err


def test_cite_records_each_belief_once_per_trace(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    trace_id = recalled(capsys, tenant)["trace"]["id"]
    code, out, _ = run(capsys, "cite", trace_id, "b-mob-money", *who(tenant))
    assert code == 0 and "[b-mob-money]" in out
    code, out, _ = run(capsys, "cite", trace_id, "b-mob-money", *who(tenant), "--json")
    assert code == 0
    assert json.loads(out) == {
        "trace_id": trace_id,
        "cited": [],
        "ended": [],
        "already_cited": ["b-mob-money"],
    }


def test_feedback_on_a_belief_the_trace_did_not_show_names_the_argument_typed(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cite`` and ``reject`` of a belief the recall did not show said "field
    'belief_id'", a library name the user never typed: the refusal names the argument,
    on one line, and records nothing."""
    result = recalled(capsys, tenant)
    shown = {item["belief_id"] for item in result["items"]}
    [unseen] = [b.id for b in store.beliefs.list(tenant, demo.PRINCIPAL) if b.id not in shown][:1]
    trace_id = result["trace"]["id"]
    for command, argument in (
        (["cite", trace_id, "b-mob-money", unseen], "belief_ids"),
        (["reject", trace_id, unseen, "--kind", "not_true"], "belief_id"),
    ):
        code, out, err = run(capsys, *command, *who(tenant))
        assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
        assert err.startswith(f"recallflow {command[0]}: error: {argument}: id {unseen!r}: ")
        assert "was not rendered" in err and "field" not in err
    for belief_id in ("b-mob-money", unseen):  # nothing but its creation was recorded
        code, out, _ = run(capsys, "belief", "history", belief_id, *who(tenant), "--json")
        assert code == 0 and len(json.loads(out)["events"]) == 1


@pytest.mark.parametrize("kind", ["not_true", "changed", "not_here", "unspecified"])
def test_reject_writes_what_its_kind_means(
    kind: str, store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    trace_id = recalled(capsys, tenant)["trace"]["id"]
    code, out, _ = run(
        capsys, "reject", trace_id, "b-mob-money", "--kind", kind, *who(tenant), "--json"
    )
    rejection = json.loads(out)
    assert code == 0 and rejection["kind"] == kind and rejection["recorded"] is True
    belief = store.beliefs.get(tenant, demo.PRINCIPAL, "b-mob-money")
    after = recalled(capsys, tenant)
    shown = {i["belief_id"] for i in after["items"]}
    if kind == "not_true":
        assert belief.state is LifecycleState.RETIRED and "b-mob-money" not in shown
    elif kind == "changed":
        assert belief.valid_to is not None and "b-mob-money" not in shown
    elif kind == "not_here":
        assert rejection["project"] == demo.MOBILE and "b-mob-money" not in shown
    else:
        assert belief.state is not LifecycleState.RETIRED
    code, out, _ = run(capsys, "reject", trace_id, "b-mob-money", "--kind", kind, *who(tenant))
    assert code == 0 and "already recorded" in out


def test_a_flag_is_shown_wherever_the_terminal_shows_the_belief(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An `unspecified` rejection flags the belief and leaves its state: the command said
    "the belief is now active", and neither `belief history` nor `belief list` showed the
    flag, so the person who flagged it read that nothing had changed."""
    result = recalled(capsys, tenant)
    trace_id = result["trace"]["id"]
    other = next(
        i["belief_id"]
        for i in result["items"]
        if i["belief_id"] != "b-mob-money"
        and not store.beliefs.get(tenant, demo.PRINCIPAL, i["belief_id"]).flagged
    )
    code, out, _ = run(
        capsys, "reject", trace_id, "b-mob-money", "--kind", "unspecified", *who(tenant)
    )
    assert code == 0 and out.splitlines()[0].endswith(
        "; the belief is now active, flagged as possibly wrong"
    )
    code, out, _ = run(capsys, "belief", "history", "b-mob-money", *who(tenant))
    assert code == 0 and out.splitlines()[0].endswith(": active, flagged as possibly wrong")
    code, out, _ = run(capsys, "belief", "list", *who(tenant))
    lines = {line.split()[0]: line for line in out.splitlines()[:-1]}
    assert "(flagged)" in lines["[b-mob-money]"]
    unflagged = [b.id for b in store.beliefs.list(tenant, demo.PRINCIPAL) if not b.flagged]
    assert unflagged and all("(flagged)" not in lines[f"[{i}]"] for i in unflagged)
    # A kind that does not flag says nothing of one.
    code, out, _ = run(capsys, "reject", trace_id, other, "--kind", "not_true", *who(tenant))
    assert code == 0 and out.splitlines()[0].endswith("; the belief is now retired")


def test_a_changed_rejection_with_a_replacement_supersedes_the_belief(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    trace_id = recalled(capsys, tenant)["trace"]["id"]
    now = "mobile-app formats money from integer cents with the device locale and currency."
    code, out, _ = run(
        capsys,
        "reject",
        trace_id,
        "b-mob-money",
        "--kind",
        "changed",
        "--replacement",
        now,
        *who(tenant),
    )
    assert code == 0 and "replaced by [" in out
    replacement = re.search(r"replaced by \[(\S+)\]", out)
    assert replacement is not None
    successor = store.beliefs.get(tenant, demo.PRINCIPAL, replacement.group(1))
    assert successor.statement == now and successor.supersedes == "b-mob-money"


def test_unflag_clears_a_flag_as_text_and_json(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A flag set from the terminal could not be taken back from it: the belief stayed
    "flagged as possibly wrong" wherever it was shown."""
    trace_id = recalled(capsys, tenant)["trace"]["id"]
    run(capsys, "reject", trace_id, "b-mob-money", "--kind", "unspecified", *who(tenant))
    code, out, err = run(
        capsys, "unflag", "b-mob-money", "--trace", trace_id, "--note", "checked", *who(tenant)
    )
    assert (code, err) == (0, "")
    assert out == "[b-mob-money]: cleared its flag; the belief is now active\n"
    assert not store.beliefs.get(tenant, demo.PRINCIPAL, "b-mob-money").flagged
    money = next(i for i in recalled(capsys, tenant)["items"] if i["belief_id"] == "b-mob-money")
    assert money["flagged"] is False
    code, out, _ = run(capsys, "belief", "history", "b-mob-money", *who(tenant))
    assert code == 0 and out.splitlines()[0].endswith(": active")
    assert out.rstrip().endswith(f"flag cleared from trace {trace_id}: checked")
    code, out, _ = run(capsys, "unflag", "b-mob-money", *who(tenant), "--json")
    done = json.loads(out)
    assert code == 0 and done["recorded"] is False and done["belief"]["flagged"] is False
    code, out, _ = run(capsys, "unflag", "b-mob-money", *who(tenant))
    assert out.startswith("[b-mob-money]: it was not flagged as possibly wrong (nothing recorded)")


def test_unflag_refuses_what_it_cannot_clear_in_one_line(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    result = recalled(capsys, tenant)
    trace_id = result["trace"]["id"]
    run(capsys, "reject", trace_id, "b-mob-money", "--kind", "unspecified", *who(tenant))
    shown = {i["belief_id"] for i in result["items"]}
    unseen = next(b.id for b in store.beliefs.list(tenant, demo.PRINCIPAL) if b.id not in shown)
    code, out, err = run(capsys, "unflag", unseen, "--trace", trace_id, *who(tenant))
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
    assert err.startswith(f"recallflow unflag: error: belief_id: id {unseen!r}: was not rendered")
    code, out, err = run(
        capsys, "unflag", "b-mob-money", "--tenant", tenant, "--principal", "mallory"
    )
    assert code == EXIT_FAILURE and out == "" and err.count("\n") == 1
    assert "no belief 'b-mob-money'" in err
    assert store.beliefs.get(tenant, demo.PRINCIPAL, "b-mob-money").flagged


def test_supersede_states_what_holds_after_a_changed_rejection_without_one(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bare `changed` rejection ends the belief now; the person who learns what it
    changed to had no command to say so (`supersede` was Python only)."""
    trace_id = recalled(capsys, tenant)["trace"]["id"]
    code, _, _ = run(capsys, "reject", trace_id, "b-mob-money", "--kind", "changed", *who(tenant))
    assert code == 0
    now = "mobile-app formats money from integer cents with the device locale."
    code, out, err = run(
        capsys, "supersede", "b-mob-money", now, "--id", "b-mob-money-locale", *who(tenant)
    )
    assert (code, err) == (0, "")
    assert out == f"superseded [b-mob-money] by [b-mob-money-locale]: {now}\n"
    old = store.beliefs.get(tenant, demo.PRINCIPAL, "b-mob-money")
    new = store.beliefs.get(tenant, demo.PRINCIPAL, "b-mob-money-locale")
    assert old.superseded_by == new.id and new.supersedes == old.id
    assert (new.subject, new.scope, new.origin_project) == (
        old.subject,
        old.scope,
        old.origin_project,
    )
    assert new.source_authority.value == "user_stated"
    assert "b-mob-money-locale" in {i["belief_id"] for i in recalled(capsys, tenant)["items"]}
    # Once superseded, it is refused in one line: supersede its successor instead.
    code, out, err = run(capsys, "supersede", "b-mob-money", "again", *who(tenant), "--json")
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
    assert (
        err.startswith("recallflow supersede: error: belief_id: ") and "already superseded" in err
    )
    # So with a new --id: the belief is at fault, not the id (the line once said a fresh
    # id was "already the id of another belief").
    code, out, err = run(
        capsys, "supersede", "b-mob-money", "again", "--id", "b-fresh", *who(tenant), "--json"
    )
    assert code == EXIT_USAGE and err.startswith("recallflow supersede: error: belief_id: ")
    assert f"already superseded by {new.id!r}" in err
    code, out, _ = run(capsys, "supersede", new.id, "It changed once more.", *who(tenant), "--json")
    after = json.loads(out)
    assert code == 0 and after["supersedes"] == new.id
    assert after["statement"] == "It changed once more."


def test_supersede_of_a_belief_nobody_has_is_refused_in_one_line(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = len(store.beliefs.list(tenant, demo.PRINCIPAL))
    code, out, err = run(capsys, "supersede", "b-nobody", "x holds", *who(tenant))
    assert code == EXIT_FAILURE and out == "" and err.count("\n") == 1
    assert err.startswith("recallflow supersede: error:") and "no belief 'b-nobody'" in err
    code, out, err = run(
        capsys, "supersede", "b-mob-money", "x holds", "--id", "b-mob-money", *who(tenant)
    )
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
    assert err.startswith("recallflow supersede: error: --id: ")
    assert len(store.beliefs.list(tenant, demo.PRINCIPAL)) == before
    # An --id another belief has is the --id's fault, not the statement's: the line names
    # --id and says the id is taken (it once named the statement and advised superseding).
    taken = next(b.id for b in store.beliefs.list(tenant, demo.PRINCIPAL) if b.id != "b-mob-money")
    code, out, err = run(capsys, "supersede", "b-mob-money", "x holds", "--id", taken, *who(tenant))
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
    assert err.startswith(f"recallflow supersede: error: --id: {taken!r} is already the id of")
    assert len(store.beliefs.list(tenant, demo.PRINCIPAL)) == before


# --- belief add -------------------------------------------------------------------------------


def test_belief_add_writes_what_the_person_at_the_terminal_states(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A person at a terminal could correct beliefs but not state a new one: the only
    way in was an export file."""
    code, out, err = run(
        capsys,
        "belief",
        "add",
        "Ada reviews pull requests after lunch.",
        "--subject",
        "review time",
        *who(tenant),
    )
    assert (code, err) == (0, "")
    written = re.fullmatch(r"added \[(\S+)\] \(active, user scope\): (.*)\n", out)
    assert written is not None and written.group(2) == "Ada reviews pull requests after lunch."
    mine = store.beliefs.get(tenant, demo.PRINCIPAL, written.group(1))
    assert (mine.scope.value, mine.origin_project, mine.source_authority.value) == (
        "user",
        None,
        "user_stated",
    )
    # With a project it is the project's; the flags set what they name.
    invoices = [
        *("belief", "add", "Invoices are numbered per year.", "--subject", "invoice numbers"),
        *("--project", demo.MOBILE, "--portability", "portable", "--type", "procedure"),
        *("--entity", "invoice", "--entity", "year", "--confidence", "0.95"),
        *("--sensitivity", "public", "--authority", "observed", "--id", "b-cli-invoices"),
        *who(tenant),
        "--json",
    ]
    code, out, _ = run(capsys, *invoices)
    stored = json.loads(out)
    assert code == 0 and stored["id"] == "b-cli-invoices"
    assert (stored["scope"], stored["origin_project"], stored["portability"]) == (
        "project",
        demo.MOBILE,
        "portable",
    )
    assert (stored["belief_type"], stored["confidence"], stored["sensitivity"]) == (
        "procedure",
        0.95,
        "public",
    )
    assert stored["entities"] == ["invoice", "year"] and stored["source_authority"] == "observed"
    # A retry of the same call with its --id stores it once.
    before = len(store.beliefs.list(tenant, demo.PRINCIPAL))
    code, out, _ = run(capsys, *invoices)
    assert code == 0 and json.loads(out) == stored
    assert len(store.beliefs.list(tenant, demo.PRINCIPAL)) == before
    recalled_ids = {
        i["belief_id"] for i in recalled(capsys, tenant, "How are invoices numbered?")["items"]
    }
    assert "b-cli-invoices" in recalled_ids


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--confidence", "2"], "--confidence: "),
        (["--scope", "project"], "--project: origin_project is required"),
        (
            ["--valid-from", "2026-02-01T00:00:00Z", "--valid-to", "2026-01-01T00:00:00Z"],
            "--valid-from: valid_from must be before valid_to",
        ),
        (["--entity", "cents", "--entity", "!!"], "--entity: "),
        (["--episode", "e-nobody"], "--episode: "),
        (["--id", "b-mob-money"], "--id: 'b-mob-money' is already the id of another belief"),
        (["--subject", ""], "--subject: "),
    ],
)
def test_belief_add_refuses_bad_input_in_one_line_naming_the_flag(
    store: Memory,
    tenant: str,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    named: str,
) -> None:
    before = store.beliefs.list(tenant, demo.PRINCIPAL)
    subject = [] if "--subject" in flags else ["--subject", "money"]
    code, out, err = run(
        capsys, "belief", "add", "Money is kept in cents.", *subject, *flags, *who(tenant)
    )
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
    assert err.startswith(f"recallflow belief add: error: {named}")
    assert store.beliefs.list(tenant, demo.PRINCIPAL) == before


_FUZZ_TEXT = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(
    ["", " ", "0.5", "2", "-1", "nan", "public", "project", "b-mob-money", "\x00", "\ud800x"]
)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    statement=_FUZZ_TEXT,
    subject=_FUZZ_TEXT,
    flag=st.sampled_from(
        ["--confidence", "--entity", "--type", "--scope", "--project", "--sensitivity", "--id"]
    ),
    value=_FUZZ_TEXT,
)
def test_belief_add_over_fuzzed_input_writes_one_belief_or_says_why_in_one_line(
    store: Memory,
    tenant: str,
    capsys: pytest.CaptureFixture[str],
    statement: str,
    subject: str,
    flag: str,
    value: str,
) -> None:
    before = {b.id: b for b in store.beliefs.list(tenant, demo.PRINCIPAL)}
    argv = ["belief", "add", statement, "--subject", subject, f"{flag}={value}", *who(tenant)]
    try:
        code, out, err = run(capsys, *argv, "--json")
    except SystemExit as exc:  # argparse's own refusal of a value it parses
        code, out, err = int(exc.code or 0), *capsys.readouterr()
    after = {b.id: b for b in store.beliefs.list(tenant, demo.PRINCIPAL)}
    if code == 0:
        written = json.loads(out)
        assert err == "" and set(after) - set(before) <= {written["id"]}
        assert after[written["id"]].statement == written["statement"]
    else:
        assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
        assert err.startswith("recallflow belief add: error: ") and "Traceback" not in err
        assert after == before


# --- belief history ---------------------------------------------------------------------------


def test_belief_history_shows_the_chain_and_every_event_as_text_and_json(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    trace_id = recalled(capsys, tenant)["trace"]["id"]
    assert run(capsys, "cite", trace_id, "b-mob-money", *who(tenant))[0] == 0
    now = "mobile-app formats money from integer cents with the device locale."
    code, out, _ = run(
        capsys,
        "reject",
        trace_id,
        "b-mob-money",
        "--kind",
        "changed",
        "--replacement",
        now,
        "--note",
        "we moved to the locale",
        *who(tenant),
        "--json",
    )
    successor = json.loads(out)["replacement_id"]
    code, out, _ = run(capsys, "belief", "history", "b-mob-money", *who(tenant))
    assert code == 0
    assert f"belief [b-mob-money] of {tenant}/{demo.PRINCIPAL}: superseded" in out
    assert f"[{successor}] active" in out and "* [b-mob-money] superseded" in out
    took_over = store.beliefs.get(tenant, demo.PRINCIPAL, successor).valid_from
    assert took_over is not None
    lines = out.split("events, oldest first:\n", 1)[1].splitlines()
    assert [line.split("  ", 2)[2] for line in lines] == [
        "created",
        f"cited from trace {trace_id}",
        f"rejected as changed from trace {trace_id}: we moved to the locale",
        f"superseded by [{successor}] (from {took_over:%Y-%m-%dT%H:%M:%SZ})",
    ]
    code, out, _ = run(capsys, "belief", "history", successor, *who(tenant), "--json")
    history = json.loads(out)
    assert code == 0 and history["belief"]["statement"] == now
    assert [e["kind"] for e in history["events"]] == ["created", "took_over"]
    assert [link["id"] for link in history["predecessors"]] == ["b-mob-money"]


# --- forget ---------------------------------------------------------------------------------


def _principal_rows(memory: Memory, tenant: str) -> int:
    return sum(
        sum(s.beliefs_by_state.values()) + s.episodes
        for s in memory.summary()
        if (s.tenant_id, s.principal_id) == (tenant, demo.PRINCIPAL)
    )


def test_forget_refuses_without_a_terminal_unless_told_yes(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "forget", *who(tenant))  # pytest's stdin is no terminal
    assert code == EXIT_USAGE and out == "" and "--yes" in err and err.count("\n") == 1
    assert _principal_rows(store, tenant) > 0
    code, out, _ = run(capsys, "forget", *who(tenant), "--yes", "--json")
    erasure = json.loads(out)
    assert code == 0 and erasure["scope"] == "principal" and erasure["deleted"]["beliefs"] > 0
    assert _principal_rows(store, tenant) == 0


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_forget_asks_on_a_terminal_and_a_no_erases_nothing(
    store: Memory,
    tenant: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", _Terminal("n\n"))
    code, out, err = run(capsys, "forget", *who(tenant))
    assert code == EXIT_NOT_CONFIRMED and "nothing erased" in err
    assert "cannot be undone" in out
    assert _principal_rows(store, tenant) > 0
    monkeypatch.setattr(sys, "stdin", _Terminal("y\n"))
    code, out, _ = run(capsys, "forget", *who(tenant), "--belief", "b-mob-money")
    assert code == 0 and "erased belief b-mob-money" in out
    assert "b-mob-money" not in {b.id for b in store.beliefs.list(tenant, demo.PRINCIPAL)}
    assert _principal_rows(store, tenant) > 0
    monkeypatch.setattr(sys, "stdin", _Terminal("yes\n"))
    code, out, _ = run(capsys, "forget", *who(tenant))
    assert code == 0 and f"erased everything of {tenant}/{demo.PRINCIPAL}" in out
    assert _principal_rows(store, tenant) == 0


def test_forget_episode_asks_like_belief_and_archival_search_loses_it(
    store: Memory,
    tenant: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`forget --episode` asks as `--belief` does; once erased, `episodes` no longer finds
    it; grace's episode and an id nobody has fail word for word alike."""

    def found() -> list[str]:
        code, out, _ = run(capsys, "episodes", "invoice service", *who(tenant), "--json")
        assert code == 0
        ids: list[str] = json.loads(out)["trace"]["rendered_ids"]
        return ids

    assert "ep-billing-1" in found()
    code, out, err = run(capsys, "forget", *who(tenant), "--episode", "ep-billing-1")
    assert code == EXIT_USAGE and out == "" and "--yes" in err and err.count("\n") == 1
    monkeypatch.setattr(sys, "stdin", _Terminal("n\n"))
    code, out, err = run(capsys, "forget", *who(tenant), "--episode", "ep-billing-1")
    assert code == EXIT_NOT_CONFIRMED and "nothing erased (episode ep-billing-1" in err
    assert "ep-billing-1" in found()
    monkeypatch.setattr(sys, "stdin", _Terminal("y\n"))
    code, out, _ = run(capsys, "forget", *who(tenant), "--episode", "ep-billing-1")
    assert code == 0 and f"erased episode ep-billing-1 of {tenant}/{demo.PRINCIPAL}" in out
    assert "ep-billing-1" not in found()
    assert "Pairing on the invoice" not in run(capsys, "episodes", "invoice", *who(tenant))[1]
    outcomes = []
    for named in ("ep-grace-1", "ep-billing-1", "ep-nowhere"):  # grace's, forgotten, none
        code, out, err = run(capsys, "forget", *who(tenant), "--episode", named, "--yes")
        outcomes.append((code, out, err.replace(named, "ID")))
    assert outcomes[0] == outcomes[1] == outcomes[2]
    assert outcomes[0][0] == EXIT_FAILURE and outcomes[0][2].count("\n") == 1
    assert store.episodes.get(tenant, "grace", "ep-grace-1").content == "Grace's first session."
    both = ["--belief", "b-mob-money", "--episode", "ep-mobile-1", "--yes"]
    with pytest.raises(SystemExit) as exited:
        run(capsys, "forget", *who(tenant), *both)
    assert exited.value.code == EXIT_USAGE and "not allowed with" in capsys.readouterr().err
    assert "b-mob-money" in {b.id for b in store.beliefs.list(tenant, demo.PRINCIPAL)}


def test_forget_project_and_session_ask_count_on_a_dry_run_and_erase(
    store: Memory,
    tenant: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`forget --project` and `--session` ask as `--belief` does; `--dry-run` prints the
    counts and erases nothing, without asking; grace's beliefs of the same project stay."""

    def ids(principal: str = demo.PRINCIPAL) -> set[str]:
        return {b.id for b in store.beliefs.list(tenant, principal)}

    mobile = {i for i in ids() if i.startswith("b-mob-")}
    code, out, err = run(capsys, "forget", *who(tenant), "--project", demo.MOBILE, "--dry-run")
    assert code == 0 and err == "" and "would erase" in out and "nothing was erased" in out
    trial = out.splitlines()[0]
    assert f"{len(mobile)} beliefs, 1 episode," in out
    assert mobile <= ids()
    code, out, _ = run(
        capsys, "forget", *who(tenant), "--project", demo.MOBILE, "--dry-run", "--json"
    )
    counted = json.loads(out)
    assert counted["scope"] == "project" and counted["deleted"]["beliefs"] == len(mobile)
    code, out, err = run(capsys, "forget", *who(tenant), "--project", demo.MOBILE)
    assert code == EXIT_USAGE and out == "" and "--yes" in err and err.count("\n") == 1
    monkeypatch.setattr(sys, "stdin", _Terminal("n\n"))
    code, _, err = run(capsys, "forget", *who(tenant), "--project", demo.MOBILE)
    assert (
        code == EXIT_NOT_CONFIRMED and f"nothing erased (everything of project {demo.MOBILE}" in err
    )
    assert mobile <= ids()
    monkeypatch.setattr(sys, "stdin", _Terminal("y\n"))
    code, out, _ = run(capsys, "forget", *who(tenant), "--project", demo.MOBILE)
    assert code == 0 and trial.replace("would erase", "erased") in out
    assert not mobile & ids() and ids()
    grace = ids("grace")
    code, out, _ = run(capsys, "forget", *who(tenant), "--session", "s-billing-1", "--yes")
    assert code == 0 and "0 beliefs, 1 episode;" in out
    assert "ep-billing-1" not in run(capsys, "episodes", "invoice", *who(tenant), "--json")[1]
    assert ids("grace") == grace
    code, out, _ = run(capsys, "forget", *who(tenant), "--session", "s-billing-1", "--yes")
    assert code == 0 and "0 beliefs, 0 episodes" in out and "none held" in out
    for bad, said in (
        (["--project", " "], "--project"),
        (["--belief", "b-user-tz", "--dry-run"], "--dry-run"),
        (["--project", demo.BILLING, "--with-beliefs"], "--with-beliefs"),
    ):
        try:
            code, out, err = run(capsys, "forget", *who(tenant), *bad, "--yes")
        except SystemExit as exited:
            code, err = int(str(exited.code)), capsys.readouterr().err
        assert code == EXIT_USAGE and said in err and "Traceback" not in err, bad
    assert {"b-user-tz", "b-bill-db"} <= ids()


# --- pictures -------------------------------------------------------------------------------


def _svg_titles(svg: str) -> set[str]:
    """The node names Graphviz wrote into an SVG (each node is a <g> with a <title>)."""
    found = re.findall(r'<g id="node\d+" class="node">\s*<title>([^<]+)</title>', svg)
    return {html.unescape(name) for name in found}


def test_graph_of_a_trace_draws_every_node_the_recall_ran_with_its_time(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("pygraphviz")
    result = recalled(capsys, tenant)
    trace = result["trace"]
    out = tmp_path / "trace.svg"
    code, printed, _ = run(
        capsys, "graph", "--trace", trace["id"], *who(tenant), "--out", str(out), "--json"
    )
    assert code == 0 and json.loads(printed)["out"] == str(out)
    svg = out.read_text()
    names = _svg_titles(svg)
    assert {n["node"] for n in trace["lineage"]} <= names
    for node in trace["lineage"]:  # each node's measured time is on the picture
        assert f"{node['wall_ms']:.2f} ms" in svg
    lexical = next(a for a in trace["arms"] if a["arm"] == "lexical_hits")
    assert f"{len(lexical['hits'])} hits" in svg
    assert "external_hits" in names and "skipped arm" in svg  # no provider: skipped, marked


def test_graph_diff_of_two_traces_shows_items_gained_and_lost(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("pygraphviz")
    a = recalled(capsys, tenant)
    b = recalled(capsys, tenant, "Which editor does Ada use?")
    out = tmp_path / "diff.svg"
    args = ["graph", "--diff", a["trace"]["id"], b["trace"]["id"], *who(tenant)]
    code, printed, _ = run(capsys, *args, "--out", str(out), "--json")
    summary = json.loads(printed)
    gained = set(b["trace"]["rendered_ids"]) - set(a["trace"]["rendered_ids"])
    lost = set(a["trace"]["rendered_ids"]) - set(b["trace"]["rendered_ids"])
    assert code == 0 and gained and lost
    assert {g.split(" ")[0] for g in summary["items"]["gained"]} == gained
    assert {x.split(" ")[0] for x in summary["items"]["lost"]} == lost
    svg = html.unescape(out.read_text())  # Graphviz writes "-" as "&#45;"
    assert all(i in svg for i in gained | lost)
    assert {n["node"] for n in b["trace"]["lineage"]} <= _svg_titles(svg)


def test_graph_diff_of_two_policies_lists_the_fields_that_differ(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from recallflow.policy import DEFAULT_POLICY

    changed = DEFAULT_POLICY.model_copy(update={"rrf_k": 30})
    policy_file = tmp_path / "small.json"
    policy_file.write_text(changed.model_dump_json())
    out = tmp_path / "diff.dot"
    code, _, _ = run(capsys, "graph", "--diff", "default", str(policy_file), "--out", str(out))
    dot = out.read_text()
    assert code == 0 and "policy.rrf_k" in dot
    assert "config differing (1)" in dot


def test_graph_diff_of_two_module_sets_marks_the_swapped_node(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "diff.dot"
    code, _, _ = run(
        capsys,
        "graph",
        "--diff",
        "default",
        "modules:tests.experiment_render",
        "--out",
        str(out),
    )
    dot = out.read_text()
    assert code == 0 and "swapped: recallflow.nodes." in dot and "tests.experiment_render" in dot


# --- bad input ------------------------------------------------------------------------------


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "recallflow.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "RECALLFLOW_EMBEDDER": "hashing", "HOME": "/nonexistent"},
    )


T = ["--tenant", "t", "--principal", "p"]
BAD_INPUT = {
    "session without a subcommand": ["session"],
    "session open bad kind": ["session", "open", *T, "--kind", "forever"],
    "session open bad project": ["session", "open", *T, "--project", "a b"],
    "session recall bad id": ["session", "recall", "s 1", "q", *T],
    "session recall no query": ["session", "recall", "s-1", *T],
    "session show no principal": ["session", "show", "s-1", "--tenant", "t"],
    "reject without kind": ["reject", "tr-1", "b-1", *T],
    "reject bad kind": ["reject", "tr-1", "b-1", "--kind", "wrong", *T],
    "reject bad belief": ["reject", "tr-1", "b 1", "--kind", "not_true", *T],
    "reject replacement of not_true": [
        "reject",
        "tr-1",
        "b-1",
        "--kind",
        "not_true",
        "--replacement",
        "x",
        *T,
    ],
    "reject project of not_true": [
        "reject",
        "tr-1",
        "b-1",
        "--kind",
        "not_true",
        "--project",
        "alpha",
        *T,
    ],
    "reject over-long note": [
        "reject",
        "tr-1",
        "b-1",
        "--kind",
        "unspecified",
        "--note",
        "n" * 1001,
        *T,
    ],
    "reject blank note": ["reject", "tr-1", "b-1", "--kind", "unspecified", "--note", " ", *T],
    "cite no belief": ["cite", "tr-1", *T],
    "cite bad trace": ["cite", "tr 1", "b-1", *T],
    "belief without a subcommand": ["belief"],
    "belief history bad id": ["belief", "history", "b 1", *T],
    "belief history no principal": ["belief", "history", "b-1", "--tenant", "t"],
    "forget no principal": ["forget", "--tenant", "t", "--yes"],
    "forget unattended": ["forget", *T],
    "graph nothing": ["graph"],
    "graph two things": ["graph", "in_turn", "--trace", "tr-1"],
    "graph trace without principal": ["graph", "--trace", "tr-1", "--tenant", "t"],
    "graph diff unknown side": ["graph", "--diff", "default", "no-such-policy"],
    "graph diff missing module": ["graph", "--diff", "default", "modules:no.such.module"],
    "graph diff relative module": ["graph", "--diff", "default", "modules:.nodes"],
    "graph diff malformed trace id": ["graph", "--diff", "tr-a b", "default", *T],
    "graph to a missing directory": ["graph", "in_turn", "--out", "/dev/null/stages.svg"],
    "demo graph to a missing directory": ["demo", "--graph-out", "/dev/null/stages.svg"],
}


#: Bad input to ``unflag`` and ``supersede``, and what the one line names.
BAD_FOLLOW_UPS = {
    "unflag bad belief id": (["unflag", "b 1", *T], "argument belief_id: "),
    "unflag bad trace": (["unflag", "b-1", "--trace", "tr 1", *T], "argument --trace: "),
    "unflag blank note": (["unflag", "b-1", "--note", " ", *T], "argument --note: is empty"),
    "unflag no principal": (["unflag", "b-1", "--tenant", "t"], "--principal"),
    "supersede no statement": (["supersede", "b-1", *T], "statement"),
    "supersede blank statement": (["supersede", "b-1", " ", *T], "argument statement: "),
    "supersede bad new id": (["supersede", "b-1", "x", "--id", "b 2", *T], "argument --id: "),
    "supersede time without zone": (
        ["supersede", "b-1", "x", "--valid-from", "2026-01-01", *T],
        "argument --valid-from: '2026-01-01' has no timezone",
    ),
}


@pytest.mark.parametrize(("args", "named"), BAD_FOLLOW_UPS.values(), ids=BAD_FOLLOW_UPS.keys())
def test_bad_input_to_unflag_and_supersede_is_one_line_naming_it(
    args: list[str], named: str
) -> None:
    done = cli(*args)
    assert done.returncode == EXIT_USAGE, done.stderr
    assert done.stdout == "" and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"recallflow {args[0]}: error: ") and named in done.stderr


@pytest.mark.parametrize("args", BAD_INPUT.values(), ids=BAD_INPUT.keys())
def test_bad_input_exits_2_with_one_line(args: list[str]) -> None:
    done = cli(*args)
    assert done.returncode == EXIT_USAGE, done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("recallflow")


@pytest.mark.parametrize(
    "args",
    [
        ["graph", "in_turn", "--moment", "child_run"],
        ["graph", "--trace", "tr-1", *T, "--moment", "child_run"],
        ["graph", "--diff", "tr-1", "tr-2", *T, "--moment", "session_snapshot"],
        ["trace", "tr-1", *T, "--view", "operator", "--surface", "public"],
    ],
)
def test_a_flag_the_form_does_not_take_is_refused_not_ignored(
    args: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``graph in_turn --moment child_run`` drew in_turn, and ``trace --view operator
    --surface public`` printed the whole trace: the flag was dropped without a word. Each
    is refused before a store (unreachable here) is opened or a file written."""
    monkeypatch.setenv("RECALLFLOW_DSN", "postgresql://nobody@127.0.0.1:1/none")
    out = tmp_path / "graph.dot"
    code = main(args + (["--out", str(out)] if args[0] == "graph" else []))
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and err.count("\n") == 1, err
    assert err.startswith(f"recallflow {args[0]}: error: ") and not out.exists()
    assert ("--moment" if args[0] == "graph" else "--surface") in err


def test_a_refused_turn_query_is_named_as_the_argument_it_was_given_as() -> None:
    done = cli("session", "recall", "s-1", "q" * 4001, *T)
    assert done.returncode == EXIT_USAGE and done.stderr.count("\n") == 1
    assert "error: query: String should have at most 4000 characters" in done.stderr
    assert "--goal" not in done.stderr  # session recall has no such flag


@pytest.mark.parametrize(
    ("source", "raised"),
    [("raise RuntimeError('not today')\n", "RuntimeError: not today"), ("def (:\n", "SyntaxError")],
)
def test_a_module_set_whose_import_fails_is_one_line_naming_it(
    tmp_path: Path, source: str, raised: str
) -> None:
    """A module of ``graph --diff modules:...`` that raises while it is imported is the
    user's module failing: exit 2, one line naming it and what it raised, no traceback."""
    (tmp_path / "broken_nodes.py").write_text(source)
    root = Path(__file__).resolve().parents[1]
    args = ["graph", "--diff", "default", "modules:broken_nodes", "--out", str(tmp_path / "d.dot")]
    done = subprocess.run(
        [sys.executable, "-m", "recallflow.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{root}:{tmp_path}", "HOME": "/nonexistent"},
    )
    assert done.returncode == EXIT_USAGE, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "--diff: modules:broken_nodes: importing 'broken_nodes' failed" in done.stderr
    assert raised in done.stderr and not (tmp_path / "d.dot").exists()


def test_ids_not_in_the_store_exit_1_with_one_line(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    trace_id = recalled(capsys, tenant)["trace"]["id"]
    for args in (
        ["session", "recall", "s-missing", "q", *who(tenant)],
        ["cite", "tr-missing", "b-mob-money", *who(tenant)],
        ["reject", trace_id, "b-never-shown", "--kind", "not_true", *who(tenant)],
        ["graph", "--trace", "tr-missing", *who(tenant), "--out", "x.dot"],
        ["belief", "history", "b-missing", *who(tenant)],
        ["belief", "history", "b-mob-money", "--tenant", tenant, "--principal", "someone-else"],
    ):
        code, out, err = run(capsys, *args)
        assert code in (EXIT_FAILURE, EXIT_USAGE), args
        assert out == "" and err.count("\n") == 1 and "error:" in err


def test_another_owners_ids_fail_word_for_word_as_missing_ones(
    store: Memory, tenant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A trace, session and belief of another principal of the tenant, or of the same
    principal id in another tenant: every command naming one exits and prints exactly as
    for an id nobody holds, and leaves it as it was."""
    own = recalled(capsys, tenant)["trace"]["id"]
    others = ((tenant, "someone-else"), (f"{tenant}-b", demo.PRINCIPAL))
    for t, p in others:
        store.beliefs.add(belief(t, p, id="b-theirs", statement="Theirs.", subject="theirs"))
    for t, p in others:
        trace_id = store.recall(request(t, p, "theirs")).trace_id
        session_id = store.open_session(t, p, goal={"goal": "theirs"}).id
        for ids, missing in (
            ((trace_id,), "tr-" + "0" * 16),
            ((session_id,), "s-" + "0" * 16),
            (("b-theirs",), "b-nowhere"),
        ):
            commands = {
                "tr": [["trace", "{}", *who(tenant)], ["trace", "{}", "--view", "operator",
                       *who(tenant)], ["cite", "{}", "b-mob-money", *who(tenant)],
                       ["reject", "{}", "b-mob-money", "--kind", "not_true", *who(tenant)],
                       ["graph", "--trace", "{}", *who(tenant), "--out", "x.dot"]],
                "s-": [["session", "recall", "{}", "q", *who(tenant)],
                       ["session", "show", "{}", *who(tenant)],
                       ["session", "end", "{}", *who(tenant)]],
                "b-": [["belief", "history", "{}", *who(tenant)],
                       ["cite", own, "{}", *who(tenant)],
                       ["reject", own, "{}", "--kind", "changed", "--replacement", "x",
                        *who(tenant)],
                       ["forget", "--belief", "{}", "--yes", *who(tenant)]],
            }[missing[:2]]  # fmt: skip
            for command in commands:
                outcomes = []
                for named in (ids[0], missing):
                    code, out, err = run(capsys, *[a.format(named) for a in command])
                    outcomes.append((code, out, err.replace(named, "ID")))
                assert outcomes[0] == outcomes[1], command
                assert outcomes[0][0] != 0 and outcomes[0][2].count("\n") == 1, outcomes
        assert store.beliefs.get(t, p, "b-theirs").statement == "Theirs."
        assert store.resume_session(t, p, session_id).id == session_id


def test_a_policy_file_that_is_not_a_policy_is_named_with_what_is_wrong(tmp_path: Path) -> None:
    not_json = tmp_path / "policy.json"
    not_json.write_text("{not json")
    done = cli("graph", "--diff", "default", str(not_json), "--out", str(tmp_path / "d.dot"))
    assert done.returncode == EXIT_USAGE and done.stderr.count("\n") == 1
    assert f"--diff: {not_json}: Invalid JSON" in done.stderr and ": :" not in done.stderr
    assert not (tmp_path / "d.dot").exists()


def test_a_policy_file_not_in_utf8_is_refused_as_json_whatever_the_locale(tmp_path: Path) -> None:
    # Read as bytes, so the JSON is decoded as UTF-8 (what JSON is) and not with the
    # locale's encoding; a Latin-1 file is told as invalid JSON, not as a codec's error.
    latin = tmp_path / "policy.json"
    latin.write_bytes('{"version": "caf\u00e9"}'.encode("latin-1"))
    done = cli("graph", "--diff", "default", str(latin), "--out", str(tmp_path / "d.dot"))
    assert done.returncode == EXIT_USAGE and done.stderr.count("\n") == 1
    assert f"--diff: {latin}: Invalid JSON" in done.stderr and "codec" not in done.stderr
    assert not (tmp_path / "d.dot").exists()


@pytest.mark.parametrize("replacement", ["", " \u200b ", "z" * 4001])
def test_a_replacement_no_statement_could_hold_is_refused_as_the_flag(replacement: str) -> None:
    done = cli("reject", "tr-1", "b-1", "--kind", "changed", "--replacement", replacement, *T)
    assert done.returncode == EXIT_USAGE and done.stderr.count("\n") == 1
    assert "argument --replacement:" in done.stderr and "field" not in done.stderr
