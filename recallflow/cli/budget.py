"""``recallflow budget report``: the shrink path of the session snapshot budget.

Reads the stored session traces and prints, per session kind, how much of the snapshot
later turns found relevant (utilization), how often a turn needed a durable belief the
snapshot did not hold (miss rate), the smallest item cap that would have held every
relevant item, and whether the kind's item cap could shrink — advised only once the kind
has the sessions and turns the policy asks for, else the verdict says it has too few (see
"The shrink path" in docs/sessions.md).
"""

from __future__ import annotations

import argparse
from typing import Any

from recallflow.cli.args import add_json_arg, add_store_args, json_text, key, open_store


def _f(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def budget_table(kinds: Any) -> list[str]:
    """Markdown table lines, one row per session kind (:class:`~recallflow.sessions.KindBudget`)."""
    header = [
        "kind",
        "sessions",
        "turns",
        "item cap",
        "mean snapshot items",
        "utilization",
        "per-turn utilization",
        "misses",
        "miss rate",
        "needed cap (max / median)",
        "verdict",
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for k in kinds:
        needed = (
            "–"
            if k.needed_cap_max is None
            else f"{k.needed_cap_max} / {_f(k.needed_cap_median, 1)}"
        )
        cells = [
            k.kind.value,
            str(k.sessions),
            str(k.turns),
            str(k.item_cap),
            _f(k.snapshot_items, 1),
            _f(k.utilization),
            _f(k.turn_utilization),
            str(k.misses),
            _f(k.miss_rate),
            needed,
            k.verdict,
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def format_report(report: Any) -> str:
    """The report as a Markdown table, one row per session kind."""
    lines = budget_table(report.kinds)
    lines.append("")
    lines.append(f"Sessions with no turn yet (left out): {report.sessions_without_turns}.")
    return "\n".join(lines)


def cmd_budget_report(args: argparse.Namespace) -> int:
    """Print the budget report of a store (``--json``: the report as JSON)."""
    from recallflow.sessions import budget_report

    with open_store(args) as memory:
        report = budget_report(memory, args.tenant)
        print(json_text(report) if args.json else format_report(report))
    return 0


def add_budget_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``budget report`` on ``subparsers`` (from ``add_subparsers``)."""
    budget: argparse.ArgumentParser = subparsers.add_parser(
        "budget", help="the session snapshot budget's shrink path"
    )
    tools = budget.add_subparsers(dest="budget_command", required=True)
    report = tools.add_parser(
        "report",
        help="snapshot utilization and miss rate per session kind; can the item cap shrink?",
    )
    report.add_argument(
        "--tenant", default=None, type=key, help="one tenant only (default: every tenant)"
    )
    add_store_args(report)
    add_json_arg(report)
    report.set_defaults(func=cmd_budget_report)
    return budget
