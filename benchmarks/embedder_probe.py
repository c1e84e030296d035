"""The relevance floor with embedders unlike the shipped ones, on the unseen memories.

The floor reads similarity on each embedder's own scale, measured at the first open
against unrelated text (see "Relevance floor" in docs/architecture.md), so it should keep
nonsense out and find answers with a model recallflow has never seen. This probe stands in
for such models with four embedders behind the bare Embedder port, each under a name of
its own (calibrated afresh), none loaded from anywhere but the shipped packages:

* ``proj``: MiniLM (fp32) through a fixed seeded Gaussian projection to 96 dimensions,
  normalised again: a smaller model with noisier similarities;
* ``lean``: MiniLM with twice a fixed unit vector added, normalised again: every cosine
  high and compressed (unrelated sentences about 0.8), as many real models are;
* ``lsa``: a weak lexical model: TF-IDF over hashed words and character trigrams, reduced
  by a truncated SVD fitted on the probe's own belief statements only (64 dimensions),
  plus a small fixed per-text direction so a text it has no features for is still a unit
  row;
* ``half``: MiniLM (fp32) scaled by √½ beside a fixed random unit vector per text, scaled
  by √½, in 1,600 more dimensions: every cosine about half MiniLM's (unrelated sentences
  about 0.05, a paraphrase 0.2), little noise added;
* ``perm``: the shipped MiniLM (int8 queries and all) with its dimensions permuted and
  half their signs flipped: every cosine the same, so it must render what MiniLM renders.

The questions: every memory and question of ``benchmarks.unseen_memories`` and
``benchmarks.unseen_gaps`` (tasks included), and asked of each of their eight memories
the off-topic suite (``benchmarks/offtopic.json``, kinds ``suite-offtopic`` and
``suite-nonsense``) and :data:`PROBE_NONE` (48 of this probe's own, kinds
``probe-offtopic`` and ``probe-nonsense``). Halves are ``benchmarks.unseen_memories``'
seeded hash.

Usage::

    RECALLFLOW_BENCH_HOME=... python -m benchmarks.embedder_probe [--embedder proj]
        [--half held] [--detail]

``--embedder`` is a probe embedder (``proj``, ``lean``, ``lsa``, ``half``, ``perm``) or a shipped
one (``minilm``, ``hashing``, ``e5``). Per half it prints ``benchmarks.unseen_memories``'
figures: answers found, questions that must render nothing that rendered something, by
kind.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from benchmarks import unseen_gaps, unseen_memories
from benchmarks.own_embedders import transformed
from benchmarks.unseen_memories import Asked, Probe, Question, ask, main
from recallflow.adapters.embedders import EMBEDDER_CHOICES, embedder_from_name
from recallflow.ports import Embedder

SUITE = Path(__file__).resolve().parent / "offtopic.json"

#: The probe embedders, by the name ``--embedder`` takes.
PROBE_EMBEDDERS: tuple[str, ...] = ("proj", "lean", "lsa", "half", "perm")

#: Off-topic and nonsense questions written for this probe (none of the eight memories, the
#: demo memory or the calibration corpus's domains is about these), asked of every memory.
PROBE_NONE: tuple[tuple[str, str], ...] = (
    ("How do falcons stoop onto their prey?", "probe-offtopic"),
    ("What did the Hittites trade with Egypt?", "probe-offtopic"),
    ("Why do glaciers look blue inside?", "probe-offtopic"),
    ("How many stitches make a granny square?", "probe-offtopic"),
    ("Which horse won the Grand National in 1967?", "probe-offtopic"),
    ("Fold an origami crane step by step", "probe-offtopic"),
    ("What is the Rosetta Stone made of?", "probe-offtopic"),
    ("how do you score a googly in cricket", "probe-offtopic"),
    ("What reed do Highland bagpipes use?", "probe-offtopic"),
    ("Are lichens a fungus or an alga?", "probe-offtopic"),
    ("What lives around deep-sea hydrothermal vents?", "probe-offtopic"),
    ("Why does the moon show phases?", "probe-offtopic"),
    ("How did Roman aqueducts keep their gradient?", "probe-offtopic"),
    ("Explain flag semaphore for the letter R", "probe-offtopic"),
    ("What causes spring tides?", "probe-offtopic"),
    ("Which wood is best for turning a bowl on a lathe?", "probe-offtopic"),
    ("How is a horseshoe forged by a farrier?", "probe-offtopic"),
    ("What is a pas de bourrée in ballet?", "probe-offtopic"),
    ("translate hieroglyphs for the sun god Ra", "probe-offtopic"),
    ("How do polar bears keep warm in the water?", "probe-offtopic"),
    ("What is the rule for the offside trap in water polo?", "probe-offtopic"),
    ("Why do sunflowers track the sun?", "probe-offtopic"),
    ("Summarise the plot of Beowulf", "probe-offtopic"),
    ("What makes a Stradivarius violin sound different?", "probe-offtopic"),
    ("How do you tan a deer hide?", "probe-offtopic"),
    ("Who built the Great Zimbabwe walls?", "probe-offtopic"),
    ("zorblax fimble quantumly trout", "probe-nonsense"),
    ("glarb snorf wibble", "probe-nonsense"),
    ("lorem ipsum dolor sit amet consectetur", "probe-nonsense"),
    ("blorptastic hyperwidget v2", "probe-nonsense"),
    ("moon cheese hydraulic sonnet", "probe-nonsense"),
    ("wug wugs wugging", "probe-nonsense"),
    ("qzx vbn plm okm", "probe-nonsense"),
    ("snarfle the glimmerwomp before it grinches", "probe-nonsense"),
    ("ejkrh wkejrh kwjehr", "probe-nonsense"),
    ("Spoon? Spoon! SPOON.", "probe-nonsense"),
    ("elephant telescope marmalade gravity", "probe-nonsense"),
    ("the thing with the stuff near the other thing", "probe-nonsense"),
    ("mmmmmm hmmm", "probe-nonsense"),
    ("1234 5678 91011", "probe-nonsense"),
    ("yes no maybe so", "probe-nonsense"),
    ("frobnicate the quux until it squeaks", "probe-nonsense"),
    ("tinkle bramble oxide", "probe-nonsense"),
    ("can you though", "probe-nonsense"),
    ("!!!???", "probe-nonsense"),
    ("velvet thunder in a teacup", "probe-nonsense"),
    ("plorp", "probe-nonsense"),
    ("kerfuffle gazebo nincompoop", "probe-nonsense"),
)


def suite_none() -> tuple[tuple[str, str], ...]:
    """The off-topic suite's queries with their kind (``suite-nonsense`` or
    ``suite-offtopic``)."""
    queries = json.loads(SUITE.read_text())["queries"]
    return tuple(
        (q["text"], "suite-nonsense" if q["domain"] == "nonsense" else "suite-offtopic")
        for q in queries
    )


def probe() -> Probe:
    """The eight unseen memories, each with its own questions and the off-topic ones."""
    out: Probe = {}
    extra = [Question(text, (), kind) for text, kind in (*suite_none(), *PROBE_NONE)]
    for source in (unseen_memories.probe(), unseen_gaps.probe()):
        for name, (drafts, questions) in source.items():
            out[name] = (drafts, [*questions, *extra])
    return out


def statements(memories: Probe) -> list[str]:
    """Every belief statement of ``memories`` (what :class:`LsaEmbedder` is fitted on)."""
    return [d["statement"] for drafts, _ in memories.values() for d in drafts.values()]


_TOKEN = re.compile(r"[a-z0-9]+")


def _bucket(feature: str, buckets: int) -> int:
    digest = hashlib.blake2b(feature.encode(), digest_size=8, key=b"probe-lsa").digest()
    return int.from_bytes(digest, "little") % buckets


def _text_seed(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


class LsaEmbedder:
    """A weak lexical model: hashed TF-IDF of words and character trigrams, reduced by a
    truncated SVD fitted on ``passages`` (see the module)."""

    buckets = 4096

    def __init__(self, passages: Sequence[str], dimension: int = 64, residual: float = 0.05):
        counts = np.stack([self._counts(p) for p in passages])
        documents = (counts > 0).sum(axis=0)
        self._idf = np.log((1 + len(passages)) / (1 + documents)) + 1.0
        weighted = self._weigh(counts)
        _, _, vt = np.linalg.svd(weighted, full_matrices=False)
        self._basis = vt[:dimension].T.astype(np.float64)
        self._dimension = int(self._basis.shape[1])
        self._residual = residual
        corpus = hashlib.sha256("\n".join(passages).encode()).hexdigest()[:8]
        self._name = f"probe-lsa{self._dimension}-{corpus}"

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return self._dimension

    def _counts(self, text: str) -> npt.NDArray[np.float64]:
        row = np.zeros(self.buckets)
        for word in _TOKEN.findall(text.lower()):
            row[_bucket("w:" + word, self.buckets)] += 1.0
            padded = f"<{word}>"
            for i in range(len(padded) - 2):
                row[_bucket("c:" + padded[i : i + 3], self.buckets)] += 0.5
        return row

    def _weigh(self, counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        tf = np.log1p(counts) * self._idf
        norms = np.maximum(np.linalg.norm(tf, axis=1, keepdims=True), 1e-12)
        weighted: npt.NDArray[np.float64] = tf / norms
        return weighted

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self._dimension), dtype=np.float32)
        reduced = self._weigh(np.stack([self._counts(t) for t in texts])) @ self._basis
        noise = np.stack(
            [np.random.default_rng(_text_seed(t)).standard_normal(self._dimension) for t in texts]
        )
        noise /= np.linalg.norm(noise, axis=1, keepdims=True)
        v = reduced + self._residual * noise
        unit: npt.NDArray[np.float32] = (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(
            np.float32
        )
        return unit


class HalvedEmbedder:
    """``inner``'s vectors times √``share`` beside a fixed random unit vector per text times
    √(1 − ``share``) in ``extra`` more dimensions: every cosine about ``share`` times
    ``inner``'s (the random parts of two texts are nearly orthogonal)."""

    def __init__(self, inner: Embedder, share: float = 0.5, extra: int = 1600) -> None:
        self.inner, self.share, self.extra = inner, share, extra

    @property
    def name(self) -> str:
        return f"probe-half{round(self.share * 100)}x{self.extra}-{self.inner.name}"

    @property
    def dimension(self) -> int:
        return self.inner.dimension + self.extra

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        v = np.asarray(self.inner.embed(list(texts)), dtype=np.float64)
        r = np.stack(
            [np.random.default_rng(_text_seed(t)).standard_normal(self.extra) for t in texts]
        )
        r /= np.linalg.norm(r, axis=1, keepdims=True)
        w = np.hstack([np.sqrt(self.share) * v, np.sqrt(1.0 - self.share) * r])
        unit: npt.NDArray[np.float32] = (w / np.linalg.norm(w, axis=1, keepdims=True)).astype(
            np.float32
        )
        return unit


