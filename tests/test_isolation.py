"""Isolation is SQL (see "Hard filters" in docs/architecture.md), on the real server.

- Each arm alone honours every field of the hard filter: a decoy that matches the query
  perfectly but breaks exactly one filter field is never returned.
- As a hypothesis property over random multi-tenant stores and requests: no recalled or
  traced item belongs to another tenant or principal, is above the surface's ceiling, is
  invalid at ``as_of`` (world or system time), or is superseded, expired or retired at
  ``as_of``.
- With the same belief, episode, conflict-set and entity names in two tenants of two
  principals each, every id-taking call on an id only the others hold fails exactly as for a
  missing id, and leaves every principal-keyed row of the others as it was.
- As a hypothesis property over random operations by those four owners: whatever one of
  them does, succeeding or refused, no other owner's rows change.
- As a hypothesis property over stores where those four owners hold the same ids, subjects
  and conflict set: no session prefix, turn, child run, user view, archival search or tool
  result of one holds anything of the others, anything above its ceiling, or a local
  belief outside its origin project.
- As a hypothesis property over random interleavings of calls by the caller, another
  principal of its tenant and its namesake in another tenant (same ids, subjects and
  conflict set): everything the caller gets, scores and counts included, equals what the
  same calls return in a tenant where the caller is alone.
- As a hypothesis property over the beliefs (every state, sensitivity and validity),
  episodes, traces, sessions and miss hints the others write in a random order: every
  id-taking call of the caller, Python and tools, on a wide and a narrow surface, on one
  of their ids returns or fails word for word as on an id nobody holds, writing nothing
  of theirs.
- As a hypothesis property over snapshot beliefs superseded or disputed after a session
  opened, by beliefs of any sensitivity, project and portability, some rejected as not
  here: a turn's corrections quote only what a recall of the session would show.
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg import sql

from recallflow import Belief, Memory
from recallflow.adapters.postgres.ann_index import graduate
from recallflow.adapters.postgres.row_edits import RowEdits
from recallflow.errors import InvalidInputError, NotFoundError
from recallflow.models.request import Surface
from recallflow.models.result import RecallResult
from recallflow.models.stages import HardFilter
from recallflow.models.store import LifecycleState, Sensitivity
from recallflow.policy import SURFACE_CEILINGS, ArmLimits, EpisodePolicy
from recallflow.tools import Toolset
from tests.helpers import belief, patient_policy, request, two_sided

AS_OF = datetime(2026, 6, 1, tzinfo=UTC)
DAY = timedelta(days=1)
TEXT = "The payments service retries webhooks with exponential backoff"
SUBJECT = "payments-webhooks"

#: Each decoy breaks exactly one hard-filter field; the target breaks none.
DECOYS: dict[str, dict[str, Any]] = {
    "tenant": {"tenant_id": "OTHER"},
    "principal": {"principal_id": "p-other"},
    "state_superseded": {"state": "superseded", "superseded_by": "b-target"},
    "state_expired": {"state": "expired"},
    "state_retired": {"state": "retired"},
    "valid_from_after_as_of": {"valid_from": AS_OF + DAY},
    "valid_to_before_as_of": {"valid_from": AS_OF - 10 * DAY, "valid_to": AS_OF - DAY},
    "recorded_after_as_of": {"recorded_at": AS_OF + DAY},
    "retracted_before_as_of": {"recorded_at": AS_OF - 10 * DAY, "retracted_at": AS_OF - DAY},
    "sensitivity_above_ceiling": {"sensitivity": "secret"},
}


@pytest.fixture(scope="module")
def decoy_store(memory: Memory) -> tuple[str, HardFilter]:
    tenant = f"t-{uuid.uuid4().hex[:10]}"
    vector = list(map(float, memory.embedder.embed([TEXT])[0]))
    drafts = [
        belief(
            tenant,
            id="b-target",
            statement=TEXT,
            subject=SUBJECT,
            entities=["payments"],
            embedding=vector,
            recorded_at=AS_OF - 100 * DAY,
        )
    ]
    for name, fields in DECOYS.items():
        data = belief(
            tenant,
            id=f"b-{name}",
            statement=TEXT,
            subject=SUBJECT,
            entities=["payments"],
            embedding=vector,
            recorded_at=AS_OF - 100 * DAY,
        )
        data.update(fields)
        if data["tenant_id"] == "OTHER":
            data["tenant_id"] = f"{tenant}-other"
        drafts.append(data)
    memory.beliefs.add_many(drafts)
    ids = [d["id"] for d in drafts if d["tenant_id"] == tenant and d["principal_id"] == "p1"]
    memory.edges.add_many(
        [
            {"tenant_id": tenant, "principal_id": "p1", "src_id": "b-target", "dst_id": i}
            for i in ids
            if i != "b-target"
        ]
    )
    hard_filter = HardFilter(
        tenant_id=tenant,
        principal_id="p1",
        states=(LifecycleState.ACTIVE, LifecycleState.PROVISIONAL, LifecycleState.CONFLICTED),
        as_of=AS_OF,
        known_as_of=AS_OF,
        sensitivity_ceiling=Sensitivity.PERSONAL,
    )
    return tenant, hard_filter


#: Wide limits, so that only the hard filter can keep a belief out of an arm's answer.
WIDE = ArmLimits(
    per_arm=50,
    lexical_candidate_cap=400,
    semantic_min_similarity=0.0,
    hnsw_ef_search=100,
    graph_depth=2,
    graph_fanout=50,
)


def _arm_ids(memory: Memory, arm: str, f: HardFilter) -> list[str]:
    search = memory._ports.belief_search
    if arm == "structured":
        hits = search.structured(f, [SUBJECT, "payments"], WIDE)
    elif arm == "lexical":
        hits = search.lexical(f, ["payments webhooks backoff"], WIDE)
    elif arm == "trigram":
        hits = search.trigram(f, ["payments-webhook"], WIDE)
    elif arm == "semantic":
        hits = search.semantic(f, memory.embedder.embed([TEXT]), WIDE)
    elif arm == "neighbours":
        neighbours = search.neighbours(f, ["b-target"], WIDE)
        return ["b-target", *[i for i, _ in neighbours]]
    else:
        loaded = search.load(f, ["b-target", *[f"b-{n}" for n in DECOYS]])
        return [b.id for b in loaded]
    return [belief_id for belief_id, _ in hits]


@pytest.mark.parametrize(
    "arm", ["structured", "lexical", "trigram", "semantic", "neighbours", "load"]
)
def test_each_arm_alone_honours_every_filter_field(
    memory: Memory, decoy_store: tuple[str, HardFilter], arm: str
) -> None:
    _, hard_filter = decoy_store
    assert _arm_ids(memory, arm, hard_filter) == ["b-target"]


def test_the_same_decoys_are_found_without_the_filter_field(
    memory: Memory, decoy_store: tuple[str, HardFilter]
) -> None:
    """The decoys are real matches: widen one field and its decoy comes back."""
    _tenant, f = decoy_store
    wide = f.model_copy(update={"sensitivity_ceiling": Sensitivity.SECRET})
    assert "b-sensitivity_above_ceiling" in _arm_ids(memory, "lexical", wide)
    later = f.model_copy(update={"as_of": AS_OF + 2 * DAY, "known_as_of": AS_OF + 2 * DAY})
    assert {"b-valid_from_after_as_of", "b-recorded_after_as_of"} <= set(
        _arm_ids(memory, "semantic", later)
    )
    states = f.model_copy(update={"states": tuple(LifecycleState)})
    assert "b-state_retired" in _arm_ids(memory, "structured", states)


# --- the property -----------------------------------------------------------------------

_WORDS = [
    "deploy",
    "billing",
    "cents",
    "invoice",
    "queue",
    "retry",
    "webhook",
    "ada",
    "tests",
    "lint",
    "release",
    "crash",
    "timezone",
    "editor",
    "stripe",
]

belief_strategy = st.fixed_dictionaries(
    {
        "tenant": st.integers(0, 1),
        "principal": st.integers(0, 1),
        "words": st.lists(st.sampled_from(_WORDS), min_size=2, max_size=6),
        "state": st.sampled_from([s.value for s in LifecycleState]),
        "sensitivity": st.integers(0, 3),
        "from_days": st.one_of(st.none(), st.integers(-300, 30)),
        "length_days": st.one_of(st.none(), st.integers(1, 400)),
        "recorded_days": st.integers(-400, 30),
        "retracted_after": st.one_of(st.none(), st.integers(1, 400)),
        "project": st.sampled_from([None, "alpha", "beta"]),
    }
)
request_strategy = st.fixed_dictionaries(
    {
        "tenant": st.integers(0, 1),
        "principal": st.integers(0, 1),
        "words": st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4),
        "surface": st.sampled_from(list(Surface)),
        "as_of_days": st.integers(-200, 20),
        "project": st.sampled_from([None, "alpha", "beta"]),
    }
)


def _draft(run: str, index: int, spec: dict[str, Any]) -> dict[str, Any]:
    state = spec["state"]
    valid_from = AS_OF + spec["from_days"] * DAY if spec["from_days"] is not None else None
    valid_to = (
        valid_from + spec["length_days"] * DAY
        if valid_from is not None and spec["length_days"] is not None
        else None
    )
    recorded = AS_OF + spec["recorded_days"] * DAY
    # A write refuses a retraction ahead of the clock; one after every request's as_of
    # (at most AS_OF + 20 days) reads the same as any later one.
    retracted = (
        min(recorded + spec["retracted_after"] * DAY, AS_OF + 40 * DAY)
        if spec["retracted_after"]
        else None
    )
    data = belief(
        f"{run}-t{spec['tenant']}",
        f"p{spec['principal']}",
        id=f"b-{index}",
        statement=" ".join(spec["words"]),
        subject=spec["words"][0],
        entities=spec["words"][1:],
        state=state,
        sensitivity=spec["sensitivity"],
        valid_from=valid_from,
        valid_to=valid_to,
        recorded_at=recorded,
        retracted_at=retracted,
        scope="project" if spec["project"] else "user",
        origin_project=spec["project"],
    )
    if state == "superseded":
        data["superseded_by"] = f"b-{index}"  # replaced below by a real successor
    if state == "conflicted":
        data["conflict_set_id"] = "c-1"
    return data


def _check(
    result: RecallResult,
    rows: dict[str, Belief],
    tenant: str,
    principal: str,
    surface: Surface,
    as_of: datetime,
) -> None:
    t = result.trace
    mentioned = {h.belief_id for a in t.arms for h in a.hits}
    mentioned |= {c.belief_id for c in t.fused} | {s.belief_id for s in t.scored}
    mentioned |= set(t.ranked_ids) | set(result.rendered_ids)
    ceiling = SURFACE_CEILINGS[surface]
    for belief_id in mentioned:
        b = rows[belief_id]  # every id the trace names exists in this tenant/principal
        assert (b.tenant_id, b.principal_id) == (tenant, principal)
        assert b.sensitivity <= ceiling
        # State at as_of: retired never; superseded never here (every successor below is
        # valid from the start and recorded first); expired only before its valid_to.
        assert b.state not in (LifecycleState.SUPERSEDED, LifecycleState.RETIRED)
        assert b.state is not LifecycleState.EXPIRED or b.valid_to is not None
        assert b.valid_from is None or b.valid_from <= as_of
        assert b.valid_to is None or as_of < b.valid_to
        assert b.recorded_at <= as_of
        assert b.retracted_at is None or as_of < b.retracted_at


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    specs=st.lists(belief_strategy, min_size=1, max_size=30),
    requests=st.lists(request_strategy, min_size=1, max_size=3),
)
def test_no_recall_ever_leaks_across_the_hard_filter(
    memory: Memory, specs: list[dict[str, Any]], requests: list[dict[str, Any]]
) -> None:
    run = f"iso-{uuid.uuid4().hex[:8]}"
    drafts = [_draft(run, i, spec) for i, spec in enumerate(specs)]
    # A superseded belief points at a successor of its own principal, or one is added.
    for data in drafts:
        if data["state"] == "superseded":
            data["superseded_by"] = f"{data['id']}-next"
    successors = [
        belief(
            d["tenant_id"],
            d["principal_id"],
            id=d["superseded_by"],
            statement="successor",
            subject="successor",
            recorded_at=AS_OF - 500 * DAY,
        )
        for d in drafts
        if d["state"] == "superseded"
    ]
    stored = memory.beliefs.add_many(two_sided([*drafts, *successors]))
    for spec in requests:
        tenant, principal = f"{run}-t{spec['tenant']}", f"p{spec['principal']}"
        rows = {b.id: b for b in stored if (b.tenant_id, b.principal_id) == (tenant, principal)}
        as_of = AS_OF + spec["as_of_days"] * DAY
        result = memory.recall(
            request(
                tenant,
                principal,
                " ".join(spec["words"]),
                surface=spec["surface"],
                as_of=as_of,
                project=spec["project"],
                working_state={"entities": spec["words"]},
            )
        )
        _check(result, rows, tenant, principal, spec["surface"], as_of)


def test_the_vector_index_is_not_starved_by_the_filter(memory: Memory) -> None:
    """With many other principals' rows, a filtered semantic search still fills its LIMIT
    (hnsw.iterative_scan; without it a filtered scan was seen to return 16 of 50)."""
    tenant = f"t-{uuid.uuid4().hex[:10]}"
    rng = np.random.default_rng(7)
    dim = memory.embedder.dimension
    drafts = []
    for i in range(1200):
        vec = rng.normal(size=dim)
        vec /= np.linalg.norm(vec)
        drafts.append(
            belief(
                tenant,
                "mine" if i % 20 == 0 else f"other-{i % 7}",
                id=f"b-{i}",
                statement=f"row {i}",
                subject="row",
                embedding=list(map(float, vec)),
            )
        )
    memory.beliefs.add_many(drafts)
    with memory.pool.connection() as conn:
        conn.execute("ANALYZE beliefs")
        # Every principal's rows in the index, so the filtered scan must skip the others'.
        for principal in {d["principal_id"] for d in drafts}:
            graduate(conn, tenant, principal)
    f = HardFilter(
        tenant_id=tenant,
        principal_id="mine",
        states=(LifecycleState.ACTIVE,),
        as_of=AS_OF,
        known_as_of=AS_OF,
        sensitivity_ceiling=Sensitivity.SECRET,
    )
    drawn = rng.normal(size=(1, dim))
    query = (drawn / np.linalg.norm(drawn)).astype(np.float32)  # unit, as the port requires
    limits = ArmLimits(
        per_arm=50, semantic_min_similarity=-1.0, hnsw_ef_search=40, semantic_exact_factor=0
    )
    hits = memory._ports.belief_search.semantic(f, query, limits)
    assert len(hits) == 50


# --- the same ids in every tenant and principal ------------------------------------------------

#: Every owner but the caller (tenant suffix, principal); the caller is ("", "p1").
_OTHERS = (("", "p2"), ("-b", "p1"), ("-b", "p2"))


def _others_rows(memory: Memory, tenant: str) -> dict[str, tuple[int, str]]:
    """Count and digest of every principal-keyed table's rows of the other three owners."""
    with memory.pool.connection() as conn:
        tables = [
            str(r[0])
            for r in conn.execute(
                "SELECT table_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND column_name = 'principal_id'"
                " ORDER BY 1"
            ).fetchall()
        ]
        out = {}
        for table in tables:
            query = sql.SQL(
                "SELECT count(*), md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), ''))"
                " FROM {} x WHERE tenant_id = ANY(%s)"
                " AND NOT (tenant_id = %s AND principal_id = 'p1')"
            ).format(sql.Identifier(table))
            row = conn.execute(
                query,
                ([tenant, f"{tenant}-b"], tenant),
            ).fetchone()
            assert row is not None
            out[table] = (int(row[0]), str(row[1]))
    return out


