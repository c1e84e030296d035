"""``memory.beliefs.held`` by entity and by belief type: "everything memory holds about
Fly.io", "every preference of the user", read through the recall's hard filter, a page at
a time, with no query to rank or floor them away."""

from __future__ import annotations

from typing import Any

import pytest

from recallflow import InvalidInputError, Memory
from tests.helpers import belief


def held_ids(memory: Memory, tenant: str, principal: str = "p1", **kw: Any) -> list[str]:
    return [b.id for b in memory.beliefs.held(tenant, principal, **kw)]


@pytest.fixture
def stored(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-deploy", statement="billing-api deploys with `fly deploy`.",
                   subject="billing deploy", entities=["Fly.io", "billing-api"],
                   belief_type="procedure"),
            belief(tenant, id="b-region", statement="The Fly.io region is ams.",
                   subject="fly region", entities=["fly.io"], belief_type="environment"),
            belief(tenant, id="b-style", statement="Ada prefers concise answers.",
                   subject="answer style", belief_type="preference"),
            belief(tenant, id="b-tabs", statement="Ada prefers tabs in Go code.",
                   subject="indentation", entities=["go"], belief_type="preference"),
            belief(tenant, id="b-secret", statement="The Fly.io token is in 1Password.",
                   subject="fly token", entities=["fly.io"], sensitivity="secret"),
            belief(tenant, "p2", id="b-other", statement="Bob deploys on Fly.io too.",
                   subject="bob deploy", entities=["fly.io"], belief_type="preference"),
        ]
    )  # fmt: skip


@pytest.mark.usefixtures("stored")
def test_held_by_entity_lists_every_belief_naming_it_on_the_surface(
    memory: Memory, tenant: str
) -> None:
    # Read as an entity key is: "Fly.io" and "FLY.IO" are the key fly.io.
    assert held_ids(memory, tenant, entity="Fly.io") == ["b-deploy", "b-region"]
    assert held_ids(memory, tenant, entity="FLY.IO", surface="vault") == [
        "b-deploy", "b-region", "b-secret"
    ]  # fmt: skip
    assert held_ids(memory, tenant, entity="fly") == []  # a key, not a part of one
    assert held_ids(memory, tenant, entity="heroku") == []
    # Another principal's belief with the entity is never listed.
    assert held_ids(memory, tenant, "p2", entity="fly.io") == ["b-other"]
    # Page by page, each once.
    first = held_ids(memory, tenant, entity="fly.io", limit=1)
    assert first == ["b-deploy"]
    assert held_ids(memory, tenant, entity="fly.io", after=first[-1]) == ["b-region"]


@pytest.mark.usefixtures("stored")
def test_held_by_belief_type_and_together_with_the_other_filters(
    memory: Memory, tenant: str
) -> None:
    assert held_ids(memory, tenant, belief_type="preference") == ["b-style", "b-tabs"]
    assert held_ids(memory, tenant, belief_type="environment", entity="fly.io") == ["b-region"]
    assert held_ids(memory, tenant, belief_type="preference", entity="fly.io") == []
    assert held_ids(memory, tenant, belief_type="preference", subject="indent") == ["b-tabs"]
    # A belief ended since is not held: superseded now, its successor is (same entity).
    memory.supersede(
        "b-region",
        belief(tenant, id="b-region-2", statement="The Fly.io region is fra.",
               subject="fly region", entities=["fly.io"], belief_type="environment"),
    )  # fmt: skip
    assert held_ids(memory, tenant, entity="fly.io") == ["b-deploy", "b-region-2"]


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"entity": 5}, "entity"),
        ({"entity": "  ¿?  "}, "entity"),
        ({"belief_type": "opinion"}, "belief_type"),
        ({"belief_type": 3}, "belief_type"),
    ],
)
def test_bad_filters_are_refused_by_name(
    memory: Memory, tenant: str, arguments: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        memory.beliefs.held(tenant, "p1", **arguments)
    assert refused.value.field == field
