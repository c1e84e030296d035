"""Texts built to break the readers of text, through every pure function a text reaches and
through the public calls on a real store (property-based).

The texts come from a grammar (:mod:`tests.hostile_text`): dates and numbers at the
calendar's edges ("May 0000", "December 32, 99999", "0000-13-00"), scripts and marks that
change under folding, markup like the block's own tags, runs that make a backtracking
pattern retry, whitespace-only pieces. The property: each function answers (or raises the
typed error it documents), and answers the same twice. Time is not asserted here: the
runs that took the scanner or the key reading seconds are tested by their own files at a
size the old code took minutes on.

``RECALLFLOW_FUZZ_EXAMPLES`` raises the number of examples per property.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import Memory, RecallflowError
from recallflow.adapters.scanning import LayeredInjectionScanner
from recallflow.adapters.scanning.normalise import views_of
from recallflow.adapters.tokens import default_token_counter
from recallflow.core import episodes, floor, query_forming, relevance, render
from recallflow.core.redaction import NameRedaction, Redactor
from recallflow.models.key_reading import read_text
from recallflow.models.request import WorkingState
from recallflow.models.store import Sensitivity, normalise_subject
from tests.helpers import RECORDED, belief, request
from tests.hostile_text import dates, hostile_texts

EXAMPLES = int(os.environ.get("RECALLFLOW_FUZZ_EXAMPLES", "30"))
HOSTILE = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
_ids = itertools.count()

_SCANNER = LayeredInjectionScanner()
_TOKENS = default_token_counter()
_FORMER = query_forming.DeterministicQueryFormer()
_REDACT = Redactor.of(
    NameRedaction(
        {
            "alice-smith": Sensitivity.SECRET,
            "bob": Sensitivity.SECRET,
            "x-y_z.py": Sensitivity.SECRET,
            "istanbul": Sensitivity.SECRET,
            "日本語": Sensitivity.SECRET,
        }
    ),
    Sensitivity.PUBLIC,
)


def _form(text: str) -> Any:
    state = WorkingState(
        goal=text, query=text, entities=(text,), files=(text,), recent_turns=(text,)
    )
    return _FORMER.form(state)


#: Every pure function a stored or asked text reaches, by name.
READERS: dict[str, Callable[[str], Any]] = {
    "keys_of_text": query_forming.keys_of_text,
    "without_speaker": query_forming.without_speaker,
    "content_terms": lambda t: query_forming.content_terms([t], limit=32, min_length=3),
    "named_periods": lambda t: query_forming.named_periods([t]),
    "asks_when": lambda t: query_forming.asks_when([t]),
    "lowercase_names": query_forming.lowercase_names,
    "names_mentioned": lambda t: query_forming.names_mentioned(t, lowercase=True),
    "asked_names": lambda t: query_forming.asked_names(
        t, query_forming.names_mentioned(t, lowercase=True) or "alice"
    ),
    "form": _form,
    "tells_time": relevance.tells_time,
    "asking_share": relevance.asking_share,
    "goal_parts": floor.goal_parts,
    "excerpts": lambda t: episodes.excerpts(t, episodes.query_terms(t, 8, 3), 40, 5, 120),
    "inert": render.inert,
    "item_line_parts": render.item_line_parts,
    "parsed_ids": render.parsed_ids,
    "redaction": _REDACT,
    "redaction_of_an_excerpt": lambda t: _REDACT(t[:200], t),
    "normalise_subject": normalise_subject,
    "read_text": lambda t: read_text(t, fold=True),
    "scanner_views": lambda t: views_of(t).latin,
    "token_count": _TOKENS.count,
    "scan": _SCANNER.scan,
}
#: The typed errors a reader documents: a working state refuses text a store cannot hold.
TYPED: dict[str, tuple[type[Exception], ...]] = {"form": (ValueError,)}


@pytest.mark.parametrize("name", sorted(READERS))
@HOSTILE
@given(text=hostile_texts())
def test_every_reader_of_text_answers_and_answers_alike(name: str, text: str) -> None:
    reader = READERS[name]
    try:
        first = reader(text)
    except TYPED.get(name, ()):
        return
    assert reader(text) == first


@HOSTILE
@given(date=dates(), before=st.sampled_from(("", "What happened in ", "When was ", "since ")))
def test_a_date_names_a_period_only_when_the_calendar_holds_it(date: str, before: str) -> None:
    """A date at the calendar's edge ("May 0000", "9999-12-31", "December 32, 2024") names
    a period the datetime type holds, or none; never an error."""
    for start, end in query_forming.named_periods([before + date]):
        assert start < end


# --- on a real store ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile_tenant(memory: Memory) -> str:
    tenant = f"hostile-{next(_ids)}"
    memory.beliefs.add_many(
        [
            belief(
                tenant, id="b-plain", statement="Invoices are stored in cents.", subject="money"
            ),
            belief(tenant, id="b-may", statement="In May 2023 the team moved to Lisbon."),
        ]
    )
    return tenant


def _typed_or_none(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except RecallflowError:
        return None


@HOSTILE
@given(statement=hostile_texts(min_size=1), subject=hostile_texts(max_size=200, min_size=1))
def test_a_hostile_belief_is_stored_or_refused_with_a_typed_error(
    memory: Memory, hostile_tenant: str, statement: str, subject: str
) -> None:
    data = belief(hostile_tenant, id=f"b-h-{next(_ids)}", statement=statement, subject=subject)
    _typed_or_none(lambda: memory.beliefs.add_many([data]))


@HOSTILE
@given(content=hostile_texts(max_size=20_000, min_size=1))
def test_a_hostile_episode_is_stored_or_refused_with_a_typed_error(
    memory: Memory, hostile_tenant: str, content: str
) -> None:
    data = {
        "tenant_id": hostile_tenant,
        "principal_id": "p1",
        "id": f"e-h-{next(_ids)}",
        "occurred_at": RECORDED,
        "content": content,
    }
    _typed_or_none(lambda: memory.episodes.add_many([data]))


@HOSTILE
@given(goal=hostile_texts(), query=hostile_texts(), turn=hostile_texts())
def test_a_hostile_question_recalls_or_is_refused_with_a_typed_error(
    memory: Memory, hostile_tenant: str, goal: str, query: str, turn: str
) -> None:
    """Recall of the beliefs and episodes the properties above stored, asked with texts of
    the same grammar: a recall answers or refuses, whatever the texts say."""
    state = {"query": query, "recent_turns": [turn]}
    data = request(hostile_tenant, goal=goal, working_state=state)
    result = _typed_or_none(lambda: memory.recall(data))
    if result is not None:
        assert isinstance(result.block, str)
    search = {"tenant_id": hostile_tenant, "principal_id": "p1", "query": query or "x"}
    found = _typed_or_none(lambda: memory.search_episodes(search))
    if found is not None:
        assert isinstance(found.block, str)
