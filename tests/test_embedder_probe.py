"""The relevance floor with embedders unlike the shipped ones (``benchmarks.embedder_probe``,
see "Your own embedder" in docs/embedders.md).

A model that gives every cosine MiniLM gives, in another vector layout, must render what
MiniLM renders, byte for byte: the floor reads similarities, never a dimension. And a
smaller, noisier model (MiniLM projected to 96 dimensions) is calibrated on its own scale
at first open, so nonsense still renders nothing with it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from benchmarks import unseen_gaps
from benchmarks.embedder_probe import PROBE_NONE, probe_embedder, suite_none
from recallflow import Memory, open_memory
from recallflow.adapters.postgres.bootstrap import scratch_database
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.ports import Embedder
from tests.helpers import embedder_or_skip

TENANT = "probe"
#: The illustrator's memory of the unseen gaps (beliefs with ids of their own, so two
#: stores' blocks can be compared byte for byte) and its questions.
DRAFTS, QUESTIONS = unseen_gaps.probe()["studio"]
NONSENSE = [text for text, kind in (*suite_none(), *PROBE_NONE) if kind.endswith("nonsense")]


def _blocks(
    uri: str, database: str, embedder: Embedder, goals: list[str]
) -> list[tuple[str, tuple[str, ...]]]:
    """Each goal's block and the ids it rendered, from the studio memory stored with
    ``embedder`` in ``database``."""
    with scratch_database(uri, database) as own, open_memory(own, embedder=embedder) as mem:
        mem.beliefs.add_many(
            [{"tenant_id": TENANT, "principal_id": "studio", **d} for d in DRAFTS.values()]
        )
        results = [
            mem.recall(
                RecallRequest(
                    tenant_id=TENANT,
                    principal_id="studio",
                    working_state=WorkingState(goal=goal),
                ),
                persist_trace=False,
            )
            for goal in goals
        ]
        return [(r.block, r.rendered_ids) for r in results]


@pytest.fixture(scope="module")
def minilm_blocks(memory: Memory) -> Iterator[list[tuple[str, tuple[str, ...]]]]:
    goals = [q.text for q in QUESTIONS if q.as_of is None and q.project is None]
    yield _blocks(memory.uri, "recallflow_probe_minilm", embedder_or_skip("minilm"), goals)


def test_a_permuted_minilm_renders_every_block_minilm_renders(
    memory: Memory, minilm_blocks: list[tuple[str, tuple[str, ...]]]
) -> None:
    goals = [q.text for q in QUESTIONS if q.as_of is None and q.project is None]
    permuted = probe_embedder("perm")
    assert permuted.name != embedder_or_skip("minilm").name  # calibrated afresh
    blocks = _blocks(memory.uri, "recallflow_probe_perm", permuted, goals)
    assert sum(1 for _, ids in minilm_blocks if ids) >= 10  # answers are found
    assert [block for block, _ in blocks] == [block for block, _ in minilm_blocks]


def test_a_smaller_noisier_model_renders_nothing_for_nonsense(memory: Memory) -> None:
    embedder_or_skip("minilm")
    projected = probe_embedder("proj")
    assert projected.dimension == 96
    answerable = [q for q in QUESTIONS if q.kind == "answer" and q.answers and q.as_of is None]
    goals = [q.text for q in answerable] + NONSENSE
    blocks = _blocks(memory.uri, "recallflow_probe_proj", projected, goals)
    assert sum(1 for _, ids in blocks[: len(answerable)] if ids) >= len(answerable) // 2
    after = blocks[len(answerable) :]
    rendered = {g: ids for g, (_, ids) in zip(NONSENSE, after, strict=True) if ids}
    assert not rendered, rendered


#: Paraphrases of the studio memory that share no content word with their belief, and the
#: belief: MiniLM scores them 0.43-0.55, a model of half MiniLM's cosines 0.21-0.27.
PARAPHRASES = (
    ("What's my daily fee?", "s1"),
    ("Which apps do I paint with?", "s2"),
    ("Why does my hand hurt after long sessions?", "s15"),
)


def test_a_model_whose_cosines_sit_lower_still_finds_paraphrased_answers(
    memory: Memory,
) -> None:
    # Every cosine about half MiniLM's: the semantic arm's noise cut is read on the model's
    # own scale, so a paraphrase's hit reaches the floor (under the raw 0.3 it never did,
    # and these blocks were empty) while nonsense still renders nothing.
    embedder_or_skip("minilm")
    halved = probe_embedder("half")
    goals = [goal for goal, _ in PARAPHRASES] + NONSENSE
    blocks = _blocks(memory.uri, "recallflow_probe_half", halved, goals)
    for (goal, answer), (_, ids) in zip(PARAPHRASES, blocks, strict=False):
        assert DRAFTS[answer]["id"] in ids, goal
    after = blocks[len(PARAPHRASES) :]
    rendered = {g: ids for g, (_, ids) in zip(NONSENSE, after, strict=True) if ids}
    assert not rendered, rendered