class PermutedEmbedder:
    """``inner``'s vectors with their dimensions in a fixed seeded order and half their
    signs flipped, queries (``embed_queries``) as passages: every cosine unchanged."""

    def __init__(self, inner: Embedder, seed: int = 29) -> None:
        rng = np.random.default_rng(seed)
        self.inner = inner
        self._order = rng.permutation(inner.dimension)
        self._signs = np.where(rng.random(inner.dimension) < 0.5, -1.0, 1.0).astype(np.float32)

    @property
    def name(self) -> str:
        return f"probe-perm-{self.inner.name}"

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def _permute(self, vectors: object) -> npt.NDArray[np.float32]:
        v = np.asarray(vectors, dtype=np.float32)
        out: npt.NDArray[np.float32] = v[:, self._order] * self._signs
        return out

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._permute(self.inner.embed(texts))

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        as_queries = getattr(self.inner, "embed_queries", self.inner.embed)
        return self._permute(as_queries(texts))


def _minilm_fp32() -> Embedder:
    """MiniLM as a plain wrapper sees it: one fp32 path for passages and queries."""
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder

    return MiniLMEmbedder(int8_queries=False)


def probe_embedder(name: str, memories: Probe | None = None) -> Embedder:
    """The probe embedder (or shipped one) called ``name``; ``lsa`` is fitted on
    ``memories``' statements (by default this probe's)."""
    if name == "proj":
        return transformed(_minilm_fp32(), "proj:96")
    if name == "lean":
        return transformed(_minilm_fp32(), "lean:2")
    if name == "lsa":
        return LsaEmbedder(statements(probe() if memories is None else memories))
    if name == "half":
        return HalvedEmbedder(_minilm_fp32())
    if name == "perm":
        return PermutedEmbedder(embedder_from_name("minilm"))
    return embedder_from_name(name)


def asked(embedder: str) -> list[Asked]:
    """Every question of every memory, recalled with the embedder called ``embedder``."""
    memories = probe()
    return ask(probe_embedder(embedder, memories), "recallflow_probe", memories)


if __name__ == "__main__":
    main(asked, __doc__ or "", (*PROBE_EMBEDDERS, *EMBEDDER_CHOICES))
