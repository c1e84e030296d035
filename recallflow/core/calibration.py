"""Calibrating an embedder's similarity against unrelated text, pure (see "Relevance floor"
in docs/architecture.md).

A cosine similarity means nothing on its own: the same pair of unrelated sentences scores
about 0.05 with MiniLM, 0.75 with e5 and 0 with the hashing embedder, and a short
nonsense query scores 0.3–0.4 against an unrelated belief with MiniLM. So the floor never
reads a raw cosine. It reads how far a candidate's similarity stands above the similarity
of *unrelated* text to the same query, measured on a deterministic synthetic corpus built
here from a fixed word list: sentences about twenty unrelated domains, each sentence drawn
from one domain, in the shapes beliefs and queries take (statements, questions, dialogue
turns, keyword lists).

Two things come out of it:

* :class:`UnrelatedCorpus`: the corpus texts. Embedding them (once per embedder, in the
  adapters) gives the *null* a query is compared with at recall time: its similarity to
  the corpus sentences says how similar "unrelated" looks to this query with this model.
* :func:`pair_statistics`: the distribution of cosines between corpus sentences of
  different domains (mean, spread, upper quantiles), recorded with the embedder's name so a
  reader can compare models.

Everything here is deterministic: the corpus is a function of :data:`CORPUS_VERSION` only.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from pydantic import ConfigDict, Field

from recallflow.models.base import FrozenModel

#: Bump when the word list, the templates, the generator or what is measured on the corpus
#: change (v2: the pair statistics of a model that embeds queries apart are read query
#: against passage; the sentences are those of v1).
CORPUS_VERSION = "unrelated-v2"

#: Sentences generated per domain and template.
_PER_TEMPLATE = 2

# Twenty domains chosen to be far apart; every sentence uses words of exactly one.
_DOMAINS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    # domain: (nouns, verbs, adjectives)
    "astronomy": (
        ("nebula", "comet", "telescope", "orbit", "galaxy", "quasar", "eclipse", "asteroid"),
        ("observe", "track", "photograph", "measure"),
        ("distant", "faint", "elliptical", "stellar"),
    ),
    "sailing": (
        ("mainsail", "keel", "harbour", "anchor", "rudder", "spinnaker", "mooring", "jib"),
        ("hoist", "reef", "tack", "moor"),
        ("windward", "choppy", "nautical", "leeward"),
    ),
    "geology": (
        ("basalt", "sediment", "fault", "granite", "magma", "quartz", "glacier", "strata"),
        ("erode", "survey", "drill", "classify"),
        ("volcanic", "metamorphic", "porous", "tectonic"),
    ),
    "textiles": (
        ("yarn", "loom", "spindle", "tweed", "needle", "bobbin", "cashmere", "stitch"),
        ("weave", "knit", "dye", "spin"),
        ("woollen", "coarse", "embroidered", "twilled"),
    ),
    "insects": (
        ("beetle", "larva", "antenna", "hive", "wasp", "cocoon", "mandible", "aphid"),
        ("pollinate", "swarm", "molt", "burrow"),
        ("nocturnal", "winged", "parasitic", "iridescent"),
    ),
    "chess": (
        ("bishop", "gambit", "checkmate", "pawn", "endgame", "rook", "castling", "knight"),
        ("sacrifice", "promote", "defend", "pin"),
        ("positional", "tactical", "opening", "zugzwang"),
    ),
    "plumbing": (
        ("faucet", "pipe", "valve", "drain", "gasket", "boiler", "siphon", "washer"),
        ("unclog", "solder", "tighten", "flush"),
        ("leaky", "corroded", "threaded", "copper"),
    ),
    "opera": (
        ("aria", "soprano", "libretto", "overture", "tenor", "baritone", "recitative", "chorus"),
        ("rehearse", "compose", "conduct", "stage"),
        ("operatic", "dramatic", "baroque", "lyrical"),
    ),
    "forestry": (
        ("timber", "sapling", "canopy", "bark", "stump", "conifer", "clearing", "underbrush"),
        ("fell", "prune", "replant", "thin"),
        ("deciduous", "mossy", "evergreen", "dense"),
    ),
    "chemistry": (
        ("molecule", "catalyst", "isotope", "solvent", "reagent", "polymer", "titration", "ion"),
        ("synthesise", "distil", "oxidise", "neutralise"),
        ("acidic", "volatile", "covalent", "inert"),
    ),
    "heraldry": (
        ("crest", "shield", "banner", "motto", "griffin", "escutcheon", "tincture", "herald"),
        ("blazon", "quarter", "emboss", "inherit"),
        ("armorial", "gilded", "rampant", "noble"),
    ),
    "beekeeping": (
        ("honeycomb", "queen", "smoker", "nectar", "apiary", "drone", "propolis", "frame"),
        ("harvest", "requeen", "inspect", "extract"),
        ("waxy", "buzzing", "amber", "swarming"),
    ),
    "railways": (
        ("locomotive", "signal", "platform", "carriage", "sleeper", "junction", "timetable"),
        ("shunt", "couple", "derail", "electrify"),
        ("narrow-gauge", "freight", "suburban", "steam"),
    ),
    "dentistry": (
        ("molar", "enamel", "filling", "crown", "gum", "plaque", "incisor", "braces"),
        ("extract", "polish", "whiten", "drill"),
        ("dental", "wisdom", "sensitive", "orthodontic"),
    ),
    "meteorology": (
        ("cyclone", "isobar", "humidity", "drizzle", "front", "barometer", "monsoon", "hail"),
        ("forecast", "condense", "precipitate", "gust"),
        ("tropical", "humid", "overcast", "polar"),
    ),
    "taxation": (
        ("deduction", "levy", "tariff", "allowance", "audit", "withholding", "exemption"),
        ("assess", "levy", "deduct", "declare"),
        ("fiscal", "taxable", "statutory", "annual"),
    ),
    "archery": (
        ("quiver", "bowstring", "fletching", "arrowhead", "target", "longbow", "bullseye"),
        ("draw", "nock", "aim", "release"),
        ("recurve", "compound", "feathered", "taut"),
    ),
    "cheesemaking": (
        ("curd", "rennet", "whey", "rind", "brine", "cheddar", "mould", "cellar"),
        ("ripen", "press", "salt", "culture"),
        ("aged", "creamy", "pungent", "crumbly"),
    ),
    "mountaineering": (
        ("crampon", "summit", "crevasse", "ridge", "piton", "ascent", "col", "rope"),
        ("belay", "abseil", "acclimatise", "climb"),
        ("alpine", "icy", "exposed", "vertical"),
    ),
    "numismatics": (
        ("coin", "mint", "obverse", "denomination", "ingot", "sovereign", "florin", "token"),
        ("strike", "grade", "collect", "appraise"),
        ("uncirculated", "silver", "commemorative", "rare"),
    ),
}

_NAMES = ("Alex", "Morgan", "Priya", "Tomasz", "Lena", "Kofi", "Yuki", "Rosa")

# The shapes stored beliefs and recall queries take.
_TEMPLATES: tuple[str, ...] = (
    "{N1} and the {A} {N2}.",
    "How do I {V} a {A} {N1}?",
    "The user prefers {N1} over {N2}.",
    "What is the best {N1} for a {A} {N2}?",
    "{NAME}: we talked about the {N1} and the {A} {N2} today.",
    "{N1} {N2} {N3}",
    "Remember that the {N1} needs to {V} before the {N2}.",
    "When did {NAME} {V} the {N1}?",
)


def _pick(options: Sequence[str], *seed: object) -> str:
    """A deterministic choice among ``options`` for ``seed`` (keyed BLAKE2b, not ``random``)."""
    digest = hashlib.blake2b(repr(seed).encode(), digest_size=8, key=b"recallflow-cal").digest()
    return options[int.from_bytes(digest, "little") % len(options)]


class UnrelatedCorpus(FrozenModel):
    """The synthetic corpus: sentences and the domain each is about."""

    version: str
    texts: tuple[str, ...]
    domains: tuple[str, ...]


@functools.cache
def unrelated_corpus() -> UnrelatedCorpus:
    """The deterministic corpus of :data:`CORPUS_VERSION` (one domain per sentence).

    Made once per process: every open of a store draws calibration sentences from it, and
    making it (38,400 keyed hashes) was a sixth of an open's time on a running server."""
    texts: list[str] = []
    domains: list[str] = []
    for domain, (nouns, verbs, adjectives) in _DOMAINS.items():
        for t_index, template in enumerate(_TEMPLATES):
            for k in range(_PER_TEMPLATE):
                seed = (domain, t_index, k)
                n1 = _pick(nouns, *seed, "n1")
                n2 = _pick([n for n in nouns if n != n1], *seed, "n2")
                n3 = _pick([n for n in nouns if n not in (n1, n2)], *seed, "n3")
                text = template.format(
                    N1=n1,
                    N2=n2,
                    N3=n3,
                    V=_pick(verbs, *seed, "v"),
                    A=_pick(adjectives, *seed, "a"),
                    NAME=_pick(_NAMES, *seed, "name"),
                )
                texts.append(text[0].upper() + text[1:])
                domains.append(domain)
    return UnrelatedCorpus(version=CORPUS_VERSION, texts=tuple(texts), domains=tuple(domains))


