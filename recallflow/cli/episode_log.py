"""``recallflow episodes`` without a query: the principal's event log read in order, a page
at a time (``Memory.episodes.logged``), one episode a line, where ``recallflow episodes
QUERY`` is the ranked archival search. The two forms share the command, its ``--surface``,
``--since``, ``--as-of`` and ``--known-as-of``; a flag of one form given to the other is
refused, never dropped without a word.
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from recallflow.cli.args import (
    EPISODE_KINDS,
    PAGE_DEFAULT,
    PAGE_MAX,
    UsageError,
    instant,
    json_value,
    key,
    open_store,
    page_size,
)
from recallflow.cli.beliefs import next_page, short_text, when_text

if TYPE_CHECKING:
    from recallflow.models.store import Episode

#: The flags only the log in order takes (argparse's name → the flag).
LOG_ONLY = {
    "session": "--session",
    "project": "--project",
    "kind": "--kind",
    "newest_first": "--newest-first",
    "after": "--after",
    "limit": "--limit",
}
#: The flags only the archival search takes.
SEARCH_ONLY = {"max_items": "--max-items"}

#: The fields of ``Episodes.logged`` set from a flag, for a refusal of the store (``since``
#: of an archival search's request too).
LOG_FLAGS = {
    "since": "--since",
    "session_id": "--session",
    "kind": "--kind",
    "newest_first": "--newest-first",
    "after": "--after",
    "limit": "--limit",
}


def add_log_args(p: argparse.ArgumentParser) -> None:
    """The flags of the log in order (``--project`` is shared with nothing else here), and
    ``--since``, which bounds the search too."""
    p.add_argument(
        "--since",
        type=instant,
        default=None,
        help="episodes that occurred at or after this time, ISO 8601 with a timezone, in the"
        " log or the search (default: the first)",
    )
    p.add_argument(
        "--session", default=None, type=key, help="the log only: the episodes of this session"
    )
    p.add_argument(
        "--project", default=None, type=key, help="the log only: the episodes of this project"
    )
    p.add_argument(
        "--kind", default=None, choices=EPISODE_KINDS, help="the log only: episodes of this kind"
    )
    p.add_argument(
        "--newest-first",
        action="store_true",
        help="the log only: the latest first (default: oldest first, as they happened)",
    )
    p.add_argument(
        "--after",
        default=None,
        type=key,
        help="the log only: the last id of the previous page (its last line names it);"
        " default: the first page",
    )
    p.add_argument(
        "--limit",
        default=None,
        type=page_size,
        help=f"the log only: at most this many episodes (1 to {PAGE_MAX:,};"
        f" default {PAGE_DEFAULT})",
    )


def form_problem(args: argparse.Namespace) -> UsageError | None:
    """A flag given to the form that does not take it: one of the log's beside a QUERY,
    or ``--max-items`` without one; None when every flag fits the form."""
    searching = args.query is not None
    others = LOG_ONLY if searching else SEARCH_ONLY
    given = next(
        (
            flag
            for dest, flag in others.items()
            # By identity: a --max-items of 0 is given, though 0 == False.
            if getattr(args, dest) is not None and getattr(args, dest) is not False
        ),
        None,
    )
    if given is None:
        return None
    if searching:
        return UsageError(
            f"{given}: reads the log in order, which takes no QUERY; leave out the query"
            " (or the flag) to read the log"
        )
    return UsageError(
        f"{given}: caps an archival search of a QUERY; the log in order pages with --limit"
    )


def time_problem(args: argparse.Namespace) -> UsageError | None:
    """``--since`` after ``--as-of`` (or, without one, after now): no episode occurred in
    between, judged before a store is opened."""
    if args.since is None:
        return None
    end = args.as_of or datetime.now(UTC)
    if args.since <= end:
        return None
    if args.as_of is None:
        return UsageError(
            f"--since: {when_text(args.since)} is in the future: no episode has occurred"
            " since (give --as-of to read a later window)"
        )
    return UsageError(
        f"--since: {when_text(args.since)} is later than --as-of {when_text(args.as_of)}:"
        " no episode occurred in between"
    )


def print_log(args: argparse.Namespace) -> int:
    """The page of the log the flags ask for: as a JSON list of ``Episode`` s, or one a line
    and a last line saying how many and the ``--after`` of the next page."""
    limit = args.limit or PAGE_DEFAULT
    with open_store(args) as memory:
        page = memory.episodes.logged(
            args.tenant,
            args.principal,
            surface=args.surface,
            since=args.since,
            as_of=args.as_of,
            known_as_of=args.known_as_of,
            session_id=args.session,
            project=args.project,
            kind=args.kind,
            newest_first=args.newest_first,
            after=args.after,
            limit=limit,
        )
    if args.json:
        print(json.dumps([json_value(e) for e in page], indent=2))
        return 0
    print_episodes(page)
    count = "1 episode" if len(page) == 1 else f"{len(page)} episodes"
    order = "latest first" if args.newest_first else "oldest first"
    # Oldest first, an episode that occurs later comes after the last one read (or the
    # --after given, on an empty page): a script polling the log reads on from there.
    last = page[-1].id if page else args.after
    more = next_page(last, len(page) == limit)
    if len(page) < limit and last is not None and not args.newest_first:
        more = f"the last page so far; episodes that occur later follow --after {last}"
    print(f"{count} of {args.tenant}/{args.principal}, {order} ({more})")
    return 0


def print_episodes(episodes: list[Episode]) -> None:
    """One episode a line: id, when it occurred, kind, session and project, content."""
    width = max((len(e.id) for e in episodes), default=0) + 2
    for e in episodes:
        where = ", ".join(
            f"{name} {value}"
            for name, value in (("session", e.session_id), ("project", e.project))
            if value is not None
        )
        print(
            f"{f'[{e.id}]':<{width}} {when_text(e.occurred_at)} {e.kind.value:<11}"
            f" {where + ': ' if where else ''}{short_text(e.content)}"
        )
