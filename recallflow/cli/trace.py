"""``recallflow trace`` and ``recallflow retention run``: the trace as a user surface and
its retention (see "The trace" in docs/architecture.md).

``trace ID --view user`` prints what the user may see (``Memory.explain``) for a viewing
surface; ``--view operator`` the whole stored trace, opening the store with the operator
capability. ``retention run`` nulls the operator fields past their tuning window.
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from recallflow.cli.args import (
    SURFACES,
    WHO_FLAGS,
    UsageError,
    add_json_arg,
    add_who_args,
    json_text,
    key,
    open_store,
    past_instant,
    terminal_line,
)

if TYPE_CHECKING:
    from recallflow.models.trace_view import RecallTraceView


def print_view(view: RecallTraceView) -> None:
    """The user's view as text: the recall, each item it showed with where it came from,
    a session turn's correction lines, then what it did not show, as counts in words."""
    session = f"; session {view.session_id}" if view.session_id else ""
    print(
        f"trace {view.trace_id} ({view.moment.value}, shown on {view.surface.value},"
        f" viewed on {view.viewer_surface.value}{session})"
    )
    for item in view.items:
        where = f" in {item.origin_project}" if item.origin_project else ""
        when = f" on {item.learned_on}" if item.learned_on else ""
        marks = [
            m
            for m, on in (("provisional", item.provisional), ("in conflict", item.conflicted))
            if on
        ]
        tags = f" [{', '.join(marks)}]" if marks else ""
        cited = " [cited]" if item.cited else ""
        # A forgotten item's id reads "[erased]" already (an id never starts with "[").
        label = item.belief_id if item.belief_id.startswith("[") else f"[{item.belief_id}]"
        print(f"- {label} ({item.band.value}) {terminal_line(item.statement)}{tags}{cited}")
        if item.forgotten:
            print("    forgotten since")
        else:
            print(
                f"    learned{when}{where}; {item.source_authority}"
                + (f"; from episode {item.source_episode_id}" if item.source_episode_id else "")
            )
    if view.corrections:
        print("corrections of the session's cached block:")
        for correction in view.corrections:
            gone = "  (a belief it names was forgotten since)" if correction.forgotten else ""
            print(f"  {correction.line}{gone}")
    if not view.items and not view.corrections:
        print(
            "  (no item of it is shown on this surface)"
            if view.withheld or view.corrections_withheld
            else "  (it showed nothing)"
        )
    counts = [
        f"{len(view.items)} shown",
        f"{view.withheld} withheld on this surface",
        f"{view.dropped_below_floor} dropped below the floor",
        f"{view.dropped_by_budget} dropped by the budget",
        f"{view.blocked} blocked",
        f"{view.redacted} redacted",
    ]
    if view.session_id:
        counts.append(f"{len(view.corrections)} corrections told")
        if view.corrections_withheld:
            counts.append(f"{view.corrections_withheld} corrections withheld on this surface")
        counts.append(f"{view.corrections_deferred} corrections deferred")
    print("; ".join(counts))


def _cmd_trace(args: argparse.Namespace) -> int:
    from recallflow.visualizations.trace_view import trace_summary

    operator = args.view == "operator"
    if operator and args.surface is not None:
        # The operator view is the whole stored trace: shown whole, it told nothing of
        # what that surface may see.
        raise UsageError(
            "--surface is the surface the user view is shown on; --view operator shows the"
            " whole stored trace"
        )
    with open_store(args, operator=operator) as memory:
        if operator:
            trace = memory.trace(args.tenant, args.principal, args.trace_id)
            print(json_text(trace) if args.json else trace_summary(trace))
            return 0
        view = memory.explain(
            args.tenant, args.principal, args.trace_id, viewer_surface=args.surface or "direct"
        )
        if args.json:
            print(json_text(view))
            return 0
        print_view(view)
    return 0


def _cmd_retention(args: argparse.Namespace) -> int:
    now = args.now or datetime.now(UTC)
    with open_store(args) as memory:
        run = memory.run_retention(now)
    if args.json:
        print(json_text(run))
        return 0
    print(
        f"retention: operator fields expired on {run.operator_expired} traces;"
        f" {run.sessions_ended} sessions ended, user views deleted on"
        f" {run.user_views_deleted} traces, {run.sessions_deleted} sessions deleted"
    )
    return 0


def add_trace_parsers(sub: Any, store_args: Any) -> None:
    """Register ``trace`` and ``retention``."""
    p = sub.add_parser("trace", help="show a stored trace: the user's view or the operator's")
    store_args(p)
    p.add_argument("trace_id", type=key, help="the trace id a recall returned (tr-...)")
    add_who_args(p)
    p.add_argument(
        "--view",
        choices=["user", "operator"],
        default="user",
        help="user (default): what the user may see of it; operator: the whole stored trace"
        " (queries, arms, score breakdowns, lineage)",
    )
    p.add_argument(
        "--surface",
        default=None,
        choices=SURFACES,
        help="the surface the user view is shown on (default direct; not with --view operator)",
    )
    add_json_arg(p)
    p.set_defaults(
        func=_cmd_trace,
        field_flags={**WHO_FLAGS, "trace_id": "trace_id", "viewer_surface": "--surface"},
    )
    p = sub.add_parser(
        "retention",
        help="the retention job: expire traces' operator fields, end idle sessions, delete"
        " ended sessions' user views",
    )
    rsub = p.add_subparsers(dest="retention_command", required=True)
    run = rsub.add_parser(
        "run",
        help="run the retention job once (idempotent)",
        description="Null the operator fields of traces past the tuning window, end the"
        " sessions idle for session_idle_days, delete the user-safe fields of ended"
        " sessions' traces and the ended sessions none of whose traces keeps operator"
        " fields; print the counts.",
    )
    store_args(run)
    run.add_argument(
        "--now",
        type=past_instant,
        default=None,
        help="ISO time to run as, with a timezone, not in the future (default: now)",
    )
    add_json_arg(run)
    run.set_defaults(func=_cmd_retention, field_flags={"now": "--now"})
