"""Scrubbing an erased belief out of stored records, pure (see "Feedback and corrections"
in docs/architecture.md).

A stored trace keeps the ids it rendered and ranked; a user view may keep a statement.
When one belief is forgotten, every string that is its id, or that contains its statement
(as stored or as rendered) or its rendered ``[id]``, is replaced by :data:`ERASED`, so
the record keeps its shape (lists keep their length, counts stay right) and says that
something was erased, but not what.

A session that froze the belief into its prefix is scrubbed too, but keeps the belief's
id: the agent's context still holds the prefix as it was sent, so the session's next turn
must name the line to drop (a ``forgotten`` correction). Its stored prefix keeps every
line's id and tags and loses the statement; its frozen fingerprint loses the statement.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from recallflow.core.render import inert, item_line_parts

ERASED = "[erased]"


def erasure_digest(*ids: str) -> str:
    """How an erasure record names what it erased: a digest of (tenant, principal[, belief]),
    so an auditor holding an id can check it was erased, and the record holds no id."""
    return hashlib.sha256(json.dumps(list(ids)).encode()).hexdigest()


def _shows(text: str, statement: str) -> bool:
    """Whether ``text`` holds ``statement``, as stored or as a stored block shows it."""
    rendered = inert(statement)
    return (statement != "" and statement in text) or (rendered != "" and rendered in text)


def scrubbed(value: Any, belief_id: str | None, statement: str) -> tuple[Any, bool]:
    """``value`` (parsed JSON) without ``belief_id`` or ``statement``, and whether it changed
    (``belief_id`` None: only the text is looked for — an erased episode whose id a live
    belief also has)."""
    if isinstance(value, str):
        if (
            (belief_id is not None and value == belief_id)
            or (belief_id is not None and f"[{belief_id}]" in value)  # a stored block's line
            or _shows(value, statement)
        ):
            return ERASED, True
        return value, False
    if isinstance(value, list):
        items = [scrubbed(v, belief_id, statement) for v in value]
        return [v for v, _ in items], any(c for _, c in items)
    if isinstance(value, dict):
        changed = False
        out: dict[str, Any] = {}
        for key, v in value.items():
            new_key = ERASED if belief_id is not None and key == belief_id else key
            new_value, c = scrubbed(v, belief_id, statement)
            changed = changed or c or new_key != key
            out[new_key] = new_value
        return out, changed
    return value, False


def scrubbed_prefix(prefix: str, belief_id: str, statement: str) -> tuple[str, bool]:
    """A session prefix without the belief's statement: its item line (and any line that
    shows the statement) keeps its head — id, band, origin — and reads :data:`ERASED`."""
    lines = prefix.split("\n")
    changed = False
    for index, line in enumerate(lines):
        parts = item_line_parts(line)
        if parts is None:
            continue
        head, line_id, text = parts
        if text != ERASED and (line_id == belief_id or _shows(text, statement)):
            lines[index] = head + ERASED
            changed = True
    return "\n".join(lines), changed


def scrubbed_snapshot(beliefs: Any, belief_id: str, statement: str) -> tuple[Any, bool]:
    """A session's frozen beliefs (parsed JSON) scrubbed as any record, except that the
    belief's own entry keeps its ``belief_id`` (see the module)."""
    if not isinstance(beliefs, list):
        return scrubbed(beliefs, belief_id, statement)
    out: list[Any] = []
    changed = False
    for entry in beliefs:
        new, did = scrubbed(entry, belief_id, statement)
        if isinstance(entry, dict) and entry.get("belief_id") == belief_id:
            new = {**new, "belief_id": belief_id}
        out.append(new)
        changed = changed or did
    return out, changed
