"""The pydantic models that cross a boundary: what goes into the store and what comes out.

A *belief* is what the agent holds true (ranked, bi-temporal, with a lifecycle state); an
*episode* is an entry of the ordered event log; a *belief edge* links two beliefs for graph
expansion. Recall-side models live in :mod:`recallflow.models.request` and
:mod:`recallflow.models.result`.

Every model is frozen, so a value cannot change after it was checked, and validates on
construction, so an invalid draft fails before it reaches SQL, naming the field.
"""

from __future__ import annotations

import re
import unicodedata
from enum import IntEnum
from typing import Annotated, Any, Self, cast

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    SerializationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import core_schema

from recallflow.models.base import ModelEnum
from recallflow.models.fields import INT4_MAX, InputModel, Instant, Real, storable, visible
from recallflow.models.fields import Key as Key
from recallflow.models.key_reading import SEPARATORS, read_text

# ---------------------------------------------------------------------------------------
# Enumerations (mirrored by CHECK constraints in migrations/0001_schema.sql)
# ---------------------------------------------------------------------------------------


class BeliefType(ModelEnum):
    """What kind of thing a belief is; bounds its portability at formation."""

    PREFERENCE = "preference"
    USER_MODEL = "user_model"
    FACT = "fact"
    PROCEDURE = "procedure"
    ENVIRONMENT = "environment"


class Scope(ModelEnum):
    """Where a belief was learned to hold: for the user everywhere, or in one project."""

    USER = "user"
    PROJECT = "project"


class Portability(ModelEnum):
    """How far a project-scoped belief may travel outside its origin (see "Transfer across
    projects" in docs/architecture.md)."""

    PORTABLE = "portable"
    CONTEXTUAL = "contextual"
    LOCAL = "local"


class LifecycleState(ModelEnum):
    """A belief's lifecycle state. Only some states are admissible to recall (see "Lifecycle
    and history" in docs/architecture.md)."""

    ACTIVE = "active"
    PROVISIONAL = "provisional"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"
    RETIRED = "retired"
    CONFLICTED = "conflicted"


#: The serialization context under which a sensitivity is written by its name
#: (``"personal"``), as people read it (the command line's JSON), not by its number, as it
#: is stored: ``model.model_dump(mode="json", context=SENSITIVITY_NAMED)``.
SENSITIVITY_NAMED: dict[str, bool] = {"sensitivity_named": True}


class Sensitivity(IntEnum):
    """Ordered sensitivity levels; a surface sees the levels up to its ceiling."""

    PUBLIC = 0
    INTERNAL = 1
    PERSONAL = 2
    SECRET = 3

    @property
    def label(self) -> str:
        """The level's name as people write it: ``public``, ``internal``, ``personal``,
        ``secret``."""
        return self.name.lower()

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[Any], handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        """The enum's own schema, written as JSON by its number, or by its :attr:`label`
        under :data:`SENSITIVITY_NAMED`."""
        schema: dict[str, Any] = dict(handler(source))
        schema["serialization"] = core_schema.plain_serializer_function_ser_schema(
            _written, info_arg=True, when_used="json"
        )
        return cast(core_schema.CoreSchema, schema)


def _written(level: Sensitivity, info: SerializationInfo) -> int | str:
    context = info.context
    if isinstance(context, dict) and context.get("sensitivity_named"):
        return Sensitivity(level).label
    return int(level)


class SourceAuthority(ModelEnum):
    """Who vouches for a belief, strongest first; ranked by the authority feature."""

    USER_STATED = "user_stated"
    USER_CONFIRMED = "user_confirmed"
    OBSERVED = "observed"
    INFERRED = "inferred"
    EXTERNAL = "external"


class EpisodeKind(ModelEnum):
    """What an event-log entry records: episodes answer "what happened", beliefs "what is
    true"."""

    MESSAGE = "message"
    TOOL_CALL = "tool_call"
    OBSERVATION = "observation"
    SUMMARY = "summary"
    CORRECTION = "correction"


class EdgeRelation(ModelEnum):
    """How two beliefs relate, for graph expansion."""

    RELATED = "related"
    SAME_EPISODE = "same_episode"
    #: ``dst`` was said right after ``src`` (the next turn of a conversation).
    FOLLOWS = "follows"
    REFINES = "refines"
    DEPENDS_ON = "depends_on"
    CONTRADICTS = "contradicts"


# ---------------------------------------------------------------------------------------
# Field types
# ---------------------------------------------------------------------------------------

