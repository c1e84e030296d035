"""Bulk ingestion rate with embeddings: how fast a formation process can write beliefs.

Generates ``--n`` beliefs of one principal with ``benchmarks/datagen.py`` (not timed),
then times ``Memory.beliefs.add_many`` in batches of ``--batch`` — validation, embedding
with ``--embedder`` (``hashing`` or ``minilm``, the default embedder; ``e5`` if installed)
and COPY into a fresh store whose indexes, HNSW included, are all in place, as a
formation process meets them. The embedder's own time is measured by wrapping it, so the
report splits beliefs/s into embedding and the rest.

MiniLM runs single-threaded by default (about 8–11 ms per statement on this box, so
100k takes 15–20 minutes); ``--threads`` raises onnxruntime's intra-op threads.

``--breakdown`` answers where the time of a write with vectors given goes instead: it
COPYs batches of fresh principals (vectors given, as ``ingest:precomputed`` does) with
one group of the table's indexes or triggers removed at a time, inside a transaction
that is rolled back, and reports the server backend's CPU time per belief (read from
``/proc``, so it holds on a machine shared with other jobs, where wall time does not),
then the client's CPU time per belief of whole ``add_many`` calls (validation included).

``--autovacuum-off`` switches autovacuum off for every table of the fresh store before
the load (the tables' ``autovacuum_enabled``), as an operator who keeps their own
statistics does; ``batch_s`` in the report is each call's time, which shows whether a
batch's cost grows with the table (see "Statistics after a bulk write" in
docs/operations.md).

``--graduation N ...`` times graduating a principal of N beliefs (its rows entering the
partial HNSW index, see "Storage" in docs/architecture.md), in a rolled-back transaction.

Usage::

    python -m benchmarks.ingest_rate --n 100000 --embedder minilm [--threads 1]
        [--home DIR] [--json OUT] [--autovacuum-off]
    python -m benchmarks.ingest_rate --breakdown [--batch 2000] [--home DIR]
    python -m benchmarks.ingest_rate --graduation 2000 8000 [--home DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from pgvector.psycopg import register_vector

from benchmarks.datagen import generate_principal
from recallflow import Memory, open_memory
from recallflow.adapters.embedders import EMBEDDER_CHOICES, embedder_from_name
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.ann_index import ANN_INDEX, graduate
from recallflow.adapters.postgres.beliefs import belief_row, copy_beliefs
from recallflow.ports import Embedder


class TimedEmbedder:
    """An :class:`~recallflow.ports.Embedder` that adds up the time spent in ``embed``."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.texts = 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        started = time.perf_counter()
        try:
            return self.inner.embed(texts)
        finally:
            self.seconds += time.perf_counter() - started
            self.texts += len(texts)


@dataclass(frozen=True)
class IngestResult:
    """One measured bulk load."""

    n: int
    embedder: str
    threads: int
    batch: int
    total_s: float
    embed_s: float
    beliefs_per_s: float
    embed_ms_per_doc: float
    write_beliefs_per_s: float
    mean_statement_chars: float
    batch_s: tuple[float, ...] = ()


def _build(name: str, threads: int) -> Embedder:
    if name == "minilm":
        from recallflow.adapters.embedders.minilm import MiniLMEmbedder

        return MiniLMEmbedder(intra_op_threads=threads)
    return embedder_from_name(name)


def measure(
    n: int,
    embedder_name: str,
    home: Path,
    *,
    threads: int = 1,
    batch: int = 5_000,
    autovacuum: bool = True,
) -> IngestResult:
    """Load ``n`` generated beliefs into a fresh store under ``home`` and time it (with
    autovacuum off for every table of the store when ``autovacuum`` is False)."""
    data = generate_principal(20250601, "p-ingest", n)
    drafts = [b for cluster in data.clusters for b in cluster.beliefs]
    embedder = TimedEmbedder(_build(embedder_name, threads))
    batch_s: list[float] = []
    with open_memory(home=home, embedder=embedder) as memory:
        if not autovacuum:
            with psycopg.connect(memory.uri, autocommit=True) as conn:
                tables = conn.execute(
                    "SELECT format('ALTER TABLE %I.%I SET (autovacuum_enabled = false)',"
                    " schemaname, relname) FROM pg_stat_user_tables"
                ).fetchall()
                for (statement,) in tables:
                    conn.execute(str(statement).encode())
        memory.episodes.add_many(data.episodes)
        started = time.perf_counter()
        done = 0
        for chunk in data.batches(batch):
            call = time.perf_counter()
            memory.beliefs.add_many(chunk)
            batch_s.append(round(time.perf_counter() - call, 2))
            done += len(chunk)
            rate = done / (time.perf_counter() - started)
            print(f"\r{done:>9,} / {n:,} beliefs  {rate:8.0f} /s", end="", file=sys.stderr)
        total = time.perf_counter() - started
        print(file=sys.stderr)
    rest = total - embedder.seconds
    return IngestResult(
        n=n,
        embedder=embedder.name,
        threads=threads,
        batch=batch,
        total_s=round(total, 3),
        embed_s=round(embedder.seconds, 3),
        beliefs_per_s=round(n / total, 1),
        embed_ms_per_doc=round(embedder.seconds / max(1, embedder.texts) * 1e3, 3),
        write_beliefs_per_s=round(n / rest, 1) if rest > 0 else 0.0,
        mean_statement_chars=round(sum(len(d.statement) for d in drafts) / max(1, n), 1),
        batch_s=tuple(batch_s),
    )


