"""The semantic arm searches a principal exactly when it is small next to the whole table
and through the HNSW index otherwise (the policy's ``semantic_exact_factor``). Either way
it honours every field of the hard filter, and on a store small enough for the index to be
exact both paths find the same nearest beliefs. The index holds only graduated principals
(adapters/postgres/ann_index.py), so these small principals are graduated here to be
searched through it."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import numpy.typing as npt
import psycopg
import pytest

from recallflow import Memory, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.ann_index import graduate
from recallflow.adapters.postgres.search import ONE_PASS_VECTORS
from recallflow.models.stages import HardFilter
from recallflow.policy import ArmLimits
from recallflow.ports import BeliefSearch, RawHits
from tests.helpers import active_view, belief, made_home
from tests.test_isolation import DECOYS, TEXT, WIDE, decoy_store  # noqa: F401  (fixture)


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory, made_pgdata: Path) -> Iterator[Memory]:
    """A store of this file's own: the HNSW index is approximate, and the graduated
    principals other tests leave in a shared store crowd the graph a filtered scan walks,
    so whether the index finds what the exact search finds would depend on which tests ran
    before (it did, in another order)."""
    home = made_home(made_pgdata, tmp_path_factory.mktemp("semantic-paths-home"))
    with open_memory(home=home, embedder=HashingEmbedder()) as memory:
        yield memory


#: Always exact (any principal is smaller than this times the root of the table) / never.
EXACT, INDEX = 1e9, 0.0


def _graduate(memory: Memory, tenant: str, principal: str = "p1") -> None:
    with psycopg.connect(memory.uri) as conn:
        graduate(conn, tenant, principal)


def _active_now(tenant: str) -> HardFilter:
    """The active beliefs of ``tenant``'s principal ``p1``, as of a fixed now."""
    return active_view(tenant, at=datetime(2026, 6, 1, tzinfo=UTC))


@pytest.mark.parametrize("factor", [EXACT, INDEX], ids=["exact", "hnsw"])
def test_both_paths_honour_every_filter_field(
    memory: Memory,
    decoy_store: tuple[str, HardFilter],  # noqa: F811
    factor: float,
) -> None:
    tenant, hard_filter = decoy_store
    _graduate(memory, tenant)
    limits = WIDE.model_copy(update={"semantic_exact_factor": factor})
    hits = memory._ports.belief_search.semantic(hard_filter, memory.embedder.embed([TEXT]), limits)
    assert [belief_id for belief_id, _ in hits] == ["b-target"]
    assert len(DECOYS) > 5  # the decoys were there to be found


def test_both_paths_find_the_same_nearest_beliefs(memory: Memory, tenant: str) -> None:
    statements = [
        f"The {topic} service is deployed from the {branch} branch every {day}"
        for topic in ("billing", "search", "payments", "mobile")
        for branch in ("main", "release")
        for day in ("Monday", "Friday")
    ]
    memory.beliefs.add_many(
        [belief(tenant, id=f"b-{i}", statement=s) for i, s in enumerate(statements)]
    )
    _graduate(memory, tenant)
    hard_filter = _active_now(tenant)
    vectors = memory.embedder.embed(["Which branch is billing deployed from?"])
    found = {}
    for factor in (EXACT, INDEX):
        limits = WIDE.model_copy(update={"semantic_exact_factor": factor, "per_arm": 5})
        found[factor] = memory._ports.belief_search.semantic(hard_filter, vectors, limits)
    assert [i for i, _ in found[EXACT]] == [i for i, _ in found[INDEX]]
    assert found[EXACT][0][0] in {"b-0", "b-1", "b-2", "b-3"}


@pytest.mark.parametrize("factor", [EXACT, INDEX], ids=["exact", "hnsw"])
def test_the_arm_plans_without_sorts_only_for_itself(
    memory: Memory,
    decoy_store: tuple[str, HardFilter],  # noqa: F811
    factor: float,
) -> None:
    # The arm's statement is planned with sorting disabled; whatever runs next on its
    # connection (another arm, an episode search) is planned as before.
    tenant, hard_filter = decoy_store
    _graduate(memory, tenant)
    limits = WIDE.model_copy(update={"semantic_exact_factor": factor})
    with open_memory(memory.uri, embedder=memory.embedder, pool_size=1) as one:
        for _ in range(3):  # past the point where a prepared statement keeps its plan
            hits = one._ports.belief_search.semantic(
                hard_filter, one.embedder.embed([TEXT]), limits
            )
            assert [belief_id for belief_id, _ in hits] == ["b-target"]
        with one._recall_pool.connection() as conn:
            row = conn.execute("SELECT current_setting('enable_sort')").fetchone()
    assert row == ("on",)