#: What an ASCII text's key folds to one ``-``: the reading of an ASCII text, without
#: reading each character (:func:`~recallflow.models.key_reading.read_text`).
_SUBJECT_CLEAN = re.compile(r"[^a-z0-9._:/-]+")
_SPACES = re.compile(r" +")
#: The longest subject or entity key, once normalised.
KEY_MAX = 200
#: What a subject or entity key keeps, as an error message says it.
KEY_RULE = (
    "a key keeps the letters and digits of every script, case-folded (accents of Latin "
    "and Greek letters dropped), and . _ : / -"
)


def _sensitivity(value: object) -> object:
    if isinstance(value, str) and not value.isdigit():
        try:
            return Sensitivity[value.strip().upper()]
        except KeyError:
            names = ", ".join(level.label for level in Sensitivity)
            raise ValueError(f"unknown sensitivity {value!r}; use one of {names}") from None
    return value


SensitivityLevel = Annotated[
    Sensitivity,
    BeforeValidator(_sensitivity),
    Field(description="public (0) < internal (1) < personal (2) < secret (3); name or number."),
]
Confidence = Annotated[float, Field(ge=0.0, le=1.0, description="Belief confidence in [0, 1].")]


def normalise_subject(text: str) -> str:
    """The short, normalised key a subject or entity is matched on.

    Letters and digits of every script, case-folded, with the accents of Latin and Greek
    letters dropped; runs of anything else but ``. _ : / -`` folded to one ``-``, trimmed
    (see :mod:`recallflow.models.key_reading`). ``"Deploy Target (prod)"`` becomes
    ``"deploy-target-prod"``, ``"Müller"`` ``"muller"`` (not ``"m-ller"``, the key of
    ``"Möller"`` too), ``"Project 東京"`` ``"project-東京"`` and ``"Москва"`` ``"москва"``.
    """
    return _folded(text)[:KEY_MAX]


def _folded(text: str) -> str:
    if text.isascii():
        return _SUBJECT_CLEAN.sub("-", text.strip().lower()).strip(SEPARATORS)
    read = _SPACES.sub("-", read_text(text, fold=True))
    return unicodedata.normalize("NFC", read).strip(SEPARATORS)


def checked_key(value: str, field: str) -> str:
    """A draft's subject or entity as its key; refused (never cut) when the key would be
    longer than :data:`KEY_MAX`, since a cut key could match another subject."""
    key = _folded(storable(value))
    if not key:
        raise ValueError(
            f"{field} {value[:80]!r} has no letters or digits a key can keep ({KEY_RULE})"
        )
    if len(key) > KEY_MAX:
        raise ValueError(f"{field} is {len(key)} characters once normalised; at most {KEY_MAX}")
    return key


class _Frozen(InputModel):
    model_config = ConfigDict(
        frozen=True, extra="forbid", str_strip_whitespace=True, allow_inf_nan=False
    )


# ---------------------------------------------------------------------------------------
# What goes in: drafts
# ---------------------------------------------------------------------------------------


