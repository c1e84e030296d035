"""Reading the event log from the tools: ``list_episodes`` pages through what happened, in
order, and ``search_episodes`` takes a ``since``. Both act for the toolset's bound
principal alone, on its surface's ceiling, and show episode text across the same trust
boundary as archival search (see "Reading the log" in docs/tools.md)."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import Memory
from recallflow.ingestion import PAGE_MAX
from recallflow.models.store import Sensitivity
from recallflow.policy import DEFAULT_POLICY, ListingPolicy
from recallflow.tools import TOOLS, Toolset
from recallflow.tools.episode_log import LogCursor
from recallflow.tools.paging import encode_cursor
from tests.helpers import patient_policy
from tests.test_log_and_list_tools import HOSTILE
from tests.test_tools import error, ok

SPECS = {spec.name: spec for spec in TOOLS}
START = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)
#: The levels an episode is stored at, and the surfaces that may see each.
LEVELS = ("public", "internal", "personal", "secret")
SEES = {
    "public": {"public"},
    "team": {"public", "internal"},
    "direct": {"public", "internal", "personal"},
    "vault": set(LEVELS),
}
#: The projects the paged log's episodes are logged in, in turn.
PROJECTS = ("billing-api", "mobile-app", "merger-x")
#: merger-x's name is personal: the public and team surfaces withhold it.
WITHHOLDS_MERGER = DEFAULT_POLICY.model_copy(
    update={"project_sensitivity": {"merger-x": Sensitivity.PERSONAL}}
)


def tools(memory: Memory, tenant: str, principal: str = "p1", **kw: Any) -> Toolset:
    return Toolset(memory, tenant_id=tenant, principal_id=principal, policy=patient_policy(), **kw)


def add(memory: Memory, tenant: str, principal: str = "p1", **fields: Any) -> str:
    """Log one episode; returns its id."""
    draft = {"tenant_id": tenant, "principal_id": principal, "occurred_at": START} | fields
    return memory.episodes.add(draft).id


def listed(toolset: Toolset, **arguments: Any) -> list[dict[str, Any]]:
    """Every item of a listing, page after page."""
    items: list[dict[str, Any]] = []
    cursor = None
    for _ in range(200):
        page = ok(
            "list_episodes",
            toolset.call("list_episodes", {**arguments, "cursor": cursor} if cursor else arguments),
        )
        items += page["items"]
        cursor = page["next_cursor"]
        if cursor is None:
            return items
    raise AssertionError("the listing never ended")


def stored(memory: Memory, tenant: str) -> list[tuple[Any, ...]]:
    """Every row a read could have written for the tenant: episodes and traces."""
    with memory.pool.connection() as conn:
        rows = conn.execute(
            "SELECT 'episode', id, content FROM episodes WHERE tenant_id = %s"
            " UNION ALL SELECT 'trace', id, '' FROM recall_traces WHERE tenant_id = %s"
            " ORDER BY 1, 2",
            (tenant, tenant),
        ).fetchall()
    return [tuple(row) for row in rows]


# --- search_episodes' since ------------------------------------------------------------


def test_a_search_since_a_time_finds_only_what_happened_from_then(
    memory: Memory, tenant: str
) -> None:
    early = add(memory, tenant, occurred_at=START, content="We deployed billing-api to fly.")
    late = add(memory, tenant, occurred_at=START + timedelta(days=7),
               content="We deployed billing-api to fly again.")  # fmt: skip
    agent = tools(memory, tenant)
    query = {"query": "deployed billing-api fly"}
    found = ok("search_episodes", agent.call("search_episodes", query))
    assert {i["episode_id"] for i in found["items"]} == {early, late}
    monday = (START + timedelta(days=6)).isoformat()
    found = ok("search_episodes", agent.call("search_episodes", {**query, "since": monday}))
    assert [i["episode_id"] for i in found["items"]] == [late]
    # The window's both ends: since Monday, as it stood before the second deploy.
    until = (START + timedelta(days=6, hours=12)).isoformat()
    window = {**query, "since": monday, "as_of": until}
    assert ok("search_episodes", agent.call("search_episodes", window))["items"] == []


@pytest.mark.parametrize(
    ("arguments", "kind"),
    [
        ({"since": "2026-09-01T09:00:00"}, "invalid_arguments"),  # no time zone
        ({"since": "last monday"}, "invalid_arguments"),
        ({"since": "2026-09-02T00:00:00Z", "as_of": "2026-09-01T00:00:00Z"}, "invalid_arguments"),
        ({"since": "2999-01-01T00:00:00Z"}, "invalid_input"),  # later than now
    ],
)
def test_a_bad_since_of_a_search_is_refused_by_name(
    memory: Memory, tenant: str, arguments: dict[str, Any], kind: str
) -> None:
    add(memory, tenant, content="We deployed billing-api.")
    before = stored(memory, tenant)
    refused = error(tools(memory, tenant).call("search_episodes", {"query": "deploy", **arguments}),
                    kind)  # fmt: skip
    assert refused["field"] == "since"
    assert "no such argument" not in refused["message"]  # the schema takes it
    assert stored(memory, tenant) == before


# --- list_episodes: arguments ------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "kind", "field"),
    [
        ({"since": "2026-09-01T09:00:00"}, "invalid_arguments", "since"),
        ({"until": "yesterday"}, "invalid_arguments", "until"),
        ({"since": "2026-09-02T00:00:00Z", "until": "2026-09-01T00:00:00Z"},
         "invalid_arguments", "since"),
        ({"since": "2999-01-01T00:00:00Z"}, "invalid_input", "since"),
        ({"kind": "belief"}, "invalid_arguments", "kind"),
        ({"session_id": "a session"}, "invalid_arguments", "session_id"),
        ({"newest_first": "yes"}, "invalid_arguments", "newest_first"),
        ({"max_items": 0}, "invalid_arguments", "max_items"),
        ({"max_items": PAGE_MAX + 1}, "invalid_arguments", "max_items"),
        ({"max_items": True}, "invalid_arguments", "max_items"),
        ({"cursor": "garbage"}, "invalid_arguments", "cursor"),
        ({"cursor": encode_cursor(LogCursor(at=datetime(2999, 1, 1, tzinfo=UTC), after="e-1"))},
         "invalid_arguments", "cursor"),
        ({"principal_id": "p2"}, "invalid_arguments", "principal_id"),
        ({"tenant_id": "other"}, "invalid_arguments", "tenant_id"),
        ({"surface": "vault"}, "invalid_arguments", "surface"),
        ({"query": "deploy"}, "invalid_arguments", "query"),
    ],
)  # fmt: skip
def test_bad_arguments_are_refused_naming_the_field_and_write_nothing(
    memory: Memory, tenant: str, arguments: dict[str, Any], kind: str, field: str
) -> None:
    add(memory, tenant, content="We deployed billing-api.")
    before = stored(memory, tenant)
    refused = error(tools(memory, tenant).call("list_episodes", arguments), kind)
    assert refused["field"] == field
    assert stored(memory, tenant) == before


def test_a_listing_reads_only_and_says_so(memory: Memory, tenant: str) -> None:
    add(memory, tenant, content="We deployed billing-api.")
    before = stored(memory, tenant)
    ok("list_episodes", tools(memory, tenant).call("list_episodes", {}))
    assert stored(memory, tenant) == before  # no trace, no episode
    effects = SPECS["list_episodes"].effects
    assert (effects.read_only, effects.destructive, effects.idempotent) == (True, False, True)
    size = SPECS["list_episodes"].input_schema["properties"]["max_items"]
    assert PAGE_MAX in [bound.get("maximum") for bound in size.get("anyOf", [size])]
    assert "instructions" in SPECS["list_episodes"].description


# --- list_episodes: what is listed, in order --------------------------------------------


def test_a_session_and_a_window_read_in_order(memory: Memory, tenant: str) -> None:
    said = [
        ("s-mon", 0, "message", "Ada: let's store prices as cents."),
        ("s-mon", 1, "message", "Grace: agreed, integer cents everywhere."),
        ("s-tue", 24 * 60, "summary", "We moved the deploy to fly."),
        ("s-tue", 24 * 60 + 5, "message", "Ada: the deploy is green."),
    ]
    ids = [
        add(memory, tenant, session_id=session, occurred_at=START + timedelta(minutes=m),
            kind=kind, content=text)
        for session, m, kind, text in said
    ]  # fmt: skip
    agent = tools(memory, tenant)
    assert [i["episode_id"] for i in listed(agent)] == ids
    assert [i["episode_id"] for i in listed(agent, session_id="s-mon")] == ids[:2]
    assert [i["session_id"] for i in listed(agent)] == ["s-mon", "s-mon", "s-tue", "s-tue"]
    assert [i["episode_id"] for i in listed(agent, kind="summary")] == [ids[2]]
    tuesday = (START + timedelta(days=1)).isoformat()
    assert [i["episode_id"] for i in listed(agent, since=tuesday)] == ids[2:]
    assert [i["episode_id"] for i in listed(agent, until=tuesday)] == ids[:3]  # both ends in
    latest = ok("list_episodes", agent.call("list_episodes", {"newest_first": True,
                                                              "max_items": 1}))  # fmt: skip
    assert [i["episode_id"] for i in latest["items"]] == [ids[3]]
    assert "the deploy is green" in latest["block"]
    assert latest["block"].startswith("<episodes>\n") and latest["next_cursor"]
    assert [i["episode_id"] for i in listed(agent, newest_first=True)] == ids[::-1]
    assert listed(agent, session_id="s-nobody") == []


def test_a_cursor_reads_on_with_its_listings_filters(memory: Memory, tenant: str) -> None:
    ids = [add(memory, tenant, occurred_at=START + timedelta(minutes=n), content=f"Event {n}.",
               session_id="s-a" if n % 2 else "s-b") for n in range(6)]  # fmt: skip
    agent = tools(memory, tenant)
    first = ok("list_episodes", agent.call("list_episodes", {"newest_first": True,
                                                             "session_id": "s-a",
                                                             "max_items": 2}))  # fmt: skip
    assert [i["episode_id"] for i in first["items"]] == [ids[5], ids[3]]
    # The cursor alone reads on, the latest first, in the session: not back to the start.
    alone = ok("list_episodes", agent.call("list_episodes", {"cursor": first["next_cursor"]}))
    assert [i["episode_id"] for i in alone["items"]] == [ids[1]]
    again = {"cursor": first["next_cursor"], "newest_first": True, "session_id": "s-a"}
    assert ok("list_episodes", agent.call("list_episodes", again))["items"] == alone["items"]
    for changed, field in (
        ({"newest_first": False}, "newest_first"),
        ({"session_id": "s-b"}, "session_id"),
        ({"kind": "message"}, "kind"),
        ({"since": START.isoformat()}, "since"),
    ):
        refused = error(agent.call("list_episodes", {**again, **changed}), "invalid_input")
        assert refused["field"] == field
        assert "cursor" in refused["message"]


def test_a_project_lists_only_its_episodes_in_order(memory: Memory, tenant: str) -> None:
    projects = ["billing-api", "mobile-app", None, "billing-api-v2"] * 2
    ids = [add(memory, tenant, occurred_at=START + timedelta(minutes=n), content=f"Event {n}.",
               **({"project": project} if project else {}))
           for n, project in enumerate(projects)]  # fmt: skip
    agent = tools(memory, tenant)
    billing = [i for i, project in zip(ids, projects, strict=True) if project == "billing-api"]
    for size in (1, 2, PAGE_MAX):
        page = listed(agent, project="billing-api", max_items=size)
        assert [i["episode_id"] for i in page] == billing  # not billing-api-v2's
        assert {i["project"] for i in page} == {"billing-api"}
    latest = listed(agent, project="billing-api", newest_first=True, max_items=1)
    assert [i["episode_id"] for i in latest] == billing[::-1]
    one = ok("list_episodes", agent.call("list_episodes", {"project": "billing-api",
                                                           "max_items": 1}))  # fmt: skip
    assert "Event 0." in one["block"] and "Event 1." not in one["block"]
    mobile = listed(agent, project="mobile-app", kind="message")
    assert [i["episode_id"] for i in mobile] == [ids[1], ids[5]]
    assert listed(agent, project="nowhere") == []
    assert len(listed(agent)) == len(ids)  # no project: the whole log


def test_a_cursor_sent_with_another_project_is_refused_naming_it(
    memory: Memory, tenant: str
) -> None:
    ids = [add(memory, tenant, occurred_at=START + timedelta(minutes=n), content=f"Event {n}.",
               project="billing-api" if n % 2 else "mobile-app") for n in range(6)]  # fmt: skip
    agent = tools(memory, tenant)
    first = ok("list_episodes", agent.call("list_episodes", {"project": "billing-api",
                                                             "max_items": 1}))  # fmt: skip
    unfiltered = ok("list_episodes", agent.call("list_episodes", {"max_items": 1}))
    before = stored(memory, tenant)
    for cursor, project in (
        (first["next_cursor"], "mobile-app"),
        (first["next_cursor"], None),  # sent as null: no project, not the cursor's
        (unfiltered["next_cursor"], "billing-api"),
    ):
        refused = error(agent.call("list_episodes", {"cursor": cursor, "project": project}),
                        "invalid_input")  # fmt: skip
        assert refused["field"] == "project"
        assert "cursor" in refused["message"]
    assert stored(memory, tenant) == before
    # Alone, or with its own project, it reads on in the project.
    for again in ({}, {"project": "billing-api"}):
        arguments = {"cursor": first["next_cursor"], **again}
        rest = ok("list_episodes", agent.call("list_episodes", arguments))
        assert [i["episode_id"] for i in rest["items"]] == ids[3::2]


def test_the_longest_filters_still_read_on(memory: Memory, tenant: str) -> None:
    """A cursor carries every filter: at their longest, the next page still takes it."""
    session, project = "s" * 200, "p" * 200
    ids = [add(memory, tenant, occurred_at=START + timedelta(minutes=n), content=f"Event {n}.",
               session_id=session, project=project, kind="observation")
           for n in range(2)]  # fmt: skip
    arguments = {"session_id": session, "project": project, "kind": "observation",
                 "newest_first": True, "since": START.isoformat(),
                 "until": (START + timedelta(days=1)).isoformat()}  # fmt: skip
    assert [i["episode_id"] for i in listed(tools(memory, tenant), **arguments,
                                            max_items=1)] == ids[::-1]  # fmt: skip


def test_pages_read_the_log_as_it_stood_at_the_first(memory: Memory, tenant: str) -> None:
    ids = [add(memory, tenant, occurred_at=START + timedelta(minutes=n), content=f"Event {n}.")
           for n in range(4)]  # fmt: skip
    agent = tools(memory, tenant)
    first = ok("list_episodes", agent.call("list_episodes", {"max_items": 2}))
    add(memory, tenant, occurred_at=START + timedelta(minutes=2, seconds=30), content="Late.")
    rest = ok("list_episodes", agent.call("list_episodes", {"cursor": first["next_cursor"]}))
    assert [i["episode_id"] for i in first["items"] + rest["items"]] == ids
    assert rest["as_of"] == first["as_of"] and rest["next_cursor"] is None
    assert len(listed(agent)) == 5  # a new listing reads the log now


def test_a_page_ends_at_the_listing_policys_caps_and_never_empty(
    memory: Memory, tenant: str
) -> None:
    for n in range(4):
        add(memory, tenant, occurred_at=START + timedelta(minutes=n), content="word " * 40)
    cramped = tools(memory, tenant, listing_policy=ListingPolicy(page_items=3, page_tokens=1))
    page = ok("list_episodes", cramped.call("list_episodes", {}))
    assert len(page["items"]) == 1 and page["next_cursor"]  # its first episode, always
    assert len(listed(cramped)) == 4
    roomy = tools(memory, tenant, listing_policy=ListingPolicy(page_items=3, page_tokens=10**6))
    page = ok("list_episodes", roomy.call("list_episodes", {"max_items": PAGE_MAX}))
    assert len(page["items"]) == 3 and page["next_cursor"]  # the host's item cap holds


# --- paging, as a property --------------------------------------------------------------

_PAGED = "t-episode-log-paged"


@pytest.fixture(scope="module")
def paged_log(memory: Memory) -> dict[str, list[str]]:
    """p1's log: episodes at every level, some at one instant, in two sessions and three
    projects, of two kinds; p2 and another tenant log at the same times. Returns p1's ids
    each surface may see, in the order they happened (ties in the order stored)."""
    if not memory.episodes.logged(_PAGED, "p1", surface="vault", limit=1):
        for n in range(23):
            at = START + timedelta(minutes=n // 3)  # three episodes an instant
            for tenant, principal in ((_PAGED, "p1"), (_PAGED, "p2"), (_PAGED + "-x", "p1")):
                add(memory, tenant, principal, id=f"e-{principal}-{n:02d}", occurred_at=at,
                    sensitivity=LEVELS[n % 4], session_id=f"s-{n % 2}",
                    project=PROJECTS[n % 3],
                    kind="summary" if n % 5 == 0 else "message",
                    content=f"Event {n} of {principal} in {tenant}.")  # fmt: skip
    levels = {f"e-p1-{n:02d}": LEVELS[n % 4] for n in range(23)}
    return {
        surface: [i for i in sorted(levels) if levels[i] in seen] for surface, seen in SEES.items()
    }


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    surface=st.sampled_from(sorted(SEES)),
    sizes=st.lists(st.integers(1, 7), min_size=1, max_size=30),
    newest_first=st.booleans(),
    page_tokens=st.sampled_from([1, 60, 10**6]),
    session=st.none() | st.sampled_from(["s-0", "s-1"]),
    project=st.none() | st.sampled_from([*PROJECTS, "nowhere"]),
    resend=st.booleans(),
)
def test_pages_concatenate_to_the_whole_visible_log_in_order(
    memory: Memory,
    paged_log: dict[str, list[str]],
    surface: str,
    sizes: list[int],
    newest_first: bool,
    page_tokens: int,
    session: str | None,
    project: str | None,
    resend: bool,
) -> None:
    listing = ListingPolicy(page_items=5, page_tokens=page_tokens)
    agent = Toolset(memory, tenant_id=_PAGED, principal_id="p1", surface=surface,
                    policy=WITHHOLDS_MERGER, listing_policy=listing)  # fmt: skip
    # merger-x as this surface shows it: withheld on public and team, so a filter by it
    # lists what one by a project nobody has lists.
    shown = {p: p if p != "merger-x" or "personal" in SEES[surface] else None for p in PROJECTS}
    expected = [
        i
        for i in paged_log[surface]
        if (session is None or int(i[-2:]) % 2 == int(session[-1]))
        and (project is None or shown[PROJECTS[int(i[-2:]) % 3]] == project)
    ]
    if newest_first:
        expected.reverse()
    seen: list[str] = []
    cursor = None
    arguments: dict[str, Any] = {"newest_first": newest_first}
    if session is not None:
        arguments["session_id"] = session
    if project is not None:
        arguments["project"] = project
    for n in range(len(expected) + 1):
        size = sizes[n % len(sizes)]
        # A next page with the first page's filters again, or with its cursor alone.
        filters = arguments if resend or cursor is None else {}
        page = ok("list_episodes", agent.call("list_episodes", {
            **filters, "max_items": size, **({"cursor": cursor} if cursor else {})
        }))  # fmt: skip
        assert 1 <= len(page["items"]) <= min(size, 5) or not expected
        seen += [i["episode_id"] for i in page["items"]]
        # Each shows its project as the surface does, the one filtered by when one is.
        for item in page["items"]:
            assert item["project"] == shown[PROJECTS[int(item["episode_id"][-2:]) % 3]]
            assert project is None or item["project"] == project
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == expected  # in order, every one, none twice
    assert len(set(seen)) == len(seen)


# --- isolation ----------------------------------------------------------------------------


def _cursor(at: datetime, after: str, **filters: Any) -> str:
    """A cursor as a page writes it, naming any id (one no page could return too)."""
    raw = json.dumps({"at": at.isoformat(), "after": after, **filters}).encode()
    return base64.urlsafe_b64encode(raw).decode()


def test_no_listing_reaches_another_principal_or_tenant(
    memory: Memory, paged_log: dict[str, list[str]]
) -> None:
    for principal, tenant in (("p2", _PAGED), ("p1", _PAGED + "-x")):
        seen = listed(Toolset(memory, tenant_id=tenant, principal_id=principal, surface="vault"))
        assert all(i["episode_id"].startswith(f"e-{principal}-") for i in seen), (
            "another principal's episode was listed"
        )
        assert len(seen) == 23
    # p1's own listing holds only p1's.
    vault = listed(Toolset(memory, tenant_id=_PAGED, principal_id="p1", surface="vault"))
    assert [i["episode_id"] for i in vault] == paged_log["vault"]


def test_a_cursor_naming_what_the_caller_may_not_see_is_refused_alike(
    memory: Memory, paged_log: dict[str, list[str]]
) -> None:
    """A cursor naming another principal's episode, another tenant's, one above the
    surface's ceiling, or one nobody has, is refused with the very same error: a page read
    on from it would tell that it exists, and where it stands in the log."""
    intruder = Toolset(memory, tenant_id=_PAGED, principal_id="p2", surface="team")
    victim = Toolset(memory, tenant_id=_PAGED, principal_id="p1", surface="vault")
    theirs = ok("list_episodes", victim.call("list_episodes", {"max_items": 1}))
    at = datetime.now(UTC) - timedelta(seconds=1)
    refusals = []
    for cursor in (
        theirs["next_cursor"],  # a real cursor of p1's listing
        _cursor(at, "e-p1-04"),  # p1's (and the other tenant's p1's) episode
        _cursor(at, "e-p2-02"),  # p2's own, above team's ceiling (personal)
        _cursor(at, "e-p2-03"),  # p2's own, secret
        _cursor(at, "e-nobody"),
    ):
        result = intruder.call("list_episodes", {"cursor": cursor})
        refusals.append(error(result, "invalid_input"))
    assert all(r == refusals[-1] for r in refusals), refusals
    assert refusals[-1]["field"] == "cursor"
    assert "e-" not in refusals[-1]["message"]
    # p2's own visible episode reads on.
    own = ok("list_episodes", intruder.call("list_episodes", {"cursor": _cursor(at, "e-p2-01")}))
    assert all(i["episode_id"].startswith("e-p2-") for i in own["items"])


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    after=st.sampled_from(["e-p1-00", "e-p1-05", "e-p2-00", "e-p2-06", "e-x"]),
    session=st.none() | st.sampled_from(["s-0", "s-1", "s-x"]),
    project=st.none() | st.sampled_from([*PROJECTS, "nowhere"]),
    kind=st.none() | st.sampled_from(["message", "summary"]),
    newest_first=st.booleans(),
    extra=st.dictionaries(st.sampled_from(["tenant_id", "principal_id", "surface"]),
                          st.sampled_from(["p1", _PAGED, "vault"]), max_size=1),
)  # fmt: skip
def test_no_call_of_the_intruder_lists_the_victims_log(
    memory: Memory,
    paged_log: dict[str, list[str]],
    after: str,
    session: str | None,
    project: str | None,
    kind: str | None,
    newest_first: bool,
    extra: dict[str, str],
) -> None:
    intruder = Toolset(memory, tenant_id=_PAGED, principal_id="p2", surface="vault")
    filters: dict[str, Any] = {"newest_first": newest_first}
    given = (("session_id", session), ("project", project), ("kind", kind))
    filters |= {k: v for k, v in given if v is not None}
    at = datetime.now(UTC) - timedelta(seconds=1)
    arguments = {"cursor": _cursor(at, after, **filters), **filters}
    result = intruder.call("list_episodes", {**arguments, **extra})
    if "error" in result:
        assert result["error"]["field"] in {"cursor", *extra}
    else:
        assert after.startswith("e-p2-") and not extra
        assert all(i["episode_id"].startswith("e-p2-") for i in result["items"])
        assert "of p1" not in result["block"]


# --- the trust boundary ------------------------------------------------------------------


@pytest.mark.parametrize("hostile", HOSTILE)
def test_an_injected_episode_is_listed_as_a_search_shows_it(
    memory: Memory, tenant: str, hostile: str
) -> None:
    hostile_id = add(memory, tenant, content=hostile)
    plain = add(memory, tenant, occurred_at=START + timedelta(minutes=1),
                content="Ada paired with Grace.")  # fmt: skip
    agent = tools(memory, tenant)
    page = ok("list_episodes", agent.call("list_episodes", {}))
    item = next(i for i in page["items"] if i["episode_id"] == hostile_id)
    assert item["blocked"] is True and hostile not in json.dumps(page)
    line = next(x for x in page["block"].splitlines() if f"[{hostile_id}]" in x)
    assert line.endswith("[BLOCKED]")
    found = ok("search_episodes", agent.call("search_episodes", {"query": hostile}))
    assert line in found["block"].splitlines()  # the very line a search shows
    assert f"[{plain}]" in page["block"]


def test_a_withheld_name_and_project_are_redacted_below_their_level(
    memory: Memory, tenant: str
) -> None:
    said = add(memory, tenant, content="Ada paired with Grace Hopper on the merger.",
               project="merger-x", session_id="s-grace-hopper")  # fmt: skip
    memory.entities.mark(tenant, "p1", "Grace Hopper", "personal")
    policy = patient_policy().model_copy(
        update={"project_sensitivity": {"merger-x": Sensitivity.PERSONAL}}
    )
    team = Toolset(memory, tenant_id=tenant, principal_id="p1", surface="team", policy=policy)
    direct = Toolset(memory, tenant_id=tenant, principal_id="p1", policy=policy)
    shown = ok("list_episodes", team.call("list_episodes", {}))
    assert [i["episode_id"] for i in shown["items"]] == [said]
    text = json.dumps(shown).lower()
    assert "grace" not in text and "hopper" not in text and "merger-x" not in text
    assert shown["items"][0]["project"] is None
    found = ok("search_episodes", team.call("search_episodes", {"query": "Ada paired merger"}))
    assert shown["block"] == found["block"]  # the very block a search shows
    # A filter by the withheld name lists nothing, as one by a session nobody has.
    assert listed(team, session_id="s-grace-hopper") == listed(team, session_id="s-nobody") == []
    full = ok("list_episodes", direct.call("list_episodes", {}))
    assert "Grace Hopper" in full["block"] and full["items"][0]["project"] == "merger-x"
    assert full["items"][0]["session_id"] == "s-grace-hopper"
    assert [i["episode_id"] for i in listed(direct, session_id="s-grace-hopper")] == [said]


def test_a_withheld_project_lists_what_one_nobody_has_lists(memory: Memory, tenant: str) -> None:
    """Listed on team, merger-x's episodes show no project: a filter by that name answers
    as one by a name nobody has, page, cursor and refusal alike, or a model could confirm
    a guessed project one call at a time."""
    ids = [add(memory, tenant, occurred_at=START + timedelta(minutes=n), content=f"Event {n}.",
               session_id="s-1", project="merger-x" if n % 2 else "billing-api")
           for n in range(4)]  # fmt: skip
    policy = patient_policy().model_copy(
        update={"project_sensitivity": {"merger-x": Sensitivity.PERSONAL}}
    )
    team = Toolset(memory, tenant_id=tenant, principal_id="p1", surface="team", policy=policy)
    direct = Toolset(memory, tenant_id=tenant, principal_id="p1", policy=policy)
    assert [i["episode_id"] for i in listed(direct, project="merger-x")] == ids[1::2]
    assert [i["project"] for i in listed(team)] == ["billing-api", None] * 2
    at = datetime.now(UTC) - timedelta(seconds=1)
    for filters in ({}, {"newest_first": True}, {"session_id": "s-1", "kind": "message"}):
        answers = []
        for project in ("merger-x", "nowhere"):
            first = ok("list_episodes", team.call("list_episodes", {"project": project,
                                                                    **filters}))  # fmt: skip
            # A page read on from a cursor (its time fixed) is the whole answer to compare.
            cursor = _cursor(at, ids[0], project=project, **filters)
            read_on = ok("list_episodes", team.call("list_episodes", {"cursor": cursor}))
            refused = error(team.call("list_episodes", {
                "cursor": _cursor(at, ids[0], project="billing-api", **filters),
                "project": project, **filters,
            }), "invalid_input")  # fmt: skip
            answers.append(({k: v for k, v in first.items() if k != "as_of"}, read_on, refused))
        assert answers[0] == answers[1]
        assert answers[0][0]["items"] == [] and answers[0][0]["next_cursor"] is None
        assert answers[0][2]["field"] == "project"
    # The project's own name, asked on a surface that may show it, lists it.
    latest = listed(direct, project="merger-x", newest_first=True)
    assert [i["episode_id"] for i in latest] == [ids[3], ids[1]]


# --- the other surfaces -------------------------------------------------------------------


def test_a_langchain_agent_reads_the_log_as_the_toolset_does(memory: Memory, tenant: str) -> None:
    pytest.importorskip("langchain_core")
    first = add(memory, tenant, content="Ada opened the billing-api repo.")
    latest = add(memory, tenant, occurred_at=START + timedelta(hours=1), content="Ada deployed.")
    agent = tools(memory, tenant)
    tool = {t.name: t for t in agent.langchain()}["list_episodes"]
    assert tool.args_schema == SPECS["list_episodes"].input_schema
    page = ok("list_episodes", json.loads(tool.invoke({"newest_first": True, "max_items": 1})))
    assert [i["episode_id"] for i in page["items"]] == [latest]
    rest = ok("list_episodes", json.loads(tool.invoke({"cursor": page["next_cursor"]})))
    assert [i["episode_id"] for i in rest["items"]] == [first]
    refused = json.loads(tool.invoke({"since": "monday"}))
    assert error(refused, "invalid_arguments")["field"] == "since"
