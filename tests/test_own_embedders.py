"""An embedder of the user's own, plugged in through the Embedder port (see "Your own
embedder" in docs/embedders.md): a store takes any dimension pgvector's index takes, and
refuses by name, at open, an embedder it cannot use — too many dimensions, or vectors that
break the port's contract — instead of failing at the first write or reading every
similarity wrong."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import numpy.typing as npt
import psycopg
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from recallflow import (
    EmbedderMismatchError,
    InvalidInputError,
    RecallRequest,
    UnsupportedEmbedderError,
    open_memory,
)
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.embedded import EmbeddedServer
from recallflow.adapters.postgres.vectors import query_vector_texts
from recallflow.core.calibration import vector_problem
from recallflow.models.result import EpisodeArm
from tests.helpers import belief, fresh_database, made_home, request

TENANT = "t-own"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, made_pgdata: Path) -> Iterator[EmbeddedServer]:
    """An embedded server of this module's own: each test opens a new database on it,
    as a first open with a new embedder does."""
    started = EmbeddedServer(made_home(made_pgdata, tmp_path_factory.mktemp("own-embedders-pg")))
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


#: A word no calibration sentence holds: the text a model "fails" on below.
BLANK = "zzquux"


class _BlankFor:
    """A user's embedder that passes the calibration but returns a row of zeros for one
    input (a model that embeds nothing it knows): any text holding :data:`BLANK`."""

    name = "blank-for-one-word"
    dimension = 384

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        vectors = HashingEmbedder().embed(texts)
        vectors[[BLANK in text for text in texts]] = 0.0
        return vectors


def _said(content: str) -> dict[str, object]:
    """An episode draft of the principal ``p1`` with ``content``, happened a day ago."""
    when = datetime.now(UTC) - timedelta(days=1)
    return {"tenant_id": TENANT, "principal_id": "p1", "occurred_at": when, "content": content}


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
        (
            _Scaled(),
            r"rows of length 3 to 3 \(row 0 of 320: 3\); the Embedder port needs L2-normalised",
        ),
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


@pytest.mark.parametrize("length", [0.0, 0.5, 3.0])
def test_a_given_vector_not_unit_length_is_refused_by_item_and_nothing_is_written(
    server: EmbeddedServer, length: float
) -> None:
    # A given vector of length 0 used to be stored: every cosine against it is NaN.
    with open_memory(fresh_database(server), embedder=HashingEmbedder()) as memory:
        unit = HashingEmbedder().embed([BELIEFS[1]["statement"]])[0]
        given = {**BELIEFS[1], "embedding": [float(x) * length for x in unit]}
        with pytest.raises(InvalidInputError, match=rf"has length {length:g}, not 1") as caught:
            memory.beliefs.add_many([BELIEFS[0], given])
        assert (caught.value.item_index, caught.value.field) == (1, "embedding")
        assert memory.beliefs.list(TENANT, "p1") == []
        near = {**BELIEFS[1], "embedding": [float(x) * 0.995 for x in unit]}  # within 0.01
        assert len(memory.beliefs.add_many([BELIEFS[0], near])) == 2


def test_an_embedder_row_that_breaks_the_port_at_a_write_is_refused_and_nothing_is_written(
    server: EmbeddedServer,
) -> None:
    blank = belief(TENANT, id="b-blank", statement=f"The {BLANK} is noted.", subject="note")
    with open_memory(fresh_database(server), embedder=_BlankFor()) as memory:
        with pytest.raises(UnsupportedEmbedderError, match=r"the statement of item 2: 0\)"):
            memory.beliefs.add_many([BELIEFS[0], BELIEFS[1], blank])
        assert memory.beliefs.list(TENANT, "p1") == []
        said = _said("The user said hello.")
        with pytest.raises(UnsupportedEmbedderError, match=r"the content of episode 'e-blank'"):
            memory.episodes.add_many(
                [{**said, "id": "e-said"}, {**said, "id": "e-blank", "content": BLANK}]
            )
        with pytest.raises(KeyError):
            memory.episodes.get(TENANT, "p1", "e-said")


def test_a_query_vector_that_breaks_the_port_degrades_archival_search(
    server: EmbeddedServer,
) -> None:
    with open_memory(fresh_database(server), embedder=_BlankFor()) as memory:
        said = _said("Invoices are in cents.")
        memory.episodes.add_many([{**said, "id": f"e-{i}"} for i in range(3)])
        found = memory.search_episodes(
            {"tenant_id": TENANT, "principal_id": "p1", "query": f"{BLANK} invoices cents"}
        )
    arms = {a.arm: a for a in found.trace.arms}
    assert arms[EpisodeArm.VECTOR].hits == ()
    assert "field 'query_vectors': has length 0, not 1" in (arms[EpisodeArm.VECTOR].error or "")
    assert [h.episode_id for h in arms[EpisodeArm.FULL_TEXT].hits]  # the words still find them


@given(
    arrays(np.float32, (3, 8), elements=st.floats(-1, 1, width=32)),
    st.floats(0, 3),
    st.integers(0, 2),
)
def test_a_query_vector_is_sent_only_when_unit_length(
    rows: npt.NDArray[np.float32], length: float, row: int
) -> None:
    norms = np.linalg.norm(rows.astype(np.float64), axis=1, keepdims=True)
    assume(bool((norms > 1e-3).all()))
    vectors = (rows / norms).astype(np.float32)
    vectors[row] *= np.float32(length)
    actual = float(np.linalg.norm(vectors[row].astype(np.float64)))
    assume(abs(abs(actual - 1.0) - 0.01) > 1e-4)  # not on the tolerance's edge
    if abs(actual - 1.0) <= 0.01:
        sent = np.array([json.loads(t) for t in query_vector_texts(vectors)])
        np.testing.assert_allclose(sent, vectors, rtol=1e-6, atol=1e-7)
    else:
        with pytest.raises(InvalidInputError) as caught:
            query_vector_texts(vectors)
        assert (caught.value.field, caught.value.item_index) == ("query_vectors", row)


class _WideQueries(_BlankFor):
    """Passages as :class:`_BlankFor`, but a query of :data:`BLANK` gets one component
    too many (a model whose output size changed): broken for every such query."""

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if any(BLANK in text for text in texts):
            return HashingEmbedder(self.dimension + 1).embed(texts)
        return self.embed(texts)


def test_query_vectors_of_the_wrong_shape_are_a_typed_error(server: EmbeddedServer) -> None:
    with open_memory(fresh_database(server), embedder=_WideQueries()) as memory:
        memory.beliefs.add_many(BELIEFS)
        asked = RecallRequest.model_validate(request(TENANT, goal=f"{BLANK} money"))
        with pytest.raises(UnsupportedEmbedderError, match=r"embed_queries\(\) of 1 texts"):
            memory.recall(asked)
        assert memory.recall(RecallRequest.model_validate(request(TENANT, goal="money")))


def test_an_episode_the_embedder_cannot_embed_does_not_stop_the_backfill(
    server: EmbeddedServer, caplog: pytest.LogCaptureFixture
) -> None:
    # Stored before the store kept embeddings, an episode the model embeds as zeros used to
    # fail its batch's backfill, and so every archival search of the principal after it.
    uri = fresh_database(server)
    with open_memory(uri, embedder=_BlankFor()) as memory:
        said = _said("Invoices are in cents.")
        memory.episodes.add_many([{**said, "id": f"e-{i}"} for i in range(3)])
        with psycopg.connect(uri, autocommit=True) as conn:
            conn.execute("UPDATE episodes SET embedding = NULL")
            conn.execute("UPDATE episodes SET content = %s WHERE id = 'e-1'", (BLANK,))
        with caplog.at_level(logging.WARNING, logger="recallflow.ingestion"):
            found = memory.search_episodes(
                {"tenant_id": TENANT, "principal_id": "p1", "query": "invoices cents"}
            )
        assert "'e-1'" in caplog.text and "length 0" in caplog.text
        vector = {a.arm: a for a in found.trace.arms}[EpisodeArm.VECTOR]
        assert vector.error is None
        assert {h.episode_id for h in vector.hits} == {"e-0", "e-2"}
        assert memory.episodes.embed_missing(TENANT, "p1") == 0  # e-1 tried, kept none


class _RaisesFor(_BlankFor):
    """Passes the calibration, then raises for any text holding :data:`BLANK` (a model
    that crashes on one input, or a remote one that times out mid-batch)."""

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if any(BLANK in text for text in texts):
            raise RuntimeError("the model crashed")
        return HashingEmbedder().embed(texts)


class _RaggedFor(_BlankFor):
    """Passes the calibration, then answers plain lists, one row of them ``None``, for a
    batch holding :data:`BLANK` (not an array at all)."""

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        rows: list[object] = [list(map(float, row)) for row in HashingEmbedder().embed(texts)]
        rows = [None if BLANK in text else row for text, row in zip(texts, rows, strict=True)]
        return rows  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("embedder", "says"),
    [
        (_RaisesFor(), r"embed\(\) raised RuntimeError \(the model crashed\)"),
        (_RaggedFor(), r"embed\(\) of 3 texts returned something that is not an array"),
    ],
)
def test_an_embedder_that_fails_mid_write_is_a_typed_error_and_nothing_is_written(
    server: EmbeddedServer, embedder: _BlankFor, says: str
) -> None:
    # The model's own exception (or numpy's, on a ragged answer) used to escape the write
    # bare: not a recallflow error, and nothing to say which items were being embedded.
    blank = belief(TENANT, id="b-blank", statement=f"The {BLANK} is noted.", subject="note")
    with open_memory(fresh_database(server), embedder=embedder) as memory:
        with pytest.raises(UnsupportedEmbedderError, match=says) as caught:
            memory.beliefs.add_many([BELIEFS[0], BELIEFS[1], blank])
        if isinstance(embedder, _RaisesFor):
            assert "the statements of items 0 to 2" in str(caught.value)
            assert isinstance(caught.value.__cause__, RuntimeError)
        assert memory.beliefs.list(TENANT, "p1") == []
        said = _said("The user said hello.")
        with pytest.raises(UnsupportedEmbedderError, match=says.replace("3 texts", "2 texts")):
            memory.episodes.add_many(
                [{**said, "id": "e-said"}, {**said, "id": "e-blank", "content": BLANK}]
            )
        with pytest.raises(KeyError):
            memory.episodes.get(TENANT, "p1", "e-said")


def test_an_embedder_that_fails_on_a_query_is_a_typed_error(server: EmbeddedServer) -> None:
    # A recall or a search whose query the model raised on used to fail with the model's
    # bare exception, out of the middle of the stage graph.
    with open_memory(fresh_database(server), embedder=_RaisesFor()) as memory:
        memory.beliefs.add_many(BELIEFS)
        asked = RecallRequest.model_validate(request(TENANT, goal=f"{BLANK} money"))
        with pytest.raises(UnsupportedEmbedderError, match=r"raised RuntimeError") as caught:
            memory.recall(asked)
        assert isinstance(caught.value.__cause__, RuntimeError)
        with pytest.raises(UnsupportedEmbedderError, match=r"raised RuntimeError"):
            memory.search_episodes({"tenant_id": TENANT, "principal_id": "p1", "query": BLANK})
        assert memory.recall(RecallRequest.model_validate(request(TENANT, goal="money")))


class _LeanPassages:
    """A model that embeds queries apart and puts every passage in a cone of its own: a
    passage is the hashing row with one more component, ``lean``, normalised again; a
    query is the hashing row with 0 there. Every query-passage cosine is the hashing one
    divided by √(1 + lean²), exactly, while two passages look alike (about 0.6 for
    ``lean`` 1): the query-passage scale differs from the passage-pair scale, as with e5."""

    def __init__(self, lean: float) -> None:
        self.lean = lean
        self.name = f"lean-passages-{lean:g}"
        self.dimension = 385

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        rows = np.hstack([HashingEmbedder().embed(texts), np.full((len(texts), 1), self.lean)])
        unit: npt.NDArray[np.float32] = (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(
            np.float32
        )
        return unit

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return np.hstack([HashingEmbedder().embed(texts), np.zeros((len(texts), 1))]).astype(
            np.float32
        )


_LEAN_BELIEFS = [
    belief(TENANT, id=f"b-{i}", statement=statement, subject=f"s-{i}")
    for i, statement in enumerate(
        [
            "Money is stored as integer cents.",
            "The user prefers dark mode in every editor.",
            "Invoices are rendered to PDF by a worker.",
            "Deploys go through Argo CD after CI passes.",
            "The user runs the Berlin marathon in September.",
            "Tomatoes are sown indoors in early March.",
        ]
    )
]


def _standings(embedder: object, server: EmbeddedServer, goal: str) -> dict[str, float]:
    with open_memory(fresh_database(server), embedder=embedder) as memory:  # type: ignore[arg-type]
        memory.beliefs.add_many(_LEAN_BELIEFS)
        result = memory.recall(RecallRequest.model_validate(request(TENANT, goal=goal)))
    return {
        e.belief_id: e.relevance.standing
        for e in result.trace.scored
        if e.relevance is not None and e.relevance.standing is not None
    }


@pytest.mark.parametrize("goal", ["How is money stored in invoices?", "when do I sow tomatoes"])
def test_standings_are_read_on_the_scale_of_query_against_passage(
    server: EmbeddedServer, goal: str
) -> None:
    # The calibration's spread used to be that of two passages, while a standing compares
    # a query with a passage: a model whose passages share a cone of their own read every
    # standing √2 times too far from 0 (lean 1): too high above unrelated text, too low below.
    plain = _standings(HashingEmbedder(), server, goal)
    leaned = _standings(_LeanPassages(1.0), server, goal)
    shared = plain.keys() & leaned.keys()
    assert shared
    for belief_id in shared:
        assert leaned[belief_id] == pytest.approx(plain[belief_id], abs=0.02), belief_id


class _Renamed:
    """Another model under a name the store already knows: the hashing rows of a
    narrower hashing embedder, zero-padded to 384 (a model swapped without its name)."""

    name = "hashing-v1-384"
    dimension = 384

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return np.hstack([HashingEmbedder(192).embed(texts), np.zeros((len(texts), 192))]).astype(
            np.float32
        )


def test_another_model_under_the_stored_name_is_refused_at_open(server: EmbeddedServer) -> None:
    # The store knows an embedder by its name alone: a model swapped under the same name
    # used to open the store and compare its vectors with the old model's, silently.
    uri = fresh_database(server)
    with open_memory(uri, embedder=HashingEmbedder()) as memory:
        memory.beliefs.add_many(BELIEFS)
    with pytest.raises(EmbedderMismatchError, match=r"'hashing-v1-384' now embeds"):
        open_memory(uri, embedder=_Renamed())
    assert _recall_money(uri, HashingEmbedder()) == ("b-money",)  # the store is as it was


class _Claims:
    """A user's embedder whose ``name`` or ``dimension`` is not what the port says."""

    def __init__(self, name: object, dimension: object) -> None:
        self.name = name
        self.dimension = dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return HashingEmbedder(64).embed(texts)


