"""The floor of one recall: the least database work any in-turn recall must do, issued
with psycopg directly on one connection, so recallflow's latency can be reported as a
multiple of it (a ratio survives a noisy shared machine; an absolute time does not).

One floor run, per fixed request, is four statements, each hard-filtered exactly as a
recall is (tenant, principal, admissible states, world and system time, sensitivity):

1. the filtered vector top-k, ``k`` = the arms' per-arm limit: through the HNSW index
   with an iterative scan, or exactly over the principal's rows when the principal is
   small next to the table (the policy's ``semantic_exact_factor``: at 1.1M rows a
   filtered HNSW scan for a 10k-belief principal costs ten times the exact one) or not
   yet in the partial index (not graduated) — the same choice the semantic arm makes;
2. the filtered full-text top-k: the query's two rarest lexemes among the principal's
   beliefs (the per-principal document frequencies the store keeps), OR-ed, matched
   through the GIN index of the beliefs' lexemes keyed by principal (the only one the
   store has; read apart from the filter, as the lexical arm reads it, since a plan that
   ANDs it with a b-tree scan of the principal's beliefs costs 10 ms at 100k), matches
   capped at :data:`FTS_CAP` and ranked with ``ts_rank_cd``. The plain form — every
   lexeme OR-ed, all matches ranked — costs about a second at 100k beliefs, and capped it
   still costs 6–10 ms, more than a whole recall should: it would make a floor nobody
   could be held to;
3. loading the candidate rows: every column a recall reads, for the union of both
   top-k lists;
4. inserting the trace: one ``recall_traces`` row carrying a real trace of the same
   request as its operator view, committed without waiting for the WAL flush (as the
   recall's own trace write is).

Statements are prepared on first use and the session has the recall pool's settings,
as recallflow's own connections do. Nothing here is clever on purpose: it is the plain
way to write these four statements, the baseline a cleverer recall is held to.
"""

from __future__ import annotations

import itertools
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

from benchmarks.recall_harness import requests
from benchmarks.stores import BenchStore
from recallflow.adapters.postgres.beliefs import SELECT_BELIEF
from recallflow.adapters.postgres.keys import LEXEME_KEYS, principal_key_of
from recallflow.adapters.postgres.pool import RECALL_SETTINGS, utc_named
from recallflow.policy import DEFAULT_POLICY, SURFACE_CEILINGS

_FILTER = (
    " b.tenant_id = %(tenant)s AND b.principal_id = %(principal)s"
    " AND b.state = ANY(%(states)s)"
    " AND b.valid_from <= %(as_of)s AND b.valid_to > %(as_of)s"
    " AND b.recorded_at <= %(known)s AND (b.retracted_at IS NULL OR b.retracted_at > %(known)s)"
    " AND b.sensitivity <= %(ceiling)s"
)
VECTOR_TOP_K = (
    "WITH choice AS (SELECT coalesce((SELECT NOT ann_indexed OR beliefs"
    " < %(exact_factor)s * sqrt(greatest((SELECT reltuples FROM pg_class"
    " WHERE oid = 'beliefs'::regclass), 0)) FROM principal_sizes"
    " WHERE tenant_id = %(tenant)s AND principal_id = %(principal)s), true) AS exact)"
    " (SELECT b.id FROM beliefs b WHERE (SELECT exact FROM choice) AND" + _FILTER + ""
    " AND b.embedding IS NOT NULL ORDER BY (b.embedding <=> %(vector)s) + 0 LIMIT %(k)s)"
    " UNION ALL"
    " (SELECT b.id FROM beliefs b WHERE NOT (SELECT exact FROM choice) AND" + _FILTER + ""
    " AND b.ann_indexed AND b.embedding IS NOT NULL"
    " ORDER BY b.embedding <=> %(vector)s LIMIT %(k)s)"
)
#: Matches of the full-text statement ranked at most.
FTS_CAP = 80
FTS_TOP_K = (
    "WITH t AS (SELECT t.term FROM principal_terms t WHERE t.tenant_id = %(tenant)s"
    " AND t.principal_id = %(principal)s AND t.kind = 'l' AND t.df > 0"
    " AND t.term = ANY(tsvector_to_array(to_tsvector('english', %(text)s)))"
    " ORDER BY t.df, t.term LIMIT 2),"
    " q AS (SELECT string_agg(quote_literal(term), ' | ')::tsquery AS q,"
    " array_agg(" + principal_key_of("%(tenant)s", "%(principal)s", "term") + ") AS keys FROM t)"
    " SELECT c.id FROM q, LATERAL (SELECT b.id, b.search_document FROM (SELECT * FROM beliefs b"
    " WHERE " + LEXEME_KEYS + " && q.keys OFFSET 0) b WHERE" + _FILTER + " LIMIT %(cap)s) c"
    " ORDER BY ts_rank_cd(c.search_document, q.q) DESC, c.id LIMIT %(k)s"
)
LOAD = SELECT_BELIEF + " b WHERE" + _FILTER + " AND b.id = ANY(%(ids)s)"
INSERT_TRACE = (
    "INSERT INTO recall_traces (tenant_id, principal_id, id, session_id, moment, surface,"
    " as_of, rendered_sha256, retrieval_policy_version, degraded, user_view, operator_view)"
    " VALUES (%(tenant)s, %(principal)s, %(id)s, 's-floor', 'in_turn', 'direct', %(as_of)s,"
    " %(sha)s, %(policy)s, false, %(user_view)s::jsonb, %(operator_view)s::json)"
)


