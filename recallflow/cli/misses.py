"""``recallflow miss report`` and ``recallflow miss list``: the misses of recall, from a
terminal or a script (see "Miss hints" in docs/corrections.md).

``report`` records that a stored recall should have shown something it did not — a belief
the principal holds (``--belief``), or what should have been remembered in words
(``--expected``), or both — as the user says it; ``list`` prints the hints formation has
not acknowledged yet, inferred (subjects recalled repeatedly with nothing above the
floor) and reported, oldest first. Acknowledging a hint is formation's, through the Python
API.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from recallflow.cli.args import (
    WHO_FLAGS,
    UsageError,
    add_json_arg,
    add_store_args,
    add_who_args,
    belief_statement,
    json_text,
    json_value,
    key,
    open_store,
    terminal_line,
    user_note,
)

if TYPE_CHECKING:
    from recallflow.models.corrections import MissHint

#: The fields of ``MissHints.report`` set from a flag or an argument, for the store's
#: refusals.
_REPORT_FLAGS = {
    **WHO_FLAGS,
    "trace_id": "trace_id",
    "belief_id": "--belief",
    "expected": "--expected",
    "note": "--note",
}


def _line(hint: MissHint) -> str:
    """One pending hint as a line."""
    when = hint.queued_at.isoformat(timespec="seconds") if hint.queued_at else "-"
    if hint.kind == "inferred":
        return f"{when}  inferred  {terminal_line(hint.subject)} ({hint.miss_count} misses)"
    what = [f"[{hint.belief_id}]"] if hint.belief_id else []
    if hint.expected:
        what.append(terminal_line(hint.expected))
    note = f"; note: {terminal_line(hint.note)}" if hint.note else ""
    return f"{when}  reported  {hint.id} of trace {hint.trace_id}: {' '.join(what)}{note}"


def _cmd_report(args: argparse.Namespace) -> int:
    if args.belief is None and args.expected is None:
        raise UsageError(
            "--expected: say what the recall should have shown (--expected TEXT, --belief ID,"
            " or both)"
        )
    with open_store(args) as memory:
        report = memory.miss_hints.report(
            args.tenant,
            args.principal,
            args.trace_id,
            belief_id=args.belief,
            expected=args.expected,
            note=args.note,
        )
    if args.json:
        print(json_text(report))
        return 0
    done = "recorded" if report.recorded else "already recorded (nothing changed)"
    print(f"reported a miss of trace {args.trace_id}: {done} as {report.hint.id}")
    return 0


def _cmd_list(args: argparse.Namespace) -> int:
    with open_store(args) as memory:
        hints = memory.miss_hints.pending(args.tenant, args.principal)
    if args.json:
        import json

        print(json.dumps([json_value(h) for h in hints], indent=2))
        return 0
    for hint in hints:
        print(_line(hint))
    print(f"{len(hints)} pending miss hints of {args.tenant}/{args.principal}")
    return 0


def add_miss_parsers(subparsers: Any) -> None:
    """Register ``miss report`` and ``miss list`` on ``subparsers``."""
    miss: argparse.ArgumentParser = subparsers.add_parser(
        "miss", help="report what a recall should have shown; list the pending miss hints"
    )
    commands = miss.add_subparsers(dest="miss_command", required=True)

    p = commands.add_parser("report", help="record that a stored recall missed something")
    p.add_argument("trace_id", type=key, help="the trace id of the recall that missed it")
    p.add_argument(
        "--belief", default=None, type=key, help="a belief of the principal it should have shown"
    )
    p.add_argument(
        "--expected",
        default=None,
        type=belief_statement,
        help="what should have been remembered, in words, as one statement",
    )
    p.add_argument("--note", default=None, type=user_note, help="the user's words")
    add_who_args(p)
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_report, field_flags=_REPORT_FLAGS)

    p = commands.add_parser("list", help="the miss hints formation has not acknowledged")
    add_who_args(p)
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_list, field_flags=dict(WHO_FLAGS))
