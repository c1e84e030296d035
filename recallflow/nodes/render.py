"""Stage: rendering, byte-stable: the same store and request give the same bytes.

The budgeted units become the exact bytes handed to the agent, in the resolution stage's
total order, and their sha256 is taken from those bytes here, once. Inside a session the
block ends with the corrections of what the agent holds out of date (the cached prefix's
lines, an earlier turn's: see "Sessions" in docs/architecture.md), so the hash covers them
too, and the beliefs it rendered are fingerprinted for the session to record.
"""

from __future__ import annotations

import hashlib

from hamilton.function_modifiers import tag

from recallflow.core.corrections import fingerprint, render_corrections
from recallflow.core.render import render_block
from recallflow.models.session import SessionTurn, ShownBelief
from recallflow.models.stages import BudgetOutcome, CorrectionOutcome, HardFilter, RenderedBlock
from recallflow.models.store import Belief


@tag(stage="render")
def rendered_block(
    budgeted_items: BudgetOutcome, told_corrections: CorrectionOutcome
) -> RenderedBlock:
    """The memory block's text (then the corrections the turn tells, and how many more
    wait), its sha256, and its items in rendered order."""
    text = render_block([(u.items, u.conflict_set_id) for u in budgeted_items.units])
    text += render_corrections(told_corrections.corrections, told_corrections.deferred)
    items = tuple(item for u in budgeted_items.units for item in u.items)
    return RenderedBlock(text=text, sha256=hashlib.sha256(text.encode()).hexdigest(), items=items)


@tag(stage="render")
def shown_beliefs(
    rendered_block: RenderedBlock,
    candidate_beliefs: dict[str, Belief],
    hard_filter: HardFilter,
    session_turn: SessionTurn | None = None,
) -> tuple[ShownBelief, ...]:
    """In a session's turn, each belief the block rendered, fingerprinted as the recall
    read it (its row as it stood at ``as_of``, its conflict as judged there), as a
    snapshot fingerprints its beliefs: the session records what its turn showed, and
    corrects it in a later turn once it changes. Empty outside a session."""
    if session_turn is None:
        return ()
    as_of, ceiling = hard_filter.as_of, hard_filter.sensitivity_ceiling
    return tuple(
        ShownBelief.trusted(
            belief_id=i,
            fingerprint=fingerprint(candidate_beliefs[i], as_of=as_of, ceiling=ceiling),
        )
        for i in rendered_block.ids
        if i in candidate_beliefs
    )
