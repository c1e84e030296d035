"""An experiment module for the module-override test: renders ids only, as a bullet list.

Loaded with ``Builder().allow_module_overrides()``, its ``rendered_block`` replaces the
library's; the trace's lineage must name this module."""

from __future__ import annotations

import hashlib

from hamilton.function_modifiers import tag

from recallflow.models.stages import BudgetOutcome, RenderedBlock


@tag(stage="render")
def rendered_block(budgeted_items: BudgetOutcome) -> RenderedBlock:
    """The rendered items as ``* <id>`` lines."""
    items = tuple(item for unit in budgeted_items.units for item in unit.items)
    text = "".join(f"* {item.belief_id}\n" for item in items)
    return RenderedBlock(text=text, sha256=hashlib.sha256(text.encode()).hexdigest(), items=items)
