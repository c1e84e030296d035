"""The field rules every input model shares, so the same input is judged the same way at
every entry point (see "Reliability" in docs/architecture.md).

- Text: a NUL character (PostgreSQL text cannot hold one) or a lone surrogate (not
  encodable as UTF-8) is refused, naming the field; never folded or dropped. Any other
  text is taken in Unicode's composed form (NFC): "é" typed as one character or as "e"
  and a combining accent is the same text, so it is the same statement, subject, entity
  key and search term, whichever form the caller's keyboard or platform sends.
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
- Kinds: a value is taken as the kind its field declares, never converted from another
  (:func:`kind_of`): a boolean is not a number, text is not a number, a number is not a
  boolean or a time, bytes are not text, a set is not an ordered list. What JSON writes
  for a field is still taken: a time as ISO 8601 text, an integer as ``5.0``.
"""

from __future__ import annotations

import re
import types
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    ValidationError,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

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


#: A character that shows whatever surrounds it: printable ASCII but the space.
_SHOWN_ASCII = re.compile(r"[!-~]")


def has_visible_text(value: str) -> bool:
    """Whether ``value`` shows something: a character that is not whitespace, zero-width
    or otherwise invisible. A text holding a printable ASCII character is settled by one
    search, without reading each character's category (a statement's characters one at a
    time were a tenth of the client's time per belief written)."""
    if _SHOWN_ASCII.search(value) is not None:
        return True
    return any(unicodedata.category(ch) not in _INVISIBLE for ch in value)


def visible(value: str) -> str:
    """``value`` unchanged, or a ValueError when it shows nothing: empty, or only
    whitespace, zero-width and other invisible characters."""
    if not has_visible_text(value):
        raise ValueError("has no visible text (only whitespace or invisible characters)")
    return value


def utc_instant(value: datetime) -> datetime:
    """An aware datetime as the same instant in UTC; a naive one is refused, and so is one
    whose timezone cannot tell its offset."""
    try:
        offset = value.utcoffset()
    except Exception as exc:  # a tzinfo is the caller's code: it raised, or broke its protocol
        raise ValueError(
            f"has a timezone that cannot tell its offset from UTC ({type(exc).__name__}: {exc})"
        ) from None
    if value.tzinfo is None or offset is None:
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
    if isinstance(value, bytes | bytearray):  # pydantic would decode it: text is a str
        raise ValueError(_BYTES)
    return value.strip() if isinstance(value, str) else value


#: A point in time: timezone-aware, stored and returned in UTC.
Instant = Annotated[datetime, AfterValidator(utc_instant)]

#: What an identifier is made of, once its surrounding whitespace is removed.
KEY_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,199}$"

#: An identifier (tenant, principal, belief, project, session ...).
Key = Annotated[
    # The constraints are the string's own, inside the before-validator: set on the field
    # outside it, pydantic checked the lengths as a collection's ("Value should have at
    # least 1 item after validation", "at most 200 items") and left the pattern out of
    # the JSON schema, so a tool's schema took "my project" and the call was refused.
    Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=KEY_PATTERN)],
    BeforeValidator(_stripped),
    Field(
        description="An identifier: ASCII letters, digits and . _ : @ / - (no spaces, no accented"
        " letters), ≤ 200 characters.",
    ),
]


def composed(value: str) -> str:
    """``value`` in Unicode's composed normal form (NFC), the one form text is stored and
    searched in: canonically equivalent spellings (a precomposed "é", or "e" and a
    combining acute accent) are the same text to a reader, and would otherwise be two
    statements, two subject keys and two search terms to PostgreSQL and the embedder."""
    return value if unicodedata.is_normalized("NFC", value) else unicodedata.normalize("NFC", value)


def _storable_field(value: Any) -> Any:
    if isinstance(value, str):
        return composed(storable(value))
    if isinstance(value, list | tuple) and value and isinstance(value[0], str):
        items = [composed(storable(item)) if isinstance(item, str) else item for item in value]
        return type(value)(items)
    return value


# --- kinds: no lax coercion --------------------------------------------------------------

#: What a check says of a value: None when the field's kind takes it as it is.
KindCheck = Callable[[Any], "str | None"]
_BYTES = "must be text (str), not bytes"
#: Text pydantic would read as seconds since 1970 for a time field.
_NUMERAL = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)\s*")
_TIME = "must be a time (a datetime, or ISO 8601 text such as 2025-01-31T12:00:00Z)"


def _what(value: Any) -> str:
    """A value as a caller reads it, in JSON's words as much as Python's."""
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {value[:60]!r}"
    if isinstance(value, bytes | bytearray):
        return "bytes"
    return f"a {type(value).__name__}"


