"""``memory.beliefs.held(..., source_episode_id=...)``: the beliefs formed from one episode
— what a host shows under an event as "what memory learned from this", and what a
formation process checks before it turns the episode into beliefs again — read through the
recall's hard filter, a page at a time."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import InvalidInputError, Memory
from tests.helpers import belief

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def held_ids(memory: Memory, tenant: str, principal: str = "p1", **kw: Any) -> list[str]:
    return [b.id for b in memory.beliefs.held(tenant, principal, **kw)]


def episode(tenant: str, episode_id: str, principal: str = "p1") -> dict[str, Any]:
    return {
        "id": episode_id,
        "tenant_id": tenant,
        "principal_id": principal,
        "occurred_at": T0,
        "content": f"What happened in {episode_id}.",
    }


def test_held_from_an_episode_lists_the_beliefs_formed_from_it_that_hold(
    memory: Memory, tenant: str
) -> None:
    memory.episodes.add_many(
        [episode(tenant, "e-call"), episode(tenant, "e-chat"), episode(tenant, "e-bob", "p2")]
    )
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-region", statement="The Fly.io region is ams.",
                   subject="fly region", source_episode_id="e-call"),
            belief(tenant, id="b-editor", statement="Ada edits code in Vim.",
                   subject="editor", source_episode_id="e-call"),
            belief(tenant, id="b-token", statement="The Fly.io token is in 1Password.",
                   subject="fly token", sensitivity="secret", source_episode_id="e-call"),
            belief(tenant, id="b-theme", statement="Ada uses a dark theme.",
                   subject="theme", source_episode_id="e-chat"),
            belief(tenant, id="b-loose", statement="Ada likes tea.", subject="drink"),
            belief(tenant, "p2", id="b-bob", statement="Bob deploys on Fly.io.",
                   subject="bob deploy", source_episode_id="e-bob"),
        ]
    )  # fmt: skip
    assert held_ids(memory, tenant, source_episode_id="e-call") == ["b-editor", "b-region"]
    # The surface's ceiling holds as in any read of what is held.
    assert held_ids(memory, tenant, source_episode_id="e-call", surface="vault") == [
        "b-editor", "b-region", "b-token"
    ]  # fmt: skip
    assert held_ids(memory, tenant, source_episode_id="e-chat") == ["b-theme"]
    # Another principal's episode is no episode of this one; an unknown one has no beliefs.
    assert held_ids(memory, tenant, source_episode_id="e-bob") == []
    assert held_ids(memory, tenant, source_episode_id="e-none") == []
    assert held_ids(memory, tenant, "p2", source_episode_id="e-bob") == ["b-bob"]
    # With the other filters, and page by page.
    assert held_ids(memory, tenant, source_episode_id="e-call", subject="fly") == ["b-region"]
    first = held_ids(memory, tenant, source_episode_id="e-call", limit=1)
    assert first == ["b-editor"]
    assert held_ids(memory, tenant, source_episode_id="e-call", after=first[-1]) == ["b-region"]
    # A belief the user has ended is no longer held; a successor formed from another
    # episode is listed under that episode, not under its predecessor's.
    memory.retire(tenant, "p1", "b-region")
    memory.supersede(
        "b-editor",
        belief(tenant, id="b-helix", statement="Ada edits code in Helix.", subject="editor",
               source_episode_id="e-chat", recorded_at=None),
    )  # fmt: skip
    assert held_ids(memory, tenant, source_episode_id="e-call") == []
    assert held_ids(memory, tenant, source_episode_id="e-chat") == ["b-helix", "b-theme"]
    # ... and as it stood before, at an earlier instant.
    assert held_ids(
        memory, tenant, source_episode_id="e-call", as_of=datetime(2025, 6, 1, tzinfo=UTC)
    ) == ["b-editor"]


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    sources=st.lists(st.sampled_from([None, "e-0", "e-1", "e-2"]), min_size=1, max_size=12),
    retired=st.sets(st.integers(min_value=0, max_value=11)),
    secret=st.sets(st.integers(min_value=0, max_value=11)),
    limit=st.integers(min_value=1, max_value=4),
)
def test_held_from_an_episode_is_the_held_beliefs_with_that_source(
    memory: Memory,
    sources: list[str | None],
    retired: set[int],
    secret: set[int],
    limit: int,
) -> None:
    """Whatever the beliefs' sources, states and sensitivities, the beliefs held from an
    episode, read a page at a time, are exactly the held beliefs whose source it is."""
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    memory.episodes.add_many([episode(tenant, f"e-{i}") for i in range(3)])
    memory.beliefs.add_many(
        [
            belief(tenant, id=f"b-{i:02d}", statement=f"Fact number {i} holds.",
                   subject=f"fact {i}", source_episode_id=source,
                   state="retired" if i in retired else "active",
                   sensitivity="secret" if i in secret else "internal")
            for i, source in enumerate(sources)
        ]
    )  # fmt: skip
    every = memory.beliefs.held(tenant, "p1", limit=1000)
    for source in ("e-0", "e-1", "e-2"):
        pages: list[str] = []
        after = None
        while True:
            page = held_ids(memory, tenant, source_episode_id=source, after=after, limit=limit)
            pages += page
            if len(page) < limit:
                break
            after = page[-1]
        assert pages == [b.id for b in every if b.source_episode_id == source]


@pytest.mark.parametrize("value", ["", 5, "x" * 300, "e\x00"])
def test_a_malformed_episode_id_is_refused_by_name(
    memory: Memory, tenant: str, value: object
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        memory.beliefs.held(tenant, "p1", source_episode_id=value)  # type: ignore[arg-type]
    assert refused.value.field == "source_episode_id"
