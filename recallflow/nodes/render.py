"""Stage: rendering, byte-stable: the same store and request give the same bytes.

The budgeted units become the exact bytes handed to the agent, in the resolution stage's
total order, and their sha256 is taken from those bytes here, once.
"""

from __future__ import annotations

import hashlib

from hamilton.function_modifiers import tag

from recallflow.core.render import render_block
from recallflow.models.stages import BudgetOutcome, RenderedBlock


@tag(stage="render")
def rendered_block(budgeted_items: BudgetOutcome) -> RenderedBlock:
    """The memory block's text, its sha256, and its items in rendered order."""
    text = render_block([(u.items, u.conflict_set_id) for u in budgeted_items.units])
    items = tuple(item for u in budgeted_items.units for item in u.items)
    return RenderedBlock(text=text, sha256=hashlib.sha256(text.encode()).hexdigest(), items=items)
