"""``recallflow belief history``: how one belief came to stand as it does, from a terminal
or a script (see "History of one belief" in docs/corrections.md); ``recallflow belief
list``: what the store holds of a principal, one belief a line; ``recallflow belief
held``: what a surface may see of it now, filtered, a page at a time; ``recallflow belief
add``: write one belief the person at the terminal states.

It prints the belief as it stands, its supersession chain (the beliefs it superseded and
that superseded it) and every recorded event about it, oldest first (``--events N``: the
latest N, saying how many earlier ones are left out). Tenant and principal
are given on every call: another principal's belief is not found, exactly like a missing
one.
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from recallflow.cli.args import (
    PAGE_DEFAULT,
    PAGE_MAX,
    STATES,
    WHO_FLAGS,
    UsageError,
    add_json_arg,
    add_request_args,
    add_store_args,
    add_who_args,
    at_least_one,
    belief_statement,
    instant,
    json_text,
    json_value,
    key,
    key_text,
    open_store,
    page_size,
    taken_id,
    terminal_line,
    validated,
)

if TYPE_CHECKING:
    from recallflow.models.history import BeliefHistory, ChainLink, HistoryEvent
    from recallflow.models.store import Belief

#: The fields of a belief ``belief add`` sets from an argument or a flag, for a refusal
#: of the draft or of the store (an entry of ``--entity`` is named by the flag).
_ADD_FLAGS = {
    **WHO_FLAGS,
    "statement": "statement",
    "id": "--id",
    "subject": "--subject",
    "entities": "--entity",
    "belief_type": "--type",
    "scope": "--scope",
    "origin_project": "--project",
    "portability": "--portability",
    "confidence": "--confidence",
    "sensitivity": "--sensitivity",
    "source_authority": "--authority",
    "source_episode_id": "--episode",
    "valid_from": "--valid-from",
    "valid_to": "--valid-to",
}

#: The values of the draft's enums ``belief add`` offers as choices, written out as
#: :data:`~recallflow.cli.args.STATES` is: the command line imports no pydantic model
#: before a command needs one (a test checks they are the enums').
BELIEF_TYPES = ("preference", "user_model", "fact", "procedure", "environment")
SCOPES = ("user", "project")
PORTABILITIES = ("portable", "contextual", "local")
AUTHORITIES = ("user_stated", "user_confirmed", "observed", "inferred", "external")
#: :class:`~recallflow.models.store.Sensitivity`'s names, lowest first.
SENSITIVITIES = ("public", "internal", "personal", "secret")
#: What a draft takes when a flag is left out, for the flags' help (the model's own
#: defaults apply; a test checks these are they).
DRAFT_DEFAULTS = {
    "belief_type": "fact",
    "portability": "contextual",
    "confidence": 0.7,
    "sensitivity": "internal",
}

#: How much of a statement a line of the chain shows.
_STATEMENT_CHARS = 70


def when_text(value: datetime) -> str:
    """An instant as a line prints it: UTC, to the second (``2026-09-01T09:00:00Z``)."""
    return value.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _validity(start: datetime | None, end: datetime | None) -> str:
    """A belief's world-time validity in words: it read "valid always to open" when
    neither end was set, which a user had to decode."""
    if start is None:
        if end is None:
            return "valid at every time (no start or end set)"
        return f"valid until {when_text(end)}, no start set"
    if end is None:
        return f"valid from {when_text(start)}, no end set"
    return f"valid from {when_text(start)} until {when_text(end)}"


def short_text(statement: str) -> str:
    """Stored text (a statement, an episode's content) as one line, cut to a line's
    share of the terminal."""
    text = terminal_line(statement)
    if len(text) <= _STATEMENT_CHARS:
        return text
    return text[: _STATEMENT_CHARS - 3] + "..."


def _link(link: ChainLink | Belief, mark: str = " ") -> str:
    """One belief of the chain as a line: its id, state, validity and statement."""
    valid = _validity(link.valid_from, link.valid_to)
    retracted = f", retracted {when_text(link.retracted_at)}" if link.retracted_at else ""
    return (
        f"  {mark} [{link.id}] {link.state.value:<11} {valid}{retracted}:"
        f" {short_text(link.statement)}"
    )


def _what(event: HistoryEvent) -> str:
    """One event as a line's words."""
    kind = event.kind.value
    effective = f" (from {when_text(event.effective_at)})" if event.effective_at else ""
    if kind == "took_over":
        words = f"took over from [{event.related_id}]{effective}"
    elif kind == "superseded":
        words = f"superseded by [{event.related_id}]{effective}"
    elif kind == "expired":
        words = f"expired at {when_text(event.effective_at)}" if event.effective_at else "expired"
    elif kind == "corroborated":
        words = f"corroborated in {event.project} by episode {event.evidence_id}"
    elif kind == "excluded":
        words = f"excluded from project {event.project}"
    elif kind == "cited":
        words = f"cited from trace {event.trace_id}"
    elif kind.startswith("rejected_"):
        where = f" in {event.project}" if event.project else ""
        words = f"rejected as {kind.removeprefix('rejected_')}{where} from trace {event.trace_id}"
    elif kind == "unflagged":
        source = f" from trace {event.trace_id}" if event.trace_id else ""
        words = f"flag cleared{source}"
    else:
        words = kind
    said = event.note if event.note is not None else event.reason
    return f"{words}: {terminal_line(said)}" if said else words


def print_history(history: BeliefHistory) -> None:
    """The history as text: the belief, its chain oldest first, its events oldest first."""
    b = history.belief
    flagged = ", flagged as possibly wrong" if b.flagged else ""
    print(f"belief [{b.id}] of {b.tenant_id}/{b.principal_id}: {b.state.value}{flagged}")
    print(f"  {terminal_line(b.statement)}")
    retracted = f"; retracted {when_text(b.retracted_at)}" if b.retracted_at else ""
    valid = _validity(b.valid_from, b.valid_to)
    print(f"  {valid}; recorded {when_text(b.recorded_at)}{retracted}")
    if history.predecessors or history.successors:
        print("chain, oldest first (* this belief):")
        if history.more_predecessors:
            print("    ... (earlier beliefs not shown)")
        for link in history.predecessors:
            print(_link(link))
        print(_link(b, "*"))
        for link in history.successors:
            print(_link(link))
        if history.more_successors:
            print("    ... (later beliefs not shown)")
    print("events, oldest first:")
    if history.earlier_events:
        print(f"  ... ({history.earlier_events} earlier events not shown)")
    for event in history.events:
        print(f"  {when_text(event.at)}  {_what(event)}")


def _cmd_history(args: argparse.Namespace) -> int:
    with open_store(args) as memory:
        history = memory.beliefs.history(
            args.tenant, args.principal, args.belief_id, events=args.events
        )
    if args.json:
        print(json_text(history))
        return 0
    print_history(history)
    return 0


def _print_beliefs(beliefs: list[Belief]) -> None:
    """One belief a line: id, state (and when it was retracted, or that it is flagged),
    origin project or user scope, statement."""
    # Ids differ in length; padded to the longest, the states line up in one column.
    width = max((len(b.id) for b in beliefs), default=0) + 2
    for b in beliefs:
        where = b.origin_project if b.origin_project is not None else "user scope"
        retracted = f" (retracted {when_text(b.retracted_at)})" if b.retracted_at else ""
        retracted += " (flagged)" if b.flagged else ""
        print(
            f"{f'[{b.id}]':<{width}} {b.state.value:<11} {where}{retracted}:"
            f" {short_text(b.statement)}"
        )


def _cmd_list(args: argparse.Namespace) -> int:
    with open_store(args) as memory:
        beliefs = memory.beliefs.list(args.tenant, args.principal)
    states = set(args.state or ())
    shown = [b for b in beliefs if not states or b.state.value in states]
    if args.json:
        print(json.dumps([json_value(b) for b in shown], indent=2))
        return 0
    _print_beliefs(shown)
    hidden = len(beliefs) - len(shown)
    rest = f" ({hidden} in other states not shown)" if hidden else ""
    count = "1 belief" if len(shown) == 1 else f"{len(shown)} beliefs"
    print(f"{count} of {args.tenant}/{args.principal}{rest}")
    return 0


#: The fields of ``Beliefs.held`` ``belief held`` sets from a flag, for a refusal of the
#: store.
_HELD_FLAGS = {
    **WHO_FLAGS,
    "surface": "--surface",
    "as_of": "--as-of",
    "known_as_of": "--known-as-of",
    "project": "--project",
    "subject": "--subject",
    "entity": "--entity",
    "belief_type": "--type",
    "after": "--after",
    "limit": "--limit",
}


def _cmd_held(args: argparse.Namespace) -> int:
    if args.entity is not None and len(args.entity) > 1:
        # Kept silently, the last one would have been the only filter: --entity is
        # repeatable in ``recall`` and ``belief add``, where every one counts.
        raise UsageError(
            f"--entity: given {len(args.entity)} times; belief held filters by one entity"
        )
    limit = args.limit or PAGE_DEFAULT
    with open_store(args) as memory:
        page = memory.beliefs.held(
            args.tenant,
            args.principal,
            surface=args.surface,
            as_of=args.as_of,
            known_as_of=args.known_as_of,
            project=args.project,
            subject=args.subject,
            entity=None if args.entity is None else args.entity[0],
            belief_type=args.type,
            after=args.after,
            limit=limit,
        )
    if args.json:
        print(json.dumps([json_value(b) for b in page], indent=2))
        return 0
    _print_beliefs(page)
    count = "1 belief" if len(page) == 1 else f"{len(page)} beliefs"
    when = "now" if args.as_of is None else f"at {when_text(args.as_of)}"
    print(
        f"{count} of {args.tenant}/{args.principal} the {args.surface} surface may see {when}"
        f" ({next_page(page[-1].id if page else None, len(page) == limit)})"
    )
    return 0


def next_page(last: str | None, full: bool) -> str:
    """What a paged read's last line says of the next page: a full page names the
    ``--after`` that reads it; a shorter one is the last."""
    if full and last is not None:
        return f"more may follow: the next page is --after {last}"
    return "the last page"


def _cmd_add(args: argparse.Namespace) -> int:
    from recallflow.errors import ConflictError
    from recallflow.models.store import BeliefDraft, Sensitivity

    # A belief named by a project is the project's; without one it is about the user.
    scope = args.scope or ("project" if args.project is not None else "user")
    given = {
        "id": args.id,
        "entities": tuple(args.entity or ()),
        "belief_type": args.type,
        "origin_project": args.project,
        "portability": args.portability,
        "confidence": args.confidence,
        "sensitivity": None if args.sensitivity is None else Sensitivity[args.sensitivity.upper()],
        "source_episode_id": args.episode,
        "valid_from": args.valid_from,
        "valid_to": args.valid_to,
    }
    draft = validated(
        BeliefDraft,
        {
            "tenant_id": args.tenant,
            "principal_id": args.principal,
            "statement": args.statement,
            "subject": args.subject,
            "scope": scope,
            "source_authority": args.authority,
            # Left out when not given, so the model's own defaults hold, stated once.
            **{field: value for field, value in given.items() if value is not None},
        },
        _ADD_FLAGS,
    )
    with open_store(args) as memory:
        try:
            stored = memory.beliefs.add(draft)
        except ConflictError as exc:
            if args.id is None or exc.item_id != args.id:
                raise
            raise taken_id(args) from None
    if args.json:
        print(json_text(stored))
        return 0
    where = f"project {stored.origin_project}" if stored.scope.value == "project" else "user scope"
    print(f"added [{stored.id}] ({stored.state.value}, {where}): {terminal_line(stored.statement)}")
    return 0


def _add_add_parser(commands: Any) -> None:
    """``belief add``: its flags are the draft's fields a person states at a terminal."""
    p = commands.add_parser(
        "add",
        help="write one belief, stated by the person at the terminal (default) or a source",
    )
    p.add_argument("statement", type=belief_statement, help="what is believed, one sentence")
    p.add_argument(
        "--subject", required=True, help="the short key the belief is about (e.g. 'answer style')"
    )
    add_who_args(p)
    p.add_argument(
        "--project",
        default=None,
        type=key,
        help="the project it was learned in; a belief with one is the project's (scope"
        " project) unless --scope user says it is about the user",
    )
    p.add_argument(
        "--scope",
        default=None,
        choices=SCOPES,
        help="user: about the user, in every project; project: about --project"
        " (default: project when --project is given, else user)",
    )
    p.add_argument(
        "--entity",
        action="append",
        default=None,
        help="an entity key it mentions (repeatable)",
    )
    p.add_argument(
        "--type",
        default=None,
        choices=BELIEF_TYPES,
        help=f"default: {DRAFT_DEFAULTS['belief_type']}",
    )
    p.add_argument(
        "--portability",
        default=None,
        choices=PORTABILITIES,
        help="how far a project belief travels to other projects (default:"
        f" {DRAFT_DEFAULTS['portability']})",
    )
    p.add_argument(
        "--confidence",
        default=None,
        type=float,
        help=f"0 to 1 (default: {DRAFT_DEFAULTS['confidence']})",
    )
    p.add_argument(
        "--sensitivity",
        default=None,
        choices=SENSITIVITIES,
        help="how sensitive it is, which sets the surfaces that may show it (default:"
        f" {DRAFT_DEFAULTS['sensitivity']})",
    )
    p.add_argument(
        "--authority",
        default="user_stated",
        choices=AUTHORITIES,
        help="who vouches for it (default: user_stated, the person typing)",
    )
    p.add_argument(
        "--episode", default=None, type=key, help="the episode it was derived from (its id)"
    )
    p.add_argument(
        "--valid-from",
        default=None,
        type=instant,
        help="when it began to hold (ISO 8601 with a timezone; default: not set)",
    )
    p.add_argument(
        "--valid-to",
        default=None,
        type=instant,
        help="when it stopped holding (ISO 8601 with a timezone; default: not set)",
    )
    p.add_argument(
        "--id",
        default=None,
        type=key,
        help="its id; a retry with the same id and content stores it once (default: a new id)",
    )
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_add, field_flags=_ADD_FLAGS)


