"""Hostile input at every entry point, on the real embedded server (property-based).

Every field of every draft (belief, episode, edge), of a recall request and its working
state, of a session's open arguments, of the corrections (reject, cite, retract, expire,
forget) and of every tool's arguments gets values of the wrong type, out of range, with
NUL bytes, lone surrogates, zero-width characters, huge strings, naive and aware
datetimes, inf and NaN, and SQL and tsquery metacharacters. The property: the call either
succeeds and what it wrote reads back equal, or raises a typed recallflow error that names
the field, having written nothing (rows counted before and after). No other exception
may escape; a tool call never raises and never answers with an internal error.

``RECALLFLOW_FUZZ_EXAMPLES`` raises the number of examples per property (the suite runs a
modest number by default), and ``RECALLFLOW_FUZZ_TALLY`` names a JSON file the outcomes are
tallied into (``benchmarks/fuzz_tally.py`` runs both).
"""

from __future__ import annotations

import itertools
import json
import os
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from recallflow import Memory, RecallflowError
from recallflow.errors import ConflictError, InvalidInputError, StoreUnavailableError
from recallflow.models.request import EpisodeSearchRequest, RecallRequest, WorkingState
from recallflow.models.store import BeliefDraft, BeliefEdge, EpisodeDraft
from recallflow.tools import Toolset
from recallflow.tools.toolset import TOOLS
from tests.helpers import RECORDED, BrokenZone, belief, request