def test_ids_held_only_by_others_are_missing_and_untouched_even_where_ids_overlap(
    memory: Memory, tenant: str
) -> None:
    """Two tenants with two principals each hold the same belief, episode, conflict-set and
    entity names; ``b-x`` and ``e-x`` exist for every owner but the caller. Each id-taking
    call on them fails exactly as for a missing id, and no row of the others changes.
    Recall through graph edges and a conflict set of the same id stays the caller's."""
    drafts, episodes = [], []
    for suffix, principal in (("", "p1"), *_OTHERS):
        owner, mine = f"{tenant}{suffix}", (suffix, principal) == ("", "p1")
        tag = "mine" if mine else "THEIRS"
        drafts += [
            belief(owner, principal, id="b-1", statement=f"Ada deploys on friday {tag}",
                   subject="ada-deploys", entities=["ada"], state="conflicted",
                   conflict_set_id="c-1"),
            belief(owner, principal, id="b-2", statement=f"Ada deploys on monday {tag}",
                   subject="ada-deploys", entities=["ada"], state="conflicted",
                   conflict_set_id="c-1"),
        ]  # fmt: skip
        episodes.append(
            {"tenant_id": owner, "principal_id": principal, "id": "e-1", "kind": "message",
             "content": f"Ada deployed {tag}", "occurred_at": AS_OF}
        )  # fmt: skip
        if not mine:
            drafts.append(
                belief(owner, principal, id="b-x", statement=f"Ada deploys on tuesday {tag}",
                       subject="ada-deploys", entities=["ada"], state="conflicted",
                       conflict_set_id="c-1")
            )  # fmt: skip
            episodes.append({**episodes[-1], "id": "e-x"})
    memory.beliefs.add_many(drafts)
    memory.episodes.add_many(episodes)
    theirs = {}
    for suffix, principal in _OTHERS:
        owner = f"{tenant}{suffix}"
        memory.edges.add_many(
            [{"tenant_id": owner, "principal_id": principal, "src_id": "b-2", "dst_id": "b-x"}]
        )
        memory.entities.mark(owner, principal, "ada", "secret")
        goal = {"goal": "when does Ada deploy", "entities": ["ada"]}
        theirs[(suffix, principal)] = (
            memory.recall(request(owner, principal, working_state=goal)).trace_id,
            memory.open_session(owner, principal, goal=goal).id,
        )
    own = memory.recall(
        request(tenant, "p1", "Ada deploys friday tuesday", working_state={"entities": ["ada"]})
    )
    assert "THEIRS" not in own.block and "b-x" not in own.trace.model_dump_json()
    assert set(own.rendered_ids) <= {"b-1", "b-2"}

    me = (tenant, "p1")
    calls: dict[str, Any] = {
        "get": lambda i: memory.beliefs.get(*me, i),
        "episode": lambda i: memory.episodes.get(*me, i.replace("b-", "e-")),
        "corroborate": lambda i: memory.corroborate(*me, i, "alpha", "seen"),
        "retract": lambda i: memory.retract(*me, i, "why"),
        "retire": lambda i: memory.retire(*me, i),
        "expire": lambda i: memory.expire(*me, i, AS_OF),
        "supersede": lambda i: memory.supersede(i, belief(tenant, id="b-new", subject="x")),
        "forget_belief": lambda i: memory.forget_belief(*me, i),
        "forget_episode": lambda i: memory.forget_episode(*me, i.replace("b-", "e-")),
    }
    for trace_id, session_id in theirs.values():
        calls |= {
            f"trace {trace_id}": lambda i, t=trace_id: memory.trace(*me, i.replace("b-x", t)),
            f"explain {trace_id}": lambda i, t=trace_id: memory.explain(*me, i.replace("b-x", t)),
            f"cite {trace_id}": lambda i, t=trace_id: memory.cite(
                *me, i.replace("b-x", t), ["b-1"]
            ),
            f"reject {trace_id}": lambda i, t=trace_id: memory.reject(
                *me, i.replace("b-x", t), "b-1", "not_true"
            ),
            f"resume {session_id}": lambda i, s=session_id: memory.resume_session(
                *me, i.replace("b-x", s)
            ),
            f"end {session_id}": lambda i, s=session_id: memory.end_session(
                *me, i.replace("b-x", s)
            ),
        }  # fmt: skip
    before = _others_rows(memory, tenant)
    for name, call in calls.items():
        messages = []
        for target in ("b-x", "b-nowhere"):
            with pytest.raises(NotFoundError) as info:
                call(target)
            messages.append(str(info.value))
        assert messages[0].split("'")[0::2] == messages[1].split("'")[0::2], name
    assert memory.entities.marked(*me) == {}
    assert memory.entities.unmark(*me, "ada") is False
    assert _others_rows(memory, tenant) == before


