"""The ``recallflow`` command line.

``recallflow demo`` loads the demo memory into the embedded store and shows it;
``recallflow recall`` and ``recallflow episodes`` ask a store what it holds (beliefs, and the
event log's archival search, or the log itself in order); ``recallflow trace`` shows a
stored trace;
``recallflow status`` prints what a store holds; ``recallflow migrate`` applies the
migrations to a DSN. Every command that prints results takes ``--json`` (not ``demo``,
nor ``eval`` and ``bench report``, which write their reports as files). Every subcommand
that opens a store closes it (and so stops an embedded server it started) before it exits.

Exit codes (see docs/cli.md): 0 ok; 1 a runtime failure (the store is unavailable, a
migration failed, an id is not in the store); 2 bad input or usage; 3 ``eval`` could not
measure what it was asked to; 4 ``forget``'s confirmation was declined; 130 interrupted;
143 / 129 stopped by SIGTERM / SIGHUP; 141 the reader of the output went away.
Errors are one line on stderr, never a traceback. Nothing heavy (Hamilton, numpy,
onnxruntime, psycopg, the pydantic models) is imported before a command needs it, so
``recallflow --version`` and ``--help`` return at once.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from recallflow.cli.args import (
    EXIT_BROKEN_PIPE,
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    Parser,
    UsageError,
    add_json_arg,
    add_request_args,
    add_store_args,
    counted,
    dsn,
    empty_block,
    env_dsn,
    flag_error,
    json_text,
    json_value,
    key,
    open_store,
    terminal_line,
    validated,
)
from recallflow.errors import InvalidInputError, RecallflowError

if TYPE_CHECKING:
    from recallflow.memory import Memory
    from recallflow.models.store import StoreSummary

#: The moments ``recall`` and ``graph`` accept (the values of ``recallflow.Moment``).
MOMENTS = ("in_turn", "session_snapshot", "child_run")
#: The surfaces ``recall`` and ``episodes`` accept (the values of ``recallflow.Surface``).
#: Request fields named by the flag that sets them, for one-line errors.
_FLAGS = {
    "tenant_id": "--tenant",
    "principal_id": "--principal",
    "project": "--project",
    "surface": "--surface",
    "moment": "--moment",
    "as_of": "--as-of",
    "known_as_of": "--known-as-of",
    "max_items": "--max-items",
    "query": "query",
    "working_state.goal": "query",
    "working_state.entities": "--entity",
}


#: The error handler stdout writes a character its encoding lacks with.
_ESCAPE = "recallflow-escape"


def _escape(error: UnicodeError) -> tuple[str, int]:
    """The characters ``error`` could not encode as JSON's ``\\uXXXX`` escapes (a pair of
    them past the Basic Multilingual Plane): the same text in JSON read back, and a
    readable escape in a line of text."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    escapes = []
    for char in error.object[error.start : error.end]:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            escapes.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            escapes.append(f"\\u{code:04x}")
    return "".join(escapes), error.end


def _escape_what_stdout_cannot_encode() -> None:
    """Let stdout write any text: one whose encoding lacks a character the output holds (an
    ASCII or Latin-1 locale, ``PYTHONIOENCODING``, a Windows console) raised
    UnicodeEncodeError from ``print``, a traceback in the middle of the output."""
    import codecs

    codecs.register_error(_ESCAPE, _escape)
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors=_ESCAPE)


def _print_json(value: Any) -> None:
    import json

    print(json.dumps(value, indent=2, ensure_ascii=False))


def _cmd_migrate(args: argparse.Namespace) -> int:
    import psycopg

    from recallflow.adapters.postgres.bootstrap import prepare
    from recallflow.adapters.postgres.conninfo import refused_option
    from recallflow.errors import ConfigurationError, without_password

    dsn = args.dsn or env_dsn()
    if not dsn:
        raise UsageError("needs --dsn or RECALLFLOW_DSN")
    try:
        applied = prepare(dsn)
    except psycopg.OperationalError as exc:
        # As every command that opens a store says it: an option libpq refuses is bad
        # input named by where the string came from, a server not reached names the server.
        refused = refused_option(dsn, str(exc))
        if refused is not None:
            raise UsageError(f"{'--dsn' if args.dsn else 'RECALLFLOW_DSN'}: {refused}") from None
        raise ConfigurationError(
            f"cannot connect to PostgreSQL at {without_password(dsn)}: {exc}"
        ) from None
    if args.json:
        _print_json({"applied": applied})
    else:
        print("applied: " + (", ".join(applied) if applied else "nothing (already up to date)"))
    return 0


