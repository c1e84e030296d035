"""The field rules every input model shares, so the same input is judged the same way at
every entry point (see "Reliability" in docs/architecture.md).

- Text: a NUL character (PostgreSQL text cannot hold one) or a lone surrogate (not
  encodable as UTF-8) is refused, naming the field; never folded or dropped.
- Statements and other required free text: at least one visible character; text made only
  of whitespace, zero-width or other format characters is refused.
- Instants: timezone-aware only (a naive datetime would mean whatever the client's zone
  is), converted to UTC, and at least a day inside the calendar's ends, so the stored
  instant reads back as a datetime in any session time zone.
- Keys: surrounding whitespace removed, then the key pattern (ASCII letters, digits and
  ``. _ : @ / -``, at most 200 characters); the same rule for a draft, a request and a tool
  argument.
- Numbers: floats finite (``allow_inf_nan=False``); integers within the column they are
  stored in (:data:`INT4_MAX`).
"""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field, field_validator

from recallflow.models.base import FrozenModel

#: The largest value of a PostgreSQL ``integer`` column.
INT4_MAX = 2**31 - 1
#: Categories of characters that show nothing on their own: controls, format characters
#: (zero-width spaces and joiners, the byte-order mark), separators, combining marks.
_INVISIBLE = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Mn", "Me"})
_EARLIEST = datetime.min.replace(tzinfo=UTC) + timedelta(days=1)
_LATEST = datetime.max.replace(tzinfo=UTC) - timedelta(days=1)


def storable(value: str) -> str:
    """``value`` unchanged, or a ValueError when PostgreSQL could not store it as text."""
    if "\x00" in value:
        raise ValueError("contains a NUL character (\\x00), which text cannot hold")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("contains a lone surrogate, which is not valid Unicode text") from None
    return value


def visible(value: str) -> str:
    """``value`` unchanged, or a ValueError when it shows nothing: empty, or only
    whitespace, zero-width and other invisible characters."""
    if not any(unicodedata.category(ch) not in _INVISIBLE for ch in value):
        raise ValueError("has no visible text (only whitespace or invisible characters)")
    return value


def utc_instant(value: datetime) -> datetime:
    """An aware datetime as the same instant in UTC; a naive one is refused."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(
            "must be timezone-aware (e.g. 2025-01-31T12:00:00Z); a naive datetime is refused"
        )
    try:
        instant = value.astimezone(UTC)
    except OverflowError:
        raise ValueError("is outside the range of dates that can be stored") from None
    if not _EARLIEST <= instant <= _LATEST:
        raise ValueError("is outside the range of dates that can be stored")
    return instant


def _stripped(value: object) -> object:
    return value.strip() if isinstance(value, str) else value


#: A point in time: timezone-aware, stored and returned in UTC.
Instant = Annotated[datetime, AfterValidator(utc_instant)]

#: An identifier (tenant, principal, belief, project, session ...).
Key = Annotated[
    str,
    BeforeValidator(_stripped),
    Field(
        min_length=1,
        max_length=200,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,199}$",
        description="An identifier: letters, digits and . _ : @ / - (no spaces), ≤ 200 characters.",
    ),
]


def _storable_field(value: Any) -> Any:
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, list | tuple) and value and isinstance(value[0], str):
        for item in value:
            if isinstance(item, str):
                storable(item)
    return value


class InputModel(FrozenModel):
    """A model of caller input: finite floats only, and every text field storable (checked
    before any field's own normalisation, so a NUL is refused, not folded)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    @field_validator("*", mode="before")
    @classmethod
    def _storable_text(cls, value: Any) -> Any:
        return _storable_field(value)
