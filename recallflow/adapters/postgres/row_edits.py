"""Row-level edits of beliefs, for scripted scenarios: the prefix-stability gate, the
session tests and the demo.

These are not the write path (typed supersede/retract/retire operations with their
events); they change a belief's row the way any writer might, in one statement each. A
session's corrections are computed from rows, not from how a row was changed, so a
session must notice these edits exactly as it notices the write path's.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, LiteralString

from psycopg_pool import ConnectionPool

from recallflow.core.lifecycle import not_found
from recallflow.models.store import LifecycleState, Sensitivity


class RowEdits:
    """Edits of one principal's belief rows."""

    def __init__(self, pool: ConnectionPool, tenant_id: str, principal_id: str) -> None:
        self._pool = pool
        self._tenant = tenant_id
        self._principal = principal_id

    def _update(self, assignments: LiteralString, belief_id: str, *values: Any) -> None:
        with self._pool.connection() as conn:
            cur = conn.execute(
                "UPDATE beliefs SET "
                + assignments
                + " WHERE tenant_id = %s AND principal_id = %s AND id = %s",
                (*values, self._tenant, self._principal, belief_id),
            )
            if cur.rowcount != 1:
                raise not_found(self._tenant, self._principal, belief_id)

    def supersede(self, belief_id: str, successor_id: str, at: datetime) -> None:
        """Mark ``belief_id`` superseded by the stored ``successor_id``, valid until ``at``."""
        self._update(
            "state = 'superseded', superseded_by = %s, valid_to = %s", belief_id, successor_id, at
        )

    def set_state(self, belief_id: str, state: LifecycleState) -> None:
        """Set the lifecycle state (e.g. retired, expired, provisional, active)."""
        self._update("state = %s", belief_id, state.value)

    def expire(self, belief_id: str, at: datetime) -> None:
        """End the belief's world validity at ``at`` (its state is left to the lifecycle)."""
        self._update("valid_to = %s", belief_id, at)

    def retract(self, belief_id: str, at: datetime) -> None:
        """Stop asserting the belief from system time ``at``."""
        self._update("retracted_at = %s", belief_id, at)

    def conflict(self, belief_id: str, conflict_set_id: str) -> None:
        """Put the belief into an unresolved conflict set."""
        self._update("state = 'conflicted', conflict_set_id = %s", belief_id, conflict_set_id)

    def resolve(self, belief_id: str) -> None:
        """Take the belief out of its conflict set, active again."""
        self._update("state = 'active', conflict_set_id = NULL", belief_id)

    def flag(self, belief_id: str, flagged: bool = True) -> None:
        """Flag (or unflag) the belief."""
        self._update("flagged = %s", belief_id, flagged)

    def restate(self, belief_id: str, statement: str) -> None:
        """Change the belief's statement."""
        self._update("statement = %s", belief_id, statement)

    def set_sensitivity(self, belief_id: str, sensitivity: Sensitivity) -> None:
        """Change the belief's sensitivity level."""
        self._update("sensitivity = %s", belief_id, int(sensitivity))

    def forget(self, belief_id: str) -> None:
        """Delete the belief's row (and its edges)."""
        with self._pool.connection() as conn:
            cur = conn.execute(
                "DELETE FROM beliefs WHERE tenant_id = %s AND principal_id = %s AND id = %s",
                (self._tenant, self._principal, belief_id),
            )
            if cur.rowcount != 1:
                raise not_found(self._tenant, self._principal, belief_id)
