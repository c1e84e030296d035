"""Re-derivation in PostgreSQL: read the earlier beliefs of the drafts' derivation keys
with every correction recorded against them, replay them onto the drafts
(:func:`recallflow.core.replay.replay`, pure), and write what replay says to write — all
in one transaction (see "Feedback and corrections" in docs/architecture.md).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg.rows import dict_row

from recallflow.adapters.postgres import lifecycle
from recallflow.adapters.postgres.beliefs import SELECT_BELIEF, belief_from_row
from recallflow.adapters.postgres.erasure import WHOLE_ERASURE_ITEMS
from recallflow.adapters.postgres.locks import lock_principals
from recallflow.core.corrections import in_force_at, status_of, stood_at
from recallflow.core.erasure import erasure_digest
from recallflow.core.lifecycle import undeclared_sides
from recallflow.core.replay import (
    Correction,
    Prior,
    Replayed,
    derivation_digests,
    derivation_key,
    replay,
)
from recallflow.errors import InvalidInputError
from recallflow.models.corrections import Rederivation, ReplayOutcome
from recallflow.models.session import BeliefStatus
from recallflow.models.store import Belief, Sensitivity


def priors(
    conn: psycopg.Connection[Any], tenant_id: str, principal_id: str, drafts: Sequence[Belief]
) -> list[Prior]:
    """The principal's beliefs that share an id or a derivation key with ``drafts``, each
    with its corrections (oldest first) and not-here exclusions."""
    ids = sorted({d.id for d in drafts})
    episodes = sorted({d.source_episode_id for d in drafts if d.source_episode_id is not None})
    sourceless = any(d.source_episode_id is None for d in drafts)
    cur = conn.cursor(row_factory=dict_row)
    rows = cur.execute(
        SELECT_BELIEF + " WHERE tenant_id = %(t)s AND principal_id = %(p)s AND (id = ANY(%(ids)s)"
        " OR source_episode_id = ANY(%(episodes)s)"
        " OR (%(sourceless)s AND source_episode_id IS NULL))",
        {
            "t": tenant_id,
            "p": principal_id,
            "ids": ids,
            "episodes": episodes,
            "sourceless": sourceless,
        },
    ).fetchall()
    keys = {derivation_key(d) for d in drafts}
    found = [belief_from_row(r) for r in rows]
    found = [b for b in found if b.id in ids or derivation_key(b) in keys]
    if not found:
        return []
    wanted = [b.id for b in found]
    corrections: dict[str, list[Correction]] = {}
    # In the order they were recorded (system time): a supersession's effective time is
    # its successor's start in world time, which may lie after a later retirement.
    for belief_id, kind, at, related, project, recorded, _ in conn.execute(
        "SELECT belief_id, kind, effective_at, related_id, project, created_at, id"
        " FROM belief_events"
        " WHERE tenant_id = %(t)s AND principal_id = %(p)s AND belief_id = ANY(%(ids)s)"
        " AND kind IN ('superseded', 'retracted', 'retired', 'expired')"
        " UNION ALL"
        " SELECT belief_id, kind, created_at, NULL, project, created_at, id FROM feedback_events"
        " WHERE tenant_id = %(t)s AND principal_id = %(p)s AND belief_id = ANY(%(ids)s)"
        " AND (kind LIKE 'rejected%%' OR kind = 'unflagged')"
        " ORDER BY 6, 1, 7",
        {"t": tenant_id, "p": principal_id, "ids": wanted},
    ).fetchall():
        corrections.setdefault(belief_id, []).append(
            Correction(kind=kind, at=at, related_id=related, project=project, recorded=recorded)
        )
    excluded: dict[str, list[str]] = {}
    for belief_id, project in conn.execute(
        "SELECT belief_id, project FROM belief_exclusions"
        " WHERE tenant_id = %s AND principal_id = %s AND belief_id = ANY(%s)",
        (tenant_id, principal_id, wanted),
    ).fetchall():
        excluded.setdefault(belief_id, []).append(project)
    successors = lifecycle.stored_by_id(
        conn, tenant_id, principal_id, sorted({b.superseded_by for b in found if b.superseded_by})
    )
    row = conn.execute("SELECT now()").fetchone()
    assert row is not None
    now = row[0]
    return [
        Prior(
            belief=b,
            corrections=tuple(corrections.get(b.id, ())),
            exclusions=tuple(sorted(excluded.get(b.id, ()))),
            holds=in_force_at(b, as_of=now)
            and status_of(
                stood_at(b, as_of=now, successors=successors), as_of=now, ceiling=max(Sensitivity)
            )
            in (BeliefStatus.LIVE, BeliefStatus.PROVISIONAL),
        )
        for b in found
    ]


def _at_draft(exc: InvalidInputError, indexes: Sequence[int]) -> InvalidInputError:
    """``exc``, raised for item ``exc.item_index`` of the rows written, naming instead
    that row's draft by its index among the caller's drafts (``indexes``: each written
    row's): the rows written are only the drafts replay says to write."""
    at = exc.item_index
    if at is None or not 0 <= at < len(indexes) or indexes[at] == at:
        return exc
    named = copy.copy(exc)
    named.item_index = indexes[at]
    where = InvalidInputError(exc.detail, field=exc.field, item_index=indexes[at],
                              item_id=exc.item_id)  # fmt: skip
    named.args = where.args
    return named


def forgotten_derivations(
    conn: psycopg.Connection[Any], tenant_id: str, principal_id: str
) -> frozenset[str]:
    """The derivation digests of the principal's forgotten beliefs, one by one or with the
    whole principal (see :func:`recallflow.core.replay.derivation_digest`)."""
    rows = conn.execute(
        "SELECT derivation_sha256 FROM erasures WHERE tenant_id = %(t)s"
        " AND principal_sha256 = %(p)s AND derivation_sha256 IS NOT NULL"
        f" UNION SELECT i.derivation_sha256 FROM {WHOLE_ERASURE_ITEMS} WHERE e.tenant_id = %(t)s"
        " AND e.principal_sha256 = %(p)s AND i.derivation_sha256 IS NOT NULL",
        {"t": tenant_id, "p": erasure_digest(tenant_id, principal_id)},
    ).fetchall()
    return frozenset(str(r[0]) for r in rows)


def rederive(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    drafts: Sequence[Belief],
    embeddings: npt.NDArray[np.float32],
) -> Rederivation:
    """Replay the principal's corrections onto re-derived ``drafts`` and write the result.

    A draft names a conflict set only written ``conflicted``, as for any write; one
    written conflicted under a set whose conflict is over (its survivor holds in it
    undisputed) is refused as any write of it is: a new conflict takes a new set id. A
    refused draft is named by its index among ``drafts``."""
    for index, draft in enumerate(drafts):
        if undeclared_sides([draft]):
            raise lifecycle.undeclared_side(draft, index)
    lock_principals(conn, [(tenant_id, principal_id)])
    erased = forgotten_derivations(conn, tenant_id, principal_id)
    replayed: list[Replayed] = replay(
        drafts,
        priors(conn, tenant_id, principal_id, drafts),
        lambda draft: not erased.isdisjoint(derivation_digests(tenant_id, principal_id, draft)),
    )
    writes = [r for r in replayed if r.writes]
    try:
        stored = lifecycle.write_beliefs(
            conn,
            [r.belief for r in writes],
            np.asarray([embeddings[r.index] for r in writes], dtype=np.float32).reshape(
                len(writes), embeddings.shape[1]
            ),
            # A draft whose conflict's other sides were corrected away (replayed retired,
            # withdrawn, superseded...) disputes nothing, as its earlier belief did not.
            settle_lone="corrected before this re-derivation",
        )
    except InvalidInputError as exc:
        raise _at_draft(exc, [r.index for r in writes]) from exc
    for r in writes:
        for project in r.exclusions:
            conn.execute(
                "INSERT INTO belief_exclusions (tenant_id, principal_id, belief_id, project)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (tenant_id, principal_id, r.belief.id, project),
            )
    written = {r.index: b.id for r, b in zip(writes, stored, strict=True)}
    return Rederivation(
        outcomes=tuple(
            ReplayOutcome(
                index=r.index,
                belief_id=written.get(r.index, r.belief.id),
                action=r.action,
                replayed=r.replayed,
            )
            for r in replayed
        )
    )
