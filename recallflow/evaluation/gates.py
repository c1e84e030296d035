"""The hard gates of the harness: properties every recall must have, whatever its quality.

Each gate is a line in the report with status ``pass``, ``fail`` or ``not built``;
a ``fail`` makes ``recallflow eval`` exit non-zero. A gate whose capability does not
exist yet, or that observed no recall at all, is ``not built`` — never ``pass``.

* **isolation leaks = 0**: every id a recall rendered or traced (rendered, ranked, scored,
  fused, dropped) must be a belief of the request's tenant and principal, checked by
  looking the ids up in the database after the run (:class:`RecallAudit`).
* **trace faithfulness**: for every recall, ``sha256(result.block.encode())`` equals
  ``trace.rendered_sha256`` (and ``result.rendered_sha256``), and ``trace.rendered_ids``
  equals ``result.rendered_ids``, in order; and for every *stored* trace, read back from
  the store: the sha256 of the stored block bytes equals the stored ``rendered_sha256``,
  and the item ids parsed out of those bytes equal the stored rendered ids, in order. So
  a trace edited after the fact (or stored wrong) fails the gate.
* **prefix byte stability**: scripted sessions of 24 turns with row-level changes between
  turns keep their prefix bytes identical on every turn and after a resume in this and in a
  separate process, and carry exactly one correction per changed snapshot belief in the
  next turn (:mod:`recallflow.evaluation.sessions`).
* **correction durability**: typed rejections of all four kinds still hold after the
  principal is re-derived from its sources, and nothing unrejected is lost
  (:mod:`recallflow.evaluation.durability`).

Beside the gates, :class:`RecallAudit` counts the recalls that ran **degraded** (an arm
that failed or ran past the policy's timeout, a stage that fell back): such a recall is
correct but poorer, so a run on a loaded machine can print lower figures than the code
gives. The count is reported, not gated: it says how far a run's figures can be trusted.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from datetime import UTC, datetime
from enum import StrEnum

from psycopg_pool import ConnectionPool
from pydantic import BaseModel, ConfigDict, Field

from recallflow.adapters.postgres.audit import erasure_record, owned_ids
from recallflow.adapters.postgres.traces import PostgresTraceStore
from recallflow.core.erasure import ERASED
from recallflow.core.render import parsed_ids
from recallflow.errors import NotFoundError
from recallflow.models.request import RecallRequest
from recallflow.models.result import RecallResult

_MAX_EXAMPLES = 5


class GateStatus(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    NOT_BUILT = "not built"


class GateResult(BaseModel):
    """One gate's line in the report."""

    model_config = ConfigDict(frozen=True)

    name: str
    status: GateStatus
    detail: str


def traced_ids(result: RecallResult) -> set[str]:
    """Every belief id a result names, in the block or anywhere in its trace."""
    trace = result.trace
    ids: set[str] = set(result.rendered_ids)
    ids.update(trace.rendered_ids, trace.ranked_ids, trace.floor_dropped_ids)
    ids.update(trace.budget_dropped_ids)
    ids.update(entry.belief_id for entry in trace.scored)
    ids.update(candidate.belief_id for candidate in trace.fused)
    for arm in trace.arms:
        ids.update(hit.belief_id for hit in arm.hits)
    return ids


def faithfulness_problem(result: RecallResult) -> str | None:
    """Why ``result``'s trace is not faithful to its bytes, or None when it is."""
    digest = hashlib.sha256(result.block.encode()).hexdigest()
    if digest != result.trace.rendered_sha256:
        return f"sha256(block) {digest[:12]}… != trace.rendered_sha256"
    if digest != result.rendered_sha256:
        return f"sha256(block) {digest[:12]}… != result.rendered_sha256"
    if tuple(result.trace.rendered_ids) != tuple(result.rendered_ids):
        return "trace.rendered_ids differ from the rendered order"
    return None


