"""``recallflow session open|recall|show|end``: sessions from a terminal or a script (see
"Sessions" in docs/architecture.md).

``session open`` takes the snapshot and stores the cached prefix once, printing the
session id a later ``session recall`` (in this or any other process) names; ``session
recall`` runs one in-turn recall inside it, with the corrections section of every snapshot
belief that changed since; ``session show`` prints what was stored at open, prefix bytes
included; ``session end`` ends it (no more turns, and the next retention run deletes the
user-safe fields of its traces). Tenant and principal are given on every call: another
principal's session is not found, exactly like a missing one.
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from recallflow.cli.args import (
    SURFACE_HELP,
    SURFACES,
    WHO_FLAGS,
    UsageError,
    add_json_arg,
    add_store_args,
    add_who_args,
    empty_block,
    instant,
    json_text,
    json_value,
    key,
    open_store,
    validated,
)

if TYPE_CHECKING:
    from recallflow.models.session import SessionInfo

#: The session kinds ``session open --kind`` accepts (the values of ``SessionKind``).
KINDS = ("interactive", "async")
_FLAGS = {
    "goal": "--goal",
    "entities": "--entity",
    "working_state.goal": "query",
    "working_state.entities": "--entity",
}

#: The store fields ``session open`` sets from a flag, for the store's refusals.
_OPEN_FLAGS = {
    **WHO_FLAGS,
    "project": "--project",
    "surface": "--surface",
    "kind": "--kind",
    "goal": "--goal",
    "model_window": "--model-window",
}
#: The store fields a command on one session sets (a session that has ended is refused,
#: naming the id argument the user typed).
_SESSION_FLAGS = {**WHO_FLAGS, "session_id": "session_id"}


def session_document(info: SessionInfo, prefix: bytes) -> dict[str, Any]:
    """What ``session open`` and ``session show`` print as JSON: the stored session, its
    prefix text and the prefix's sha256."""
    stored = json_value(info)
    return {**stored, "session_id": info.id, "prefix": prefix.decode("utf-8")}


def _print_session(
    info: SessionInfo, prefix: bytes, *, opened: bool, ended: datetime | None = None
) -> None:
    verb = "opened" if opened else "session"
    print(
        f"{verb} {info.id} ({info.kind.value}) for {info.tenant_id}/{info.principal_id} on "
        f"{info.surface.value}" + (f" in {info.project}" if info.project else "")
    )
    print(
        f"  watermark {info.watermark.isoformat()}  policy {info.retrieval_policy_version}  "
        f"prefix sha256 {info.prefix_sha256}"
    )
    print(
        f"  snapshot: {len(info.beliefs)} beliefs (cap {info.max_items} items, "
        f"{info.max_tokens} tokens), trace {info.snapshot_trace_id}"
    )
    if ended is not None:
        past = ended <= datetime.now(UTC)
        print(f"  {'ended' if past else 'ends'} at {ended.isoformat()}: it takes no more turns")
    print()
    print(prefix.decode("utf-8"))


def _cmd_open(args: argparse.Namespace) -> int:
    from recallflow.models.fields import INT4_MAX
    from recallflow.models.request import WorkingState, asks_nothing
    from recallflow.models.session import SessionKind
    from recallflow.policy import DEFAULT_POLICY

    smallest = DEFAULT_POLICY.sessions.min_window
    if not smallest <= args.model_window <= INT4_MAX:
        share = DEFAULT_POLICY.sessions.budgets[SessionKind(args.kind)].window_share
        raise UsageError(
            f"--model-window: a session needs a model window of {smallest} to {INT4_MAX} tokens"
            f" ({share * 100:g}% of it holds the snapshot), got {args.model_window}"
        )
    goal = None
    if args.goal is not None or args.entity:
        goal = validated(
            WorkingState, {"goal": args.goal or "", "entities": tuple(args.entity or ())}, _FLAGS
        )
        if asks_nothing(goal):
            raise UsageError(
                "--goal: has no visible text, nor has any --entity: nothing to prime the"
                " snapshot with (leave both out to open the session without a goal)"
            )
    with open_store(args) as memory:
        session = memory.open_session(
            args.tenant,
            args.principal,
            surface=args.surface,
            project=args.project,
            kind=args.kind,
            goal=goal,
            model_window=args.model_window,
        )
        if args.json:
            print(
                json.dumps(
                    session_document(session.info, session.prefix), indent=2, ensure_ascii=False
                )
            )
        else:
            _print_session(session.info, session.prefix, opened=True)
    return 0


