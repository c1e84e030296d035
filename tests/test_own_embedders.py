"""An embedder of the user's own, plugged in through the Embedder port (see "Your own
embedder" in docs/embedders.md): a store takes any dimension pgvector's index takes, and
refuses by name, at open, an embedder with more dimensions than that, instead of failing
at the first write."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest

from recallflow import RecallRequest, UnsupportedEmbedderError, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.bootstrap import ensure_database
from recallflow.adapters.postgres.embedded import EmbeddedServer
from tests.helpers import belief, request

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


def _fresh(server: EmbeddedServer) -> str:
    name = f"db_{uuid.uuid4().hex[:10]}"
    ensure_database(server.uri("postgres"), name)
    return server.uri(name)


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
    uri = _fresh(server)
    with open_memory(uri, embedder=HashingEmbedder(dimension)) as memory:
        memory.beliefs.add_many(BELIEFS)
    assert _recall_money(uri, HashingEmbedder(dimension)) == ("b-money",)


def test_a_wide_store_first_opened_before_the_limit_can_write(server: EmbeddedServer) -> None:
    uri = _fresh(server)
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
    uri = _fresh(server)
    with pytest.raises(UnsupportedEmbedderError, match=r"2001-dimension.*at most 2000"):
        open_memory(uri, embedder=HashingEmbedder(2001))
    with open_memory(uri, embedder=HashingEmbedder()) as memory:  # nothing was recorded
        memory.beliefs.add_many(BELIEFS)
