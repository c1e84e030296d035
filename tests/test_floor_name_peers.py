"""A name the query shares with a belief is not semantic evidence that the belief answers
it either (see "Relevance floor" in docs/architecture.md).

A memory about one person names them in most of its beliefs. Asked something about them
that it does not hold, the query's vector is lifted towards every belief that names them,
and the unrelated corpus the standing is read against names nobody here: "What is Oskar's
blood type?" stood two spreads above unrelated text against his GP, his height and his
birthday alike, and the block held five beliefs about him. The beliefs that hold only
the query's names are that lift's own null; the questions the memory answers still find
their belief. Checked with MiniLM and with an embedder of the test's own (MiniLM through
a fixed anisotropic map: every cosine between 0.5 and 0.9), as a user would plug in.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt
import pytest

from recallflow import Memory
from recallflow.adapters.embedders import EmbedderUnavailableError, embedder_from_name
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.ports import Embedder
from tests.helpers import named_memory

TENANT, PRINCIPAL = "household", "oskar"

BELIEFS = {
    "inhaler": "Oskar has mild asthma and keeps a blue inhaler in his jacket.",
    "penicillin": "Oskar is allergic to penicillin.",
    "daughter": "Oskar's daughter Ines is nine and plays the cello.",
    "wife": "Oskar's wife Hana works night shifts as an ICU nurse.",
    "dog": "Oskar has a greyhound called Biscuit, adopted from a rescue.",
    "car": "Oskar drives a 2016 Skoda Octavia estate.",
    "job": "Oskar is a structural engineer at a bridge consultancy.",
    "coffee": "Oskar drinks his coffee black with no sugar.",
    "race": "Oskar is training for the Bristol half marathon in October.",
    "knee": "Oskar had keyhole surgery on his left knee last spring.",
    "birthday": "Oskar's birthday is on the 14th of March.",
    "garden": "Oskar grows tomatoes and runner beans in raised beds.",
    "gp": "Oskar's GP is Dr. Farrow at the Redland surgery.",
    "height": "Oskar is 1.91 metres tall.",
    "glasses": "Oskar needs reading glasses for small print.",
    "tea": "Oskar dislikes green tea.",
    "chess": "Oskar plays online chess and is rated about 1500.",
    "brother": "Oskar's brother Femi is an accountant in Manchester.",
}

#: Questions about him the memory cannot answer: each must render an empty block.
UNANSWERABLE = (
    "What is Oskar's blood type?",
    "What is Oskar's religion?",
    "Does Oskar have any tattoos?",
    "What did Oskar have for breakfast today?",
)

#: Questions it answers, with the belief that answers each.
ANSWERABLE = (
    ("How tall is Oskar?", "height"),
    ("What car does Oskar drive?", "car"),
    ("How does Oskar take his coffee?", "coffee"),
    ("When is Oskar's birthday?", "birthday"),
    ("What instrument does Oskar's daughter play?", "daughter"),
)


class Anisotropic:
    """Your own embedder: a base model's vectors through a fixed linear map whose singular
    values fall off steeply, plus a shared offset, normalised again."""

    def __init__(self, base: Embedder, dimension: int = 256) -> None:
        rng = np.random.default_rng(5)
        left, _ = np.linalg.qr(rng.standard_normal((base.dimension, base.dimension)))
        right, _ = np.linalg.qr(rng.standard_normal((dimension, dimension)))
        self._map = (left[:, :dimension] * np.exp(-np.arange(dimension) / 40.0)) @ right
        offset = rng.standard_normal(dimension)
        self._offset = 1.2 * offset / np.linalg.norm(offset)
        self._base = base
        self.name = f"test-anisotropic-{base.name}-{dimension}"
        self.dimension = dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        mapped = np.asarray(self._base.embed(texts), dtype=np.float64) @ self._map
        mapped = mapped / np.linalg.norm(mapped, axis=1, keepdims=True) + self._offset
        unit: npt.NDArray[np.float32] = (
            mapped / np.linalg.norm(mapped, axis=1, keepdims=True)
        ).astype(np.float32)
        return unit


@pytest.fixture(scope="module", params=["minilm", "anisotropic"])
def household(
    request: pytest.FixtureRequest, memory: Memory
) -> Iterator[tuple[Memory, dict[str, str]]]:
    """The memory in a database of its own, embedded by the parametrised embedder; and the
    stored id of each belief by its name here."""
    try:
        minilm = embedder_from_name("minilm")
    except EmbedderUnavailableError as exc:
        pytest.skip(f"MiniLM is not installed here: {exc}")
    embedder: Embedder = minilm if request.param == "minilm" else Anisotropic(minilm)
    beliefs = {
        name: {"statement": statement, "subject": name} for name, statement in BELIEFS.items()
    }
    with named_memory(
        memory.uri, f"recallflow_name_peers_{request.param}", embedder, (TENANT, PRINCIPAL), beliefs
    ) as held:
        yield held


def _rendered(memory: Memory, goal: str) -> list[str]:
    request = RecallRequest(
        tenant_id=TENANT, principal_id=PRINCIPAL, working_state=WorkingState(goal=goal)
    )
    return list(memory.recall(request, persist_trace=False).rendered_ids)


def test_asking_about_a_named_person_what_the_memory_does_not_hold_renders_nothing(
    household: tuple[Memory, dict[str, str]],
) -> None:
    memory, ids = household
    names = {v: k for k, v in ids.items()}
    leaks = {q: [names[i] for i in got] for q in UNANSWERABLE if (got := _rendered(memory, q))}
    assert not leaks, f"{memory.embedder.name}: {leaks}"


@pytest.mark.parametrize(("question", "answer"), ANSWERABLE)
def test_a_question_about_the_person_the_memory_answers_still_finds_its_belief(
    household: tuple[Memory, dict[str, str]], question: str, answer: str
) -> None:
    memory, ids = household
    assert ids[answer] in _rendered(memory, question)
