"""The server time of each statement an in-turn recall's arms and its load send, one
statement at a time, so a change to one arm's SQL can be measured without the other arms,
the client and the rest of the machine sharing the two cores with it::

    RECALLFLOW_BENCH_HOME=… python -m benchmarks.arm_server_time --tier 100k [--passes 3]

Every arm statement (and the load with its evidence, and the links) of one recall of each
of the tier's fixed requests is captured as sent: its text, its parameters and the
settings it runs under. Each is then replayed on one connection of its own, in a
transaction with those settings (plan mode included, so a generic plan stays generic)
and the recall pool's, with ``auto_explain`` reporting its execution time to the client
(``log_timing`` off, so the figure is not inflated by per-node clocks). The first
execution of each statement (its plan made, its pages read) is left out; the script prints,
per statement, the median over the requests of each request's median over ``--passes``.

Replayed back to back, a statement finds the pages and CPU caches its previous run left
warm, which a recall's statement does not: at 100k beliefs the semantic search ran in 0.63
ms so, and in 2.2-2.6 ms within the recalls' mix. ``--interleave`` replays the statements
in the recalls' order instead (each request's statements in turn, then the next request's,
``--passes`` rounds), and also prints the mean, the p95 and the pages each statement read
from outside the shared buffers, so the figures add up to the server's CPU per recall;
and each statement's start: the server's time on its bind (``log_min_duration_statement``),
where a prepared statement finds its cached plan and its executor is started, every node
of the plan initialised whether it runs or not. ``auto_explain`` times the execution only,
and a generic plan is not planned again, so the start is the rest of the statement's own
time (with ``auto_explain``'s counters set up in it, a little more than a recall pays).
"""

from __future__ import annotations

import argparse
import re
import statistics
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg

from benchmarks.datagen import TIERS
from benchmarks.recall_harness import QueryCachingEmbedder, requests
from benchmarks.stores import bench_embedder_name, bench_home, open_tier
from recallflow.adapters.embedders import embedder_from_name
from recallflow.adapters.postgres import search
from recallflow.adapters.postgres.embedded import EmbeddedServer
from recallflow.adapters.postgres.pool import RECALL_SETTINGS
from recallflow.adapters.postgres.statements import set_configs, setting_values
from recallflow.memory import Memory
from recallflow.models.request import RecallRequest

#: (statement text, parameters in order, settings) of one captured statement.
Captured = tuple[bytes, list[Any], dict[str, str]]

_DURATION = re.compile(r"duration: ([\d.]+) ms")
_AUTO_EXPLAIN = (
    "LOAD 'auto_explain'",
    "SET auto_explain.log_min_duration = 0",
    "SET auto_explain.log_analyze = on",
    "SET auto_explain.log_timing = off",
    "SET auto_explain.log_buffers = on",
)


def kind(text: bytes) -> str:
    """Which arm or read a captured statement is."""
    if b"word_similarity" in text:
        return "trigram"
    if text.startswith(b"WITH choice AS"):
        return "semantic"
    if text.startswith(b"WITH RECURSIVE"):
        return "neighbours"
    if text.startswith(b"WITH l AS"):
        return "links"
    if b"ev_cosines" in text:
        return "load with evidence"
    if b"seeds AS" in text:
        return "lexical"
    if b"hits AS (SELECT m.id, m.subject" in text:
        return "structured"
    return text[:30].decode(errors="replace")


def capture(captured: list[Captured]) -> Callable[[], None]:
    """Record every arm statement (``search._execute``) and the load's two statements
    (sent by a raw cursor) into ``captured``; returns the undo."""
    execute = search._execute
    raw_execute = psycopg.RawCursor.execute

    def recording_execute(
        conn: psycopg.Connection[Any],
        statement: Any,
        params: dict[str, Any],
        wanted: dict[str, str],
        row_factory: Any = None,
        local: dict[str, str] | None = None,
    ) -> psycopg.RawCursor[Any]:
        captured.append((statement.text, statement.bind(params), {**wanted, **(local or {})}))
        return execute(conn, statement, params, wanted, row_factory, local)

    def recording_raw(self: Any, query: Any, params: Any = None, **kwargs: Any) -> Any:
        if isinstance(query, bytes) and kind(query) in ("links", "load with evidence"):
            settings = dict(search._EVIDENCE_SESSION) if b"ev_cosines" in query else {}
            captured.append((query, list(params or []), settings))
        return raw_execute(self, query, params, **kwargs)

    search._execute = recording_execute
    psycopg.RawCursor.execute = recording_raw  # type: ignore[method-assign]

    def undo() -> None:
        search._execute = execute
        psycopg.RawCursor.execute = raw_execute  # type: ignore[method-assign]

    return undo


def recall_statements(memory: Memory, req: RecallRequest) -> list[Captured]:
    """The statements one recall of ``req`` sends, captured from a second recall (the
    first warms the caches and prepares the statements)."""
    memory.recall(req)
    captured: list[Captured] = []
    undo = capture(captured)
    try:
        memory.recall(req)
    finally:
        undo()
    return captured