class PairStatistics(FrozenModel):
    """The cosine distribution of unrelated sentence pairs under one embedder."""

    pairs: int
    mean: float
    std: float
    p50: float
    p90: float
    p99: float
    p999: float
    max: float


def pair_statistics(
    vectors: npt.NDArray[np.float32],
    domains: Sequence[str],
    queries: npt.NDArray[np.float32] | None = None,
) -> PairStatistics:
    """Cosines of every pair of corpus sentences about different domains (unit rows in).

    With ``queries`` (the same sentences embedded as search queries, row for row), each
    pair is a query against a passage: the pairs a recall's standings are read from. A
    model that embeds queries apart need not give them the cosines it gives two passages
    (e5's unrelated query-passage pairs sit lower and closer together than its passage
    pairs), and a standing measured in passage-pair spreads would then be read on the
    wrong scale."""
    labels = np.asarray(domains)
    different = labels[:, None] != labels[None, :]
    if queries is None:
        sims = vectors @ vectors.T
        different &= np.triu(np.ones_like(different, dtype=bool), k=1)
    else:
        sims = np.asarray(queries, dtype=np.float32) @ vectors.T
    values = sims[different].astype(np.float64)
    q = np.quantile(values, [0.5, 0.9, 0.99, 0.999])
    return PairStatistics(
        pairs=int(values.size),
        mean=round(float(values.mean()), 6),
        std=round(float(values.std()), 6),
        p50=round(float(q[0]), 6),
        p90=round(float(q[1]), 6),
        p99=round(float(q[2]), 6),
        p999=round(float(q[3]), 6),
        max=round(float(values.max()), 6),
    )