#: What ``--breakdown`` removes, one group at a time ("trigger" names the statement-level
#: term-statistics triggers, the rest name indexes of ``beliefs``).
_HNSW = (ANN_INDEX,)
_GIN = ("beliefs_entity_keys_idx", "beliefs_lexeme_keys_idx")
_KEPT = ("beliefs_pkey", *_HNSW, *_GIN)
#: Every variant but one writes a graduated principal's beliefs (they enter the partial HNSW
#: index); the one below writes an ungraduated principal's, which it does not hold.
_UNGRADUATED = "every index and trigger, an ungraduated principal (not in the HNSW index)"
_BREAKDOWN: tuple[tuple[str, str], ...] = (
    ("every index and trigger", ""),
    (_UNGRADUATED, ""),
    ("without the HNSW index", "hnsw"),
    ("without the two GIN indexes", "gin"),
    ("without the other b-tree indexes", "btree"),
    ("without the term-statistics triggers", "trigger"),
    ("with none of these (primary key and foreign keys only)", "hnsw gin btree trigger"),
)


@dataclass(frozen=True)
class BreakdownRow:
    """CPU per belief of one COPY variant, or of a whole ``add_many`` (medians)."""

    variant: str
    server_ms_per_belief: float | None
    client_ms_per_belief: float
    wall_ms_per_belief: float