@pytest.mark.parametrize(
    ("name", "dimension", "says"),
    [
        ("mine", "64", r"dimension must be a whole number, got '64' \(str\)"),
        ("mine", 64.0, r"dimension must be a whole number, got 64.0 \(float\)"),
        ("mine", True, r"dimension must be a whole number, got True \(bool\)"),
        (None, 64, r"name must be a non-empty string, got None \(NoneType\)"),
        (123, 64, r"name must be a non-empty string, got 123 \(int\)"),
        ("  ", 64, r"name must be a non-empty string, got '  ' \(str\)"),
        ("a\x00b", 64, r"name must not hold control characters"),
    ],
)
def test_an_embedder_whose_name_or_dimension_breaks_the_port_is_refused_at_open(
    server: EmbeddedServer, name: object, dimension: object, says: str
) -> None:
    # These used to reach the database: a TypeError, PostgreSQL's syntax or type errors,
    # and for a name of 123 a store that recorded the embedder and then failed to open.
    uri = fresh_database(server)
    with pytest.raises(UnsupportedEmbedderError, match=says):
        open_memory(uri, embedder=_Claims(name, dimension))  # type: ignore[arg-type]
    with open_memory(uri, embedder=HashingEmbedder(64)) as memory:  # nothing was recorded
        memory.beliefs.add_many(BELIEFS)
