"""Erasure in PostgreSQL: a whole principal, one belief, one episode, or the beliefs and
episodes of one project or session, in one transaction
(see "Feedback and corrections" in docs/architecture.md).

Append-only holds for every ordinary write; erasure is the one audited exception. The
transaction sets ``recallflow.erasure`` locally (the append-only trigger then allows
DELETE, never UPDATE) and writes an ``erasures`` record — digests of the ids, row counts
and time, no content — before it commits; an erasure of a whole principal adds a digest of
each belief and episode it took (``erased_items``), so what the erasure of one item holds
back (:func:`forgotten_ids`) the erasure of all of them holds back too.

The tables are not listed here: every table of the schema with a ``principal_id`` column
is found in the catalog and emptied of the principal, referencing tables before the
tables they reference, so a table added later cannot keep an erased principal's rows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from contextlib import suppress
from datetime import datetime
from graphlib import CycleError, TopologicalSorter
from typing import Any, Literal

import psycopg
from psycopg import sql
from psycopg.types.json import Json, Jsonb
from pydantic import ValidationError

from recallflow.adapters.postgres import lifecycle
from recallflow.adapters.postgres.locks import fence_erasure, lock_principals
from recallflow.adapters.postgres.statements import set_local
from recallflow.core.erasure import (
    asked_queries,
    erased_texts,
    erasure_digest,
    items_in,
    scrubbed,
    scrubbed_of_many,
    scrubbed_prefix,
    scrubbed_snapshot,
)
from recallflow.core.misses import miss_subject
from recallflow.core.render import inert
from recallflow.core.replay import derivation_digest, folded_statement, key_digest
from recallflow.errors import ConfigurationError, episode_not_found
from recallflow.models.corrections import Erasure
from recallflow.models.store import Belief
from recallflow.policy import DEFAULT_POLICY, Feedback


def principal_tables(conn: psycopg.Connection[Any]) -> list[str]:
    """Every table of the current schema with a ``principal_id`` column, ordered so that a
    table comes before the tables its foreign keys reference."""
    rows = conn.execute(
        "SELECT c.table_name, bool_or(c2.column_name IS NOT NULL)"
        " FROM information_schema.columns c"
        " JOIN information_schema.tables t"
        "  ON t.table_schema = c.table_schema AND t.table_name = c.table_name"
        "  AND t.table_type = 'BASE TABLE'"
        " LEFT JOIN information_schema.columns c2 ON c2.table_schema = c.table_schema"
        "  AND c2.table_name = c.table_name AND c2.column_name = 'tenant_id'"
        " WHERE c.table_schema = current_schema() AND c.column_name = 'principal_id'"
        " GROUP BY c.table_name ORDER BY c.table_name"
    ).fetchall()
    tables = [str(r[0]) for r in rows]
    untenanted = [str(r[0]) for r in rows if not r[1]]
    if untenanted:
        raise ConfigurationError(
            f"tables {untenanted} have principal_id but no tenant_id; erasure cannot scope them"
        )
    edges = conn.execute(
        "SELECT src.relname, dst.relname FROM pg_constraint k"
        " JOIN pg_class src ON src.oid = k.conrelid JOIN pg_class dst ON dst.oid = k.confrelid"
        " JOIN pg_namespace n ON n.oid = src.relnamespace"
        " WHERE k.contype = 'f' AND n.nspname = current_schema() AND src.oid <> dst.oid"
    ).fetchall()
    order: TopologicalSorter[str] = TopologicalSorter({t: set() for t in tables})
    for src, dst in edges:
        if src in tables and dst in tables:
            order.add(str(dst), str(src))  # delete the referencing table first
    try:
        return list(order.static_order())
    except CycleError:
        return tables  # only deferrable references can form a cycle: checked at commit


#: The items of the erasures of whole principals (``e``: the record, ``i``: an item's
#: digests), for a statement to pin to a tenant and principal digest.
WHOLE_ERASURE_ITEMS = (
    "erasures e JOIN erased_items i ON i.tenant_id = e.tenant_id AND i.erasure_id = e.id"
    " AND e.scope = 'principal'"
)
#: The column of ``erasures`` that keeps the digest of one forgotten item, by scope.
_ITEM_DIGEST = {"belief": "belief_sha256", "episode": "episode_sha256"}


def forgotten_ids(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    scope: str,
    ids: Sequence[str],
) -> dict[str, datetime]:
    """Of ``ids`` (beliefs or episodes, as ``scope`` says), those the principal forgot
    (``forget_belief``, ``forget_episode``, or ``forget`` of the whole principal while it
    held them), each with when it was last erased: matched by the digest of the tenant,
    principal and id the erasure record keeps, never the id or the text. A write that
    repeats one without anyone deciding to (a keyed retry, an import of an older export)
    is checked against it."""
    if not ids:
        return {}
    column = sql.Identifier(_ITEM_DIGEST[scope])
    digests = {erasure_digest(tenant_id, principal_id, i): i for i in ids}
    principal, wanted = erasure_digest(tenant_id, principal_id), list(digests)
    rows = conn.execute(
        sql.SQL(
            "SELECT digest, max(erased_at) FROM ("
            "SELECT {column} AS digest, erased_at FROM erasures WHERE tenant_id = %(t)s"
            " AND principal_sha256 = %(p)s AND scope = %(scope)s AND {column} = ANY(%(ids)s)"
            " UNION ALL SELECT i.item_sha256, e.erased_at FROM {whole}"
            " WHERE e.tenant_id = %(t)s AND e.principal_sha256 = %(p)s"
            " AND i.scope = %(scope)s AND i.item_sha256 = ANY(%(ids)s)) AS erased GROUP BY 1"
        ).format(column=column, whole=sql.SQL(WHOLE_ERASURE_ITEMS)),
        {"t": tenant_id, "p": principal, "scope": scope, "ids": wanted},
    ).fetchall()
    return {digests[str(digest)]: erased_at for digest, erased_at in rows}


def _hold_principal(
    conn: psycopg.Connection[Any], tenant_id: str, principal_id: str, lock_timeout_ms: int | None
) -> None:
    """Take the principal's write lock (waiting as any write of it waits), then its
    erasure fence, and from then on wait for any lock at most ``lock_timeout_ms``: holding
    those two, the erasure holds up every write and every stored trace of the principal,
    so a lock it then waits for — a session row a turn stuck mid-transaction holds, say —
    must not keep them waiting forever. Past it PostgreSQL cancels the erasure
    (``LockNotAvailable``) and the whole transaction rolls back: nothing is erased."""
    lock_principals(conn, [(tenant_id, principal_id)])
    if lock_timeout_ms is not None:
        set_local(conn, {"lock_timeout": str(lock_timeout_ms)})
    fence_erasure(conn, tenant_id, principal_id)


def _begin_erasure(conn: psycopg.Connection[Any]) -> None:
    conn.execute("SELECT set_config('recallflow.erasure', 'on', true)")
    conn.execute("SET CONSTRAINTS ALL DEFERRED")


def _record(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    belief_id: str | None,
    counts: dict[str, Any],
    derivation: str | None = None,
    *,
    episode_id: str | None = None,
    named: tuple[str, str] | None = None,
) -> tuple[int, datetime]:
    """Write the erasure record; returns its id and ``erased_at``. ``named``: the scope
    (``project``, ``session``) and the name of a scoped erasure, kept as a digest."""
    scope = "episode" if episode_id is not None else "principal" if belief_id is None else "belief"
    if named is not None:
        scope = named[0]
    row = conn.execute(
        # erased_at: when the rows were gone, just before the commit, not when the
        # transaction began (it may have waited for the principal's lock): a trace whose
        # recall began before that instant may hold what was erased (traces.save_trace).
        # One that began after it, before the commit, read the rows all the same: its
        # write finds the beliefs it names gone (traces.UNLESS_ERASED).
        "INSERT INTO erasures (tenant_id, scope, principal_sha256, belief_sha256,"
        " episode_sha256, scope_sha256, counts, derivation_sha256, erased_at)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, clock_timestamp()) RETURNING id, erased_at",
        (
            tenant_id,
            scope,
            erasure_digest(tenant_id, principal_id),
            None if belief_id is None else erasure_digest(tenant_id, principal_id, belief_id),
            None if episode_id is None else erasure_digest(tenant_id, principal_id, episode_id),
            None if named is None else erasure_digest(tenant_id, principal_id, *named),
            Jsonb(counts),
            derivation,
        ),
    ).fetchone()
    assert row is not None
    return int(row[0]), row[1]


def forget(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    lock_timeout_ms: int | None = None,
) -> Erasure:
    """Delete every row of the principal from every table; returns the counts. The record
    keeps a digest of each belief and episode it took (:func:`_erased_items`), as the
    record of one belief's or episode's erasure keeps one. Every lock waited for once the
    principal's write lock is held, at most ``lock_timeout_ms`` (:func:`_hold_principal`)."""
    _hold_principal(conn, tenant_id, principal_id, lock_timeout_ms)
    _begin_erasure(conn)
    items = _erased_items(conn, tenant_id, principal_id)
    deleted: dict[str, int] = {}
    for table in principal_tables(conn):
        cur = conn.execute(
            sql.SQL("DELETE FROM {} WHERE tenant_id = %s AND principal_id = %s").format(
                sql.Identifier(table)
            ),
            (tenant_id, principal_id),
        )
        deleted[table] = cur.rowcount
    erasure_id, erased_at = _record(conn, tenant_id, principal_id, None, {"deleted": deleted})
    if items:
        with conn.cursor().copy(_COPY_ERASED_ITEMS) as copy:
            for scope, item, derivation in items:
                copy.write_row((tenant_id, erasure_id, scope, item, derivation))
    return Erasure(scope="principal", tenant_id=tenant_id, erased_at=erased_at, deleted=deleted)


