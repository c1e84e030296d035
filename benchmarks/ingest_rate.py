"""Bulk ingestion rate with embeddings: how fast a formation process can write beliefs.

Generates ``--n`` beliefs of one principal with ``benchmarks/datagen.py`` (not timed),
then times ``Memory.beliefs.add_many`` in batches of ``--batch`` — validation, embedding
with ``--embedder`` (``hashing`` or ``minilm``, the default embedder; ``e5`` if installed)
and COPY into a fresh store whose indexes, HNSW included, are all in place, as a
formation process meets them. The embedder's own time is measured by wrapping it, so the
report splits beliefs/s into embedding and the rest.

MiniLM runs single-threaded by default (about 8–11 ms per statement on this box, so
100k takes 15–20 minutes); ``--threads`` raises onnxruntime's intra-op threads.

Usage::

    python -m benchmarks.ingest_rate --n 100000 --embedder minilm [--threads 1]
        [--home DIR] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from benchmarks.datagen import generate_principal
from recallflow import open_memory
from recallflow.adapters.embedders import embedder_from_name
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


def _build(name: str, threads: int) -> Embedder:
    if name == "minilm":
        from recallflow.adapters.embedders.minilm import MiniLMEmbedder

        return MiniLMEmbedder(intra_op_threads=threads)
    return embedder_from_name(name)


def measure(
    n: int, embedder_name: str, home: Path, *, threads: int = 1, batch: int = 5_000
) -> IngestResult:
    """Load ``n`` generated beliefs into a fresh store under ``home`` and time it."""
    data = generate_principal(20250601, "p-ingest", n)
    drafts = [b for cluster in data.clusters for b in cluster.beliefs]
    embedder = TimedEmbedder(_build(embedder_name, threads))
    with open_memory(home=home, embedder=embedder) as memory:
        memory.episodes.add_many(data.episodes)
        started = time.perf_counter()
        done = 0
        for chunk in data.batches(batch):
            memory.beliefs.add_many(chunk)
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
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.ingest_rate``."""
    parser = argparse.ArgumentParser(
        prog="benchmarks.ingest_rate", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--n", type=int, default=10_000, help="beliefs to load (default 10000)")
    parser.add_argument("--embedder", default="hashing", help="hashing | minilm | e5")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime intra-op threads")
    parser.add_argument("--batch", type=int, default=500, help="beliefs per add_many call")
    parser.add_argument(
        "--home", type=Path, default=None, help="store home (default: a fresh temp dir)"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the result here")
    args = parser.parse_args(argv)
    home: Path = args.home or Path(tempfile.mkdtemp(prefix="recallflow-ingest-"))
    try:
        result = measure(args.n, args.embedder, home, threads=args.threads, batch=args.batch)
    finally:
        if args.home is None:
            shutil.rmtree(home, ignore_errors=True)
    text = json.dumps(asdict(result), indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
