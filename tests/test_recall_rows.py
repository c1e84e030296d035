"""What a recall's statements send and read back in bulk is what one value at a time gives:
a list of strings reaches the server as the same array whatever its elements hold, and
beliefs read from a statement's rows are the beliefs read one row at a time, to the byte
of their JSON."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st
from psycopg import sql
from psycopg.rows import dict_row

from recallflow import Memory
from recallflow.adapters.postgres.beliefs import (
    SELECT_BELIEF,
    belief_from_row,
    beliefs_from_rows,
)
from recallflow.adapters.postgres.statements import compile_statement
from recallflow.models.store import Belief

# Text a server stores (no NUL), with the characters an array's text quotes or escapes.
_ELEMENT = st.text(
    alphabet=st.characters(exclude_characters="\x00", exclude_categories=["Cs"]),
    max_size=12,
) | st.sampled_from(["", "NULL", "null", ' "', "\\", "a,b", "{x}", " lead", "[0.1,-2e-07]"])
_AS_ARRAY = compile_statement(sql.SQL("SELECT %(items)s::text[], 'null'::text = ANY(%(items)s)"))


@given(items=st.lists(_ELEMENT, max_size=6))
def test_a_list_of_strings_reaches_the_server_as_psycopg_sends_it(
    memory: Memory, items: list[str]
) -> None:
    with memory._recall_pool.connection() as conn:
        ours = psycopg.RawCursor(conn).execute(_AS_ARRAY.text, _AS_ARRAY.bind({"items": items}))
        theirs = conn.execute("SELECT %s::text[], 'null'::text = ANY(%s)", (items, items))
        assert ours.fetchone() == theirs.fetchone() == (items, "null" in items)


def test_beliefs_read_in_bulk_are_the_beliefs_read_one_by_one(memory: Memory, tenant: str) -> None:
    now = datetime.now(UTC)
    memory.beliefs.add_many(
        [
            {
                "tenant_id": tenant,
                "principal_id": "p1",
                "id": "b-plain",
                "statement": "The API deploys on Tuesdays.",
                "subject": "deploys",
                "origin_project": "proj-a",
            },
            {
                "tenant_id": tenant,
                "principal_id": "p1",
                "id": "b-full",
                "statement": "Prefers tabs.",
                "subject": "indent",
                "entities": ["editor", "tabs"],
                "belief_type": "preference",
                "scope": "user",
                "portability": "portable",
                "confidence": 0.91,
                "valid_from": now - timedelta(days=3),
                "valid_to": now + timedelta(days=3),
                "sensitivity": 2,
                "source_authority": "user_stated",
                "corroboration_count": 3,
                "corroborating_projects": ["proj-b", "proj-a"],
                "last_corroborated_at": now - timedelta(days=1),
                "utility": 1.5,
                "last_reinforced_at": now - timedelta(hours=2),
                "flagged": True,
            },
        ]
    )
    query = SELECT_BELIEF.removesuffix(" FROM beliefs") + ", 1 AS extra FROM beliefs"
    query += " WHERE tenant_id = %s ORDER BY id"
    with memory._pool.connection() as conn:
        cur = conn.execute(query, (tenant,))
        names = [c.name for c in cur.description or ()]
        in_bulk = beliefs_from_rows(names, cur.fetchall())
        by_row = conn.cursor(row_factory=dict_row).execute(query, (tenant,)).fetchall()
    one_by_one = [belief_from_row({k: v for k, v in row.items() if k != "extra"}) for row in by_row]
    assert [b.id for b in in_bulk] == ["b-full", "b-plain"]
    assert in_bulk == one_by_one
    assert [b.model_dump_json() for b in in_bulk] == [b.model_dump_json() for b in one_by_one]
    assert in_bulk == [Belief.model_validate(b.model_dump()) for b in one_by_one]


def test_rows_that_are_not_a_beliefs_are_refused(memory: Memory) -> None:
    with pytest.raises(ValueError, match="not a belief's"):
        beliefs_from_rows(["id", "statement"], [("b-1", "text")])


def test_a_maker_of_trusted_values_needs_every_field_and_no_other() -> None:
    fields: list[Any] = list(Belief.model_fields)
    with pytest.raises(TypeError, match=r"missing \['utility'\]"):
        Belief.trusted_maker([f for f in fields if f != "utility"])
    with pytest.raises(TypeError, match=r"unknown \['utilty'\]"):
        Belief.trusted_maker([*fields, "utilty"])
    with pytest.raises(TypeError):  # a name given twice stands for a field left out
        Belief.trusted_maker([*fields, fields[0]])