_OWNERS = (("", "p1"), ("", "p2"), ("-b", "p1"), ("-b", "p2"))
_IDS = ("b-0", "b-1", "b-2")

operation_strategy = st.tuples(
    st.integers(0, 3),  # the acting owner
    st.sampled_from(
        [
            "add",
            "edge",
            "retract",
            "retire",
            "expire",
            "corroborate",
            "forget_belief",
            "mark",
            "unmark",
            "recall",
            "cite",
            "reject",
            "session",
            "end",
            "forget",
        ]
    ),
    st.sampled_from(_IDS),
    st.integers(0, 3),  # whose trace or session id the call names
)


def _rows_by_owner(memory: Memory, tenant: str) -> dict[tuple[str, str], list[tuple[int, str]]]:
    """Per owner, the count and digest of its rows in every principal-keyed table."""
    out: dict[tuple[str, str], list[tuple[int, str]]] = {}
    with memory.pool.connection() as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND column_name = 'principal_id'"
            " ORDER BY 1"
        ).fetchall()
        for (table,) in tables:
            for suffix, principal in _OWNERS:
                query = sql.SQL(
                    "SELECT count(*), md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), ''))"
                    " FROM {} x WHERE tenant_id = %s AND principal_id = %s"
                ).format(sql.Identifier(str(table)))
                row = conn.execute(query, (f"{tenant}{suffix}", principal)).fetchone()
                assert row is not None
                out.setdefault((suffix, principal), []).append((int(row[0]), str(row[1])))
    return out


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=st.lists(operation_strategy, min_size=1, max_size=8))
def test_no_operation_changes_another_owners_rows(
    memory: Memory, operations: list[tuple[int, str, str, int]]
) -> None:
    """Random operations by four owners (two tenants of two principals) that share every
    belief id and entity name, naming their own or another owner's trace and session:
    whatever one owner does, succeeding or refused, only its own rows change, and a
    refused call changes none."""
    tenant = f"t-{uuid.uuid4().hex[:10]}"
    owners = [(f"{tenant}{s}", p) for s, p in _OWNERS]
    memory.beliefs.add_many(
        [
            belief(t, p, id=i, statement=f"Ada deploys {i}", subject="ada", entities=["ada"])
            for t, p in owners
            for i in _IDS
        ]
    )
    # Every owner starts with a mark, a trace and a session the others' calls can name.
    traces: dict[int, str] = {}
    sessions: dict[int, str] = {}
    for index, (t, p) in enumerate(owners):
        memory.entities.mark(t, p, "ada", "personal")
        traces[index] = memory.recall(request(t, p, "when does Ada deploy")).trace_id
        sessions[index] = memory.open_session(t, p).id
    for actor, op, belief_id, whose in operations:
        t, p = owners[actor]
        trace_id = traces.get(whose, "tr-none")
        before = _rows_by_owner(memory, tenant)
        try:
            if op == "add":
                memory.beliefs.add(belief(t, p, id=f"{belief_id}-{op}", subject="ada"))
            elif op == "edge":
                memory.edges.add_many(
                    [{"tenant_id": t, "principal_id": p, "src_id": "b-0", "dst_id": belief_id}]
                )
            elif op in ("retract", "retire", "expire", "forget_belief"):
                extra: tuple[Any, ...] = ("why",) if op == "retract" else ()
                getattr(memory, op)(t, p, belief_id, *extra)
            elif op == "corroborate":
                memory.corroborate(t, p, belief_id, "alpha", "seen")
            elif op == "mark":
                memory.entities.mark(t, p, "ada", "secret")
            elif op == "unmark":
                memory.entities.unmark(t, p, "ada")
            elif op == "recall":
                traces[actor] = memory.recall(request(t, p, "when does Ada deploy")).trace_id
            elif op == "cite":
                memory.cite(t, p, trace_id, [belief_id])
            elif op == "reject":
                memory.reject(t, p, trace_id, belief_id, "not_true")
            elif op == "session":
                sessions[actor] = memory.open_session(t, p, goal={"goal": "Ada deploys"}).id
            elif op == "end":
                memory.end_session(t, p, sessions.get(whose, "s-none"))
            else:
                memory.forget(t, p)
        except (NotFoundError, InvalidInputError):
            refused = True
        else:
            refused = False
        after = _rows_by_owner(memory, tenant)
        for owner in _OWNERS:
            if refused or owner != _OWNERS[actor]:  # a refused call writes nothing at all
                assert after[owner] == before[owner], (op, owner, refused)