def storable_fields(model: type[BaseModel], data: Any) -> Any:
    """``data`` (a model's raw input) with every text value, alone or in a list, storable
    (:func:`storable`) and composed (:func:`composed`), or a ValidationError naming the
    first field holding text that is not storable.

    One pass per model, as :func:`of_their_kinds` is, not a validator per field: a belief
    has 29 fields, and a Python call for each was a tenth of the instructions its
    validation cost (callgrind: 605M against 541M for 2,000 beliefs)."""
    if not isinstance(data, Mapping):
        return data
    changed: dict[str, Any] | None = None
    for name, value in data.items():
        if isinstance(value, str):
            if value.isascii() and "\x00" not in value:
                continue  # ASCII holds no lone surrogate and is composed already
        elif not (isinstance(value, list | tuple) and value and isinstance(value[0], str)):
            continue
        try:
            fixed = _storable_field(value)
        except ValueError as exc:
            detail = InitErrorDetails(
                type="value_error", loc=(name,), input=value, ctx={"error": exc}
            )
            raise ValidationError.from_exception_data(model.__name__, [detail]) from None
        if fixed != value or type(fixed) is not type(value):
            if changed is None:
                changed = dict(data)
            changed[name] = fixed
    return data if changed is None else changed


def _flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"must be true or false, not {_what(value)}"


def _number(value: Any) -> str | None:
    if isinstance(value, bool | str | bytes | bytearray):
        return f"must be a number, not {_what(value)}"
    return None


def _level(value: Any) -> str | None:
    """A field of numbered members (a sensitivity): a name or a number, not a boolean."""
    if isinstance(value, bool | bytes | bytearray):
        return f"must be a name or a number, not {_what(value)}"
    return None


def _text(value: Any) -> str | None:
    return _BYTES if isinstance(value, bytes | bytearray) else None


def _time(value: Any) -> str | None:
    if isinstance(value, bytes | bytearray):
        return _BYTES
    if isinstance(value, bool | int | float) or (
        isinstance(value, str) and _NUMERAL.fullmatch(value)
    ):
        return f"{_TIME}, not {_what(value)}: a count of seconds is not read as a time"
    return None


def _member_check(enum: type[Enum]) -> KindCheck:
    """The check of a field of ``enum``'s members: a name or (numbered members) a number,
    and a value the members can be looked up by at all. The look-up hashes the value and
    compares it, both the caller's code: one whose ``__hash__`` (or ``__eq__``) raises was
    that exception out of the model, past every entry point's typed error (pydantic wraps
    only ValueError). A value that is simply no member is left to pydantic, which lists
    the members."""
    kind = _level if issubclass(enum, int) else _text

    def check(value: Any) -> str | None:
        problem = kind(value)
        if problem is not None:
            return problem
        try:
            enum(value)
        except (ValueError, TypeError):
            return None  # no member (or unhashable, which Enum handles): pydantic says so
        except Exception as exc:  # the caller's hash or comparison
            return (
                f"must be one of {', '.join(repr(m.value) for m in enum)}, not {_what(value)}"
                f" whose look-up raised {type(exc).__name__}"
            )
        return None

    return check


@dataclass(frozen=True, slots=True)
class Kind:
    """How a field's raw value is checked: values of a ``plain`` type pass as they are
    (one set look-up), any other goes through ``check``."""

    plain: frozenset[type]
    check: KindCheck

    def problem(self, value: Any) -> str | None:
        return None if type(value) in self.plain else self.check(value)


_NONE = frozenset({type(None)})
_FLAG = Kind(frozenset({bool}), _flag)
_NUMBER = Kind(frozenset({int, float}), _number)
_TEXT = Kind(frozenset({str}), _text)
_TIME_KIND = Kind(frozenset({datetime}), _time)
_SET = "must be a list, in order, not a set (whose order is arbitrary)"


def _ordered(items: Sequence[Kind | None]) -> Kind:
    """A list or tuple field: not a set (its order would be arbitrary, and could differ
    from one process to the next), and each item of its own kind: ``items`` holds one
    kind for every item, or one per position."""
    every = items[0] if len(items) == 1 else None

    def check(value: Any) -> str | None:
        if isinstance(value, set | frozenset):
            return _SET
        if not isinstance(value, list | tuple) or not any(items):
            return None
        if every is not None and every.plain.issuperset(map(type, value)):
            return None  # an embedding's 384 floats in one pass
        for index, item in enumerate(value):
            kind = every if every is not None else items[index] if index < len(items) else None
            problem = kind.problem(item) if kind is not None else None
            if problem is not None:
                return f"item {index} {problem}"
        return None

    return Kind(frozenset(), check)


