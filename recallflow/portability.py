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
from typing import Any

from pydantic import ValidationError

from recallflow.errors import InvalidInputError
from recallflow.ingestion import key_of
from recallflow.models.portability import EXPORT_FORMAT, PrincipalExport, first_problem


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
        rest = ".".join(loc[2:])
        return InvalidInputError(
            first["msg"],
            field=f"{section}.{rest}" if rest else section,
            item_index=index,
            item_id=item_id if isinstance(item_id, str) else None,
        )
    return InvalidInputError(first["msg"], field=".".join(loc) or None)


def parsed_export(value: object) -> PrincipalExport:
    """``value`` as an export this release can import whole.

    :raises InvalidInputError: not an export (a mapping, JSON text or a
        :class:`PrincipalExport`), an unknown ``format``, or an item that is malformed,
        not the export's principal's, listed twice, or names what the export lacks.
    """
    if isinstance(value, PrincipalExport):
        export = value
    else:
        data: object = value
        if isinstance(value, str | bytes | bytearray):
            try:
                data = json.loads(value)
            except ValueError as exc:
                raise InvalidInputError(f"is not JSON: {exc}", field="export") from None
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
    problem = first_problem(export)
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
