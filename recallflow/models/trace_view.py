"""The user-safe view of a recall: what the user may see of how their memory was used
(see "The trace" in docs/architecture.md).

Exactly a projection: per rendered item its statement as rendered, when and where it
was learned, who vouched for it, its band and whether the model cited it; per correction
line of a session's turn, the line as told; everything
else (dropped, blocked, withheld) as counts. No scores, latencies, candidate ids or
policy internals are ever in it.
"""

from __future__ import annotations

from datetime import date
from typing import Final

from pydantic import Field

from recallflow.models.base import FrozenModel
from recallflow.models.request import Moment, Surface
from recallflow.models.result import ConfidenceBand, CorrectionKind

#: What a field shows when the viewing surface may not show its value.
REDACTED: Final = "[redacted]"


class TraceViewItem(FrozenModel):
    """One rendered item as its user may see it."""

    belief_id: str
    statement: str = Field(description="As rendered: [BLOCKED] stays blocked.")
    band: ConfidenceBand
    blocked: bool = False
    provisional: bool = False
    conflicted: bool = False
    learned_on: date | None = Field(
        default=None, description="When it was recorded (None: forgotten since)."
    )
    valid_from: date | None = None
    origin_project: str | None = Field(
        default=None, description=f"Where it was learned; {REDACTED} on this surface."
    )
    source_authority: str | None = None
    source_episode_id: str | None = Field(
        default=None, description=f"The episode it came from; {REDACTED} on this surface."
    )
    cited: bool = Field(default=False, description="The model cited it in its answer.")
    forgotten: bool = Field(default=False, description="Erased from memory since the recall.")


class TraceViewCorrection(FrozenModel):
    """One line of a session turn's corrections section as its user may see it."""

    belief_id: str = Field(description="The snapshot belief the line corrected.")
    kind: CorrectionKind
    line: str = Field(description="The line as the model was told it ([BLOCKED] stays).")
    forgotten: bool = Field(
        default=False, description="A belief the line names was erased from memory since."
    )


class RecallTraceView(FrozenModel):
    """The user-safe projection of one stored trace, for one viewing surface."""

    trace_id: str
    session_id: str | None
    moment: Moment
    surface: Surface = Field(description="Where the block was shown.")
    viewer_surface: Surface = Field(description="Where this view is shown.")
    items: tuple[TraceViewItem, ...]
    withheld: int = Field(
        default=0, description="Rendered items above the viewing surface's ceiling (not shown)."
    )
    dropped_below_floor: int = 0
    dropped_by_budget: int = 0
    blocked: int = Field(
        default=0, description="Items of this view shown as [BLOCKED] (withheld ones not counted)."
    )
    redacted: int = Field(default=0, description="Fields shown as [redacted] in this view.")
    corrections: tuple[TraceViewCorrection, ...] = Field(
        default=(), description="In a session's turn: the correction lines it told."
    )
    corrections_withheld: int = Field(
        default=0,
        description="Correction lines naming a belief above the viewing surface's ceiling.",
    )
    corrections_deferred: int = Field(
        default=0,
        description="In a session: corrections of the cached block left for a later turn.",
    )


class RetentionRun(FrozenModel):
    """What one run of the retention job changed (see "The trace" in
    docs/architecture.md); a second run at the same time changes nothing."""

    operator_expired: int = Field(
        description="Traces whose operator fields were nulled (tuning window passed)."
    )
    sessions_ended: int = Field(
        description="Sessions ended by this run: idle past the window, or their parent ended."
    )
    user_views_deleted: int = Field(
        description="Traces whose user-safe fields were deleted with their ended session."
    )
    sessions_deleted: int = Field(
        description="Ended sessions deleted (prefix, snapshot, corrections) once none of"
        " their traces kept operator fields."
    )
