"""Only the same words held alike keep a one-word belief from clearing by its coverage
(see "Relevance floor" in docs/architecture.md).

A belief that holds fewer than ``floor.coverage_words`` of a query's words, the same as
another loaded candidate holds, picks none of them out and does not clear by its coverage
alone. Which words each holds was read from their rarity weight: two words each held by
two beliefs weigh alike, so "Which CI do we use?" in one project found its CI belief
sharing "CI" with the two beliefs that hold "use" (the other project's local CI belief,
never shown here, made "CI" as rare as "use"), and rendered nothing.
"""

from __future__ import annotations

import pytest

from recallflow import Memory
from recallflow.core.relevance import clearing_coverage, shared_words
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.stages import CandidateEvidence, TextCoverage
from tests.helpers import of_project
from tests.memories import memory_per_embedder

TENANT, PRINCIPAL = "workshop", "wren"


#: "CI" in two beliefs (one a local belief of another project), "use" in two others.
BELIEFS: dict[str, dict[str, object]] = {
    "ci-here": {
        "statement": "CI runs on GitHub Actions for every push.",
        "subject": "ci",
        **of_project("quarry", "contextual"),
    },
    "ci-elsewhere": {
        "statement": "CI runs on Buildkite with agents on a Hetzner server.",
        "subject": "ci",
        **of_project("tidepool", "local"),
    },
    "tabs": {"statement": "We use tabs for indentation in every file.", "subject": "indentation"},
    "spelling": {
        "statement": "Use British spelling in the docs and comments.",
        "subject": "spelling",
    },
    "commits": {
        "statement": "Commit messages are in the imperative mood.",
        "subject": "commit messages",
    },
}


workshop = memory_per_embedder(
    "recallflow_floor_shared_words", (TENANT, PRINCIPAL), BELIEFS, source_authority="user_stated"
)


@pytest.mark.parametrize("project", ["quarry", None])
def test_a_word_as_rare_as_one_held_alike_is_not_that_word(
    workshop: tuple[Memory, dict[str, str]], project: str | None
) -> None:
    memory, ids = workshop
    names = {stored: name for name, stored in ids.items()}
    result = memory.recall(
        RecallRequest(
            tenant_id=TENANT,
            principal_id=PRINCIPAL,
            project=project,
            working_state=WorkingState(goal="Which CI do we use?"),
        ),
        persist_trace=False,
    )
    rendered = [names[item.belief_id] for item in result.items]
    assert "ci-here" in rendered
    assert "ci-elsewhere" not in rendered


def test_two_words_of_one_rarity_are_told_apart_by_their_fingerprint() -> None:
    def holding(fingerprint: float) -> CandidateEvidence:
        return CandidateEvidence(
            cosines=(0.1,),
            texts=(
                TextCoverage(held=1.2, total=2.4, words_held=1, words=2, fingerprint=fingerprint),
            ),
        )

    ci, use = 1_234_567.0, -7_654_321.0
    alike = {"a": holding(ci), "b": holding(ci), "c": holding(use)}
    assert shared_words(alike, 2) == {0: frozenset({(1.2, ci)})}
    assert clearing_coverage(alike["c"], words=2, shared=shared_words(alike, 2)) == (0.5, 0.5)
    assert clearing_coverage(alike["a"], words=2, shared=shared_words(alike, 2)) == (0.5, 0.0)
    assert shared_words({"a": holding(ci), "c": holding(use)}, 2) == {}
