"""Stage: the budget.

The item cap binds first (dilution tracks the number of items), the token cap is the
backstop, and the token cap is bounded by 2% of the model's window. Units are taken in rank
order; a unit that does not fit is dropped and the next one is still tried, so one long
item does not starve shorter, lower-ranked ones. A conflict set is taken whole or not at
all. Inside a session, a unit the cached prefix already holds whole costs nothing and is
not rendered again (see "Sessions" in docs/architecture.md).
"""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.core.render import CLOSE_TAG, OPEN_TAG, unit_lines
from recallflow.models.request import RecallRequest
from recallflow.models.session import SessionTurn
from recallflow.models.stages import BudgetOutcome, RenderUnit, TrustOutcome
from recallflow.policy import RetrievalPolicy
from recallflow.ports import TokenCounter


@tag(stage="budget")
def budgeted_items(
    trusted_items: TrustOutcome,
    token_counter: TokenCounter,
    request: RecallRequest,
    policy: RetrievalPolicy,
    session_turn: SessionTurn | None = None,
) -> BudgetOutcome:
    """The units that fit the item cap, then the token cap, in rank order (minus those the
    session prefix holds)."""
    budget = policy.budgets[request.moment]
    ceiling = int(request.model_window * budget.window_share)
    max_items = request.max_items if request.max_items is not None else budget.max_items
    asked_tokens = request.max_tokens if request.max_tokens is not None else budget.max_tokens
    max_tokens = min(asked_tokens, ceiling)
    frame = token_counter.count(f"{OPEN_TAG}\n{CLOSE_TAG}\n")
    kept: list[RenderUnit] = []
    dropped: list[str] = []
    items = 0
    tokens = frame
    held = frozenset(session_turn.prefix_ids) if session_turn is not None else frozenset()
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