#: What an agent's working state forms several text queries from: each its own vector.
SEVERAL = (
    "Which branch is billing deployed from?",
    "search service release day",
    "mobile payments on Friday",
    "the main branch every Monday",
    "deploys of the payments service",
)


def _merged(
    search: BeliefSearch,
    hard_filter: HardFilter,
    vectors: npt.NDArray[np.float32],
    limits: ArmLimits,
) -> RawHits:
    """One search per query vector, merged by each belief's best score: the answer the arm
    gives for all the vectors at once."""
    best: dict[str, float] = {}
    for vector in vectors:
        for belief_id, score in search.semantic(hard_filter, vector[None, :], limits):
            best[belief_id] = max(score, best.get(belief_id, score))
    return sorted(best.items(), key=lambda hit: (-hit[1], hit[0]))[: limits.per_arm]


def _deploys(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many(
        [
            belief(tenant, id=f"b-{i}", statement=f"The {t} service is deployed from {b} on {d}")
            for i, (t, b, d) in enumerate(
                itertools.product(
                    ("billing", "search", "payments", "mobile", "ledger"),
                    ("main", "release", "a hotfix branch"),
                    ("Monday", "Friday"),
                )
            )
        ]
    )
    _graduate(memory, tenant)


@pytest.mark.parametrize("factor", [EXACT, INDEX], ids=["exact", "hnsw"])
def test_several_query_vectors_find_each_beliefs_best_match(
    memory: Memory, tenant: str, factor: float
) -> None:
    # Each belief found is scored by the query vector nearest to it, and the best of those
    # are returned: the same answer as one search per vector merged by each belief's best
    # score, whichever subset of the queries the working state formed.
    _deploys(memory, tenant)
    hard_filter = _active_now(tenant)
    search = memory._ports.belief_search
    merging = 0  # the cases where a query other than the first brings a belief in
    floored = 0  # the cases where the similarity floor leaves places empty
    for per_arm, min_similarity in ((4, 0.0), (9, 0.5)):
        limits = WIDE.model_copy(
            update={
                "semantic_exact_factor": factor,
                "per_arm": per_arm,
                "semantic_min_similarity": min_similarity,
            }
        )
        for size in (1, 2, 3, 5):
            for combination in itertools.islice(itertools.combinations(SEVERAL, size), 4):
                for queries in (combination, combination[::-1]):
                    vectors = memory.embedder.embed(list(queries))
                    found = search.semantic(hard_filter, vectors, limits)
                    assert found == _merged(search, hard_filter, vectors, limits), queries
                    first = search.semantic(hard_filter, vectors[:1], limits)
                    merging += [i for i, _ in first] != [i for i, _ in found]
                    floored += len(found) < per_arm
    assert merging >= 10  # the merge was exercised, not only the first query's search
    assert floored >= 5  # and the similarity floor, which applies to the best score


@pytest.mark.parametrize("factor", [EXACT, INDEX], ids=["exact", "hnsw"])
def test_more_query_vectors_than_one_pass_takes(memory: Memory, tenant: str, factor: float) -> None:
    # A query former of one's own may form more queries than the exact search takes in
    # one pass (one column per vector): they are searched one by one, with the same answer.
    _deploys(memory, tenant)
    hard_filter = _active_now(tenant)
    search = memory._ports.belief_search
    texts = [f"{q} ({n})" for n in range(14) for q in SEVERAL][: ONE_PASS_VECTORS + 6]
    vectors = memory.embedder.embed(texts)
    limits = WIDE.model_copy(update={"semantic_exact_factor": factor, "per_arm": 6})
    found = search.semantic(hard_filter, vectors, limits)
    assert len(found) == 6
    assert found == _merged(search, hard_filter, vectors, limits)
