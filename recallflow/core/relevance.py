"""A candidate's absolute relevance, pure: how much of the query's meaning it covers,
whatever the other candidates are (see "Relevance floor" and "Ranking" in
docs/architecture.md).

Two kinds of evidence, each made comparable across embedders and principals:

* **similarity**, calibrated against unrelated text. A raw cosine is not comparable across
  models (unrelated sentences score about 0.05 with MiniLM and 0.8 with e5) nor across
  queries (a short, vague query is close to everything). Its *standing* is how far it
  stands above the query's most similar sentence of the unrelated corpus, in spreads of
  the embedder's unrelated-pair cosine; for ranking, the cosine is read in the same
  spreads above the unrelated-pair mean (``semantic_scale`` of them count 1).
* **coverage**: the share of the query's terms, weighted by rarity, that the belief
  holds. One shared common word covers little; the query's rare words decide.

A candidate's *own* relevance blends the two; its *support* is the best own relevance of
a candidate linked to it (a reply is supported by the question it answers), and its
*relevance* — the ranking's feature — adds a share of that support, is at least what a
linked top candidate lends it (adjacency), and rises when the candidate's world time
falls in a period the query names. The floor reads the own evidence only: a candidate
clears when its standing or its coverage reaches the floor's threshold, or when it
carries an entity the working state names that few beliefs carry; a candidate with only
partial evidence is kept only close beside one that clears. No single shared word, no
neighbour and no date can carry an unrelated belief in.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from recallflow.core.calibration import CalibrationRef
from recallflow.core.decimals import round_all
from recallflow.core.query_forming import Period
from recallflow.models.result import RelevanceEvidence
from recallflow.models.stages import (
    CandidateEvidence,
    EvidenceSet,
    Resolved,
    members_of,
)
from recallflow.policy import RetrievalPolicy

# The loops over the candidates write ``min`` and ``max`` of two values out as the
# builtins decide them: ``max(a, b)`` is ``b if b > a else a`` (the first argument kept
# unless a later one is greater; a NaN second argument loses) and ``min(a, b)`` is
# ``b if b < a else a``; ``max`` of a sequence is its first value, replaced only by a
# greater one. CPython 3.11's builtins parse their arguments for keywords on every call:
# some 800 instructions a call (callgrind), and a recall at 10k made some 800 of them.


def _clamp(x: float) -> float:
    # ``min(1.0, max(0.0, x))``, written out.
    x = x if x > 0.0 else 0.0
    return x if x < 1.0 else 1.0


def centred_cosines(
    evidence: Mapping[str, CandidateEvidence], centring: float
) -> dict[str, tuple[float, ...]]:
    """Each candidate's similarity to each query vector with ``centring`` × the candidates'
    mean direction taken out of both, on the scale of the plain cosines, by id (empty
    when off or with fewer than two candidates that have a vector).

    The loaded candidates are all somewhat like the query — that is why they were loaded
    — and much of what they share is not what the query asks: a conversation's turns share
    its speakers, its tone and its themes. With ``μ`` the mean of the candidates' unit
    vectors and ``g`` the centring, the similarity read is ``cos(q − gμ, v − gμ)``, from
    what the store gives: the plain cosine ``q·v``, the candidate's ``centrality`` (``v``
    against the sum of the candidates' vectors, so ``v·μ`` is it over their count),
    and, as means over the candidates, ``q·μ`` and ``μ·μ``. Every vector is unit, as
    the embedder makes them. Within each query vector the result is then mapped linearly
    onto the plain cosines' mean and spread among the candidates, so the order changes
    and the scale — which the floor's distances and the calibration are in — does not.
    Sums are exact (``math.fsum``), so the result does not depend on the candidates'
    order."""
    if centring <= 0:
        return {}
    pool = [(i, ev) for i, ev in evidence.items() if ev.centrality is not None and ev.cosines]
    if len(pool) < 2:
        return {}
    g = centring
    vectors = [ev.cosines for _, ev in pool]
    width = min(len(cosines) for cosines in vectors)
    n = len(pool)
    shared = [(ev.centrality or 0.0) / n for _, ev in pool]
    mm = math.fsum(shared) / n
    # The same expressions as written out per query vector, each part that does not
    # depend on the query vector computed once: ``2g``, ``g²·mm``, and per candidate its
    # ``g·m`` and its norm.
    two_g, gg_mm = 2.0 * g, g * g * mm
    lean = [g * m for m in shared]
    # ``max(1.0 - two_g * m + gg_mm, _TINY)``, written out.
    norms = [math.sqrt(_TINY if (sq := 1.0 - two_g * m + gg_mm) < _TINY else sq) for m in shared]
    columns: list[list[float]] = []
    for k in range(width):
        plain = [cosines[k] for cosines in vectors]
        qm = math.fsum(plain) / n
        g_qm = g * qm
        query_norm = math.sqrt(max(1.0 - two_g * qm + gg_mm, _TINY))
        centred = [
            (c - g_qm - g_m + gg_mm) / (query_norm * norm)
            for c, g_m, norm in zip(plain, lean, norms, strict=True)
        ]
        columns.append(_onto(centred, plain))
    return {i: row for (i, _), row in zip(pool, zip(*columns, strict=True), strict=True)}


_TINY = 1e-12


def _onto(values: Sequence[float], scale: Sequence[float]) -> list[float]:
    """``values`` mapped linearly onto the mean and spread of ``scale`` (``scale`` itself
    when either does not spread)."""
    n = len(values)
    mean_v, mean_s = math.fsum(values) / n, math.fsum(scale) / n
    spread_v = math.sqrt(math.fsum((v - mean_v) ** 2 for v in values) / n)
    spread_s = math.sqrt(math.fsum((s - mean_s) ** 2 for s in scale) / n)
    if spread_v <= _TINY or spread_s <= _TINY:
        return list(scale)
    return [mean_s + spread_s * (v - mean_v) / spread_v for v in values]


def own_evidence(
    evidence: Mapping[str, CandidateEvidence],
    null: Sequence[float],
    calibration: CalibrationRef,
    policy: RetrievalPolicy,
    keyed_names: frozenset[int] = frozenset(),
    asked_names: frozenset[int] = frozenset(),
    asked_strangers: frozenset[int] = frozenset(),
    apart: frozenset[str] = frozenset(),
) -> dict[str, tuple[float | None, float | None, float, bool, float, float]]:
    """``(cosine, standing, own relevance, clears, coverage, clearing coverage)`` of each
    candidate, by id.

    What is read across the candidates (their common direction, the names' null, which
    names none holds, which words several hold alike) is read over those not in
    ``apart``: a ``local`` belief of another project does not hold here and is never
    shown here, so it does not shape whether another candidate clears either ("Which CI
    do we use?" in one project: the other project's local CI belief, which shares "CI",
    made this project's own answer share its one word with another candidate, and it
    rendered nothing).

    A candidate clears on the clearing coverage
    (:attr:`~recallflow.models.stages.CandidateEvidence.floor_coverage`): none of a text
    query of which it holds only the names it mentions.

    The own relevance reads the similarity with the candidates' common direction partly
    taken out (:func:`centred_cosines`); the cosine, the standing and whether it clears
    read the plain cosine, as the calibration does.

    A text query that mentions names no candidate holds (:func:`unknown_names`) clears
    none by its coverage, unless it is in ``keyed_names``: a candidate carries one of its
    names as a key, however its statement spells it. One that also asks about them
    (``asked_names``: "Is Bruno allergic to penicillin?", not "Tell Helga how I take my
    coffee") clears none by its similarity either, unless
    ``floor.unknown_names_similarity``. So does one in ``asked_strangers``: it asks about
    names the memory does not know beside names it does ("When is Chidi's flight to
    Lisbon?").

    The policy's and the calibration's numbers are read once for all candidates (a recall
    at 10k reads evidence for ~45), not once per candidate."""
    pool = {i: ev for i, ev in evidence.items() if i not in apart} if apart else evidence
    centred = centred_cosines(pool, policy.relevance.pool_centring)
    share = policy.relevance.semantic_share
    pair_mean = calibration.pair_mean
    spread = policy.relevance.semantic_scale * calibration.pair_std
    floor = policy.floor
    lexical, semantic_standing = floor.lexical_coverage, floor.semantic_standing
    lexical_standing = floor.lexical_standing
    joint_standing, joint_coverage = floor.joint_standing, floor.joint_coverage

    def clears_by(standing: float | None, coverage: float, alone: float) -> bool:
        return (
            (alone >= lexical and (standing is None or standing >= lexical_standing))
            or (standing is not None and standing >= semantic_standing)
            or (standing is not None and standing >= joint_standing and coverage >= joint_coverage)
        )

    # Written out in the loop, each the same expression in the same order as it was read
    # through a helper: :attr:`~recallflow.models.stages.CandidateEvidence.coverage`;
    # :func:`_clamp`. The standing (:func:`_standing`) is None without a calibration's null.
    nulls = tuple(null) if calibration.calibrated else ()
    pair_std = calibration.pair_std
    named_null = names_only_null(pool, nulls, pair_std, policy)
    unknown = (
        ((unknown_names(pool) - keyed_names) & asked_names) | asked_strangers
        if floor.unknown_names
        else frozenset()
    )
    strangers = frozenset() if floor.unknown_names_similarity else unknown
    words = floor.coverage_words
    shared = shared_words(pool, words)
    out: dict[str, tuple[float | None, float | None, float, bool, float, float]] = {}
    for belief_id, ev in evidence.items():
        cosines = ev.cosines
        cosine: float | None = None  # ``max(cosines)`` (None: no cosine), written out
        for c in cosines:
            if cosine is None or c > cosine:
                cosine = c
        standing = _standing(cosines, nulls, pair_std) if nulls and cosines else None
        best_share: float | None = None
        for t in ev.texts:
            if t.total > 0:
                held = t.held / t.total
                if best_share is None or held > best_share:
                    best_share = held
        coverage = 0.0 if best_share is None else best_share
        semantic = 0.0
        similarity = cosine
        ranked_by = centred.get(belief_id)
        if ranked_by:  # ``max(ranked_by)``, written out
            similarity = ranked_by[0]
            for c in ranked_by:
                if c > similarity:
                    similarity = c
        if similarity is not None:  # ``min(1.0, max(0.0, …))``, written out
            semantic = (similarity - pair_mean) / spread
            semantic = semantic if semantic > 0.0 else 0.0
            semantic = semantic if semantic < 1.0 else 1.0
        own = (1.0 - share) * coverage + share * semantic
        clearing, alone = clearing_coverage(ev, unknown, words, shared)
        # A candidate that holds only the query's names clears as if its standing were
        # read above the names' lift; as partial or strong evidence it is read as it is.
        # A query about a name the memory does not know clears nothing by its similarity
        # (``floor.unknown_names_similarity`` off): it is read from the other text queries.
        read = (
            _standing(cosines, nulls, pair_std, strangers)
            if strangers and nulls and cosines
            else standing
        )
        clearing_standing = (
            read - named_null
            if read is not None and named_null > 0 and holds_only_names(ev)
            else read
        )
        clears = ev.subject_match or clears_by(clearing_standing, clearing, alone)
        out[belief_id] = (cosine, standing, own, clears, coverage, clearing)
    return out


_NO_WEIGHT = 1e-9


def unknown_names(evidence: Mapping[str, CandidateEvidence]) -> frozenset[int]:
    """The text queries (by place) that mention names no loaded candidate holds: a
    question about someone — or something named — the memory does not know.

    "What is Gregor's phone number?" holds the memory's words "phone" and "number" and
    its rarest word, "Gregor", which no belief holds: the belief that holds the user's
    own phone number covers two thirds of it and cleared the floor, though it says nothing
    of Gregor. What such a question asks is about the name; a belief that holds only its
    other words answers another question. The candidates are loaded by every arm, the
    lexical and the structured ones among them, so a belief that holds the name is loaded
    when any is."""
    absent: set[int] = set()
    for ev in evidence.values():
        for i, names in enumerate(ev.names):
            if names.total > _NO_WEIGHT:
                absent.add(i)
    for ev in evidence.values():
        for i, names in enumerate(ev.names):
            if names.held > _NO_WEIGHT:
                absent.discard(i)
    return frozenset(absent)


def shared_words(
    evidence: Mapping[str, CandidateEvidence], words: int
) -> dict[int, frozenset[tuple[float, float]]]:
    """Per text query (by place), the words held by more than one loaded candidate that
    holds fewer than ``words`` of its words, each as its rarity weight and its fingerprint
    (:attr:`~recallflow.models.stages.TextCoverage.fingerprint`): the same few words of
    the query, found in several beliefs alike (empty when ``words`` is 1 or less). Two
    words of the same rarity ("CI" and "use", each in two beliefs) weigh alike and are not
    the same word: a belief that holds one of them shares nothing with one that holds the
    other."""
    if words <= 1:
        return {}
    seen: dict[int, set[tuple[float, float]]] = {}
    shared: dict[int, set[tuple[float, float]]] = {}
    for ev in evidence.values():
        for i, t in enumerate(ev.texts):
            # ``min(words, t.words)``, written out.
            if t.words and 0 < t.words_held < (t.words if t.words < words else words):
                held = (round(t.held, 9), t.fingerprint)
                if held in seen.setdefault(i, set()):
                    shared.setdefault(i, set()).add(held)
                seen[i].add(held)
    return {i: frozenset(w) for i, w in shared.items()}


def clearing_coverage(
    evidence: CandidateEvidence,
    unknown: frozenset[int] = frozenset(),
    words: int = 0,
    shared: Mapping[int, frozenset[tuple[float, float]]] | None = None,
) -> tuple[float, float]:
    """The coverage the floor clears a candidate by, jointly with its similarity and
    alone: the best share of a text query's rarity-weighted words it holds
    (:attr:`~recallflow.models.stages.CandidateEvidence.floor_coverage`: none of a query
    of which it holds only the names it mentions) over the text queries other than
    ``unknown`` (:func:`unknown_names`: a query that names someone the memory does not
    know clears nothing by its coverage); alone, less those of which it holds fewer than
    ``words`` words, not all of them, and the same words as another loaded candidate holds
    (``shared``, :func:`shared_words`).

    One word shared with a short question is half of its words: "What is a good day?" is
    "good" and "day", and a memory whose beliefs say when things happen holds "day" in
    several, none of them about what it asks. What several beliefs hold alike picks none
    of them out: such a belief clears only with its similarity beside it."""
    joint = alone = 0.0
    few = shared or {}
    for i, t in enumerate(evidence.texts):
        if i in unknown or t.total <= 0:
            continue
        names = evidence.names[i] if i < len(evidence.names) else None
        if names is not None and t.held - names.held <= _NO_WEIGHT:
            continue
        share = t.held / t.total
        # ``max(joint, share)``, ``min(words, t.words)``, ``max(alone, share)``, written out.
        if share > joint:
            joint = share
        if (
            not (
                t.words
                and t.words_held < (t.words if t.words < words else words)
                and (round(t.held, 9), t.fingerprint) in few.get(i, ())
            )
            and share > alone
        ):
            alone = share
    return joint, alone


def holds_only_names(evidence: CandidateEvidence) -> bool:
    """Whether a candidate holds some of the names a text query mentions and nothing else
    of any text query (its clearing coverage is none)."""
    return (
        any(names.held > _NO_WEIGHT for names in evidence.names)
        and evidence.floor_coverage <= _NO_WEIGHT
    )


def _standing(
    cosines: Sequence[float],
    nulls: Sequence[float],
    pair_std: float,
    unknown: frozenset[int] = frozenset(),
) -> float | None:
    """The best over the query vectors of (cosine − null) / the unrelated-pair spread (a
    maximum kept as ``max`` keeps it: the first, replaced only by a greater); None without
    a query vector, or when every one is a text query in ``unknown`` (:func:`unknown_names`),
    which is left out."""
    standing: float | None = None
    for i, (c, n) in enumerate(zip(cosines, nulls, strict=False)):
        if i in unknown:
            continue
        lead = (c - n) / pair_std
        if standing is None or lead > standing:
            standing = lead
    return standing


def names_only_null(
    evidence: Mapping[str, CandidateEvidence],
    nulls: Sequence[float],
    pair_std: float,
    policy: RetrievalPolicy,
) -> float:
    """How far the names a query mentions lift the beliefs that hold only them: the
    ``floor.names_quantile`` of the standings of the loaded candidates that hold the
    query's names and nothing else of it (linear between ranks, as numpy's default), when
    at least ``floor.names_peers`` do and no loaded candidate holds anything of the query
    beyond its names (0 otherwise, when off, without a calibration's null, or when it does
    not stand above the unrelated corpus's best). Such a candidate clears by its similarity
    only when its standing stands ``floor.semantic_standing`` above it; as partial or
    strong evidence beside a candidate that clears, its standing is read as it is.

    A name the query shares with a belief lifts their similarity under every model, and
    the unrelated corpus, which names nobody of the store, does not show that lift: "What
    is Walter's blood type?" stands about as far above it against every belief about
    Walter — his GP, his height, his birthday — as against one that would answer. The
    beliefs that hold the name and nothing else of the query are the null that shows it:
    only a belief that stands clear of them is about what the query asks. Read in the
    embedder's own spreads, so it carries across models as the calibration does.

    Only when the names are all the loaded candidates share with the query: when one of
    them holds another of its words, the query's subject is in the store, and a question
    about a speaker of a conversation (whose every turn carries the speaker's name) needs
    the turns beside the one that holds it (LoCoMo dev, MiniLM: 18 more empty blocks and
    block recall 0.669 → 0.660 without this condition)."""
    if policy.floor.names_peers <= 0 or not nulls:
        return 0.0
    named = [ev for ev in evidence.values() if ev.names and holds_only_names(ev)]
    if len(named) < policy.floor.names_peers or any(
        ev.floor_coverage > _NO_WEIGHT for ev in evidence.values()
    ):
        return 0.0
    peers = sorted(
        s
        for ev in named
        if ev.cosines and (s := _standing(ev.cosines, nulls, pair_std)) is not None
    )
    if len(peers) < policy.floor.names_peers:
        return 0.0
    at = policy.floor.names_quantile * (len(peers) - 1)
    low = math.floor(at)
    high = min(low + 1, len(peers) - 1)
    quantile = peers[low] + (at - low) * (peers[high] - peers[low])
    return max(0.0, quantile)


_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_TELLS_TIME = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|ago|recently|the other day"
    rf"|(?:last|next|this|past) (?:\w+ )?(?:week|weekend|month|year|night|morning|evening"
    rf"|summer|winter|spring|fall|autumn|{_WEEKDAY})s?"
    rf"|{_WEEKDAY}"
    r"|january|february|march|april|june|july|august|september|october|november|december"
    r"|(?:19|20)\d\d|weekends?|(?:weeks?|months?|years?)(?![- ]old\b))\b",
    re.IGNORECASE,
)


def tells_time(statement: str) -> bool:
    """Whether a statement says when something happened or will: a relative expression
    ("yesterday", "last Friday", "two weeks ago"), a weekday, a month, a year. ("May" is
    left out: it is more often the verb; "five years old" is an age, not a when.)"""
    return _TELLS_TIME.search(statement) is not None


_TRAILING_ASIDE = re.compile(r"(?:\s*\[[^\]]*\])+\s*$")
_SENTENCE = re.compile(r"[^.!?]+[.!?]*")


def asking_share(statement: str) -> float:
    """How much of a statement asks rather than tells: when its last sentence is a
    question (a trailing bracketed aside such as an image caption set apart), the share of
    its words that are in questions; otherwise 0. A turn that asks echoes the words of the
    question it raises but does not tell the answer; one that tells and then asks back
    ("I love sci-fi. What about you?") still tells."""
    if "?" not in statement:  # most statements: no question, and the regex costs µs each
        return 0.0
    text = _TRAILING_ASIDE.sub("", statement).rstrip(" \t\n\"')")
    if not text.endswith("?"):
        return 0.0
    asked = told = 0
    for sentence in _SENTENCE.findall(text):
        words = len(sentence.split())
        told += words
        if sentence.rstrip(" \t\n\"')").endswith("?"):
            asked += words
    return asked / told if told else 0.0


def within(moment: datetime | None, periods: Sequence[Period]) -> bool:
    """Whether ``moment`` falls in one of ``periods`` (``[start, end)``)."""
    return moment is not None and any(start <= moment < end for start, end in periods)


def candidate_relevance(
    evidence: EvidenceSet,
    null: Sequence[float],
    calibration: CalibrationRef,
    policy: RetrievalPolicy,
    in_period: frozenset[str] = frozenset(),
    says_when: frozenset[str] = frozenset(),
    asking: Mapping[str, float] | None = None,
    keyed_names: frozenset[int] = frozenset(),
    asked_names: frozenset[int] = frozenset(),
    asked_strangers: frozenset[int] = frozenset(),
    apart: frozenset[str] = frozenset(),
) -> dict[str, RelevanceEvidence]:
    """Every candidate's relevance evidence, by id (``keyed_names``: the text queries
    whose names a candidate carries as a key; ``asked_names``: those that ask about their
    names; ``asked_strangers``: those that ask about names the memory does not know beside
    names it does; ``apart``: the candidates that do not hold here and shape no other's
    evidence, nor lend support or adjacency; :func:`own_evidence`). A candidate in
    ``in_period`` (its world time falls in a period the query names) adds
    ``relevance.period_match``: a question that says when is about what held then. A
    candidate in ``says_when`` (the query asks when, and its statement tells a time)
    adds ``relevance.says_when``: the turn that answers "when did she go?" is the one
    that says "last Friday", not the one that talks most about the trip. A candidate
    whose statement ends by asking loses ``relevance.asking`` times the share of its
    words that ask (``asking``, by id): "What made you combine the two?" shares the
    question's words and holds none of its answer — and the turn that follows it, its
    answer, is lifted more (:func:`adjacency_lift`). Ranking only, like adjacency: none
    of them lets a candidate clear the floor."""
    owns = own_evidence(
        evidence.by_id,
        null,
        calibration,
        policy,
        keyed_names,
        asked_names,
        asked_strangers,
        apart,
    )
    # A candidate in ``apart`` lends no other candidate support or adjacency, nor is lent
    # any: never shown here, it is no neighbour of what is.
    here = {i: own for i, own in owns.items() if i not in apart} if apart else owns
    support: dict[str, float] = dict.fromkeys(owns, 0.0)
    for a, b, weight in evidence.links:
        if a in here and b in here:
            # ``max(support[x], lent)``: replaced only by a greater.
            if (lent := weight * owns[b][2]) > support[a]:
                support[a] = lent
            if (lent := weight * owns[a][2]) > support[b]:
                support[b] = lent
    share = policy.relevance.neighbour_share
    # ``min(1.0, …)``, written out.
    supported = {
        belief_id: x if (x := own[2] + share * support[belief_id]) < 1.0 else 1.0
        for belief_id, own in owns.items()
    }
    asking_shares = asking or {}
    lifted = adjacency_lift(
        {i: r for i, r in supported.items() if i not in apart} if apart else supported,
        evidence.links,
        policy,
        evidence.follows,
        asking_shares,
    )
    period = policy.relevance.period_match
    when = policy.relevance.says_when
    asked = policy.relevance.asking
    # Every figure of every candidate rounded in one pass (:func:`round_all`,
    # ``round(x, 6)`` bit for bit), seven a candidate: cosine and standing (0.0 standing
    # in for none), coverage, clearing coverage, own, support, relevance.
    unrounded: list[float] = []
    for belief_id, (cosine, standing, own, _, coverage, clearing) in owns.items():
        # ``max(supported, lifted)``, written out.
        best = supported[belief_id]
        if (lent := lifted.get(belief_id, 0.0)) > best:
            best = lent
        unrounded += (
            0.0 if cosine is None else cosine,
            0.0 if standing is None else standing,
            coverage,
            clearing,
            own,
            support[belief_id],
            _clamp(
                best
                + (period if belief_id in in_period else 0.0)
                + (when if belief_id in says_when else 0.0)
                - asked * asking_shares.get(belief_id, 0.0)
            ),
        )
    rounded = round_all(unrounded)
    out: dict[str, RelevanceEvidence] = {}
    # Built without validating again, every value a float or bool made here (a recall
    # builds one per candidate).
    for at, (belief_id, (cosine, standing, _, clears, _, _)) in enumerate(owns.items()):
        figures = rounded[at * 7 : at * 7 + 7]
        asks = float(asking_shares.get(belief_id, 0.0))
        out[belief_id] = RelevanceEvidence.trusted(
            cosine=None if cosine is None else figures[0],
            standing=None if standing is None else figures[1],
            coverage=figures[2],
            clearing_coverage=figures[3],
            own=figures[4],
            support=figures[5],
            relevance=figures[6],
            subject_match=bool(evidence.by_id[belief_id].subject_match),
            clears=bool(clears),
            asking=round(asks, 6) if asks else asks,
        )
    return out


def adjacency_lift(
    relevance: Mapping[str, float],
    links: Sequence[tuple[str, str, float]],
    policy: RetrievalPolicy,
    follows: Sequence[tuple[str, str]] = (),
    asking: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """The relevance adjacency lends each neighbour of the most relevant candidates.

    In stored conversation the turn that answers is often not the turn that matches: the
    reply follows the question, a fact is split across two turns. So a candidate linked to
    one of the ``relevance.adjacency_seeds`` most relevant candidates ranks at least
    ``relevance.adjacency`` × that seed's relevance × the link's weight (a ``follows``
    edge weighs 1, looser links less). Only the seeds lend, so the lift reaches one hop
    from the top and no further; it is ranking only, never a reason to clear the floor.

    The turn said right after a seed that asks (``follows``: (earlier, later) pairs) is
    that question's answer more often than any other neighbour is, so it is lent
    ``1 + relevance.reply`` × the seed's asking share (``asking``, by id) times as much:
    a top turn that only asks lends its reply more than its own relevance, one that tells
    and asks back a little more than adjacency alone.
    """
    decay = policy.relevance.adjacency
    count = policy.relevance.adjacency_seeds
    if decay <= 0 or count <= 0:
        return {}
    seeds = set(sorted(relevance, key=lambda i: (-relevance[i], i))[:count])
    reply = policy.relevance.reply
    asked = asking or {}
    answers = (
        {(a, b) for a, b in follows if a in seeds and asked.get(a, 0.0) > 0} if reply > 0 else set()
    )
    lifted: dict[str, float] = {}
    for a, b, weight in links:
        for seed, other in ((a, b), (b, a)):
            if seed in seeds and other in relevance:
                lent = decay * weight * relevance[seed]
                if (seed, other) in answers:
                    lent *= 1.0 + reply * asked[seed]
                if lent > lifted.get(other, 0.0):
                    lifted[other] = lent
    return lifted


def clears_own(score: float, evidence: RelevanceEvidence | None, policy: RetrievalPolicy) -> bool:
    """Whether a candidate of ``score`` whose evidence is ``evidence`` (None: it has none)
    clears the floor on its own evidence, its score not weak."""
    return evidence is not None and evidence.clears and score >= policy.floor.score


def strong_evidence(evidence: RelevanceEvidence, policy: RetrievalPolicy) -> bool:
    """Whether a candidate's own evidence is strong: its similarity stands at least
    ``floor.strong_standing`` above the query's most similar unrelated sentence, or it
    covers at least ``floor.strong_coverage`` of the query's rarity-weighted terms. Such a
    candidate is kept within the wider ``floor.strong_near_best`` of the best (see
    "Relevance floor" in docs/architecture.md)."""
    floor = policy.floor
    return evidence.coverage >= floor.strong_coverage or (
        evidence.standing is not None and evidence.standing >= floor.strong_standing
    )


def partial_evidence(evidence: RelevanceEvidence, policy: RetrievalPolicy) -> bool:
    """Whether a candidate that does not clear on its own evidence still holds some of the
    query: its similarity stands at least ``floor.partial_standing`` above the query's most
    similar unrelated sentence, or it covers at least ``floor.partial_coverage`` of the
    query's rarity-weighted terms. Never enough alone: the floor keeps such a candidate only
    near the best one that clears (see "Relevance floor" in docs/architecture.md)."""
    floor = policy.floor
    return evidence.coverage >= floor.partial_coverage or (
        evidence.standing is not None and evidence.standing >= floor.partial_standing
    )


def best_clearing_score(
    resolved: Sequence[Resolved],
    relevance: Mapping[str, RelevanceEvidence],
    policy: RetrievalPolicy,
) -> float:
    """The best score of a candidate that :func:`clears_own` (0 when none does): the bar
    the floor's relative threshold is a share of."""
    best: float | None = None
    for unit in resolved:
        for m in members_of(unit):
            score = m.score
            if (best is None or score > best) and clears_own(
                score, relevance.get(m.belief_id), policy
            ):
                best = score
    return 0.0 if best is None else best