EXAMPLES = int(os.environ.get("RECALLFLOW_FUZZ_EXAMPLES", "30"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
#: The tables a write may touch; a refused call must leave every count as it was.
TABLES = (
    "beliefs",
    "episodes",
    "belief_edges",
    "belief_events",
    "belief_exclusions",
    "feedback_events",
    "recall_traces",
    "sessions",
    "miss_hints",
)
#: Outcomes per entry point: "ok", "typed", "raw" (a test failure), "partial" (idem).
TALLY: Counter[tuple[str, str]] = Counter()
_ids = itertools.count()

# --- hostile values ----------------------------------------------------------------------

_SPECIAL_TEXT = (
    "",
    " ",
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfffy",
    "\u200b",
    "\u200b\u200c\u200d\ufeff\u2060",
    "\u00a0\u3000\t\n",
    "\u0301\u0302",
    "'",
    "' OR '1'='1",
    "'; DROP TABLE beliefs; --",
    "a & b | !c",
    "foo:* & !bar",
    "(a <-> b) | (c <2> d)",
    "!!!",
    ":*",
    "-- comment",
    "$$ $tag$",
    "\\",
    "%s %(x)s {}",
    "İ" * 150,
    "x" * 201,
    "y" * 4_001,
    "z" * 100_001,
    "Invoices are stored in cents.",
    "k1",
    " k1 ",
)
_CHARS = st.one_of(
    st.characters(),
    st.characters(categories=["Cs"]),
    st.sampled_from("\x00\u200b\ufeff'&|!:*()-;<>%\\"),
)
TEXT = st.one_of(st.sampled_from(_SPECIAL_TEXT), st.text(_CHARS, max_size=40))
KEYS = st.one_of(
    st.sampled_from(("k1", " k1 ", "k/1:2@x.y-z", "a" * 200, "a" * 201, "a b", "-k", "K_1")),
    TEXT,
)
NUMBERS = st.one_of(
    st.sampled_from((0, 1, -1, 2**31 - 1, 2**31, 2**63, -(2**63) - 1, 0.5, -0.0, 5e-324)),
    st.integers(),
    st.floats(),
    st.booleans(),
)
_ZONES = st.sampled_from(
    (
        UTC,
        timezone(timedelta(hours=14)),
        timezone(-timedelta(hours=12)),
        timezone(timedelta(minutes=330)),
    )
)
DATES = st.one_of(
    st.datetimes(),  # naive
    st.datetimes(timezones=_ZONES),
    st.sampled_from(
        (
            datetime.min,
            datetime.max,
            datetime.min.replace(tzinfo=UTC),
            datetime.max.replace(tzinfo=UTC),
            datetime.min.replace(tzinfo=timezone(timedelta(hours=5))),
            "2025-01-01T00:00:00Z",
            "2025-01-01",
            "not a date",
            1_700_000_000,
        )
    ),
)
#: Times whose timezone cannot tell its offset (it raises, or answers with no timedelta).
#: Built, not sampled: Hypothesis hashes what it samples, and a hash asks the offset (as
#: an enum field's look-up does, so the enum fields get them too).
BROKEN_TIMES = st.builds(
    lambda answer: datetime(2025, 1, 1, tzinfo=BrokenZone(answer)),
    st.sampled_from((RuntimeError("no tz database"), "+02:00")),
)
#: The time fields' values: the above, and times that cannot tell their offset.
TIMES = st.one_of(DATES, BROKEN_TIMES)
ANYTHING = st.one_of(
    TEXT,
    NUMBERS,
    DATES,
    st.none(),
    st.lists(TEXT, max_size=3),
    st.dictionaries(TEXT, TEXT, max_size=2),
)


def _enum(*names: str) -> st.SearchStrategy[Any]:
    return st.one_of(st.sampled_from(names), ANYTHING, BROKEN_TIMES)


def _texts(max_size: int = 4) -> st.SearchStrategy[Any]:
    return st.one_of(st.lists(TEXT, max_size=max_size), st.lists(TEXT, min_size=65, max_size=66))


# Per field: plausible values (so that some calls succeed) mixed with anything at all.
BELIEF_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "id": KEYS,
    "tenant_id": KEYS,
    "principal_id": KEYS,
    "statement": TEXT,
    "subject": TEXT,
    "entities": _texts(),
    "belief_type": _enum("fact", "preference", "user_model", "procedure", "environment"),
    "scope": _enum("user", "project"),
    "origin_project": KEYS,
    "portability": _enum("portable", "contextual", "local"),
    "state": _enum("active", "provisional", "superseded", "expired", "retired", "conflicted"),
    "confidence": NUMBERS,
    "valid_from": TIMES,
    "valid_to": TIMES,
    "recorded_at": TIMES,
    "retracted_at": TIMES,
    "sensitivity": st.one_of(_enum("public", "internal", "personal", "secret"), NUMBERS),
    "source_authority": _enum("user_stated", "user_confirmed", "observed", "inferred"),
    "source_episode_id": KEYS,
    "corroboration_count": NUMBERS,
    "corroborating_projects": st.lists(KEYS, max_size=3),
    "last_corroborated_at": TIMES,
    "utility": NUMBERS,
    "last_reinforced_at": TIMES,
    "flagged": st.one_of(st.booleans(), ANYTHING),
    "supersedes": KEYS,
    "superseded_by": KEYS,
    "conflict_set_id": KEYS,
    "embedding": st.one_of(
        st.lists(st.floats(width=32), min_size=3, max_size=3), st.none(), ANYTHING
    ),
}
EPISODE_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "id": KEYS,
    "tenant_id": KEYS,
    "principal_id": KEYS,
    "project": KEYS,
    "session_id": KEYS,
    "occurred_at": TIMES,
    "kind": _enum("message", "tool_call", "observation", "summary", "correction"),
    "content": TEXT,
    "sensitivity": st.one_of(_enum("public", "secret"), NUMBERS),
    "recorded_at": TIMES,
}
EDGE_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "tenant_id": KEYS,
    "principal_id": KEYS,
    "src_id": KEYS,
    "dst_id": KEYS,
    "relation": _enum("related", "refines", "depends_on", "contradicts"),
    "weight": NUMBERS,
}
STATE_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "goal": TEXT,
    "query": TEXT,
    "entities": _texts(),
    "files": _texts(),
    "tools": _texts(),
    "recent_turns": st.one_of(_texts(), st.lists(TEXT, min_size=17, max_size=17)),
}
REQUEST_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "tenant_id": KEYS,
    "principal_id": KEYS,
    "working_state": st.one_of(st.fixed_dictionaries({}, optional=STATE_FIELDS), ANYTHING),
    "moment": _enum("in_turn", "session_snapshot", "child_run"),
    "surface": _enum("direct", "team", "public", "vault"),
    "project": KEYS,
    "session_id": KEYS,
    "as_of": TIMES,
    "known_as_of": TIMES,
    "max_items": NUMBERS,
    "max_tokens": NUMBERS,
    "model_window": NUMBERS,
}
SESSION_ARGS: dict[str, st.SearchStrategy[Any]] = {
    "tenant_id": KEYS,
    "principal_id": KEYS,
    "surface": _enum("direct", "team", "public", "vault"),
    "project": KEYS,
    "kind": _enum("interactive", "async", "child"),
    "goal": st.one_of(st.fixed_dictionaries({}, optional=STATE_FIELDS), ANYTHING),
    "model_window": NUMBERS,
}


def test_every_field_of_every_input_model_is_fuzzed() -> None:
    """A field added to a model must be added here too, or this suite stops covering it."""
    assert set(BELIEF_FIELDS) == set(BeliefDraft.model_fields)
    assert set(EPISODE_FIELDS) == set(EpisodeDraft.model_fields)
    assert set(EDGE_FIELDS) == set(BeliefEdge.model_fields)
    assert set(STATE_FIELDS) == set(WorkingState.model_fields)
    assert set(REQUEST_FIELDS) == set(RecallRequest.model_fields)


