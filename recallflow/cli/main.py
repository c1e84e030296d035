"""The ``recallflow`` command line (DESIGN.md §8).

``recallflow demo`` loads the demo memory into the embedded store and shows it;
``recallflow migrate`` applies the migrations to a DSN; ``recallflow status`` prints what
a store holds. Every subcommand that opens a store closes it (and so stops an embedded
server it started) before it exits.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from recallflow.errors import RecallflowError


def _cmd_migrate(args: argparse.Namespace) -> int:
    from recallflow.adapters.postgres.bootstrap import prepare

    dsn = args.dsn or os.environ.get("RECALLFLOW_DSN")
    if not dsn:
        print("recallflow migrate needs --dsn or RECALLFLOW_DSN", file=sys.stderr)
        return 2
    applied = prepare(dsn)
    print("applied: " + (", ".join(applied) if applied else "nothing (already up to date)"))
    return 0


def _print_store(memory: object) -> None:
    from recallflow.memory import Memory

    assert isinstance(memory, Memory)
    for s in memory.summary():
        states = ", ".join(f"{k} {v}" for k, v in sorted(s.beliefs_by_state.items()))
        print(
            f"{s.tenant_id}/{s.principal_id}: {sum(s.beliefs_by_state.values())} beliefs "
            f"({states}); {s.episodes} episodes; {s.edges} edges"
        )


def _cmd_status(args: argparse.Namespace) -> int:
    from recallflow.memory import open_memory

    with open_memory(args.dsn, args.home) as memory:
        print(
            f"store: {'embedded' if memory.embedded else 'external'}; "
            f"embedder {memory.embedder.name} ({memory.embedder.dimension} dims); "
            f"tokens {memory.token_counter.encoding}"
        )
        _print_store(memory)
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from recallflow.cli import demo
    from recallflow.memory import open_memory

    started = time.perf_counter()
    with open_memory(args.dsn, args.home) as memory:
        opened = time.perf_counter() - started
        where = "embedded PostgreSQL" if memory.embedded else "external PostgreSQL"
        print(
            f"recallflow demo — {where}, embedder {memory.embedder.name}, "
            f"tokens {memory.token_counter.encoding} (opened in {opened:.2f} s)"
        )
        existing = {b.id for b in memory.beliefs.list(demo.TENANT, demo.PRINCIPAL)}
        if "b-user-name" in existing:
            print("demo memory already loaded; showing it")
        else:
            episodes, beliefs, edges = demo.demo_episodes(), demo.demo_beliefs(), demo.demo_edges()
            memory.episodes.add_many(episodes)
            memory.beliefs.add_many(beliefs)
            memory.edges.add_many(edges)
            print(f"loaded {len(episodes)} episodes, {len(beliefs)} beliefs, {len(edges)} edges")
        print()
        _print_store(memory)
        print()
        print(f"beliefs of {demo.TENANT}/{demo.PRINCIPAL}:")
        print(f"  {'id':<20} {'state':<11} {'scope':<7} {'origin':<12} {'sens':<8} statement")
        for b in memory.beliefs.list(demo.TENANT, demo.PRINCIPAL):
            text = b.statement if len(b.statement) <= 70 else b.statement[:67] + "..."
            print(
                f"  {b.id:<20} {b.state.value:<11} {b.scope.value:<7} "
                f"{b.origin_project or '-':<12} {b.sensitivity.name.lower():<8} {text}"
            )
        print()
        _demo_recall(memory, Path(args.graph_out))
        print()
        from recallflow.cli.correction_demo import correction_round_trip

        correction_round_trip(memory)
        from recallflow.cli.session_demo import show_session

        show_session(memory, demo.TENANT, demo.PRINCIPAL, demo.MOBILE)
    return 0


def _demo_recall(memory: object, out: Path) -> None:
    from recallflow.cli import demo
    from recallflow.core.render import MEMORY_FRAMING
    from recallflow.memory import Memory
    from recallflow.models.request import RecallRequest, WorkingState
    from recallflow.visualizations.stages import write_stage_graph
    from recallflow.visualizations.trace_view import trace_summary

    assert isinstance(memory, Memory)
    request = RecallRequest(
        tenant_id=demo.TENANT,
        principal_id=demo.PRINCIPAL,
        project=demo.MOBILE,
        session_id="s-demo",
        working_state=WorkingState(
            goal="Add a price display to the checkout screen; amounts come from billing-api",
            entities=("billing-api", "checkout"),
            files=("ios/Checkout/PriceView.swift",),
            recent_turns=("User asked how money is represented and how to ship a fix.",),
        ),
    )
    result = memory.recall(request)
    print(f"in-turn recall in project {demo.MOBILE}: goal {request.working_state.goal!r}")
    print()
    print("framing (goes in the cached system prefix):")
    print(f"  {MEMORY_FRAMING}")
    print()
    print("memory block (injected into the user turn):")
    print(result.block or "(empty: nothing cleared the relevance floor)")
    print(trace_summary(result.trace))
    graph = write_stage_graph(memory.flow(request.moment).driver, out, result.trace)
    print()
    print(f"stage graph written to {graph}")


def _cmd_recall(args: argparse.Namespace) -> int:
    from recallflow.memory import open_memory
    from recallflow.models.request import RecallRequest, Surface, WorkingState
    from recallflow.visualizations.trace_view import trace_summary

    with open_memory(args.dsn, args.home) as memory:
        request = RecallRequest(
            tenant_id=args.tenant,
            principal_id=args.principal,
            project=args.project,
            surface=Surface(args.surface),
            working_state=WorkingState(goal=args.query, entities=tuple(args.entity or ())),
        )
        result = memory.recall(request)
        print(result.block or "(empty: nothing cleared the relevance floor)")
        print(trace_summary(result.trace))
    return 0


def _cmd_graph(args: argparse.Namespace) -> int:
    from recallflow.dataflows.snapshot import build
    from recallflow.visualizations.stages import write_stage_graph

    out = write_stage_graph(build(args.moment), Path(args.out))
    print(f"stage graph of {args.moment} written to {out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``recallflow`` command."""
    parser = argparse.ArgumentParser(prog="recallflow", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    def store_args(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--dsn",
            default=None,
            help="PostgreSQL URI (default: RECALLFLOW_DSN, else the embedded server)",
        )
        p.add_argument("--home", default=None, help="embedded server home (RECALLFLOW_HOME)")

    p = sub.add_parser("demo", help="load the demo memory, show it, and run an in-turn recall")
    store_args(p)
    p.add_argument("--graph-out", default="stages.svg", help="where to write the stage graph")
    p.set_defaults(func=_cmd_demo)
    p = sub.add_parser("recall", help="run an in-turn recall and print the block and trace")
    store_args(p)
    p.add_argument("query", help="the goal / question of the working state")
    p.add_argument("--tenant", required=True)
    p.add_argument("--principal", required=True)
    p.add_argument("--project", default=None)
    p.add_argument("--surface", default="direct", choices=["direct", "team", "public", "vault"])
    p.add_argument("--entity", action="append", help="an active entity (repeatable)")
    p.set_defaults(func=_cmd_recall)
    p = sub.add_parser("graph", help="render a moment's stage graph (DOT, SVG or PNG)")
    p.add_argument("moment", choices=["in_turn", "session_snapshot", "child_run"])
    p.add_argument("--out", default="stages.svg", help="output file: .dot, .svg or .png")
    p.set_defaults(func=_cmd_graph)
    p = sub.add_parser("migrate", help="apply the migrations to a PostgreSQL DSN")
    p.add_argument("--dsn", default=None, help="PostgreSQL URI (default: RECALLFLOW_DSN)")
    p.set_defaults(func=_cmd_migrate)
    p = sub.add_parser("status", help="show what a store holds")
    store_args(p)
    p.set_defaults(func=_cmd_status)
    from recallflow.cli.bench import add_bench_parser
    from recallflow.cli.budget import add_budget_parser
    from recallflow.cli.eval import add_eval_parser

    add_eval_parser(sub)
    add_bench_parser(sub)
    add_budget_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``recallflow`` command."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except RecallflowError as exc:
        print(f"recallflow: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