#: The corpus version of an embedder that has no calibration.
UNCALIBRATED = "uncalibrated"


class CalibrationRef(FrozenModel):
    """What the policy and the trace record of a calibration: whose it is, of which corpus,
    the unrelated-pair statistics the ranking reads, and a digest of the null vectors."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    embedder: str
    corpus_version: str
    pair_mean: float = Field(description="Mean cosine of unrelated sentence pairs.")
    pair_std: float = Field(gt=0, description="Their standard deviation.")
    null_digest: str = Field(default="", description="sha256 of the null vectors (hex).")

    @property
    def calibrated(self) -> bool:
        """False for the conservative default of an embedder without a calibration."""
        return self.corpus_version != UNCALIBRATED

    @property
    def version(self) -> str:
        """``<embedder>/<corpus version>/<digest prefix>``: names the calibration exactly."""
        suffix = f"/{self.null_digest[:12]}" if self.null_digest else ""
        return f"{self.embedder}/{self.corpus_version}{suffix}"


@dataclass(frozen=True)
class Calibration:
    """A calibration with the vectors it needs at recall time: the corpus embedded as
    beliefs are (the *null* a query is compared with). Not a pydantic model: it carries an
    array, and only its :class:`CalibrationRef` is recorded."""

    ref: CalibrationRef
    null_vectors: npt.NDArray[np.float32]

    @property
    def calibrated(self) -> bool:
        return self.ref.calibrated and len(self.null_vectors) > 0


#: How far from 1 a row's length may be: the null's and the pair statistics' dot products
#: are cosines only for unit rows (the database's cosine is not affected).
UNIT_TOLERANCE = 0.01


def row_lengths(vectors: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
    """Each row's L2 length (``vectors``: rows × dimension, numbers); NaN for a row that
    holds a value that is not finite."""
    wide = np.asarray(vectors, dtype=np.float64)
    finite = np.isfinite(wide)
    lengths: npt.NDArray[np.float64] = np.linalg.norm(np.where(finite, wide, 0.0), axis=1)
    lengths[~finite.all(axis=1)] = np.nan
    return lengths


def off_unit(lengths: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Which of ``lengths`` (:func:`row_lengths`) break the Embedder port's contract: more
    than :data:`UNIT_TOLERANCE` from 1, or NaN. The one rule every vector is held to: at
    calibration, at a write and before a query vector is sent."""
    within: npt.NDArray[np.bool_] = np.abs(lengths - 1.0) <= UNIT_TOLERANCE
    return ~within