class BeliefDraft(_Frozen):
    """A belief as a formation process hands it to the store.

    Omitted ids are generated; an omitted embedding is computed from the statement by the
    store's :class:`~recallflow.ports.Embedder`.
    """

    id: Key | None = Field(default=None, description="Citable id; generated when omitted.")
    tenant_id: Key
    principal_id: Key
    statement: str = Field(min_length=1, max_length=4000, description="What is believed.")
    subject: str = Field(
        min_length=1, max_length=200, description="Short key the belief is about; normalised."
    )
    entities: tuple[str, ...] = Field(
        default=(), max_length=64, description="Entity keys mentioned; normalised, deduplicated."
    )
    belief_type: BeliefType = BeliefType.FACT
    scope: Scope = Scope.PROJECT
    origin_project: Key | None = Field(
        default=None, description="The project it was learned in; required for project scope."
    )
    portability: Portability = Portability.CONTEXTUAL
    state: LifecycleState = LifecycleState.ACTIVE
    confidence: Confidence = 0.7
    valid_from: Instant | None = Field(default=None, description="World time it became true.")
    valid_to: Instant | None = Field(default=None, description="World time it stopped being true.")
    recorded_at: Instant | None = Field(
        default=None, description="System time the store learned it; defaults to now."
    )
    retracted_at: Instant | None = Field(
        default=None, description="System time the store stopped asserting it."
    )
    sensitivity: SensitivityLevel = Sensitivity.INTERNAL
    source_authority: SourceAuthority = SourceAuthority.INFERRED
    source_episode_id: Key | None = None
    corroboration_count: int = Field(default=1, ge=0, le=INT4_MAX)
    corroborating_projects: tuple[Key, ...] = Field(
        default=(), description="Distinct projects whose evidence corroborates it."
    )
    last_corroborated_at: Instant | None = None
    utility: float = Field(default=0.0, ge=0.0, description="Historical usefulness (citations).")
    last_reinforced_at: Instant | None = Field(default=None, description="The decay clock.")
    flagged: bool = False
    supersedes: Key | None = None
    superseded_by: Key | None = None
    conflict_set_id: Key | None = None
    embedding: tuple[Real, ...] | None = Field(
        default=None, description="Precomputed embedding; computed from the statement if omitted."
    )

    @field_validator("statement")
    @classmethod
    def _statement_has_text(cls, value: str) -> str:
        return visible(value)

    @field_validator("subject")
    @classmethod
    def _subject_key(cls, value: str) -> str:
        return checked_key(value, "subject")

    @field_validator("entities")
    @classmethod
    def _entity_keys(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        keys = dict.fromkeys(checked_key(v, "entity") for v in value)
        return tuple(keys)

    @field_validator("corroborating_projects")
    @classmethod
    def _distinct_projects(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(set(value)))

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.scope is Scope.PROJECT and self.origin_project is None:
            # scope defaults to 'project', so a draft that names neither is refused here:
            # the message says both ways out, not only the field the default needs.
            raise ValueError(
                "origin_project is required when scope is 'project' (the default): name the"
                " project the belief was learned in, or set scope to 'user' for a belief"
                " about the user that holds in every project"
            )
        if (
            self.valid_from is not None
            and self.valid_to is not None
            and not self.valid_from < self.valid_to
        ):
            raise ValueError("valid_from must be before valid_to")
        if (
            self.recorded_at is not None
            and self.retracted_at is not None
            and not self.recorded_at < self.retracted_at
        ):
            raise ValueError("recorded_at must be before retracted_at")
        if self.state is LifecycleState.SUPERSEDED and self.superseded_by is None:
            raise ValueError("state is superseded, so superseded_by must name the successor")
        if self.state is LifecycleState.CONFLICTED and self.conflict_set_id is None:
            raise ValueError("state is conflicted, so conflict_set_id must name the set")
        if self.id is not None and self.id in (self.supersedes, self.superseded_by):
            raise ValueError("supersedes or superseded_by names the belief itself")
        return self


class Belief(BeliefDraft):
    """A belief as stored: every field set, including the generated id and system time."""

    id: Key
    recorded_at: Instant
    embedding: tuple[float, ...] | None = Field(default=None, exclude=True, repr=False)


class EpisodeDraft(_Frozen):
    """An entry of the ordered event log."""

    id: Key | None = None
    tenant_id: Key
    principal_id: Key
    project: Key | None = None
    session_id: Key | None = None
    occurred_at: Instant
    kind: EpisodeKind = EpisodeKind.MESSAGE
    content: str = Field(min_length=1, max_length=100_000)
    sensitivity: SensitivityLevel = Sensitivity.INTERNAL
    recorded_at: Instant | None = Field(
        default=None,
        description="System time the store learned of it; None means now (an import may"
        " give the time it was first recorded elsewhere).",
    )

    @field_validator("content")
    @classmethod
    def _content_has_text(cls, value: str) -> str:
        return visible(value)


class Episode(EpisodeDraft):
    """An episode as stored, with its id and system time."""

    id: Key
    recorded_at: Instant


class BeliefEdge(_Frozen):
    """A directed, weighted link between two beliefs of one principal."""

    tenant_id: Key
    principal_id: Key
    src_id: Key
    dst_id: Key
    relation: EdgeRelation = EdgeRelation.RELATED
    weight: float = Field(default=1.0, gt=0.0, le=1.0)

    @model_validator(mode="after")
    def _not_a_loop(self) -> Self:
        if self.src_id == self.dst_id:
            raise ValueError("dst_id is the src_id: an edge cannot link a belief to itself")
        return self


class StoreSummary(_Frozen):
    """Counts of what a store holds, per tenant and principal (used by the demo and CLI)."""

    tenant_id: str
    principal_id: str
    beliefs_by_state: dict[str, int]
    episodes: int
    edges: int