def mutations(fields: Mapping[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """One to three fields of ``fields`` set to hostile values."""
    return st.lists(st.sampled_from(sorted(fields)), min_size=1, max_size=3, unique=True).flatmap(
        lambda names: st.fixed_dictionaries({n: fields[n] for n in names})
    )


# --- the property ------------------------------------------------------------------------


def _counts(memory: Memory) -> dict[str, int]:
    query = "SELECT " + ", ".join(f"(SELECT count(*) FROM {t})" for t in TABLES)
    with memory.pool.connection() as conn:
        row = conn.execute(query).fetchone()
    assert row is not None
    return dict(zip(TABLES, map(int, row), strict=True))


def _names_a_field(exc: RecallflowError, fields: Mapping[str, Any]) -> bool:
    """The error names one of the fields set (or a field one of them is checked against),
    or an entry of a list it set: one id of ``belief_ids`` is named as the ``belief_id``
    it is, with the id (a citation of a belief its trace did not render)."""
    if not isinstance(exc, InvalidInputError):
        return True  # NotFoundError etc. name the id in their message
    text = f"{exc.field or ''} {exc}"
    entry = any(
        exc.field == name.removesuffix("s") and exc.item_id in value
        for name, value in fields.items()
        if isinstance(value, list | tuple)
    )
    return exc.field is not None and (entry or any(name in text for name in fields))


def outcome(
    entry: str,
    memory: Memory,
    fields: Mapping[str, Any],
    call: Callable[[], Any],
    round_trip: Callable[[Any], None],
) -> None:
    """Run ``call``: success must round-trip; a refusal must be typed, name a field of
    ``fields`` and leave every table as it was. Tallies the outcome under ``entry``."""
    before = _counts(memory)
    try:
        value = call()
    except RecallflowError as exc:
        assert not isinstance(exc, StoreUnavailableError), exc
        after = _counts(memory)
        if after != before:
            TALLY[entry, "partial"] += 1
        assert after == before, f"{exc!r} left rows behind"
        assert _names_a_field(exc, fields), f"{exc!r} names none of {sorted(fields)}"
        TALLY[entry, "typed"] += 1
        return
    except Exception:
        TALLY[entry, "raw"] += 1
        raise
    round_trip(value)
    TALLY[entry, "ok"] += 1


@pytest.fixture(scope="module")
def fuzz_tenant(memory: Memory) -> Iterator[str]:
    """A tenant of this module, with a trace that rendered a belief (for corrections)."""
    tenant = f"t-fuzz-{uuid.uuid4().hex[:8]}"
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-src", statement="Invoices are stored in cents.", subject="money"),
            belief(tenant, id="b-dst", statement="Totals are rounded half up.", subject="money"),
        ]
    )
    yield tenant
    if path := os.environ.get("RECALLFLOW_FUZZ_TALLY"):
        with open(path, "w") as out:
            json.dump([[e, o, n] for (e, o), n in sorted(TALLY.items())], out)


# --- drafts -----------------------------------------------------------------------------


@FUZZ
@given(changes=mutations(BELIEF_FIELDS))
def test_belief_drafts(memory: Memory, fuzz_tenant: str, changes: dict[str, Any]) -> None:
    data = {**belief(fuzz_tenant, id=f"b-fuzz-{next(_ids)}", statement="A fuzzed fact."), **changes}

    def round_trip(stored: list[Any]) -> None:
        draft = BeliefDraft.model_validate(data)
        back = memory.beliefs.get(stored[0].tenant_id, stored[0].principal_id, stored[0].id)
        assert back.model_dump() == stored[0].model_dump()
        if "id" in changes:
            return  # an id stored before answers with the stored belief (idempotent add)
        for name in BeliefDraft.model_fields:
            if name in ("id", "embedding") or name not in changes:
                continue
            if name in ("state", "superseded_by"):
                continue  # a later supersession may change them
            assert getattr(back, name) == getattr(draft, name), name

    outcome("beliefs.add", memory, changes, lambda: memory.beliefs.add_many([data]), round_trip)


@FUZZ
@given(changes=mutations(BELIEF_FIELDS), position=st.integers(0, 2))
def test_belief_batches_name_the_item(
    memory: Memory, fuzz_tenant: str, changes: dict[str, Any], position: int
) -> None:
    batch = [belief(fuzz_tenant, id=f"b-fuzz-{next(_ids)}", subject="batch") for _ in range(3)]
    batch[position] = {**batch[position], **changes}

    def round_trip(stored: list[Any]) -> None:
        assert len(stored) == 3
        for b in stored:
            assert memory.beliefs.get(b.tenant_id, b.principal_id, b.id).model_dump() == (
                b.model_dump()
            )

    def call() -> Any:
        try:
            return memory.beliefs.add_many(batch)
        except InvalidInputError as exc:
            if exc.item_index is not None:
                assert exc.item_index == position, exc
            raise

    outcome("beliefs.add_many", memory, changes, call, round_trip)


@FUZZ
@given(changes=mutations(EPISODE_FIELDS))
def test_episode_drafts(memory: Memory, fuzz_tenant: str, changes: dict[str, Any]) -> None:
    data = {
        "tenant_id": fuzz_tenant,
        "principal_id": "p1",
        "id": f"e-fuzz-{next(_ids)}",
        "occurred_at": RECORDED,
        "content": "The user asked about invoices.",
        **changes,
    }

    def round_trip(stored: list[Any]) -> None:
        e = stored[0]
        back = memory.episodes.get(e.tenant_id, e.principal_id, e.id)
        assert back.model_dump() == e.model_dump()
        draft = EpisodeDraft.model_validate(data)
        for name in changes:
            if name not in ("id", "recorded_at"):
                assert getattr(back, name) == getattr(draft, name), name

    outcome("episodes.add", memory, changes, lambda: memory.episodes.add_many([data]), round_trip)


