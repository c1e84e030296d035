"""``recallflow bench report``: the Markdown report of a saved benchmark run.

The logic lives with the suites in ``benchmarks/report.py`` (a source checkout, which is
where ``make bench`` runs; it imports only the standard library). This module registers
the subcommand; outside a checkout it exists but says where to run it instead of failing
the whole CLI. Regressions between runs are pytest-benchmark's own comparison
(``make bench-compare``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

_TOOLS = {
    "report": "print a Markdown report of the newest saved run (targets, floor ratio, peers)",
}


def _tool(name: str) -> ModuleType | ImportError:
    try:
        return importlib.import_module(f"benchmarks.{name}")
    except ImportError as exc:
        return exc


def _runner(name: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        module = _tool(name)
        if isinstance(module, ImportError):
            print(
                f"recallflow bench {name} needs the benchmarks/ folder of a recallflow source"
                f" checkout; run it from the repository root ({module})",
                file=sys.stderr,
            )
            return 2
        try:
            return int(module.run(args))
        except ValueError as exc:  # a file that is not a run it can read: one line
            from recallflow.cli.args import UsageError

            raise UsageError(str(exc)) from None

    return run


def add_bench_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``bench`` and its ``report`` subcommand on ``subparsers``
    (the object ``ArgumentParser.add_subparsers()`` returns)."""
    bench: argparse.ArgumentParser = subparsers.add_parser(
        "bench", help="benchmark report (`make bench` saves the runs)"
    )
    tools = bench.add_subparsers(dest="bench_command", required=True)
    for name, help_text in _TOOLS.items():
        parser = tools.add_parser(name, help=help_text, description=help_text)
        module = _tool(name)
        if isinstance(module, ImportError):
            parser.add_argument("args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        else:
            module.add_arguments(parser)
        parser.set_defaults(func=_runner(name))
    return bench