def _add_held_parser(commands: Any) -> None:
    """``belief held``: what a surface may see now, filtered, a page at a time."""
    p = commands.add_parser(
        "held",
        help="what an in-turn recall on a surface may show of a principal (no query, floor or"
        " budget), filtered, in id order, a page at a time",
    )
    add_request_args(p)
    p.add_argument("--project", default=None, type=key, help="only beliefs learned in this project")
    p.add_argument(
        "--subject",
        default=None,
        type=key_text,
        help="only beliefs whose subject holds this text, read as a subject is"
        " ('Deploy Target' finds billing-deploy-target)",
    )
    p.add_argument(
        "--entity",
        action="append",
        default=None,
        type=key_text,
        help="only beliefs naming this entity, read as an entity is ('Fly.io' finds fly.io)",
    )
    p.add_argument("--type", default=None, choices=BELIEF_TYPES, help="only beliefs of this type")
    p.add_argument(
        "--after",
        default=None,
        type=key,
        help="the last id of the previous page (its last line names it); default: the first page",
    )
    p.add_argument(
        "--limit",
        default=None,
        type=page_size,
        help=f"at most this many beliefs (1 to {PAGE_MAX:,}; default {PAGE_DEFAULT})",
    )
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_held, field_flags=_HELD_FLAGS)


def add_belief_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``belief history``, ``belief list``, ``belief held`` and ``belief add`` on
    ``subparsers``."""
    group: argparse.ArgumentParser = subparsers.add_parser(
        "belief", help="what the store recorded about one belief"
    )
    commands = group.add_subparsers(dest="belief_command", required=True)
    p = commands.add_parser(
        "history", help="the belief, its supersession chain and every event about it"
    )
    p.add_argument("belief_id", type=key, help="the belief's id (b-...)")
    add_who_args(p)
    p.add_argument(
        "--events",
        type=at_least_one,
        default=None,
        metavar="N",
        help="only the latest N events, with how many earlier ones are left out (default: all)",
    )
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(
        func=_cmd_history,
        field_flags={**WHO_FLAGS, "belief_id": "belief_id", "events": "--events"},
    )
    p = commands.add_parser(
        "list", help="every belief of a principal, whatever its state, one a line in id order"
    )
    add_who_args(p)
    p.add_argument(
        "--state",
        action="append",
        choices=STATES,
        help="only beliefs in this state (repeatable; default: every state)",
    )
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_list, field_flags=WHO_FLAGS)
    _add_held_parser(commands)
    _add_add_parser(commands)
    return group
