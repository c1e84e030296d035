"""What the ``list_beliefs`` tool shows of what memory holds, pure (see "The tools" in
docs/tools.md and "What memory holds, for the user to see" in docs/architecture.md).

The beliefs come from :meth:`~recallflow.ingestion.Beliefs.held`, the hard filter of an
in-turn recall on the bound surface without a query; this module pages them and shows
each as :mod:`recallflow.tools.history` shows a belief's statement on that surface: one
that reads as instructions is ``[BLOCKED]``, a marked entity's name above the ceiling
``(redacted)`` and a project name the policy ranks above it ``[redacted]``.

A page ends at the listing policy's item cap (``page_items``, or fewer when the model
asks) or before the statement that would pass its token cap (``page_tokens``);
its first item is always shown. The cursor carries the time the first page read memory
at and the last id shown, so every page reads memory as it stood then, in id order: a
belief learned or retracted while the model pages neither appears nor disappears.

A filter matches what the surface shows, not the stored row: a ``project`` whose name the
surface withholds lists nothing, and a ``subject`` must be found in the subject as shown,
so a filter by a withheld name (or a part of one) finds what a name nobody has finds, and
a model cannot confirm a guess of what the listing redacts one call at a time.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from recallflow.core.render import BLOCKED
from recallflow.models.fields import Instant, Key
from recallflow.models.store import Belief, normalise_subject
from recallflow.policy import ListingPolicy, RetrievalPolicy
from recallflow.ports import TokenCounter
from recallflow.tools.history import ShownText
from recallflow.tools.results import BeliefListView, HeldBeliefView

#: A kind of cursor.
C = TypeVar("C", bound="Cursor")

#: The longest cursor a page returns (an id of 200 characters and a time, encoded).
CURSOR_MAX_LENGTH = 512


class Cursor(BaseModel):
    """Where a listing stands: the time its first page read memory at, the last id shown
    (a listing whose pages carry more says so in a subclass)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    at: Instant
    after: Key


def encode_cursor(cursor: Cursor) -> str:
    """``cursor`` as the opaque text a page returns."""
    text = cursor.model_dump_json(exclude_defaults=True)
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def make_cursor(at: datetime, after: str) -> str:
    """The cursor of the page after the one whose last id is ``after``."""
    return encode_cursor(Cursor(at=at, after=after))


def cursor_refusal(tool: str) -> str:
    """What a refused cursor of ``tool``'s is told: the same words whatever was wrong with
    it, so a refusal tells nothing of what a cursor named."""
    return f"is not a next_cursor that {tool} returned; leave it out to start over"


def decode_cursor(text: str, kind: type[C], tool: str) -> C:
    """The cursor of ``kind`` that :func:`encode_cursor` wrote as ``text``, for ``tool``.

    :raises ValueError: any other text, or a time after now (no page was read then).
    """
    problem = ValueError(cursor_refusal(tool))
    try:
        raw = base64.urlsafe_b64decode(text.strip() + "=" * (-len(text.strip()) % 4))
        cursor = kind.model_validate(json.loads(raw))
    except (binascii.Error, ValueError, ValidationError, RecursionError):
        raise problem from None
    if cursor.at > datetime.now(UTC):
        raise problem
    return cursor


def read_cursor(text: str) -> tuple[datetime, str]:
    """The time and the last id of a cursor :func:`make_cursor` made.

    :raises ValueError: any other text, or a time after now (no page was read then).
    """
    cursor = decode_cursor(text, Cursor, "list_beliefs")
    return cursor.at, cursor.after


def project_shown(project: str, shown: ShownText) -> bool:
    """Whether a surface showing text as ``shown`` names ``project`` (a filter by a name it
    withholds lists nothing)."""
    return shown.project(project) == project


def subject_shown(belief: Belief, subject: str, shown: ShownText) -> bool:
    """Whether the subject key ``subject`` is in ``belief``'s subject as ``shown`` shows
    it: a match only inside a withheld name, or a blocked subject, is no match."""
    return subject in normalise_subject(shown.text(belief.subject))


def held_view(
    held: Sequence[Belief],
    at: datetime,
    page: int,
    shown: ShownText,
    policy: RetrievalPolicy,
    listing: ListingPolicy,
    counter: TokenCounter,
) -> BeliefListView:
    """One page of ``held`` (read in id order, more than ``page`` when more remain) as a
    surface shows it (``shown``, the one the filters were judged with); the listing reads
    memory at ``at``."""
    items: list[HeldBeliefView] = []
    tokens = 0
    for b in held[:page]:
        statement = shown.text(b.statement)
        cost = counter.count(statement)
        if items and tokens + cost > listing.page_tokens:
            break
        tokens += cost
        items.append(
            HeldBeliefView(
                belief_id=b.id,
                statement=statement,
                blocked=statement == BLOCKED,
                subject=shown.text(b.subject),
                belief_type=b.belief_type.value,
                scope=b.scope.value,
                origin_project=shown.project(b.origin_project),
                state=b.state.value,
                band=policy.band_of(b.confidence),
                flagged=b.flagged,
                source_authority=b.source_authority.value,
                learned_at=b.recorded_at,
                valid_from=b.valid_from,
                valid_to=b.valid_to,
            )
        )
    more = len(items) < len(held)
    return BeliefListView(
        items=items,
        as_of=at,
        next_cursor=make_cursor(at, items[-1].belief_id) if more else None,
    )
