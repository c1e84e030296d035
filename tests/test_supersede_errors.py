"""``supersede`` takes one draft, so a refusal of it names the field (and the draft's id)
and never an "item 0" of a batch the caller never wrote — whichever check refuses it: the
draft's own validation, the clock, the embedding, or the store. Nothing is written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import ConflictError, InvalidInputError, Memory
from recallflow.models.store import LifecycleState
from tests.helpers import belief

T0 = datetime(2025, 1, 1, tzinfo=UTC)

#: (what is wrong, the draft's fields that make it so, the field the error must name).
BAD: dict[str, tuple[dict[str, Any], str]] = {
    "empty statement": ({"statement": ""}, "statement"),
    "unknown scope": ({"scope": "galaxy"}, "scope"),
    "confidence over 1": ({"confidence": 1.5}, "confidence"),
    "unknown sensitivity": ({"sensitivity": "classified"}, "sensitivity"),
    "naive valid_from": ({"valid_from": datetime(2026, 1, 1)}, "valid_from"),
    "validity ending before it starts": (
        {"valid_from": T0 + timedelta(days=2), "valid_to": T0 + timedelta(days=1)},
        "valid_from",
    ),
    "recorded far ahead of the clock": (
        {"recorded_at": datetime.now(UTC) + timedelta(days=30)},
        "recorded_at",
    ),
    "embedding of the wrong length": ({"embedding": [1.0, 0.0]}, "embedding"),
    "subject of no letters": ({"subject": "!!!"}, "subject"),
}


def old_belief(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(
        belief(tenant, id="b-old", statement="We deploy to Heroku.", subject="deploy")
    )


@pytest.mark.parametrize(("fields", "field"), BAD.values(), ids=BAD.keys())
def test_a_bad_draft_is_named_by_its_field_without_a_batch_position(
    memory: Memory, tenant: str, fields: dict[str, Any], field: str
) -> None:
    old_belief(memory, tenant)
    draft = belief(tenant, id="b-new", statement="We deploy to Fly.io.", subject="deploy")
    for call in (memory.supersede, memory.beliefs.supersede):
        with pytest.raises(InvalidInputError) as refused:
            call("b-old", {**draft, **fields})
        assert (refused.value.field, refused.value.item_index) == (field, None), refused.value
        assert not str(refused.value).startswith("item "), refused.value
        assert f"field '{field}'" in str(refused.value)
    assert [b.id for b in memory.beliefs.list(tenant, "p1")] == ["b-old"]
    assert memory.beliefs.get(tenant, "p1", "b-old").state is LifecycleState.ACTIVE


def test_a_successor_id_stored_with_other_content_is_a_conflict_on_its_field(
    memory: Memory, tenant: str
) -> None:
    """The store's refusal (an id already holding another belief) is named as the draft's
    own checks are: its field and id, no item."""
    old_belief(memory, tenant)
    memory.beliefs.add(belief(tenant, id="b-taken", statement="Ada likes tea.", subject="tea"))
    with pytest.raises(ConflictError) as refused:
        memory.supersede("b-old", belief(tenant, id="b-taken", statement="We deploy to Fly."))
    assert refused.value.item_index is None and refused.value.item_id == "b-taken"
    assert refused.value.field is not None
    assert str(refused.value).startswith(f"id 'b-taken', field '{refused.value.field}': ")
    assert memory.beliefs.get(tenant, "p1", "b-old").state is LifecycleState.ACTIVE


def test_a_batch_still_names_the_item(memory: Memory, tenant: str) -> None:
    """``add_many`` of many drafts keeps the item's position: there it says which one."""
    with pytest.raises(InvalidInputError) as refused:
        memory.beliefs.add_many([belief(tenant), belief(tenant, scope="galaxy")])
    assert (refused.value.item_index, refused.value.field) == (1, "scope")


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    bad=st.lists(st.sampled_from(sorted(BAD)), min_size=1, max_size=3, unique=True),
    successor_id=st.one_of(st.none(), st.just("b-next")),
)
def test_whatever_is_wrong_the_error_has_no_batch_position(
    memory: Memory, tenant: str, bad: list[str], successor_id: str | None
) -> None:
    """Whatever fields are wrong together, with or without an id of the caller's, the
    refusal names one of them and no item, and nothing is written."""
    if not memory.beliefs.list(tenant, "p1"):
        old_belief(memory, tenant)
    draft = belief(tenant, id=successor_id, statement="We deploy to Fly.io.", subject="deploy")
    for name in bad:
        draft |= BAD[name][0]
    with pytest.raises(InvalidInputError) as refused:
        memory.supersede("b-old", draft)
    assert refused.value.item_index is None
    assert refused.value.field in {BAD[name][1] for name in bad} | {"valid_to"}
    assert not str(refused.value).startswith("item ")
    assert [b.id for b in memory.beliefs.list(tenant, "p1")] == ["b-old"]
