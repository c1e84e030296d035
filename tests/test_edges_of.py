"""``memory.edges.of``: a belief's links read as a recall on a surface may follow them —
what a host shows beside a belief ("linked to"), and what Graphiti reads as a node's
edges. Both ends pass the recall's hard filter, as every node of graph expansion's walk
does: an edge to a belief the surface may not see, or not valid then, never appears,
and neither does that belief's id."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import AsyncMemory, InvalidInputError, Memory, NotFoundError
from recallflow.models.store import BeliefEdge
from tests.helpers import belief


def links(
    memory: Memory, tenant: str, belief_id: str, principal: str = "p1", **kw: Any
) -> list[tuple[str, str, str, float]]:
    return [
        (e.src_id, e.dst_id, e.relation.value, e.weight)
        for e in memory.edges.of(tenant, principal, belief_id, **kw)
    ]


def edge(tenant: str, src: str, dst: str, principal: str = "p1", **kw: Any) -> dict[str, Any]:
    return {"tenant_id": tenant, "principal_id": principal, "src_id": src, "dst_id": dst, **kw}


def test_a_belief_s_links_are_those_a_recall_on_the_surface_may_follow(
    memory: Memory, tenant: str
) -> None:
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-deploy", statement="Deploys go to Fly.io.", subject="deploy"),
            belief(tenant, id="b-region", statement="The Fly.io region is ams.", subject="region"),
            belief(tenant, id="b-ci", statement="CI runs on GitHub Actions.", subject="ci"),
            belief(tenant, id="b-token", statement="The Fly.io token is in 1Password.",
                   subject="fly token", sensitivity="secret"),
            belief(tenant, id="b-heroku", statement="Deploys went to Heroku.", subject="old host",
                   valid_to=datetime(2025, 6, 1, tzinfo=UTC)),
            belief(tenant, id="b-retired", statement="Deploys need a ticket.", subject="tickets",
                   state="retired"),
            belief(tenant, "p2", id="b-deploy", statement="Bob deploys by hand.",
                   subject="deploy"),
            belief(tenant, "p2", id="b-bob", statement="Bob uses Render.", subject="host"),
        ]
    )  # fmt: skip
    memory.edges.add_many(
        [
            edge(tenant, "b-deploy", "b-region", relation="refines", weight=0.5),
            edge(tenant, "b-ci", "b-deploy", relation="depends_on", weight=0.9),
            edge(tenant, "b-deploy", "b-ci", weight=0.5),
            edge(tenant, "b-deploy", "b-token", weight=1.0),
            edge(tenant, "b-heroku", "b-deploy", relation="related", weight=1.0),
            edge(tenant, "b-deploy", "b-retired", weight=1.0),
            edge(tenant, "b-deploy", "b-bob", "p2", weight=1.0),
        ]
    )
    # The strongest first: the secret, the one that ended and the retired belief's links
    # are not shown, and neither is another principal's edge of the same id.
    assert links(memory, tenant, "b-deploy") == [
        ("b-ci", "b-deploy", "depends_on", 0.9),
        ("b-deploy", "b-ci", "related", 0.5),
        ("b-deploy", "b-region", "refines", 0.5),
    ]
    assert links(memory, tenant, "b-deploy", direction="out") == [
        ("b-deploy", "b-ci", "related", 0.5),
        ("b-deploy", "b-region", "refines", 0.5),
    ]
    assert links(memory, tenant, "b-deploy", direction="in") == [
        ("b-ci", "b-deploy", "depends_on", 0.9)
    ]
    assert links(memory, tenant, "b-deploy", relation="refines") == [
        ("b-deploy", "b-region", "refines", 0.5)
    ]
    assert links(memory, tenant, "b-deploy", limit=1) == [("b-ci", "b-deploy", "depends_on", 0.9)]
    # The vault sees the secret; a recall of last year the belief that held then.
    assert ("b-deploy", "b-token", "related", 1.0) in links(
        memory, tenant, "b-deploy", surface="vault"
    )
    assert ("b-heroku", "b-deploy", "related", 1.0) in links(
        memory, tenant, "b-deploy", as_of=datetime(2025, 3, 1, tzinfo=UTC)
    )
    # A belief the surface may not see has no links on it, though the vault reads them.
    assert links(memory, tenant, "b-token") == []
    assert links(memory, tenant, "b-token", surface="vault") == [
        ("b-deploy", "b-token", "related", 1.0)
    ]
    assert links(memory, tenant, "b-deploy", "p2") == [("b-deploy", "b-bob", "related", 1.0)]


def test_an_unknown_belief_is_not_found_as_get_says_it(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(belief(tenant, "p2", id="b-bob"))
    with pytest.raises(NotFoundError) as got:
        memory.beliefs.get(tenant, "p1", "b-bob")
    with pytest.raises(NotFoundError) as other:
        memory.edges.of(tenant, "p1", "b-bob")
    with pytest.raises(NotFoundError) as nobody:
        memory.edges.of(tenant, "p1", "b-nobody")
    assert other.value.field == nobody.value.field == "belief_id"
    assert other.value.detail == got.value.detail
    assert nobody.value.detail == other.value.detail.replace("b-bob", "b-nobody")


@pytest.mark.parametrize(
    ("field", "kw"),
    [
        ("direction", {"direction": "sideways"}),
        ("direction", {"direction": 1}),
        ("relation", {"relation": "friend_of"}),
        ("surface", {"surface": "billboard"}),
        ("limit", {"limit": 0}),
        ("limit", {"limit": True}),
        ("as_of", {"as_of": datetime(2026, 1, 1)}),  # naive on purpose
        ("belief_id", {"belief_id": "b bad"}),
        ("policy", {"policy": {}}),
    ],
)
def test_bad_arguments_are_refused_by_name(
    memory: Memory, tenant: str, field: str, kw: dict[str, Any]
) -> None:
    memory.beliefs.add(belief(tenant, id="b-one"))
    args = {"belief_id": "b-one", **kw}
    with pytest.raises(InvalidInputError) as refused:
        memory.edges.of(tenant, "p1", **args)
    assert refused.value.field == field


def test_the_async_twin_reads_the_same_links(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many([belief(tenant, id="b-a"), belief(tenant, id="b-b")])
    memory.edges.add(edge(tenant, "b-a", "b-b"))

    async def scenario() -> list[BeliefEdge]:
        return await AsyncMemory(memory).edges.of(tenant, "p1", "b-b")

    assert asyncio.run(scenario()) == memory.edges.of(tenant, "p1", "b-b")


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    pairs=st.lists(
        st.tuples(st.integers(0, 7), st.integers(0, 7)).filter(lambda p: p[0] != p[1]),
        max_size=20,
        unique=True,
    ),
    secret=st.sets(st.integers(0, 7)),
    retired=st.sets(st.integers(0, 7)),
    ended=st.sets(st.integers(0, 7)),
    surface=st.sampled_from(["public", "team", "direct", "vault"]),
)
def test_links_never_name_a_belief_the_surface_may_not_see(
    memory: Memory,
    pairs: list[tuple[int, int]],
    secret: set[int],
    retired: set[int],
    ended: set[int],
    surface: str,
) -> None:
    """Whatever the graph, the beliefs' states, sensitivities and validity: a belief's links
    are exactly the edges of this principal between it and a belief held on the surface
    (the same filter), when it is held itself; another principal's edges between beliefs
    of the same ids never appear."""
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    for principal in ("p1", "p2"):
        memory.beliefs.add_many(
            [
                belief(tenant, principal, id=f"b-{i}", statement=f"Fact number {i} holds.",
                       subject=f"fact {i}",
                       sensitivity="secret" if i in secret else "internal",
                       state="retired" if i in retired else "active",
                       valid_to=datetime(2025, 6, 1, tzinfo=UTC) if i in ended else None)
                for i in range(8)
            ]
        )  # fmt: skip
    memory.edges.add_many([edge(tenant, f"b-{a}", f"b-{b}") for a, b in pairs])
    # p2 links every pair p1 does not: its edges must never show in p1's reads.
    memory.edges.add_many(
        [
            edge(tenant, f"b-{a}", f"b-{b}", "p2")
            for a in range(8)
            for b in range(8)
            if a != b and (a, b) not in pairs
        ]
    )
    held = {b.id for b in memory.beliefs.held(tenant, "p1", surface=surface, limit=1000)}
    for i in range(8):
        node = f"b-{i}"
        got = {(e.src_id, e.dst_id) for e in memory.edges.of(tenant, "p1", node, surface=surface)}
        expected = (
            {(f"b-{a}", f"b-{b}") for a, b in pairs if node in (f"b-{a}", f"b-{b}")}
            if node in held
            else set()
        )
        assert got == {(s, d) for s, d in expected if s in held and d in held}
