"""What the ``list_episodes`` tool shows of the event log, pure (see "Reading the log" in
docs/tools.md and "Trust boundary" in docs/architecture.md).

The episodes come from :meth:`~recallflow.ingestion.Episodes.logged`, archival search's
own hard filter read in order with no query; each crosses the trust boundary exactly as a
search's does, through :func:`~recallflow.core.episodes.trusted_episode`: its excerpt (the
opening words, as no query centres it) is ``[BLOCKED]`` when it reads as instructions, a
marked entity's name above the surface's ceiling is redacted, and so is a project name the
ceiling does not admit. The page is rendered as a search's block is, so the model reads the
log with the same framing: data, never instructions.

A page ends at the listing policy's item cap (``page_items``, or fewer when the model
asks) or before the episode whose line would pass its token cap (``page_tokens``); its
first episode is always shown. The cursor carries the time the first page read the log at,
the last id shown and the listing's filters, so every page reads the log as it stood then,
in the order it is listed, with the filters of the first page: a cursor sent alone reads
on, and one sent with another filter is refused naming it (a forgotten ``newest_first``
read the log backwards from where it stood).

A ``session_id`` or ``project`` filter matches what the surface shows: a session id that
names a name the surface withholds, or a project whose name it withholds (judged as
``list_beliefs`` judges one, :func:`~recallflow.tools.listing.project_shown`), lists
nothing, as one nobody has, so a model cannot confirm a guessed name one call at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from recallflow.core.episodes import trusted_episode
from recallflow.core.redaction import ProjectNames, Redactor
from recallflow.core.render import episode_line, render_episode_block
from recallflow.models.fields import Instant, Key
from recallflow.models.result import RecalledEpisode
from recallflow.models.store import Episode, EpisodeKind
from recallflow.policy import EpisodePolicy, ListingPolicy
from recallflow.ports import InjectionScanner, TokenCounter
from recallflow.tools.paging import Cursor, Filters, encode_cursor
from recallflow.tools.results import EpisodeLogView, ListedEpisodeView

#: The longest cursor a page returns: three times and three ids of 200 characters (the last
#: one shown, the session and the project), encoded.
LOG_CURSOR_MAX_LENGTH = 1536


class LogFilters(Filters):
    """What a listing of the log keeps: a window of world time (both ends included), one
    session, one project, one kind; and its order."""

    # Each has a default, so a cursor written before a filter was added reads on as the
    # listing without it that it was.
    since: Instant | None = None
    until: Instant | None = None
    session_id: Key | None = None
    project: Key | None = None
    kind: EpisodeKind | None = None
    newest_first: bool = False


class LogCursor(Cursor, LogFilters):
    """Where a listing of the log stands, and what it keeps."""


def session_shown(session_id: str, redact: Redactor) -> bool:
    """Whether a surface redacting as ``redact`` shows ``session_id`` as it is (a filter
    by a session whose id names a withheld name lists nothing)."""
    return redact(session_id)[0] == session_id


def episode_log_view(
    logged: Sequence[Episode],
    at: datetime,
    filters: LogFilters,
    page: int,
    policy: EpisodePolicy,
    scanner: InjectionScanner,
    redact: Redactor,
    project_names: ProjectNames,
    listing: ListingPolicy,
    counter: TokenCounter,
) -> EpisodeLogView:
    """One page of ``logged`` (read in the listing's order, more than ``page`` when more
    remain) as the surface ``redact`` is bound to shows it; the listing reads the log at
    ``at`` with ``filters``."""
    shown: list[tuple[RecalledEpisode, Episode]] = []
    tokens = 0
    for episode in logged[:page]:
        item, _ = trusted_episode(episode, (), policy, scanner, redact, project_names)
        cost = counter.count(episode_line(item) + "\n")
        if shown and tokens + cost > listing.page_tokens:
            break
        tokens += cost
        shown.append((item, episode))
    more = len(shown) < len(logged)
    return EpisodeLogView(
        block=render_episode_block([item for item, _ in shown]),
        items=[
            ListedEpisodeView(
                episode_id=item.episode_id,
                occurred_at=item.occurred_at,
                kind=item.kind.value,
                project=item.project,
                session_id=None if episode.session_id is None else redact(episode.session_id)[0],
                excerpted=item.excerpted,
                blocked=item.blocked,
            )
            for item, episode in shown
        ],
        as_of=at,
        next_cursor=encode_cursor(
            LogCursor(at=at, after=shown[-1][0].episode_id, **filters.model_dump())
        )
        if more
        else None,
    )