def _print_store(memory: object) -> None:
    from recallflow.memory import Memory

    assert isinstance(memory, Memory)
    summary = memory.summary()
    if not summary:  # a store line alone read as if the listing had been cut off
        print("nothing stored yet: no beliefs, episodes or edges of any principal")
    for s in summary:
        print(status_line(s))


def status_line(s: StoreSummary) -> str:
    """One principal's line of ``status``: its beliefs by state, episodes and edges."""
    states = ", ".join(f"{k} {v}" for k, v in sorted(s.beliefs_by_state.items()))
    beliefs = sum(s.beliefs_by_state.values())
    return (
        f"{s.tenant_id}/{s.principal_id}: {counted(beliefs, 'belief')} ({states});"
        f" {counted(s.episodes, 'episode')}; {counted(s.edges, 'edge')}"
    )


def _location(memory: Memory) -> dict[str, str | int | None]:
    """Where the store is, for a backup: the embedded server's home, or the server an
    external store is on as connected to (host, port, database and role; never the
    password)."""
    if memory.home is not None:
        return {"home": str(memory.home)}
    with memory.pool.connection() as conn:
        info = conn.info
        return {"host": info.host, "port": info.port, "database": info.dbname, "user": info.user}


def _cmd_status(args: argparse.Namespace) -> int:
    with open_store(args) as memory:
        location = _location(memory)
        if args.json:
            _print_json(
                {
                    "store": "embedded" if memory.embedded else "external",
                    "location": location,
                    "embedder": {
                        "name": memory.embedder.name,
                        "dimension": memory.embedder.dimension,
                    },
                    "tokens": memory.token_counter.encoding,
                    "principals": [json_value(s) for s in memory.summary()],
                }
            )
            return 0
        where = ", ".join(f"{name} {value}" for name, value in location.items())
        print(
            f"store: {'embedded' if memory.embedded else 'external'} ({where}); "
            f"embedder {memory.embedder.name} ({memory.embedder.dimension} dims); "
            f"tokens {memory.token_counter.encoding}"
        )
        _print_store(memory)
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from recallflow.cli import demo

    started = time.perf_counter()
    with open_store(args) as memory:
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
            line = terminal_line(b.statement)
            text = line if len(line) <= 70 else line[:67] + "..."
            print(
                f"  {b.id:<20} {b.state.value:<11} {b.scope.value:<7} "
                f"{b.origin_project or '-':<12} {b.sensitivity.label:<8} {text}"
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
    trace = result.trace
    print(result.block or empty_block(trace.budget_dropped, trace.floor_dropped))
    print(trace_summary(trace))
    graph = write_stage_graph(memory.flow(request.moment).driver, out, result.trace)
    print()
    print(f"stage graph written to {graph}")


def _cmd_recall(args: argparse.Namespace) -> int:
    from recallflow.models.fields import has_visible_text
    from recallflow.models.request import RecallRequest

    # An in-turn recall of nothing has no query for any arm: its block is always empty (a
    # snapshot moment takes no query for its core, so an empty goal is its own).
    asked = (args.query, *(args.entity or ()))
    if args.moment == "in_turn" and not any(has_visible_text(text) for text in asked):
        raise UsageError("query: has no visible text, nor has any --entity: nothing to recall for")
    request = validated(
        RecallRequest,
        {
            "tenant_id": args.tenant,
            "principal_id": args.principal,
            "project": args.project,
            "surface": args.surface,
            "moment": args.moment,
            "as_of": args.as_of,
            "known_as_of": args.known_as_of,
            "working_state": {"goal": args.query, "entities": tuple(args.entity or ())},
        },
        _FLAGS,
    )
    with open_store(args) as memory:
        result = memory.recall(request)
        if args.json:
            print(json_text(result))
            return 0
        from recallflow.visualizations.trace_view import trace_summary

        trace = result.trace
        print(
            result.block
            or _nobody(
                memory,
                args.tenant,
                args.principal,
                "belief",
                trace.floor_dropped + trace.budget_dropped,
            )
            or empty_block(trace.budget_dropped, trace.floor_dropped)
        )
        print(trace_summary(result.trace))
    return 0


def _nobody(memory: Memory, tenant: str, principal: str, what: str, found: int) -> str | None:
    """What an empty block of nothing found prints when the principal holds no ``what`` at
    all in this store (a new principal, or a misspelt ``--tenant`` or ``--principal``);
    None when it holds some, or when something was found. Read only then: counting what a
    store holds reads every principal's counts."""
    if found:
        return None
    mine = next(
        (s for s in memory.summary() if (s.tenant_id, s.principal_id) == (tenant, principal)),
        None,
    )
    held = (
        0
        if mine is None
        else (sum(mine.beliefs_by_state.values()) if what == "belief" else mine.episodes)
    )
    if held:
        return None
    return (
        f"(empty: {terminal_line(tenant)}/{terminal_line(principal)} holds no {what}s in this"
        " store: a new principal, or a misspelt --tenant or --principal)"
    )


def _cmd_episodes(args: argparse.Namespace) -> int:
    from recallflow.cli.episode_log import form_problem, print_log, time_problem

    problem = form_problem(args) or time_problem(args)
    if problem is not None:
        raise problem
    if args.query is None:
        return print_log(args)
    from recallflow.models.request import EpisodeSearchRequest

    request = validated(
        EpisodeSearchRequest,
        {
            "tenant_id": args.tenant,
            "principal_id": args.principal,
            "query": args.query,
            "surface": args.surface,
            "since": args.since,
            "as_of": args.as_of,
            "known_as_of": args.known_as_of,
            "max_items": args.max_items,
        },
        _FLAGS,
    )
    with open_store(args) as memory:
        result = memory.search_episodes(request)
        if args.json:
            print(json_text(result))
            return 0
        from recallflow.visualizations.trace_view import episode_trace_summary

        dropped, below = len(result.trace.budget_dropped_ids), len(result.trace.floor_dropped_ids)
        print(
            result.block
            or _nobody(memory, args.tenant, args.principal, "episode", below + dropped)
            or empty_block(dropped, below, "episode")
        )
        print(episode_trace_summary(result.trace))
    return 0


class _Version(argparse.Action):
    """``--version``: the installed distribution's version, read only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("recallflow")
        except PackageNotFoundError:
            number = "unknown (not installed)"
        print(f"recallflow {number}")
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``recallflow`` command."""
    parser = Parser(
        prog="recallflow",
        description=(__doc__ or "").splitlines()[0].replace("``", ""),
        epilog="Flags, JSON shapes and exit codes of every command: docs/cli.md.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("demo", help="load the demo memory, show it, and run an in-turn recall")
    add_store_args(p)
    from recallflow.cli.graph import graph_file

    p.add_argument(
        "--graph-out",
        default="stages.svg",
        type=graph_file,
        help="where to write the stage graph (.svg, .png or .dot)",
    )
    p.set_defaults(func=_cmd_demo)
    p = sub.add_parser("recall", help="run a recall and print the block and trace")
    add_store_args(p)
    p.add_argument("query", help="the goal / question of the working state")
    add_request_args(p)
    p.add_argument(
        "--project",
        default=None,
        type=key,
        help="the project being worked in (it shapes ranking; it never filters)",
    )
    p.add_argument(
        "--moment",
        default="in_turn",
        choices=MOMENTS,
        help="which recall runs (default in_turn; session_snapshot and child_run are the"
        " session moments, run here without a session)",
    )
    p.add_argument("--entity", action="append", help="an active entity (repeatable)")
    add_json_arg(p)
    p.set_defaults(func=_cmd_recall, field_flags=_FLAGS)
    p = sub.add_parser(
        "episodes",
        help="the event log (what happened): an archival search for QUERY, or without one the"
        " log in order, a page at a time",
    )
    add_store_args(p)
    p.add_argument(
        "query",
        nargs="?",
        default=None,
        help="what to look for (a ranked archival search); leave it out to read the log in order",
    )
    add_request_args(p)
    p.add_argument(
        "--max-items",
        type=int,
        default=None,
        help="the search only: item cap (default: the policy's)",
    )
    from recallflow.cli.episode_log import LOG_FLAGS, add_log_args

    add_log_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_episodes, field_flags={**_FLAGS, **LOG_FLAGS})
    p = sub.add_parser("migrate", help="apply the migrations to a PostgreSQL DSN")
    p.add_argument("--dsn", default=None, type=dsn, help="PostgreSQL URI (default: RECALLFLOW_DSN)")
    add_json_arg(p)
    p.set_defaults(func=_cmd_migrate)
    p = sub.add_parser("status", help="show what a store holds")
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_status)
    from recallflow.cli.beliefs import add_belief_parser
    from recallflow.cli.bench import add_bench_parser
    from recallflow.cli.budget import add_budget_parser
    from recallflow.cli.corrections import add_correction_parsers
    from recallflow.cli.eval import add_eval_parser
    from recallflow.cli.graph import add_graph_parser
    from recallflow.cli.mcp import add_mcp_parser
    from recallflow.cli.misses import add_miss_parsers
    from recallflow.cli.portability import add_portability_parsers
    from recallflow.cli.sessions import add_session_parser
    from recallflow.cli.trace import add_trace_parsers

    add_graph_parser(sub)
    add_trace_parsers(sub, add_store_args)
    add_session_parser(sub)
    add_correction_parsers(sub)
    add_portability_parsers(sub)
    add_belief_parser(sub)
    add_miss_parsers(sub)
    add_eval_parser(sub)
    add_bench_parser(sub)
    add_budget_parser(sub)
    add_mcp_parser(sub)
    return parser


