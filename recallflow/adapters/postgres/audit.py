"""What the evaluation's gates read back from the store: whose beliefs the ids a recall
showed are, and what the erasure record says of the ones no longer there (see "What runs"
in docs/evaluation.md, its hard gates). Reads only; every statement is keyed by the tenant and
the principal the recall was made for."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from psycopg_pool import ConnectionPool
from pydantic import BaseModel, ConfigDict

from recallflow.core.erasure import erasure_digest


class ErasureRecord(BaseModel):
    """What the erasure record says of some ids of one principal."""

    model_config = ConfigDict(frozen=True)

    #: The ids erased one by one (``forget_belief``).
    beliefs: frozenset[str]
    #: When the whole principal was last erased (``forget``), or None.
    principal_erased_at: datetime | None


def owned_ids(
    pool: ConnectionPool, tenant_id: str, principal_id: str, ids: Sequence[str]
) -> set[str]:
    """The ids of ``ids`` that are beliefs of this tenant's principal."""
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT id FROM beliefs WHERE tenant_id = %s AND principal_id = %s AND id = ANY(%s)",
            (tenant_id, principal_id, list(ids)),
        ).fetchall()
    return {str(row[0]) for row in rows}


def erasure_record(
    pool: ConnectionPool, tenant_id: str, principal_id: str, ids: Sequence[str] = ()
) -> ErasureRecord:
    """Which of ``ids`` were erased one by one, and when the principal was last erased
    (the record keeps digests only, so an id is matched by its digest)."""
    digests = {erasure_digest(tenant_id, principal_id, i): i for i in ids}
    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT belief_sha256 FROM erasures WHERE tenant_id = %s AND scope = 'belief'"
            " AND belief_sha256 = ANY(%s)",
            (tenant_id, list(digests)),
        ).fetchall()
        last = conn.execute(
            "SELECT max(erased_at) FROM erasures WHERE tenant_id = %s AND scope = 'principal'"
            " AND principal_sha256 = %s",
            (tenant_id, erasure_digest(tenant_id, principal_id)),
        ).fetchone()
    return ErasureRecord(
        beliefs=frozenset(digests[row[0]] for row in rows),
        principal_erased_at=last[0] if last is not None else None,
    )
