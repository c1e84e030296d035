"""Lifecycle writes in PostgreSQL: idempotent, supersession-aware belief writes and the
typed lifecycle events (retract, retire, expire, corroborate), each applied to the belief
in the same transaction as its append-only event (see "Lifecycle and history" in
docs/architecture.md). The rules are in :mod:`recallflow.core.lifecycle`; this module
only reads and writes.

Every write transaction first takes a transaction-scoped advisory lock per principal it
touches, so two writers cannot both supersede one belief or close a supersession cycle
between them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import dict_row

from recallflow.adapters.postgres.ann_index import AnnState, ann_state, graduate
from recallflow.adapters.postgres.beliefs import (
    BELIEF_COLUMNS,
    SELECT_BELIEF,
    belief_from_row,
    belief_row,
    copy_beliefs,
)
from recallflow.adapters.postgres.errors import translate
from recallflow.adapters.postgres.locks import lock_principals
from recallflow.core.lifecycle import (
    Supersession,
    SupersessionPlan,
    content_differences,
    corroborated_confidence,
    corroboration_refusal,
    exclusion_refusal,
    expired_state,
    lone_in_batch,
    lone_survivors,
    not_found,
    plan_supersessions,
    promoting_projects,
    reopened_sets,
    resolved_state,
    retraction_time,
    supersession_pairs,
    undeclared_sides,
)
from recallflow.core.replay import DerivationKey, derivation_key
from recallflow.errors import (
    ConflictError,
    ConstraintViolation,
    InvalidInputError,
    RecallflowError,
    episode_not_found,
)
from recallflow.models.store import Belief, LifecycleState, Scope
from recallflow.ports import VectorRows


def locked_belief(
    conn: psycopg.Connection[Any], tenant_id: str, principal_id: str, belief_id: str
) -> Belief:
    """The belief, locked for update; :class:`NotFoundError` if the principal has none."""
    row = (
        conn.cursor(row_factory=dict_row)
        .execute(
            SELECT_BELIEF + " WHERE tenant_id = %s AND principal_id = %s AND id = %s FOR UPDATE",
            (tenant_id, principal_id, belief_id),
        )
        .fetchone()
    )
    if row is None:
        raise not_found(tenant_id, principal_id, belief_id)
    return belief_from_row(row)


def stored_by_id(
    conn: psycopg.Connection[Any], tenant_id: str, principal_id: str, ids: Sequence[str]
) -> dict[str, Belief]:
    """The stored beliefs of ``ids`` of one principal, by id (an id not stored is absent)."""
    if not ids:
        return {}
    rows = (
        conn.cursor(row_factory=dict_row)
        .execute(
            SELECT_BELIEF + " WHERE tenant_id = %s AND principal_id = %s AND id = ANY(%s)",
            (tenant_id, principal_id, list(ids)),
        )
        .fetchall()
    )
    return {r["id"]: belief_from_row(r) for r in rows}


def successor_of(conn: psycopg.Connection[Any], belief: Belief) -> Belief | None:
    """The stored belief that supersedes ``belief`` (its ``superseded_by``), or None."""
    if belief.superseded_by is None:
        return None
    found = stored_by_id(conn, belief.tenant_id, belief.principal_id, [belief.superseded_by])
    return found.get(belief.superseded_by)


def exclusions(
    conn: psycopg.Connection[Any], tenant_id: str, principal_id: str, belief_id: str
) -> tuple[str, ...]:
    """The projects a belief is excluded from (not-here rejections), sorted."""
    rows = conn.execute(
        "SELECT project FROM belief_exclusions"
        " WHERE tenant_id = %s AND principal_id = %s AND belief_id = %s ORDER BY project",
        (tenant_id, principal_id, belief_id),
    ).fetchall()
    return tuple(str(r[0]) for r in rows)


def _successors_of(
    conn: psycopg.Connection[Any], keys: Sequence[tuple[str, str, str]]
) -> dict[tuple[str, str], dict[str, str]]:
    """Every stored ``superseded_by`` link reachable from ``keys`` (tenant, principal,
    id), by principal, read in one statement for all of them."""
    if not keys:
        return {}
    tenants, principals, ids = (list(values) for values in zip(*keys, strict=True))
    rows = conn.execute(
        "WITH RECURSIVE chain(tenant_id, principal_id, id, next) AS ("
        " SELECT tenant_id, principal_id, id, superseded_by FROM beliefs"
        "  WHERE (tenant_id, principal_id, id) IN"
        "   (SELECT * FROM unnest(%s::text[], %s::text[], %s::text[]))"
        " UNION"
        " SELECT b.tenant_id, b.principal_id, b.id, b.superseded_by FROM beliefs b JOIN chain c"
        "  ON (b.tenant_id, b.principal_id, b.id) = (c.tenant_id, c.principal_id, c.next))"
        " SELECT tenant_id, principal_id, id, next FROM chain WHERE next IS NOT NULL",
        (tenants, principals, ids),
    ).fetchall()
    out: dict[tuple[str, str], dict[str, str]] = {}
    for tenant, principal, belief_id, following in rows:
        out.setdefault((str(tenant), str(principal)), {})[str(belief_id)] = str(following)
    return out


def record_event(
    conn: psycopg.Connection[Any],
    belief: Belief,
    kind: str,
    at: datetime,
    *,
    related_id: str | None = None,
    project: str | None = None,
    evidence_id: str | None = None,
    reason: str | None = None,
) -> None:
    """Append one lifecycle event of ``belief``."""
    conn.execute(
        "INSERT INTO belief_events (tenant_id, principal_id, belief_id, kind, related_id,"
        " project, evidence_id, reason, effective_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (
            belief.tenant_id,
            belief.principal_id,
            belief.id,
            kind,
            related_id,
            project,
            evidence_id,
            reason,
            at,
        ),
    )


def settle_conflicts(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    set_ids: Sequence[str | None],
    now: datetime | None,
    cause: str,
) -> list[Belief]:
    """After a member left the conflict sets ``set_ids`` (``cause``: how), return each
    set's lone live member to the state it would have without the conflict
    (:func:`~recallflow.core.lifecycle.lone_survivors`), with a ``resolved`` event saying
    why. The event names no other belief: the one that left may be an erased one. ``now``
    None: the transaction's time.

    The survivor keeps its ``conflict_set_id``: the set it was a side of. A read at an
    instant when another member still held (a successor or an expiry not yet in force, a
    ``known_as_of`` before a retraction) shows the conflict as it stood then
    (:func:`~recallflow.core.lifecycle.disputed_at`)."""
    sets = sorted({s for s in set_ids if s is not None})
    if not sets:
        return []
    if now is None:
        row = conn.execute("SELECT now()").fetchone()
        assert row is not None
        now = row[0]
    rows = (
        conn.cursor(row_factory=dict_row)
        .execute(
            SELECT_BELIEF + " WHERE tenant_id = %s AND principal_id = %s"
            " AND conflict_set_id = ANY(%s) ORDER BY id FOR UPDATE",
            (tenant_id, principal_id, sets),
        )
        .fetchall()
    )
    settled: list[Belief] = []
    for survivor in lone_survivors([belief_from_row(r) for r in rows]):
        state = resolved_state(survivor, now)
        conn.execute(
            "UPDATE beliefs SET state = %s WHERE tenant_id = %s AND principal_id = %s AND id = %s",
            (state.value, tenant_id, principal_id, survivor.id),
        )
        record_event(conn, survivor, "resolved", now, reason=_resolved_reason(survivor, cause))
        settled.append(survivor.model_copy(update={"state": state}))
    return settled


def _resolved_reason(survivor: Belief, cause: str) -> str:
    return f"conflict {survivor.conflict_set_id} has no other live member: the last was {cause}"


def write_beliefs(
    conn: psycopg.Connection[Any],
    beliefs: Sequence[Belief],
    embeddings: VectorRows,
    *,
    settle_lone: str | None = None,
) -> list[Belief]:
    """Write ``beliefs`` inside the caller's transaction; returns each as stored.

    Re-adding a stored id with the same content is a no-op (the stored belief is
    returned); with other content it is a :class:`ConflictError`. Supersession links are
    applied to both beliefs (:func:`~recallflow.core.lifecycle.plan_supersessions`) and
    recorded as events.

    A new belief written ``conflicted`` with no other live member in its set
    (:func:`~recallflow.core.lifecycle.lone_in_batch`) is an :class:`InvalidInputError`
    on ``conflict_set_id``, and nothing is written; with ``settle_lone`` (how its other
    members left, for a re-derivation that replayed their corrections) it is written in
    the state it would have without the conflict, with a ``resolved`` event.

    Each step runs once for the whole batch, whatever number of principals it writes: the
    stored beliefs of its ids are read in one statement, the stored beliefs of its source
    episodes in another, its new rows go in one COPY and its supersession events in one
    pipelined batch. A batch of ten principals' beliefs made each statement ten times, and
    each statement waits for the server on a busy machine.
    """
    if len(beliefs) != len(embeddings):
        raise ValueError("write_beliefs needs one embedding per belief")
    if not beliefs:
        return []
    groups: dict[tuple[str, str], list[int]] = {}
    for index, b in enumerate(beliefs):
        groups.setdefault((b.tenant_id, b.principal_id), []).append(index)
    lock_principals(conn, groups)
    ann = ann_state(conn, groups)
    existing = _stored_by_key(conn, "id", [(b.tenant_id, b.principal_id, b.id) for b in beliefs])
    result: list[Belief] = list(beliefs)
    parts = [
        _Group(tenant, principal, indexes, *_claims(beliefs, indexes, existing))
        for (tenant, principal), indexes in groups.items()
    ]
    derived = _stored_by_key(
        conn,
        "source_episode_id",
        [
            (part.tenant, part.principal, source)
            for part in parts
            for source in sorted(
                {b.source_episode_id for _, b in part.fresh if b.source_episode_id}
            )
        ],
    )
    inserts: list[tuple[int, Belief]] = []
    indexed_rows: list[bool] = []
    for i, b, indexed in _plan_parts(conn, parts, derived, ann, settle_lone):
        inserts.append((i, b))
        indexed_rows.append(indexed)
    _insert(conn, inserts, embeddings, ann_indexed=indexed_rows)
    events: list[tuple[str, str, str, str, datetime]] = []
    for part in parts:
        events.extend(_apply_group(conn, part, beliefs, settle_lone))
        for index, stored in sorted(part.out.items()):
            result[index] = stored
    # One pipelined batch, not a round trip per event: a bulk load supersedes hundreds.
    conn.cursor().executemany(
        "INSERT INTO belief_events (tenant_id, principal_id, belief_id, kind, related_id,"
        " effective_at) VALUES (%s, %s, %s, 'superseded', %s, %s)",
        events,
    )
    return result


@dataclass
class _Group:
    """One principal's part of a batch as :func:`write_beliefs` plans it: its beliefs'
    batch indexes, the new ones (batch index, belief), the re-added stored ones (batch
    index → belief as stored) and the stored beliefs a re-add names a successor for; then
    its plan: the new beliefs as inserted by id, each duplicate's batch index → the earlier
    one's, the stored predecessors to mark superseded and the supersession events, and the
    lone conflicted beliefs a re-derivation settles with the instant it settles them."""

    tenant: str
    principal: str
    indexes: Sequence[int]
    fresh: list[tuple[int, Belief]]
    out: dict[int, Belief]
    claims: list[Belief]
    adjusted: dict[str, Belief] = field(default_factory=dict)
    aliases: dict[int, int] = field(default_factory=dict)
    updates: dict[str, tuple[str, datetime | None]] = field(default_factory=dict)
    events: list[Supersession] = field(default_factory=list)
    lone: list[Belief] = field(default_factory=list)
    settled_at: datetime | None = None


def _stored_by_key(
    conn: psycopg.Connection[Any],
    column: Literal["id", "source_episode_id", "conflict_set_id"],
    keys: Sequence[tuple[str, str, str]],
) -> dict[tuple[str, str, str], list[Belief]]:
    """The stored beliefs whose (tenant, principal, ``column``) is one of ``keys``, by that
    key, oldest first (``recorded_at``, then id), read in one statement."""
    if not keys:
        return {}
    tenants, principals, values = (list(column_values) for column_values in zip(*keys, strict=True))
    rows = (
        conn.cursor(row_factory=dict_row)
        .execute(
            SELECT_BELIEF + f" WHERE (tenant_id, principal_id, {column}) IN"
            " (SELECT * FROM unnest(%s::text[], %s::text[], %s::text[]))"
            " ORDER BY recorded_at, id",
            (tenants, principals, values),
        )
        .fetchall()
    )
    out: dict[tuple[str, str, str], list[Belief]] = {}
    for row in rows:
        out.setdefault((row["tenant_id"], row["principal_id"], row[column]), []).append(
            belief_from_row(row)
        )
    return out


def _claims(
    beliefs: Sequence[Belief],
    indexes: Sequence[int],
    existing: dict[tuple[str, str, str], list[Belief]],
) -> tuple[list[tuple[int, Belief]], dict[int, Belief], list[Belief]]:
    """One principal's beliefs sorted into the new ones (batch index, belief), the
    re-added stored ones (batch index → belief as stored) and the stored beliefs a re-add
    names a successor for; a re-add with other content is a :class:`ConflictError`."""
    fresh: list[tuple[int, Belief]] = []
    claims: list[Belief] = []
    out: dict[int, Belief] = {}
    for i in indexes:
        b = beliefs[i]
        found = existing.get((b.tenant_id, b.principal_id, b.id))
        if not found:
            fresh.append((i, b))
            continue
        stored = found[0]
        differ = content_differences(b, stored)
        if differ:
            raise ConflictError(
                f"is already stored with other content ({', '.join(differ)}); a change of "
                "content is a new belief that supersedes this one",
                field=differ[0],
                item_index=i,
                item_id=b.id,
            )
        out[i] = stored
        if b.superseded_by is not None and b.superseded_by != stored.superseded_by:
            if stored.superseded_by is not None:
                raise ConflictError(
                    f"is already superseded by {stored.superseded_by!r}",
                    field="superseded_by",
                    item_index=i,
                    item_id=b.id,
                )
            # A re-added belief that now names its successor: a supersession of a stored row.
            claims.append(stored.model_copy(update={"superseded_by": b.superseded_by}))
    return fresh, out, claims


@dataclass
class _Links:
    """One principal's part as :func:`_plan_parts` reads for it: its new rows once the
    duplicates of stored derivations are dropped (batch index, belief), and the ids its
    supersession links name."""

    fresh: list[tuple[int, Belief]]
    rows: list[Belief]
    linked: set[str]


def _plan_parts(
    conn: psycopg.Connection[Any],
    parts: Sequence[_Group],
    derived: dict[tuple[str, str, str], list[Belief]],
    ann: AnnState,
    settle_lone: str | None,
) -> list[tuple[int, Belief, bool]]:
    """Plan every principal's part: drop the duplicates of stored derivations, plan its
    supersessions, graduate the principal if the write makes it large enough (see
    :mod:`~recallflow.adapters.postgres.ann_index`); returns the rows to insert as
    (batch index, belief, whether it enters the HNSW index).

    The stored beliefs the batch's links name, their stored successors and the stored
    members of the conflict sets it writes are each read in one statement for every
    principal of the batch: read per principal, ten principals made thirty statements a
    call, each waiting for the server on a busy machine. The parts are still judged in
    order, so the first bad item named is the one a part-by-part plan named."""
    links: list[_Links] = []
    for part in parts:
        known: dict[DerivationKey, list[Belief]] = {}
        for source in sorted({b.source_episode_id for _, b in part.fresh if b.source_episode_id}):
            for stored in derived.get((part.tenant, part.principal, source), []):
                known.setdefault(derivation_key(stored), []).append(stored)
        fresh, part.aliases = _stored_once(part.fresh, part.out, known)
        rows = [b for _, b in fresh]
        linked = {x for pair in supersession_pairs([*rows, *part.claims]) for x in pair}
        links.append(_Links(fresh, rows, linked))
    referenced = _stored_by_key(
        conn,
        "id",
        [
            (part.tenant, part.principal, x)
            for part, link in zip(parts, links, strict=True)
            for x in sorted(link.linked - {b.id for b in link.rows})
        ],
    )
    successors = _successors_of(
        conn,
        [
            (part.tenant, part.principal, x)
            for part, link in zip(parts, links, strict=True)
            for x in sorted(link.linked)
        ],
    )
    plans: list[SupersessionPlan] = []
    failed: Exception | None = None
    for part, link in zip(parts, links, strict=True):
        key = (part.tenant, part.principal)
        try:
            plans.append(
                plan_supersessions(
                    part.tenant,
                    part.principal,
                    [*link.rows, *part.claims],
                    {x: referenced[(*key, x)][0] for x in link.linked if referenced.get((*key, x))},
                    successors.get(key, {}),
                    {b.id: i for i, b in link.fresh},
                )
            )
        except RecallflowError as exc:
            # Raised once the parts before it are judged: their lone conflicts come first.
            failed = exc
            break
    planned = parts[: len(plans)]
    for part, plan in zip(planned, plans, strict=True):
        part.adjusted = {b.id: b for b in plan.inserts}
    members = _stored_by_key(
        conn,
        "conflict_set_id",
        [
            (part.tenant, part.principal, set_id)
            for part, link in zip(planned, links, strict=False)
            for set_id in _conflict_sets([part.adjusted[b.id] for b in link.rows])
        ],
    )
    out: list[tuple[int, Belief, bool]] = []
    for part, link, plan in zip(planned, links, plans, strict=False):
        out.extend(_finish_part(conn, part, link, plan, members, ann, settle_lone))
    if failed is not None:
        raise failed
    return out


def _finish_part(
    conn: psycopg.Connection[Any],
    part: _Group,
    link: _Links,
    plan: SupersessionPlan,
    members: dict[tuple[str, str, str], list[Belief]],
    ann: AnnState,
    settle_lone: str | None,
) -> list[tuple[int, Belief, bool]]:
    """One principal's part once its supersessions are planned: its lone conflicts refused
    (or, for a re-derivation, settled), its stored rows to update, and its graduation."""
    tenant, principal, fresh = part.tenant, part.principal, link.fresh
    superseded = {*plan.stored_updates, *(c.id for c in part.claims)}
    rows = [part.adjusted[b.id] for b in link.rows]
    stored = [
        b for set_id in _conflict_sets(rows) for b in members.get((tenant, principal, set_id), [])
    ]
    undeclared = undeclared_sides([b for _, b in fresh]) if settle_lone is None else []
    if undeclared:
        b = undeclared[0]
        raise undeclared_side(b, next(i for i, f in fresh if f.id == b.id))
    lone, reopened = _lone_conflicts(rows, stored, superseded)
    if reopened:
        b, survivor = reopened[0]
        raise InvalidInputError(
            f"names conflict set {b.conflict_set_id!r}, whose conflict is over ({survivor.id!r}"
            " holds in it undisputed, and keeps its id as the record of that conflict):"
            " a new conflict takes a new set id",
            field="conflict_set_id",
            item_index=next(i for i, f in fresh if f.id == b.id),
            item_id=b.id,
        )
    if lone and settle_lone is None:
        b = lone[0]
        raise InvalidInputError(
            f"names conflict set {b.conflict_set_id!r}, which has no other member that holds"
            " (conflicted, and not retired, retracted, superseded or expired): a conflict"
            " needs two or more sides",
            field="conflict_set_id",
            item_index=next(i for i, f in fresh if f.id == b.id),
            item_id=b.id,
        )
    if lone:
        row = conn.execute("SELECT now()").fetchone()
        assert row is not None
        part.settled_at = row[0]
        part.lone = lone
        for b in lone:
            part.adjusted[b.id] = b.model_copy(update={"state": resolved_state(b, row[0])})
    part.fresh = fresh
    part.updates = dict(plan.stored_updates)
    for c in part.claims:
        part.updates[c.id] = (str(c.superseded_by), part.adjusted[c.id].valid_to)
    part.events = list(plan.events)
    indexed = ann.graduated(tenant, principal)
    if not indexed and fresh and ann.graduates(tenant, principal, len(fresh)):
        graduate(conn, tenant, principal)
        indexed = True
    return [(i, part.adjusted[b.id], indexed) for i, b in fresh]


def _apply_group(
    conn: psycopg.Connection[Any],
    part: _Group,
    beliefs: Sequence[Belief],
    settle_lone: str | None,
) -> list[tuple[str, str, str, str, datetime]]:
    """Once the batch's rows are in: mark one principal's stored predecessors superseded,
    settle the conflicts they leave, and fill in ``part.out`` (batch index → belief as
    stored); returns its supersession events' rows. A lone conflicted belief a
    re-derivation settled (``settle_lone``: how its other members left) gets its
    ``resolved`` event here, once its row is in."""
    tenant, principal, updates, out = part.tenant, part.principal, part.updates, part.out
    if part.settled_at is not None:
        for b in part.lone:
            reason = _resolved_reason(b, str(settle_lone))
            record_event(conn, b, "resolved", part.settled_at, reason=reason)
    if updates:
        # One statement: the term-statistics triggers run once per statement, not per row.
        olds = sorted(updates)
        conn.execute(
            "UPDATE beliefs b SET state = 'superseded', superseded_by = u.new_id,"
            " valid_to = coalesce(u.valid_to, 'infinity'::timestamptz)"
            " FROM unnest(%s::text[], %s::text[], %s::timestamptz[]) AS u(old_id, new_id, valid_to)"
            " WHERE b.tenant_id = %s AND b.principal_id = %s AND b.id = u.old_id",
            (olds, [updates[o][0] for o in olds], [updates[o][1] for o in olds], tenant, principal),
        )
        # A successor says what holds in its predecessor's place: not in a project the user
        # rejected the predecessor as not here in, as a re-derivation's successor keeps it.
        conn.execute(
            "INSERT INTO belief_exclusions (tenant_id, principal_id, belief_id, project)"
            " SELECT x.tenant_id, x.principal_id, u.new_id, x.project FROM belief_exclusions x"
            " JOIN unnest(%s::text[], %s::text[]) AS u(old_id, new_id) ON x.belief_id = u.old_id"
            " WHERE x.tenant_id = %s AND x.principal_id = %s ON CONFLICT DO NOTHING",
            (olds, [updates[o][0] for o in olds], tenant, principal),
        )
        left = conn.execute(
            "SELECT DISTINCT conflict_set_id FROM beliefs WHERE tenant_id = %s"
            " AND principal_id = %s AND id = ANY(%s) AND conflict_set_id IS NOT NULL",
            (tenant, principal, olds),
        ).fetchall()
        settle_conflicts(conn, tenant, principal, [str(r[0]) for r in left], None, "superseded")
    position = {beliefs[i].id: i for i in part.indexes}
    for old_id, (new_id, valid_to) in sorted(updates.items()):
        if old_id in position and position[old_id] in out:
            out[position[old_id]] = out[position[old_id]].model_copy(
                update={
                    "state": LifecycleState.SUPERSEDED,
                    "superseded_by": new_id,
                    "valid_to": valid_to,
                }
            )
    out.update((i, part.adjusted[b.id]) for i, b in part.fresh)
    out.update((i, out[earlier]) for i, earlier in part.aliases.items())
    return [(tenant, principal, e.old, e.new, e.at) for e in part.events]


def undeclared_side(belief: Belief, index: int) -> InvalidInputError:
    """The refusal of a new belief written under a conflict set id in a state other than
    ``conflicted`` (:func:`~recallflow.core.lifecycle.undeclared_sides`), item ``index``
    of its batch."""
    return InvalidInputError(
        f"names conflict set {belief.conflict_set_id!r} but is written"
        f" {belief.state.value!r}: a set id says the belief disputes the set's other"
        " members, and a read would show it as a side of that conflict; write it"
        " conflicted (beside another member that holds) or without the id",
        field="conflict_set_id",
        item_index=index,
        item_id=belief.id,
    )


def _conflict_sets(rows: Sequence[Belief]) -> list[str]:
    """The conflict sets ``rows`` are written conflicted in."""
    conflicted = LifecycleState.CONFLICTED
    return sorted({b.conflict_set_id for b in rows if b.conflict_set_id and b.state is conflicted})


def _lone_conflicts(
    rows: Sequence[Belief], stored: Sequence[Belief], superseded: set[str]
) -> tuple[list[Belief], list[tuple[Belief, Belief]]]:
    """The new ``rows`` written conflicted with no other live member in their set, and
    those written into a set whose conflict is over, each with the member that holds in
    it undisputed (:func:`~recallflow.core.lifecycle.reopened_sets`); the ``stored``
    members of their sets read as the batch leaves them (``superseded``: the stored
    beliefs it supersedes)."""
    if not _conflict_sets(rows):
        return [], []
    left = [
        b.model_copy(update={"state": LifecycleState.SUPERSEDED}) if b.id in superseded else b
        for b in stored
    ]
    return lone_in_batch(rows, left), reopened_sets(rows, left)


def _stored_once(
    fresh: list[tuple[int, Belief]],
    out: dict[int, Belief],
    known: dict[DerivationKey, list[Belief]],
) -> tuple[list[tuple[int, Belief]], dict[int, int]]:
    """Drop the new beliefs that are exact duplicates of a belief of the same derivation —
    same source episode, statement and content — stored (``known``: the principal's stored
    beliefs of the batch's source episodes by derivation, oldest first) or earlier in the
    batch: each is stored once, and the caller gets the stored belief (which keeps its
    corrections).

    Returns the beliefs still to insert, and batch index → index of the earlier duplicate.
    Beliefs without a source episode have no derivation to be the same by: kept as given.
    """
    first: dict[DerivationKey, list[tuple[int, Belief]]] = {}
    keep: list[tuple[int, Belief]] = []
    aliases: dict[int, int] = {}
    for i, b in fresh:
        if b.source_episode_id is None:
            keep.append((i, b))
            continue
        key = derivation_key(b)
        stored = next((s for s in known.get(key, []) if not content_differences(b, s)), None)
        if stored is not None:
            out[i] = stored
            continue
        earlier = next((j for j, e in first.get(key, []) if not content_differences(b, e)), None)
        if earlier is not None:
            aliases[i] = earlier
            continue
        first.setdefault(key, []).append((i, b))
        keep.append((i, b))
    return keep, aliases


def _insert(
    conn: psycopg.Connection[Any],
    rows: Sequence[tuple[int, Belief]],
    embeddings: VectorRows,
    *,
    ann_indexed: Sequence[bool],
) -> None:
    """COPY ``rows`` (batch index, belief), each entering the HNSW index or not as
    ``ann_indexed`` says; a refused row is reported by its batch index."""
    if not rows:
        return
    copied = [belief_row(b) for _, b in rows]
    try:
        copy_beliefs(conn, copied, (embeddings[i] for i, _ in rows), ann_indexed=ann_indexed)
    except (pg_errors.IntegrityError, pg_errors.DataError) as exc:
        items = [dict(zip(BELIEF_COLUMNS, row, strict=True)) for row in copied]
        error = translate(exc, table="beliefs", items=items)
        if isinstance(error, ConstraintViolation) and error.item_index is not None:
            diag = exc.diag
            message = diag.message_primary or str(exc)
            if diag.message_detail:
                message = f"{message} ({diag.message_detail})"
            error = ConstraintViolation(
                message,
                constraint=error.constraint,
                field=error.field,
                item_index=rows[error.item_index][0],
                item_id=error.item_id,
            )
        raise error from exc


def retract(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    belief_id: str,
    reason: str,
    now: datetime,
) -> Belief:
    """Stop asserting a belief from now on (system time); a repeat is a no-op."""
    lock_principals(conn, [(tenant_id, principal_id)])
    belief = locked_belief(conn, tenant_id, principal_id, belief_id)
    if belief.retracted_at is not None:
        return belief
    at = retraction_time(belief.recorded_at, now)
    conn.execute(
        "UPDATE beliefs SET retracted_at = %s"
        " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
        (at, tenant_id, principal_id, belief_id),
    )
    record_event(conn, belief, "retracted", at, reason=reason)
    settle_conflicts(conn, tenant_id, principal_id, [belief.conflict_set_id], at, "retracted")
    return belief.model_copy(update={"retracted_at": at})


def retire(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    belief_id: str,
    reason: str | None,
    now: datetime,
) -> Belief:
    """Retire a belief (it does not hold); a repeat is a no-op.

    A retired belief never held, so nothing replaced it: one superseded already loses
    its ``superseded_by`` (its ``superseded`` event stays, as every event does), and
    neither it nor its chain says it was ever replaced. Its successor is unchanged."""
    lock_principals(conn, [(tenant_id, principal_id)])
    belief = locked_belief(conn, tenant_id, principal_id, belief_id)
    if belief.state is LifecycleState.RETIRED:
        return belief
    conn.execute(
        "UPDATE beliefs SET state = 'retired', superseded_by = NULL"
        " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
        (tenant_id, principal_id, belief_id),
    )
    record_event(conn, belief, "retired", now, reason=reason)
    settle_conflicts(conn, tenant_id, principal_id, [belief.conflict_set_id], now, "retired")
    return belief.model_copy(update={"state": LifecycleState.RETIRED, "superseded_by": None})


def expire(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    belief_id: str,
    at: datetime,
    reason: str | None = None,
) -> Belief:
    """End a belief's validity at world time ``at``; a repeat (or a later end) is a no-op.
    A superseded or retired belief keeps its state (:func:`expired_state`)."""
    lock_principals(conn, [(tenant_id, principal_id)])
    belief = locked_belief(conn, tenant_id, principal_id, belief_id)
    if belief.valid_from is not None and at <= belief.valid_from:
        raise InvalidInputError(
            f"is not after the belief's valid_from {belief.valid_from.isoformat()}",
            field="at",
            item_id=belief_id,
        )
    already = belief.valid_to is not None and belief.valid_to <= at
    state = expired_state(belief.state)
    if belief.state is state and already:
        return belief
    valid_to = at if belief.valid_to is None or at < belief.valid_to else belief.valid_to
    conn.execute(
        "UPDATE beliefs SET state = %s, valid_to = %s"
        " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
        (state.value, valid_to, tenant_id, principal_id, belief_id),
    )
    record_event(conn, belief, "expired", valid_to, reason=reason)
    if state is not belief.state:
        settle_conflicts(conn, tenant_id, principal_id, [belief.conflict_set_id], None, "expired")
    return belief.model_copy(update={"state": state, "valid_to": valid_to})


def corroborate(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    belief_id: str,
    project: str,
    evidence_id: str,
    now: datetime,
    *,
    gain: float,
    promotion_projects: int,
) -> Belief:
    """Record evidence for a belief from ``project``; promote it to user scope once it
    holds in ``promotion_projects`` distinct projects (its origin counts; a project the user
    rejected it as not here in does not). Evidence from such a project is refused. The same
    evidence from the same project is recorded once."""
    lock_principals(conn, [(tenant_id, principal_id)])
    belief = locked_belief(conn, tenant_id, principal_id, belief_id)
    episode = conn.execute(
        "SELECT 1 FROM episodes WHERE tenant_id = %s AND principal_id = %s AND id = %s",
        (tenant_id, principal_id, evidence_id),
    ).fetchone()
    if episode is None:
        raise episode_not_found(evidence_id, tenant_id, principal_id, field="evidence")
    refusal = corroboration_refusal(belief, successor_of(conn, belief), now=now)
    excluded = set(exclusions(conn, tenant_id, principal_id, belief_id))
    refusal = refusal or exclusion_refusal(belief, project, excluded)
    if refusal is not None:
        raise refusal
    inserted = conn.execute(
        "INSERT INTO belief_events (tenant_id, principal_id, belief_id, kind, project,"
        " evidence_id, effective_at) VALUES (%s, %s, %s, 'corroborated', %s, %s, %s)"
        " ON CONFLICT (tenant_id, principal_id, belief_id, project, evidence_id)"
        " WHERE kind = 'corroborated' DO NOTHING RETURNING id",
        (tenant_id, principal_id, belief_id, project, evidence_id, now),
    ).fetchone()
    if inserted is None:
        return belief
    projects = tuple(sorted({*belief.corroborating_projects, project}))
    distinct = promoting_projects(belief, projects, excluded)
    promote = belief.scope is Scope.PROJECT and len(distinct) >= promotion_projects
    updated = belief.model_copy(
        update={
            "corroborating_projects": projects,
            "corroboration_count": belief.corroboration_count + 1,
            "last_corroborated_at": now,
            "confidence": corroborated_confidence(belief.confidence, gain),
            "scope": Scope.USER if promote else belief.scope,
        }
    )
    conn.execute(
        "UPDATE beliefs SET corroborating_projects = %s, corroboration_count = %s,"
        " last_corroborated_at = %s, confidence = %s, scope = %s"
        " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
        (
            list(updated.corroborating_projects),
            updated.corroboration_count,
            now,
            updated.confidence,
            updated.scope.value,
            tenant_id,
            principal_id,
            belief_id,
        ),
    )
    if promote:
        record_event(
            conn, belief, "promoted", now, reason=f"corroborated in {', '.join(sorted(distinct))}"
        )
    return updated
