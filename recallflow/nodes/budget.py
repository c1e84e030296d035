"""Stage: the budget.

The item cap binds first (dilution tracks the number of items), the token cap is the
backstop, and the token cap is bounded by the budget's ``window_share`` of the model's
window. Units are taken in rank order; a unit that does not fit is dropped and the next one
is still tried, so one long item does not starve shorter, lower-ranked ones. A conflict set
is taken whole or not at all. Inside a session, a unit the cached prefix already holds
whole costs nothing and is not rendered again, and the corrections of the prefix go first:
they take up to ``sessions.correction_share`` of the token cap, and the items fill what
they leave (see "Sessions" in docs/architecture.md).
"""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.core import corrections
from recallflow.core.render import CLOSE_TAG, OPEN_TAG, unit_lines
from recallflow.models.request import RecallRequest
from recallflow.models.result import Correction
from recallflow.models.session import SessionTurn
from recallflow.models.stages import (
    NO_CORRECTIONS,
    BudgetOutcome,
    CorrectionOutcome,
    RenderUnit,
    TrustOutcome,
)
from recallflow.policy import RetrievalPolicy
from recallflow.ports import TokenCounter


def _token_cap(request: RecallRequest, policy: RetrievalPolicy) -> int:
    """The recall's token cap: the request's or the moment's, bounded by the window share."""
    budget = policy.budgets[request.moment]
    ceiling = int(request.model_window * budget.window_share)
    asked = request.max_tokens if request.max_tokens is not None else budget.max_tokens
    return min(asked, ceiling)


@tag(stage="budget")
def budgeted_corrections(
    turn_corrections: tuple[Correction, ...],
    token_counter: TokenCounter,
    request: RecallRequest,
    policy: RetrievalPolicy,
) -> CorrectionOutcome:
    """The corrections that fit ``sessions.correction_share`` of the token cap, taken in
    order while they fit (the section's frame and its closing count of those that wait
    included); the rest wait for a later turn. The first pending correction is always
    taken: in its short form (ids and kind) when its whole line does not fit, so a long
    one never holds back the queue."""
    if not turn_corrections:
        return NO_CORRECTIONS
    share = int(_token_cap(request, policy) * policy.sessions.correction_share)

    def cost(c: Correction) -> int:
        return token_counter.count(corrections.correction_line(c) + "\n")

    def count_line(waiting: int) -> int:
        return token_counter.count(corrections.deferred_line(waiting) + "\n") if waiting else 0

    total = len(turn_corrections)
    taken: list[Correction] = []
    tokens = token_counter.count(f"{corrections.OPEN_TAG}\n{corrections.CLOSE_TAG}\n")
    for c in turn_corrections:
        line = cost(c)
        if tokens + line + count_line(total - len(taken) - 1) > share:
            if taken:
                break
            # The progress guarantee: the first one goes, shortened; past the share only
            # when its short line and the count line alone exceed it.
            c = corrections.abridged(c)
            line = cost(c)
        taken.append(c)
        tokens += line
    waiting = total - len(taken)
    return CorrectionOutcome(
        corrections=tuple(taken), deferred=waiting, tokens=tokens + count_line(waiting)
    )


@tag(stage="budget")
def budgeted_items(
    trusted_items: TrustOutcome,
    token_counter: TokenCounter,
    request: RecallRequest,
    policy: RetrievalPolicy,
    session_turn: SessionTurn | None = None,
    budgeted_corrections: CorrectionOutcome = NO_CORRECTIONS,
) -> BudgetOutcome:
    """The units that fit the item cap, then what the corrections left of the token cap,
    in rank order (minus those the session prefix holds: not a belief whose correction
    was told in its short form, with no statement)."""
    budget = policy.budgets[request.moment]
    max_items = request.max_items if request.max_items is not None else budget.max_items
    max_tokens = max(0, _token_cap(request, policy) - budgeted_corrections.tokens)
    frame = token_counter.count(f"{OPEN_TAG}\n{CLOSE_TAG}\n")
    kept: list[RenderUnit] = []
    dropped: list[str] = []
    items = 0
    tokens = frame
    held: frozenset[str] = frozenset()
    if session_turn is not None:
        # A prefix belief whose correction (an earlier turn's or this one's) was told in
        # its short form is not held: the agent has not read what it says now, unless
        # this turn's corrections tell it whole.
        told = budgeted_corrections.corrections
        shortened = {c.belief_id for c in told if c.abridged}
        whole = {c.belief_id for c in told if not c.abridged and c.text is not None}
        unread = shortened.union(b for b in session_turn.abridged if b not in whole)
        held = frozenset(session_turn.prefix_ids).difference(unread)
    for unit in trusted_items.units:
        if held.issuperset(unit.ids):
            continue
        if items + len(unit.items) > max_items:
            dropped.extend(unit.ids)
            continue
        cost = token_counter.count("\n".join(unit_lines(unit.items, unit.conflict_set_id)) + "\n")
        if tokens + cost > max_tokens:
            dropped.extend(unit.ids)
            continue
        kept.append(unit)
        items += len(unit.items)
        tokens += cost
    return BudgetOutcome(
        units=tuple(kept),
        dropped_ids=tuple(dropped),
        max_items=max_items,
        max_tokens=max_tokens,
        tokens=tokens if kept else 0,
    )


@tag(stage="budget")
def told_corrections(
    budgeted_corrections: CorrectionOutcome,
    budgeted_items: BudgetOutcome,
    token_counter: TokenCounter,
    session_turn: SessionTurn | None = None,
) -> CorrectionOutcome:
    """The corrections the turn tells: those the budget took, less each about a belief an
    earlier turn showed that this turn's block shows again — its line there is the belief
    as it stands now, which is all the correction would tell. (A prefix belief's
    correction stays: the block shows a prefix belief only when it is not held.) The
    section's tokens are counted again; what it no longer needs is left unused, since the
    items were budgeted around it."""
    if session_turn is None or not budgeted_corrections.corrections:
        return budgeted_corrections
    prefix = frozenset(session_turn.prefix_ids)
    shown = {i for unit in budgeted_items.units for i in unit.ids}
    told = tuple(
        c
        for c in budgeted_corrections.corrections
        if c.belief_id in prefix or c.belief_id not in shown
    )
    if len(told) == len(budgeted_corrections.corrections):
        return budgeted_corrections
    deferred = budgeted_corrections.deferred
    return CorrectionOutcome(
        corrections=told, deferred=deferred, tokens=_section_tokens(told, deferred, token_counter)
    )


def _section_tokens(
    told: tuple[Correction, ...], deferred: int, token_counter: TokenCounter
) -> int:
    """The tokens of a corrections section of ``told`` and the count of the ``deferred``
    (0 when it has neither), counted as the budget counts it: the frame, each line with
    its newline, the count line."""
    if not told and not deferred:
        return 0
    frame = token_counter.count(f"{corrections.OPEN_TAG}\n{corrections.CLOSE_TAG}\n")
    lines = [corrections.correction_line(c) for c in told]
    if deferred:
        lines.append(corrections.deferred_line(deferred))
    return frame + sum(token_counter.count(line + "\n") for line in lines)
