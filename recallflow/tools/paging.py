"""The cursor a paged tool listing returns, pure: ``list_beliefs`` and ``list_episodes``
read a page at a time with one (see "The tools" and "Reading the log" in docs/tools.md).

A cursor carries the time the first page read memory at, the last id shown and the
listing's filters (a :class:`Filters` of the tool's), so every page reads as the first
did: as memory stood then, in the listing's order, with its filters. A cursor sent alone
reads on; one sent with a filter of another value than its own is refused naming that
filter, since reading on from one listing's place under another's filters would return a
page of neither, with no error to tell. To the model a cursor is opaque text.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Set
from datetime import UTC, datetime
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import to_jsonable_python

from recallflow.errors import InvalidInputError
from recallflow.models.fields import Instant, Key

#: A kind of cursor.
C = TypeVar("C", bound="Cursor")

#: A listing's filters.
F = TypeVar("F", bound="Filters")


class Cursor(BaseModel):
    """Where a listing stands: the time its first page read memory at, the last id shown
    (a listing's cursor is this and its :class:`Filters`, in a subclass of both)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    at: Instant
    after: Key


class Filters(BaseModel):
    """What a listing keeps, as its first page was asked for (a tool's names its fields)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @classmethod
    def given(cls: type[F], arguments: BaseModel) -> F:
        """The filters a tool call's ``arguments`` give (a filter left out, its default)."""
        return cls.model_validate(arguments.model_dump(include=set(cls.model_fields)))


def encode_cursor(cursor: Cursor) -> str:
    """``cursor`` as the opaque text a page returns."""
    text = cursor.model_dump_json(exclude_defaults=True)
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def cursor_refusal(tool: str) -> str:
    """What a refused cursor of ``tool``'s is told: the same words whatever was wrong with
    it, so a refusal tells nothing of what a cursor named."""
    return f"is not a next_cursor that {tool} returned; leave it out to start over"


def decode_cursor(text: str, kind: type[C], tool: str) -> C:
    """The cursor of ``kind`` that :func:`encode_cursor` wrote as ``text``, for ``tool``.

    :raises ValueError: any other text, or a time after now (no page was read then).
    """
    problem = ValueError(cursor_refusal(tool))
    try:
        raw = base64.urlsafe_b64decode(text.strip() + "=" * (-len(text.strip()) % 4))
        cursor = kind.model_validate(json.loads(raw))
    except (binascii.Error, ValueError, ValidationError, RecursionError):
        raise problem from None
    if cursor.at > datetime.now(UTC):
        raise problem
    return cursor


def page_filters(given: F, named: Set[str], cursor: F | None) -> F:
    """The filters a page reads with: ``given`` on a first page; the cursor's own (the
    first page's) on the next, where a filter named again (``named``) must be the cursor's.

    :raises InvalidInputError: naming a filter given with another value than the cursor's.
    """
    if cursor is None:
        return given
    kind = type(given)
    fields = set(kind.model_fields)
    for name in sorted(named & fields):
        mine, theirs = getattr(given, name), getattr(cursor, name)
        if mine != theirs:
            shown = (
                "none"
                if theirs is None
                else json.dumps(to_jsonable_python(theirs), ensure_ascii=False)
            )
            raise InvalidInputError(
                f"differs from the listing cursor reads on ({name} {shown}): send the"
                " cursor alone to read on, or leave cursor out to list anew",
                field=name,
            )
    return kind.model_validate(cursor.model_dump(include=fields))