@dataclass(frozen=True)
class FloorCall:
    """The parameters of one floor run (one fixed request)."""

    params: dict[str, Any]
    vector: np.ndarray
    text: str
    trace_json: str
    user_view: str


@dataclass
class FloorCounts:
    """What the floor found, kept for the report beside its latency."""

    vector_rows: int = 0
    fts_rows: int = 0
    loaded_rows: int = 0


def floor_calls(bench: BenchStore) -> list[FloorCall]:
    """One :class:`FloorCall` per fixed request: its filter, query vector and a real trace."""
    memory = bench.memory
    calls = []
    for req in requests(bench):
        result = memory.recall(req, persist_trace=False)
        text = req.working_state.goal or ""
        as_of: datetime = result.trace.as_of
        calls.append(
            FloorCall(
                params={
                    "tenant": req.tenant_id,
                    "principal": req.principal_id,
                    "states": [s.value for s in DEFAULT_POLICY.admissible_states[req.moment]],
                    "as_of": as_of,
                    "known": result.trace.known_as_of,
                    "ceiling": int(SURFACE_CEILINGS[req.surface]),
                    "k": DEFAULT_POLICY.limits.per_arm,
                    "cap": FTS_CAP,
                    "exact_factor": DEFAULT_POLICY.limits.semantic_exact_factor,
                    "sha": result.rendered_sha256,
                    "policy": result.trace.retrieval_policy_version,
                },
                vector=memory.embedder.embed([text])[0],
                text=text,
                trace_json=result.trace.model_dump_json(),
                user_view=json.dumps({"rendered_ids": list(result.rendered_ids)}),
            )
        )
    return calls


def connect(uri: str) -> psycopg.Connection[Any]:
    """One connection with the recall pool's settings (its session zone too) and statements
    prepared on first use, planned for their parameters every time (as the semantic arm is:
    a generic plan of the vector statement cost 400-550 ms at 1.1M rows)."""
    conn = psycopg.connect(uri, autocommit=True, prepare_threshold=0)
    register_vector(conn)
    # The recall pool's settings, its zone named as the pool names it (timestamps read as
    # ``timezone.utc``, the cheaper way the recall reads them), and the trace's INSERT
    # committed without waiting for the WAL flush, as the recall's trace write commits it
    # (waiting, the floor paid an fsync the recall does not: 5.12 against 4.85 ms p50 at
    # 100k, which flattered the ratio by about 5 %).
    settings = {
        **RECALL_SETTINGS,
        **utc_named(conn),
        "plan_cache_mode": "force_custom_plan",
        "synchronous_commit": "off",
    }
    for name, value in settings.items():
        conn.execute("SELECT set_config(%s, %s, false)", (name, value))
    return conn


def floor_run(conn: psycopg.Connection[Any], counts: FloorCounts) -> Callable[[FloorCall], None]:
    """The four statements of one recall's floor, on ``conn``."""
    serial = itertools.count()
    run_id = secrets.token_hex(4)

    def run(call: FloorCall) -> None:
        p = call.params
        vector_ids = [r[0] for r in conn.execute(VECTOR_TOP_K, {**p, "vector": call.vector})]
        fts_ids = [r[0] for r in conn.execute(FTS_TOP_K, {**p, "text": call.text})]
        ids = list(dict.fromkeys(vector_ids + fts_ids))
        loaded = conn.execute(LOAD, {**p, "ids": ids}).fetchall()
        conn.execute(
            INSERT_TRACE,
            {
                **p,
                "id": f"tr-floor-{run_id}-{next(serial)}",
                "user_view": call.user_view,
                "operator_view": call.trace_json,
            },
        )
        counts.vector_rows, counts.fts_rows = len(vector_ids), len(fts_ids)
        counts.loaded_rows = len(loaded)

    return run


def clear_floor_traces(conn: psycopg.Connection[Any], tenant: str, principal: str) -> None:
    """Remove the traces the floor inserted (they are not recalls). The connection carries
    the recall's statement timeout, which a scan of every trace a long-lived bench store
    holds for the principal can outlast (it did, at 10k): the clean-up lifts it for itself."""
    with conn.transaction():
        conn.execute("SET LOCAL statement_timeout = 0")
        conn.execute(
            "DELETE FROM recall_traces WHERE tenant_id = %s AND principal_id = %s"
            " AND id LIKE 'tr-floor-%%'",
            (tenant, principal),
        )
