"""A principal's memory as one document: what :meth:`Memory.export_principal
<recallflow.memory.Memory.export_principal>` reads and :meth:`Memory.import_principal
<recallflow.memory.Memory.import_principal>` writes (see docs/portability.md).

The document is versioned by its ``format``: a reader refuses a format it does not know
rather than guess at fields it would misread. Every item is the principal's, and every
reference an item makes — a supersession link, an event's belief, a citation's trace, a
belief's source episode — names an item of the same document: a principal's records
reference nothing outside the principal, so an export is whole on its own.

What an export leaves out is derived (embeddings, the rarity statistics, the search
documents: the importing store makes its own) or bound to the store it was made in
(sessions, and the operator views of traces); see docs/portability.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, ConfigDict, Field, JsonValue

from recallflow.models.corrections import EXPECTED_MAX_LENGTH, NOTE_MAX_LENGTH
from recallflow.models.fields import InputModel, Instant, Key, visible
from recallflow.models.store import Belief, BeliefEdge, Episode, SensitivityLevel

#: The format this release writes and reads. A later release that changes what a field
#: means or adds one an older reader would drop writes another.
EXPORT_FORMAT: Final = "recallflow.principal/1"

#: An end of time a lifecycle event may record (a supersession by a successor valid since
#: the beginning of time, say), written as PostgreSQL names it.
OpenEnd = Literal["-infinity", "infinity"]

BeliefEventKind = Literal[
    "superseded", "retracted", "retired", "expired", "corroborated", "promoted", "resolved"
]
FeedbackKind = Literal[
    "cited",
    "rejected_not_true",
    "rejected_changed",
    "rejected_not_here",
    "rejected_unspecified",
    "unflagged",
]


class _Item(InputModel):
    model_config = ConfigDict(
        frozen=True, extra="forbid", str_strip_whitespace=False, allow_inf_nan=False
    )


#: A user's or the store's words on a record (a note, a reason): with visible text, as
#: every entry point that writes one takes it. Not bounded in length here: a release
#: before the 1,000-character cap of ``NOTE_MAX_LENGTH`` stored longer ones, and the
#: export of such a store must import (see docs/portability.md).
_Words = Annotated[str, AfterValidator(visible)]


class ExportedBeliefEvent(_Item):
    """One lifecycle event of a belief (``belief_events``), in the order it was recorded."""

    belief_id: Key
    kind: BeliefEventKind
    related_id: Key | None = None
    project: Key | None = None
    evidence_id: Key | None = None
    reason: _Words | None = None
    effective_at: Instant | OpenEnd
    created_at: Instant


class ExportedFeedback(_Item):
    """One citation, typed rejection or cleared flag of a belief (``feedback_events``), in
    the order it was recorded; ``trace_id`` names the recall it was about (an exported
    trace)."""

    belief_id: Key
    kind: FeedbackKind
    trace_id: Key | None = None
    project: Key | None = None
    note: _Words | None = None
    created_at: Instant


class ExportedExclusion(_Item):
    """A project a belief is not recalled in (a ``not_here`` rejection)."""

    belief_id: Key
    project: Key
    created_at: Instant


class ExportedEntityMark(_Item):
    """An entity the principal marked with a sensitivity of its own."""

    entity: str = Field(pattern=r"^[a-z0-9][a-z0-9._:/-]{0,199}$")
    sensitivity: SensitivityLevel
    marked_at: Instant


class ExportedMissHint(_Item):
    """A subject the principal's recalls missed, counted toward a re-derivation hint
    (pending while ``queued_at`` is set and ``acknowledged_at`` is not)."""

    subject: str = Field(min_length=1)
    miss_count: int = Field(ge=1)
    first_missed_at: Instant
    last_missed_at: Instant
    queued_at: Instant | None = None
    acknowledged_at: Instant | None = None


class ExportedReportedMiss(_Item):
    """A miss the user or the agent reported: the recall (``trace_id``) that should have
    shown a belief (``belief_id``) or what ``expected`` says (pending while
    ``acknowledged_at`` is not set). The trace travels with it while the store still
    holds it; the report keeps its id either way, as the store does once retention has
    deleted the trace."""

    id: Key
    trace_id: Key
    belief_id: Key | None = None
    # Bounded and visible as a report is at every other entry point.
    expected: _Words | None = Field(default=None, max_length=EXPECTED_MAX_LENGTH)
    subject: str = Field(min_length=1)
    note: _Words | None = Field(default=None, max_length=NOTE_MAX_LENGTH)
    reported_at: Instant
    acknowledged_at: Instant | None = None


class ExportedTrace(_Item):
    """A stored recall that a citation or a rejection names: its user-safe record (what
    ``Memory.explain`` shows; a session's recall keeps none here, as its view ends with the
    session), never its operator view."""

    id: Key
    moment: Literal["session_snapshot", "in_turn", "child_run"]
    surface: Literal["direct", "team", "public", "vault"]
    as_of: Instant
    created_at: Instant
    rendered_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    retrieval_policy_version: str = Field(min_length=1)
    degraded: bool = False
    user_view: dict[str, JsonValue] | None = None


class PrincipalExport(_Item):
    """Everything a principal's memory holds that another store can take in, in the order
    the store recorded it (see the module's docstring and docs/portability.md)."""

    format: Literal["recallflow.principal/1"] = EXPORT_FORMAT
    tenant_id: Key
    principal_id: Key
    exported_at: datetime
    beliefs: tuple[Belief, ...] = ()
    edges: tuple[BeliefEdge, ...] = ()
    episodes: tuple[Episode, ...] = ()
    belief_events: tuple[ExportedBeliefEvent, ...] = ()
    feedback: tuple[ExportedFeedback, ...] = ()
    exclusions: tuple[ExportedExclusion, ...] = ()
    entity_marks: tuple[ExportedEntityMark, ...] = ()
    miss_hints: tuple[ExportedMissHint, ...] = ()
    reported_misses: tuple[ExportedReportedMiss, ...] = ()
    traces: tuple[ExportedTrace, ...] = ()

    @property
    def empty(self) -> bool:
        """True when the principal held nothing."""
        return not any(getattr(self, name) for name in SECTIONS)


#: The sections of an export, in the order an import writes them.
SECTIONS: tuple[str, ...] = (
    "episodes",
    "beliefs",
    "edges",
    "belief_events",
    "traces",
    "feedback",
    "exclusions",
    "entity_marks",
    "miss_hints",
    "reported_misses",
)


def _duplicates(section: str, keys: Iterable[Any], field: str) -> Iterator[tuple[str, int, str]]:
    seen: set[Any] = set()
    for index, key in enumerate(keys):
        if key in seen:
            yield section, index, field
        seen.add(key)


def first_problem(export: PrincipalExport) -> tuple[str, int, str, str] | None:
    """The first item of ``export`` that is not the principal's, repeats a key, or names
    something the export does not hold: (section, index, field, what is wrong)."""
    owner = (export.tenant_id, export.principal_id)
    for section in ("beliefs", "edges", "episodes"):
        for index, item in enumerate(getattr(export, section)):
            if (item.tenant_id, item.principal_id) != owner:
                return (
                    section,
                    index,
                    "principal_id",
                    f"is {item.tenant_id}/{item.principal_id}, not the export's"
                    f" {owner[0]}/{owner[1]}",
                )
    keyed: list[tuple[str, Iterable[Any], str]] = [
        ("beliefs", (b.id for b in export.beliefs), "id"),
        ("episodes", (e.id for e in export.episodes), "id"),
        ("traces", (t.id for t in export.traces), "id"),
        ("edges", ((e.src_id, e.dst_id, e.relation) for e in export.edges), "dst_id"),
        ("exclusions", ((x.belief_id, x.project) for x in export.exclusions), "project"),
        ("entity_marks", (m.entity for m in export.entity_marks), "entity"),
        ("miss_hints", (h.subject for h in export.miss_hints), "subject"),
        ("reported_misses", (r.id for r in export.reported_misses), "id"),
    ]
    for section, keys, field in keyed:
        for found in _duplicates(section, keys, field):
            return (*found, "is listed twice")
    beliefs = {b.id for b in export.beliefs}
    episodes = {e.id for e in export.episodes}
    traces = {t.id for t in export.traces}
    references: list[tuple[str, str, set[str], str]] = [
        ("beliefs", "supersedes", beliefs, "belief"),
        ("beliefs", "superseded_by", beliefs, "belief"),
        ("beliefs", "source_episode_id", episodes, "episode"),
        ("edges", "src_id", beliefs, "belief"),
        ("edges", "dst_id", beliefs, "belief"),
        ("belief_events", "belief_id", beliefs, "belief"),
        ("belief_events", "related_id", beliefs, "belief"),
        ("belief_events", "evidence_id", episodes, "episode"),
        ("feedback", "belief_id", beliefs, "belief"),
        ("feedback", "trace_id", traces, "trace"),
        ("exclusions", "belief_id", beliefs, "belief"),
        ("reported_misses", "belief_id", beliefs, "belief"),
    ]
    for section, field, known, what in references:
        for index, item in enumerate(getattr(export, section)):
            value = getattr(item, field)
            if value is not None and value not in known:
                return section, index, field, f"names {what} {value!r}, which the export lacks"
    return None


class PrincipalImport(_Item):
    """What :meth:`Memory.import_principal <recallflow.memory.Memory.import_principal>`
    wrote: the principal it wrote to, and the rows written per table."""

    tenant_id: Key
    principal_id: Key
    written: dict[str, int]

    @property
    def total_written(self) -> int:
        return sum(self.written.values())
