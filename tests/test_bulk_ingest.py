"""Bulk ingestion on the real embedded server: statements are embedded while the batch is
written (a chunk at a time, never for a belief already stored), a failing embedder leaves
nothing written, every timestamp survives the binary COPY exactly, and a large batch
shows a progress bar on a terminal only."""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import numpy as np
import numpy.typing as npt
import pytest

from recallflow import Memory, UnsupportedEmbedderError
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.beliefs import PostgresBeliefStore
from recallflow.adapters.progress import quiet
from recallflow.ingestion import EMBED_BATCH, PROGRESS_MIN, Beliefs
from tests.helpers import belief


class CountingEmbedder:
    """The hashing embedder, counting the statements it embeds; can fail on a call."""

    def __init__(self, fail_on_call: int | None = None) -> None:
        self._inner = HashingEmbedder()
        self.calls: list[int] = []
        self._fail_on_call = fail_on_call

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def dimension(self) -> int:
        return self._inner.dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.calls.append(len(texts))
        if self._fail_on_call is not None and len(self.calls) == self._fail_on_call:
            raise RuntimeError("the model crashed")
        return self._inner.embed(texts)


def _drafts(tenant: str, n: int) -> list[dict[str, object]]:
    return [
        belief(tenant, id=f"b-{i}", statement=f"Fact number {i} about the billing service")
        for i in range(n)
    ]


def _count(memory: Memory, tenant: str) -> int:
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM beliefs WHERE tenant_id = %s", (tenant,)
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_batch_is_embedded_in_chunks_and_stored_beliefs_are_not_embedded_again(
    memory: Memory, tenant: str
) -> None:
    embedder = CountingEmbedder()
    beliefs = Beliefs(PostgresBeliefStore(memory.pool), embedder)
    n = 2 * EMBED_BATCH + 7
    beliefs.add_many(_drafts(tenant, n))
    assert embedder.calls == [EMBED_BATCH, EMBED_BATCH, 7]
    assert _count(memory, tenant) == n
    # The same vectors as one call for the whole batch would give.
    stored = memory.beliefs.get(tenant, "p1", "b-300")
    assert stored.statement == "Fact number 300 about the billing service"
    with memory.pool.connection() as conn:
        row = conn.execute(
            "SELECT embedding FROM beliefs WHERE tenant_id = %s AND id = 'b-300'", (tenant,)
        ).fetchone()
    assert row is not None
    expected = HashingEmbedder().embed([stored.statement])[0]
    assert np.allclose(np.asarray(row[0].to_numpy()), expected, atol=1e-6)
    # Re-adding the stored batch is a no-op that embeds nothing.
    embedder.calls.clear()
    beliefs.add_many(_drafts(tenant, n))
    assert embedder.calls == []
    assert _count(memory, tenant) == n


def test_an_embedder_failing_mid_batch_leaves_nothing_written(memory: Memory, tenant: str) -> None:
    beliefs = Beliefs(PostgresBeliefStore(memory.pool), CountingEmbedder(fail_on_call=2))
    with pytest.raises(
        UnsupportedEmbedderError, match=r"raised RuntimeError \(the model crashed\)"
    ):
        beliefs.add_many(_drafts(tenant, 2 * EMBED_BATCH))
    assert _count(memory, tenant) == 0


class _Interrupted(CountingEmbedder):
    """Ctrl-C landing while the model embeds the given call's chunk."""

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if len(self.calls) + 1 == self._fail_on_call:
            self.calls.append(len(texts))
            raise KeyboardInterrupt
        return super().embed(texts)


@pytest.mark.parametrize("call", [1, 2], ids=["in-the-copy", "in-the-chunk-ahead"])
def test_a_batch_interrupted_mid_write_leaves_nothing_and_the_memory_writes_again(
    memory: Memory, tenant: str, call: int
) -> None:
    """A user's Ctrl-C during a bulk write reaches them as KeyboardInterrupt (never as a
    typed store or embedder error), rolls the batch back, leaves no embedding thread, and
    the same Memory writes the batch again."""
    beliefs = Beliefs(PostgresBeliefStore(memory.pool), _Interrupted(fail_on_call=call))
    with pytest.raises(KeyboardInterrupt):
        beliefs.add_many(_drafts(tenant, 2 * EMBED_BATCH))
    assert _count(memory, tenant) == 0
    alive = {t.name for t in threading.enumerate() if t.is_alive()}
    assert not any(name.startswith("recallflow-embed") for name in alive)
    memory.beliefs.add_many(_drafts(tenant, 2 * EMBED_BATCH))
    assert _count(memory, tenant) == 2 * EMBED_BATCH


