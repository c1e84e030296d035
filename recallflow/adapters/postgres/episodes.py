"""The Postgres :class:`~recallflow.ports.EpisodeStore`: the ordered event log (what happened, as
opposed to the beliefs: what is true).

Each episode is written with its content's embedding (archival search's vector arm reads
it); episodes stored before the embedding existed are found by a partial index and
embedded later (:meth:`~recallflow.ingestion.Episodes.embed_missing`).

A write is idempotent as a belief's is: an episode whose id is stored with the same content
is not written again (a retry of a batch whose commit was not acknowledged answers with
the stored episodes), one with other content is a
:class:`~recallflow.errors.ConflictError` naming the item and field. The batch's
principals are locked first (:func:`~recallflow.adapters.postgres.locks.lock_principals`),
so two writers of the same id cannot both find it free.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from recallflow.adapters.postgres.erasure import forgotten_ids
from recallflow.adapters.postgres.errors import translate
from recallflow.adapters.postgres.locks import lock_principals
from recallflow.adapters.postgres.statistics import bulk_write
from recallflow.core.lifecycle import episode_differences
from recallflow.errors import ConflictError, NotFoundError, episode_not_found
from recallflow.models.stages import EpisodeFilter
from recallflow.models.store import Episode

EPISODE_COLUMNS: tuple[str, ...] = (
    "tenant_id",
    "principal_id",
    "id",
    "project",
    "session_id",
    "occurred_at",
    "kind",
    "content",
    "sensitivity",
    "recorded_at",
)
_COPY = "COPY episodes ({}, embedding) FROM STDIN".format(", ".join(EPISODE_COLUMNS))
#: Selects a whole episode (without its embedding).
SELECT_EPISODE = "SELECT {} FROM episodes".format(", ".join(EPISODE_COLUMNS))
_UNEMBEDDED = (
    "SELECT id, content FROM episodes WHERE tenant_id = %s AND principal_id = %s"
    " AND embedding IS NULL AND id > %s ORDER BY id LIMIT %s"
)
_SET_EMBEDDING = (
    "UPDATE episodes SET embedding = %s WHERE tenant_id = %s AND principal_id = %s"
    " AND id = %s AND embedding IS NULL"
)


class PostgresEpisodeStore:
    """Episodes in PostgreSQL, through a shared connection pool."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    def write_episodes(
        self,
        episodes: Sequence[Episode],
        embeddings: npt.NDArray[np.float32],
        *,
        refuse_forgotten: bool = False,
    ) -> list[Episode]:
        if len(episodes) != len(embeddings):
            raise ValueError("write_episodes needs one embedding per episode")
        if not episodes:
            return []
        fresh = list(range(len(episodes)))
        try:
            with bulk_write(self._pool) as conn:
                lock_principals(conn, {(e.tenant_id, e.principal_id) for e in episodes})
                result = _already_stored(conn, episodes)
                fresh = [i for i, e in enumerate(result) if e is None]
                if refuse_forgotten:
                    # Under the principals' lock, which an erasure holds until it commits:
                    # one that committed is seen here, and one still to come erases this.
                    _refuse_forgotten(conn, episodes, fresh)
                if fresh:
                    with conn.cursor().copy(_COPY) as copy:
                        for i in fresh:
                            copy.write_row(episode_row(episodes[i], embeddings[i]))
        except (pg_errors.IntegrityError, pg_errors.DataError) as exc:
            rows = [episodes[i].model_dump(mode="json") for i in fresh]
            raise translate(exc, table="episodes", items=rows, positions=fresh) from exc
        return [stored or episodes[i] for i, stored in enumerate(result)]

    def get_episode(self, tenant_id: str, principal_id: str, episode_id: str) -> Episode:
        with self._pool.connection() as conn:
            row = (
                conn.cursor(row_factory=dict_row)
                .execute(
                    SELECT_EPISODE + " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
                    (tenant_id, principal_id, episode_id),
                )
                .fetchone()
            )
        if row is None:
            raise episode_not_found(episode_id, tenant_id, principal_id)
        return Episode.model_validate(row)

    def logged_episodes(
        self,
        f: EpisodeFilter,
        *,
        session_id: str | None,
        project: str | None,
        kind: str | None,
        after: str | None,
        newest_first: bool,
        limit: int,
    ) -> list[Episode]:
        """The episodes that pass ``f`` through archival search's own predicates
        (:func:`~recallflow.adapters.postgres.episode_search.episode_filter_sql`), in the
        order they happened, ties in the order they were stored (``seq``), read on the
        principal's time index (or its session index, for one session)."""
        # Imported here: the search module builds on this one's columns.
        from recallflow.adapters.postgres.episode_search import episode_filter_sql

        predicate, params = episode_filter_sql(f)
        columns = sql.SQL(", ").join(sql.Identifier("e", c) for c in EPISODE_COLUMNS)
        query = sql.SQL("SELECT {} FROM episodes e WHERE {}").format(columns, predicate)
        for value, clause in (
            (session_id, " AND e.session_id = %(log_session)s"),
            (project, " AND e.project = %(log_project)s"),
            (kind, " AND e.kind = %(log_kind)s"),
        ):
            if value is not None:
                query += sql.SQL(clause)
        with self._pool.connection() as conn:
            if after is not None:
                # Only an episode the surface may see is a cursor: one above its ceiling
                # is not found, as an id never stored is, and its place in the log (what
                # reads on from it would show) is not revealed.
                cursor = conn.execute(
                    "SELECT occurred_at, seq FROM episodes"
                    " WHERE tenant_id = %s AND principal_id = %s AND id = %s"
                    " AND sensitivity <= %s",
                    (f.tenant_id, f.principal_id, after, int(f.sensitivity_ceiling)),
                ).fetchone()
                if cursor is None:
                    raise NotFoundError(
                        f"no episode {after!r} for {f.tenant_id}/{f.principal_id} to read on"
                        " from (forgotten since it was listed, or never stored)",
                        field="after",
                    )
                # A row comparison on the index's own columns: read as one range of it.
                query += sql.SQL(
                    " AND (e.occurred_at, e.seq) < (%(log_at)s, %(log_seq)s)"
                    if newest_first
                    else " AND (e.occurred_at, e.seq) > (%(log_at)s, %(log_seq)s)"
                )
                params |= {"log_at": cursor[0], "log_seq": cursor[1]}
            query += sql.SQL(
                " ORDER BY e.occurred_at DESC, e.seq DESC LIMIT %(log_limit)s"
                if newest_first
                else " ORDER BY e.occurred_at, e.seq LIMIT %(log_limit)s"
            )
            params |= {
                "log_session": session_id,
                "log_project": project,
                "log_kind": kind,
                "log_limit": limit,
            }
            rows = conn.cursor(row_factory=dict_row).execute(query, params).fetchall()
        return [Episode.model_validate(row) for row in rows]

    def unembedded_episodes(
        self, tenant_id: str, principal_id: str, limit: int, after: str = ""
    ) -> list[tuple[str, str]]:
        with self._pool.connection() as conn:
            rows = conn.execute(_UNEMBEDDED, (tenant_id, principal_id, after, limit)).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def write_episode_embeddings(
        self,
        tenant_id: str,
        principal_id: str,
        ids: Sequence[str],
        embeddings: npt.NDArray[np.float32],
    ) -> None:
        if len(ids) != len(embeddings):
            raise ValueError("write_episode_embeddings needs one embedding per id")
        with self._pool.connection() as conn, conn.transaction():
            conn.cursor().executemany(
                _SET_EMBEDDING,
                [(v, tenant_id, principal_id, i) for i, v in zip(ids, embeddings, strict=True)],
            )


