"""Run the evaluation harness with an embedder recallflow has never seen.

The relevance floor is calibrated per embedder (see "Relevance floor" in
docs/architecture.md), so it should hold for a user's own model, not only for the shipped
ones. This script stands in for such models with transforms of a shipped embedder, each
behind the bare Embedder port (``name``, ``dimension``, ``embed``; no ``embed_queries``)
under a name of its own, so each is calibrated afresh at first open:

* ``rename``: the model as it is (for MiniLM: fp32 queries, as a plain wrapper gets them);
* ``proj:D``: a fixed Gaussian projection to D dimensions, normalised again (a smaller model);
* ``lean:C``: C times a fixed unit vector added to every vector, normalised again: every
  cosine high, as e5's are (unrelated sentences about 0.8);
* ``noise:A``: A times the vector plus a random unit vector fixed per text, normalised
  again: every cosine compressed and noisier (a weaker model);
* ``unnormalised``: rows scaled by 1 to 5 (refused at open: the port needs unit rows);
* ``plean:C``: asymmetric, as e5 is: passages as ``lean:C``, queries (``embed_queries``)
  left as they are, so two passages look alike (unrelated ones about 0.8 for C 2) while a
  query and a passage do not (about 0.03): the query-passage scale is not the passage one.

Usage::

    python benchmarks/own_embedders.py --transform proj:256 [--base minilm] [--split dev]
        [--conversations N] [--no-locomo] [--out DIR]

It runs LoCoMo (``--split``), the scenario suites and the off-topic suite, as
``recallflow eval --skip-peers --skip-sessions`` does, against a throwaway embedded
PostgreSQL, and prints the report's summary. The data (CC BY-NC 4.0) is read from
``../shared/datasets/locomo/locomo10.json`` relative to the repository root.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from recallflow.adapters.embedders import embedder_from_name
from recallflow.cli.eval import DEFAULT_OFFTOPIC, DEFAULT_SCENARIOS, resolve
from recallflow.evaluation.locomo import DEFAULT_PATH, LocomoDataset
from recallflow.evaluation.offtopic import load_suite
from recallflow.evaluation.report import render_summary
from recallflow.evaluation.reports import EvalOptions
from recallflow.evaluation.runner import run_eval, write_report
from recallflow.evaluation.scenarios import load_scenarios
from recallflow.memory import open_memory
from recallflow.ports import Embedder

TRANSFORMS = ("rename", "proj", "lean", "noise", "unnormalised", "plean")


def _text_seed(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


class TransformedEmbedder:
    """A shipped embedder behind the bare port, transformed (see the module)."""

    def __init__(self, inner: Embedder, transform: str) -> None:
        kind, _, arg = transform.partition(":")
        if kind not in TRANSFORMS:
            raise ValueError(f"unknown transform {transform!r}; valid: {', '.join(TRANSFORMS)}")
        self.inner, self.kind, self.transform = inner, kind, transform
        self.arg = float(arg) if arg else 0.0
        rng = np.random.default_rng(17)
        self._dimension = int(self.arg) if kind == "proj" else inner.dimension
        self._projection = rng.standard_normal((inner.dimension, self._dimension)).astype(
            np.float32
        )
        shared = rng.standard_normal(inner.dimension)
        self._shared = (shared / np.linalg.norm(shared)).astype(np.float32)

    @property
    def name(self) -> str:
        return f"own-{self.transform.replace(':', '')}-{self.inner.name}"

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        v = np.asarray(self.inner.embed(list(texts)), dtype=np.float32)
        if self.kind == "proj":
            v = v @ self._projection
        elif self.kind in ("lean", "plean"):
            v = v + self.arg * self._shared
        elif self.kind == "noise":
            noise = (
                np.stack(
                    [
                        np.random.default_rng(_text_seed(t)).standard_normal(v.shape[1])
                        for t in texts
                    ]
                ).astype(np.float32)
                if texts
                else np.zeros_like(v)
            )
            noise /= np.maximum(np.linalg.norm(noise, axis=1, keepdims=True), 1e-12)
            v = self.arg * v + noise
        lengths = np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
        if self.kind == "unnormalised":
            scale = np.array([1.0 + (_text_seed(t) % 400) / 100 for t in texts], dtype=np.float32)
            return (v * scale[:, None]).astype(np.float32)
        unit: npt.NDArray[np.float32] = (v / lengths).astype(np.float32)
        return unit


class LeanedPassages(TransformedEmbedder):
    """``plean:C``: passages leaned, queries as the inner model embeds them (see the module)."""

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        v = np.asarray(self.inner.embed(list(texts)), dtype=np.float32)
        unit: npt.NDArray[np.float32] = (
            v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
        ).astype(np.float32)
        return unit


def transformed(inner: Embedder, transform: str) -> TransformedEmbedder:
    """``inner`` behind ``transform`` (one of :data:`TRANSFORMS`, with its argument)."""
    if transform.partition(":")[0] == "plean":
        return LeanedPassages(inner, transform)
    return TransformedEmbedder(inner, transform)


def _base(name: str) -> Embedder:
    if name == "minilm":  # as a plain wrapper sees it: one fp32 path for passages and queries
        from recallflow.adapters.embedders.minilm import MiniLMEmbedder

        return MiniLMEmbedder(int8_queries=False)
    return embedder_from_name(name)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--transform", required=True, help="rename, proj:D, lean:C, noise:A, plean:C, …"
    )
    parser.add_argument("--base", default="minilm", help="shipped embedder (default minilm)")
    parser.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--no-locomo", action="store_true", help="scenarios and demo only")
    parser.add_argument("--locomo", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="write the reports here too")
    args = parser.parse_args(argv)
    embedder = transformed(_base(args.base), args.transform)
    datasets = [] if args.no_locomo else [LocomoDataset(resolve(args.locomo or DEFAULT_PATH))]
    options = EvalOptions(
        split=args.split,
        conversations=args.conversations,
        skip_peers=True,
        skip_sessions=True,
        progress=False,
    )
    home = tempfile.mkdtemp(prefix="recallflow-own-embedder-")
    try:
        with open_memory(None, home, embedder=embedder, operator=True) as memory:
            print(
                f"calibration {memory.calibration.version}: unrelated-pair cosine mean"
                f" {memory.calibration.pair_mean:.3f}, spread {memory.calibration.pair_std:.3f}"
            )
            report = run_eval(
                memory,
                datasets=datasets,
                scenarios=load_scenarios(resolve(DEFAULT_SCENARIOS)),
                offtopic=load_suite(resolve(DEFAULT_OFFTOPIC)),
                options=options,
            )
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(render_summary(report))
    if args.out is not None:
        write_report(report, args.out)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
