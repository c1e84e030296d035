"""``recallflow eval``: the evaluation harness on the command line.

Runs LoCoMo evidence retrieval (recallflow beside BM25, dense, BM25+dense RRF and the
peers: LangGraph's ``PostgresStore`` and mem0, with the published DRAGON anchor), the
scenario suites, the off-topic suite and the hard gates, with progress bars on a terminal;
prints every figure, writes ``eval-report.md``, ``eval-report.json`` and
``eval-report.html`` (charts, and this run against the report it replaces) into ``--out``.

Exit status (docs/cli.md): :data:`EXIT_PASSED` (0) when everything asked for was measured
and every hard gate passed; :data:`EXIT_GATE_FAILED` (1) when a hard gate failed;
:data:`EXIT_UNMEASURED` (3) when something asked for could not be measured (the LoCoMo
file, the scenario directory or the off-topic suite is missing): such a run says so and
never passes for a measured one. Nothing is downloaded.

By default it runs against a throwaway embedded PostgreSQL in a temporary directory,
removed afterwards, so it never touches the user's store: without ``--dsn`` it ignores
``RECALLFLOW_DSN`` and ``RECALLFLOW_READ_DSN``, which name the user's server.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from recallflow.cli.args import (
    EXIT_FAILURE,
    EXIT_OK,
    EXIT_UNMEASURED,
    UsageError,
    at_least_one,
    dsn,
    env_dsn,
    input_file,
    read_flag_file,
)

DEFAULT_SCENARIOS = Path("benchmarks") / "scenarios"
DEFAULT_OFFTOPIC = Path("benchmarks") / "offtopic.json"

#: Everything asked for was measured and every hard gate passed.
EXIT_PASSED = EXIT_OK
#: A hard gate failed.
EXIT_GATE_FAILED = EXIT_FAILURE


def _repo_root() -> Path:
    """The checkout this module is in: recallflow/cli/eval.py is two levels below it."""
    return Path(__file__).resolve().parents[2]


def resolve(path: Path) -> Path:
    """``path`` as given if it exists (absolute or relative to the cwd), else relative
    to the repository root; the repository-root form when neither exists."""
    if path.is_absolute() or path.exists():
        return path
    return _repo_root() / path


def _report_dir(value: str) -> Path:
    """``--out``: a directory the reports can be written in, made if missing; refused at
    parse time when it, or the nearest part of it that exists, is not a directory, since
    the reports are written only after the whole run has been measured."""
    path = input_file(value)
    existing = next((p for p in (path, *path.parents) if p.exists()), Path("."))
    if not existing.is_dir():
        raise argparse.ArgumentTypeError(
            f"{value[:60]!r}: {str(existing)[:60]!r} is not a directory to write the reports in"
        )
    return path


def add_eval_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``recallflow eval`` on ``subparsers`` (from ``add_subparsers``)."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "eval", help="run the evaluation harness (LoCoMo, baselines, scenarios, gates)"
    )
    p.add_argument(
        "--locomo",
        type=input_file,
        default=None,
        help="LoCoMo locomo10.json (default: where docs/evaluation.md says the harness"
        " looks, from the cwd or the repo root)",
    )
    p.add_argument(
        "--scenarios",
        type=input_file,
        default=DEFAULT_SCENARIOS,
        help=f"directory of scenario JSON files (default {DEFAULT_SCENARIOS})",
    )
    p.add_argument(
        "--offtopic",
        type=input_file,
        default=DEFAULT_OFFTOPIC,
        help=f"the off-topic suite (default {DEFAULT_OFFTOPIC})",
    )
    p.add_argument(
        "--embedder",
        default=None,
        choices=("minilm", "e5", "hashing"),
        help="embedder of the run's store: minilm, e5 or hashing (default: RECALLFLOW_EMBEDDER)",
    )
    p.add_argument("--out", type=_report_dir, default=Path("."), help="where to write the reports")
    p.add_argument(
        "--split",
        choices=("dev", "test", "all"),
        default="all",
        help="LoCoMo conversations: dev (the first five, the only ones tuned on), test, or"
        " all (default)",
    )
    p.add_argument(
        "--conversations", type=at_least_one, default=None, help="first N conversations only"
    )
    p.add_argument("--skip-peers", action="store_true", help="skip the peers (LangGraph, mem0)")
    p.add_argument(
        "--skip-sessions", action="store_true", help="skip the sessions (and their gate)"
    )
    p.add_argument(
        "--no-progress",
        "--quiet",
        dest="no_progress",
        action="store_true",
        help="no progress bars (they are shown only on a terminal anyway)",
    )
    p.add_argument(
        "--dsn",
        default=None,
        type=dsn,
        help="run against this PostgreSQL (default: a throwaway embedded one)",
    )
    p.add_argument("--home", default=None, help="embedded server home (default: a temp dir)")
    p.set_defaults(func=cmd_eval)
    return p


_STORE_VARIABLES = ("RECALLFLOW_DSN", "RECALLFLOW_READ_DSN")


@contextmanager
def _own_store(own: bool) -> Iterator[None]:
    """For the whole run, without ``--dsn``: the user's ``RECALLFLOW_DSN`` and
    ``RECALLFLOW_READ_DSN`` set aside, so the run writes its tenants into its own
    throwaway (or ``--home``) server and never into the server they name."""
    saved = {name: os.environ.pop(name) for name in _STORE_VARIABLES if own and name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def cmd_eval(args: argparse.Namespace) -> int:
    """Run the harness; the exit status is one of the ``EXIT_*`` constants."""
    from recallflow.adapters.embedders import default_embedder, embedder_from_name
    from recallflow.adapters.postgres.embedded import home_path
    from recallflow.errors import ConfigurationError, ConnectionOptionError, HomeError
    from recallflow.evaluation.locomo import DEFAULT_PATH, LocomoDataset
    from recallflow.evaluation.offtopic import load_suite
    from recallflow.evaluation.report import render_summary
    from recallflow.evaluation.reports import EvalOptions
    from recallflow.evaluation.runner import run_eval, skipped_dataset, write_report
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
        dataset = LocomoDataset(locomo)
        read_flag_file("--locomo", locomo, lambda _: dataset.groups())
        datasets.append(dataset)
    scenario_dir = resolve(args.scenarios)
    scenarios = None
    if scenario_dir.is_dir():
        scenarios = read_flag_file("--scenarios", scenario_dir, load_scenarios)
    scenario_message = "" if scenarios is not None else f"no scenario directory at {scenario_dir}"
    offtopic_path = resolve(args.offtopic)
    offtopic = None
    if offtopic_path.is_file():
        offtopic = read_flag_file("--offtopic", offtopic_path, load_suite)
    offtopic_message = "" if offtopic is not None else f"no off-topic suite at {offtopic_path}"
    if not datasets:  # said once every input is known to be usable
        message = (
            f"LoCoMo not found at {locomo}; expected locomo10.json there (pass --locomo PATH;"
            " see docs/evaluation.md). Nothing is downloaded."
        )
        print(message, file=sys.stderr)
        skipped.append(skipped_dataset("LoCoMo", message))
    try:
        embedder = embedder_from_name(args.embedder) if args.embedder else default_embedder()
    except ValueError as exc:  # a bad RECALLFLOW_EMBEDDER (--embedder is checked by choices)
        raise UsageError(str(exc)) from None

    if args.dsn is not None:  # read by open_memory beside --dsn; a bad one is bad input here
        env_dsn("RECALLFLOW_READ_DSN")
    temp_home: str | None = None
    home = args.home
    if home is not None:  # a regular file, say: refused as the flag, before anything is made
        try:
            home_path(home, "--home")
        except ConfigurationError as exc:
            raise UsageError(str(exc)) from None
    if args.dsn is None and home is None:
        temp_home = home = tempfile.mkdtemp(prefix="recallflow-eval-")
    try:
        with (
            _own_store(args.dsn is None),
            open_memory(args.dsn, home, embedder=embedder, operator=True) as memory,
        ):
            report = run_eval(
                memory,
                datasets=datasets,
                skipped=skipped,
                scenarios=scenarios,
                scenario_message=scenario_message,
                offtopic=offtopic,
                offtopic_message=offtopic_message,
                options=options,
            )
    except ConnectionOptionError as exc:  # an option libpq judges only when connecting
        named = exc.source if exc.source == "RECALLFLOW_READ_DSN" else None
        raise UsageError(
            f"{named or ('--dsn' if args.dsn else 'RECALLFLOW_DSN')}: {exc.detail}"
        ) from None
    except HomeError as exc:  # still a runtime failure (exit 1), named as the flag
        if args.home is None:
            raise
        raise HomeError("--home", exc.detail) from exc.__cause__
    finally:
        if temp_home is not None:
            shutil.rmtree(temp_home, ignore_errors=True)
    from recallflow.evaluation.report_html import previous_report, write_eval_html

    previous = previous_report(args.out / "eval-report.json")
    md, js = write_report(report, args.out)
    print(render_summary(report))
    print(f"wrote {md} and {js} ({report.duration_s:.0f} s)")
    try:
        page = write_eval_html(
            report.model_dump(mode="json"), args.out, previous, md.read_text(encoding="utf-8")
        )
    except ConfigurationError as exc:  # the charts need the viz extra
        print(f"no HTML report: {exc}", file=sys.stderr)
    else:
        print(f"wrote {page}")
    if report.failed:
        print("hard gates FAILED", file=sys.stderr)
        return EXIT_GATE_FAILED
    if report.unmeasured:
        print(
            f"NOT MEASURED (exit {EXIT_UNMEASURED}): " + "; ".join(report.unmeasured),
            file=sys.stderr,
        )
        return EXIT_UNMEASURED
    degraded = report.degraded.degraded if report.degraded is not None else 0
    if degraded:
        print(
            f"every part measured; hard gates passed; {degraded} recalls ran degraded"
            " (see 'degraded recalls' above)"
        )
    else:
        print("every part measured; hard gates passed")
    return EXIT_PASSED