def stored_problem(
    store: PostgresTraceStore, tenant: str, principal: str, trace_id: str
) -> str | None:
    """Why the stored trace ``trace_id`` is not faithful to its stored bytes, or None."""
    try:
        stored = store.stored_block(tenant, principal, trace_id)
    except NotFoundError:
        return "not found in the store"
    if stored.block is None:
        return "no block bytes stored"
    digest = hashlib.sha256(stored.block.encode()).hexdigest()
    if digest != stored.rendered_sha256:
        return f"sha256(stored block) {digest[:12]}… != stored rendered_sha256"
    if parsed_ids(stored.block) != stored.rendered_ids:
        return "ids parsed from the stored block differ from the stored rendered ids"
    return None


class DegradedRecalls(BaseModel):
    """How many of a run's recalls ran degraded, and where."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    recalls: int
    degraded: int
    by_part: dict[str, int] = Field(
        default={}, description="'arm <name>' or 'stage <name>' -> recalls it degraded."
    )
    examples: tuple[str, ...] = ()


class RecallAudit:
    """Collects every recall the harness makes and checks the two per-recall gates."""

    def __init__(self) -> None:
        self.recalls = 0
        #: Each (tenant, principal)'s observed ids, with when each was first observed.
        self._ids: dict[tuple[str, str], dict[str, datetime]] = defaultdict(dict)
        self._unfaithful: list[str] = []
        self._unfaithful_count = 0
        self._wrong_owner: list[str] = []
        self._stored: list[tuple[str, str, str]] = []
        self._degraded = 0
        self._degraded_parts: Counter[str] = Counter()
        self._degraded_examples: list[str] = []

    def observe(self, request: RecallRequest, result: RecallResult, stored: bool = True) -> None:
        """Record one recall (call it for every recall the harness makes); ``stored``: its
        trace was persisted, so the gate reads it back."""
        self.recalls += 1
        trace = result.trace
        if (trace.tenant_id, trace.principal_id) != (request.tenant_id, request.principal_id):
            self._wrong_owner.append(
                f"trace {trace.id} names {trace.tenant_id}/{trace.principal_id}"
            )
        seen = self._ids[(request.tenant_id, request.principal_id)]
        now = datetime.now(UTC)
        for belief_id in traced_ids(result):
            seen.setdefault(belief_id, now)
        if stored:
            self._stored.append((trace.tenant_id, trace.principal_id, trace.id))
        self._count_degraded(result)
        problem = faithfulness_problem(result)
        if problem is not None:
            self._unfaithful_count += 1
            if len(self._unfaithful) < _MAX_EXAMPLES:
                self._unfaithful.append(f"trace {trace.id}: {problem}")

    def _count_degraded(self, result: RecallResult) -> None:
        trace = result.trace
        if not trace.degraded:
            return
        errors = {a.arm: a.error for a in trace.arms}
        why = {f"arm {arm.value}": errors.get(arm) or "degraded" for arm in trace.degraded_arms}
        why |= {f"stage {stage}": reason for stage, reason in trace.degraded_stages.items()}
        self._degraded += 1
        self._degraded_parts.update(why.keys())
        if len(self._degraded_examples) < _MAX_EXAMPLES:
            reasons = "; ".join(f"{part}: {reason}" for part, reason in why.items())
            self._degraded_examples.append(f"trace {trace.id}: {reasons}")

    def degraded(self) -> DegradedRecalls:
        """The recalls observed so far that ran degraded."""
        return DegradedRecalls(
            recalls=self.recalls,
            degraded=self._degraded,
            by_part=dict(sorted(self._degraded_parts.items())),
            examples=tuple(self._degraded_examples),
        )

    def faithfulness(self, pool: ConnectionPool | None = None) -> GateResult:
        """The gate; with ``pool``, every stored trace is also read back and re-checked
        against its stored bytes (an erased one is skipped and counted)."""
        name = "trace faithfulness"
        if not self.recalls:
            return GateResult(name=name, status=GateStatus.NOT_BUILT, detail="no recall was made")
        read_back = erased = 0
        if pool is not None:
            store = PostgresTraceStore(pool)
            for tenant, principal, trace_id in self._stored:
                problem = stored_problem(store, tenant, principal, trace_id)
                if problem == "not found in the store" and _principal_erased(
                    pool, tenant, principal
                ):
                    erased += 1
                    continue
                if problem is not None and store_block_erased(store, tenant, principal, trace_id):
                    erased += 1
                    continue
                read_back += 1
                if problem is not None:
                    self._unfaithful_count += 1
                    if len(self._unfaithful) < _MAX_EXAMPLES:
                        self._unfaithful.append(f"stored trace {trace_id}: {problem}")
            self._stored.clear()
        if self._unfaithful_count:
            return GateResult(
                name=name,
                status=GateStatus.FAIL,
                detail=f"{self._unfaithful_count} of {self.recalls} recalls unfaithful: "
                + "; ".join(self._unfaithful),
            )
        return GateResult(
            name=name,
            status=GateStatus.PASS,
            detail=f"{self.recalls} recalls: sha256 of the block = rendered_sha256, "
            "traced ids = rendered order"
            + (
                f"; {read_back} stored traces read back: sha256 of the stored bytes ="
                " stored rendered_sha256, ids parsed from them = stored rendered ids"
                if pool is not None
                else ""
            )
            + (f" ({erased} erased since)" if erased else ""),
        )

    def isolation(self, pool: ConnectionPool) -> GateResult:
        """Look every observed id up under its request's tenant and principal."""
        name = "isolation leaks = 0"
        if not self.recalls:
            return GateResult(name=name, status=GateStatus.NOT_BUILT, detail="no recall was made")
        leaks: list[str] = list(self._wrong_owner)
        checked = 0
        erased = 0
        for (tenant, principal), seen in sorted(self._ids.items()):
            wanted = sorted(seen)
            checked += len(wanted)
            found = owned_ids(pool, tenant, principal, wanted)
            missing = [i for i in wanted if i not in found]
            if missing:
                record = erasure_record(pool, tenant, principal, missing)
                # An id is excused by the principal's erasure only if it was seen before
                # it: one seen after, and not in the store, came from someone else's.
                gone = {
                    i
                    for i in missing
                    if i in record.beliefs
                    or (
                        record.principal_erased_at is not None
                        and seen[i] <= record.principal_erased_at
                    )
                }
                erased += len(gone)
                missing = [i for i in missing if i not in gone]
            leaks.extend(f"{tenant}/{principal}: {i}" for i in missing)
        if leaks:
            return GateResult(
                name=name,
                status=GateStatus.FAIL,
                detail=f"{len(leaks)} ids outside the request's tenant/principal: "
                + "; ".join(leaks[:_MAX_EXAMPLES]),
            )
        return GateResult(
            name=name,
            status=GateStatus.PASS,
            detail=f"{self.recalls} recalls, {checked} distinct (principal, id) pairs looked up: "
            "all belong to the request's tenant and principal"
            + (f" ({erased} erased since, by the erasure record)" if erased else ""),
        )


def _principal_erased(pool: ConnectionPool, tenant: str, principal: str) -> bool:
    """Whether the principal was erased (its traces went with it)."""
    return erasure_record(pool, tenant, principal).principal_erased_at is not None


def store_block_erased(
    store: PostgresTraceStore, tenant: str, principal: str, trace_id: str
) -> bool:
    """Whether the stored block was scrubbed by an erasure of one of its beliefs."""
    return store.stored_block(tenant, principal, trace_id).block == ERASED


def not_built(name: str, why: str) -> GateResult:
    """A gate whose capability does not exist yet."""
    return GateResult(name=name, status=GateStatus.NOT_BUILT, detail=why)
