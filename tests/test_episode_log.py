"""Reading the event log in order (``memory.episodes.logged``): what a formation process
reads to turn what happened into beliefs, and what a host shows as a session's transcript
or the last few events. No query, no ranking: the episodes archival search's filter lets
through, in the order they happened, a page at a time."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import InvalidInputError, Memory, NotFoundError
from recallflow.async_memory import AsyncMemory
from recallflow.models.store import Episode

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def episode(tenant: str, principal: str = "p1", minute: int = 0, **fields: Any) -> dict[str, Any]:
    return {
        "tenant_id": tenant,
        "principal_id": principal,
        "occurred_at": T0 + timedelta(minutes=minute),
        "content": f"Something happened at minute {minute}.",
        **fields,
    }


def every_page(memory: Memory, tenant: str, principal: str, **kw: Any) -> list[Episode]:
    """The whole listing, read page after page with each page's last id as the cursor."""
    out: list[Episode] = []
    after = None
    for _ in range(200):
        page = memory.episodes.logged(tenant, principal, after=after, **kw)
        out += page
        if len(page) < kw.get("limit", 100):
            return out
        after = page[-1].id
    raise AssertionError("the listing never ended")


def test_the_log_reads_in_the_order_things_happened_not_the_order_they_were_written(
    memory: Memory, tenant: str
) -> None:
    # Written out of order, two of them at one instant (kept in the order they were stored).
    memory.episodes.add_many(
        [
            episode(tenant, id="e-late", minute=30),
            episode(tenant, id="e-first", minute=0),
            episode(tenant, id="e-tie-b", minute=10),
            episode(tenant, id="e-tie-a", minute=10),
        ]
    )
    ids = [e.id for e in memory.episodes.logged(tenant, "p1")]
    assert ids == ["e-first", "e-tie-b", "e-tie-a", "e-late"]
    latest = memory.episodes.logged(tenant, "p1", newest_first=True, limit=2)
    assert [e.id for e in latest] == ["e-late", "e-tie-a"]  # "the last two events"
    rest = memory.episodes.logged(tenant, "p1", newest_first=True, after="e-tie-a")
    assert [e.id for e in rest] == ["e-tie-b", "e-first"]
    # Each comes back as stored, every field of it.
    assert memory.episodes.logged(tenant, "p1", limit=1)[0] == memory.episodes.get(
        tenant, "p1", "e-first"
    )


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    minutes=st.lists(st.integers(min_value=0, max_value=6), min_size=1, max_size=14),
    limit=st.integers(min_value=1, max_value=5),
    newest_first=st.booleans(),
)
def test_pages_read_every_episode_once_in_order(
    memory: Memory, minutes: list[int], limit: int, newest_first: bool
) -> None:
    """Whatever the times (many at one instant) and the page size, the pages joined are
    every episode exactly once, by time and then by the order they were stored."""
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    stored = memory.episodes.add_many(
        [episode(tenant, id=f"e-{i:02d}", minute=m) for i, m in enumerate(minutes)]
    )
    expected = [e.id for e in sorted(stored, key=lambda e: (e.occurred_at, e.id))]
    if newest_first:
        expected.reverse()
    pages = every_page(memory, tenant, "p1", limit=limit, newest_first=newest_first)
    assert [e.id for e in pages] == expected


def test_filters_keep_a_window_a_session_a_project_and_a_kind(memory: Memory, tenant: str) -> None:
    memory.episodes.add_many(
        [
            episode(tenant, id="e-0", minute=0, session_id="s-a", project="billing-api"),
            episode(tenant, id="e-1", minute=1, session_id="s-b", kind="observation"),
            episode(tenant, id="e-2", minute=2, session_id="s-a", kind="correction"),
            episode(tenant, id="e-3", minute=3, project="billing-api", kind="summary"),
        ]
    )

    def ids(**kw: Any) -> list[str]:
        return [e.id for e in memory.episodes.logged(tenant, "p1", **kw)]

    assert ids(session_id="s-a") == ["e-0", "e-2"]  # a session's transcript
    assert ids(project="billing-api") == ["e-0", "e-3"]
    assert ids(kind="correction") == ["e-2"]
    assert ids(since=T0 + timedelta(minutes=1)) == ["e-1", "e-2", "e-3"]  # from it, inclusive
    now = datetime.now(UTC)
    assert ids(as_of=T0 + timedelta(minutes=1), known_as_of=now) == ["e-0", "e-1"]  # inclusive
    window = {"since": "2026-03-02T09:01:00Z", "as_of": "2026-03-02T09:02:00Z"}
    assert ids(**window, known_as_of=now) == ["e-1", "e-2"]
    # known_as_of defaults to as_of: the log as it stood then, before these were recorded.
    assert ids(**window) == []
    assert ids(session_id="s-nobody") == []


def test_a_surface_reads_only_up_to_its_ceiling_and_a_principal_only_its_own(
    memory: Memory, tenant: str
) -> None:
    memory.episodes.add_many(
        [
            episode(tenant, id="e-public", minute=0, sensitivity="public"),
            episode(tenant, id="e-internal", minute=1),
            episode(tenant, id="e-personal", minute=2, sensitivity="personal"),
            episode(tenant, id="e-secret", minute=3, sensitivity="secret"),
            episode(tenant, "p2", id="e-other", minute=0),
            episode(f"{tenant}-x", id="e-other-tenant", minute=0),
        ]
    )

    def ids(surface: str) -> list[str]:
        return [e.id for e in memory.episodes.logged(tenant, "p1", surface=surface)]

    assert ids("public") == ["e-public"]
    assert ids("team") == ["e-public", "e-internal"]
    assert ids("direct") == ["e-public", "e-internal", "e-personal"]  # the default
    assert ids("vault") == ["e-public", "e-internal", "e-personal", "e-secret"]
    # Another principal's episode is no cursor here: not found, as an id nobody has.
    with pytest.raises(NotFoundError) as missing:
        memory.episodes.logged(tenant, "p1", after="e-other")
    assert missing.value.field == "after"


