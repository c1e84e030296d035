"""Turning a database refusal into a typed error that names the field and the item.

A batch is written in one transaction; when PostgreSQL refuses a row (a constraint, or
any data error of SQLSTATE class 22: a number out of range, an untranslatable character),
the error's constraint name or the ``COPY … line N, column C`` context says which field,
and that line (or the key in the error detail) says which item. The transaction has
rolled back by then, so nothing of the batch is written (all or nothing).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from psycopg import errors as pg_errors

from recallflow.errors import ConstraintViolation, RecallflowError, WriteCancelledError

_COPY_LINE = re.compile(r"COPY \w+, line (\d+)")
_COPY_COLUMN = re.compile(r"COPY \w+, line \d+, column (\w+)")
_KEY_DETAIL = re.compile(
    r"Key \((?P<cols>[^)]*)\)=\((?P<vals>.*)\) (?:is not present|already exists)"
)

#: Named constraints whose field is not in their name.
_CONSTRAINT_FIELDS = {
    "beliefs_pkey": "id",
    "episodes_pkey": "id",
    "belief_edges_pkey": "src_id",
    "beliefs_validity_order": "valid_from",
    "beliefs_system_time_order": "retracted_at",
    "beliefs_project_scope_has_origin": "origin_project",
    "beliefs_superseded_has_successor": "superseded_by",
    "beliefs_conflicted_has_set": "conflict_set_id",
    "beliefs_no_self_supersession": "supersedes",
    "beliefs_source_episode_fk": "source_episode_id",
    "beliefs_supersedes_fk": "supersedes",
    "beliefs_superseded_by_fk": "superseded_by",
    "belief_edges_no_loop": "dst_id",
    "belief_edges_src_fk": "src_id",
    "belief_edges_dst_fk": "dst_id",
}


#: Foreign keys, by what the row they name must be: a refusal says so in words, not in
#: the server's ("violates foreign key constraint … is not present in table …").
_REFERENCED = {
    "beliefs_source_episode_fk": "episode",
    "beliefs_supersedes_fk": "belief",
    "beliefs_superseded_by_fk": "belief",
    "belief_edges_src_fk": "belief",
    "belief_edges_dst_fk": "belief",
}


def _field_of(constraint: str | None, table: str) -> str | None:
    if constraint is None:
        return None
    if constraint in _CONSTRAINT_FIELDS:
        return _CONSTRAINT_FIELDS[constraint]
    # PostgreSQL names a column CHECK "<table>_<column>_check".
    prefix, suffix = f"{table}_", "_check"
    if constraint.startswith(prefix) and constraint.endswith(suffix):
        return constraint[len(prefix) : -len(suffix)]
    return None


def translate(
    exc: pg_errors.Error,
    *,
    table: str,
    items: Sequence[Mapping[str, Any]],
    field_hint: str | None = None,
    positions: Sequence[int] | None = None,
) -> RecallflowError:
    """A :class:`ConstraintViolation` for ``exc``, raised while writing ``items`` in order.

    ``items`` are the rows as column → value mappings, used to find the refused item
    from the key PostgreSQL names when there is no COPY line to go by (deferred checks).
    ``positions``: each row's index in the caller's batch, when only some of the batch
    was written (the item named is the caller's).
    """
    diag = exc.diag
    constraint = diag.constraint_name
    column = _COPY_COLUMN.search(diag.context or "")
    field = _field_of(constraint, table) or (column.group(1) if column else None) or field_hint
    item_index: int | None = None
    line = _COPY_LINE.search(diag.context or "")
    if line is not None:
        item_index = int(line.group(1)) - 1
    elif (key := _detail_key(diag.message_detail)) is not None:
        wanted, _ = key
        for index, item in enumerate(items):
            if all(str(item.get(c)) == v for c, v in wanted.items()):
                item_index = index
                break
    item_id = None
    if item_index is not None and item_index < len(items):
        raw_id = items[item_index].get("id") or items[item_index].get("src_id")
        item_id = str(raw_id) if raw_id is not None else None
    message = diag.message_primary or str(exc)
    if diag.message_detail:
        message = f"{message} ({diag.message_detail})"
    named = _missing_row(constraint, field, diag.message_detail)
    if named is not None:
        message = named
    if positions is not None and item_index is not None and item_index < len(positions):
        item_index = positions[item_index]
    return ConstraintViolation(
        message, constraint=constraint, field=field, item_index=item_index, item_id=item_id
    )


def _detail_key(detail: str | None) -> tuple[dict[str, str], bool] | None:
    """The key a refusal's detail names ("Key (a, b)=(x, y) is not present …"), column by
    column, and whether it says the row is missing; None when it names none."""
    key = _KEY_DETAIL.search(detail or "")
    if key is None:
        return None
    columns = [c.strip() for c in key.group("cols").split(",")]
    values = [v.strip() for v in key.group("vals").split(",")]
    return dict(zip(columns, values, strict=False)), key.group(0).endswith("is not present")


def _missing_row(constraint: str | None, field: str | None, detail: str | None) -> str | None:
    """A foreign key's refusal in words: the field's value names no row of that kind of
    the principal; None for any other refusal."""
    noun = _REFERENCED.get(constraint or "")
    key = _detail_key(detail)
    if noun is None or field is None or key is None:
        return None
    named, missing = key
    value = named.get(field)
    if value is None or not missing:
        return None
    whose = f"tenant_id {named.get('tenant_id')!r}, principal_id {named.get('principal_id')!r}"
    # An edge's ends are what it is; a belief's episode and links may be left out.
    rest = "" if field in ("src_id", "dst_id") else f", or leave {field} out"
    return f"{field} {value!r} names no {noun} of {whose}: write the {noun} first{rest}"


#: What the server answers a write it cancelled before it committed: a statement timeout or
#: an operator's cancel (57014), a lock wait past ``lock_timeout`` (55P03), a deadlock
#: (40P01) or a serialization failure (40001). The transaction has rolled back.
CANCELLED_WRITE = (
    pg_errors.QueryCanceled,
    pg_errors.LockNotAvailable,
    pg_errors.DeadlockDetected,
    pg_errors.SerializationFailure,
)


def cancelled_write(exc: pg_errors.Error) -> WriteCancelledError:
    """The typed error of a write the server cancelled (one of :data:`CANCELLED_WRITE`)."""
    text = (exc.diag.message_primary or str(exc)).strip()
    return WriteCancelledError(text.splitlines()[0] if text else type(exc).__name__)
