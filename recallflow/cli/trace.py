"""``recallflow trace`` and ``recallflow retention run``: the trace as a user surface and
its retention (see "The trace" in docs/architecture.md).

``trace ID --view user`` prints what the user may see (``Memory.explain``) for a viewing
surface; ``--view operator`` the whole stored trace, opening the store with the operator
capability. ``retention run`` nulls the operator fields past their tuning window.
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from typing import Any

from recallflow.cli.args import SURFACES, UsageError, add_json_arg, instant, key, open_store


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
            print(trace.model_dump_json(indent=2) if args.json else trace_summary(trace))
            return 0
        view = memory.explain(
            args.tenant, args.principal, args.trace_id, viewer_surface=args.surface or "direct"
        )
        if args.json:
            print(view.model_dump_json(indent=2))
            return 0
        print(
            f"trace {view.trace_id} ({view.moment.value}, shown on {view.surface.value},"
            f" viewed on {view.viewer_surface.value})"
        )
        for item in view.items:
            where = f" in {item.origin_project}" if item.origin_project else ""
            when = f" on {item.learned_on}" if item.learned_on else ""
            cited = " [cited]" if item.cited else ""
            print(f"- [{item.belief_id}] ({item.band.value}) {item.statement}{cited}")
            if item.forgotten:
                print("    forgotten since")
            else:
                print(
                    f"    learned{when}{where}; {item.source_authority}"
                    + (f"; from episode {item.source_episode_id}" if item.source_episode_id else "")
                )
        counts: dict[str, Any] = {
            "withheld": view.withheld,
            "dropped below floor": view.dropped_below_floor,
            "dropped by budget": view.dropped_by_budget,
            "blocked": view.blocked,
            "redacted": view.redacted,
            "corrections deferred": view.corrections_deferred,
        }
        print(json.dumps(counts))
    return 0


def _cmd_retention(args: argparse.Namespace) -> int:
    now = args.now or datetime.now(UTC)
    with open_store(args) as memory:
        run = memory.run_retention(now)
    if args.json:
        print(run.model_dump_json(indent=2))
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
    p.add_argument("--tenant", required=True, type=key)
    p.add_argument("--principal", required=True, type=key)
    p.add_argument("--view", choices=["user", "operator"], default="user")
    p.add_argument(
        "--surface",
        default=None,
        choices=SURFACES,
        help="the surface the user view is shown on (default direct; not with --view operator)",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_trace)
    p = sub.add_parser("retention", help="expire trace operator fields past the tuning window")
    rsub = p.add_subparsers(dest="retention_command", required=True)
    run = rsub.add_parser("run", help="run the retention job once (idempotent)")
    store_args(run)
    run.add_argument(
        "--now",
        type=instant,
        default=None,
        help="ISO time to run as, with a timezone (default: now)",
    )
    add_json_arg(run)
    run.set_defaults(func=_cmd_retention)
