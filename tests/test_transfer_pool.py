"""A ``local`` belief of another project shapes nothing here (see "Transfer across
projects" in docs/architecture.md).

Such a belief does not hold outside its origin and is never shown there; yet it was still
read among the candidates whose evidence the floor compares. "Which CI do we use?" asked
in one project holds two words, and this project's own CI belief holds one of them,
"CI"; so did the other project's local CI belief, and a belief that holds the same one
word as another candidate does not clear by its coverage alone. This project's answer
rendered nothing because of a belief that could not be shown here, and outside both
projects the carried (contextual) belief was lost the same way.
"""

from __future__ import annotations

import pytest

from recallflow import Memory
from recallflow.models.request import RecallRequest, WorkingState
from tests.helpers import of_project
from tests.memories import memory_per_embedder

TENANT, PRINCIPAL = "workshop", "wren"


#: Two projects of one developer, a belief of each on the same matters.
BELIEFS: dict[str, dict[str, object]] = {
    "ci-here": {
        "statement": "CI runs on GitHub Actions for every push.",
        "subject": "ci",
        "entities": ["github-actions"],
        **of_project("quarry", "contextual"),
    },
    "ci-elsewhere": {
        "statement": "CI runs on Buildkite with agents on a Hetzner server.",
        "subject": "ci",
        "entities": ["buildkite"],
        **of_project("tidepool", "local"),
    },
    "database-here": {
        "statement": "The database is PostgreSQL 16, hosted on Render.",
        "subject": "database",
        **of_project("quarry", "contextual"),
    },
    "database-elsewhere": {
        "statement": "The database is a SQLite file in the user's data directory.",
        "subject": "database",
        **of_project("tidepool", "local"),
    },
    "commits": {
        "statement": "Commit messages are in the imperative mood.",
        "subject": "commit messages",
    },
}


workshop = memory_per_embedder(
    "recallflow_transfer_pool", (TENANT, PRINCIPAL), BELIEFS, source_authority="user_stated"
)


def _rendered(
    memory: Memory, ids: dict[str, str], goal: str, project: str | None
) -> list[tuple[str, str | None]]:
    """The names of the beliefs rendered for ``goal`` in ``project``, each with the origin
    its line names."""
    names = {stored: name for name, stored in ids.items()}
    result = memory.recall(
        RecallRequest(
            tenant_id=TENANT,
            principal_id=PRINCIPAL,
            project=project,
            working_state=WorkingState(goal=goal),
        ),
        persist_trace=False,
    )
    return [(names[item.belief_id], item.origin_project) for item in result.items]


@pytest.mark.parametrize(
    ("goal", "here"),
    [("Which CI do we use?", "ci-here"), ("What database do we use?", "database-here")],
)
def test_a_local_belief_of_another_project_does_not_hide_this_projects_answer(
    workshop: tuple[Memory, dict[str, str]], goal: str, here: str
) -> None:
    memory, ids = workshop
    assert _rendered(memory, ids, goal, "quarry") == [(here, None)]


@pytest.mark.parametrize("project", ["newsletter", None])
@pytest.mark.parametrize(
    ("goal", "carried"),
    [("Which CI do we use?", "ci-here"), ("What database do we use?", "database-here")],
)
def test_outside_both_projects_the_contextual_belief_carries_with_its_origin(
    workshop: tuple[Memory, dict[str, str]], goal: str, carried: str, project: str | None
) -> None:
    memory, ids = workshop
    assert _rendered(memory, ids, goal, project) == [(carried, "quarry")]