def test_a_cursor_forgotten_since_its_page_is_not_found_by_name(
    memory: Memory, tenant: str
) -> None:
    memory.episodes.add_many([episode(tenant, id=f"e-{i}", minute=i) for i in range(3)])
    page = memory.episodes.logged(tenant, "p1", limit=2)
    memory.forget_episode(tenant, "p1", page[-1].id)
    with pytest.raises(NotFoundError) as missing:
        memory.episodes.logged(tenant, "p1", after=page[-1].id)
    assert missing.value.field == "after"
    assert [e.id for e in memory.episodes.logged(tenant, "p1")] == ["e-0", "e-2"]


@pytest.mark.parametrize("surface", ["public", "team", "direct", "vault"])
def test_a_cursor_the_surface_may_not_see_is_refused_as_one_never_stored(
    memory: Memory, tenant: str, surface: str
) -> None:
    """A cursor naming an episode above the surface's ceiling read on from its place in
    the log: the page told the caller the hidden episode existed, and where. It is refused
    exactly as an id never stored is, as is another principal's, another tenant's or an
    erased one; an episode the surface may see still reads on."""
    levels = ["public", "internal", "personal", "secret"]
    memory.episodes.add_many(
        [
            *(episode(tenant, id=f"e-{level}", minute=i, sensitivity=level)
              for i, level in enumerate(levels)),
            episode(tenant, id="e-late", minute=9, sensitivity="public"),
            episode(tenant, id="e-erased", minute=5, sensitivity="public"),
            episode(tenant, "p2", id="e-other", minute=0),
            episode(f"{tenant}-x", id="e-other-tenant", minute=0),
        ]
    )  # fmt: skip
    memory.forget_episode(tenant, "p1", "e-erased")
    seen = [e.id for e in memory.episodes.logged(tenant, "p1", surface=surface)]

    def refusal(after: str) -> tuple[type[Exception], str | None, str]:
        with pytest.raises(NotFoundError) as refused:
            memory.episodes.logged(tenant, "p1", surface=surface, after=after)
        return type(refused.value), refused.value.field, str(refused.value).replace(after, "ID")

    ceiling = {"public": 0, "team": 1, "direct": 2, "vault": 3}[surface]
    assert seen == [*(f"e-{level}" for level in levels[: ceiling + 1]), "e-late"]
    hidden = [f"e-{level}" for level in levels[ceiling + 1 :]]
    never = refusal("e-never-stored")
    for after in [*hidden, "e-erased", "e-other", "e-other-tenant"]:
        assert refusal(after) == never, after
    for after in seen:  # a cursor it may see: what follows, within the ceiling
        rest = [e.id for e in memory.episodes.logged(tenant, "p1", surface=surface, after=after)]
        assert rest == seen[seen.index(after) + 1 :]


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 1001}, "limit"),
        ({"limit": True}, "limit"),
        ({"since": T0, "as_of": T0 - timedelta(seconds=1)}, "since"),
        ({"since": datetime(2026, 3, 2, 9, 0)}, "since"),  # no time zone
        ({"as_of": "yesterday"}, "as_of"),
        ({"known_as_of": 5}, "known_as_of"),
        ({"kind": "chat"}, "kind"),
        ({"surface": "everyone"}, "surface"),
        ({"session_id": ""}, "session_id"),
        ({"project": " "}, "project"),
        ({"after": ""}, "after"),
        ({"newest_first": "yes"}, "newest_first"),
    ],
)
def test_bad_arguments_are_refused_by_name(
    memory: Memory, tenant: str, arguments: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        memory.episodes.logged(tenant, "p1", **arguments)
    assert refused.value.field == field


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    since=st.integers(min_value=-3 * 60, max_value=3 * 60),
    since_zone=st.integers(min_value=-12, max_value=12),
    as_of_zone=st.integers(min_value=-12, max_value=12),
)
def test_the_log_and_archival_search_refuse_a_window_alike(
    memory: Memory, since: int, since_zone: int, as_of_zone: int
) -> None:
    """A ``since`` later than ``as_of`` is one refusal, read either way: the same type,
    field and words from ``episodes.logged`` and ``search_episodes``, whatever the zones
    the two times are written in; one not later is taken by both."""
    start = (T0 + timedelta(minutes=since)).astimezone(timezone(timedelta(hours=since_zone)))
    end = T0.astimezone(timezone(timedelta(hours=as_of_zone)))

    def outcome(read: Any) -> tuple[str, str | None, str]:
        try:
            read()
        except InvalidInputError as refused:
            return type(refused).__name__, refused.field, str(refused)
        return "taken", None, ""

    logged = outcome(lambda: memory.episodes.logged("t-window", "p1", since=start, as_of=end))
    searched = outcome(
        lambda: memory.search_episodes(
            {"tenant_id": "t-window", "principal_id": "p1", "query": "deploy",
             "since": start, "as_of": end}
        )
    )  # fmt: skip
    assert logged == searched
    assert (logged[0] == "taken") == (since <= 0)


def test_the_asyncio_call_reads_the_same_log(memory: Memory, tenant: str) -> None:
    memory.episodes.add_many([episode(tenant, id=f"e-{i}", minute=i) for i in range(3)])

    async def read() -> list[Episode]:
        return await AsyncMemory(memory).episodes.logged(tenant, "p1", newest_first=True)

    assert asyncio.run(read()) == memory.episodes.logged(tenant, "p1", newest_first=True)
