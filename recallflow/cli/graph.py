"""``recallflow graph``: stage graphs people can read.

``graph DAG`` draws a moment's DAG (or the archival search's); ``graph --trace ID`` the
DAG that served a stored recall with each node's measured time and rows, coloured by its
share of the recall's node time, degraded and skipped arms marked; ``graph --diff A B``
what an experiment changed between two sides, each a stored trace (``tr-...``), a policy
(``default``, ``match_only`` or a policy JSON file) or a module set
(``modules:pkg.mod[,pkg.other]`` over the default policy). Output is ``.svg`` (default),
``.png`` or ``.dot``.
"""

from __future__ import annotations

import argparse
import importlib
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from recallflow.cli.args import (
    WHO_FLAGS,
    UsageError,
    add_json_arg,
    add_store_args,
    key,
    open_store,
    output_file,
    read_flag_file,
)

MOMENTS = ("in_turn", "session_snapshot", "child_run")
#: The files a graph is written as: DOT text (no suffix, ``.dot``, ``.gv``) or laid out.
GRAPH_SUFFIXES = ("", ".dot", ".gv", ".svg", ".png")


def graph_file(value: str) -> str:
    """A graph output file flag (``--out``, ``--graph-out``): a suffix it can be written as
    (Graphviz refuses others with a traceback), in a directory that exists and not one
    itself, each checked before any store is opened or graph built (``demo`` would
    otherwise load its memory and fail only at the end)."""
    if Path(value).suffix.lower() not in GRAPH_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"{value[:60]!r}: a graph is written as .svg, .png or .dot"
        )
    output_file(value)  # written at the end, where a bad path was an errno and exit 1
    return value


def diff_side(value: str) -> str:
    """A side of ``--diff``: a trace id is checked as an identifier here, before a store
    is opened for it; a policy or a module set is judged when its side is built."""
    return key(value) if value.startswith("tr-") else value


def _print_json(value: Any) -> None:
    import json

    print(json.dumps(value, indent=2, ensure_ascii=False))


def _store(args: argparse.Namespace) -> Any:
    if args.tenant is None or args.principal is None:
        raise UsageError("a stored trace needs --tenant and --principal")
    return open_store(args, operator=True)


def _policy(spec: str) -> Any:
    from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy, match_only

    if spec == "default":
        return DEFAULT_POLICY
    if spec == "match_only":
        return match_only(DEFAULT_POLICY)
    path = Path(spec)
    if not path.is_file():
        raise UsageError(
            f"--diff: {spec!r} is not a trace id (tr-...), a policy (default, match_only, a"
            " policy JSON file) or a module set (modules:pkg.mod,...)"
        )
    return read_flag_file(
        "--diff", path, lambda file: RetrievalPolicy.model_validate_json(file.read_bytes())
    )


@contextmanager
def _hamilton_quiet() -> Iterator[None]:
    """Hamilton's own log off while a module set is built: it logs a module it cannot
    compile as a traceback and a help banner, and the command's error is one line."""
    hamilton = logging.getLogger("hamilton")
    level = hamilton.level
    hamilton.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        hamilton.setLevel(level)


