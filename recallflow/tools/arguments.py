"""The arguments a model writes when it calls a recallflow tool: one closed pydantic model
per tool, the one source of that tool's JSON schema.

Nothing here names a tenant, a principal or a surface: the host binds those when it builds
the :class:`~recallflow.tools.Toolset`, and every model refuses unknown fields, so an
argument that tries to name them is a validation error, not an override (see "Trust
boundary" in docs/architecture.md).
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any, Literal

from pydantic import Field, ValidationError, create_model, field_validator, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from recallflow.ingestion import PAGE_MAX
from recallflow.models.corrections import EXPECTED_MAX_LENGTH, NOTE_MAX_LENGTH, RejectionKind
from recallflow.models.fields import InputModel, Instant, Key, has_visible_text, visible
from recallflow.models.request import Entry
from recallflow.models.session import SessionKind
from recallflow.models.store import EpisodeKind, normalise_subject
from recallflow.policy import DEFAULT_EPISODE_POLICY, DEFAULT_POLICY, RetrievalPolicy
from recallflow.tools.episode_log import LOG_CURSOR_MAX_LENGTH, LogCursor
from recallflow.tools.listing import CURSOR_MAX_LENGTH, read_cursor
from recallflow.tools.paging import decode_cursor


class ToolArguments(InputModel):
    """Closed: a field the schema does not name is refused."""


class WorkingStateArgs(ToolArguments):
    """What the agent is doing now; recall queries are formed from it."""

    goal: str | None = Field(default=None, max_length=4000, description="The current goal.")
    query: str | None = Field(
        default=None, max_length=4000, description="An explicit question to recall for."
    )
    # Each entry is bounded like the working state's own (an over-long one was refused
    # only when the handler built that state, as an internal error naming nothing).
    entities: list[Entry] = Field(
        default_factory=list, max_length=64, description="Entities in play (services, people)."
    )
    files: list[Entry] = Field(default_factory=list, max_length=64, description="Files in play.")
    recent_turns: list[Entry] = Field(
        default_factory=list,
        max_length=16,
        description="One-line summaries of the last few turns, oldest first.",
    )

    def asks_something(self) -> bool:
        """Whether any of the texts has something visible to search for."""
        texts = (self.goal, self.query, *self.entities, *self.files, *self.recent_turns)
        return any(text is not None and has_visible_text(text) for text in texts)


def _refused(
    model: str, field: str, value: object, message: str, kind: str = "nothing_asked"
) -> ValidationError:
    """The model's invalid argument ``field`` (by default: a working state with nothing to
    search for)."""
    error = PydanticCustomError(kind, message)
    detail = InitErrorDetails(type=error, loc=(field,), input=value)
    return ValidationError.from_exception_data(model, [detail])


class _AskingArgs(WorkingStateArgs):
    """A working state an in-turn recall searches with: at least one of ``goal``,
    ``query``, ``entities``, ``files`` or ``recent_turns``, with visible text."""

    @model_validator(mode="after")
    def _asks_for_something(self) -> _AskingArgs:
        # With nothing to recall for, no arm has a query and the block is always empty: a
        # model reading that as "nothing is remembered" is misled, so the call is refused,
        # naming the first field it could fill (a session turn's pending corrections wait
        # for its next turn that asks something).
        if not self.asks_something():
            raise _refused(
                type(self).__name__,
                "goal",
                self.goal,
                "nothing to recall for: give a goal or a query (or entities, files,"
                " recent_turns) with visible text",
            )
        return self


class RecallBeliefsArgs(_AskingArgs):
    """Arguments of ``recall_beliefs``: at least one of ``goal``, ``query``, ``entities``,
    ``files`` or ``recent_turns``."""

    project: Key | None = Field(default=None, description="The project being worked in.")
    # A past as_of reads what is known now about then (the toolset sends known_as_of
    # now): what held at that time, learned before or since, and nothing retracted since.
    as_of: Instant | None = Field(
        default=None,
        description="Recall what held at this time (ISO 8601), as known now: what was"
        " learned since about that time is included, what was retracted since is not;"
        " default now.",
    )


def _since_field(what: str) -> Any:
    """The ``since`` argument of a read of the event log (``what`` it reads)."""
    return Field(
        default=None,
        description=f"Only {what} from this time on (ISO 8601 with a time zone, e.g."
        " '2026-12-07T00:00:00Z' for since Monday); not later than the end of the window."
        " Default: from the first event.",
    )


def _window_ends(model: str, since: datetime | None, end: datetime | None, name: str) -> None:
    """Refuse a window whose ``since`` is later than its end (``name``), naming ``since``."""
    if since is not None and end is not None and since > end:
        raise _refused(
            model,
            "since",
            since.isoformat(),
            f"is later than {name} ({end.isoformat()}): no event happened in between",
            "window_reversed",
        )


class SearchEpisodesArgs(ToolArguments):
    """Arguments of ``search_episodes``."""

    query: str = Field(min_length=1, max_length=4000, description="What happened to look for.")
    as_of: Instant | None = Field(
        default=None,
        description="Search what had happened by this time (ISO 8601), as logged up to"
        " now: an event of that time logged since is included; default now.",
    )
    since: Instant | None = _since_field("what happened")
    max_items: int | None = Field(default=None, ge=1, le=50, description="At most this many.")

    @field_validator("query")
    @classmethod
    def _has_text(cls, value: str) -> str:
        # The search refuses a query with nothing visible in it; said here, it is the
        # model's invalid argument, not input the store refused.
        return visible(value)

    @model_validator(mode="after")
    def _window(self) -> SearchEpisodesArgs:
        _window_ends(type(self).__name__, self.since, self.as_of, "as_of")
        return self


class ExplainRecallArgs(ToolArguments):
    """Arguments of ``explain_recall``."""

    trace_id: Key = Field(description="The trace id a recall_beliefs or session_recall returned.")


class CiteArgs(ToolArguments):
    """Arguments of ``cite``."""

    trace_id: Key = Field(description="The trace id of the recall the beliefs came from.")
    belief_ids: list[Key] = Field(
        min_length=1, max_length=64, description="The ids of the recalled beliefs you relied on."
    )


class RejectBeliefArgs(ToolArguments):
    """Arguments of ``reject_belief``."""

    trace_id: Key = Field(description="The trace id of the recall that showed the belief.")
    belief_id: Key = Field(description="The id of the belief the user rejected.")
    kind: RejectionKind = Field(
        description="not_true: it never held; changed: it held and changed (give the "
        "replacement); not_here: it holds elsewhere, not in this project; unspecified: "
        "the user only said it is wrong."
    )
    replacement: str | None = Field(
        default=None,
        min_length=1,
        max_length=4000,
        description="For kind=changed: what holds now, as one statement.",
    )
    project: Key | None = Field(
        default=None,
        description="For kind=not_here: the project it does not hold in (default: the "
        "recall's project).",
    )
    note: str | None = Field(
        default=None,
        min_length=1,
        max_length=NOTE_MAX_LENGTH,
        description="The user's words.",
    )

    @field_validator("replacement", "note")
    @classmethod
    def _has_text(cls, value: str | None) -> str | None:
        # A statement (or the user's words) must show something; said here, it is the
        # model's invalid argument named as the model wrote it, and the schema states it:
        # an empty note passed the schema and came back as input the store refused.
        return None if value is None else visible(value)


class UnflagBeliefArgs(ToolArguments):
    """Arguments of ``unflag_belief``."""

    trace_id: Key = Field(description="The trace id of the recall that showed the belief.")
    belief_id: Key = Field(description="The id of the flagged belief the user says is right.")
    note: str | None = Field(
        default=None,
        min_length=1,
        max_length=NOTE_MAX_LENGTH,
        description="The user's words.",
    )

    @field_validator("note")
    @classmethod
    def _has_text(cls, value: str | None) -> str | None:
        # As a rejection's note: the user's words must show something.
        return None if value is None else visible(value)


#: The largest model window a tool call may name (a session's window is stored as an integer).
_LARGEST_WINDOW = 10_000_000


def snapshot_shares(policy: RetrievalPolicy) -> tuple[float, ...]:
    """The shares of the window the snapshots of the kinds ``open_session`` opens take."""
    kinds = (SessionKind.INTERACTIVE, SessionKind.ASYNC)
    return tuple(sorted({policy.sessions.budgets[kind].window_share for kind in kinds}))


def _window_field(least: int, shares: tuple[float, ...]) -> dict[str, Any]:
    """The ``model_window`` field of ``open_session`` when sessions need ``least`` tokens
    and a snapshot takes ``shares`` of the window."""
    share = " or ".join(f"{s * 100:g}%" for s in shares)
    return {
        "default": max(200_000, least),
        "ge": least,
        "le": max(_LARGEST_WINDOW, least),
        "description": f"The model's context window, in tokens: at least {least:,}, the"
        f" smallest this host opens a session with, since {share} of it holds the snapshot.",
    }


class OpenSessionArgs(ToolArguments):
    """Arguments of ``open_session``."""

    # An object, though named like recall_beliefs's text field: a model wrote a string
    # here from the name alone, and was told only of a class it cannot see.
    goal: WorkingStateArgs | None = Field(
        default=None,
        description="What the session is for, to prime the snapshot with: an object with"
        ' the fields of recall_beliefs (goal, query, entities, ...), e.g. {"goal": "Ship the'
        ' price view"}; not a string.',
    )
    project: Key | None = Field(default=None, description="The project the session works in.")
    kind: Literal["interactive", "async"] = Field(
        default=SessionKind.INTERACTIVE.value,
        description="interactive: a conversation; async: a long run with a known objective.",
    )
    model_window: int = Field(
        **_window_field(DEFAULT_POLICY.sessions.min_window, snapshot_shares(DEFAULT_POLICY))
    )

    @model_validator(mode="after")
    def _goal_asks_something(self) -> OpenSessionArgs:
        # Said here, in the tool's words: the store's refusal came back as invalid_input
        # and listed ``tools``, a field of its working state this tool does not take, so
        # a model that followed it was refused again.
        if self.goal is not None and not self.goal.asks_something():
            raise _refused(
                type(self).__name__,
                "goal",
                self.goal.model_dump(),
                "has nothing to prime the snapshot with: give visible text in one of goal,"
                " query, entities, files or recent_turns, or leave goal out",
            )
        return self


@cache
def open_session_arguments(min_window: int, shares: tuple[float, ...]) -> type[OpenSessionArgs]:
    """The arguments of ``open_session`` under a policy whose sessions need a window of at
    least ``min_window`` tokens, of which a snapshot takes ``shares``: the schema a model
    reads states the bound that holds."""
    if (min_window, shares) == (
        DEFAULT_POLICY.sessions.min_window,
        snapshot_shares(DEFAULT_POLICY),
    ):
        return OpenSessionArgs
    window: Any = (int, Field(**_window_field(min_window, shares)))
    return create_model(
        "OpenSessionArgs",
        __base__=OpenSessionArgs,
        __doc__=OpenSessionArgs.__doc__,
        __module__=__name__,
        model_window=window,
    )


class SessionRecallArgs(_AskingArgs):
    """Arguments of ``session_recall``: the session, and at least one of ``goal``,
    ``query``, ``entities``, ``files`` or ``recent_turns``, as for ``recall_beliefs``."""

    session_id: Key = Field(description="The session id open_session returned.")


class BeliefHistoryArgs(ToolArguments):
    """Arguments of ``belief_history``."""

    belief_id: Key = Field(description="The id of a belief (from a recall's items).")


class ResumeSessionArgs(ToolArguments):
    """Arguments of ``resume_session``."""

    session_id: Key = Field(
        description="The session id open_session returned, in this conversation or before a"
        " restart."
    )


class ReportMissArgs(ToolArguments):
    """Arguments of ``report_miss``: the recall, and what it should have shown
    (``expected``, ``belief_id``, or both)."""

    trace_id: Key = Field(
        description="The trace id of the recall that should have shown it: a recall's or a"
        " session turn's trace_id, or a session's snapshot_trace_id for its prefix."
    )
    belief_id: Key | None = Field(
        default=None,
        description="A belief memory holds that the recall should have shown (an id you saw"
        " in another recall or a belief's history).",
    )
    expected: str | None = Field(
        default=None,
        min_length=1,
        max_length=EXPECTED_MAX_LENGTH,
        description="What should have been remembered, in words, as one statement.",
    )
    note: str | None = Field(
        default=None,
        min_length=1,
        max_length=NOTE_MAX_LENGTH,
        description="The user's words.",
    )

    @field_validator("expected", "note")
    @classmethod
    def _has_text(cls, value: str | None) -> str | None:
        return None if value is None else visible(value)

    @model_validator(mode="after")
    def _says_what(self) -> ReportMissArgs:
        # A miss of nothing tells formation nothing: refused, naming the field a model
        # can always fill (it may not know any belief's id).
        if self.belief_id is None and self.expected is None:
            raise _refused(
                type(self).__name__,
                "expected",
                None,
                "say what the recall should have shown: expected (in words), belief_id, or both",
            )
        return self


class LogEpisodeArgs(ToolArguments):
    """Arguments of ``log_episode``: what happened, and optionally when, where and a key of
    your own that makes a retried call store it once."""

    content: str = Field(
        min_length=1,
        max_length=DEFAULT_EPISODE_POLICY.logged_chars,
        description="What happened or what the user said, as it should be found later by"
        " search_episodes: a few sentences that stand on their own (names, not 'he').",
    )
    occurred_at: Instant | None = Field(
        default=None,
        description="When it happened (ISO 8601 with a time zone), not later than now;"
        " default now.",
    )
    project: Key | None = Field(default=None, description="The project it happened in.")
    kind: EpisodeKind = Field(
        default=EpisodeKind.MESSAGE,
        description="message: what was said; observation: what you saw happen; summary: of"
        " a stretch of conversation; tool_call: what a tool did; correction: the user"
        " corrected something.",
    )
    key: Key | None = Field(
        default=None,
        description="An id of your own for this event (e.g. 'standup-2026-12-06'): sent"
        " again with the same content, the episode is stored once, so a retried call is"
        " safe. Without it, every call stores a new episode.",
    )

    @field_validator("content")
    @classmethod
    def _has_text(cls, value: str) -> str:
        return visible(value)


@cache
def log_episode_arguments(logged_chars: int) -> type[LogEpisodeArgs]:
    """The arguments of ``log_episode`` under an episode policy whose episodes logged by a
    tool hold at most ``logged_chars`` characters: the schema states the bound that holds."""
    if logged_chars == DEFAULT_EPISODE_POLICY.logged_chars:
        return LogEpisodeArgs
    field = LogEpisodeArgs.model_fields["content"]
    content: Any = (
        str,
        Field(min_length=1, max_length=logged_chars, description=field.description),
    )
    return create_model(
        "LogEpisodeArgs",
        __base__=LogEpisodeArgs,
        __doc__=LogEpisodeArgs.__doc__,
        __module__=__name__,
        content=content,
    )


class ListBeliefsArgs(ToolArguments):
    """Arguments of ``list_beliefs``: all optional; a page at a time."""

    project: Key | None = Field(
        default=None, description="Only the beliefs learned in this project."
    )
    subject: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="Only the beliefs about this, matched against each belief's subject"
        " (e.g. 'deploy' finds 'billing-deploy').",
    )
    cursor: str | None = Field(
        default=None,
        min_length=1,
        max_length=CURSOR_MAX_LENGTH,
        description="The next_cursor of the previous page, to read on from it with that"
        " listing's project and subject (the pages list memory as it stood at the first"
        " one).",
    )
    max_items: int | None = Field(
        default=None,
        ge=1,
        le=200,
        description="At most this many on this page (the host may list fewer).",
    )

    @field_validator("subject")
    @classmethod
    def _subject_has_text(cls, value: str | None) -> str | None:
        if value is not None and not normalise_subject(visible(value)):
            raise ValueError("has no letters or digits to match a subject with")
        return value

    @field_validator("cursor")
    @classmethod
    def _readable_cursor(cls, value: str | None) -> str | None:
        if value is not None:
            read_cursor(value)
        return value


class ListEpisodesArgs(ToolArguments):
    """Arguments of ``list_episodes``: all optional; a page at a time."""

    since: Instant | None = _since_field("what happened")
    until: Instant | None = Field(
        default=None,
        description="Only what happened up to this time (ISO 8601 with a time zone), as"
        " logged up to now. Default: now.",
    )
    session_id: Key | None = Field(
        default=None,
        description="Only the events of this session (a session_id an item of an earlier"
        " page showed).",
    )
    project: Key | None = Field(default=None, description="Only the events of this project.")
    kind: EpisodeKind | None = Field(
        default=None,
        description="Only events of this kind: message, observation, summary, tool_call or"
        " correction.",
    )
    newest_first: bool = Field(
        default=False,
        description="The latest events first (e.g. 'what did we do last session'); default"
        " the order they happened in.",
    )
    cursor: str | None = Field(
        default=None,
        min_length=1,
        max_length=LOG_CURSOR_MAX_LENGTH,
        description="The next_cursor of the previous page, to read on from it with that"
        " listing's filters and order (the pages read the log as it stood at the first"
        " one).",
    )
    max_items: int | None = Field(
        default=None,
        ge=1,
        le=PAGE_MAX,
        description="At most this many on this page (the host may list fewer).",
    )

    @field_validator("cursor")
    @classmethod
    def _readable_cursor(cls, value: str | None) -> str | None:
        if value is not None:
            decode_cursor(value, LogCursor, "list_episodes")
        return value

    @model_validator(mode="after")
    def _window(self) -> ListEpisodesArgs:
        _window_ends(type(self).__name__, self.since, self.until, "until")
        return self