def _cmd_recall(args: argparse.Namespace) -> int:
    from recallflow.models.request import WorkingState, asks_nothing

    # The turn's goal is the positional query (session recall has no --goal).
    state = validated(
        WorkingState,
        {"goal": args.query, "entities": tuple(args.entity or ())},
        {**_FLAGS, "goal": "query"},
    )
    if asks_nothing(state):  # refused before the store is opened, as `recall` refuses it
        raise UsageError("query: has no visible text, nor has any --entity: nothing to recall for")
    with open_store(args) as memory:
        session = memory.resume_session(args.tenant, args.principal, args.session_id)
        result = session.recall(state)
        if args.json:
            print(json_text(result))
            return 0
        from recallflow.visualizations.trace_view import trace_summary

        trace = result.trace
        print(
            result.block
            or empty_block(
                trace.budget_dropped, trace.floor_dropped, in_prefix=len(trace.snapshot_relevant)
            )
        )
        print(trace_summary(result.trace))
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    from recallflow.sessions import stored_session

    # Read as stored, not resumed: an ended session (or one opened under another policy)
    # is still shown; only its turns are refused.
    with open_store(args) as memory:
        info, prefix, ended = stored_session(memory, args.tenant, args.principal, args.session_id)
    if args.json:
        document = session_document(info, prefix)
        document["ended_at"] = None if ended is None else ended.isoformat()
        print(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        _print_session(info, prefix, opened=False, ended=ended)
    return 0


def _cmd_end(args: argparse.Namespace) -> int:
    from recallflow.sessions import stored_session

    with open_store(args) as memory:
        # Ending is idempotent (the first end stands): read first, to say which this was.
        _, _, before = stored_session(memory, args.tenant, args.principal, args.session_id)
        ended = memory.end_session(args.tenant, args.principal, args.session_id, at=args.at)
    already = before is not None
    if args.json:
        print(
            json.dumps(
                {
                    "session_id": args.session_id,
                    "ended_at": ended.isoformat(),
                    "already_ended": already,
                }
            )
        )
    elif already:
        print(f"{args.session_id} had already ended at {ended.isoformat()}; the first end stands")
    else:
        print(f"ended {args.session_id} at {ended.isoformat()}")
    return 0


def add_session_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``session open|recall|show`` on ``subparsers``."""
    session: argparse.ArgumentParser = subparsers.add_parser(
        "session", help="open a session, recall inside it, show it, end it"
    )
    commands = session.add_subparsers(dest="session_command", required=True)

    p = commands.add_parser("open", help="take the snapshot and store the cached prefix")
    add_who_args(p)
    p.add_argument("--surface", default="direct", choices=SURFACES, help=SURFACE_HELP)
    p.add_argument("--project", default=None, type=key, help="the project the session works in")
    p.add_argument(
        "--kind",
        default="interactive",
        choices=KINDS,
        help="interactive (default): a conversation; async: a long run with a known objective",
    )
    p.add_argument("--goal", default=None, help="the session's goal, to prime the snapshot")
    p.add_argument("--entity", action="append", help="an active entity (repeatable)")
    p.add_argument(
        "--model-window",
        type=int,
        default=200_000,
        help="the model's context window in tokens (the snapshot gets a share of it)",
    )
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_open, field_flags=_OPEN_FLAGS)

    p = commands.add_parser("recall", help="an in-turn recall inside an open session")
    p.add_argument("session_id", type=key, help="the id `session open` printed (s-...)")
    p.add_argument("query", help="the goal / question of this turn")
    add_who_args(p)
    p.add_argument("--entity", action="append", help="an active entity (repeatable)")
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_recall, field_flags=_SESSION_FLAGS)

    p = commands.add_parser("show", help="the stored session and its prefix")
    p.add_argument("session_id", type=key, help="the id `session open` printed (s-...)")
    add_who_args(p)
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_show, field_flags=_SESSION_FLAGS)

    p = commands.add_parser("end", help="end a session: no more turns, its user views expire")
    p.add_argument("session_id", type=key, help="the id `session open` printed (s-...)")
    add_who_args(p)
    p.add_argument(
        "--at", default=None, type=instant, help="when it ended (ISO 8601 with offset; default now)"
    )
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_end, field_flags={**_SESSION_FLAGS, "at": "--at"})
    return session
