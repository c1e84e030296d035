"""The Postgres :class:`~recallflow.ports.EpisodeStore`: the ordered event log (decision 2)."""

from __future__ import annotations

from collections.abc import Sequence

from psycopg import errors as pg_errors
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from recallflow.adapters.postgres.errors import translate
from recallflow.errors import NotFoundError
from recallflow.models.store import Episode

_COLUMNS = (
    "tenant_id",
    "principal_id",
    "id",
    "project",
    "session_id",
    "occurred_at",
    "kind",
    "content",
    "sensitivity",
)
_COPY = "COPY episodes ({}) FROM STDIN".format(", ".join(_COLUMNS))
_SELECT = "SELECT {} FROM episodes".format(", ".join(_COLUMNS))


class PostgresEpisodeStore:
    """Episodes in PostgreSQL, through a shared connection pool."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    def write_episodes(self, episodes: Sequence[Episode]) -> None:
        if not episodes:
            return
        try:
            with (
                self._pool.connection() as conn,
                conn.transaction(),
                conn.cursor().copy(_COPY) as copy,
            ):
                for e in episodes:
                    copy.write_row(
                        (
                            e.tenant_id,
                            e.principal_id,
                            e.id,
                            e.project,
                            e.session_id,
                            e.occurred_at,
                            e.kind.value,
                            e.content,
                            int(e.sensitivity),
                        )
                    )
        except pg_errors.IntegrityError as exc:
            items = [e.model_dump(mode="json") for e in episodes]
            raise translate(exc, table="episodes", items=items) from exc

    def get_episode(self, tenant_id: str, principal_id: str, episode_id: str) -> Episode:
        with self._pool.connection() as conn:
            row = (
                conn.cursor(row_factory=dict_row)
                .execute(
                    _SELECT + " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
                    (tenant_id, principal_id, episode_id),
                )
                .fetchone()
            )
        if row is None:
            raise NotFoundError(f"no episode {episode_id!r} for {tenant_id}/{principal_id}")
        return Episode.model_validate(row)