def replay(conn: psycopg.Connection[Any], statement: Captured, passes: int) -> list[float]:
    """Execution times (ms) of ``statement`` on ``conn``, the first execution left out."""
    return [_replay_once(conn, statement).execution for _ in range(passes + 1)][1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", default="10k", choices=sorted(TIERS))
    parser.add_argument("--passes", type=int, default=3, help="timed replays per statement")
    parser.add_argument(
        "--interleave", action="store_true", help="replay in the recalls' order, not back to back"
    )
    args = parser.parse_args()
    if args.interleave:
        interleaved(args.tier, args.passes)
        return
    per_kind: defaultdict[str, list[float]] = defaultdict(list)
    server = EmbeddedServer(bench_home())
    try:
        embedder = QueryCachingEmbedder(embedder_from_name(bench_embedder_name()))
        store = open_tier(server, TIERS[args.tier], embedder=embedder)
        memory = store.memory
        try:
            with psycopg.connect(memory.uri, autocommit=True, prepare_threshold=0) as conn:
                for setup in _AUTO_EXPLAIN:
                    conn.execute(setup.encode())
                for req in requests(store):
                    for statement in recall_statements(memory, req):
                        times = replay(conn, statement, args.passes)
                        per_kind[kind(statement[0])].append(statistics.median(times))
        finally:
            memory.close()
    finally:
        server.release()
    print(f"{args.tier}: server execution time per statement, median over the requests (ms)")
    for name, medians in sorted(per_kind.items()):
        print(f"  {name:20s} {statistics.median(medians):7.3f}   ({len(medians)} statements)")


def interleaved(tier: str, passes: int) -> None:
    """``--interleave``: every request's statements captured, then replayed in the recalls'
    order, ``passes`` rounds after one left out."""
    times: defaultdict[str, list[float]] = defaultdict(list)
    starts: defaultdict[str, list[float]] = defaultdict(list)
    reads: defaultdict[str, list[int]] = defaultdict(list)
    server = EmbeddedServer(bench_home())
    try:
        embedder = QueryCachingEmbedder(embedder_from_name(bench_embedder_name()))
        store = open_tier(server, TIERS[tier], embedder=embedder)
        memory = store.memory
        try:
            recalls: list[list[Captured]] = []
            for req in requests(store):
                recalls.append(recall_statements(memory, req))
            with psycopg.connect(memory.uri, autocommit=True, prepare_threshold=0) as conn:
                for setup in _AUTO_EXPLAIN:
                    conn.execute(setup.encode())
                for round_ in range(passes + 1):
                    for captured in recalls:
                        for statement in captured:
                            replayed = _replay_once(conn, statement)
                            if round_:
                                times[kind(statement[0])].append(replayed.execution)
                                starts[kind(statement[0])].append(replayed.start)
                                reads[kind(statement[0])].append(replayed.read)
        finally:
            memory.close()
    finally:
        server.release()
    print(f"{tier}: server execution time per statement, replayed in the recalls' order (ms)")
    total = started = 0.0
    for name, values in sorted(times.items()):
        values.sort()
        mean = statistics.fmean(values)
        start = statistics.fmean(starts[name])
        total += mean
        started += start
        p95 = values[round(0.95 * (len(values) - 1))]
        print(
            f"  {name:20s} p50 {statistics.median(values):7.3f}  mean {mean:7.3f}"
            f"  p95 {p95:7.3f}  pages read {statistics.fmean(reads[name]):6.1f}"
            f"  start p50 {statistics.median(starts[name]):6.3f}  mean {start:6.3f}"
        )
    print(f"  {'sum of means':20s} {total:7.3f}  starts {started:7.3f}")


_READ = re.compile(r"Buffers: shared(?: hit=\d+)? read=(\d+)")
_BIND = re.compile(r"duration: ([\d.]+) ms +bind")


@dataclass(frozen=True)
class Replayed:
    """One replayed statement: its execution and its start (ms), and the pages it read
    from outside the shared buffers."""

    execution: float
    start: float
    read: int


def _replay_once(conn: psycopg.Connection[Any], statement: Captured) -> Replayed:
    """One execution of ``statement`` on ``conn``."""
    text, params, settings = statement
    notes: list[str] = []

    def note(diagnostic: psycopg.errors.Diagnostic) -> None:
        notes.append(diagnostic.message_primary or "")

    conn.add_notice_handler(note)
    try:
        with conn.transaction():
            cur = psycopg.RawCursor(conn)
            wanted = {**RECALL_SETTINGS, **settings}
            cur.execute(set_configs(len(wanted), local=True), setting_values(wanted))
            cur.execute(b"SET LOCAL client_min_messages = log")
            cur.execute(b"SET LOCAL log_min_duration_statement = 0")
            cur.execute(text, params, prepare=True, binary=True)
            cur.fetchall()
            cur.execute(b"SET LOCAL client_min_messages = warning")
    finally:
        conn.remove_notice_handler(note)
    head = text.decode()[:40]
    plan = next((n for n in notes if head in n and "plan:" in n.split("\n", 1)[0]), "")
    found = _DURATION.findall(plan)
    read = _READ.search(plan)
    bind = next((m for n in notes if head in n and (m := _BIND.match(n))), None)
    return Replayed(
        execution=float(found[-1]) if found else float("nan"),
        start=float(bind.group(1)) if bind else float("nan"),
        read=int(read.group(1)) if read else 0,
    )


if __name__ == "__main__":
    main()
