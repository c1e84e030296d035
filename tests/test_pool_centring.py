"""The ranking reads a candidate's similarity with the loaded candidates' common direction
partly taken out (``relevance.pool_centring``): a belief that is like the query only in what
every candidate shares ranks under one that holds what the query asks; the floor's
standing still reads the plain cosine."""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool

from recallflow import Memory
from recallflow.adapters.postgres.search import PostgresBeliefSearch
from recallflow.core.calibration import CalibrationRef
from recallflow.core.relevance import candidate_relevance, centred_cosines
from recallflow.models.stages import CandidateEvidence, EvidenceSet, HardFilter, TextCoverage
from recallflow.models.store import LifecycleState, Sensitivity
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy
from tests.helpers import belief

CALIBRATION = CalibrationRef(embedder="e", corpus_version="v", pair_mean=0.1, pair_std=0.1)
NULL = (0.3,)
NOW = datetime(2030, 1, 1, tzinfo=UTC)
Vector = npt.NDArray[np.float64]


def _unit(v: Vector) -> Vector:
    return v / np.linalg.norm(v)


def _evidence(query: Vector, vectors: dict[str, Vector]) -> EvidenceSet:
    """What the store reads for ``vectors`` as the loaded candidates of ``query``."""
    total = np.sum(list(vectors.values()), axis=0)
    return EvidenceSet(
        by_id={
            i: CandidateEvidence(
                cosines=(float(query @ v),),
                texts=(TextCoverage(held=0.0, total=1.0),),
                centrality=float(v @ total),
            )
            for i, v in vectors.items()
        }
    )


def _centring(value: float) -> RetrievalPolicy:
    return DEFAULT_POLICY.model_copy(
        update={"relevance": DEFAULT_POLICY.relevance.model_copy(update={"pool_centring": value})}
    )


def _chatter_and_answer() -> tuple[Vector, dict[str, Vector]]:
    """A query whose candidates mostly share one direction (a conversation's speakers and
    tone), and one candidate, less like the query overall, that holds its distinct part."""
    e = np.eye(8)
    query = _unit(0.8 * e[0] + 0.6 * e[1])
    vectors = {f"chatter-{k}": _unit(0.95 * e[0] + 0.3 * e[2 + k]) for k in range(5)}
    vectors["answer"] = _unit(0.3 * e[0] + 0.7 * e[1] + 0.65 * e[7])
    return query, vectors


def test_a_candidate_holding_the_querys_distinct_part_outranks_common_chatter() -> None:
    query, vectors = _chatter_and_answer()
    evidence = _evidence(query, vectors)
    assert evidence.by_id["answer"].cosines[0] < evidence.by_id["chatter-0"].cosines[0]

    plain = candidate_relevance(evidence, NULL, CALIBRATION, _centring(0.0))
    centred = candidate_relevance(evidence, NULL, CALIBRATION, DEFAULT_POLICY)
    assert plain["answer"].relevance < plain["chatter-0"].relevance
    assert centred["answer"].relevance > max(centred[i].relevance for i in vectors if i != "answer")
    # ranking only: what the floor reads of the similarity is the plain cosine
    for i in vectors:
        assert centred[i].cosine == plain[i].cosine
        assert centred[i].standing == plain[i].standing
        assert centred[i].clears == plain[i].clears


def test_off_or_with_one_candidate_the_plain_cosine_ranks() -> None:
    query, vectors = _chatter_and_answer()
    assert centred_cosines(_evidence(query, vectors).by_id, 0.0) == {}
    one = _evidence(query, {"answer": vectors["answer"]})
    assert centred_cosines(one.by_id, 0.5) == {}


_COMPONENT = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)
_VECTOR = st.lists(_COMPONENT, min_size=6, max_size=6).filter(
    lambda xs: math.fsum(x * x for x in xs) > 0.01
)


