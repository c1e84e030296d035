"""Reported misses: a user or an agent says a recall should have shown something it did not
(a belief the principal holds, or what should have been remembered in words). Inferred
hints only see recalls with nothing above the floor; a recall that showed something, just
not the right thing, reaches formation only when it is said (see "Miss hints" in
docs/corrections.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from recallflow import InvalidInputError, Memory, NotFoundError
from recallflow.cli.main import main
from recallflow.tools import TOOLS, Toolset
from tests.helpers import belief, patient_policy, request

SPECS = {spec.name: spec for spec in TOOLS}
EDITOR = "Which editor does the user write code in?"


def store(memory: Memory, tenant: str, principal: str = "p1") -> None:
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                principal,
                id="b-editor",
                statement="The user writes code in Helix.",
                subject="editor",
                entities=["helix"],
            ),
            belief(
                tenant,
                principal,
                id="b-deploy",
                statement="billing-api deploys to Fly.io with fly deploy.",
                subject="billing deploy",
                entities=["fly-io"],
            ),
            belief(
                tenant,
                principal,
                id="b-health",
                statement="The user gets migraines under bright light.",
                subject="health",
                sensitivity="personal",
            ),
        ]
    )


def shown(memory: Memory, tenant: str, principal: str = "p1") -> tuple[str, tuple[str, ...]]:
    """A stored recall about the editor: its trace id and what it rendered."""
    result = memory.recall(request(tenant, principal, goal=EDITOR), policy=patient_policy())
    assert "b-editor" in result.rendered_ids and "b-deploy" not in result.rendered_ids
    return result.trace_id, result.rendered_ids


def reports(memory: Memory, tenant: str) -> int:
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM reported_misses WHERE tenant_id = %s", (tenant,)
        ).fetchone()
    assert row is not None
    return int(row[0])


# --- Python ---------------------------------------------------------------------------------


def test_a_reported_miss_is_pending_beside_the_inferred_hints_and_told_apart(
    memory: Memory, tenant: str
) -> None:
    store(memory, tenant)
    trace_id, _ = shown(memory, tenant)
    # An inferred hint: the same subject recalled with nothing above the floor.
    inferred = memory.recall(
        request(tenant, goal="Kubernetes cluster", working_state={"entities": ["Kubernetes"]}),
        policy=patient_policy().model_copy(
            update={"feedback": patient_policy().feedback.model_copy(update={"miss_threshold": 1})}
        ),
    )
    assert inferred.items == ()
    by_belief = memory.miss_hints.report(
        tenant, "p1", trace_id, belief_id="b-deploy", note="I told you how we deploy"
    )
    in_words = memory.miss_hints.report(
        tenant, "p1", trace_id, expected="The user pairs with Grace on Tuesdays."
    )
    assert by_belief.recorded and in_words.recorded
    pending = memory.miss_hints.pending(tenant, "p1")
    assert [(h.kind, h.subject) for h in pending] == [
        ("inferred", "kubernetes"),
        ("reported", "billing-deploy"),
        ("reported", "The user pairs with Grace on Tuesdays."),
    ]
    reported = pending[1]
    assert (reported.trace_id, reported.belief_id, reported.note) == (
        trace_id,
        "b-deploy",
        "I told you how we deploy",
    )
    assert reported.id == by_belief.hint.id and reported.miss_count == 1
    assert pending[0].id is None and pending[0].trace_id is None
    # Acknowledged by its id, once; the inferred hint is not touched.
    report_id = reported.id
    assert report_id is not None
    acked = memory.miss_hints.ack_report(tenant, "p1", report_id)
    assert acked.acknowledged_at is not None
    assert memory.miss_hints.ack_report(tenant, "p1", report_id) == acked
    assert [h.kind for h in memory.miss_hints.pending(tenant, "p1")] == ["inferred", "reported"]


def test_the_same_report_of_the_same_recall_is_stored_once(memory: Memory, tenant: str) -> None:
    store(memory, tenant)
    trace_id, _ = shown(memory, tenant)
    first = memory.miss_hints.report(tenant, "p1", trace_id, belief_id="b-deploy")
    again = memory.miss_hints.report(tenant, "p1", trace_id, belief_id="b-deploy", note="again")
    assert first.recorded and not again.recorded and again.hint == first.hint
    assert reports(memory, tenant) == 1
    # Another recall missing it is another report.
    other, _ = shown(memory, tenant)
    assert memory.miss_hints.report(tenant, "p1", other, belief_id="b-deploy").recorded


def test_a_report_that_says_nothing_or_names_what_was_shown_writes_nothing(
    memory: Memory, tenant: str
) -> None:
    store(memory, tenant)
    store(memory, tenant, "p2")
    trace_id, rendered = shown(memory, tenant)
    theirs, _ = shown(memory, tenant, "p2")
    with pytest.raises(InvalidInputError) as nothing:
        memory.miss_hints.report(tenant, "p1", trace_id)
    assert nothing.value.field == "expected"
    with pytest.raises(InvalidInputError) as blank:
        memory.miss_hints.report(tenant, "p1", trace_id, expected="\u200b ")
    assert blank.value.field == "expected"
    with pytest.raises(InvalidInputError) as long_note:
        memory.miss_hints.report(tenant, "p1", trace_id, expected="x", note="n" * 1001)
    assert long_note.value.field == "note"
    # A belief the recall showed was not missed.
    with pytest.raises(InvalidInputError) as was_shown:
        memory.miss_hints.report(tenant, "p1", trace_id, belief_id=rendered[0])
    assert was_shown.value.field == "belief_id" and "not missed" in str(was_shown.value)
    # Another principal's trace or belief is not found, word for word like a missing one.
    with pytest.raises(NotFoundError) as crossed:
        memory.miss_hints.report(tenant, "p1", theirs, expected="x")
    with pytest.raises(NotFoundError) as missing:
        memory.miss_hints.report(tenant, "p1", "tr-missing", expected="x")
    assert str(crossed.value) == str(missing.value).replace("tr-missing", theirs)
    memory.beliefs.add(belief(tenant, "p2", id="b-only-p2", statement="Bob uses Emacs."))
    with pytest.raises(NotFoundError) as not_held:
        memory.miss_hints.report(tenant, "p1", trace_id, belief_id="b-only-p2")
    assert "b-only-p2" in str(not_held.value)
    assert reports(memory, tenant) == 0


def test_a_belief_the_sessions_prefix_holds_was_not_missed_by_its_turn(
    memory: Memory, tenant: str
) -> None:
    store(memory, tenant)
    session = memory.open_session(tenant, "p1", goal={"goal": EDITOR}, policy=patient_policy())
    assert "b-editor" in session.snapshot_ids
    turn = session.recall({"goal": "How does billing-api deploy?", "entities": ["fly-io"]})
    with pytest.raises(InvalidInputError) as held:
        memory.miss_hints.report(tenant, "p1", turn.trace_id, belief_id="b-editor")
    assert held.value.field == "belief_id" and session.id in str(held.value)
    assert reports(memory, tenant) == 0


def test_reports_travel_with_an_export_and_go_with_what_they_name(
    memory: Memory, tenant: str
) -> None:
    store(memory, tenant)
    trace_id, _ = shown(memory, tenant)
    named = memory.miss_hints.report(tenant, "p1", trace_id, belief_id="b-deploy").hint
    said = memory.miss_hints.report(tenant, "p1", trace_id, expected="Grace reviews on Fridays.")
    export = memory.export_principal(tenant, "p1")
    assert [r.id for r in export.reported_misses] == [named.id, said.hint.id]
    assert trace_id in [t.id for t in export.traces]  # the recall they refer to travels too
    memory.import_principal(export, tenant_id=f"{tenant}-copy")
    copied = memory.miss_hints.pending(f"{tenant}-copy", "p1")
    assert [(h.id, h.trace_id, h.belief_id, h.expected) for h in copied] == [
        (h.id, h.trace_id, h.belief_id, h.expected) for h in memory.miss_hints.pending(tenant, "p1")
    ]
    # Forgetting the belief forgets the report that names it; the one in words stays.
    erased = memory.forget_belief(tenant, "p1", "b-deploy")
    assert erased.deleted["reported_misses"] == 1
    assert [h.id for h in memory.miss_hints.pending(tenant, "p1")] == [said.hint.id]
    assert memory.forget(tenant, "p1").deleted["reported_misses"] == 1
    memory.forget(f"{tenant}-copy", "p1")


def test_a_report_in_the_words_of_a_forgotten_belief_or_episode_is_forgotten_with_it(
    memory: Memory, tenant: str
) -> None:
    """The user says "you should have remembered that the user's dog is allergic to
    chicken", formation writes exactly that as a belief, and the user then forgets it:
    the report's words are the belief's statement, and stayed pending (and exported) after
    the erasure. So with an episode pasted as the words of a report."""
    store(memory, tenant)
    trace_id, _ = shown(memory, tenant)
    words = "The user's dog is allergic to chicken."
    pasted = "Ada: remember that I pair with Grace on Tuesdays."
    other = "Grace reviews on Fridays."
    for expected in (words, pasted, other):
        memory.miss_hints.report(tenant, "p1", trace_id, expected=expected, note="you forgot")
    memory.beliefs.add(belief(tenant, "p1", id="b-dog", statement=words, subject="dog"))
    episode = memory.episodes.add(
        {"tenant_id": tenant, "principal_id": "p1", "content": pasted,
         "occurred_at": "2026-03-01T09:00:00Z"}
    )  # fmt: skip
    assert memory.forget_belief(tenant, "p1", "b-dog").deleted["reported_misses"] == 1
    assert memory.forget_episode(tenant, "p1", episode.id).deleted["reported_misses"] == 1
    left = [h.expected for h in memory.miss_hints.pending(tenant, "p1")]
    assert left == [other]  # words of its own stay
    exported = memory.export_principal(tenant, "p1").model_dump_json()
    assert "allergic to chicken" not in exported and "on Tuesdays" not in exported


# --- the tool ------------------------------------------------------------------------------


def test_report_miss_records_what_the_user_says_was_missed(memory: Memory, tenant: str) -> None:
    store(memory, tenant)
    tools = Toolset(memory, tenant_id=tenant, principal_id="p1", policy=patient_policy())
    recall = tools.call("recall_beliefs", {"goal": EDITOR})
    arguments = {"trace_id": recall["trace_id"], "belief_id": "b-deploy", "note": "you knew"}
    first = tools.call("report_miss", arguments)
    assert "error" not in first, first
    assert first["recorded"] is True and first["belief_id"] == "b-deploy"
    assert tools.call("report_miss", arguments) == {**first, "recorded": False}
    [pending] = memory.miss_hints.pending(tenant, "p1")
    assert (pending.kind, pending.id, pending.note) == ("reported", first["report_id"], "you knew")


def _error(result: dict[str, Any]) -> tuple[str, str | None]:
    assert set(result) == {"error"}, result
    return result["error"]["type"], result["error"]["field"]


def test_report_miss_refuses_by_name_and_writes_nothing(memory: Memory, tenant: str) -> None:
    store(memory, tenant)
    store(memory, tenant, "p2")
    tools = Toolset(memory, tenant_id=tenant, principal_id="p1", policy=patient_policy())
    theirs = Toolset(memory, tenant_id=tenant, principal_id="p2", policy=patient_policy())
    recall = tools.call("recall_beliefs", {"goal": EDITOR})
    trace_id, rendered = recall["trace_id"], recall["items"][0]["belief_id"]
    their_trace = theirs.call("recall_beliefs", {"goal": EDITOR})["trace_id"]
    calls: list[tuple[dict[str, Any], tuple[str, str | None]]] = [
        ({"trace_id": trace_id}, ("invalid_arguments", "expected")),
        ({"trace_id": trace_id, "expected": " \u200b"}, ("invalid_arguments", "expected")),
        ({"trace_id": trace_id, "expected": "x", "principal_id": "p2"},
         ("invalid_arguments", "principal_id")),
        ({"trace_id": trace_id, "belief_id": rendered}, ("invalid_input", "belief_id")),
        ({"trace_id": trace_id, "belief_id": "b-missing"}, ("not_found", "belief_id")),
        ({"trace_id": their_trace, "expected": "x"}, ("not_found", "trace_id")),
    ]  # fmt: skip
    for arguments, expected in calls:
        assert _error(tools.call("report_miss", arguments)) == expected, arguments
    # A narrower surface gets the same answer for a belief above its ceiling as for one
    # nobody has, and the same for a trace shown on a wider surface as for a missing one.
    public = Toolset(
        memory, tenant_id=tenant, principal_id="p1", surface="public", policy=patient_policy()
    )
    public_trace = public.call("recall_beliefs", {"goal": EDITOR})["trace_id"]
    above = public.call("report_miss", {"trace_id": public_trace, "belief_id": "b-health"})
    nobody = public.call("report_miss", {"trace_id": public_trace, "belief_id": "b-nobody"})
    assert json.dumps(above).replace("b-health", "ID") == json.dumps(nobody).replace(
        "b-nobody", "ID"
    )
    wider = public.call("report_miss", {"trace_id": trace_id, "expected": "x"})
    missing = public.call("report_miss", {"trace_id": "tr-missing", "expected": "x"})
    assert wider == json.loads(json.dumps(missing).replace("tr-missing", trace_id))
    assert reports(memory, tenant) == 0


# --- the command line ----------------------------------------------------------------------


def test_a_person_reports_a_miss_and_lists_the_pending_hints(
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    monkeypatch.setenv("RECALLFLOW_DSN", memory.uri)
    store(memory, tenant)
    trace_id, _ = shown(memory, tenant)
    who = ["--tenant", tenant, "--principal", "p1"]
    said = ["--expected", "The user pairs with Grace on Tuesdays.", "--note", "every week"]
    assert main(["miss", "report", trace_id, *said, *who]) == 0
    first = capsys.readouterr().out
    assert "recorded as m-" in first
    assert main(["miss", "report", trace_id, *said, *who, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["recorded"] is False and again["hint"]["note"] == "every week"
    assert main(["miss", "report", trace_id, *who]) == 2
    assert "--expected" in capsys.readouterr().err
    assert main(["miss", "report", trace_id, "--belief", "b-editor", *who]) == 2
    assert "not missed" in capsys.readouterr().err
    assert main(["miss", "list", *who]) == 0
    listed = capsys.readouterr().out
    assert "reported" in listed and "pairs with Grace" in listed and "1 pending" in listed
    assert main(["miss", "list", *who, "--json"]) == 0
    [hint] = json.loads(capsys.readouterr().out)
    assert (hint["kind"], hint["trace_id"]) == ("reported", trace_id)
    assert reports(memory, tenant) == 1


def test_a_belief_the_principal_lacks_is_named_by_the_flag_that_gave_it(
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The id came from --belief, so the one line says --belief, as every refusal of a typed
    # value does; another principal's belief reads word for word as one nobody has.
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    monkeypatch.setenv("RECALLFLOW_DSN", memory.uri)
    store(memory, tenant)
    store(memory, tenant, "p2")
    memory.beliefs.add(belief(tenant, "p2", id="b-only-p2", statement="P2 uses vim."))
    trace_id, _ = shown(memory, tenant)
    who = ["--tenant", tenant, "--principal", "p1"]
    lines = []
    for missing in ("b-nobody", "b-only-p2"):
        assert main(["miss", "report", trace_id, "--belief", missing, *who]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "field '" not in err
        lines.append(err.replace(missing, "ID"))
    assert lines[0] == lines[1]
    assert lines[0].startswith("recallflow miss report: error: --belief: no belief 'ID'")
    assert reports(memory, tenant) == 0


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"note": "n" * 1001}, "reported_misses.note"),
        ({"note": " \u200b "}, "reported_misses.note"),
        ({"expected": "x" * 4001}, "reported_misses.expected"),
        ({"expected": "\t"}, "reported_misses.expected"),
    ],
)
def test_an_import_takes_only_a_report_the_store_would_take(
    memory: Memory, tenant: str, change: dict[str, str], field: str
) -> None:
    # A report's words are bounded and visible at every entry point: an edited export
    # that says more, or nothing, is refused naming the item and field, nothing written.
    store(memory, tenant)
    trace_id, _ = shown(memory, tenant)
    memory.miss_hints.report(tenant, "p1", trace_id, expected="Grace reviews.", note="weekly")
    exported = memory.export_principal(tenant, "p1").model_dump(mode="json")
    exported["reported_misses"][0].update(change)
    with pytest.raises(InvalidInputError) as refused:
        memory.import_principal(exported, tenant_id=f"{tenant}-copy")
    assert (refused.value.field, refused.value.item_index) == (field, 0)
    assert memory.beliefs.list(f"{tenant}-copy", "p1") == []
    assert reports(memory, f"{tenant}-copy") == 0