@FUZZ
@given(changes=mutations(EDGE_FIELDS))
def test_edges(memory: Memory, fuzz_tenant: str, changes: dict[str, Any]) -> None:
    n = next(_ids)  # fresh ends, so the base edge is never already stored
    memory.beliefs.add_many(
        [belief(fuzz_tenant, id=f"b-src-{n}"), belief(fuzz_tenant, id=f"b-dst-{n}")]
    )
    data = {
        "tenant_id": fuzz_tenant,
        "principal_id": "p1",
        "src_id": f"b-src-{n}",
        "dst_id": f"b-dst-{n}",
        "relation": "related",
        "weight": 0.5,
        **changes,
    }

    def round_trip(stored: list[Any]) -> None:
        e = stored[0]
        with memory.pool.connection() as conn:
            row = conn.execute(
                "SELECT weight FROM belief_edges WHERE tenant_id = %s AND principal_id = %s"
                " AND src_id = %s AND dst_id = %s AND relation = %s",
                (e.tenant_id, e.principal_id, e.src_id, e.dst_id, e.relation.value),
            ).fetchone()
        assert row is not None and row[0] == e.weight
        # Stored once: the same edge again is a no-op, with another weight a typed conflict.
        memory.edges.add(data)
        with pytest.raises(ConflictError):
            memory.edges.add({**data, "weight": 0.25 if e.weight != 0.25 else 0.75})
        with memory.pool.connection() as conn:
            again = conn.execute(
                "SELECT count(*), min(weight) FROM belief_edges WHERE tenant_id = %s"
                " AND principal_id = %s AND src_id = %s AND dst_id = %s AND relation = %s",
                (e.tenant_id, e.principal_id, e.src_id, e.dst_id, e.relation.value),
            ).fetchone()
        assert again == (1, e.weight)

    outcome("edges.add", memory, changes, lambda: memory.edges.add_many([data]), round_trip)


# --- recall and sessions -----------------------------------------------------------------


def _stored_trace_matches(memory: Memory) -> Callable[[Any], None]:
    def round_trip(result: Any) -> None:
        stored = memory.trace(result.trace.tenant_id, result.trace.principal_id, result.trace_id)
        assert stored.rendered_sha256 == result.rendered_sha256
        assert stored.rendered_ids == result.rendered_ids

    return round_trip


@FUZZ
@given(changes=mutations(REQUEST_FIELDS))
def test_recall_requests(memory: Memory, fuzz_tenant: str, changes: dict[str, Any]) -> None:
    data = {**request(fuzz_tenant, goal="How are invoices stored?"), **changes}
    outcome("recall", memory, changes, lambda: memory.recall(data), _stored_trace_matches(memory))


@FUZZ
@given(changes=mutations(STATE_FIELDS))
def test_working_states(memory: Memory, fuzz_tenant: str, changes: dict[str, Any]) -> None:
    data = request(fuzz_tenant, working_state=changes)
    outcome(
        "recall.working_state",
        memory,
        changes,
        lambda: memory.recall(data),
        _stored_trace_matches(memory),
    )


@FUZZ
@given(changes=mutations(SESSION_ARGS))
def test_session_open(memory: Memory, fuzz_tenant: str, changes: dict[str, Any]) -> None:
    args: dict[str, Any] = {"tenant_id": fuzz_tenant, "principal_id": "p1", **changes}

    def round_trip(session: Any) -> None:
        info = session.info
        again = memory.resume_session(info.tenant_id, info.principal_id, session.id)
        assert again.prefix == session.prefix

    outcome("open_session", memory, changes, lambda: memory.open_session(**args), round_trip)


# --- corrections -------------------------------------------------------------------------

CORRECTION_ARGS: dict[str, st.SearchStrategy[Any]] = {
    "tenant_id": KEYS,
    "principal_id": KEYS,
    "trace_id": KEYS,
    "belief_id": KEYS,
    "kind": _enum("not_true", "changed", "not_here", "unspecified"),
    "replacement": st.one_of(mutations(BELIEF_FIELDS), st.none(), ANYTHING),
    "project": KEYS,
    "note": TEXT,
    "belief_ids": st.one_of(st.lists(KEYS, max_size=3), ANYTHING),
    "reason": TEXT,
    "at": TIMES,
}