def episode_row(e: Episode, vector: npt.NDArray[np.float32]) -> tuple[Any, ...]:
    """An episode and its vector as a row of ``episodes`` in the COPY's column order."""
    return (
        e.tenant_id,
        e.principal_id,
        e.id,
        e.project,
        e.session_id,
        e.occurred_at,
        e.kind.value,
        e.content,
        int(e.sensitivity),
        e.recorded_at,
        vector,
    )


def _refuse_forgotten(
    conn: psycopg.Connection[Any], episodes: Sequence[Episode], fresh: Sequence[int]
) -> None:
    """A :class:`ConflictError` on ``id`` for the first of ``episodes`` (at ``fresh``) whose
    id its principal forgot (:func:`~recallflow.adapters.postgres.erasure.forgotten_ids`):
    a retry of a keyed write does not undo an erasure."""
    by_principal: dict[tuple[str, str], list[str]] = {}
    for i in fresh:
        by_principal.setdefault((episodes[i].tenant_id, episodes[i].principal_id), []).append(
            episodes[i].id
        )
    erased = {
        (t, p, episode_id)
        for (t, p), ids in by_principal.items()
        for episode_id in forgotten_ids(conn, t, p, "episode", ids)
    }
    for i in fresh:
        if (episodes[i].tenant_id, episodes[i].principal_id, episodes[i].id) in erased:
            raise ConflictError(
                "names an episode that was forgotten (forget_episode, or forget of the whole"
                " principal): an erasure is not undone by a retry of the write that stored"
                " it, and nothing is written",
                field="id",
                item_index=i,
                item_id=episodes[i].id,
            )


def _already_stored(
    conn: psycopg.Connection[Any], episodes: Sequence[Episode]
) -> list[Episode | None]:
    """The stored episode of each of ``episodes`` whose id is stored with the same content
    (None: not stored); :class:`ConflictError` for the first stored with other content."""
    rows = (
        conn.cursor(row_factory=dict_row)
        .execute(
            SELECT_EPISODE + " WHERE (tenant_id, principal_id, id) IN"
            " (SELECT * FROM unnest(%s::text[], %s::text[], %s::text[]))",
            (
                [e.tenant_id for e in episodes],
                [e.principal_id for e in episodes],
                [e.id for e in episodes],
            ),
        )
        .fetchall()
    )
    stored = {(r["tenant_id"], r["principal_id"], r["id"]): Episode.model_validate(r) for r in rows}
    out: list[Episode | None] = []
    for index, e in enumerate(episodes):
        known = stored.get((e.tenant_id, e.principal_id, e.id))
        if known is not None:
            differ = episode_differences(e, known)
            if differ:
                raise ConflictError(
                    f"is already stored with other content ({', '.join(differ)}); an"
                    " episode is never edited",
                    field=differ[0],
                    item_index=index,
                    item_id=e.id,
                )
        out.append(known)
    return out
