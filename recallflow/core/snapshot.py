"""The session snapshot, pure: its composition by budget rule, its prefix bytes, and the
shrink-path arithmetic (see "Sessions" and "Budgets" in docs/architecture.md).

Composition. A snapshot has two parts: the *core* (durable user-model and preference
beliefs, ranked by the core weight vector with no query) and the *priming set* (the
opening goal's query-driven recall). The item cap binds first; ``core_reserved`` of its
items are reserved for the core. The core takes what it can of its reservation, the
priming set then fills the rest of the cap (so a core that cannot use its reservation
hands it on), and the core finally takes whatever the priming set left (so a short
priming set hands its share back). Every unit must also fit the token cap, the backstop.
A belief chosen by both parts is rendered once, in the core. Units keep each part's rank
order; the core is rendered first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from recallflow.core.corrections import CORRECTIONS_FRAMING
from recallflow.core.render import MEMORY_FRAMING
from recallflow.models.stages import RenderUnit

#: The framing instruction of a session prefix: the memory framing plus how to read
#: corrections in later turns. It precedes the snapshot block in the cached prefix.
SESSION_FRAMING = f"{MEMORY_FRAMING} {CORRECTIONS_FRAMING}"


def session_prefix(block: str) -> str:
    """The cached prefix of a session: the framing, a blank line, the snapshot block."""
    return f"{SESSION_FRAMING}\n\n{block}"


@dataclass(frozen=True)
class Composition:
    """The units a snapshot renders, by part, and the ids it left out."""

    core: tuple[RenderUnit, ...]
    priming: tuple[RenderUnit, ...]
    dropped_ids: tuple[str, ...]
    tokens: int

    @property
    def units(self) -> tuple[RenderUnit, ...]:
        """Every rendered unit, core first."""
        return (*self.core, *self.priming)


def compose(
    core: Sequence[RenderUnit],
    priming: Sequence[RenderUnit],
    *,
    max_items: int,
    max_tokens: int,
    core_reserved: int,
    cost: Callable[[RenderUnit], int],
    frame_tokens: int,
) -> Composition:
    """Compose the snapshot from ranked ``core`` and ``priming`` units (module docstring).

    :param cost: the tokens one unit renders to.
    :param frame_tokens: the tokens of the block's frame (its open and close tags).
    """
    costs: dict[int, int] = {}

    def unit_cost(unit: RenderUnit) -> int:
        if id(unit) not in costs:
            costs[id(unit)] = cost(unit)
        return costs[id(unit)]

    taken: set[str] = set()
    core_taken: set[int] = set()
    priming_kept: list[RenderUnit] = []
    items = 0
    tokens = frame_tokens

    def fits(unit: RenderUnit, item_limit: int) -> bool:
        return items + len(unit.items) <= item_limit and tokens + unit_cost(unit) <= max_tokens

    def take(unit: RenderUnit) -> None:
        nonlocal items, tokens
        items += len(unit.items)
        tokens += unit_cost(unit)
        taken.update(unit.ids)

    for index, unit in enumerate(core):
        if fits(unit, min(core_reserved, max_items)):
            take(unit)
            core_taken.add(index)
    for unit in priming:
        if taken.intersection(unit.ids) or not fits(unit, max_items):
            continue
        take(unit)
        priming_kept.append(unit)
    for index, unit in enumerate(core):
        if index in core_taken or taken.intersection(unit.ids) or not fits(unit, max_items):
            continue
        take(unit)
        core_taken.add(index)
    core_kept = tuple(unit for index, unit in enumerate(core) if index in core_taken)
    rendered = {i for u in (*core_kept, *priming_kept) for i in u.ids}
    dropped = dict.fromkeys(i for u in (*core, *priming) for i in u.ids if i not in rendered)
    return Composition(
        core=core_kept,
        priming=tuple(priming_kept),
        dropped_ids=tuple(dropped),
        tokens=tokens if rendered else 0,
    )


def kept_at_cap(
    cap: int, *, core_available: int, priming_available: int, durable_share: float
) -> tuple[int, int]:
    """How many core and priming items a snapshot keeps at item cap ``cap`` (tokens and
    conflict sets aside): the composition rule applied to counts."""
    reserved = int(cap * durable_share + 0.5)
    core = min(reserved, core_available)
    priming = min(cap - core, priming_available)
    core += min(cap - core - priming, core_available - core)
    return core, priming


def smallest_cap(
    used_positions: Sequence[tuple[str, int]],
    *,
    cap: int,
    core_available: int,
    priming_available: int,
    durable_share: float,
) -> int:
    """The smallest item cap ≤ ``cap`` whose snapshot would still hold every used item.

    :param used_positions: (part, 0-based position within its part) of each snapshot item
        a later turn found relevant.
    """
    if not used_positions:
        return 0
    for candidate in range(1, cap + 1):
        core, priming = kept_at_cap(
            candidate,
            core_available=core_available,
            priming_available=priming_available,
            durable_share=durable_share,
        )
        if all(pos < (core if part == "core" else priming) for part, pos in used_positions):
            return candidate
    return cap


def common_prefix_tokens(previous: str, current: str, count: Callable[[str], int]) -> int:
    """Tokens of the longest common prefix of two blocks: what a prompt cache could reuse
    when ``current`` follows ``previous`` at the same position (cut at a line boundary,
    since caches match whole tokens and a line is the smallest stable unit here)."""
    n = 0
    limit = min(len(previous), len(current))
    while n < limit and previous[n] == current[n]:
        n += 1
    cut = current.rfind("\n", 0, n + 1) + 1 if n < len(current) else n
    return count(current[:cut]) if cut else 0


def ratio(part: float, whole: float) -> float | None:
    """``part / whole``, or None when there is no whole."""
    return part / whole if whole > 0 and not math.isnan(whole) else None