@FUZZ
@given(
    operation=st.sampled_from(("reject", "cite", "retract", "expire", "history", "forget")),
    changes=mutations(CORRECTION_ARGS),
)
def test_corrections(
    memory: Memory, fuzz_tenant: str, operation: str, changes: dict[str, Any]
) -> None:
    # A principal of its own: the trace renders exactly its one belief.
    n = next(_ids)
    principal, target = f"p-fuzz-{n}", f"b-fuzz-{n}"
    memory.beliefs.add(
        belief(fuzz_tenant, principal, id=target, statement="Money is kept in cents.")
    )
    shown = memory.recall(request(fuzz_tenant, principal, goal="money cents"))
    assert shown.rendered_ids == (target,)
    base: dict[str, Any] = {
        "tenant_id": fuzz_tenant,
        "principal_id": principal,
        "trace_id": shown.trace_id,
        "belief_id": target,
        "kind": "unspecified",
        "reason": "wrong",
    }
    if operation == "forget":
        base["tenant_id"] = f"t-fuzz-forget-{next(_ids)}"  # never this module's tenant
    args = {**base, **changes}
    if isinstance(args.get("replacement"), dict):
        args["replacement"] = {
            **belief(fuzz_tenant, principal, id=f"b-fuzz-{next(_ids)}", statement="In euros."),
            **args["replacement"],
        }
    t, p = args["tenant_id"], args["principal_id"]
    calls: dict[str, Callable[[], Any]] = {
        "reject": lambda: memory.reject(
            t,
            p,
            args["trace_id"],
            args["belief_id"],
            args["kind"],
            replacement=args.get("replacement"),
            project=args.get("project"),
            note=args.get("note"),
        ),
        "cite": lambda: memory.cite(t, p, args["trace_id"], args.get("belief_ids", [target])),
        "retract": lambda: memory.retract(t, p, args["belief_id"], args["reason"]),
        "expire": lambda: memory.expire(t, p, args["belief_id"], args.get("at")),
        "history": lambda: memory.beliefs.history(t, p, args["belief_id"]),
        "forget": lambda: memory.forget(t, p),
    }

    def round_trip(value: Any) -> None:
        belief_now = getattr(value, "belief", value)
        if hasattr(belief_now, "statement"):
            stored = memory.beliefs.get(
                belief_now.tenant_id, belief_now.principal_id, belief_now.id
            )
            assert stored.model_dump() == belief_now.model_dump()

    used = {k: v for k, v in changes.items() if k in _USED[operation]}
    if not used:
        return
    outcome(f"corrections.{operation}", memory, used, calls[operation], round_trip)


_USED = {
    "reject": {
        "tenant_id",
        "principal_id",
        "trace_id",
        "belief_id",
        "kind",
        "replacement",
        "project",
        "note",
    },
    "cite": {"tenant_id", "principal_id", "trace_id", "belief_ids"},
    "retract": {"tenant_id", "principal_id", "belief_id", "reason"},
    "expire": {"tenant_id", "principal_id", "belief_id", "at"},
    "history": {"tenant_id", "principal_id", "belief_id"},
    "forget": {"tenant_id", "principal_id"},
}


# --- tools -------------------------------------------------------------------------------

_TOOL_FIELDS = {
    spec.name: {
        name: st.one_of(ANYTHING, KEYS, st.fixed_dictionaries({}, optional=STATE_FIELDS))
        for name in spec.arguments.model_fields
    }
    | {"tenant_id": KEYS, "surface": TEXT}
    for spec in TOOLS
}


@FUZZ
@given(data=st.data(), name=st.sampled_from(sorted(_TOOL_FIELDS)))
def test_tool_calls(memory: Memory, fuzz_tenant: str, data: st.DataObject, name: str) -> None:
    tools = Toolset(memory, tenant_id=fuzz_tenant, principal_id="p1")
    shown = memory.recall(request(fuzz_tenant, goal="invoices cents"))
    rendered = shown.rendered_ids[0] if shown.rendered_ids else "b-src"
    valid: dict[str, dict[str, Any]] = {
        "recall_beliefs": {"query": "How are invoices stored?"},
        "search_episodes": {"query": "invoices"},
        "explain_recall": {"trace_id": shown.trace_id},
        "cite": {"trace_id": shown.trace_id, "belief_ids": [rendered]},
        "reject_belief": {"trace_id": shown.trace_id, "belief_id": rendered, "kind": "unspecified"},
        "unflag_belief": {"trace_id": shown.trace_id, "belief_id": rendered},
        "open_session": {"goal": {"goal": "invoices"}},
        "session_recall": {"session_id": "s-missing", "goal": "invoices"},
        "belief_history": {"belief_id": rendered},
        "resume_session": {"session_id": "s-missing"},
        "report_miss": {"trace_id": shown.trace_id, "expected": "Invoices are PDFs."},
        "log_episode": {"content": "Ada paid the invoice.", "key": "paid"},
        "list_beliefs": {"subject": "invoices", "max_items": 3},
        "list_episodes": {"kind": "message", "since": "2026-01-01T00:00:00Z", "max_items": 3},
    }
    changes = data.draw(mutations(_TOOL_FIELDS[name]))
    arguments = data.draw(st.sampled_from(({**valid[name], **changes}, changes, valid[name])))
    as_json = data.draw(st.booleans())
    payload: Any = arguments
    if as_json:
        try:
            payload = json.dumps(arguments, default=str)
        except (TypeError, ValueError):
            payload = arguments
    before = _counts(memory)
    answer = tools.call(name, payload)
    assert isinstance(answer, dict)
    if "error" in answer:
        assert answer["error"]["type"] != "internal", answer
        assert _counts(memory) == before, answer
        TALLY[f"tool.{name}", "typed"] += 1
    else:
        TALLY[f"tool.{name}", "ok"] += 1


