"""A ``local`` belief of another project is no neighbour here and knows no name here (see
"Transfer across projects" in docs/architecture.md).

Such a belief is never shown outside its origin, and the floor's comparisons across the
candidates already leave it out; but it still lent the candidates linked to it support
and adjacency, and a name written without a capital letter that only it held counted as
a name the memory knows. "Which database do we use for the app?" in one project ranked
a backup note linked to the other project's database belief above this project's own
answer; "is bruno allergic to penicillin?" rendered the user's own allergy because the
other project knows a Bruno, where "Is Bruno allergic to penicillin?" rendered nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from recallflow import Memory
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.result import RecallResult
from recallflow.models.store import BeliefEdge, EdgeRelation
from tests.helpers import embedder_or_skip, named_memory, of_project

TENANT, PRINCIPAL = "workshop", "wren"


#: Two projects' databases; a backup note of this project linked to the other's.
LINKED: dict[str, dict[str, object]] = {
    "db-here": {
        "statement": "The database is PostgreSQL 16, hosted on Render.",
        "subject": "database",
        **of_project("quarry", "contextual"),
    },
    "db-elsewhere": {
        "statement": "The app's database is a SQLite file in the user's data directory.",
        "subject": "database",
        **of_project("tidepool", "local"),
    },
    "backups": {
        "statement": "The app's data directory is backed up every night.",
        "subject": "backups",
        **of_project("quarry", "contextual"),
    },
    "commits": {
        "statement": "Commit messages are in the imperative mood.",
        "subject": "commit messages",
    },
    "tabs": {"statement": "We indent with tabs in every file.", "subject": "indentation"},
}

#: The user's allergy, and a Bruno only the other project knows.
NAMED: dict[str, dict[str, object]] = {
    "allergy": {"statement": "I am allergic to penicillin.", "subject": "allergy"},
    "bruno": {
        "statement": "Bruno reviews the pull requests of this repository.",
        "subject": "code review",
        **of_project("tidepool", "local"),
    },
    "commits": {
        "statement": "Commit messages are in the imperative mood.",
        "subject": "commit messages",
    },
    "coffee": {"statement": "I take my coffee black.", "subject": "coffee"},
}


@pytest.fixture(scope="module", params=["hashing", "minilm"])
def embedder_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def linked(memory: Memory, embedder_name: str) -> Iterator[tuple[Memory, dict[str, str]]]:
    """The linked memory in a database of its own, the backup note linked to the other
    project's database belief; and the stored id of each belief by its name here."""
    with named_memory(
        memory.uri,
        f"recallflow_transfer_neighbours_{embedder_name}",
        embedder_or_skip(embedder_name),
        (TENANT, PRINCIPAL),
        LINKED,
        source_authority="user_stated",
    ) as (mem, ids):
        mem.edges.add_many(
            [
                BeliefEdge(
                    tenant_id=TENANT,
                    principal_id=PRINCIPAL,
                    src_id=ids["db-elsewhere"],
                    dst_id=ids["backups"],
                    relation=EdgeRelation.RELATED,
                )
            ]
        )
        yield mem, ids


@pytest.fixture(scope="module")
def named(memory: Memory, embedder_name: str) -> Iterator[tuple[Memory, dict[str, str]]]:
    """The memory where only the other project knows Bruno."""
    with named_memory(
        memory.uri,
        f"recallflow_transfer_names_{embedder_name}",
        embedder_or_skip(embedder_name),
        (TENANT, PRINCIPAL),
        NAMED,
        source_authority="user_stated",
    ) as held:
        yield held


def _recall(memory: Memory, goal: str, project: str | None) -> RecallResult:
    return memory.recall(
        RecallRequest(
            tenant_id=TENANT,
            principal_id=PRINCIPAL,
            project=project,
            working_state=WorkingState(goal=goal),
        ),
        persist_trace=False,
    )


@pytest.mark.parametrize("project", ["quarry", None])
def test_a_local_belief_of_another_project_lifts_no_neighbour_above_the_answer(
    linked: tuple[Memory, dict[str, str]], project: str | None
) -> None:
    memory, ids = linked
    names = {stored: name for name, stored in ids.items()}
    result = _recall(memory, "Which database do we use for the app?", project)
    ranked = [names[c.belief_id] for c in result.trace.scored]
    assert ranked.index("db-here") < ranked.index("backups")
    rendered = [names[item.belief_id] for item in result.items]
    assert rendered[:1] in ([], ["db-here"])


@pytest.mark.parametrize("goal", ["is bruno allergic to penicillin?", "what is bruno allergic to?"])
def test_a_lowercase_name_only_another_projects_local_belief_holds_is_not_known_here(
    named: tuple[Memory, dict[str, str]], goal: str
) -> None:
    memory, _ = named
    assert _recall(memory, goal, "quarry").items == ()
    assert _recall(memory, goal.capitalize().replace("bruno", "Bruno"), "quarry").items == ()
