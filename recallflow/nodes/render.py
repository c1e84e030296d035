"""Stage: rendering, byte-stable: the same store and request give the same bytes.

The budgeted units become the exact bytes handed to the agent, in the resolution stage's
total order, and their sha256 is taken from those bytes here, once. Inside a session the
block ends with the corrections of the cached prefix (see "Sessions" in
docs/architecture.md), so the hash covers them too.
"""

from __future__ import annotations

import hashlib

from hamilton.function_modifiers import tag

from recallflow.core.corrections import render_corrections
from recallflow.core.render import render_block
from recallflow.models.stages import BudgetOutcome, CorrectionOutcome, RenderedBlock


@tag(stage="render")
def rendered_block(
    budgeted_items: BudgetOutcome, budgeted_corrections: CorrectionOutcome
) -> RenderedBlock:
    """The memory block's text (then the corrections the budget took, and how many more
    wait), its sha256, and its items in rendered order."""
    text = render_block([(u.items, u.conflict_set_id) for u in budgeted_items.units])
    text += render_corrections(budgeted_corrections.corrections, budgeted_corrections.deferred)
    items = tuple(item for u in budgeted_items.units for item in u.items)
    return RenderedBlock(text=text, sha256=hashlib.sha256(text.encode()).hexdigest(), items=items)