# --- every other read path, as a property -------------------------------------------------

#: A word only one owner's texts carry (the ids, statements and entities are otherwise the
#: same for all four): any of another owner's words in what a caller gets is a leak.
_MARKS = ("zulu", "yankee", "xray", "whiskey")

store_spec = st.fixed_dictionaries(
    {
        "held_by": st.sets(st.integers(0, 3), min_size=1),
        "words": st.lists(st.sampled_from(_WORDS), min_size=2, max_size=5),
        "sensitivity": st.integers(0, 3),
        "type": st.sampled_from(["fact", "preference", "user_model"]),
        "project": st.sampled_from([None, "alpha", "beta"]),
        "portability": st.sampled_from(["portable", "contextual", "local"]),
        "conflicted": st.booleans(),
    }
)
asker_spec = st.fixed_dictionaries(
    {
        "owner": st.integers(0, 3),
        "words": st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4),
        # Or a question about the user, which the profile arm answers with no query words.
        "about_me": st.booleans(),
        "surface": st.sampled_from(list(Surface)),
        "child_surface": st.sampled_from(list(Surface)),
        "viewer": st.sampled_from(list(Surface)),
        "project": st.sampled_from([None, "alpha", "beta"]),
    }
)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    specs=st.lists(store_spec, min_size=1, max_size=24),
    askers=st.lists(asker_spec, min_size=1, max_size=2),
)
def test_no_session_child_run_view_search_or_tool_leaks(
    memory: Memory, specs: list[dict[str, Any]], askers: list[dict[str, Any]]
) -> None:
    """Four owners (two tenants of two principals) hold the same belief and episode ids,
    subjects, entities and conflict set (each item held by some or all of them), their
    texts told apart only by a word of each.
    Whatever one of them opens, asks or reads — a session's prefix and a turn in it, a
    child run on another surface, a user view on any viewing surface, archival search, the
    recall tool, asked about its words or about the user ("What do you know about me?",
    which the profile arm answers) — holds nothing of the others, nothing above the
    surface's ceiling (the narrower one for a child, the lower one for a view), and no
    local belief outside its origin project."""
    run = f"iso-{uuid.uuid4().hex[:8]}"
    owners = [(f"{run}{s}", p) for s, p in _OWNERS]
    held: dict[tuple[int, str], dict[str, Any]] = {}
    drafts, episodes = [], []
    for index, spec in enumerate(specs):
        for owner in sorted(spec["held_by"]):
            tenant, principal = owners[owner]
            text = " ".join(spec["words"]) + f" {_MARKS[owner]}"
            project = spec["project"]
            drafts.append(
                belief(tenant, principal, id=f"b-{index}", statement=text,
                       subject=spec["words"][0], entities=spec["words"][1:],
                       sensitivity=spec["sensitivity"], belief_type=spec["type"],
                       source_authority="user_stated", confidence=0.9,
                       scope="project" if project else "user", origin_project=project,
                       **({"portability": spec["portability"]} if project else {}),
                       state="conflicted" if spec["conflicted"] else "active",
                       conflict_set_id="c-1" if spec["conflicted"] else None)
            )  # fmt: skip
            episodes.append(
                {"tenant_id": tenant, "principal_id": principal, "id": f"e-{index}",
                 "content": text, "sensitivity": spec["sensitivity"], "project": project,
                 "occurred_at": AS_OF - DAY}
            )  # fmt: skip
            held[(owner, f"b-{index}")] = spec
    memory.beliefs.add_many(two_sided(drafts))
    memory.episodes.add_many(episodes)

    for asker in askers:
        owner = asker["owner"]
        tenant, principal = owners[owner]
        foreign = [m for i, m in enumerate(_MARKS) if i != owner]
        asked = "What do you know about me?" if asker["about_me"] else " ".join(asker["words"])
        goal = {"goal": asked, "entities": asker["words"]}
        ceiling = SURFACE_CEILINGS[asker["surface"]]

        here = asker["project"]

        def check(
            text: str,
            ids: Any,
            ceiling: Sensitivity,
            *,
            beliefs: bool = True,
            owner: int = owner,
            foreign: list[str] = foreign,
            here: str | None = here,
        ) -> None:
            assert not [m for m in foreign if m in text], text
            for belief_id in ids:
                spec = held[(owner, belief_id)]
                assert spec["sensitivity"] <= ceiling, (belief_id, ceiling)
                local = beliefs and spec["project"] and spec["portability"] == "local"
                assert not local or spec["project"] == here, (belief_id, here)

        session = memory.open_session(
            tenant, principal, surface=asker["surface"], project=asker["project"], goal=goal
        )
        check(session.prefix_text, session.snapshot_ids, ceiling)
        child = session.child(goal, surface=asker["child_surface"])
        narrower = min(ceiling, SURFACE_CEILINGS[asker["child_surface"]])
        check(child.prefix_text, child.snapshot_ids, narrower)
        for opened, level in ((session, ceiling), (child, narrower)):
            turn = opened.recall(goal)
            check(turn.trace.model_dump_json(), turn.rendered_ids, level)
            view = memory.explain(tenant, principal, turn.trace_id, viewer_surface=asker["viewer"])
            lower = min(level, SURFACE_CEILINGS[asker["viewer"]])
            check(view.model_dump_json(), [i.belief_id for i in view.items], lower)
        found = memory.search_episodes(
            {"tenant_id": tenant, "principal_id": principal, "query": goal["goal"],
             "surface": asker["surface"]}
        )  # fmt: skip
        ids = [i.episode_id.replace("e-", "b-") for i in found.items]
        check(found.block + found.trace.model_dump_json(), ids, ceiling, beliefs=False)
        tools = Toolset(memory, tenant_id=tenant, principal_id=principal, surface=asker["surface"])
        recalled = tools.call("recall_beliefs", {**goal, "project": asker["project"]})
        ids = [i["belief_id"] for i in recalled["items"]]
        check(json.dumps(recalled), ids, ceiling)


