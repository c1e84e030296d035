"""What a session's correction says about a prefix belief's replacement: a disputed or
flagged replacement is told with its dispute or its flag (a replacement told bare reads as
settled), and one that does not hold in the session's project is told as such, not as one
the surface withholds."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from recallflow import Memory
from recallflow.core.corrections import abridged, correction_line, told_peers
from recallflow.models.request import Moment
from recallflow.models.result import Correction, CorrectionKind, CorrectionPeer
from recallflow.models.store import LifecycleState
from recallflow.policy import DEFAULT_POLICY
from tests.test_sessions import corrected, durable, open_plain, seed, turn_cap


def line_of(block: str, belief_id: str) -> str:
    return next(x for x in block.splitlines() if x.startswith(f"- [{belief_id}]"))


@pytest.mark.parametrize("other", ["holds here", "local to another project"])
def test_a_replacement_in_an_unresolved_conflict_is_told_as_disputed(
    memory: Memory, tenant: str, other: str
) -> None:
    """Superseded by a belief in an unresolved conflict, a prefix belief's line says the
    replacement is disputed and with what, in the words a recalled conflict is shown
    with — when a recall of the session would show the dispute: a member local to
    another project disputes nothing there."""
    seed(memory, tenant)
    memory.beliefs.add(durable(tenant, "b-ind", "The user indents with tabs."))
    session = open_plain(memory, tenant, project="beta")
    assert "b-ind" in session.snapshot_ids
    prefix = session.prefix
    local = {"scope": "project", "origin_project": "alpha", "portability": "local"}
    memory.beliefs.add_many(
        [
            durable(tenant, "b-ind2", "The user indents with four spaces.", state="conflicted",
                    conflict_set_id="cs-i", supersedes="b-ind"),
            durable(tenant, "b-ind4", "The user indents with two spaces.", state="conflicted",
                    conflict_set_id="cs-i", **(local if other != "holds here" else {})),
        ]
    )  # fmt: skip
    turn = session.recall({"goal": "indentation"})
    assert corrected(turn.trace) == [("b-ind", CorrectionKind.SUPERSEDED)]
    line = line_of(turn.block, "b-ind")
    assert line.startswith(
        "- [b-ind] no longer holds; replaced by [b-ind2]: The user indents with four spaces."
    )
    if other == "holds here":
        assert line.endswith(
            "; [b-ind2] is disputed (unresolved conflict cs-i) with:"
            " [b-ind4] The user indents with two spaces."
        )
        # Told in full, the disputing belief is named by the turn for feedback.
        assert "b-ind4" in told_peers(turn.trace.corrections)
    else:
        assert "disputed" not in line and "two spaces" not in line
    assert turn.trace.rendered_tokens <= turn_cap()
    # Told once; the prefix never changes.
    assert corrected(session.recall({"goal": "indentation"}).trace) == []
    assert session.prefix == prefix
    assert memory.resume_session(tenant, "p1", session.id).prefix == prefix


@pytest.mark.parametrize("admitted", [True, False])
def test_a_provisional_replacement_is_told_as_unconfirmed_where_a_turn_shows_it(
    memory: Memory, tenant: str, admitted: bool
) -> None:
    """A provisional replacement, which the session's own turn shows (tagged provisional),
    is quoted as unconfirmed — not told as a belief this surface does not show. Under a
    policy whose in-turn recall admits no provisional belief it is passed over as before."""
    seed(memory, tenant)
    states = dict(DEFAULT_POLICY.admissible_states)
    if not admitted:
        states[Moment.IN_TURN] = (LifecycleState.ACTIVE, LifecycleState.CONFLICTED)
    policy = DEFAULT_POLICY.model_copy(update={"admissible_states": states})
    session = open_plain(memory, tenant, policy=policy)
    memory.beliefs.add(
        durable(tenant, "p-long", "The user prefers long answers.", state="provisional",
                supersedes="p-concise")
    )  # fmt: skip
    turn = session.recall({"goal": "long answers"})
    assert ("p-long" in turn.rendered_ids) is admitted
    line = line_of(turn.block, "p-concise")
    if admitted:
        assert line == (
            "- [p-concise] no longer holds; replaced by [p-long]: The user prefers long"
            " answers.; [p-long] is unconfirmed (provisional): confirm before relying on it"
        )
    else:
        assert line == (
            "- [p-concise] no longer holds; replaced by a belief this surface does not show"
        )
    assert corrected(session.recall({"goal": "long answers"}).trace) == []


@pytest.mark.parametrize("end", ["retired", "expired", "secret, retired"])
def test_a_replacement_that_ended_since_is_told_as_ended(
    memory: Memory, tenant: str, end: str
) -> None:
    """A prefix belief whose replacement was itself ended before the turn (the user
    corrected a belief, then rejected the correction as not true) was told as "replaced by
    a belief this surface does not show", on a surface that withholds nothing: the agent
    was sent looking for a belief no surface shows. The line says the replacement no
    longer holds either; one above the surface's ceiling is still told as withheld, so the
    line says nothing of a belief the surface may not show."""
    seed(memory, tenant)
    session = open_plain(memory, tenant, surface="team")
    prefix = session.prefix
    secret = {"sensitivity": "secret"} if end.startswith("secret") else {}
    memory.supersede(
        "p-concise", durable(tenant, "p-long", "The user prefers long answers.", **secret)
    )
    if end.endswith("retired"):
        memory.retire(tenant, "p1", "p-long", "not true either")
    else:
        memory.expire(tenant, "p1", "p-long", at=datetime.now(UTC))
    turn = session.recall({"goal": "long answers"})
    assert corrected(turn.trace) == [("p-concise", CorrectionKind.SUPERSEDED)]
    line = line_of(turn.block, "p-concise")
    if secret:
        assert line.endswith("replaced by a belief this surface does not show")
    else:
        assert line == (
            "- [p-concise] no longer holds, and what replaced it no longer holds either"
        )
    assert "long answers" not in turn.block
    assert corrected(session.recall({"goal": "long answers"}).trace) == []
    assert memory.resume_session(tenant, "p1", session.id).prefix == prefix


def rederived(tenant: str, bid: str, statement: str) -> dict[str, Any]:
    """``statement`` derived again from the same source under a new id, its entities
    re-labelled: other content, so a re-derivation writes it as a new belief with the
    earlier one's corrections replayed onto it."""
    return durable(tenant, bid, statement, entities=["rederived"])