def test_every_timestamp_survives_the_binary_copy(memory: Memory, tenant: str) -> None:
    recorded = datetime(2026, 1, 2, 3, 4, 5, 123456, tzinfo=UTC)
    valid_from = datetime(1999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    memory.beliefs.add_many(
        [
            belief(tenant, id="b-open", recorded_at=recorded),
            belief(
                tenant,
                id="b-closed",
                recorded_at=recorded,
                valid_from=valid_from,
                valid_to=valid_from + timedelta(days=400, microseconds=1),
                retracted_at=recorded + timedelta(seconds=1),
                last_corroborated_at=datetime(2026, 1, 1, tzinfo=UTC),
            ),
        ]
    )
    open_ = memory.beliefs.get(tenant, "p1", "b-open")
    assert (open_.recorded_at, open_.valid_from, open_.valid_to) == (recorded, None, None)
    closed = memory.beliefs.get(tenant, "p1", "b-closed")
    assert closed.valid_from == valid_from
    assert closed.valid_to == valid_from + timedelta(days=400, microseconds=1)
    assert closed.retracted_at == recorded + timedelta(seconds=1)
    assert closed.last_corroborated_at == datetime(2026, 1, 1, tzinfo=UTC)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _episodes(tenant: str, n: int) -> list[dict[str, object]]:
    return [
        {
            "id": f"e-{i}",
            "tenant_id": tenant,
            "principal_id": "p1",
            "occurred_at": datetime(2026, 1, 1, tzinfo=UTC),
            "content": f"Pairing session {i} on the billing service",
        }
        for i in range(n)
    ]


def _add_many(memory: Memory, tenant: str, kind: str) -> None:
    if kind == "beliefs":
        memory.beliefs.add_many(_drafts(tenant, PROGRESS_MIN))
    else:
        memory.episodes.add_many(_episodes(tenant, PROGRESS_MIN))


@pytest.mark.parametrize("kind", ["beliefs", "episodes"])
@pytest.mark.parametrize("terminal", [True, False])
def test_a_large_batch_shows_progress_on_a_terminal_only(
    memory: Memory, tenant: str, terminal: bool, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Of beliefs and of archival episodes alike: a large episode batch (its contents
    embedded, usually longer than statements) showed nothing at all."""
    stderr: io.StringIO = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr("sys.stderr", stderr)
    _add_many(memory, tenant, kind)
    if kind == "beliefs":
        assert _count(memory, tenant) == PROGRESS_MIN
    shown = stderr.getvalue()
    if terminal:
        assert kind in shown and f"/{PROGRESS_MIN}" in shown
    else:
        assert shown == ""
    # The bar leaves no thread behind in the caller's process (tqdm's monitor included).
    assert "tqdm_monitor" not in {t.name for t in threading.enumerate() if t.is_alive()}


@pytest.mark.parametrize("kind", ["beliefs", "episodes"])
def test_a_quiet_block_shows_no_bar_even_on_a_terminal(
    memory: Memory, tenant: str, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """How a caller (and a command's --quiet) turns the library's own bar off: a process on
    a terminal had no way to."""
    stderr = _Terminal()
    monkeypatch.setattr("sys.stderr", stderr)
    with quiet():
        _add_many(memory, tenant, kind)
    assert stderr.getvalue() == ""
    _add_many(memory, f"{tenant}-after", kind)  # only within the block
    assert f"/{PROGRESS_MIN}" in stderr.getvalue()


class _ClosedTerminal(_Terminal):
    def isatty(self) -> bool:
        raise ValueError("I/O operation on closed file")


@pytest.mark.parametrize(
    "stderr", [None, _ClosedTerminal(), object()], ids=["none", "closed", "bare"]
)
def test_a_large_batch_is_written_by_a_process_without_a_usable_stderr(
    memory: Memory, tenant: str, stderr: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A service started with its stderr closed (``sys.stderr`` is None), or whose stderr
    was closed or replaced by a stand-in, writes a large batch like any other: no bar, and
    no error from looking for a terminal after the batch was validated."""
    monkeypatch.setattr("sys.stderr", stderr)
    memory.beliefs.add_many(_drafts(tenant, PROGRESS_MIN))
    assert _count(memory, tenant) == PROGRESS_MIN


def test_a_stored_belief_reads_back_equal_to_what_was_written(memory: Memory, tenant: str) -> None:
    """Beliefs read from the store are built without validation (they passed the table's
    constraints); they must still be the same model a validated write produced."""
    written = memory.beliefs.add_many(
        [
            belief(
                tenant,
                id="b-full",
                entities=["dark-mode", "ui"],
                belief_type="preference",
                sensitivity="personal",
                valid_from=datetime(2024, 1, 1, tzinfo=UTC),
                corroborating_projects=["alpha"],
                scope="project",
                origin_project="alpha",
            ),
            belief(tenant, id="b-plain"),
        ]
    )
    read = [memory.beliefs.get(tenant, "p1", b.id) for b in written]
    assert read == written
    assert [b.model_dump() for b in read] == [b.model_dump() for b in written]
    assert read[0].model_copy(update={"utility": 1.0}).utility == 1.0