# --- as if the others never existed -------------------------------------------------------

#: A text's "now" (a write's recorded time, an event's): the fixtures' times are whole seconds.
_NOW = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+(?:Z|\+00:00)")
_GENERATED_ID = re.compile(r"\b(?:tr|te|s)-[0-9a-f]{16}\b")

differential_op = st.tuples(
    st.integers(0, 2),  # the actor: the caller, another principal, another tenant's namesake
    st.sampled_from(
        "recall recall turn session explain cite reject history tool_history episodes"
        " corroborate supersede retract expire mark forget_belief forget_project"
        " forget_session".split()
    ),
    st.integers(0, 5),  # the belief the call names
    st.lists(st.sampled_from(_WORDS), min_size=2, max_size=4),
    st.sampled_from(list(Surface)),
)


def _plain(value: Any, tenant: str) -> Any:
    """``value`` as JSON with what differs between two runs of the same calls taken out:
    the tenant's name (and the request digest, which hashes it), generated ids, the time
    now, latencies, float noise."""
    if isinstance(value, dict):
        # A request's digest is of the request, which names its tenant.
        return {
            k: _plain(v, tenant)
            for k, v in value.items()
            if not k.endswith("_ms") and k != "request_digest"
        }
    if isinstance(value, list | tuple):
        return [_plain(v, tenant) for v in value]
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, str):
        return _GENERATED_ID.sub("ID", _NOW.sub("NOW", value.replace(tenant, "T")))
    return value