def _unreadable_json() -> st.SearchStrategy[str]:
    """JSON text that is valid JSON, yet may be more than Python's parser reads: nesting
    past its recursion limit, an integer past the digits it converts (4,300); or either
    just short of it. No tool takes any of them (three levels deep, or a number where
    none is taken)."""
    shapes = (
        ("[", "]"),
        ('{"goal": ', "}"),
        ('{"entities": [', "]}"),
        ('{"recent_turns": [{"goal": ', "}]}"),
    )
    nested = st.tuples(st.sampled_from(shapes), st.integers(3, 100_000)).map(
        lambda drawn: drawn[0][0] * drawn[1] + '"invoices"' + drawn[0][1] * drawn[1]
    )
    field = st.sampled_from(("goal", "trace_id", "belief_ids", "as_of", "kind"))
    numeral = st.tuples(field, st.integers(1, 20_000), st.booleans()).map(
        lambda drawn: f'{{"{drawn[0]}": {"-" if drawn[2] else ""}{"9" * drawn[1]}}}'
    )
    return st.one_of(nested, numeral)


@FUZZ
@given(text=_unreadable_json(), name=st.sampled_from(sorted(spec.name for spec in TOOLS)))
def test_json_the_parser_cannot_read_is_an_arguments_error(
    memory: Memory, fuzz_tenant: str, text: str, name: str
) -> None:
    """Arguments as JSON text a model may write: nested deeper than Python's parser
    recurses, or a number of more digits than it converts. Each is an arguments error,
    never the parser's exception out of the call."""
    tools = Toolset(memory, tenant_id=fuzz_tenant, principal_id="p1")
    before = _counts(memory)
    answer = tools.call(name, text)
    assert answer.get("error", {}).get("type") == "invalid_arguments", answer
    assert _counts(memory) == before
    TALLY[f"json.tool.{name}", "typed"] += 1


# --- values of another kind --------------------------------------------------------------
#
# pydantic's lax mode would take ``True`` for a cap of 1, "5" for 5, 0 or "no" for a false
# flag, 1700000000 for a time in 2023, b"k1" for text and a set for a list in whatever
# order it iterates. Every such value is refused, naming the field, and writes nothing.
# The fields and their kinds are read from each model's JSON schema (what a caller reads),
# not from the code that checks them.


def _schema_kinds(
    schema: dict[str, Any], defs: dict[str, Any], prefix: str = ""
) -> Iterator[tuple[str, str, Any]]:
    """(dotted path, kind, a valid example) of every scalar and list field of ``schema``,
    nested models included."""
    for name, prop in schema.get("properties", {}).items():
        arms = [a for a in prop.get("anyOf", [prop]) if a.get("type") != "null"]
        if len(arms) != 1:
            continue
        arm = arms[0]
        if "$ref" in arm:
            arm = defs[arm["$ref"].rsplit("/", 1)[-1]]
            if "properties" in arm:
                yield from _schema_kinds(arm, defs, f"{prefix}{name}.")
                continue
        kind = {"integer": "number", "number": "number", "boolean": "flag", "array": "list"}.get(
            arm.get("type", ""), "text"
        )
        if arm.get("format") == "date-time":
            kind = "time"
        elif "enum" in arm:
            kind = "level" if arm.get("type") == "integer" else "enum"
        elif kind == "list" and arm.get("items", {}).get("type") in ("number", "integer"):
            kind = "numbers"
        elif arm.get("type") not in ("integer", "number", "boolean", "array", "string"):
            continue
        yield f"{prefix}{name}", kind, (arm.get("enum") or ["k1"])[0]


_NUMERALS = st.integers(0, 2**31).map(str)
#: Values of another kind than each kind's, as (strategy, writable in JSON).
_OTHER_KIND: dict[str, list[tuple[Callable[[Any], st.SearchStrategy[Any]], bool]]] = {
    "number": [
        (lambda _: st.booleans(), True),
        (lambda _: st.integers(0, 99).map(str), True),
        (lambda _: st.just(b"5"), False),
    ],
    "flag": [
        (lambda _: st.integers(0, 1), True),
        (lambda _: st.floats(0, 1), True),
        (lambda _: st.sampled_from(("true", "false", "yes", "no", "on", "off", "0", "1")), True),
    ],
    "time": [
        (lambda _: st.integers(0, 2**31), True),
        (lambda _: st.floats(0, 2e9), True),
        (lambda _: _NUMERALS, True),
        (lambda _: st.booleans(), True),
        (lambda _: st.just(b"2025-01-01T00:00:00Z"), False),
    ],
    "text": [(lambda example: st.just(str(example).encode()), False)],
    "enum": [(lambda example: st.just(str(example).encode()), False)],
    "level": [(lambda _: st.booleans(), True)],
    "list": [
        (lambda _: st.frozensets(st.sampled_from(("k1", "k2")), min_size=1), False),
        (lambda _: st.sets(st.sampled_from(("k1", "k2")), min_size=1), False),
    ],
    "numbers": [(lambda _: st.lists(st.booleans(), min_size=1, max_size=3), True)],
}


