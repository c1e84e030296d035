"""What the ``list_beliefs`` tool shows of what memory holds, pure (see "The tools" in
docs/tools.md and "What memory holds, for the user to see" in docs/architecture.md).

The beliefs come from :meth:`~recallflow.ingestion.Beliefs.held`, the hard filter of an
in-turn recall on the bound surface without a query; this module pages them and shows
each as :mod:`recallflow.tools.history` shows a belief's statement on that surface: one
that reads as instructions is ``[BLOCKED]``, a marked entity's name above the ceiling
``(redacted)`` and a project name the policy ranks above it ``[redacted]``.

A page ends at the listing policy's item cap (``page_items``, or fewer when the model
asks) or before the statement that would pass its token cap (``page_tokens``);
its first item is always shown. The cursor (:mod:`recallflow.tools.paging`) carries the
time the first page read memory at, the last id shown and the listing's ``project`` and
``subject``, so every page reads memory as it stood then, in id order, with the first
page's filters: a belief learned or retracted while the model pages neither appears nor
disappears, a cursor sent alone reads on, and one sent with another filter is refused
naming it (read on under the new filter, it would list a page of neither listing). A
cursor an earlier version returned carried no filters and is refused as such.

A filter matches what the surface shows, not the stored row: a ``project`` whose name the
surface withholds lists nothing, and a ``subject`` must be found in the subject as shown,
so a filter by a withheld name (or a part of one) finds what a name nobody has finds, and
a model cannot confirm a guess of what the listing redacts one call at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import field_validator

from recallflow.core.render import BLOCKED
from recallflow.models.fields import Key
from recallflow.models.store import Belief, normalise_subject
from recallflow.policy import ListingPolicy, RetrievalPolicy
from recallflow.ports import TokenCounter
from recallflow.tools.history import ShownText
from recallflow.tools.paging import Cursor, Filters, decode_cursor, encode_cursor
from recallflow.tools.results import BeliefListView, HeldBeliefView

#: The tool whose listing this is.
TOOL = "list_beliefs"

#: The longest cursor a page returns: a time, two ids of 200 characters (the last one
#: shown and the project) and a subject key of 200 letters of any script, encoded.
CURSOR_MAX_LENGTH = 2048

#: What a cursor an earlier version returned is told (it carried no filters).
EARLIER_CURSOR = (
    f"is a next_cursor of an earlier version of {TOOL}, which did not carry the listing's"
    " project and subject; leave it out to start over"
)


class BeliefFilters(Filters):
    """What a listing of what memory holds keeps: the beliefs learned in one project, and
    those whose subject holds one subject key."""

    # Neither has a default, so a cursor writes both, even as null: a cursor without them
    # is an earlier version's, which carried no filters, and is told so. A filter added
    # later takes a default, so the cursors written before it read on as listings without it.
    project: Key | None
    subject: str | None

    @field_validator("subject")
    @classmethod
    def _subject_key(cls, value: str | None) -> str | None:
        # Kept as the key it is matched on, so 'Deploy' and 'deploy' are one listing.
        if value is None:
            return None
        key = normalise_subject(value)
        if not key:
            raise ValueError("has no letters or digits to match a subject with")
        return key


class BeliefCursor(Cursor, BeliefFilters):
    """Where a listing of what memory holds stands, and what it keeps."""


def read_cursor(text: str) -> BeliefCursor:
    """The cursor a page of the listing returned as ``text``.

    :raises ValueError: a cursor of an earlier version (:data:`EARLIER_CURSOR`); any other
        text, or a time after now (no page was read then).
    """
    try:
        return decode_cursor(text, BeliefCursor, TOOL)
    except ValueError as refused:
        # An earlier version's cursor (a time and an id) is told so: read on under
        # whatever filters the call sends, it could continue another listing from its
        # place, a page of neither.
        try:
            decode_cursor(text, Cursor, TOOL)
        except ValueError:
            raise refused from None
    raise ValueError(EARLIER_CURSOR)


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
    filters: BeliefFilters,
    page: int,
    shown: ShownText,
    policy: RetrievalPolicy,
    listing: ListingPolicy,
    counter: TokenCounter,
) -> BeliefListView:
    """One page of ``held`` (read in id order, more than ``page`` when more remain) as a
    surface shows it (``shown``, the one the filters were judged with); the listing reads
    memory at ``at`` with ``filters``."""
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
        next_cursor=encode_cursor(
            BeliefCursor(at=at, after=items[-1].belief_id, **filters.model_dump())
        )
        if more
        else None,
    )