_COPY_ERASED_ITEMS = (
    "COPY erased_items (tenant_id, erasure_id, scope, item_sha256, derivation_sha256) FROM STDIN"
)


def _erased_items(
    conn: psycopg.Connection[Any], tenant_id: str, principal_id: str
) -> list[tuple[str, str, str | None]]:
    """Each belief and episode of the principal as an erasure of the whole principal keeps
    it: (scope, digest of the tenant, principal and id, digest of a belief's derivation
    key), read before the rows go. It is what the erasure of one of them keeps of it, so
    what that holds back (a keyed retry, an older export, a re-derivation:
    :func:`forgotten_ids`, :func:`~recallflow.adapters.postgres.replay.
    forgotten_derivations`) the erasure of all of them holds back too."""
    beliefs = conn.execute(
        "SELECT id, source_episode_id, statement FROM beliefs"
        " WHERE tenant_id = %s AND principal_id = %s",
        (tenant_id, principal_id),
    ).fetchall()
    episodes = conn.execute(
        "SELECT id FROM episodes WHERE tenant_id = %s AND principal_id = %s",
        (tenant_id, principal_id),
    ).fetchall()
    kept: list[tuple[str, str, str | None]] = [
        (
            "belief",
            erasure_digest(tenant_id, principal_id, str(b)),
            key_digest(tenant_id, principal_id, (source, folded_statement(str(statement)))),
        )
        for b, source, statement in beliefs
    ]
    kept.extend(
        ("episode", erasure_digest(tenant_id, principal_id, str(e)), None) for (e,) in episodes
    )
    return kept


