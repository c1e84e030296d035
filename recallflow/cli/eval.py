"""``recallflow eval``: the evaluation harness on the command line.

Runs LoCoMo evidence retrieval (recallflow beside BM25, dense, BM25+dense RRF and the
LangGraph ``PostgresStore`` peer, with the published DRAGON anchor), the scenario suites
and the hard gates, with progress bars; writes ``eval-report.md`` and
``eval-report.json`` into ``--out``; exits 1 when a hard gate fails.

By default it runs against a throwaway embedded PostgreSQL in a temporary directory,
removed afterwards, so it never touches the user's store. When the LoCoMo file is absent
that part is skipped with a message saying where it is expected; nothing is downloaded.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

DEFAULT_SCENARIOS = Path("benchmarks") / "scenarios"


def _repo_root() -> Path:
    return Path(__file__).resolve().parents[1]


def resolve(path: Path) -> Path:
    """``path`` as given if it exists (absolute or relative to the cwd), else relative
    to the repository root; the repository-root form when neither exists."""
    if path.is_absolute() or path.exists():
        return path
    return _repo_root() / path


def add_eval_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``recallflow eval`` on ``subparsers`` (from ``add_subparsers``)."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "eval", help="run the evaluation harness (LoCoMo, baselines, scenarios, gates)"
    )
    p.add_argument(
        "--locomo",
        type=Path,
        default=None,
        help="LoCoMo locomo10.json (default: where docs/evaluation.md says the harness"
        " looks, from the cwd or the repo root)",
    )
    p.add_argument(
        "--scenarios",
        type=Path,
        default=DEFAULT_SCENARIOS,
        help=f"directory of scenario JSON files (default {DEFAULT_SCENARIOS})",
    )
    p.add_argument("--out", type=Path, default=Path("."), help="where to write the reports")
    p.add_argument("--split", choices=("dev", "test", "all"), default="all")
    p.add_argument("--conversations", type=int, default=None, help="first N conversations only")
    p.add_argument("--skip-peers", action="store_true", help="skip the LangGraph peer")
    p.add_argument(
        "--skip-sessions", action="store_true", help="skip the sessions (and their gate)"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument(
        "--dsn",
        default=None,
        help="run against this PostgreSQL (default: a throwaway embedded one)",
    )
    p.add_argument("--home", default=None, help="embedded server home (default: a temp dir)")
    p.set_defaults(func=cmd_eval)
    return p


def cmd_eval(args: argparse.Namespace) -> int:
    """Run the harness; 0 when every hard gate passed or is not built, 1 on a failure."""
    from recallflow.evaluation.locomo import DEFAULT_PATH, LocomoDataset
    from recallflow.evaluation.runner import (
        EvalOptions,
        run_eval,
        skipped_dataset,
        write_report,
    )
    from recallflow.evaluation.scenarios import load_scenarios
    from recallflow.memory import open_memory

    options = EvalOptions(
        split=args.split,
        conversations=args.conversations,
        skip_peers=args.skip_peers,
        skip_sessions=args.skip_sessions,
        progress=not args.no_progress,
    )
    locomo = resolve(args.locomo or DEFAULT_PATH)
    datasets = []
    skipped = []
    if locomo.is_file():
        datasets.append(LocomoDataset(locomo))
    else:
        message = (
            f"LoCoMo not found at {locomo}; expected locomo10.json there (see "
            "../shared/datasets/locomo/README.md, or pass --locomo PATH). Nothing is downloaded."
        )
        print(message, file=sys.stderr)
        skipped.append(skipped_dataset("LoCoMo", message))
    scenario_dir = resolve(args.scenarios)
    scenarios = load_scenarios(scenario_dir) if scenario_dir.is_dir() else None
    scenario_message = "" if scenarios is not None else f"no scenario directory at {scenario_dir}"

    temp_home: str | None = None
    home = args.home
    if args.dsn is None and home is None:
        temp_home = home = tempfile.mkdtemp(prefix="recallflow-eval-")
    try:
        with open_memory(args.dsn, home, operator=True) as memory:
            report = run_eval(
                memory,
                datasets=datasets,
                skipped=skipped,
                scenarios=scenarios,
                scenario_message=scenario_message,
                options=options,
            )
    finally:
        if temp_home is not None:
            shutil.rmtree(temp_home, ignore_errors=True)
    md, js = write_report(report, args.out)
    for gate in report.gates:
        print(f"gate {gate.name}: {gate.status.value} — {gate.detail}")
    print(f"wrote {md} and {js} ({report.duration_s:.0f} s)")
    return 1 if report.failed else 0