class _Actor:
    """One owner's calls, through the Python API and the tools, with what each returned."""

    def __init__(self, memory: Memory, tenant: str, principal: str) -> None:
        self.memory, self.tenant, self.principal = memory, tenant, principal
        self.traces: list[str] = []
        self.sessions: list[Any] = []
        self.policy = patient_policy()
        self.episodes = EpisodePolicy(timeout_ms=60_000)

    def tools(self, surface: Surface) -> Toolset:
        return Toolset(
            self.memory, tenant_id=self.tenant, principal_id=self.principal, surface=surface,
            policy=self.policy,
        )  # fmt: skip

    def rendered(self) -> list[str]:
        if not self.traces:
            return []
        view = self.memory.explain(self.tenant, self.principal, self.traces[-1])
        return [i.belief_id for i in view.items if not i.forgotten]

    def act(self, op: str, index: int, words: list[str], surface: Surface) -> Any:
        m, t, p, b = self.memory, self.tenant, self.principal, f"b-{index}"
        goal = {"goal": " ".join(words), "entities": words}
        try:
            if op == "recall":
                r = m.recall(request(t, p, surface=surface, as_of=AS_OF, working_state=goal),
                             policy=self.policy)  # fmt: skip
                self.traces.append(r.trace_id)
                out: Any = [r.block, r.trace.model_dump(mode="json", exclude={"lineage"})]
            elif op == "turn" and self.sessions:
                r = self.sessions[-1].recall(goal)
                self.traces.append(r.trace_id)
                out = [r.block, r.trace.model_dump(mode="json", exclude={"lineage"})]
            elif op == "session":
                s = m.open_session(t, p, surface=surface, goal=goal, policy=self.policy)
                child = s.child(goal, surface=Surface.TEAM)
                self.sessions.append(s)
                out = [s.prefix_text, s.snapshot_ids, child.prefix_text, child.snapshot_ids]
            elif op == "explain" and self.traces:
                out = m.explain(t, p, self.traces[-1], viewer_surface=surface).model_dump()
            elif op in ("cite", "reject") and self.rendered():
                first = self.rendered()[0]
                if op == "cite":
                    out = m.cite(t, p, self.traces[-1], [first], policy=self.policy)
                else:
                    out = m.reject(t, p, self.traces[-1], first, "not_true", note="no")
            elif op == "history":
                out = m.beliefs.history(t, p, b)
            elif op == "tool_history":
                out = self.tools(surface).call("belief_history", {"belief_id": b})
            elif op == "episodes":
                out = m.search_episodes(
                    {"tenant_id": t, "principal_id": p, "query": goal["goal"], "as_of": AS_OF,
                     "surface": surface},
                    policy=self.episodes, retrieval_policy=self.policy,
                )  # fmt: skip
                out = [out.block, [i.episode_id for i in out.items]]
            elif op == "corroborate":
                out = m.corroborate(t, p, b, "alpha", "e-1")
            elif op == "supersede":
                at = AS_OF - 10 * DAY + len(self.traces) * timedelta(seconds=1)
                out = m.supersede(b, belief(t, p, id=f"{b}-next-{len(words)}-{words[0]}",
                                            statement=" ".join(words), subject=words[0],
                                            recorded_at=at, valid_from=at))  # fmt: skip
            elif op == "retract":
                out = m.retract(t, p, b, "no longer said")
            elif op == "expire":
                out = m.expire(t, p, b, AS_OF - DAY)
            elif op == "mark":
                m.entities.mark(t, p, words[0], "secret")
                out = m.entities.marked(t, p)
            elif op == "forget_belief":
                out = m.forget_belief(t, p, b).deleted
            elif op == "forget_project":  # the project and the session of episode e-{index}
                out = m.forget_project(t, p, f"w-{index % 2}").deleted
            elif op == "forget_session":
                out = m.forget_session(t, p, f"s-{index % 3}", with_beliefs=index % 2 == 0)
                out = [out.deleted, out.restated]
            else:
                out = None
        except (NotFoundError, InvalidInputError) as exc:
            out = [type(exc).__name__, str(exc)]
        return _plain(out.model_dump(mode="json") if hasattr(out, "model_dump") else out, t)

    def listing(self) -> Any:
        m, t, p = self.memory, self.tenant, self.principal
        summary = [s for s in m.summary() if (s.tenant_id, s.principal_id) == (t, p)]
        out = [
            [b.model_dump(mode="json") for b in m.beliefs.list(t, p)],
            [h.model_dump(mode="json") for h in m.miss_hints.pending(t, p)],
            m.entities.marked(t, p),
            [s.model_dump(mode="json") for s in summary],
            self.tools(Surface.DIRECT).call("recall_beliefs", {"goal": "ada deploy billing"}),
        ]
        return _plain(out, t)


def _populate(memory: Memory, tenant: str, principal: str, specs: list[dict[str, Any]],
              mark: str) -> None:  # fmt: skip
    drafts, episodes = [], []
    for index, spec in enumerate(specs):
        text = " ".join(spec["words"]) + mark
        drafts.append(
            belief(tenant, principal, id=f"b-{index}", statement=text, subject=spec["words"][0],
                   entities=spec["words"][1:], sensitivity=spec["sensitivity"],
                   belief_type=spec["type"], source_authority="user_stated", confidence=0.9,
                   recorded_at=AS_OF - (100 - index) * DAY, source_episode_id=f"e-{index}",
                   state="conflicted" if spec["conflicted"] else "active",
                   conflict_set_id="c-1" if spec["conflicted"] else None)
        )  # fmt: skip
        episodes.append(
            {"tenant_id": tenant, "principal_id": principal, "id": f"e-{index}", "content": text,
             "project": f"w-{index % 2}", "session_id": f"s-{index % 3}",
             "sensitivity": spec["sensitivity"], "occurred_at": AS_OF - (index + 1) * DAY,
             "recorded_at": AS_OF - (index + 1) * DAY}
        )  # fmt: skip
    memory.episodes.add_many(episodes)
    memory.beliefs.add_many(two_sided(drafts))


differential_spec = st.fixed_dictionaries(
    {
        "words": st.lists(st.sampled_from(_WORDS), min_size=2, max_size=5),
        "sensitivity": st.integers(0, 3),
        "type": st.sampled_from(["fact", "preference", "user_model"]),
        "conflicted": st.booleans(),
    }
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    mine=st.lists(differential_spec, min_size=1, max_size=8),
    theirs=st.lists(differential_spec, min_size=1, max_size=8),
    operations=st.lists(differential_op, min_size=1, max_size=12),
)
def test_what_a_principal_sees_is_as_if_the_others_never_existed(
    memory: Memory,
    mine: list[dict[str, Any]],
    theirs: list[dict[str, Any]],
    operations: list[tuple[int, str, int, list[str], Surface]],
) -> None:
    """The caller shares its tenant with another principal, and its principal id with a
    principal of another tenant; both hold the same belief and episode ids, subjects,
    entities and conflict set, with texts of their own, and act between the caller's calls
    (recalls, session turns, citations, rejections, supersessions, erasures, marks). Every
    result the caller gets — blocks, traces with their scores, session prefixes, user
    views, histories, tool results, archival search, listings and counts — is exactly what
    the same calls return in a tenant where the caller is alone."""
    run = uuid.uuid4().hex[:8]
    shared, alone = f"iso-{run}-x", f"iso-{run}-y"
    _populate(memory, shared, "p1", mine, "")
    _populate(memory, alone, "p1", mine, "")
    _populate(memory, shared, "p2", theirs, " zulu")
    _populate(memory, f"{shared}-b", "p1", theirs, " yankee")
    actors = [
        _Actor(memory, shared, "p1"),
        _Actor(memory, shared, "p2"),
        _Actor(memory, f"{shared}-b", "p1"),
    ]
    seen = []
    for actor, op, index, words, surface in operations:
        out = actors[actor].act(op, index, words, surface)
        if actor == 0:
            seen.append(out)
    seen.append(actors[0].listing())
    by_itself = _Actor(memory, alone, "p1")
    expected = [by_itself.act(*op[1:]) for op in operations if op[0] == 0]
    expected.append(by_itself.listing())
    assert seen == expected
    # (a listing carries dates, which are written as text here)
    shown = json.dumps(seen, default=str)
    assert "zulu" not in shown and "yankee" not in shown


# --- foreign ids are missing ids, at every entry point --------------------------------------