def _backend_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a server backend on this machine."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _given_drafts(memory: Memory, batch: int, n: int) -> list[Any]:
    """A batch of a fresh principal with its vectors given (its episodes stored)."""
    data = generate_principal(20250601 + n, f"p-breakdown-{n}", batch + batch // 4)
    drafts = next(data.batches(batch))
    vectors = HashingEmbedder().embed([d.statement for d in drafts])
    memory.episodes.add_many(data.episodes)
    return [
        d.model_copy(update={"embedding": [float(x) for x in v]})
        for d, v in zip(drafts, vectors, strict=True)
    ]


def _given_batches(memory: Memory, batch: int, count: int) -> list[tuple[list[Any], Any]]:
    """``count`` batches of fresh principals, their episodes stored, prepared for COPY."""
    out = []
    for n in range(count):
        beliefs, given = memory.beliefs.prepare(_given_drafts(memory, batch, n))
        out.append(([belief_row(b) for b in beliefs], given))
    return out


def breakdown(home: Path, *, batch: int = 2_000, rounds: int = 3) -> list[BreakdownRow]:
    """Server CPU per belief of a COPY of ``batch`` beliefs with vectors given, with each
    group of ``_BREAKDOWN`` removed in turn (in a rolled-back transaction), into a table
    already holding two such batches (the size ``ingest:precomputed`` writes into)."""
    with open_memory(home=home, embedder=HashingEmbedder()) as memory:
        prepared = _given_batches(memory, batch, 2 + rounds * len(_BREAKDOWN))
        with psycopg.connect(memory.uri) as conn:
            register_vector(conn)
            pid = int(conn.info.backend_pid)
            indexes = [
                str(r[0])
                for r in conn.execute(
                    "SELECT indexname FROM pg_indexes WHERE tablename = 'beliefs'"
                ).fetchall()
            ]
            conn.commit()
            for rows, vectors in prepared[:2]:
                with conn.transaction():
                    copy_beliefs(conn, rows, vectors, ann_indexed=True)
            samples: dict[str, list[tuple[float, float, float]]] = {}
            queue = iter(prepared[2:])
            for _ in range(rounds):
                for variant, removed in _BREAKDOWN:
                    rows, vectors = next(queue)
                    drop = [
                        *(_HNSW if "hnsw" in removed else ()),
                        *(_GIN if "gin" in removed else ()),
                        *([i for i in indexes if i not in _KEPT] if "btree" in removed else []),
                    ]
                    with conn.transaction():
                        for name in drop:
                            conn.execute(f"DROP INDEX {name}".encode())
                        if "trigger" in removed:
                            conn.execute("ALTER TABLE beliefs DISABLE TRIGGER USER")
                        cpu, client = _backend_cpu_s(pid), time.process_time()
                        wall = time.perf_counter()
                        copy_beliefs(conn, rows, vectors, ann_indexed=variant != _UNGRADUATED)
                        conn.execute("SET CONSTRAINTS ALL IMMEDIATE")
                        samples.setdefault(variant, []).append(
                            (
                                _backend_cpu_s(pid) - cpu,
                                time.process_time() - client,
                                time.perf_counter() - wall,
                            )
                        )
                        raise psycopg.Rollback()
        # The whole write as a caller makes it (validation included); its statements run
        # on pooled connections, so only the client's CPU is attributed.
        whole: list[tuple[float, float]] = []
        for n in range(rounds):
            drafts = _given_drafts(memory, batch, len(prepared) + n)
            client, wall = time.process_time(), time.perf_counter()
            memory.beliefs.add_many(drafts)
            whole.append((time.process_time() - client, time.perf_counter() - wall))

    def ms(values: Iterable[float]) -> float:
        return round(statistics.median(values) * 1e3 / batch, 3)

    return [
        *(
            BreakdownRow(variant, ms(x[0] for x in xs), ms(x[1] for x in xs), ms(x[2] for x in xs))
            for variant, xs in samples.items()
        ),
        BreakdownRow(
            "a whole `add_many` (every index)",
            None,
            ms(c for c, _ in whole),
            ms(w for _, w in whole),
        ),
    ]


@dataclass(frozen=True)
class GraduationRow:
    """What graduating a principal of ``beliefs`` beliefs costs (medians)."""

    beliefs: int
    server_s: float
    wall_s: float


def graduation(home: Path, sizes: Sequence[int], *, rounds: int = 3) -> list[GraduationRow]:
    """Server CPU and wall time of graduating a principal of each of ``sizes`` beliefs
    (stored unindexed first; the graduation runs in a transaction that is rolled back)."""
    out = []
    memory = open_memory(home=home, embedder=HashingEmbedder())
    with memory, psycopg.connect(memory.uri) as conn:
        register_vector(conn)
        pid = int(conn.info.backend_pid)
        for size in sizes:
            beliefs, given = memory.beliefs.prepare(_given_drafts(memory, size, size))
            with conn.transaction():
                copy_beliefs(conn, [belief_row(b) for b in beliefs], given, ann_indexed=False)
            tenant, principal = beliefs[0].tenant_id, beliefs[0].principal_id
            samples = []
            for _ in range(rounds):
                with conn.transaction():
                    cpu, wall = _backend_cpu_s(pid), time.perf_counter()
                    entered = graduate(conn, tenant, principal)
                    samples.append((_backend_cpu_s(pid) - cpu, time.perf_counter() - wall))
                    assert entered == len(beliefs), (entered, len(beliefs))
                    raise psycopg.Rollback()
            out.append(
                GraduationRow(
                    len(beliefs),
                    round(statistics.median(c for c, _ in samples), 2),
                    round(statistics.median(w for _, w in samples), 2),
                )
            )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.ingest_rate``."""
    parser = argparse.ArgumentParser(
        prog="benchmarks.ingest_rate", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--n", type=int, default=10_000, help="beliefs to load (default 10000)")
    parser.add_argument("--embedder", default="hashing", choices=EMBEDDER_CHOICES)
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime intra-op threads")
    parser.add_argument(
        "--batch", type=int, default=None, help="beliefs per call (500; --breakdown: 2000)"
    )
    parser.add_argument(
        "--home", type=Path, default=None, help="store home (default: a fresh temp dir)"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the result here")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="server CPU per belief with each index group removed in turn (vectors given)",
    )
    parser.add_argument(
        "--autovacuum-off",
        action="store_true",
        help="switch autovacuum off for every table of the store before the load",
    )
    parser.add_argument(
        "--graduation",
        type=int,
        nargs="+",
        default=None,
        metavar="N",
        help="time to graduate a principal of N beliefs into the HNSW index",
    )
    args = parser.parse_args(argv)
    home: Path = args.home or Path(tempfile.mkdtemp(prefix="recallflow-ingest-"))
    try:
        if args.graduation:
            graduated = graduation(home, args.graduation)
        elif args.breakdown:
            rows = breakdown(home, batch=args.batch or 2_000)
        else:
            result = measure(
                args.n,
                args.embedder,
                home,
                threads=args.threads,
                batch=args.batch or 500,
                autovacuum=not args.autovacuum_off,
            )
    finally:
        if args.home is None:
            shutil.rmtree(home, ignore_errors=True)
    if args.graduation:
        print("| principal's beliefs | server CPU s | wall s | server CPU ms / belief |")
        print("|---|---|---|---|")
        for g in graduated:
            per = round(g.server_s * 1e3 / g.beliefs, 3)
            print(f"| {g.beliefs:,} | {g.server_s} | {g.wall_s} | {per} |")
        return 0
    if args.breakdown:
        print(
            "| write of a batch | server CPU ms / belief | client CPU ms / belief"
            " | wall ms / belief |"
        )
        print("|---|---|---|---|")
        for row in rows:
            server = "—" if row.server_ms_per_belief is None else row.server_ms_per_belief
            print(
                f"| {row.variant} | {server} | {row.client_ms_per_belief}"
                f" | {row.wall_ms_per_belief} |"
            )
        return 0
    text = json.dumps(asdict(result), indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
