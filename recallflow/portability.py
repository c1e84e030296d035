"""A principal's memory taken out of a store and into another: the right of access and of
portability beside the erasure (see docs/portability.md).

:func:`parsed_export` reads an export — a :class:`~recallflow.models.portability.
PrincipalExport`, its dict, or its JSON — and refuses one this release cannot write whole
with a typed error naming the item and the field, before anything is embedded or written:
an unknown ``format``, a malformed item, an item of another principal, a key listed twice,
a reference to something the export does not hold. :func:`rehomed` moves it to another
tenant or principal. The reads and writes themselves are
:mod:`recallflow.adapters.postgres.portability`'s.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ValidationError

from recallflow.errors import InvalidInputError
from recallflow.ingestion import key_of, named_field
from recallflow.models.portability import EXPORT_FORMAT, PrincipalExport, first_problem
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy

#: How many parts of an error's location name the field: the section, the item's index,
#: the item's field and three levels inside it.
_NAMED_DEPTH = 6


def _refused(exc: ValidationError, data: Mapping[str, Any]) -> InvalidInputError:
    """The first error of a validation of ``data`` as an export, naming its section, the
    item's index in it (and id, when it has one) and the item's field."""
    first = exc.errors()[0]
    loc = [str(part) for part in first["loc"]]
    if len(loc) >= 2 and loc[1].isdigit():
        section, index = loc[0], int(loc[1])
        items = data.get(section)
        item = items[index] if isinstance(items, list | tuple) and index < len(items) else None
        item_id = item.get("id") if isinstance(item, Mapping) else None
        # The item's field and, inside a field of JSON, at most a few levels of the path
        # to what is wrong: a document nested thousands deep is not named level by level.
        rest = ".".join(loc[2:_NAMED_DEPTH]) + ("..." if len(loc) > _NAMED_DEPTH else "")
        if not rest:
            # A whole-item check (recorded_at before retracted_at) names its field in words,
            # as the write path reads it.
            model = PrincipalExport.model_fields[section].annotation
            item_model = getattr(model, "__args__", (None,))[0]
            if isinstance(item_model, type) and issubclass(item_model, BaseModel):
                rest = named_field(item_model, first["msg"]) or ""
        return InvalidInputError(
            first["msg"],
            field=f"{section}.{rest}" if rest else section,
            item_index=index,
            item_id=item_id if isinstance(item_id, str) else None,
        )
    return InvalidInputError(first["msg"], field=".".join(loc) or None)


def parsed_export(value: object, now: datetime) -> PrincipalExport:
    """``value`` as an export this release can import whole; ``now`` is the importing
    store's clock (PostgreSQL's ``now()``), which no system time of it may lie ahead of
    (:func:`first_ahead`).

    :raises InvalidInputError: not an export (a mapping, JSON text or a
        :class:`PrincipalExport`), an unknown ``format``, or an item that is malformed,
        not the export's principal's, listed twice, or names what the export lacks.
    """
    if isinstance(value, PrincipalExport):
        # Checked as its dict is, not taken as valid: pydantic's model_copy(update=...)
        # and model_construct check nothing, so an export edited with them carried an
        # invisible statement into the store, or reached the database's own checks, or
        # raised TypeError on a naive time (a tenth of a second for 5,000 beliefs).
        value = value.model_dump(warnings=False)
    data: object = value
    if isinstance(value, str | bytes | bytearray):
        try:
            data = json.loads(value)
        except ValueError as exc:
            raise InvalidInputError(f"is not JSON: {exc}", field="export") from None
        except RecursionError:
            raise InvalidInputError(
                "is nested deeper than a JSON reader follows; an export is a few levels deep",
                field="export",
            ) from None
    if not isinstance(data, Mapping):
        raise InvalidInputError(
            f"must be a PrincipalExport, its dict or its JSON, got {type(data).__name__}",
            field="export",
        )
    fmt = data.get("format")
    if fmt != EXPORT_FORMAT:
        raise InvalidInputError(
            f"unknown export format {fmt!r}: this release reads {EXPORT_FORMAT!r}"
            " (an export of a later release needs that release to import it)",
            field="format",
        )
    try:
        export = PrincipalExport.model_validate(data)
    except ValidationError as exc:
        raise _refused(exc, data) from exc
    problem = first_problem(export) or first_ahead(export, now)
    if problem is not None:
        section, index, field, message = problem
        item = getattr(export, section)[index]
        item_id = getattr(item, "id", None)
        raise InvalidInputError(
            message,
            field=f"{section}.{field}",
            item_index=index,
            item_id=item_id if isinstance(item_id, str) else None,
        )
    return export


#: The system times of each section: when the store recorded, retracted or marked an
#: item. A write through the API never takes one later than its process's clock (beyond
#: ``writes.clock_skew_seconds``), an import none later than the store's: an item
#: recorded "later" is hidden from every read until then, a retraction "later" keeps the
#: belief recalled until then. World times
#: (validity, an event's effective time, a recall's ``as_of``) may lie ahead, as in the API.
_SYSTEM_TIMES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("beliefs", ("recorded_at", "retracted_at")),
    ("episodes", ("recorded_at", "occurred_at")),
    ("belief_events", ("created_at",)),
    ("feedback", ("created_at",)),
    ("exclusions", ("created_at",)),
    ("entity_marks", ("marked_at",)),
    ("miss_hints", ("first_missed_at", "last_missed_at", "queued_at", "acknowledged_at")),
    ("reported_misses", ("reported_at", "acknowledged_at")),
    ("traces", ("created_at",)),
)


def first_ahead(
    export: PrincipalExport, now: datetime, policy: RetrievalPolicy = DEFAULT_POLICY
) -> tuple[str, int, str, str] | None:
    """The first system time of ``export`` later than ``now`` by more than the clock skew
    the write path allows: (section, index, field, what is wrong), as
    :func:`~recallflow.models.portability.first_problem` says one."""
    allowance = timedelta(seconds=policy.writes.clock_skew_seconds)
    for section, fields in _SYSTEM_TIMES:
        for index, item in enumerate(getattr(export, section)):
            for field in fields:
                at = getattr(item, field)
                if isinstance(at, datetime) and at > now + allowance:
                    return (
                        section,
                        index,
                        field,
                        f"{at.isoformat()} is later than the store's clock ({now.isoformat()})"
                        f" by more than writes.clock_skew_seconds"
                        f" ({policy.writes.clock_skew_seconds:g}): it is system time, when the"
                        " store recorded it, which no write takes ahead of now",
                    )
    return None


#: When the store recorded each section's items, and the field that names an item: an
#: erasure of the whole principal took every item the principal had recorded by then.
_RECORDED: tuple[tuple[str, str, str], ...] = (
    ("beliefs", "recorded_at", "id"),
    ("episodes", "recorded_at", "id"),
    ("belief_events", "created_at", "belief_id"),
    ("feedback", "created_at", "belief_id"),
    ("exclusions", "created_at", "belief_id"),
    ("entity_marks", "marked_at", "entity"),
    ("miss_hints", "first_missed_at", "subject"),
    ("reported_misses", "reported_at", "id"),
    ("traces", "created_at", "id"),
)


def first_erased(
    export: PrincipalExport, erased_at: datetime
) -> tuple[str, int, str, str | None] | None:
    """The first item of ``export`` recorded at or before ``erased_at``, when the target
    principal was last forgotten whole: (section, index, the field of its recorded time,
    its id or key). That erasure took every item the principal had recorded by then, so
    such an item is one it erased (or one of another memory claiming that time: the
    store cannot tell them apart); one recorded after was written again on purpose."""
    for section, field, key in _RECORDED:
        for index, item in enumerate(getattr(export, section)):
            at = getattr(item, field)
            if isinstance(at, datetime) and at <= erased_at:
                named = getattr(item, key)
                return section, index, field, named if isinstance(named, str) else None
    return None


def rehomed(
    export: PrincipalExport, tenant_id: str | None, principal_id: str | None
) -> PrincipalExport:
    """``export`` as the memory of ``tenant_id``/``principal_id`` (each kept when None)."""
    tenant = export.tenant_id if tenant_id is None else key_of(tenant_id, "tenant_id")
    principal = (
        export.principal_id if principal_id is None else key_of(principal_id, "principal_id")
    )
    if (tenant, principal) == (export.tenant_id, export.principal_id):
        return export
    owner = {"tenant_id": tenant, "principal_id": principal}
    return export.model_copy(
        update={
            **owner,
            "beliefs": tuple(b.model_copy(update=owner) for b in export.beliefs),
            "edges": tuple(e.model_copy(update=owner) for e in export.edges),
            "episodes": tuple(e.model_copy(update=owner) for e in export.episodes),
        }
    )
