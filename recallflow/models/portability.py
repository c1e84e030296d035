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
from typing import Annotated, Any, Final, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    ValidationError,
    field_validator,
    model_validator,
)

from recallflow.models.corrections import EXPECTED_MAX_LENGTH, NOTE_MAX_LENGTH
from recallflow.models.fields import INT4_MAX, InputModel, Instant, Key, storable, visible
from recallflow.models.store import (
    KEY_RULE,
    Belief,
    BeliefEdge,
    Episode,
    SensitivityLevel,
    checked_key,
)

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


def _storable_json(value: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """``value`` unchanged, or a ValueError naming the first key or text in it, at any
    depth, that PostgreSQL's jsonb cannot hold (a NUL, a lone surrogate): the fields'
    own check reads only the text of a field, not the text inside a field's JSON."""
    pending: list[tuple[str, JsonValue]] = [("user_view", value)]
    while pending:
        where, item = pending.pop()
        if isinstance(item, str):
            _storable_at(where, item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                _storable_at(f"{where} key {key[:40]!r}", key)
                pending.append((f"{where}[{key[:40]!r}]", inner))
        elif isinstance(item, list):
            pending.extend((f"{where}[{i}]", inner) for i, inner in enumerate(item))
    return value


def _storable_at(where: str, text: str) -> None:
    try:
        storable(text)
    except ValueError as exc:
        raise ValueError(f"{where} {exc}") from None


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

    @model_validator(mode="after")
    def _says_what_its_kind_needs(self) -> Self:
        # As the store holds every event (belief_events' checks): a supersession names its
        # successor, a corroboration the project and the episode that corroborated.
        if self.kind == "superseded" and self.related_id is None:
            raise ValueError("related_id is required for a 'superseded' event: its successor")
        if self.kind == "corroborated" and self.project is None:
            raise ValueError("project is required for a 'corroborated' event")
        if self.kind == "corroborated" and self.evidence_id is None:
            raise ValueError("evidence_id is required for a 'corroborated' event: its episode")
        return self


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

    entity: str = Field(min_length=1)
    sensitivity: SensitivityLevel
    marked_at: Instant

    @field_validator("entity")
    @classmethod
    def _entity_key(cls, value: str) -> str:
        # The key an entity is marked by (Memory.entities.mark), of any script: "москва"
        # and "東京" are keys as "zsh" is. A name is not read as its key here: an export
        # holds keys, and "Maria Lopez" in one was edited in.
        key = checked_key(value, "entity")
        if key != value:
            raise ValueError(f"is not an entity key (its key would be {key!r}; {KEY_RULE})")
        return key


class ExportedMissHint(_Item):
    """A subject the principal's recalls missed, counted toward a re-derivation hint
    (pending while ``queued_at`` is set and ``acknowledged_at`` is not)."""

    subject: str = Field(min_length=1)
    miss_count: int = Field(ge=1, le=INT4_MAX)
    first_missed_at: Instant
    last_missed_at: Instant
    queued_at: Instant | None = None
    acknowledged_at: Instant | None = None

    @model_validator(mode="after")
    def _acknowledged_once_queued(self) -> Self:
        if self.acknowledged_at is not None and (
            self.queued_at is None or self.acknowledged_at < self.queued_at
        ):
            raise ValueError("acknowledged_at must be at or after queued_at, which it needs")
        return self


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

    @model_validator(mode="after")
    def _says_what_was_missed(self) -> Self:
        if self.belief_id is None and self.expected is None:
            raise ValueError("expected or belief_id is required: what the recall should have shown")
        if self.acknowledged_at is not None and self.acknowledged_at < self.reported_at:
            raise ValueError("acknowledged_at must be at or after reported_at")
        return self


class _ViewPart(BaseModel):
    """A part of a stored user view, as the readers of one take it (``Memory.explain``,
    the feedback and miss checks, the tools): what they index must be there and of its
    kind; what they read with a default may be missing (a view stored by an earlier
    release), and a key they do not read is kept as it is."""

    model_config = ConfigDict(frozen=True, extra="allow", strict=True)


class _ViewItem(_ViewPart):
    belief_id: str
    text: str
    band: Literal["high", "medium", "low"]
    blocked: bool
    provisional: bool
    names_redacted: int = Field(default=0, ge=0)
    origin_redacted: bool = False
    conflict_set_id: str | None = None
    sensitivity: int | None = Field(default=None, ge=0, le=3)


class _ViewCorrection(_ViewPart):
    belief_id: str
    kind: Literal["superseded", "retired", "expired", "retracted", "withdrawn"]
    line: str
    named: list[str]


class _UserView(_ViewPart):
    surface: Literal["direct", "team", "public", "vault"]
    moment: Literal["session_snapshot", "in_turn", "child_run"]
    session_id: str | None = None
    rendered_ids: list[str] = []
    told_ids: list[str] = []
    items: list[_ViewItem] = []
    corrections: list[_ViewCorrection] = []
    dropped_below_floor: int = Field(default=0, ge=0)
    dropped_by_budget: int = Field(default=0, ge=0)
    corrections_deferred: int = Field(default=0, ge=0)


def _readable_view(value: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """``value`` unchanged, or a ValueError naming the first part of it a reader of a
    stored user view could not read (see :class:`_ViewPart`)."""
    try:
        _UserView.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"])
        raise ValueError(f"user_view{where}: {first['msg']}") from None
    return value


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
    user_view: (
        Annotated[
            dict[str, JsonValue], AfterValidator(_storable_json), AfterValidator(_readable_view)
        ]
        | None
    ) = None

    @model_validator(mode="after")
    def _view_of_this_recall(self) -> Self:
        # What a reader trusts of the view: the surface that decides who may see the
        # recall (the tools read it there), and its moment.
        if self.user_view is not None:
            for field in ("surface", "moment"):
                if self.user_view[field] != getattr(self, field):
                    raise ValueError(
                        f"user_view's {field} {self.user_view[field]!r} is not the"
                        f" trace's {field} {getattr(self, field)!r}"
                    )
        return self


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


#: The feedback a recall records once per belief: every kind but a rejection of no stated
#: kind and a cleared flag, which a belief may take again after each clear.
_ONCE = frozenset({"cited", "rejected_not_true", "rejected_changed", "rejected_not_here"})


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
        # What the store records once (its unique indexes): a recall's citation or typed
        # rejection of a belief, a corroboration by one episode in one project, a report
        # of one miss of one recall.
        (
            "feedback",
            (
                (f.trace_id, f.belief_id, f.kind)
                if f.trace_id is not None and f.kind in _ONCE
                else index
                for index, f in enumerate(export.feedback)
            ),
            "kind",
        ),
        (
            "belief_events",
            (
                (e.belief_id, e.project, e.evidence_id) if e.kind == "corroborated" else index
                for index, e in enumerate(export.belief_events)
            ),
            "evidence_id",
        ),
        (
            "reported_misses",
            ((r.trace_id, r.belief_id, r.expected) for r in export.reported_misses),
            "expected",
        ),
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
