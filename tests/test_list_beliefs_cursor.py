"""``list_beliefs``' cursor carries the listing's filters: a cursor sent alone reads on
with the first page's ``project`` and ``subject``, one sent with another value is refused
naming the filter, and one an earlier version returned (which carried none) is refused
saying so. Before, a cursor sent without the filters read on from its place through the
whole listing, a page of neither, with no error (see "The tools" in docs/tools.md)."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import Memory
from recallflow.policy import ListingPolicy
from recallflow.tools import Toolset
from tests.helpers import belief, patient_policy
from tests.test_tools import error, ok


def tools(memory: Memory, tenant: str, principal: str = "p1", **kw: Any) -> Toolset:
    return Toolset(memory, tenant_id=tenant, principal_id=principal, policy=patient_policy(), **kw)


def ids(page: dict[str, Any]) -> list[str]:
    return [item["belief_id"] for item in page["items"]]


def stored(memory: Memory, tenant: str) -> list[tuple[Any, ...]]:
    """Every row a read could have written for the tenant: beliefs, events, traces."""
    with memory.pool.connection() as conn:
        rows = conn.execute(
            "SELECT 'belief', id, state FROM beliefs WHERE tenant_id = %s"
            " UNION ALL SELECT 'event', belief_id, kind FROM belief_events WHERE tenant_id = %s"
            " UNION ALL SELECT 'trace', id, '' FROM recall_traces WHERE tenant_id = %s"
            " ORDER BY 1, 2, 3",
            (tenant, tenant, tenant),
        ).fetchall()
    return [tuple(row) for row in rows]


def _written(at: datetime, after: str, **fields: Any) -> str:
    """A cursor as a page writes its JSON, naming any id and filters (or none, as the
    cursors of an earlier version did)."""
    raw = json.dumps({"at": at.isoformat(), "after": after, **fields}).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _mixed(memory: Memory, tenant: str) -> None:
    """Beliefs of two projects and about the user, interleaved in id order."""
    memory.beliefs.add_many(
        [
            belief(tenant, id=f"b-{n}", statement=f"Fact {n} of {project or 'the user'}.",
                   subject=f"{'deploy' if n % 2 else 'release'} step {n}",
                   **({"scope": "project", "origin_project": project} if project else {}))
            for n, project in enumerate(["billing-api", "mobile-app", None] * 3)
        ]
    )  # fmt: skip


def test_a_cursor_sent_alone_reads_on_with_the_first_pages_filters(
    memory: Memory, tenant: str
) -> None:
    _mixed(memory, tenant)
    agent = tools(memory, tenant)
    first = ok("list_beliefs", agent.call("list_beliefs", {"project": "billing-api",
                                                           "max_items": 2}))  # fmt: skip
    assert ids(first) == ["b-0", "b-3"]
    alone = ok("list_beliefs", agent.call("list_beliefs", {"cursor": first["next_cursor"]}))
    assert ids(alone) == ["b-6"] and alone["next_cursor"] is None
    # The filter sent again is the same listing.
    again = {"cursor": first["next_cursor"], "project": "billing-api"}
    assert ok("list_beliefs", agent.call("list_beliefs", again))["items"] == alone["items"]
    # A subject is the key it is matched on: 'Deploy Step' and 'deploy-step' are one listing.
    first = ok("list_beliefs", agent.call("list_beliefs", {"subject": "Deploy Step",
                                                           "max_items": 1}))  # fmt: skip
    rest = [{"cursor": first["next_cursor"]}, {"cursor": first["next_cursor"],
                                              "subject": "deploy-step"}]  # fmt: skip
    for arguments in rest:
        page = ok("list_beliefs", agent.call("list_beliefs", {**arguments, "max_items": 10}))
        assert ids(first) + ids(page) == ["b-1", "b-3", "b-5", "b-7"]


@pytest.mark.parametrize(
    ("changed", "field", "theirs"),
    [
        ({"project": "mobile-app"}, "project", '"billing-api"'),
        ({"project": None}, "project", '"billing-api"'),
        ({"subject": "release"}, "subject", '"step"'),
        ({"subject": None}, "subject", '"step"'),
    ],
)
def test_a_cursor_sent_with_another_filter_is_refused_naming_it_and_writes_nothing(
    memory: Memory, tenant: str, changed: dict[str, Any], field: str, theirs: str
) -> None:
    _mixed(memory, tenant)
    agent = tools(memory, tenant)
    filters = {"project": "billing-api", "subject": "Step"}
    first = ok("list_beliefs", agent.call("list_beliefs", {**filters, "max_items": 1}))
    assert ids(first) == ["b-0"] and first["next_cursor"]
    # A filter the first page did not have is another listing too.
    unfiltered = ok("list_beliefs", agent.call("list_beliefs", {"max_items": 1}))
    added = {"cursor": unfiltered["next_cursor"], "project": "billing-api"}
    before = stored(memory, tenant)
    refused = error(agent.call("list_beliefs", added), "invalid_input")
    assert refused["field"] == "project" and "(project none)" in refused["message"]
    refused = error(
        agent.call("list_beliefs", {"cursor": first["next_cursor"], **filters, **changed}),
        "invalid_input",
    )
    assert refused["field"] == field
    assert f"({field} {theirs})" in refused["message"] and "cursor" in refused["message"]
    assert stored(memory, tenant) == before


def test_a_cursor_of_an_earlier_version_is_refused_saying_so(memory: Memory, tenant: str) -> None:
    """An earlier version's cursor carried no filters: read on under the filters the call
    sends, it may continue another listing from its place. It is refused on ``cursor``
    with the same words whatever id it names, and a new listing reads as ever."""
    _mixed(memory, tenant)
    agent = tools(memory, tenant)
    at = datetime.now(UTC) - timedelta(seconds=1)
    refusals = []
    for after in ("b-0", "b-nobody"):
        for sent in ({}, {"project": "billing-api"}):
            result = agent.call("list_beliefs", {"cursor": _written(at, after), **sent})
            refusals.append(error(result, "invalid_arguments"))
    assert all(r == refusals[0] for r in refusals)
    assert refusals[0]["field"] == "cursor"
    assert "earlier version" in refusals[0]["message"] and "b-" not in refusals[0]["message"]
    assert ids(ok("list_beliefs", agent.call("list_beliefs", {"project": "billing-api"}))) == [
        "b-0", "b-3", "b-6"
    ]  # fmt: skip


def test_the_longest_cursor_a_page_returns_is_taken_back(memory: Memory, tenant: str) -> None:
    """Filters of the longest a call takes (a project id of 200 characters, a subject of
    200 letters of four bytes each) and an id of 200 characters make a cursor the schema
    takes back, and it reads on with them."""
    project, subject = "p" * 200, "\U00020000" * 200
    memory.beliefs.add_many(
        [belief(tenant, id=f"{'b' * 198}-{n}", statement=f"Fact {n}.", subject=subject,
                scope="project", origin_project=project) for n in range(2)]
        + [belief(tenant, id="c-other", statement="Another fact.", subject="other")]
    )  # fmt: skip
    agent = tools(memory, tenant)
    first = ok("list_beliefs", agent.call("list_beliefs", {"project": project, "subject": subject,
                                                           "max_items": 1}))  # fmt: skip
    rest = ok("list_beliefs", agent.call("list_beliefs", {"cursor": first["next_cursor"]}))
    assert ids(first) + ids(rest) == [f"{'b' * 198}-{n}" for n in range(2)]


# --- paging, as a property --------------------------------------------------------------

_PAGED = "t-list-beliefs-paged"
_LEVELS = ("public", "internal", "personal", "secret")
_PROJECTS = ("billing-api", "mobile-app", None)
_SUBJECTS = ("billing deploy", "mobile release", "answer style", "deploy target")
_SEES = {
    "public": {"public"},
    "team": {"public", "internal"},
    "direct": {"public", "internal", "personal"},
    "vault": set(_LEVELS),
}


def _attributes(n: int) -> tuple[str, str | None, str]:
    """The level, project and subject of the ``n``-th belief of each principal."""
    return _LEVELS[n % 4], _PROJECTS[n % 3], _SUBJECTS[n % 4 if n % 5 else (n + 1) % 4]


@pytest.fixture(scope="module")
def paged(memory: Memory) -> None:
    """p1's, p2's and another tenant's p1's beliefs, alike but for their ids and text."""
    if memory.beliefs.held(_PAGED, "p1", surface="vault", limit=1):
        return
    for tenant, principal in ((_PAGED, "p1"), (_PAGED, "p2"), (_PAGED + "-x", "p1")):
        drafts = []
        for n in range(26):
            level, project, subject = _attributes(n)
            scoped = {"scope": "project", "origin_project": project} if project else {}
            drafts.append(belief(tenant, principal, id=f"b-{principal}-{n:02d}",
                                 statement=f"Fact {n} of {principal} in {tenant}.",
                                 subject=subject, sensitivity=level, **scoped))  # fmt: skip
        memory.beliefs.add_many(drafts)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    surface=st.sampled_from(sorted(_SEES)),
    sizes=st.lists(st.integers(1, 7), min_size=1, max_size=30),
    page_tokens=st.sampled_from([1, 12, 10**6]),
    project=st.none() | st.sampled_from(["billing-api", "mobile-app", "nowhere"]),
    subject=st.none() | st.sampled_from(["deploy", "Billing", "answer style", "x"]),
    resend=st.booleans(),
)
def test_pages_join_to_the_whole_visible_listing_in_order(
    memory: Memory,
    paged: None,
    surface: str,
    sizes: list[int],
    page_tokens: int,
    project: str | None,
    subject: str | None,
    resend: bool,
) -> None:
    listing = ListingPolicy(page_items=5, page_tokens=page_tokens)
    agent = Toolset(memory, tenant_id=_PAGED, principal_id="p1", surface=surface,
                    policy=patient_policy(), listing_policy=listing)  # fmt: skip
    key = None if subject is None else subject.lower().replace(" ", "-")
    expected = [
        f"b-p1-{n:02d}"
        for n in range(26)
        if _attributes(n)[0] in _SEES[surface]
        and (project is None or _attributes(n)[1] == project)
        and (key is None or key in _attributes(n)[2].replace(" ", "-"))
    ]
    arguments = {k: v for k, v in (("project", project), ("subject", subject)) if v is not None}
    seen: list[str] = []
    cursor = None
    for n in range(len(expected) + 1):
        size = sizes[n % len(sizes)]
        # A next page with the first page's filters again, or with its cursor alone.
        filters = arguments if resend or cursor is None else {}
        page = ok("list_beliefs", agent.call("list_beliefs", {
            **filters, "max_items": size, **({"cursor": cursor} if cursor else {})
        }))  # fmt: skip
        assert 1 <= len(page["items"]) <= min(size, 5) or not expected
        seen += ids(page)
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == expected  # in order, every one, none twice
    assert len(set(seen)) == len(seen)


# --- isolation ----------------------------------------------------------------------------


def test_another_principals_cursor_reads_on_in_the_callers_own_memory(
    memory: Memory, paged: None
) -> None:
    """A cursor is a place and filters, never a way into the memory it was read from: p1's
    cursor sent by p2, or by another tenant's p1, lists the sender's own beliefs under the
    cursor's filters, after its place, and nothing of p1's."""
    victim = Toolset(memory, tenant_id=_PAGED, principal_id="p1", surface="vault")
    theirs = ok("list_beliefs", victim.call("list_beliefs", {"project": "billing-api",
                                                             "max_items": 2}))  # fmt: skip
    assert ids(theirs) == ["b-p1-00", "b-p1-03"]
    for tenant, principal in ((_PAGED, "p2"), (_PAGED + "-x", "p1")):
        intruder = Toolset(memory, tenant_id=tenant, principal_id=principal, surface="vault")
        page = ok("list_beliefs", intruder.call("list_beliefs", {"cursor": theirs["next_cursor"],
                                                                 "max_items": 50}))  # fmt: skip
        own = [f"b-{principal}-{n:02d}" for n in range(26) if _attributes(n)[1] == "billing-api"]
        # p2's ids sort after every p1 id, so p2 reads its billing-api beliefs from the start.
        assert ids(page) == [i for i in own if i > "b-p1-03"]
        assert "of p1 in t-list-beliefs-paged." not in str(page)