#: The owners that hold the ids the caller ((tenant, "p1")) probes: (tenant suffix, principal).
_HOLDERS = (("", "p2"), ("-b", "p1"))

held_spec = st.fixed_dictionaries(
    {
        "holders": st.sets(st.integers(0, 1), min_size=1),
        "state": st.sampled_from([s.value for s in LifecycleState]),
        "sensitivity": st.integers(0, 3),
        "validity": st.sampled_from(["open", "past", "future"]),
        "project": st.sampled_from([None, "alpha"]),
    }
)
holder_act = st.tuples(
    st.integers(0, 1),  # which holder
    st.sampled_from(["recall", "session", "ended session", "miss", "reject", "cite"]),
    st.sampled_from(list(Surface)),
)


def _outcome(call: Any, name: str) -> Any:
    """What a call returned or raised, with ``name`` (the id it was given) taken out."""
    try:
        out = call(name)
    except (NotFoundError, InvalidInputError) as exc:
        out = [type(exc).__name__, str(exc), getattr(exc, "field", None)]
    text = json.dumps(out.model_dump(mode="json") if hasattr(out, "model_dump") else out,
                      default=str)  # fmt: skip
    return text.replace(name, "ID")


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    held=st.lists(held_spec, min_size=1, max_size=4),
    acts=st.lists(holder_act, min_size=1, max_size=6),
)
def test_every_call_on_an_id_only_others_hold_fails_as_on_an_id_nobody_holds(
    memory: Memory, held: list[dict[str, Any]], acts: list[tuple[int, str, Surface]]
) -> None:
    """Another principal of the caller's tenant and the caller's namesake in another
    tenant hold beliefs (in every state, at every sensitivity, valid in the past, now or
    later), episodes, traces recalled on every surface, sessions live and ended and queued
    miss hints, written in a random order. Every id-taking call the caller can make on one
    of their ids — through the Python API and the tools, on a wide and a narrow surface —
    returns or fails exactly as it does on an id nobody holds, word for word, and changes
    none of their rows."""
    tenant = f"t-{uuid.uuid4().hex[:10]}"
    holders = [(f"{tenant}{s}", p) for s, p in _HOLDERS]
    me = (tenant, "p1")
    drafts, episodes = [], []
    ids: dict[str, list[str]] = {"belief": [], "episode": [], "trace": [], "session": []}
    for index, spec in enumerate(held):
        bid, eid = f"b-{index}", f"e-{index}"
        ids["belief"].append(bid)
        ids["episode"].append(eid)
        window = {
            "open": {},
            "past": {"valid_from": AS_OF - 10 * DAY, "valid_to": AS_OF - DAY},
            "future": {"valid_from": datetime.now(UTC) + 300 * DAY},
        }[spec["validity"]]
        for holder in sorted(spec["holders"]):
            t, p = holders[holder]
            drafts.append(
                belief(t, p, id=bid, statement=f"Ada deploys billing {index}", subject="ada",
                       entities=["ada", "billing"], sensitivity=spec["sensitivity"],
                       state=spec["state"], scope="project" if spec["project"] else "user",
                       origin_project=spec["project"],
                       superseded_by="b-next" if spec["state"] == "superseded" else None,
                       conflict_set_id="c-1" if spec["state"] == "conflicted" else None,
                       **window)
            )  # fmt: skip
            episodes.append(
                {"tenant_id": t, "principal_id": p, "id": eid, "occurred_at": AS_OF,
                 "content": f"Ada deployed billing {index}", "sensitivity": spec["sensitivity"]}
            )  # fmt: skip
    for t, p in holders:
        drafts.append(belief(t, p, id="b-next", statement="Ada deploys on monday", subject="ada"))
    memory.beliefs.add_many(two_sided(drafts))
    memory.episodes.add_many(episodes)
    # The caller holds a belief, a trace and a session of its own, for the calls that
    # name an id of its own beside the probed one.
    memory.beliefs.add(belief(*me, id="b-mine", statement="Ada deploys billing", subject="ada"))
    policy = patient_policy()
    own = memory.recall(request(*me, "Ada deploys billing"), policy=policy)
    assert own.rendered_ids == ("b-mine",)
    subjects: list[str] = []
    for holder, act, surface in acts:
        t, p = holders[holder]
        goal = {"goal": "Ada deploys billing", "entities": ["ada"]}
        if act in ("recall", "reject", "cite"):
            result = memory.recall(request(t, p, surface=surface, working_state=goal),
                                   policy=policy)  # fmt: skip
            ids["trace"].append(result.trace_id)
            if act != "recall" and result.rendered_ids:
                first = result.rendered_ids[0]
                if act == "cite":
                    memory.cite(t, p, result.trace_id, [first])
                else:
                    memory.reject(t, p, result.trace_id, first, "not_here", project="alpha")
        elif act in ("session", "ended session"):
            session = memory.open_session(t, p, surface=surface, goal=goal, policy=policy)
            ids["session"] += [session.id, session.info.snapshot_trace_id]
            if act == "ended session":
                session.end()
        else:
            subject = f"zebra-{len(subjects)}"
            subjects.append(subject)
            for _ in range(policy.feedback.miss_threshold):
                memory._miss_queue.record_miss(t, p, [subject], at=datetime.now(UTC),
                                               rule=policy.feedback)  # fmt: skip

    wide = Toolset(memory, tenant_id=tenant, principal_id="p1", surface=Surface.VAULT,
                   policy=policy)  # fmt: skip
    narrow = Toolset(memory, tenant_id=tenant, principal_id="p1", surface=Surface.PUBLIC,
                     policy=policy)  # fmt: skip
    by_belief: dict[str, Any] = {
        "get": lambda i: memory.beliefs.get(*me, i),
        "history": lambda i: memory.beliefs.history(*me, i),
        "excluded": lambda i: memory.corrections.excluded_projects(*me, i),
        "retract": lambda i: memory.retract(*me, i, "why"),
        "retire": lambda i: memory.retire(*me, i, "why"),
        "expire": lambda i: memory.expire(*me, i, AS_OF),
        "corroborate": lambda i: memory.corroborate(*me, i, "beta", "e-0"),
        "forget_belief": lambda i: memory.forget_belief(*me, i),
        "supersede": lambda i: memory.supersede(i, belief(*me, id="b-succ", subject="ada")),
        "cite": lambda i: memory.cite(*me, own.trace_id, [i]),
        "reject": lambda i: memory.reject(*me, own.trace_id, i, "changed", replacement="new"),
        "unflag": lambda i: memory.unflag(*me, i),
        "unflag from a trace": lambda i: memory.unflag(*me, i, trace_id=own.trace_id),
    }
    by_episode: dict[str, Any] = {
        "episode": lambda i: memory.episodes.get(*me, i),
        "forget_episode": lambda i: memory.forget_episode(*me, i),
    }
    by_trace: dict[str, Any] = {
        "trace": lambda i: memory.trace(*me, i),
        "explain": lambda i: memory.explain(*me, i, viewer_surface=Surface.PUBLIC),
        "cite": lambda i: memory.cite(*me, i, ["b-mine"]),
        "reject": lambda i: memory.reject(*me, i, "b-mine", "not_here", project="alpha"),
        "unflag": lambda i: memory.unflag(*me, "b-mine", trace_id=i),
    }
    by_session: dict[str, Any] = {
        "resume": lambda i: memory.resume_session(*me, i),
        "end": lambda i: memory.end_session(*me, i, at=AS_OF),
        "recall naming it": lambda i: (
            memory.recall(request(*me, "Ada", session_id=i), policy=policy).rendered_ids
        ),
    }
    for tools in (wide, narrow):
        by_belief[f"{tools.surface} history"] = lambda i, ts=tools: ts.call(
            "belief_history", {"belief_id": i}
        )
        by_belief[f"{tools.surface} cite"] = lambda i, ts=tools: ts.call(
            "cite", {"trace_id": own.trace_id, "belief_ids": [i]}
        )
        by_trace[f"{tools.surface} explain"] = lambda i, ts=tools: ts.call(
            "explain_recall", {"trace_id": i}
        )
        by_trace[f"{tools.surface} reject"] = lambda i, ts=tools: ts.call(
            "reject_belief", {"trace_id": i, "belief_id": "b-mine", "kind": "unspecified"}
        )
        by_trace[f"{tools.surface} unflag"] = lambda i, ts=tools: ts.call(
            "unflag_belief", {"trace_id": i, "belief_id": "b-mine"}
        )
        by_session[f"{tools.surface} turn"] = lambda i, ts=tools: ts.call(
            "session_recall", {"session_id": i, "goal": "Ada"}
        )
    by_subject: dict[str, Any] = {"ack": lambda s: memory.miss_hints.ack(*me, s)}
    probes = [
        (by_belief, ids["belief"] + ["b-next"]),
        (by_episode, ids["episode"]),
        (by_trace, ids["trace"] + ids["session"][1::2]),
        (by_session, ids["session"][0::2]),
        (by_subject, subjects),
    ]
    before = _rows_by_owner(memory, tenant)
    for calls, theirs in probes:
        for name, call in calls.items():
            for foreign in theirs:
                # A missing id of the same shape: a generated id with other digits.
                generated = _GENERATED_ID.fullmatch(foreign)
                missing = foreign.split("-")[0] + "-" + "0" * 16 if generated else f"{foreign}-x"
                assert _outcome(call, foreign) == _outcome(call, missing), (name, foreign)
    after = _rows_by_owner(memory, tenant)
    assert {o: after[o] for o in _OWNERS if o != ("", "p1")} == {
        o: before[o] for o in _OWNERS if o != ("", "p1")
    }


