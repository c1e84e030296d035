"""What one in-turn recall sends to the database: statements, round trips, pool
checkouts and transactions, each round trip's wall time, counted by wrapping psycopg in
this script (nothing in the library is changed)::

    RECALLFLOW_BENCH_HOME=… python -m benchmarks.recall_statements --tier 10k [--verbose]

A *round trip* is a statement sent outside a pipeline, or a whole pipeline (counted once,
however many statements it carries). On
the recall's autocommit connections each round trip is one transaction (a pipeline is one
implicit transaction up to its sync), except the explicit ``BEGIN`` ... ``COMMIT`` counted
on its own. The counts are per recall, averaged over the tier's 24 fixed requests after a
warm-up; ``--verbose`` adds the wall time of each kind of wait.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import _cursor_base

from benchmarks.datagen import TIERS
from benchmarks.recall_harness import QueryCachingEmbedder, requests
from benchmarks.stores import bench_embedder_name, bench_home, open_tier
from recallflow.adapters.postgres.embedded import EmbeddedServer
from recallflow.adapters.postgres.entities import PostgresEntitySensitivity
from recallflow.adapters.postgres.health import GuardedPool
from recallflow.adapters.postgres.search import PostgresBeliefSearch
from recallflow.adapters.postgres.traces import PostgresTraceStore
from recallflow.memory import Memory


class Tally:
    """Everything counted while ``recording`` is set."""

    def __init__(self) -> None:
        self.recording = False
        self.lock = threading.Lock()
        self.counts: Counter[str] = Counter()
        self.waits: defaultdict[str, list[float]] = defaultdict(list)
        self.pending: dict[int, list[str]] = defaultdict(list)
        self.calls: defaultdict[str, list[float]] = defaultdict(list)

    def add(self, what: str, n: int = 1) -> None:
        if self.recording:
            with self.lock:
                self.counts[what] += n


TALLY = Tally()


def _label(query: Any) -> str:
    text = query if isinstance(query, (bytes, str)) else str(query)
    text = text.decode() if isinstance(text, bytes) else text
    return " ".join(text.split())[:60]


def _wrap(owner: Any, name: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    setattr(owner, name, make(getattr(owner, name)))


def install() -> None:
    """Wrap psycopg's send, wait and the pool's checkout."""

    def count(cursor: Any, query: Any) -> None:
        TALLY.add("statements")
        if cursor._conn._pipeline is None:
            TALLY.add("round trips")
        if TALLY.recording:
            TALLY.pending[id(cursor._conn)].append(_label(query.query))
            if query.query.startswith(b"SELECT set_config"):
                TALLY.add("of them set_config")
            if query.query.lstrip().upper().startswith(b"BEGIN"):
                TALLY.add("explicit BEGIN")

    def send(orig: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            count(self, query)
            return orig(self, query, *args, **kwargs)

        return wrapper

    _wrap(_cursor_base.BaseCursor, "_execute_send", send)

    def send_prepared(orig: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(self: Any, name: bytes, query: Any, *args: Any, **kwargs: Any) -> Any:
            count(self, query)
            TALLY.add("of them prepared")
            return orig(self, name, query, *args, **kwargs)

        return wrapper

    _wrap(_cursor_base.BaseCursor, "_send_query_prepared", send_prepared)

    def command(orig: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(self: Any, command: Any, *args: Any, **kwargs: Any) -> Any:
            TALLY.add("statements")
            if self._pipeline is None:
                TALLY.add("round trips")
            if TALLY.recording:
                label = _label(command if isinstance(command, (bytes, str)) else b"(command)")
                TALLY.pending[id(self)].append(label)
                if label.upper().startswith(("BEGIN", "START")):
                    TALLY.add("explicit BEGIN")
            return orig(self, command, *args, **kwargs)

        return wrapper

    _wrap(psycopg.Connection, "_exec_command", command)

    def wait(orig: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(self: Any, gen: Any, *args: Any, **kwargs: Any) -> Any:
            if not TALLY.recording:
                return orig(self, gen, *args, **kwargs)
            started = time.perf_counter()
            try:
                return orig(self, gen, *args, **kwargs)
            finally:
                ms = (time.perf_counter() - started) * 1000
                with TALLY.lock:
                    sent = TALLY.pending.pop(id(self), [])
                    key = " + ".join(sent) or "(pipeline sync / fetch)"
                    TALLY.waits[f"[{threading.current_thread().name.split('_')[0]}] {key}"].append(
                        ms
                    )

        return wrapper

    _wrap(psycopg.Connection, "wait", wait)

    def getconn(orig: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            TALLY.add(f"checkouts ({self.name})")
            return orig(self, *args, **kwargs)

        return wrapper

    _wrap(GuardedPool, "getconn", getconn)

    def pipeline(orig: Callable[..., Any]) -> Callable[..., Any]:
        @contextmanager
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
            outer = self._pipeline is None
            if outer:
                TALLY.add("pipelines")
                TALLY.add("round trips")  # a pipeline is one, however many waits inside
            with orig(self, *args, **kwargs) as p:
                yield p

        return wrapper

    _wrap(psycopg.Connection, "pipeline", pipeline)

    def timed(label: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def make(orig: Callable[..., Any]) -> Callable[..., Any]:
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                if not TALLY.recording:
                    return orig(*args, **kwargs)
                started = time.perf_counter()
                try:
                    return orig(*args, **kwargs)
                finally:
                    ms = (time.perf_counter() - started) * 1000
                    with TALLY.lock:
                        TALLY.calls[label].append(ms)

            return wrapper

        return make

    for name in (
        "structured",
        "lexical",
        "trigram",
        "semantic",
        "in_period",
        "neighbours",
        "load",
        "evidence",
        "load_with_evidence",
    ):
        if hasattr(PostgresBeliefSearch, name):  # so the script runs on older code too
            _wrap(PostgresBeliefSearch, name, timed(f"search.{name}"))
    _wrap(PostgresTraceStore, "save_trace", timed("traces.save_trace"))
    _wrap(PostgresEntitySensitivity, "marked_entities", timed("entity marks"))
    _wrap(Memory, "recall", timed("Memory.recall"))


@contextmanager
def recording() -> Iterator[None]:
    TALLY.recording = True
    try:
        yield
    finally:
        TALLY.recording = False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", default="10k", choices=sorted(TIERS))
    parser.add_argument("--verbose", action="store_true", help="every round trip's median")
    args = parser.parse_args()
    install()
    server = EmbeddedServer(bench_home())
    try:
        embedder = QueryCachingEmbedder(embedder_from_name_default())
        store = open_tier(server, TIERS[args.tier], embedder=embedder)
        try:
            memory, reqs = store.memory, requests(store)
            for req in reqs * 2:
                memory.recall(req)
            with recording():
                for req in reqs:
                    memory.recall(req)
        finally:
            store.memory.close()
    finally:
        server.release()
    n = len(reqs)
    for what, count in sorted(TALLY.counts.items()):
        print(f"{what:32} {count / n:6.2f} per recall")
    for label, values in sorted(TALLY.calls.items()):
        print(
            f"{label:32} {len(values) / n:6.2f} calls, p50 {statistics.median(values):6.3f} ms,"
            f" sum {sum(values) / n:6.3f} ms per recall"
        )
    rows = sorted(TALLY.waits.items(), key=lambda kv: -sum(kv[1]))
    total = sum(sum(v) for _, v in rows) / n
    print(f"{'wall in round trips':32} {total:6.2f} ms per recall (summed over threads)")
    if args.verbose:
        for key, values in rows:
            print(
                f"  {len(values) / n:5.2f}x  p50 {statistics.median(values):6.3f} ms"
                f"  sum {sum(values) / n:6.3f} ms  {key}"
            )


def embedder_from_name_default() -> Any:
    from recallflow.adapters.embedders import embedder_from_name

    return embedder_from_name(bench_embedder_name())


if __name__ == "__main__":
    main()