def _other_kind(kind: str, example: Any, *, json_only: bool) -> st.SearchStrategy[Any]:
    ways = [make(example) for make, in_json in _OTHER_KIND[kind] if in_json or not json_only]
    return st.one_of(ways) if ways else st.nothing()


def _with(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """``data`` with the field at dotted ``path`` set to ``value`` (nested dicts copied)."""
    head, _, rest = path.partition(".")
    if not rest:
        return {**data, head: value}
    return {**data, head: _with(dict(data.get(head) or {}), rest, value)}


def _model_kinds(model: type[Any], prefix: str = "") -> list[tuple[str, str, Any]]:
    schema = model.model_json_schema()
    return list(_schema_kinds(schema, schema.get("$defs", {}), prefix))


#: Each Python entry point: the fields it takes, a valid call's data, and the call.
_KIND_ENTRIES: dict[str, tuple[list[tuple[str, str, Any]], Callable[..., Any]]] = {
    "recall": (_model_kinds(RecallRequest), lambda m, d: m.recall(d)),
    "search_episodes": (_model_kinds(EpisodeSearchRequest), lambda m, d: m.search_episodes(d)),
    "beliefs.add_many": (_model_kinds(BeliefDraft), lambda m, d: m.beliefs.add_many([d])),
    "episodes.add_many": (_model_kinds(EpisodeDraft), lambda m, d: m.episodes.add_many([d])),
    "edges.add_many": (_model_kinds(BeliefEdge), lambda m, d: m.edges.add_many([d])),
    "open_session.goal": (
        _model_kinds(WorkingState, "goal."),
        lambda m, d: m.open_session(d["tenant_id"], d["principal_id"], goal=d["goal"]),
    ),
}


def _valid_call(entry: str, memory: Memory, tenant: str) -> dict[str, Any]:
    n = next(_ids)
    if entry == "recall":
        return request(tenant, goal="How are invoices stored?")
    if entry == "search_episodes":
        return {"tenant_id": tenant, "principal_id": "p1", "query": "invoices"}
    if entry == "beliefs.add_many":
        return belief(tenant, id=f"b-kind-{n}", statement="A fact of its kind.")
    if entry == "episodes.add_many":
        return {"tenant_id": tenant, "principal_id": "p1", "id": f"e-kind-{n}",
                "occurred_at": RECORDED, "content": "The user asked about invoices."}  # fmt: skip
    if entry == "edges.add_many":
        memory.beliefs.add_many([belief(tenant, id=f"b-ks-{n}"), belief(tenant, id=f"b-kd-{n}")])
        return {"tenant_id": tenant, "principal_id": "p1", "src_id": f"b-ks-{n}",
                "dst_id": f"b-kd-{n}", "weight": 0.5}  # fmt: skip
    return {"tenant_id": tenant, "principal_id": "p1", "goal": {"goal": "invoices"}}


def test_every_entry_point_has_fields_of_each_kind_to_fuzz() -> None:
    kinds = {kind for fields, _ in _KIND_ENTRIES.values() for _, kind, _ in fields}
    assert kinds == set(_OTHER_KIND)  # every kind is reached by some entry point
    assert ("as_of", "time", "k1") in _KIND_ENTRIES["recall"][0]
    assert ("working_state.entities", "list", "k1") in _KIND_ENTRIES["recall"][0]


@FUZZ
@given(data=st.data(), entry=st.sampled_from(sorted(_KIND_ENTRIES)))
def test_a_value_of_another_kind_is_refused_not_converted(
    memory: Memory, fuzz_tenant: str, data: st.DataObject, entry: str
) -> None:
    fields, call = _KIND_ENTRIES[entry]
    path, kind, example = data.draw(st.sampled_from(fields), label="field")
    value = data.draw(_other_kind(kind, example, json_only=False), label="value")
    args = _with(_valid_call(entry, memory, fuzz_tenant), path, value)
    before = _counts(memory)
    with pytest.raises(InvalidInputError) as refused:
        call(memory, args)
    field = refused.value.field or ""
    assert field == path or field.startswith(f"{path}."), refused.value
    assert _counts(memory) == before
    TALLY[f"kind.{entry}", "typed"] += 1


@FUZZ
@given(data=st.data(), name=st.sampled_from(sorted(spec.name for spec in TOOLS)))
def test_a_tool_argument_of_another_kind_is_refused_not_converted(
    memory: Memory, fuzz_tenant: str, data: st.DataObject, name: str
) -> None:
    """Over JSON (the tools, hence MCP): a boolean or numeric text for a number, a number for
    a flag, a number or numeric text for a time; a time as ISO text stays accepted."""
    spec = next(s for s in TOOLS if s.name == name)
    fields = [f for f in _model_kinds(spec.arguments) if any(j for _, j in _OTHER_KIND[f[1]])]
    if not fields:
        return
    path, kind, example = data.draw(st.sampled_from(fields), label="field")
    value = data.draw(_other_kind(kind, example, json_only=True), label="value")
    tools = Toolset(memory, tenant_id=fuzz_tenant, principal_id="p1")
    before = _counts(memory)
    answer = tools.call(name, json.dumps(_with({}, path, value)))
    assert answer.get("error", {}).get("type") == "invalid_arguments", answer
    assert answer["error"]["field"] == path or answer["error"]["field"].startswith(f"{path}.")
    assert _counts(memory) == before
    TALLY[f"kind.tool.{name}", "typed"] += 1


def test_a_time_as_iso_text_is_still_taken_over_json(memory: Memory, fuzz_tenant: str) -> None:
    tools = Toolset(memory, tenant_id=fuzz_tenant, principal_id="p1")
    when = "2025-06-01T12:00:00+02:00"
    for name, args in (("recall_beliefs", {"query": "invoices"}),
                       ("search_episodes", {"query": "invoices"})):  # fmt: skip
        answer = tools.call(name, json.dumps({**args, "as_of": when}))
        assert "error" not in answer, answer
    result = memory.recall({**request(fuzz_tenant, goal="invoices"), "as_of": when})
    assert result.trace.as_of == datetime(2025, 6, 1, 10, tzinfo=UTC)


def test_a_policy_number_or_switch_of_another_kind_is_refused() -> None:
    """A policy is built in Python: a cap of True, a switch of "false", a set of arms."""

    from recallflow.policy import DEFAULT_POLICY, Budget

    for update in ({"rrf_k": True}, {"rrf_k": "60"}, {"graph_expansion": "false"},
                   {"cross_project": 0}, {"arms": set(DEFAULT_POLICY.arms)}):  # fmt: skip
        with pytest.raises(ValidationError) as refused:
            DEFAULT_POLICY.model_copy(update=update)
        assert refused.value.errors()[0]["loc"][0] in update
    with pytest.raises(ValidationError):
        Budget(max_items=True, max_tokens=600)


# --- an input model edited with model_copy ---------------------------------------------

SEARCH_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "tenant_id": KEYS,
    "principal_id": KEYS,
    "query": TEXT,
    "surface": _enum("direct", "team", "public", "vault"),
    "since": TIMES,
    "as_of": TIMES,
    "known_as_of": TIMES,
    "max_items": NUMBERS,
    "max_tokens": NUMBERS,
    "model_window": NUMBERS,
}
#: Each entry point that takes an input model's instance: the model and its fields.
_MODEL_ENTRIES: dict[str, tuple[type[Any], dict[str, st.SearchStrategy[Any]]]] = {
    "recall": (RecallRequest, REQUEST_FIELDS),
    "search_episodes": (EpisodeSearchRequest, SEARCH_FIELDS),
    "beliefs.add_many": (BeliefDraft, BELIEF_FIELDS),
    "episodes.add_many": (EpisodeDraft, EPISODE_FIELDS),
    "edges.add_many": (BeliefEdge, EDGE_FIELDS),
}


