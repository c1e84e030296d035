"""``recallflow reject``, ``unflag``, ``supersede``, ``cite`` and ``forget``: corrections
and erasure from a terminal or a script (see "Feedback and corrections" in
docs/architecture.md).

``reject`` records one of the four kinds of rejection against a belief a stored recall
showed; ``unflag`` clears the flag an ``unspecified`` rejection set; ``supersede`` states
what holds now in place of a belief (after a ``changed`` rejection that gave no
replacement, say); ``cite`` records the beliefs the model cited from a recall; ``forget``
erases a principal (or one belief, one episode, one project's beliefs and episodes, or
one session's episodes) for good, after a confirmation on a terminal or with ``--yes``,
and refuses to run unattended without ``--yes``; ``--dry-run`` counts what a project's
or a session's erasure would take, and erases nothing.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from recallflow.cli.args import (
    EXIT_NOT_CONFIRMED,
    WHO_FLAGS,
    UsageError,
    add_json_arg,
    add_store_args,
    add_who_args,
    belief_statement,
    counted,
    instant,
    json_text,
    key,
    open_store,
    user_note,
)
from recallflow.cli.progress import spinner

#: The rejection kinds (the values of ``recallflow.RejectionKind``), each a different write.
KINDS = ("not_true", "changed", "not_here", "unspecified")
#: The fields of ``Memory.reject`` ``reject`` sets from a flag or an argument, for the
#: store's refusals (a belief the trace did not show is named by the argument typed).
_REJECT_FLAGS = {
    **WHO_FLAGS,
    "trace_id": "trace_id",
    "belief_id": "belief_id",
    "kind": "--kind",
    "replacement": "--replacement",
    "project": "--project",
    "note": "--note",
}


def _cmd_reject(args: argparse.Namespace) -> int:
    if args.replacement is not None and args.kind != "changed":
        raise UsageError("--replacement: only a `changed` rejection has a replacement")
    if args.project is not None and args.kind != "not_here":
        raise UsageError("--project: only a `not_here` rejection has a project")
    with open_store(args) as memory:
        # The person at the terminal typed the replacement: it is vouched for as stated by
        # the user; the rest of the successor is the rejected belief's.
        rejection = memory.reject(
            args.tenant,
            args.principal,
            args.trace_id,
            args.belief_id,
            args.kind,
            replacement=args.replacement,
            source_authority=None if args.replacement is None else "user_stated",
            project=args.project,
            note=args.note,
        )
    if args.json:
        print(json_text(rejection))
        return 0
    done = "recorded" if rejection.recorded else "already recorded (nothing changed)"
    # A flag leaves the state as it was: said apart, or an `unspecified` rejection read as
    # if it had changed nothing.
    flagged = ", flagged as possibly wrong" if rejection.belief.flagged else ""
    print(
        f"rejected [{rejection.belief_id}] as {rejection.kind.value} from trace "
        f"{rejection.trace_id}: {done}; the belief is now {rejection.belief.state.value}"
        f"{flagged}"
    )
    if rejection.replacement_id:
        print(f"  replaced by [{rejection.replacement_id}]")
    if rejection.project:
        print(f"  no longer recalled in {rejection.project}")
    return 0


def _cmd_unflag(args: argparse.Namespace) -> int:
    with open_store(args) as memory:
        done = memory.unflag(
            args.tenant, args.principal, args.belief_id, trace_id=args.trace, note=args.note
        )
    if args.json:
        print(json_text(done))
        return 0
    what = (
        "cleared its flag"
        if done.recorded
        else "it was not flagged as possibly wrong (nothing recorded)"
    )
    print(f"[{done.belief_id}]: {what}; the belief is now {done.belief.state.value}")
    return 0


def _cmd_supersede(args: argparse.Namespace) -> int:
    with open_store(args) as memory:
        # As a `changed` rejection's --replacement: the person at the terminal typed it, and
        # the rest of the successor is the old belief's.
        new = memory.restate(
            args.tenant,
            args.principal,
            args.belief_id,
            args.statement,
            successor_id=args.id,
            valid_from=args.valid_from,
            source_authority="user_stated",
        )
    if args.json:
        print(json_text(new))
        return 0
    print(f"superseded [{args.belief_id}] by [{new.id}]: {new.statement}")
    return 0


def _cmd_cite(args: argparse.Namespace) -> int:
    with open_store(args) as memory:
        citation = memory.cite(args.tenant, args.principal, args.trace_id, args.belief_ids)
    if args.json:
        print(json_text(citation))
        return 0
    cited = ", ".join(f"[{i}]" for i in citation.cited) or "nothing new"
    print(f"cited from trace {citation.trace_id}: {cited}")
    if citation.ended:
        ended = ", ".join(f"[{i}]" for i in citation.ended)
        print(f"  recorded, not reinforced (no longer held since the recall): {ended}")
    if citation.already_cited:
        print("  already cited from this trace: " + ", ".join(citation.already_cited))
    return 0


def _confirmed(what: str) -> bool:
    """Ask on the terminal; refuse (a usage error) when there is no terminal to ask on."""
    if not sys.stdin.isatty():
        raise UsageError(
            f"refusing to erase {what} without a confirmation: stdin is not a terminal; "
            "pass --yes to erase unattended"
        )
    try:
        answer = input(f"Erase {what} for good? This cannot be undone. [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def _cmd_forget(args: argparse.Namespace) -> int:
    who = f"{args.tenant}/{args.principal}"
    if args.belief:
        what = f"belief {args.belief} of {who}"
    elif args.episode:
        what = f"episode {args.episode} of {who}"
    elif args.project:
        what = f"everything of project {args.project} of {who}"
    elif args.session:
        derived = " and the beliefs derived from them" if args.with_beliefs else ""
        what = f"the episodes of session {args.session}{derived} of {who}"
    else:
        what = f"everything of {who}"
    if args.with_beliefs and not args.session:
        raise UsageError("--with-beliefs is for --session: the beliefs derived from its episodes")
    if args.dry_run and not (args.project or args.session):
        raise UsageError("--dry-run is for --project and --session")
    if not args.dry_run and not args.yes and not _confirmed(what):
        print(f"recallflow forget: not confirmed; nothing erased ({what})", file=sys.stderr)
        return EXIT_NOT_CONFIRMED
    with open_store(args) as memory:
        if args.belief:
            erasure = memory.forget_belief(args.tenant, args.principal, args.belief)
        elif args.episode:
            erasure = memory.forget_episode(args.tenant, args.principal, args.episode)
        elif args.project:
            erasure = memory.forget_project(
                args.tenant, args.principal, args.project, dry_run=args.dry_run
            )
        elif args.session:
            erasure = memory.forget_session(
                args.tenant,
                args.principal,
                args.session,
                with_beliefs=args.with_beliefs,
                dry_run=args.dry_run,
            )
        else:
            # One transaction, so no count to show as it goes: a spinner says it is working.
            with spinner(f"erasing {who}", quiet=args.quiet or args.json):
                erasure = memory.forget(args.tenant, args.principal)
    if args.json:
        print(json_text(erasure))
        return 0
    deleted = ", ".join(f"{table} {n}" for table, n in sorted(erasure.deleted.items()) if n)
    verb = "would erase" if args.dry_run else "erased"
    rows = counted(erasure.total_deleted, "row")
    if args.project or args.session:
        items = (
            f"{counted(erasure.deleted.get('beliefs', 0), 'belief')},"
            f" {counted(erasure.deleted['episodes'], 'episode')}"
        )
        if args.project:
            items += f", {counted(erasure.deleted['belief_exclusions'], 'not-here rejection')}"
        print(f"{verb} {what}: {items}; {rows} ({deleted or 'none held'})")
    else:
        print(f"{verb} {what}: {rows} ({deleted or 'nothing was stored'})")
    scrubbed = ", ".join(f"{table} {n}" for table, n in sorted(erasure.scrubbed.items()) if n)
    if scrubbed:
        print(f"  {'to scrub' if args.dry_run else 'scrubbed'} from: {scrubbed}")
    if args.dry_run:
        print("  dry run: nothing was erased")
    return 0


def add_correction_parsers(subparsers: Any) -> None:
    """Register ``reject``, ``unflag``, ``supersede``, ``cite`` and ``forget`` on
    ``subparsers``."""
    p = subparsers.add_parser("reject", help="reject a belief a stored recall showed")
    p.add_argument("trace_id", type=key, help="the trace id of the recall that showed it")
    p.add_argument("belief_id", type=key, help="the rejected belief")
    p.add_argument(
        "--kind",
        required=True,
        choices=KINDS,
        help="not_true: it never held (retired); changed: it held and changed (superseded"
        " by --replacement, else ended now); not_here: not in this project (excluded there);"
        " unspecified: only flagged",
    )
    p.add_argument(
        "--replacement",
        default=None,
        type=belief_statement,
        help=(
            "for --kind changed: what holds now, as a new belief that keeps the rejected"
            " one's subject, entities, scope and project, stated by the user"
        ),
    )
    p.add_argument(
        "--project", default=None, type=key, help="for not_here (default: the recall's project)"
    )
    p.add_argument(
        "--note",
        default=None,
        type=user_note,
        help="the user's words (a longer note is refused, naming the limit)",
    )
    add_who_args(p)
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_reject, field_flags=_REJECT_FLAGS)

    p = subparsers.add_parser(
        "unflag", help="clear the flag an unspecified rejection set on a belief"
    )
    p.add_argument("belief_id", type=key, help="the flagged belief")
    p.add_argument(
        "--trace",
        default=None,
        type=key,
        help="the recall the clear is made from (it must have shown the belief)",
    )
    p.add_argument(
        "--note",
        default=None,
        type=user_note,
        help="the user's words (a longer note is refused, naming the limit)",
    )
    add_who_args(p)
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(
        func=_cmd_unflag,
        field_flags={
            **WHO_FLAGS,
            "belief_id": "belief_id",
            "trace_id": "--trace",
            "note": "--note",
        },
    )

    p = subparsers.add_parser(
        "supersede", help="state what holds now in place of a belief (a new belief replaces it)"
    )
    p.add_argument("belief_id", type=key, help="the belief that no longer holds")
    p.add_argument(
        "statement",
        type=belief_statement,
        help="what holds now, as a new belief that keeps the old one's subject, entities,"
        " scope and project, stated by the user",
    )
    p.add_argument("--id", default=None, type=key, help="the new belief's id (default: a new one)")
    p.add_argument(
        "--valid-from",
        default=None,
        type=instant,
        help="when the new statement began to hold (ISO 8601 with a timezone; default now)",
    )
    add_who_args(p)
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(
        func=_cmd_supersede,
        field_flags={
            **WHO_FLAGS,
            "belief_id": "belief_id",
            "statement": "statement",
            "successor_id": "--id",
            "valid_from": "--valid-from",
        },
    )

    p = subparsers.add_parser("cite", help="record the beliefs the model cited from a recall")
    p.add_argument("trace_id", type=key, help="the trace id of the recall")
    p.add_argument("belief_ids", type=key, nargs="+", help="the cited beliefs")
    add_who_args(p)
    add_store_args(p)
    add_json_arg(p)
    # Each cited id is one of the ``belief_ids`` typed, whichever field the store names.
    p.set_defaults(
        func=_cmd_cite,
        field_flags={
            **WHO_FLAGS,
            "trace_id": "trace_id",
            "belief_id": "belief_ids",
            "belief_ids": "belief_ids",
        },
    )

    p = subparsers.add_parser(
        "forget",
        help="erase a principal, or one belief, episode, project or session, for good",
    )
    add_who_args(p)
    one = p.add_mutually_exclusive_group()
    one.add_argument("--belief", default=None, type=key, help="erase only this belief")
    one.add_argument(
        "--episode",
        default=None,
        type=key,
        help="erase only this episode (the beliefs derived from it stay)",
    )
    one.add_argument(
        "--project",
        default=None,
        type=key,
        help="erase every project-scope belief learned in this project, every episode logged"
        " in it and the not-here rejections made in it",
    )
    one.add_argument(
        "--session",
        default=None,
        type=key,
        help="erase every episode logged under this session id (the beliefs derived from"
        " them stay, unless --with-beliefs)",
    )
    p.add_argument(
        "--with-beliefs",
        action="store_true",
        help="with --session: erase the beliefs derived from its episodes too",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="with --project or --session: count what would be erased, erase nothing",
    )
    p.add_argument("--yes", action="store_true", help="do not ask (needed without a terminal)")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(
        func=_cmd_forget,
        field_flags={
            **WHO_FLAGS,
            "belief_id": "--belief",
            "episode_id": "--episode",
            "project": "--project",
            "session_id": "--session",
        },
    )