def exit_code(exc: BaseException) -> int | None:
    """The exit code an error means, or None for a bug (which keeps its traceback)."""
    if isinstance(exc, UsageError | InvalidInputError):
        return EXIT_USAGE
    if isinstance(exc, RecallflowError | OSError):
        return EXIT_FAILURE
    psycopg = sys.modules.get("psycopg")  # never imported just to check
    if psycopg is not None and isinstance(exc, psycopg.Error):
        return EXIT_FAILURE
    minilm = sys.modules.get("recallflow.adapters.embedders.minilm")
    if minilm is not None and isinstance(exc, minilm.EmbedderUnavailableError):
        return EXIT_FAILURE
    return None


def _one_line(exc: BaseException, flags: Mapping[str, str] | None = None, limit: int = 500) -> str:
    """The error as one line; a refused field the command took from a flag (``flags``, the
    command's ``field_flags``) is named by that flag."""
    text = flag_error(exc, flags or {}) or str(exc)
    text = " ".join(text.split()) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP reached the command: unwind like Ctrl-C, so every ``with`` block
    closes its store and an embedded server this command started is stopped.

    It is a ``KeyboardInterrupt`` so that libraries treat it as the interrupt it is: the
    database driver cancels the statement it interrupts, as for Ctrl-C. Of another
    class, the statement kept running on the server, the driver's clean-up failed on the
    busy connection ("another command is already in progress"), and that error replaced
    the stop: the command went on (a trace write lost) or exited 1 blaming the store.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def _terminate_cleanly(prog: str) -> Iterator[None]:
    """While the command runs, SIGTERM and SIGHUP unwind it instead of ending the process
    on the spot (Python's default), which would skip every close and exit handler and
    leave an embedded server running with no holder (a ``timeout`` or a supervisor stop
    sends SIGTERM). Only the main thread can own signal handlers; elsewhere it does
    nothing. The previous handlers are restored afterwards.

    A signal that lands inside a running event loop (the MCP server) is not unwound,
    Ctrl-C included: the loop may log and drop the exception, or wait on the stdio
    reader's thread, which blocks in a read only the client can end (Ctrl-C left
    ``recallflow mcp`` hanging until its client went away). There the exit handlers run
    at once, which stop the embedded server this command started, and the process ends.
    Ctrl-C elsewhere is Python's own ``KeyboardInterrupt``; a Ctrl-C the process was told
    to ignore stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def unwind(signum: int, _frame: object) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            if signum == signal.SIGINT:
                raise KeyboardInterrupt from None
            raise _Terminated(signum) from None
        if signum == signal.SIGINT:
            print(f"{prog}: interrupted", file=sys.stderr)
            _exit_now(EXIT_INTERRUPTED)
        print(f"{prog}: terminated by signal {signum}", file=sys.stderr)
        _exit_now(128 + signum)

    stops = [signal.SIGTERM, signal.SIGHUP]
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        stops.append(signal.SIGINT)
    previous = {sig: signal.signal(sig, unwind) for sig in stops}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _exit_now(code: int) -> NoReturn:
    """End a terminated command now: the stores are closed by then, so run the exit
    handlers and leave without joining threads (a server's stdin reader blocks in a read
    that only its client can end)."""
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


@contextmanager
def _quiet_if(args: argparse.Namespace) -> Iterator[None]:
    """A command given ``--quiet`` (or ``--no-progress``) draws no bar, the library's own
    included (a large write's): the flag is said once for the whole process's output."""
    if not (getattr(args, "quiet", False) or getattr(args, "no_progress", False)):
        yield
        return
    from recallflow.adapters.progress import quiet

    with quiet():
        yield


class _LogLines(logging.Handler):
    """A log record a command meets, as one line on stderr: ``recallflow <command>:
    warning: <message>``. Without it, Python's last-resort handler printed each record's
    message bare and as many lines as it had, so a command whose error is one line could
    print four (a replica refused at open), and one that succeeded fifteen (a replica that
    was down, which is no error: recalls read the primary)."""

    #: The connection pool's own housekeeping: every failed connection attempt, each
    #: reconnection it retries and each dead connection it drops. What they mean for the
    #: command reaches it as a typed error, or as recallflow's own warning.
    POOL = "psycopg.pool"

    def __init__(self, prog: str) -> None:
        super().__init__(logging.WARNING)
        self._prog = prog

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == self.POOL or record.name.startswith(self.POOL + "."):
            return
        try:
            text = terminal_line(record.getMessage())
        except Exception:  # a record that cannot be formatted is not worth a traceback
            return
        # Never "error:": that word is the command's own failure, and a script reads it so.
        sys.stderr.write(f"{self._prog}: warning: {text[:500]}\n")


@contextmanager
def _log_lines(prog: str) -> Iterator[None]:
    """Log records reach stderr as :class:`_LogLines` while the command runs."""
    handler = _LogLines(prog)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``recallflow`` command; returns its exit code."""
    try:
        parser = build_parser()
        args, unknown = parser.parse_known_args(argv)
    except KeyboardInterrupt:  # Ctrl-C while the flags' types are imported and read
        print("recallflow: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    words = [args.command] + [
        str(value) for name, value in vars(args).items() if name.endswith("_command") and value
    ]
    prog = "recallflow " + " ".join(words)
    if unknown:  # argparse would name the top command and its --help, not this one's
        parser.exit(
            EXIT_USAGE,
            f"{prog}: error: unrecognized arguments: {' '.join(' '.join(unknown).split())[:200]}"
            f" (see {prog} --help)\n",
        )
    _escape_what_stdout_cannot_encode()
    try:
        with _terminate_cleanly(prog), _quiet_if(args), _log_lines(prog):
            return int(args.func(args))
    except _Terminated as stop:  # before KeyboardInterrupt, its base
        print(f"{prog}: terminated by signal {stop.signum}", file=sys.stderr)
        _exit_now(128 + stop.signum)
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Exception as exc:
        code = exit_code(exc)
        if code is None:
            raise
        print(
            f"{prog}: error: {_one_line(exc, getattr(args, 'field_flags', None))}", file=sys.stderr
        )
        return code


if __name__ == "__main__":
    raise SystemExit(main())