def _imported(spec: str, name: str) -> Any:
    """The module ``name`` of a ``--diff`` module set, or a usage error naming it: a name
    that is not importable (missing, relative) or a module whose import fails in any way
    (a syntax error, an exception at import) is the user's module, not a bug here."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise UsageError(f"--diff: {spec}: {exc}") from None
    except Exception as exc:  # whatever the module raises while it is imported
        detail = " ".join(str(exc).split())
        raise UsageError(
            f"--diff: {spec}: importing {name!r} failed: {type(exc).__name__}"
            + (f": {detail}" if detail else "")
        ) from None


def _side(spec: str, args: argparse.Namespace, memory: Any) -> Any:
    from recallflow.dataflows.snapshot import build
    from recallflow.policy import DEFAULT_POLICY
    from recallflow.visualizations.diff_graph import DiffSide
    from recallflow.visualizations.trace_graph import experiment_inputs, trace_driver

    if spec.startswith("tr-"):
        trace = memory.trace(args.tenant, args.principal, spec)
        config, _ = experiment_inputs(trace)
        return DiffSide(
            label=f"trace {trace.id} (policy {trace.retrieval_policy_version})",
            driver=trace_driver(trace),
            config=config,
            trace=trace,
        )
    if spec.startswith("modules:"):
        from recallflow.errors import InvalidInputError

        names = [n for n in spec.removeprefix("modules:").split(",") if n]
        if not names:
            raise UsageError(f"--diff: {spec!r} names no module (modules:pkg.mod,...)")
        modules = tuple(_imported(spec, name) for name in names)
        try:
            with _hamilton_quiet():  # its log of a refused module is a traceback
                driver = build(args.moment, policy=DEFAULT_POLICY, extra_modules=modules)
        except InvalidInputError as exc:
            message = str(exc).removeprefix("field 'experiment.modules': ")
            raise UsageError(f"--diff: {spec}: {message}") from None
        return DiffSide(label=spec, driver=driver, policy=DEFAULT_POLICY)
    policy = _policy(spec)
    return DiffSide(
        label=f"{spec} ({policy.version})", driver=build(args.moment, policy=policy), policy=policy
    )


def _cmd_graph(args: argparse.Namespace) -> int:
    from recallflow.visualizations.stages import write_dot, write_stage_graph

    chosen = [x for x in (args.dag, args.trace, args.diff) if x]
    if len(chosen) != 1:
        raise UsageError("give one of: a DAG name, --trace ID, --diff A B")
    if args.moment is not None and not (
        args.diff and not all(s.startswith("tr-") for s in args.diff)
    ):
        # Drawn regardless, the graph was of another moment than the one asked for.
        raise UsageError(
            "--moment is the moment of a --diff of policies or module sets; a DAG is named"
            " by its moment (graph child_run) and a trace carries its own"
        )
    args.moment = args.moment or "in_turn"
    out = Path(args.out)
    if args.trace:
        from recallflow.visualizations.trace_graph import trace_dot, trace_driver

        with _store(args) as memory:
            trace = memory.trace(args.tenant, args.principal, args.trace)
        driver = trace_driver(trace)
        write_dot(trace_dot(driver, trace), out)
        summary: dict[str, Any] = {"trace": trace.id, "out": str(out), "nodes": len(trace.lineage)}
        what = f"stage graph of trace {trace.id}"
    elif args.diff:
        from recallflow.visualizations.diff_graph import diff_dot, item_changes

        args.field_flags = {**args.field_flags, "trace_id": "--diff"}
        traces = any(s.startswith("tr-") for s in args.diff)
        memory = _store(args) if traces else None
        try:
            a, b = (_side(s, args, memory) for s in args.diff)
        finally:
            if memory is not None:
                memory.close()
        write_dot(diff_dot(a, b), out)
        summary = {"diff": list(args.diff), "out": str(out)}
        if a.trace is not None and b.trace is not None:
            summary["items"] = item_changes(a.trace, b.trace)
        what = f"diff of {args.diff[0]} and {args.diff[1]}"
    else:
        if args.dag == "episodes":
            from recallflow.dataflows.episodes import build as build_episodes

            driver = build_episodes()
        else:
            from recallflow.dataflows.snapshot import build

            driver = build(args.dag)
        write_stage_graph(driver, out)
        summary = {"dag": args.dag, "out": str(out), "nodes": len(driver.graph.nodes)}
        what = f"stage graph of {args.dag}"
    if args.json:
        _print_json(summary)
    else:
        print(f"{what} written to {out}")
    return 0


def add_graph_parser(subparsers: Any) -> None:
    """Register ``graph`` on ``subparsers``."""
    p = subparsers.add_parser(
        "graph", help="draw a stage graph: a DAG, a stored recall's timings, or a diff"
    )
    p.add_argument("dag", nargs="?", choices=[*MOMENTS, "episodes"], help="a moment, or episodes")
    p.add_argument("--trace", type=key, default=None, help="a stored recall's trace id (tr-...)")
    p.add_argument(
        "--diff",
        nargs=2,
        type=diff_side,
        metavar=("A", "B"),
        default=None,
        help="two sides: trace ids, policies (default, match_only, a JSON file) or module"
        " sets (modules:pkg.mod,...)",
    )
    p.add_argument(
        "--moment",
        default=None,
        choices=MOMENTS,
        help="the moment of a --diff of policies or module sets (default in_turn)",
    )
    p.add_argument("--tenant", default=None, type=key, help="the trace's tenant")
    p.add_argument("--principal", default=None, type=key, help="the trace's principal")
    p.add_argument(
        "--out",
        default="stages.svg",
        type=graph_file,
        help="output file: .svg, .png or .dot (default: stages.svg, whichever graph it is)",
    )
    add_store_args(p)
    add_json_arg(p)
    # A trace id the store does not hold is named by the flag that gave it.
    p.set_defaults(func=_cmd_graph, field_flags={**WHO_FLAGS, "trace_id": "--trace"})
