"""Scrubbing many erased items in one walk of a stored record (a scoped erasure's) leaves
the record exactly as scrubbing them one after another does: the same ids, texts, rendered
lines, entries and queries erased, and every other value kept (see "Forgetting a project
or a session" in docs/corrections.md)."""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from recallflow.core.erasure import ERASED, erased_texts, items_in, scrubbed, scrubbed_of_many

IDS = ["b-1", "b-2", "e-1", "e-2"]
TEXTS = ["Ada uses Helix.", "medium", "Yes", "Ada  uses\nHelix.", "Acme ships on Tuesdays."]
FIELDS = ["text", "statement", "line", "belief_id", "episode_id", "band", "note", "keys"]

_leaf = st.one_of(
    st.sampled_from(IDS + TEXTS + [ERASED, "b-9", "b-1x", "x[b-1]", "other words"]),
    st.builds(lambda i, t: f"- [{i}] {t}", st.sampled_from([*IDS, "b-9"]), st.sampled_from(TEXTS)),
    st.integers(0, 3),
    st.none(),
)
_query = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["text", "structured"]),
        "text": st.sampled_from([*TEXTS, "what does Ada use"]),
        "keys": st.lists(st.sampled_from(["ada", "helix", "acme", "tuesdays", "uses"]), max_size=4),
    }
)
_record = st.recursive(
    _leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(FIELDS + IDS + ["items", "arms"]), inner, max_size=4),
        st.builds(
            lambda q, rest: {"queries": q, **rest},
            st.lists(_query, max_size=2),
            st.dictionaries(st.sampled_from(FIELDS), inner, max_size=3),
        ),
    ),
    max_leaves=25,
)
_items = st.lists(
    st.tuples(st.one_of(st.none(), st.sampled_from(IDS)), st.sampled_from(TEXTS)),
    min_size=1,
    max_size=4,
    unique_by=lambda item: item[0] if item[0] is not None else item,
)


def _collides(value: Any, ids: set[str]) -> bool:
    """Whether a dict of ``value`` has two keys a scrub renames to ``[erased]``: the one
    key left holds one of their values, and which one is the order's, not the user's."""
    if isinstance(value, list):
        return any(_collides(v, ids) for v in value)
    if isinstance(value, dict):
        return len(ids.intersection(value) | ({ERASED} & set(value))) > 1 or any(
            _collides(v, ids) for v in value.values()
        )
    return False


@settings(max_examples=600)
@given(record=_record, items=_items)
def test_one_walk_scrubs_as_one_item_after_another(record: Any, items: list[Any]) -> None:
    assume(not _collides(record, {i for i, _ in items if i is not None}))
    expected, changed = record, False
    for item_id, text in items:
        expected, did = scrubbed(expected, item_id, text)
        changed = changed or did
    assert scrubbed_of_many(record, items) == (expected, changed)


@settings(max_examples=600)
@given(record=_record, items=_items)
def test_the_items_a_record_may_hold_are_all_a_scrub_changes_it_for(
    record: Any, items: list[Any]
) -> None:
    """The quick test that picks the items a record is walked for leaves none out that
    the walk would have erased something of."""
    held = items_in(record, [(i, erased_texts(t)) for i, t in items])
    for index, (item_id, text) in enumerate(items):
        if index not in held:
            assert scrubbed(record, item_id, text) == (record, False)


def test_a_key_renamed_for_one_item_is_no_owner_for_the_next() -> None:
    """Under the key of an erased item, a value that is another erased item's text is
    erased; the first item's own entry elsewhere keeps what is not its own."""
    record = {"b-1": {"note": "Yes"}, "x": {"belief_id": "b-9", "text": "Yes"}}
    items = [("b-1", "Ada uses Helix."), ("b-2", "Yes")]
    out, changed = scrubbed_of_many(record, items)
    assert changed and out == {ERASED: {"note": ERASED}, "x": {"belief_id": "b-9", "text": "Yes"}}