def _valued(values: Kind) -> Kind:
    def check(value: Any) -> str | None:
        if not isinstance(value, Mapping):
            return None
        for key, item in value.items():
            problem = values.problem(item)
            if problem is not None:
                return f"the value of {key!r} {problem}"
        return None

    return Kind(frozenset(), check)


def kind_of(annotation: Any) -> Kind | None:
    """How a field of type ``annotation`` checks its raw value before pydantic converts
    it, or None when pydantic's own rules are all there is to it (a nested model checks
    its own fields, a literal names its values).

    pydantic's lax mode takes ``True`` as the integer 1, ``"5"`` as 5, ``"false"`` or 0 as
    False, ``1700000000`` as a time in 2023, ``b"x"`` as text and a set as a tuple in
    whatever order it iterates: each hides a caller's mistake (a flag passed as a cap, a
    count passed as a time), so each is refused, naming the field. What JSON writes for a
    field stays accepted: a time is ISO 8601 text over JSON, and ``5.0`` is an integer to
    JSON Schema."""
    origin = get_origin(annotation)
    if origin is Annotated:
        base, *metadata = get_args(annotation)
        return None if _strict(metadata) else kind_of(base)
    if origin is Union or origin is types.UnionType:
        arms = [a for a in get_args(annotation) if a is not type(None)]
        inner = kind_of(arms[0]) if len(arms) == 1 else None
        if inner is None:
            return None
        return Kind(inner.plain | _NONE, lambda v: None if v is None else inner.check(v))
    if origin in (tuple, list, Sequence):
        args = get_args(annotation)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return _ordered([kind_of(a) for a in args])
        return _ordered([kind_of(args[0]) if args else None])
    if origin in (dict, Mapping):
        args = get_args(annotation)
        values = kind_of(args[1]) if len(args) == 2 else None
        return None if values is None else _valued(values)
    if not isinstance(annotation, type) or issubclass(annotation, BaseModel):
        return None
    if annotation is bool:
        return _FLAG
    if issubclass(annotation, Enum):
        return Kind(frozenset({annotation, str, int}), _member_check(annotation))
    if issubclass(annotation, datetime):
        return _TIME_KIND
    if issubclass(annotation, int | float):
        return _NUMBER
    if issubclass(annotation, str):
        return _TEXT
    return None


def _strict(metadata: Sequence[Any]) -> bool:
    """pydantic checks the kind itself (``Strict()``: at its own speed, item by item)."""
    return any(isinstance(m, Strict) and m.strict for m in metadata)


#: A float or an int, never a boolean or text, checked by pydantic itself: for the items
#: of a long sequence (an embedding's 384 floats), where a check in Python would cost more
#: than the rest of the draft's validation.
Real = Annotated[float, Strict()]

_KINDS: dict[type[BaseModel], dict[str, Kind]] = {}


def _kinds(model: type[BaseModel]) -> dict[str, Kind]:
    kinds = _KINDS.get(model)
    if kinds is None:
        found = {
            name: None if _strict(field.metadata) else kind_of(field.annotation)
            for name, field in model.model_fields.items()
        }
        kinds = _KINDS.setdefault(model, {n: k for n, k in found.items() if k is not None})
    return kinds


def of_their_kinds(model: type[BaseModel], data: Any) -> Any:
    """``data`` (a model's raw input) unchanged, or a ValidationError naming the first
    field whose value is of another kind than the field declares (:func:`kind_of`).

    One pass per model over the fields given, not a validator per field: for a belief
    draft (30 fields), a validator each made validation 12 µs slower (15 → 27 µs), this
    pass 3.5 µs, of the client's ~95 µs per belief written."""
    if not isinstance(data, Mapping):
        return data  # a model instance (validated already), or what pydantic refuses
    kinds = _kinds(model)
    for name, value in data.items():
        kind = kinds.get(name)
        if kind is None or type(value) in kind.plain:
            continue
        problem = kind.check(value)
        if problem is not None:
            error = PydanticCustomError("kind", "{problem}", {"problem": problem})
            detail = InitErrorDetails(type=error, loc=(name,), input=value)
            raise ValidationError.from_exception_data(model.__name__, [detail])
    return data


class InputModel(FrozenModel):
    """A model of caller input: finite floats only, every value of its field's own kind
    (:func:`kind_of`: ``True`` is not read as 1) and every text field storable (checked
    before any field's own normalisation, so a NUL is refused, not folded) and composed
    (:func:`composed`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _of_their_kinds(cls, data: Any) -> Any:
        return storable_fields(cls, of_their_kinds(cls, data))