# --- what a session's corrections quote ------------------------------------------------------

successor_spec = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["supersede", "conflict"]),
        "target": st.integers(0, 3),  # which snapshot belief it changes
        "sensitivity": st.integers(0, 3),
        "project": st.sampled_from([None, "alpha", "beta"]),
        "portability": st.sampled_from(["portable", "contextual", "local"]),
        "not_here": st.booleans(),  # rejected as not here in the session's project
    }
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    surface=st.sampled_from(list(Surface)),
    project=st.sampled_from([None, "alpha", "beta"]),
    changes=st.lists(successor_spec, min_size=1, max_size=4),
)
def test_a_sessions_corrections_quote_only_what_a_recall_there_would_show(
    memory: Memory,
    surface: Surface,
    project: str | None,
    changes: list[dict[str, Any]],
) -> None:
    """After a session opens, its snapshot beliefs are superseded by, or put in conflict
    with, beliefs at any sensitivity, of any project and portability, some rejected as not
    holding in the session's project. A turn's corrections section names every change,
    and quotes (as a replacement or another member) only a belief a recall of the
    session would show: within its surface's ceiling, not local to another project, not
    rejected there."""
    tenant = f"t-{uuid.uuid4().hex[:10]}"
    words = ["answers", "tests", "commits", "editor"]
    memory.beliefs.add_many(
        [
            belief(tenant, id=f"p-{i}", statement=f"The user prefers short {w}.",
                   subject=f"p-{i}", belief_type="preference", source_authority="user_stated",
                   confidence=0.9, sensitivity="public")
            for i, w in enumerate(words)
        ]
    )  # fmt: skip
    session = memory.open_session(tenant, "p1", surface=surface, project=project)
    assert set(session.snapshot_ids) == {f"p-{i}" for i in range(len(words))}
    ceiling = SURFACE_CEILINGS[surface]
    quotable: set[str] = set()
    for n, change in enumerate(changes):
        target = f"p-{change['target']}"
        new_id = f"q-{n}"
        scoped = change["project"] is not None
        statement = f"Now the user prefers long {words[change['target']]} {n}."
        draft = belief(
            tenant, id=new_id, statement=statement,
            subject=target, belief_type="preference", source_authority="user_stated",
            confidence=0.9, sensitivity=change["sensitivity"],
            scope="project" if scoped else "user", origin_project=change["project"],
            **({"portability": change["portability"]} if scoped else {}),
        )  # fmt: skip
        if change["kind"] == "supersede":
            current = memory.beliefs.get(tenant, "p1", target)
            if current.state is not LifecycleState.ACTIVE:
                continue
            memory.supersede(target, draft)
        else:
            memory.beliefs.add(draft)
            # By hand: while the target is not active, the draft is a side alone (a write
            # refuses a conflict of one).
            RowEdits(memory.pool, tenant, "p1").conflict(draft["id"], f"cs-{target}")
            if memory.beliefs.get(tenant, "p1", target).state is LifecycleState.ACTIVE:
                RowEdits(memory.pool, tenant, "p1").conflict(target, f"cs-{target}")
        if change["not_here"] and project is not None:
            shown = memory.recall(
                request(tenant, "p1", draft["statement"], surface=Surface.VAULT,
                        project=project, working_state={"entities": [target]}),
                policy=patient_policy(),
            )  # fmt: skip
            if new_id not in shown.rendered_ids:
                continue  # not shown there in the first place
            memory.reject(tenant, "p1", shown.trace_id, new_id, "not_here", project=project)
            continue
        local_elsewhere = (
            scoped and change["portability"] == "local" and change["project"] != project
        )
        if change["sensitivity"] <= ceiling and not local_elsewhere:
            quotable.add(new_id)
    turn = session.recall({"goal": "what the user prefers"})
    quoted = {
        peer.belief_id
        for c in turn.trace.corrections
        for peer in (*((c.replacement,) if c.replacement else ()), *c.peers)
    }
    assert quoted <= quotable, (quoted - quotable, turn.block)
    for belief_id in {f"q-{n}" for n in range(len(changes))} - quotable:
        assert f"[{belief_id}]" not in turn.block, turn.block
