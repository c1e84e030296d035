"""The public request of a recall: who asks, where, when and about what.

Every model is frozen, so a stage cannot change what the caller asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Self

from pydantic import Field, field_validator

from recallflow.models.base import ModelEnum
from recallflow.models.fields import INT4_MAX, InputModel, Instant, Key, has_visible_text, visible

#: One entry of a working state's lists (an entity, a file, a tool, a turn summary).
Entry = Annotated[str, Field(max_length=4000)]


class Moment(ModelEnum):
    """When a recall happens (see "Moments" in docs/architecture.md)."""

    SESSION_SNAPSHOT = "session_snapshot"
    IN_TURN = "in_turn"
    CHILD_RUN = "child_run"


class Surface(ModelEnum):
    """Where the recalled block is shown; each surface has a sensitivity ceiling.

    The ceilings are in :data:`recallflow.policy.SURFACE_CEILINGS`.
    """

    DIRECT = "direct"  # a one-to-one session with the principal
    TEAM = "team"  # a channel other people of the tenant can read
    PUBLIC = "public"  # anything anyone may read
    VAULT = "vault"  # an explicitly elevated, principal-only surface


class WorkingState(InputModel):
    """What the agent is doing now; recall queries derive from this, not from the raw last
    message."""

    goal: str | None = Field(default=None, max_length=4000, description="The current goal.")
    query: str | None = Field(
        default=None, max_length=4000, description="An explicit recall query, when there is one."
    )
    entities: tuple[Entry, ...] = Field(default=(), max_length=64, description="Active entities.")
    files: tuple[Entry, ...] = Field(default=(), max_length=64, description="Files in play.")
    tools: tuple[Entry, ...] = Field(default=(), max_length=64, description="Tools in play.")
    recent_turns: tuple[Entry, ...] = Field(
        default=(), max_length=16, description="Summaries of the last few turns, oldest first."
    )


def asks_nothing(state: WorkingState) -> bool:
    """Whether ``state`` gives a recall nothing to search for: no goal, query, entity, file,
    tool or turn with a visible character. An in-turn recall of such a state has no query
    for any arm, so its block is always empty."""
    texts = (state.goal, state.query, *state.entities, *state.files, *state.tools)
    return not any(
        text is not None and has_visible_text(text) for text in (*texts, *state.recent_turns)
    )


class RecallRequest(InputModel):
    """Who asks, where, when and about what."""

    tenant_id: Key
    principal_id: Key
    working_state: WorkingState
    moment: Moment = Moment.IN_TURN
    surface: Surface = Surface.DIRECT
    project: Key | None = Field(default=None, description="The project the agent works in now.")
    session_id: Key | None = Field(
        default=None,
        description="The caller's label for the conversation, kept in the trace. A session's"
        " own turns set it to the session's id; a plain recall may not name a stored session"
        " of the principal (recall inside the session instead).",
    )
    as_of: Instant | None = Field(
        default=None, description="World time to recall at; None means now (resolved at entry)."
    )
    known_as_of: Instant | None = Field(
        default=None, description="System time to recall at; None means the same as as_of."
    )
    max_items: int | None = Field(
        default=None, ge=1, le=200, description="Item cap override (None: the policy's)."
    )
    max_tokens: int | None = Field(
        default=None, ge=1, le=20_000, description="Token cap override (None: the policy's)."
    )
    model_window: int = Field(
        default=200_000, ge=1_000, le=INT4_MAX, description="The model's context window, in tokens."
    )

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with ``update`` applied, checked as a new request is (a
        :class:`~pydantic.ValidationError` naming the field): pydantic's own copy takes
        whatever it is given, and a request edited so reached the recall's nodes (a tenant
        id that is no identifier failed midway, a surface no member one as a KeyError).
        Checked here, where the edit is made, the recall need not check every request it
        is given again (a dump and a validation, 1.4 % of a recall's client instructions
        at 10k)."""
        copied = super().model_copy(update=update, deep=deep)
        if not update:
            return copied
        return type(self).model_validate(copied.model_dump(warnings=False))


class EpisodeSearchRequest(InputModel):
    """An archival search of the event log: what happened, asked by the agent itself (see
    "Moments" in docs/architecture.md). No recall moment runs it."""

    tenant_id: Key
    principal_id: Key
    query: str = Field(min_length=1, max_length=4000, description="What to look for.")
    surface: Surface = Surface.DIRECT
    as_of: Instant | None = Field(
        default=None,
        description="World time to search at: episodes that occurred after it are not seen;"
        " None means now (resolved at entry).",
    )
    known_as_of: Instant | None = Field(
        default=None,
        description="System time to search at: episodes recorded after it are not seen;"
        " None means the same as as_of.",
    )
    since: Instant | None = Field(
        default=None,
        description="World time to search from: episodes that occurred before it are not"
        " seen; None means from the first. Not later than as_of.",
    )
    max_items: int | None = Field(
        default=None, ge=1, le=50, description="Item cap override (None: the policy's)."
    )
    max_tokens: int | None = Field(
        default=None, ge=1, le=20_000, description="Token cap override (None: the policy's)."
    )
    model_window: int = Field(
        default=200_000, ge=1_000, le=INT4_MAX, description="The model's context window, in tokens."
    )

    @field_validator("query")
    @classmethod
    def _has_text(cls, value: str) -> str:
        return visible(value)