def _json_text(text: str) -> str:
    """``text`` as it appears inside a JSON string in jsonb's text form and in the trace
    JSON this package writes (a row a scrub rewrote may escape it otherwise; the row is
    still found by the belief's id, which every record naming the belief carries)."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _json_columns(conn: psycopg.Connection[Any], tables: list[str]) -> list[tuple[str, str, str]]:
    """Every JSON column (``json`` or ``jsonb``: a trace's operator view is ``json``) of
    ``tables``, with its type."""
    rows = conn.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND data_type IN ('json', 'jsonb')"
        " AND table_name = ANY(%s) ORDER BY table_name, column_name",
        (tables,),
    ).fetchall()
    return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]


#: The reason of the ``retired`` event of a belief whose successor was forgotten.
_SUCCESSOR_FORGOTTEN = "its successor was forgotten"
#: Tables whose records :func:`_scrub_sessions` scrubs (a session keeps the erased id).
_SESSION_TABLES = ("sessions", "session_corrections", "session_shown")


def _scrub_sessions(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    belief_id: str,
    statement: str,
) -> tuple[dict[str, int], int]:
    """Take the belief's statement out of every session of the principal: the stored
    prefix and the frozen fingerprints are rewritten (the erasure transaction is the one
    writer a session row allows), keeping the belief's id for the ``forgotten`` correction
    the next turn renders; the corrections recorded about it, or naming it, are deleted,
    so "what the agent was last told" falls back to the scrubbed fingerprint. A session
    whose turns showed the belief beyond the prefix has it marked forgotten, for its next
    turn to tell, and forgets what it kept of the belief as shown. Returns the rewritten
    rows per ``table.column`` and the deleted correction rows."""
    # A session row shows the belief only under its id: its prefix line names ``[id]``,
    # its frozen entry has the id (another belief's words are that belief's, even the same).
    named, shown = json.dumps(belief_id), f"[{belief_id}]".encode()
    rewritten: dict[str, int] = {}
    # Every session of the principal is locked first: a turn holds its session's row from
    # its reads to the record of what it showed, so a turn that read the belief has
    # recorded it (and is marked below) before this goes on, and one that has not read
    # yet will not find it.
    conn.execute(
        "SELECT 1 FROM sessions WHERE tenant_id = %s AND principal_id = %s FOR UPDATE",
        (tenant_id, principal_id),
    )
    # What the session kept of what its turns showed of the belief goes with the mark:
    # a digest of the erased statement is not kept either.
    marked = conn.execute(
        "UPDATE session_shown SET forgotten_at = now(), fingerprint = NULL WHERE tenant_id = %s"
        " AND principal_id = %s AND belief_id = %s AND forgotten_at IS NULL",
        (tenant_id, principal_id, belief_id),
    ).rowcount
    if marked:
        rewritten["session_shown.forgotten_at"] = marked
    rows = conn.execute(
        "SELECT id, prefix, snapshot_beliefs FROM sessions"
        " WHERE tenant_id = %s AND principal_id = %s AND (strpos(snapshot_beliefs::text, %s) > 0"
        " OR position(%s::bytea IN prefix) > 0) FOR UPDATE",
        (tenant_id, principal_id, named, shown),
    ).fetchall()
    for session_id, prefix, frozen in rows:
        text, prefix_changed = scrubbed_prefix(bytes(prefix).decode(), belief_id)
        beliefs, beliefs_changed = scrubbed_snapshot(frozen, belief_id, statement)
        if not (prefix_changed or beliefs_changed):
            continue
        new_prefix = text.encode()
        conn.execute(
            "UPDATE sessions SET prefix = %s, prefix_sha256 = %s, snapshot_beliefs = %s"
            " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
            (
                new_prefix,
                hashlib.sha256(new_prefix).hexdigest(),
                Jsonb(beliefs),
                tenant_id,
                principal_id,
                session_id,
            ),
        )
        for column, did in (("prefix", prefix_changed), ("snapshot_beliefs", beliefs_changed)):
            if did:
                rewritten[f"sessions.{column}"] = rewritten.get(f"sessions.{column}", 0) + 1
    told = conn.execute(
        "SELECT session_id, seq, belief_id, fingerprint FROM session_corrections"
        " WHERE tenant_id = %s AND principal_id = %s AND (belief_id = %s"
        " OR strpos(fingerprint::text, %s) > 0) FOR UPDATE",
        (tenant_id, principal_id, belief_id, named),
    ).fetchall()
    # A fingerprint is its row's belief's (``owner``): one that reads the same words as the
    # forgotten statement is another belief's and stays; one naming the id goes.
    stale = [
        (sid, seq)
        for sid, seq, about, fp in told
        if about == belief_id or scrubbed(fp, belief_id, statement, owner=str(about))[1]
    ]
    deleted = 0
    for session_id, seq in stale:
        deleted += conn.execute(
            "DELETE FROM session_corrections WHERE tenant_id = %s AND principal_id = %s"
            " AND session_id = %s AND seq = %s",
            (tenant_id, principal_id, session_id, seq),
        ).rowcount
    return rewritten, deleted


def _scrub(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    targets: Sequence[tuple[str | None, str]],
) -> tuple[dict[str, int], int]:
    """Rewrite every JSON record of the principal that names one of ``targets`` — each
    an item (a belief or an episode) and its text; an id None looks for the text alone —
    or holds its text (sessions apart: :func:`_scrub_sessions`). The query finds the rows
    that may (the text inside a longer string too); :func:`scrubbed` decides, and erases
    exactly each item's own, one item after another, and a row is written once. Returns
    the rewritten rows per ``table.column`` and the miss hints deleted (the subjects of
    recalls whose query was one of the texts)."""
    scrubbed_rows: dict[str, int] = {}
    needles: set[str] = set()
    for item_id, text in targets:
        needles.update((_json_text(text), _json_text(inert(text) or text)))
        if item_id is not None:
            needles.add(json.dumps(item_id))
    # Which items a record may hold is asked only when there are several.
    prepared = (
        [(item_id, erased_texts(text)) for item_id, text in targets] if len(targets) > 1 else []
    )
    tables = [t for t in principal_tables(conn) if t not in _SESSION_TABLES]
    asked: list[str] = []
    rules: dict[Any, Feedback] = {}  # the miss rule of each policy version, read once
    for table, column, data_type in _json_columns(conn, tables):
        wrap = Jsonb if data_type == "jsonb" else Json
        rows = conn.execute(
            sql.SQL(
                "SELECT ctid::text, {c} FROM {t} WHERE tenant_id = %s AND principal_id = %s"
                " AND EXISTS (SELECT 1 FROM unnest(%s::text[]) n WHERE strpos({c}::text, n) > 0)"
                " FOR UPDATE"
            ).format(c=sql.Identifier(column), t=sql.Identifier(table)),
            (tenant_id, principal_id, sorted(needles)),
        ).fetchall()
        changed = 0
        for ctid, value in rows:
            held = (
                list(targets)
                if len(targets) == 1
                else [targets[i] for i in items_in(value, prepared)]
            )
            if (table, column) == ("recall_traces", "operator_view"):
                for _, text in held:
                    asked.extend(_missed_subjects(conn, value, text, rules))
            if len(held) == 1:
                value, did = scrubbed(value, *held[0])
            else:
                value, did = scrubbed_of_many(value, held)
            if not did:
                continue
            conn.execute(
                sql.SQL("UPDATE {t} SET {c} = %s WHERE ctid = %s::tid").format(
                    c=sql.Identifier(column), t=sql.Identifier(table)
                ),
                (wrap(value), ctid),
            )
            changed += 1
        if changed:
            scrubbed_rows[f"{table}.{column}"] = changed
    # A miss of a recall whose query was the text counted a subject of its names.
    hints = conn.execute(
        "DELETE FROM miss_hints WHERE tenant_id = %s AND principal_id = %s AND subject = ANY(%s)",
        (tenant_id, principal_id, sorted(set(asked))),
    ).rowcount
    return scrubbed_rows, hints


def _missed_subjects(
    conn: psycopg.Connection[Any], view: Any, text: str, rules: dict[Any, Feedback]
) -> list[str]:
    """The subject a miss of the stored recall ``view`` counted, when one of its queries
    was ``text`` (by the rule of the policy the recall ran with, as recorded; ``rules``
    keeps each version's rule once read)."""
    queries = asked_queries(view, text)
    if not queries:
        return []
    version = view.get("retrieval_policy_version")
    if version not in rules:
        rules[version] = DEFAULT_POLICY.feedback
        row = conn.execute(
            "SELECT policy -> 'feedback' FROM policy_versions WHERE version = %s", (version,)
        ).fetchone()
        if row is not None and isinstance(row[0], dict):
            # Recorded by a version whose fields differ: the default's rule.
            with suppress(ValidationError):
                rules[version] = Feedback.model_validate(row[0])
    subject = miss_subject(queries, rules[version])
    return [] if subject is None else [subject]


def forget_belief(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    belief_id: str,
    lock_timeout_ms: int | None = None,
) -> Erasure:
    """Delete one belief, its feedback, events, exclusions and edges, and scrub it from
    stored traces. A predecessor it superseded loses the link and is retired (it stays out
    of live recall), with a ``retired`` event saying why; a successor keeps its place and
    loses the link back. A conflict left with one live member is over (see
    :func:`~recallflow.adapters.postgres.lifecycle.settle_conflicts`). Locks are waited
    for as :func:`forget` waits for them."""
    _hold_principal(conn, tenant_id, principal_id, lock_timeout_ms)
    belief = lifecycle.locked_belief(conn, tenant_id, principal_id, belief_id)
    _begin_erasure(conn)
    return _erase_belief(conn, tenant_id, principal_id, belief)[0]


def _erase_belief(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    belief: Belief,
    *,
    traces: bool = True,
) -> tuple[Erasure, set[str]]:
    """:func:`forget_belief` of a belief already locked, in an erasure already begun: its
    erasure, with its record written, and the ids of the other beliefs it rewrote.
    ``traces`` False leaves the stored records but sessions to the caller, who scrubs
    them of many items at once (:func:`_scrub`)."""
    belief_id = belief.id
    scrubbed_rows, told = _scrub_sessions(
        conn, tenant_id, principal_id, belief_id, belief.statement
    )
    hints = 0
    if traces:
        in_traces, hints = _scrub(conn, tenant_id, principal_id, [(belief_id, belief.statement)])
        scrubbed_rows.update(in_traces)
    key = {"t": tenant_id, "p": principal_id, "id": belief_id, "text": belief.statement}
    deleted: dict[str, int] = {"session_corrections": told, "miss_hints": hints}
    for table, predicate in (
        ("feedback_events", "belief_id = %(id)s"),
        ("belief_events", "belief_id = %(id)s OR related_id = %(id)s"),
        ("belief_exclusions", "belief_id = %(id)s"),
        ("belief_edges", "src_id = %(id)s OR dst_id = %(id)s"),
        # A report that recall missed it names it, and its subject is the belief's; one
        # whose words of what should have been remembered are its statement is the
        # statement (formation wrote what the user said), as a query typed back is.
        ("reported_misses", "belief_id = %(id)s OR expected = %(text)s"),
    ):
        cur = conn.execute(
            sql.SQL("DELETE FROM {} WHERE tenant_id = %(t)s AND principal_id = %(p)s AND (").format(
                sql.Identifier(table)
            )
            + sql.SQL(predicate)  # a literal of this function, never input
            + sql.SQL(")"),
            key,
        )
        deleted[table] = cur.rowcount
    # A predecessor it superseded is retired, and says so: a state changes only with its
    # event, and the belief's history tells why (the event does not name the erased id).
    retired = [
        str(r[0])
        for r in conn.execute(
            "SELECT id FROM beliefs WHERE tenant_id = %(t)s AND principal_id = %(p)s"
            " AND superseded_by = %(id)s AND state = 'superseded'",
            key,
        ).fetchall()
    ]
    relinked = conn.execute(
        "UPDATE beliefs SET superseded_by = NULL,"
        " state = CASE WHEN state = 'superseded' THEN 'retired' ELSE state END"
        " WHERE tenant_id = %(t)s AND principal_id = %(p)s AND superseded_by = %(id)s"
        " RETURNING id",
        key,
    ).fetchall()
    conn.cursor().executemany(
        "INSERT INTO belief_events (tenant_id, principal_id, belief_id, kind, reason,"
        " effective_at) VALUES (%s, %s, %s, 'retired', %s, now())",
        [(tenant_id, principal_id, old, _SUCCESSOR_FORGOTTEN) for old in retired],
    )
    relinked += conn.execute(
        "UPDATE beliefs SET supersedes = NULL"
        " WHERE tenant_id = %(t)s AND principal_id = %(p)s AND supersedes = %(id)s"
        " RETURNING id",
        key,
    ).fetchall()
    deleted["beliefs"] = conn.execute(
        "DELETE FROM beliefs WHERE tenant_id = %(t)s AND principal_id = %(p)s AND id = %(id)s",
        key,
    ).rowcount
    # A conflict it was one of two in is over: the other member returns to the state it
    # would have without the conflict, as when a member is retired or retracted.
    settled = lifecycle.settle_conflicts(
        conn, tenant_id, principal_id, [belief.conflict_set_id], None, "forgotten"
    )
    touched = [str(r[0]) for r in relinked] + [b.id for b in settled]
    # The term counts the delete just lowered: a word or key no other belief of the
    # principal holds would stay behind with a count of zero, the erased text's words.
    for table in ("principal_terms", "principal_term_classes"):
        deleted[table] = conn.execute(
            sql.SQL(
                "DELETE FROM {} WHERE tenant_id = %(t)s AND principal_id = %(p)s AND df = 0"
            ).format(sql.Identifier(table)),
            key,
        ).rowcount
    _, erased_at = _record(
        conn,
        tenant_id,
        principal_id,
        belief_id,
        {"deleted": deleted, "scrubbed": scrubbed_rows, "restated": len(touched)},
        derivation_digest(tenant_id, principal_id, belief),
    )
    erasure = Erasure(
        scope="belief",
        tenant_id=tenant_id,
        erased_at=erased_at,
        deleted=deleted,
        scrubbed=scrubbed_rows,
        restated=len(touched),
    )
    return erasure, set(touched)


def forget_episode(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    episode_id: str,
    lock_timeout_ms: int | None = None,
) -> Erasure:
    """Delete one episode — its content, its search document and its embedding are its
    row's — and scrub it from stored records: every JSON record of the principal loses its
    id and any text holding its content (as :func:`forget_belief` scrubs a statement). The
    beliefs derived from it stay (the user forgets them one by one) and lose the reference
    to it; the corroborations it was the evidence of are deleted (a belief keeps the
    confidence they gave). An id the principal does not have, forgotten already or never
    stored, is a :class:`NotFoundError` alike. Locks are waited for as :func:`forget`
    waits for them."""
    _hold_principal(conn, tenant_id, principal_id, lock_timeout_ms)
    row = conn.execute(
        "SELECT content FROM episodes WHERE tenant_id = %s AND principal_id = %s AND id = %s"
        " FOR UPDATE",
        (tenant_id, principal_id, episode_id),
    ).fetchone()
    if row is None:
        raise episode_not_found(episode_id, tenant_id, principal_id)
    _begin_erasure(conn)
    return _erase_episode(conn, tenant_id, principal_id, episode_id, str(row[0]))[0]


def _episode_target(
    conn: psycopg.Connection[Any], tenant_id: str, principal_id: str, episode_id: str, content: str
) -> tuple[str | None, str]:
    """What a scrub of the stored records looks for of an erased episode: its id and its
    text. Records name beliefs and episodes alike by id: where a live belief of the
    principal has the episode's id too, the id names that belief as well and stays (None);
    the episode's text is looked for all the same."""
    shared = conn.execute(
        "SELECT 1 FROM beliefs WHERE tenant_id = %s AND principal_id = %s AND id = %s",
        (tenant_id, principal_id, episode_id),
    ).fetchone()
    return None if shared else episode_id, content


def _erase_episode(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    episode_id: str,
    content: str,
    *,
    traces: bool = True,
) -> tuple[Erasure, set[str]]:
    """:func:`forget_episode` of an episode already locked (its ``content`` read), in an
    erasure already begun: its erasure, with its record written, and the ids of the
    beliefs that lost their reference to it. ``traces`` False leaves the stored records
    to the caller, as for :func:`_erase_belief`."""
    scrubbed_rows: dict[str, int] = {}
    hints = 0
    if traces:
        target = _episode_target(conn, tenant_id, principal_id, episode_id, content)
        scrubbed_rows, hints = _scrub(conn, tenant_id, principal_id, [target])
    key = {"t": tenant_id, "p": principal_id, "id": episode_id, "text": content}
    deleted: dict[str, int] = {
        "miss_hints": hints,
        "belief_events": conn.execute(
            "DELETE FROM belief_events WHERE tenant_id = %(t)s AND principal_id = %(p)s"
            " AND evidence_id = %(id)s",
            key,
        ).rowcount,
        # A reported miss whose words of what should have been remembered are the
        # episode's text, pasted, is that text.
        "reported_misses": conn.execute(
            "DELETE FROM reported_misses WHERE tenant_id = %(t)s AND principal_id = %(p)s"
            " AND expected = %(text)s",
            key,
        ).rowcount,
    }
    restated = [
        str(r[0])
        for r in conn.execute(
            "UPDATE beliefs SET source_episode_id = NULL WHERE tenant_id = %(t)s"
            " AND principal_id = %(p)s AND source_episode_id = %(id)s RETURNING id",
            key,
        ).fetchall()
    ]
    deleted["episodes"] = conn.execute(
        "DELETE FROM episodes WHERE tenant_id = %(t)s AND principal_id = %(p)s AND id = %(id)s",
        key,
    ).rowcount
    _, erased_at = _record(
        conn,
        tenant_id,
        principal_id,
        None,
        {"deleted": deleted, "scrubbed": scrubbed_rows, "restated": len(restated)},
        episode_id=episode_id,
    )
    erasure = Erasure(
        scope="episode",
        tenant_id=tenant_id,
        erased_at=erased_at,
        deleted=deleted,
        scrubbed=scrubbed_rows,
        restated=len(restated),
    )
    return erasure, set(restated)


def _added(total: dict[str, int], more: dict[str, int]) -> None:
    for name, count in more.items():
        total[name] = total.get(name, 0) + count


def forget_scope(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    scope: Literal["project", "session"],
    name: str,
    *,
    with_beliefs: bool = False,
    lock_timeout_ms: int | None = None,
    dry_run: bool = False,
) -> Erasure:
    """:func:`_erase_scope`; with ``dry_run``, in a savepoint rolled back before it
    returns: the counts of what it would erase, and nothing erased nor recorded (it holds
    the principal's writes while it runs, as the erasure would)."""
    if not dry_run:
        return _erase_scope(
            conn, tenant_id, principal_id, scope, name, with_beliefs, lock_timeout_ms
        )
    with conn.transaction() as savepoint:
        erasure = _erase_scope(
            conn, tenant_id, principal_id, scope, name, with_beliefs, lock_timeout_ms
        )
        raise psycopg.Rollback(savepoint)
    return erasure


def _erase_scope(
    conn: psycopg.Connection[Any],
    tenant_id: str,
    principal_id: str,
    scope: Literal["project", "session"],
    name: str,
    with_beliefs: bool,
    lock_timeout_ms: int | None,
) -> Erasure:
    """Erase, in this one transaction, every episode of the principal logged in the
    project ``name`` (``scope`` ``project``) or under the session id ``name``
    (``session``), each exactly as :func:`forget_episode` erases one — and, for a project,
    every project-scope belief whose origin project it is, and the not-here rejections
    made in it; for a session with ``with_beliefs``, every belief whose source episode is
    one of its episodes — each exactly as :func:`forget_belief` erases one, with the record it would
    write. Beliefs go first, so an episode's erasure rewrites only the beliefs that stay.
    The stored records are scrubbed of all of them at once (:func:`_scrub`). One more
    record, of the scope, keeps the counts of the whole (that scrub's among them) and a
    digest of the name. A scope that holds nothing erases nothing and records nothing:
    every count is 0. Locks are waited for as :func:`forget` waits for them."""
    _hold_principal(conn, tenant_id, principal_id, lock_timeout_ms)
    column = "project" if scope == "project" else "session_id"
    episodes = conn.execute(
        sql.SQL(
            "SELECT id, content FROM episodes WHERE tenant_id = %s AND principal_id = %s"
            " AND {} = %s ORDER BY id FOR UPDATE"
        ).format(sql.Identifier(column)),
        (tenant_id, principal_id, name),
    ).fetchall()
    if scope == "project":
        found = conn.execute(
            # A user-scope belief learned there is about the user, not the project's: it
            # stays (see "Forgetting a project or a session" in docs/corrections.md).
            "SELECT id FROM beliefs WHERE tenant_id = %s AND principal_id = %s"
            " AND scope = 'project' AND origin_project = %s ORDER BY id",
            (tenant_id, principal_id, name),
        ).fetchall()
    elif with_beliefs:
        found = conn.execute(
            "SELECT id FROM beliefs WHERE tenant_id = %s AND principal_id = %s"
            " AND source_episode_id = ANY(%s) ORDER BY id",
            (tenant_id, principal_id, [str(e[0]) for e in episodes]),
        ).fetchall()
    else:
        found = []
    belief_ids = [str(r[0]) for r in found]
    # The not-here rejections made in the project: of its own beliefs they go with them;
    # these are of beliefs of other projects (or of none), which stay.
    excluded = 0
    if scope == "project":
        row = conn.execute(
            "SELECT count(*) FROM belief_exclusions WHERE tenant_id = %s AND principal_id = %s"
            " AND project = %s",
            (tenant_id, principal_id, name),
        ).fetchone()
        excluded = 0 if row is None else int(row[0])
    deleted: dict[str, int] = {"beliefs": 0, "episodes": 0}
    if scope == "project":
        deleted["belief_exclusions"] = 0
    if not (episodes or belief_ids or excluded):
        row = conn.execute("SELECT now()").fetchone()
        assert row is not None
        return Erasure(scope=scope, tenant_id=tenant_id, erased_at=row[0], deleted=deleted)
    _begin_erasure(conn)
    scrubbed_rows: dict[str, int] = {}
    touched: set[str] = set()
    # Each item's erasure but the scrub of the stored records, which is made once for
    # all of them below: a trace that showed many of them is read and written once.
    targets: list[tuple[str | None, str]] = []
    for belief_id in belief_ids:
        belief = lifecycle.locked_belief(conn, tenant_id, principal_id, belief_id)
        targets.append((belief.id, belief.statement))
        one, rewritten = _erase_belief(conn, tenant_id, principal_id, belief, traces=False)
        _added(deleted, one.deleted)
        _added(scrubbed_rows, one.scrubbed)
        touched |= rewritten
    for episode_id, content in episodes:
        targets.append(_episode_target(conn, tenant_id, principal_id, str(episode_id), content))
        one, rewritten = _erase_episode(
            conn, tenant_id, principal_id, str(episode_id), content, traces=False
        )
        _added(deleted, one.deleted)
        _added(scrubbed_rows, one.scrubbed)
        touched |= rewritten
    in_traces, hints = _scrub(conn, tenant_id, principal_id, targets)
    _added(scrubbed_rows, in_traces)
    deleted["miss_hints"] = deleted.get("miss_hints", 0) + hints
    if scope == "project":
        key = {"t": tenant_id, "p": principal_id, "project": name}
        deleted["feedback_events"] = (
            deleted.get("feedback_events", 0)
            + conn.execute(
                "DELETE FROM feedback_events WHERE tenant_id = %(t)s AND principal_id = %(p)s"
                " AND kind = 'rejected_not_here' AND project = %(project)s",
                key,
            ).rowcount
        )
        deleted["belief_exclusions"] += conn.execute(
            "DELETE FROM belief_exclusions WHERE tenant_id = %(t)s AND principal_id = %(p)s"
            " AND project = %(project)s",
            key,
        ).rowcount
    # A belief rewritten by one item's erasure and erased by a later one is not restated:
    # it is gone.
    restated = len(touched - set(belief_ids))
    _, erased_at = _record(
        conn,
        tenant_id,
        principal_id,
        None,
        {"deleted": deleted, "scrubbed": scrubbed_rows, "restated": restated},
        named=(scope, name),
    )
    return Erasure(
        scope=scope,
        tenant_id=tenant_id,
        erased_at=erased_at,
        deleted=deleted,
        scrubbed=scrubbed_rows,
        restated=restated,
    )
