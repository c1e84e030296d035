"""Clearing a flag (``unflag``): an ``unspecified`` rejection flags a belief, and the user
who flagged it by mistake, or checked it and found it right, takes the flag back — as an
event as durable as the flag itself, on the real embedded server (see "Clearing a flag"
in docs/corrections.md)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import (
    AsyncMemory,
    InvalidInputError,
    LifecycleState,
    Memory,
    NotFoundError,
    RecallResult,
    Surface,
)
from recallflow.errors import NotRenderedError
from recallflow.models.result import CorrectionKind
from recallflow.tools import Toolset
from tests.test_feedback import recall, rederived, rows, store
from tests.test_sessions import corrected, open_plain, seed

FLAG = "flagged as possibly wrong"


@pytest.fixture
def shown(memory: Memory, tenant: str) -> RecallResult:
    store(memory, tenant)
    result = recall(memory, tenant)
    assert {"b-editor", "b-shell"} <= set(result.rendered_ids)
    return result


def flag(memory: Memory, tenant: str, trace_id: str, belief_id: str = "b-shell") -> None:
    assert memory.reject(tenant, "p1", trace_id, belief_id, "unspecified").recorded


def kinds(memory: Memory, tenant: str, belief_id: str) -> list[str]:
    return [e.kind.value for e in memory.beliefs.history(tenant, "p1", belief_id).events]


def line_of(result: RecallResult, belief_id: str) -> str:
    return next(x for x in result.block.splitlines() if f"[{belief_id}]" in x)


def test_a_cleared_flag_is_recalled_at_full_weight_and_no_longer_tagged(
    memory: Memory, tenant: str, shown: RecallResult
) -> None:
    """Flagged by mistake, a belief stayed down-weighted and tagged for good: nothing but
    an edit of its row took the flag back."""
    flag(memory, tenant, shown.trace_id)
    flagged = recall(memory, tenant)
    assert FLAG in line_of(flagged, "b-shell")
    done = memory.unflag(tenant, "p1", "b-shell", note="checked: it is right")
    assert done.recorded and not done.belief.flagged and done.trace_id is None
    assert done.belief.state is LifecycleState.ACTIVE
    assert not memory.beliefs.get(tenant, "p1", "b-shell").flagged
    later = recall(memory, tenant)
    assert FLAG not in later.block
    entry = next(e for e in later.trace.scored if e.belief_id == "b-shell")
    assert "flagged" not in entry.breakdown.penalties
    assert not next(i for i in later.items if i.belief_id == "b-shell").flagged


def test_a_clear_is_in_the_beliefs_history_after_its_flag(
    memory: Memory, tenant: str, shown: RecallResult
) -> None:
    flag(memory, tenant, shown.trace_id)
    memory.unflag(tenant, "p1", "b-shell", trace_id=shown.trace_id, note="my mistake")
    events = memory.beliefs.history(tenant, "p1", "b-shell").events
    assert [e.kind.value for e in events] == ["created", "rejected_unspecified", "unflagged"]
    assert (events[-1].trace_id, events[-1].note, events[-1].surface) == (
        shown.trace_id,
        "my mistake",
        Surface.DIRECT,
    )


def test_clearing_a_belief_that_is_not_flagged_records_nothing(
    memory: Memory, tenant: str, shown: RecallResult
) -> None:
    """A clear of a belief never flagged, or a retry of a clear, is a no-op that says so."""
    before = rows(memory, tenant)
    assert not memory.unflag(tenant, "p1", "b-shell").recorded
    assert rows(memory, tenant) == before
    flag(memory, tenant, shown.trace_id)
    assert memory.unflag(tenant, "p1", "b-shell").recorded
    after = rows(memory, tenant)
    again = memory.unflag(tenant, "p1", "b-shell")
    assert not again.recorded and not again.belief.flagged
    assert rows(memory, tenant) == after


def test_a_flag_cleared_can_be_given_again_from_the_same_recall(
    memory: Memory, tenant: str, shown: RecallResult
) -> None:
    """Once cleared, the same recall's ``unspecified`` rejection flags again — recorded as
    a repeat, it was a no-op that left the belief unflagged — and a retry of it is still
    one rejection."""
    flag(memory, tenant, shown.trace_id)
    memory.unflag(tenant, "p1", "b-shell")
    again = memory.reject(tenant, "p1", shown.trace_id, "b-shell", "unspecified")
    assert again.recorded and again.belief.flagged
    assert memory.beliefs.get(tenant, "p1", "b-shell").flagged
    retry = memory.reject(tenant, "p1", shown.trace_id, "b-shell", "unspecified")
    assert not retry.recorded
    assert kinds(memory, tenant, "b-shell") == [
        "created", "rejected_unspecified", "unflagged", "rejected_unspecified",
    ]  # fmt: skip
    # Every other kind is still recorded once per trace.
    cited = memory.cite(tenant, "p1", shown.trace_id, ["b-shell"])
    assert memory.cite(tenant, "p1", shown.trace_id, ["b-shell"]).already_cited == cited.cited


def test_a_cleared_flag_does_not_come_back_after_re_derivation(
    memory: Memory, tenant: str, shown: RecallResult
) -> None:
    """Re-derivation replays the flag and its clear in the order recorded: the re-derived
    belief is flagged only when the last of them is a flag."""
    flag(memory, tenant, shown.trace_id)
    memory.unflag(tenant, "p1", "b-shell")
    outcome = memory.rederive(tenant, "p1", rederived(tenant))
    shell = outcome.outcomes[1]
    assert "unflagged" in shell.replayed
    assert not memory.beliefs.get(tenant, "p1", shell.belief_id).flagged
    assert FLAG not in recall(memory, tenant).block


def test_a_clear_of_a_re_derived_flag_holds_at_the_next_re_derivation(
    memory: Memory, tenant: str, shown: RecallResult
) -> None:
    """A re-derivation writes the flag it replays onto its new belief with no event of
    its own, and leaves the flagged belief it took over from flagged; the clear of the new
    belief is recorded after both, and wins at the next re-derivation."""
    flag(memory, tenant, shown.trace_id)
    first = memory.rederive(tenant, "p1", rederived(tenant)).outcomes[1].belief_id
    assert memory.beliefs.get(tenant, "p1", first).flagged
    memory.unflag(tenant, "p1", first)
    assert memory.beliefs.get(tenant, "p1", "b-shell").flagged  # not live, still flagged
    drafts = rederived(tenant)
    drafts[1]["entities"] = ["shell", "fish"]  # other content again: written anew
    second = memory.rederive(tenant, "p1", drafts).outcomes[1]
    assert second.action == "corrected"
    assert not memory.beliefs.get(tenant, "p1", second.belief_id).flagged
    assert FLAG not in recall(memory, tenant).block
    # Flagged again since, it is flagged again re-derived.
    flag(memory, tenant, recall(memory, tenant).trace_id, first)
    drafts = rederived(tenant)
    drafts[1]["entities"] = ["fish"]
    third = memory.rederive(tenant, "p1", drafts).outcomes[1]
    assert memory.beliefs.get(tenant, "p1", third.belief_id).flagged


@settings(
    max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None
)
@given(steps=st.lists(st.sampled_from(["flag", "clear"]), min_size=1, max_size=5))
def test_flags_and_clears_then_re_derivation_recall_as_the_last_one_left_them(
    memory: Memory, steps: list[str]
) -> None:
    """Any sequence of flags and clears, then a re-derivation: the belief recalled is
    flagged exactly when the last step was a flag — a clear leaves it as never flagged."""
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    store(memory, tenant)
    for step in steps:
        trace = recall(memory, tenant).trace_id
        if step == "flag":
            memory.reject(tenant, "p1", trace, "b-shell", "unspecified")
        else:
            memory.unflag(tenant, "p1", "b-shell", trace_id=trace)
    outcome = memory.rederive(tenant, "p1", rederived(tenant))
    shell = memory.beliefs.get(tenant, "p1", outcome.outcomes[1].belief_id)
    assert shell.flagged == (steps[-1] == "flag")
    after = recall(memory, tenant)
    assert (FLAG in line_of(after, shell.id)) == (steps[-1] == "flag")


def test_another_principal_or_tenant_cannot_clear_a_flag(
    memory: Memory, tenant: str, shown: RecallResult
) -> None:
    flag(memory, tenant, shown.trace_id)
    before = rows(memory, tenant)
    for who in ((tenant, "p2"), (f"{tenant}-x", "p1")):
        with pytest.raises(NotFoundError, match="no belief 'b-shell'"):
            memory.unflag(*who, "b-shell")
    with pytest.raises(NotFoundError):  # nor from a recall of theirs
        memory.unflag(tenant, "p2", "b-shell", trace_id=shown.trace_id)
    assert rows(memory, tenant) == before
    assert memory.beliefs.get(tenant, "p1", "b-shell").flagged


@pytest.mark.parametrize(
    ("kwargs", "error", "field"),
    [
        ({"note": "n" * 1001}, InvalidInputError, "note"),
        ({"note": "\u200b"}, InvalidInputError, "note"),
        ({"trace_id": "tr bad"}, InvalidInputError, "trace_id"),
        ({"belief_id": ""}, InvalidInputError, "belief_id"),
        ({"belief_id": "b-missing"}, NotFoundError, None),
        ({"belief_id": "b-editor", "trace_id": "TRACE"}, NotFoundError, None),
    ],
)
def test_a_bad_clear_is_refused_by_name_and_writes_nothing(
    memory: Memory,
    tenant: str,
    shown: RecallResult,
    kwargs: dict[str, Any],
    error: type[Exception],
    field: str | None,
) -> None:
    flag(memory, tenant, shown.trace_id)
    flag(memory, tenant, shown.trace_id, "b-editor")
    before = rows(memory, tenant)
    args = {"belief_id": "b-shell", **kwargs}
    if args.get("trace_id") == "TRACE":
        args["trace_id"] = "tr-nobody-has"
    with pytest.raises(error) as refused:
        memory.unflag(tenant, "p1", args.pop("belief_id"), **args)
    if field is not None:
        assert getattr(refused.value, "field", None) == field
    assert rows(memory, tenant) == before
    assert memory.beliefs.get(tenant, "p1", "b-shell").flagged


def test_a_clear_from_a_recall_that_did_not_show_the_belief_is_refused(
    memory: Memory, tenant: str, shown: RecallResult
) -> None:
    flag(memory, tenant, shown.trace_id)
    memory.beliefs.add(
        {"id": "b-other", "tenant_id": tenant, "principal_id": "p1", "scope": "user",
         "statement": "The user drinks tea.", "subject": "drink", "belief_type": "preference"}
    )  # fmt: skip
    before = rows(memory, tenant)
    for bid in ("b-other", "b-nobody"):
        with pytest.raises(NotRenderedError) as refused:
            memory.unflag(tenant, "p1", bid, trace_id=shown.trace_id)
        assert refused.value.field == "belief_id"
    assert rows(memory, tenant) == before


def test_an_export_carries_the_clear_and_its_import_replays_it(
    memory: Memory, tenant: str, shown: RecallResult
) -> None:
    flag(memory, tenant, shown.trace_id)
    memory.unflag(tenant, "p1", "b-shell", note="right after all")
    export = memory.export_principal(tenant, "p1")
    assert [(f.kind, f.note) for f in export.feedback if f.belief_id == "b-shell"] == [
        ("rejected_unspecified", None),
        ("unflagged", "right after all"),
    ]
    memory.import_principal(export.model_dump_json(), principal_id="p9")
    moved = memory.beliefs.get(tenant, "p9", "b-shell")
    assert not moved.flagged
    history = memory.beliefs.history(tenant, "p9", "b-shell")
    assert [e.kind.value for e in history.events][-2:] == ["rejected_unspecified", "unflagged"]
    outcome = memory.rederive(tenant, "p9", rederived(tenant, "p9"))
    assert not memory.beliefs.get(tenant, "p9", outcome.outcomes[1].belief_id).flagged


def test_an_open_session_whose_prefix_showed_the_flag_is_told_it_was_cleared(
    memory: Memory, tenant: str
) -> None:
    seed(memory, tenant)
    opened_before = open_plain(memory, tenant)
    memory.reject(tenant, "p1", opened_before.info.snapshot_trace_id, "p-editor", "unspecified")
    session = open_plain(memory, tenant)
    assert "[p-editor]" in session.prefix_text and FLAG in session.prefix_text
    prefix = session.prefix
    memory.unflag(tenant, "p1", "p-editor")
    turn = session.recall({"goal": "which editor"})
    assert corrected(turn.trace) == [("p-editor", CorrectionKind.UNFLAGGED)]
    assert "- [p-editor] no longer flagged: The user edits with Neovim." in turn.block
    assert corrected(session.recall({"goal": "which editor"}).trace) == []
    assert session.prefix == prefix
    # The session opened before the flag was told of the flag by no turn: flagged and
    # cleared since, its prefix says what holds, and it is told nothing.
    assert corrected(opened_before.recall({"goal": "which editor"}).trace) == []


def test_the_asyncio_memory_clears_a_flag(memory: Memory, tenant: str, shown: RecallResult) -> None:
    flag(memory, tenant, shown.trace_id)

    async def clear() -> bool:
        async_memory = AsyncMemory(memory)
        done = await async_memory.unflag(tenant, "p1", "b-shell")
        again = await async_memory.corrections.unflag(tenant, "p1", "b-shell")
        return done.recorded and not again.recorded

    assert asyncio.run(clear())
    assert not memory.beliefs.get(tenant, "p1", "b-shell").flagged


def test_the_unflag_tool_clears_a_flag_the_trace_showed(
    memory: Memory, tenant: str, shown: RecallResult
) -> None:
    tools = Toolset(memory, tenant_id=tenant, principal_id="p1")
    assert "unflag_belief" in tools.names
    flag(memory, tenant, shown.trace_id)
    done = tools.call(
        "unflag_belief",
        {"trace_id": shown.trace_id, "belief_id": "b-shell", "note": "the user checked"},
    )
    assert done == {
        "trace_id": shown.trace_id, "belief_id": "b-shell", "state": "active", "recorded": True,
    }  # fmt: skip
    assert not memory.beliefs.get(tenant, "p1", "b-shell").flagged
    again = tools.call("unflag_belief", {"trace_id": shown.trace_id, "belief_id": "b-shell"})
    assert again["recorded"] is False
    # The model reads the clear in the belief's history; one made from no recall keeps its
    # note from the model, as a wider surface's recall does (whose words they were is unknown).
    flag(memory, tenant, recall(memory, tenant).trace_id)
    memory.unflag(tenant, "p1", "b-shell", note="said at the terminal")
    events = tools.call("belief_history", {"belief_id": "b-shell"})["events"]
    clears = [(e["trace_id"], e["note"]) for e in events if e["kind"] == "unflagged"]
    assert clears == [(shown.trace_id, "the user checked"), (None, None)]
    # The binding holds: a belief the trace did not show is refused as not rendered, and a
    # trace of a wider surface is not found; nothing is written.
    before = rows(memory, tenant)
    public = Toolset(memory, tenant_id=tenant, principal_id="p1", surface="public")
    refused = public.call("unflag_belief", {"trace_id": shown.trace_id, "belief_id": "b-shell"})
    assert refused["error"]["type"] == "not_found"
    missing = tools.call("unflag_belief", {"trace_id": shown.trace_id, "belief_id": "b-none"})
    assert (missing["error"]["type"], missing["error"]["field"]) == ("invalid_input", "belief_id")
    assert rows(memory, tenant) == before