def test_a_flagged_beliefs_re_derived_successor_is_told_with_its_flag(
    memory: Memory, tenant: str
) -> None:
    seed(memory, tenant)
    session = open_plain(memory, tenant)
    prefix = session.prefix
    memory.reject(tenant, "p1", session.info.snapshot_trace_id, "p-editor", "unspecified")
    turn = session.recall({"goal": "which editor"})
    assert corrected(turn.trace) == [("p-editor", CorrectionKind.FLAGGED)]
    outcome = memory.rederive(
        tenant, "p1", [rederived(tenant, "p-editor2", "The user edits with Neovim.")]
    )
    assert [o.action for o in outcome.outcomes] == ["corrected"]
    turn = session.recall({"goal": "which editor"})
    assert corrected(turn.trace) == [("p-editor", CorrectionKind.SUPERSEDED)]
    assert line_of(turn.block, "p-editor") == (
        "- [p-editor] no longer holds; replaced by [p-editor2]: The user edits with Neovim.;"
        " [p-editor2] flagged as possibly wrong: confirm before relying on it"
    )
    assert corrected(session.recall({"goal": "which editor"}).trace) == []
    assert session.prefix == prefix


def test_a_not_here_beliefs_re_derived_successor_is_told_as_not_holding_here(
    memory: Memory, tenant: str
) -> None:
    """A prefix belief rejected as not here, then re-derived (the exclusion replayed onto
    its successor), is told its successor does not hold in this project either — not
    that this surface withholds one, which would hint at a belief that holds here."""
    seed(memory, tenant)
    session = open_plain(memory, tenant, project="alpha")
    trace = session.info.snapshot_trace_id
    memory.reject(tenant, "p1", trace, "p-editor", "not_here", project="alpha")
    turn = session.recall({"goal": "which editor"})
    assert corrected(turn.trace) == [("p-editor", CorrectionKind.EXCLUDED)]
    memory.rederive(tenant, "p1", [rederived(tenant, "p-editor2", "The user edits with Neovim.")])
    turn = session.recall({"goal": "which editor"})
    assert corrected(turn.trace) == [("p-editor", CorrectionKind.SUPERSEDED)]
    assert line_of(turn.block, "p-editor") == (
        "- [p-editor] no longer holds; replaced by a belief that does not hold in this project"
    )
    assert "Neovim" not in turn.block and "p-editor2" not in turn.block
    assert corrected(session.recall({"goal": "which editor"}).trace) == []


def test_the_short_form_keeps_a_replacements_flag_and_dispute() -> None:
    """Told in its short form (its whole line did not fit the turn's share), a
    replacement's flag and dispute are kept, by ids alone."""
    c = abridged(
        Correction(
            belief_id="b-1",
            kind=CorrectionKind.SUPERSEDED,
            replacement=CorrectionPeer(belief_id="b-2", text="A long statement."),
            replacement_flagged=True,
            conflict_set_id="cs-1",
            peers=(CorrectionPeer(belief_id="b-3", text="Another long statement."),),
        )
    )
    assert c.abridged
    assert correction_line(c) == (
        "- [b-1] no longer holds; replaced by [b-2]; [b-2] flagged as possibly wrong: confirm"
        " before relying on it; [b-2] is disputed (unresolved conflict cs-1) with: [b-3]"
    )
    assert told_peers([c]) == ()
