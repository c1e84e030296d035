"""Projecting a stored trace onto the user-safe view, pure (see "The trace" and "Trust
boundary" in docs/architecture.md).

The view is filtered by the *lower* of two ceilings: the surface the block was shown on
and the surface the view is shown on. A rendered item whose belief is above it is
withheld (counted, not shown). A belief forgotten since is judged by the sensitivity the
trace kept when it rendered it (a trace that kept none: shown only where the view is as
wide as the block's surface, counted withheld on a narrower one). Fields that carry their
own sensitivity are redacted field by field: the origin project's name carries the
belief's sensitivity or the project's own (``policy.project_sensitivity``), the source
episode reference the belief's or the episode's, whichever is higher; the name of an
entity the principal marked is withheld from the statement where the view's ceiling is
below the mark (the block already withheld it where the recall's was). A session turn's
correction line is shown when every belief it names would be, else counted withheld. A
name the block withheld is never shown by its view, whatever policy the view is read
under.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from recallflow.core.redaction import NO_MARKED_NAMES, NameRedaction, Redactor
from recallflow.models.request import Moment, Surface
from recallflow.models.result import ConfidenceBand, CorrectionKind
from recallflow.models.store import Sensitivity
from recallflow.models.trace_view import (
    REDACTED,
    RecallTraceView,
    TraceViewCorrection,
    TraceViewItem,
)
from recallflow.policy import SURFACE_CEILINGS, RetrievalPolicy


@dataclass(frozen=True)
class BeliefFacts:
    """What the view reads of a rendered belief from the store (it may be gone since)."""

    recorded_at: datetime
    valid_from: datetime | None
    origin_project: str | None
    source_authority: str
    source_episode_id: str | None
    sensitivity: Sensitivity
    episode_sensitivity: Sensitivity | None


def view_ceiling(recall_surface: Surface, viewer_surface: Surface) -> Sensitivity:
    """The lower of the two surfaces' ceilings."""
    return min(SURFACE_CEILINGS[recall_surface], SURFACE_CEILINGS[viewer_surface])


def trace_view(
    trace_id: str,
    stored: Mapping[str, Any],
    facts: Mapping[str, BeliefFacts],
    cited: Collection[str],
    viewer_surface: Surface,
    policy: RetrievalPolicy,
    names: NameRedaction = NO_MARKED_NAMES,
) -> RecallTraceView:
    """The view of a stored user view (``stored``), given the facts of its beliefs still
    in the store, the ids the model cited and the principal's marked entities."""
    surface = Surface(stored["surface"])
    ceiling = view_ceiling(surface, viewer_surface)
    redact = Redactor.of(names, ceiling)
    items: list[TraceViewItem] = []
    withheld = 0
    redacted = 0
    for raw in stored.get("items", ()):
        fact = facts.get(raw["belief_id"])
        # Mentions the block already withheld count here too: the view shows them redacted.
        statement, mentions = redact(raw["text"])
        mentions += raw.get("names_redacted", 0)
        if fact is None:  # forgotten since: only that it was there, and only where seen
            # The level the trace kept when it rendered the belief decides, as it did while
            # the belief lived; a trace written before it kept one has only the block's
            # surface to go by: a view as wide as that is sure to have been shown it, a
            # narrower one counts it withheld, so a placeholder never tells a surface that
            # an item of that band was there.
            level = raw.get("sensitivity")
            shown = SURFACE_CEILINGS[surface] if level is None else Sensitivity(level)
            if shown > ceiling:
                withheld += 1
                continue
            redacted += mentions
            items.append(
                TraceViewItem(
                    belief_id=raw["belief_id"],
                    statement=statement,
                    band=ConfidenceBand(raw["band"]),
                    blocked=raw["blocked"],
                    forgotten=True,
                )
            )
            continue
        if fact.sensitivity > ceiling:
            withheld += 1
            continue
        redacted += mentions
        origin: str | None = fact.origin_project
        # A name the block withheld stays withheld, whatever policy the view is read under.
        withheld_origin = raw.get("origin_redacted", False)
        if origin is not None and (
            withheld_origin or max(fact.sensitivity, policy.name_sensitivity(origin)) > ceiling
        ):
            origin, redacted = REDACTED, redacted + 1
        episode = fact.source_episode_id
        episode_level = max(fact.sensitivity, fact.episode_sensitivity or Sensitivity.PUBLIC)
        if episode is not None and episode_level > ceiling:
            episode, redacted = REDACTED, redacted + 1
        items.append(
            TraceViewItem(
                belief_id=raw["belief_id"],
                statement=statement,
                band=ConfidenceBand(raw["band"]),
                blocked=raw["blocked"],
                provisional=raw["provisional"],
                conflicted=raw.get("conflict_set_id") is not None,
                learned_on=fact.recorded_at.date(),
                valid_from=fact.valid_from.date() if fact.valid_from else None,
                origin_project=origin,
                source_authority=fact.source_authority,
                source_episode_id=episode,
                cited=raw["belief_id"] in cited,
            )
        )
    # A correction line is shown when every belief it names is: one above the ceiling, or
    # forgotten since where the view is narrower than the block's surface, withholds it.
    corrections: list[TraceViewCorrection] = []
    corrections_withheld = 0
    for raw in stored.get("corrections", ()):
        named = [facts.get(str(i)) for i in raw["named"]]
        gone = any(fact is None for fact in named)
        if (gone and ceiling < SURFACE_CEILINGS[surface]) or any(
            fact is not None and fact.sensitivity > ceiling for fact in named
        ):
            corrections_withheld += 1
            continue
        line, mentions = redact(raw["line"])
        redacted += mentions
        corrections.append(
            TraceViewCorrection(
                belief_id=raw["belief_id"],
                kind=CorrectionKind(raw["kind"]),
                line=line,
                forgotten=gone,
            )
        )
    return RecallTraceView(
        trace_id=trace_id,
        session_id=stored.get("session_id"),
        moment=Moment(stored["moment"]),
        surface=surface,
        viewer_surface=viewer_surface,
        items=tuple(items),
        withheld=withheld,
        dropped_below_floor=stored.get("dropped_below_floor", 0),
        dropped_by_budget=stored.get("dropped_by_budget", 0),
        # The view's own [BLOCKED] lines: a withheld item's is not this surface's to show,
        # nor that it read as instructions (the stored count is the whole block's).
        blocked=sum(item.blocked for item in items),
        redacted=redacted,
        corrections=tuple(corrections),
        corrections_withheld=corrections_withheld,
        corrections_deferred=stored.get("corrections_deferred", 0),
    )
