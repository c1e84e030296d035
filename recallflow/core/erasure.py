"""Scrubbing an erased belief or episode out of stored records, pure (see "Feedback and
corrections" in docs/architecture.md and "Forgetting" in docs/corrections.md).

A stored trace keeps the ids it rendered and ranked; a user view may keep a statement.
When one item is forgotten, exactly its occurrences are replaced by :data:`ERASED`, so
the record keeps its shape (lists keep their length, counts stay right) and says that
something was erased, but not what:

* by structure: a string that is its id; a rendered text that names its ``[id]`` (a
  block, a correction line); and the texts (``text``, ``statement``, ``line``) of an entry
  that names it by ``belief_id`` or ``episode_id``, and of the entries nested in that one;
* by equality: a string that is its text (as stored or as rendered), unless it belongs to
  an entry that names another item — that is the other item's own text, even when it
  reads the same; and in a trace whose query was that text, the keys the query former
  read out of it.

A text that merely *contains* the forgotten one is never erased: a short statement
("Yes", a name) is part of many unrelated records, and erasing them would lose data.

A session that froze the belief into its prefix is scrubbed too, but keeps the belief's
id: the agent's context still holds the prefix as it was sent, so the session's next turn
must name the line to drop (a ``forgotten`` correction). Its stored prefix keeps every
line's id and tags and loses the statement; its frozen fingerprint loses the statement.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel

from recallflow.core.query_forming import keys_of_text
from recallflow.core.render import inert, rewritten_items
from recallflow.models.result import CorrectionKind, RecallQuery, RecallTrace

ERASED = "[erased]"


def erasure_digest(*ids: str) -> str:
    """How an erasure record names what it erased: a digest of (tenant, principal[, belief]),
    so an auditor holding an id can check it was erased, and the record holds no id."""
    return hashlib.sha256(json.dumps(list(ids)).encode()).hexdigest()


def read_ids(trace: RecallTrace) -> list[str]:
    """Every belief the recall's stored record names as it read it — each an arm found,
    each ranked, dropped, bridged, rendered or frozen into a prefix, each a correction
    names (the corrected one, a replacement, a conflict's other members) — once each,
    sorted. The write that stores the record refuses it when one of them is no longer
    held: an erasure took it after the recall read it. The belief of a ``forgotten``
    correction is not among them: the line tells the agent it is gone."""
    ids: set[str] = {h.belief_id for arm in trace.arms for h in arm.hits}
    ids.update(c.belief_id for c in trace.fused)
    ids.update(e.belief_id for e in trace.scored)
    ids.update(trace.ranked_ids, trace.floor_dropped_ids, trace.budget_dropped_ids)
    ids.update(i for b in trace.floor_bridged for i in (b.belief_id, b.lead))
    ids.update(trace.rendered_ids, trace.snapshot_relevant, trace.snapshot_misses)
    if trace.snapshot is not None:
        ids.update(trace.snapshot.ids())
    for c in trace.corrections:
        if c.kind is not CorrectionKind.FORGOTTEN:
            ids.add(c.belief_id)
        ids.update(p.belief_id for p in (c.replacement, *c.peers) if p is not None)
    return sorted(ids)


#: The fields of a record entry that name the item the entry is about.
_OWNER_FIELDS = ("belief_id", "episode_id")
#: The fields of a record entry that hold its item's words.
_TEXT_FIELDS = frozenset({"text", "statement", "line", "content"})


def _vocabulary_fields(model: type[BaseModel]) -> frozenset[str]:
    """The fields of ``model`` and of the models it nests whose values come from a fixed
    vocabulary (an enum, a literal): a band, a kind, a surface, an arm. Such a value is
    never the user's words nor an item's id, even when it reads the same as the forgotten
    statement ("medium") or id, and a reader of the record parses it as that vocabulary:
    scrubbed, it was ``[erased]``, and ``Memory.explain`` of the recall raised ValueError."""
    found: set[str] = set()
    seen: set[type[BaseModel]] = set()
    pending = [model]
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        for name, field in current.model_fields.items():
            annotations = [field.annotation]
            while annotations:
                annotation = annotations.pop()
                if get_origin(annotation) is Literal or (
                    isinstance(annotation, type) and issubclass(annotation, Enum)
                ):
                    found.add(name)
                elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
                    pending.append(annotation)
                else:
                    annotations.extend(get_args(annotation))
    return frozenset(found)


#: The fields of a stored trace (its operator view, and its user view, which names its
#: parts alike) that hold a word of a vocabulary: never scrubbed.
_VOCABULARY_FIELDS = _vocabulary_fields(RecallTrace)


@dataclass(frozen=True)
class _Target:
    """What one scrub erases: the item's id (None: its text alone) and its text, as stored
    and as a rendered line shows it (folded to one line, delimiters escaped)."""

    item_id: str | None
    texts: frozenset[str]

    @classmethod
    def of(cls, item_id: str | None, statement: str) -> _Target:
        texts = frozenset({statement, inert(statement)}) if statement.strip() else frozenset()
        return cls(item_id, texts)

    def is_text(self, value: str) -> bool:
        """Whether ``value`` is the item's text — equality, never containment."""
        return bool(self.texts) and (value in self.texts or inert(value) in self.texts)


def _owner(value: dict[str, Any], owner: str | None) -> str | None:
    """The item an entry is about: the id it names, else its enclosing entry's."""
    for field in _OWNER_FIELDS:
        named = value.get(field)
        if isinstance(named, str):
            return named
    return owner


def asked_queries(view: Any, statement: str) -> list[RecallQuery]:
    """The queries of a stored operator view (parsed JSON) when one of them was
    ``statement`` itself, as recorded before a scrub; else none. A miss of that recall
    counted a subject made of the forgotten text's names."""
    queries = view.get("queries") if isinstance(view, dict) else None
    if not isinstance(queries, list):
        return []
    target = _Target.of(None, statement)
    if not _asks_text(queries, target):
        return []
    return [RecallQuery.model_validate(q) for q in queries]


def _asks_text(queries: list[Any], target: _Target) -> bool:
    """Whether one of a stored trace's queries was a text query reading ``target``'s text."""
    return any(
        isinstance(q, dict)
        and q.get("kind") == "text"
        and isinstance(q.get("text"), str)
        and target.is_text(q["text"])
        for q in queries
    )


def _scrubbed_queries(
    queries: list[Any], target: _Target, statement: str
) -> tuple[list[Any], bool]:
    """A trace's queries, when one of them was the forgotten text (an episode pasted, a
    statement typed back): the keys the query former read out of that text go from the
    structured query too (its entities' keys that read the same cannot be told apart)."""
    if not _asks_text(queries, target):
        return queries, False
    derived = set(keys_of_text(statement))
    out: list[Any] = []
    changed = False
    for query in queries:
        keys = query.get("keys") if isinstance(query, dict) else None
        if isinstance(keys, list) and any(k in derived for k in keys):
            kept = [ERASED if k in derived else k for k in keys]
            query = {**query, "keys": kept, "text": " ".join(kept)}
            changed = True
        out.append(query)
    return out, changed


def _scrubbed(
    value: Any, target: _Target, statement: str, owner: str | None, field: str | None
) -> tuple[Any, bool]:
    item_id = target.item_id
    if isinstance(value, str):
        if field in _VOCABULARY_FIELDS:
            return value, False
        mine = item_id is not None and owner == item_id
        if (
            (item_id is not None and value == item_id)
            or (item_id is not None and f"[{item_id}]" in value)  # a rendered line names it
            or (mine and field in _TEXT_FIELDS)
            or ((owner is None or mine) and target.is_text(value))
        ):
            return ERASED, value != ERASED
        return value, False
    if isinstance(value, list):
        items = [_scrubbed(v, target, statement, owner, field) for v in value]
        return [v for v, _ in items], any(c for _, c in items)
    if isinstance(value, dict):
        inner = _owner(value, owner)
        changed = False
        out: dict[str, Any] = {}
        for key, v in value.items():
            # A value under the item's id as its key is the item's.
            named = item_id is not None and key == item_id
            derived = False
            if key == "queries" and isinstance(v, list):
                v, derived = _scrubbed_queries(v, target, statement)
            new_value, c = _scrubbed(v, target, statement, item_id if named else inner, key)
            changed = changed or c or derived or named
            out[ERASED if named else key] = new_value
        return out, changed
    return value, False


#: A run of the characters an id is made of (ASCII letters, digits and ``. _ : @ / -``).
_ID_RUN = re.compile(r"[A-Za-z0-9._:@/-]+")


def erased_texts(statement: str) -> frozenset[str]:
    """The forms of an item's text a scrub erases: as stored and as a rendered line
    shows it (none for a text of only whitespace)."""
    return _Target.of(None, statement).texts


def _strings(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)
    elif isinstance(value, dict):
        for key, v in value.items():
            out.append(str(key))
            _strings(v, out)


def items_in(value: Any, items: Sequence[tuple[str | None, frozenset[str]]]) -> list[int]:
    """The indexes of ``items`` — each an id (None: its text alone) and its
    :func:`erased_texts` — that :func:`scrubbed` may change ``value`` (parsed JSON) for:
    every change it makes needs a string or key of the record that holds the id, or that
    is (or renders as) the text. A record that names a few of many items erased together
    is walked in full for those few only."""
    strings: list[str] = []
    _strings(value, strings)
    joined = "\x00".join(strings)  # a key holds no NUL: a match is within one string
    # An id a scrub erases is a whole string, or a rendered ``[id]``: either way a run of
    # an id's characters, looked up at once (an id of other characters is searched for).
    runs = set(_ID_RUN.findall(joined))
    seen = set(strings)
    seen.update(inert(s) for s in strings)
    return [
        index
        for index, (item_id, texts) in enumerate(items)
        if (
            item_id is not None
            and (item_id in runs if _ID_RUN.fullmatch(item_id) else item_id in joined)
        )
        or not texts.isdisjoint(seen)
    ]


def scrubbed(
    value: Any, item_id: str | None, statement: str, *, owner: str | None = None
) -> tuple[Any, bool]:
    """``value`` (parsed JSON) without ``item_id`` or ``statement`` (see the module), and
    whether it changed; ``owner``: the item the whole record is about, when a column
    outside it says so. ``item_id`` None: only the text is looked for — an erased episode
    whose id a live belief also has."""
    return _scrubbed(value, _Target.of(item_id, statement), statement, owner, None)


#: A rendered ``[id]``: ids hold no bracket, so every one a text names is one of these.
_BRACKETED = re.compile(r"\[([^\[\]]*)\]")


@dataclass(frozen=True)
class _Targets:
    """Many items scrubbed in one walk (:func:`scrubbed_of_many`): their ids, and each
    form of a text with the items whose text it is (None: an item looked for by its text
    alone)."""

    items: tuple[tuple[str | None, str], ...]
    ids: frozenset[str]
    owners: dict[str, frozenset[str | None]]

    @classmethod
    def of(cls, items: Sequence[tuple[str | None, str]]) -> _Targets:
        owners: dict[str, set[str | None]] = {}
        for item_id, text in items:
            for form in _Target.of(item_id, text).texts:
                owners.setdefault(form, set()).add(item_id)
        ids = frozenset(i for i, _ in items if i is not None)
        return cls(tuple(items), ids, {t: frozenset(o) for t, o in owners.items()})

    def names(self, value: str) -> bool:
        """Whether ``value`` names one of the ids as a rendered ``[id]``."""
        if any("[" in i or "]" in i for i in self.ids):
            return any(f"[{i}]" in value for i in self.ids)
        return any(m in self.ids for m in _BRACKETED.findall(value))

    def owners_of(self, value: str) -> frozenset[str | None]:
        """The items ``value`` is the text of (as stored or as rendered)."""
        if not self.owners:
            return frozenset()
        found = self.owners.get(value, frozenset())
        return found | self.owners.get(inert(value), frozenset())


def _scrubbed_many(
    value: Any, targets: _Targets, owner: str | None, keyed: str | None, field: str | None
) -> tuple[Any, bool]:
    """:func:`_scrubbed` of every item at once. ``owner`` is the item the enclosing entry
    names; ``keyed`` the id the value sits under as a key, when no entry below that key
    names another — an item's own rules see the value as its own under its key, every
    other item's see the entry's owner (as a scrub of one item after another does: the
    key renamed by one is no id for the next)."""
    ids = targets.ids
    if isinstance(value, str):
        if field in _VOCABULARY_FIELDS:
            return value, False
        owners = targets.owners_of(value)
        if (
            value in ids
            or targets.names(value)
            or (field in _TEXT_FIELDS and (keyed in ids or owner in ids))
            or (
                owners
                and (owner is None or owner in owners or (keyed is not None and keyed in owners))
            )
        ):
            return ERASED, value != ERASED
        return value, False
    if isinstance(value, list):
        items = [_scrubbed_many(v, targets, owner, keyed, field) for v in value]
        return [v for v, _ in items], any(c for _, c in items)
    if isinstance(value, dict):
        inner = _owner(value, owner)
        below = keyed if _owner(value, None) is None else None
        changed = False
        out: dict[str, Any] = {}
        for key, v in value.items():
            named = key in ids
            if key == "queries" and isinstance(v, list):
                # A trace's queries, scrubbed of one item after another: whether a query
                # was an item's text is read after the earlier items' scrubs.
                new_value, c = _queries_of_many(value, v, targets, owner, keyed)
            else:
                new_value, c = _scrubbed_many(v, targets, inner, key if named else below, key)
            changed = changed or c or named
            out[ERASED if named else key] = new_value
        return out, changed
    return value, False


def _queries_of_many(
    entry: dict[str, Any],
    queries: list[Any],
    targets: _Targets,
    owner: str | None,
    keyed: str | None,
) -> tuple[list[Any], bool]:
    """The ``queries`` of ``entry`` scrubbed as :func:`_scrubbed` scrubs them, of each
    item in turn, each seeing the entry as its own scrub would (``owner``, ``keyed``: as
    for :func:`_scrubbed_many`)."""
    changed = False
    for item_id, text in targets.items:
        target = _Target.of(item_id, text)
        mine = item_id is not None and keyed == item_id
        inner = _owner(entry, item_id if mine else owner)
        named = item_id is not None and item_id == "queries"
        queries, derived = _scrubbed_queries(queries, target, text)
        queries, did = _scrubbed(queries, target, text, item_id if named else inner, "queries")
        changed = changed or derived or did
    return queries, changed


def scrubbed_of_many(value: Any, items: Sequence[tuple[str | None, str]]) -> tuple[Any, bool]:
    """``value`` (parsed JSON) scrubbed of every one of ``items`` — each an id (None: its
    text alone) and its text — in one walk, as :func:`scrubbed` of one after another
    would leave it; and whether it changed."""
    if not items:
        return value, False
    return _scrubbed_many(value, _Targets.of(items), None, None, None)


def scrubbed_prefix(prefix: str, belief_id: str) -> tuple[str, bool]:
    """A session prefix without the belief's statement: its item line keeps its head — id,
    band, origin — and reads :data:`ERASED`. Another belief's line stays as it is, even
    one whose words hold or repeat the forgotten statement."""
    return rewritten_items(
        prefix, lambda line_id, text: ERASED if line_id == belief_id and text != ERASED else None
    )


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