def shape_problem(vectors: object, rows: int, dimension: int, call: str = "embed()") -> str | None:
    """What is wrong with the shape or the type of ``vectors``, an embedder's answer to
    ``call`` for ``rows`` texts (``None`` when it is ``(rows, dimension)`` numbers): a
    fault of the model for every input, not of one row."""
    try:
        array = np.asarray(vectors)
    except (TypeError, ValueError) as exc:  # ragged rows, or rows numpy cannot read
        return (
            f"{call} of {rows} texts returned something that is not an array of numbers"
            f" ({type(exc).__name__}: {exc})"
        )
    if array.shape != (rows, dimension):
        return (
            f"{call} of {rows} texts returned an array of shape {array.shape}, not"
            f" ({rows}, {dimension}) (its dimension property says {dimension})"
        )
    if not np.issubdtype(array.dtype, np.number):
        return f"{call} returned values that are not numbers ({array.dtype})"
    return None


def vector_problem(
    vectors: object,
    rows: int,
    dimension: int,
    call: str = "embed()",
    row_name: Callable[[int], str] | None = None,
) -> str | None:
    """What breaks the Embedder port's contract in ``vectors``, an embedder's answer to
    ``call`` for ``rows`` texts (``None`` when nothing does): a shape other than
    ``(rows, dimension)`` (:func:`shape_problem`), values that are not finite, or rows that
    are not unit length (:func:`off_unit`), naming the first row at fault (``row_name`` of
    its index, by default ``row i of n``, counted from 0 in the order of the texts). A row
    that is not unit length leaves the database's cosines right but makes the
    calibration's dot products wrong, so the relevance floor would read every standing off
    by the rows' lengths; a row of length 0 has no cosine at all."""
    problem = shape_problem(vectors, rows, dimension, call)
    if problem is not None:
        return problem
    name = row_name or (lambda index: f"row {index} of {rows}")
    lengths = row_lengths(np.asarray(vectors))
    not_finite = np.isnan(lengths)
    if not_finite.any():
        first = int(np.argmax(not_finite))
        return f"{call} returned values that are not finite numbers ({name(first)})"
    off = off_unit(lengths)
    if off.any():
        first = int(np.argmax(off))
        return (
            f"{call} returned rows of length {float(lengths.min()):.3g} to"
            f" {float(lengths.max()):.3g} ({name(first)}: {float(lengths[first]):.3g});"
            " the Embedder port needs L2-normalised rows (length 1): divide each row by its"
            " norm"
        )
    return None