@settings(max_examples=80, deadline=None)
@given(
    query=_VECTOR,
    vectors=st.lists(_VECTOR, min_size=2, max_size=10),
    centring=st.floats(min_value=0.05, max_value=1.0),
    seed=st.randoms(use_true_random=False),
)
def test_centring_is_the_centred_cosine_on_the_plain_scale_whatever_the_order(
    query: list[float], vectors: list[list[float]], centring: float, seed: st.SearchStrategy
) -> None:
    q = _unit(np.array(query))
    units = {f"b{k}": _unit(np.array(v)) for k, v in enumerate(vectors)}
    evidence = _evidence(q, units).by_id
    got = centred_cosines(evidence, centring)

    # the same values, to the bit, whatever order the candidates come in
    ids = list(evidence)
    seed.shuffle(ids)  # type: ignore[attr-defined]
    assert centred_cosines({i: evidence[i] for i in ids}, centring) == got

    plain = np.array([evidence[i].cosines[0] for i in units])
    values = np.array([got[i][0] for i in units])
    # the scale is the plain cosines': their mean and spread among the candidates
    assert values.mean() == pytest.approx(plain.mean(), abs=1e-9)
    assert values.std() == pytest.approx(plain.std(), abs=1e-9)

    # the order is that of cos(q - gμ, v - gμ), computed from the vectors themselves
    mean = np.mean(list(units.values()), axis=0)
    moved = [q - centring * mean, *(v - centring * mean for v in units.values())]
    if min(float(np.linalg.norm(m)) for m in moved) < 1e-9:
        return  # a vector at the shared direction itself has no direction to compare
    shifted = _unit(moved[0])
    direct = np.array([shifted @ _unit(v) for v in moved[1:]])
    if direct.std() > 1e-6 and plain.std() > 1e-6:
        expected = plain.mean() + plain.std() * (direct - direct.mean()) / direct.std()
        assert values == pytest.approx(expected, abs=1e-6)


@pytest.fixture
def search(memory: Memory) -> Iterator[PostgresBeliefSearch]:
    pool: ConnectionPool = ConnectionPool(
        memory.uri,
        min_size=1,
        max_size=2,
        kwargs={"autocommit": True},
        configure=register_vector,
        open=True,
    )
    try:
        yield PostgresBeliefSearch(pool)
    finally:
        pool.close()


def test_the_store_reads_each_candidates_centrality_over_the_loaded_candidates_only(
    memory: Memory, tenant: str, search: PostgresBeliefSearch
) -> None:
    statements = {
        "b-tea": "The user drinks green tea every morning",
        "b-cup": "The user's favourite cup is the blue one",
        "b-run": "The user runs five kilometres on Sundays",
    }
    memory.beliefs.add_many(
        [belief(tenant, id=i, statement=s, subject=i) for i, s in statements.items()]
        + [belief(tenant, id="b-other", statement="The user sails on weekends", subject="sea")]
        + [belief(tenant, "p2", id="b-theirs", statement="They hate tea", subject="tea")]
    )
    f = HardFilter(
        tenant_id=tenant,
        principal_id="p1",
        states=(LifecycleState.ACTIVE,),
        as_of=NOW,
        known_as_of=NOW,
        sensitivity_ceiling=Sensitivity.PERSONAL,
    )
    query = memory.embedder.embed(["what does the user drink"])
    # another principal's belief asked for by id is neither loaded nor summed
    _, evidence = search.load_with_evidence(
        f,
        [*statements, "b-theirs"],
        ["what does the user drink"],
        query,
        [],
        DEFAULT_POLICY.limits,
    )
    assert isinstance(evidence, EvidenceSet)
    assert set(evidence.by_id) == set(statements)
    vectors = dict(zip(statements, memory.embedder.embed(list(statements.values())), strict=True))
    total = np.sum(list(vectors.values()), axis=0)
    for i, v in vectors.items():
        assert evidence.by_id[i].centrality == pytest.approx(float(v @ total), abs=1e-5)
