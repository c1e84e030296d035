"""Entity sensitivity in PostgreSQL (``entity_sensitivity``, migration 0012): the entity
keys a principal marked with a sensitivity of their own, read by every recall whose
surface's ceiling is below the highest level (see "Trust boundary" in
docs/architecture.md).
"""

from __future__ import annotations

from psycopg_pool import ConnectionPool

from recallflow.models.store import Sensitivity


class PostgresEntitySensitivity:
    """Marked entities, through ``pool`` (the recall pool for reads on the recall path)."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    def marked_entities(
        self, tenant_id: str, principal_id: str, above: Sensitivity
    ) -> dict[str, Sensitivity]:
        """The principal's marked keys whose level is above ``above``."""
        if above >= Sensitivity.SECRET:
            return {}  # nothing is above the highest level: no round trip
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT entity, sensitivity FROM entity_sensitivity"
                " WHERE tenant_id = %s AND principal_id = %s AND sensitivity > %s",
                (tenant_id, principal_id, int(above)),
            ).fetchall()
        return {str(r[0]): Sensitivity(r[1]) for r in rows}

    def marks(self, tenant_id: str, principal_id: str) -> dict[str, Sensitivity]:
        """Every marked key of the principal, with its level."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT entity, sensitivity FROM entity_sensitivity"
                " WHERE tenant_id = %s AND principal_id = %s ORDER BY entity",
                (tenant_id, principal_id),
            ).fetchall()
        return {str(r[0]): Sensitivity(r[1]) for r in rows}

    def mark(self, tenant_id: str, principal_id: str, entity: str, level: Sensitivity) -> None:
        """Give ``entity`` the level ``level`` for this principal (replacing any earlier)."""
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO entity_sensitivity (tenant_id, principal_id, entity, sensitivity)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT (tenant_id, principal_id, entity)"
                " DO UPDATE SET sensitivity = EXCLUDED.sensitivity, marked_at = now()",
                (tenant_id, principal_id, entity, int(level)),
            )

    def unmark(self, tenant_id: str, principal_id: str, entity: str) -> bool:
        """Remove the mark; False when there was none."""
        with self._pool.connection() as conn:
            cur = conn.execute(
                "DELETE FROM entity_sensitivity"
                " WHERE tenant_id = %s AND principal_id = %s AND entity = %s",
                (tenant_id, principal_id, entity),
            )
            return cur.rowcount > 0