def test_every_field_of_the_search_request_is_fuzzed() -> None:
    assert set(SEARCH_FIELDS) == set(EpisodeSearchRequest.model_fields)


@FUZZ
@given(data=st.data())
@pytest.mark.parametrize("entry", sorted(_MODEL_ENTRIES))
def test_an_instance_edited_with_model_copy_is_judged_as_its_dict(
    memory: Memory, fuzz_tenant: str, entry: str, data: st.DataObject
) -> None:
    """pydantic's ``model_copy(update=...)`` checks nothing: an instance edited with it was
    taken as valid, and ran a search with a NUL in its query or a negative cap, stored an
    episode edit only as pydantic's own error or a ``TypeError``, and reached the recall's
    nodes with a tenant id that is no identifier. An edited instance is held to the rules
    its dict is: refused typed, naming the field, with nothing written, or taken."""
    model, fields = _MODEL_ENTRIES[entry]
    valid = _valid_call(entry, memory, fuzz_tenant)
    changes = data.draw(mutations(fields), label="changes")
    try:
        edited = model.model_validate(valid).model_copy(update=changes)
    except ValidationError as refused:  # a request's edit is checked where it is made
        assert model is RecallRequest
        assert refused.errors()[0]["loc"][0] in changes
        return
    call = _KIND_ENTRIES[entry][1]
    outcome(f"{entry} (model_copy)", memory, changes, lambda: call(memory, edited), lambda _: None)
