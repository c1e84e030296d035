"""An embedder of the user's own, plugged in through the Embedder port (see "Your own
embedder" in docs/embedders.md): a store takes any dimension pgvector's index takes, and
refuses by name, at open, an embedder it cannot use — too many dimensions, or vectors that
break the port's contract — instead of failing at the first write or reading every
similarity wrong."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt
import psycopg
import pytest

from recallflow import RecallRequest, UnsupportedEmbedderError, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.embedded import EmbeddedServer
from recallflow.core.calibration import vector_problem
from tests.helpers import belief, fresh_database, request

TENANT = "t-own"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedServer]:
    """An embedded server of this module's own: each test opens a new database on it,
    as a first open with a new embedder does."""
    started = EmbeddedServer(tmp_path_factory.mktemp("own-embedders-pg"))
    try:
        yield started
    finally:
        started.release()


class _Scaled:
    """A user's embedder that forgot to L2-normalise: hashing rows times 3."""

    name = "scaled-hashing"
    dimension = 384

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return (HashingEmbedder().embed(texts) * 3.0).astype(np.float32)


class _Short:
    """A user's embedder whose rows are one shorter than its ``dimension`` says."""

    name = "short-hashing"
    dimension = 384

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return HashingEmbedder(383).embed(texts)


class _ScaledQueries:
    """Passages unit length, queries not (``embed_queries`` is checked too)."""

    name = "scaled-queries"
    dimension = 384

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return HashingEmbedder().embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return (HashingEmbedder().embed(texts) * 0.5).astype(np.float32)


BELIEFS = [
    belief(TENANT, id="b-money", statement="Money is stored as integer cents.", subject="money"),
    belief(TENANT, id="b-theme", statement="The user prefers dark mode.", subject="ui-theme"),
]


def _recall_money(uri: str, embedder: HashingEmbedder) -> tuple[str, ...]:
    with open_memory(uri, embedder=embedder) as memory:
        result = memory.recall(
            RecallRequest.model_validate(request(TENANT, goal="How is money stored?"))
        )
    return result.rendered_ids


@pytest.mark.parametrize("dimension", [768, 1536])
def test_a_wide_embedder_stores_and_recalls(server: EmbeddedServer, dimension: int) -> None:
    # 768 and 1,536 are common model widths; a vector that wide no longer fits the
    # b-tree entry of the exact search's covering index, and every write used to fail.
    uri = fresh_database(server)
    with open_memory(uri, embedder=HashingEmbedder(dimension)) as memory:
        memory.beliefs.add_many(BELIEFS)
    assert _recall_money(uri, HashingEmbedder(dimension)) == ("b-money",)


def test_a_wide_store_first_opened_before_the_limit_can_write(server: EmbeddedServer) -> None:
    uri = fresh_database(server)
    open_memory(uri, embedder=HashingEmbedder(768)).close()
    with psycopg.connect(uri, autocommit=True) as conn:  # the index as an older open built it
        conn.execute("DROP INDEX beliefs_vectors_idx")
        conn.execute(
            "CREATE INDEX beliefs_vectors_idx ON beliefs (tenant_id, principal_id, state,"
            " sensitivity) INCLUDE (valid_from, valid_to, recorded_at, retracted_at,"
            " superseded_by, id, embedding)"
        )
    with open_memory(uri, embedder=HashingEmbedder(768)) as memory:
        memory.beliefs.add_many(BELIEFS)
    assert _recall_money(uri, HashingEmbedder(768)) == ("b-money",)


def test_too_many_dimensions_is_refused_by_name_and_records_nothing(
    server: EmbeddedServer,
) -> None:
    uri = fresh_database(server)
    with pytest.raises(UnsupportedEmbedderError, match=r"2001-dimension.*at most 2000"):
        open_memory(uri, embedder=HashingEmbedder(2001))
    with open_memory(uri, embedder=HashingEmbedder()) as memory:  # nothing was recorded
        memory.beliefs.add_many(BELIEFS)


@pytest.mark.parametrize(
    ("embedder", "says"),
    [
        (_Scaled(), r"rows of length 3 to 3; the Embedder port needs L2-normalised rows"),
        (_Short(), r"shape \(320, 383\), not \(320, 384\)"),
        (_ScaledQueries(), r"embed_queries\(\) returned rows of length 0\.5"),
    ],
)
def test_vectors_that_break_the_port_are_refused_at_open(
    server: EmbeddedServer, embedder: object, says: str
) -> None:
    # Unit rows are what the calibration's dot products assume: a store used to open
    # with such an embedder and read every standing off by the rows' lengths.
    with pytest.raises(UnsupportedEmbedderError, match=says):
        open_memory(fresh_database(server), embedder=embedder)  # type: ignore[arg-type]


def test_vector_problem_names_what_is_wrong() -> None:
    unit = HashingEmbedder(8).embed(["a b", "c d"])
    assert vector_problem(unit, 2, 8) is None
    assert "not finite" in str(vector_problem(np.full((2, 8), np.nan), 2, 8))
    assert "length 0.99" not in str(vector_problem(unit * 0.995, 2, 8))  # within tolerance
    assert vector_problem(unit * 0.995, 2, 8) is None
    assert "shape (2, 8), not (3, 8)" in str(vector_problem(unit, 3, 8))