#: The least cosine a model's vector of a calibration sentence may have with the vector
#: stored for it when the store was calibrated, for the model to be the one that made the
#: store's vectors (the same model gives the same vector; another one under the same name
#: does not come close).
SAME_MODEL_COSINE = 0.98

#: Calibration sentences embedded again at every open to check the model is the same.
SAME_MODEL_CHECKS = 3


def same_model_rows(count: int = SAME_MODEL_CHECKS) -> tuple[int, ...]:
    """Which corpus rows are embedded again at open (spread over the domains)."""
    total = len(unrelated_corpus().texts)
    return tuple(range(0, total, max(1, total // count)))[:count]


def least_cosine(
    vectors: npt.NDArray[np.float32], calibration: Calibration, rows: Sequence[int]
) -> float | None:
    """The least cosine of ``vectors`` (the model's vectors of corpus ``rows``, now) with
    the vectors of the same rows ``calibration`` stored; ``None`` when no row can say (of
    length 0, or not finite: a row that breaks the port is refused where it is used, and
    says nothing about which model made it)."""
    now = np.asarray(vectors, dtype=np.float64)
    then = np.asarray(calibration.null_vectors, dtype=np.float64)[list(rows)]
    lengths = row_lengths(now)
    judged = np.isfinite(lengths) & (lengths > 0)
    if not judged.any():
        return None
    cosines = np.sum(now[judged] * then[judged], axis=1) / lengths[judged]
    return float(np.min(cosines))


def vectors_digest(vectors: npt.NDArray[np.float32]) -> str:
    """sha256 of the vectors' float32 bytes (row-major)."""
    return hashlib.sha256(np.ascontiguousarray(vectors, dtype=np.float32).tobytes()).hexdigest()


def calibration_from_vectors(
    embedder: str,
    vectors: npt.NDArray[np.float32],
    queries: npt.NDArray[np.float32] | None = None,
) -> Calibration:
    """The calibration of ``embedder`` from its vectors of :func:`unrelated_corpus` (in
    order), as passages and, for a model that embeds queries apart, as ``queries``: the
    unrelated-pair statistics are then those of queries against passages
    (:func:`pair_statistics`), the cosines a recall compares."""
    corpus = unrelated_corpus()
    for got in (vectors, vectors if queries is None else queries):
        if len(got) != len(corpus.texts):
            raise ValueError(f"expected {len(corpus.texts)} corpus vectors, got {len(got)}")
    stats = pair_statistics(vectors, corpus.domains, queries)
    ref = CalibrationRef(
        embedder=embedder,
        corpus_version=corpus.version,
        pair_mean=stats.mean,
        pair_std=max(stats.std, 1e-6),
        null_digest=vectors_digest(vectors),
    )
    return Calibration(ref=ref, null_vectors=np.asarray(vectors, dtype=np.float32))


def uncalibrated(embedder: str) -> Calibration:
    """The conservative default of an embedder nobody calibrated: the cosine is read as is
    for ranking (mean 0, spread 0.1) and there is no null, so semantic similarity alone
    never clears the floor; only lexical coverage can."""
    ref = CalibrationRef(
        embedder=embedder, corpus_version=UNCALIBRATED, pair_mean=0.0, pair_std=0.1
    )
    return Calibration(ref=ref, null_vectors=np.zeros((0, 0), dtype=np.float32))


def null_similarity(
    query_vectors: npt.NDArray[np.float32], calibration: Calibration
) -> tuple[float, ...]:
    """For each query vector, its highest cosine with the unrelated corpus: how similar
    "unrelated" can look to this query under this model (empty when uncalibrated)."""
    if not calibration.calibrated or len(query_vectors) == 0:
        return ()
    sims = np.asarray(query_vectors, dtype=np.float32) @ calibration.null_vectors.T
    return tuple(float(x) for x in sims.max(axis=1))
