"""An id the principal does not hold is refused naming the argument that gave it, at every
entry point: the Python API's ``NotFoundError`` carries the field, a tool's ``not_found``
error its ``field``, and a command's one line the argument or flag typed. A trace, and a
belief named by an edge read or a restatement, were named so; a belief, session, episode,
miss hint or report named by any other call was not (field None, and a command printed
the bare message), so neither a program nor a model could tell which of its ids was
wrong."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from recallflow import Memory, NotFoundError
from recallflow.cli.main import main
from recallflow.tools import Toolset
from tests.helpers import belief, request


@pytest.fixture
def held(memory: Memory, tenant: str) -> str:
    """A principal holding one belief, one episode and one session; the trace id of a
    recall that showed the belief."""
    memory.beliefs.add(belief(tenant, id="b-held"))
    memory.episodes.add(
        {"tenant_id": tenant, "principal_id": "p1", "id": "e-held", "content": "Set up dark mode.",
         "occurred_at": "2026-01-01T09:00:00Z"}
    )  # fmt: skip
    return memory.recall(request(tenant, goal="dark mode")).trace_id


def _field(call: Callable[[], object]) -> str | None:
    with pytest.raises(NotFoundError) as refused:
        call()
    assert "-missing" in str(refused.value)
    return refused.value.field


def test_the_python_api_names_the_argument_of_a_missing_id(
    memory: Memory, tenant: str, held: str
) -> None:
    t, p = tenant, "p1"
    beliefs: dict[str, Callable[[], object]] = {
        "get": lambda: memory.beliefs.get(t, p, "b-missing"),
        "history": lambda: memory.beliefs.history(t, p, "b-missing"),
        "retract": lambda: memory.retract(t, p, "b-missing", "wrong"),
        "retire": lambda: memory.retire(t, p, "b-missing"),
        "expire": lambda: memory.expire(t, p, "b-missing"),
        "unflag": lambda: memory.unflag(t, p, "b-missing"),
        "corroborate": lambda: memory.corroborate(t, p, "b-missing", "proj", "e-held"),
        "forget_belief": lambda: memory.forget_belief(t, p, "b-missing"),
    }
    for name, call in beliefs.items():
        assert _field(call) == "belief_id", name
    sessions: dict[str, Callable[[], object]] = {
        "resume_session": lambda: memory.resume_session(t, p, "s-missing"),
        "end_session": lambda: memory.end_session(t, p, "s-missing"),
        "end_session at": lambda: memory.end_session(t, p, "s-missing", at="2026-01-01T00:00Z"),
    }
    for name, call in sessions.items():
        assert _field(call) == "session_id", name
    assert _field(lambda: memory.episodes.get(t, p, "e-missing")) == "episode_id"
    assert _field(lambda: memory.forget_episode(t, p, "e-missing")) == "episode_id"
    corroborated = lambda: memory.corroborate(t, p, "b-held", "proj", "e-missing")  # noqa: E731
    assert _field(corroborated) == "evidence"
    assert _field(lambda: memory.miss_hints.ack(t, p, "x-missing")) == "subject"
    assert _field(lambda: memory.miss_hints.ack_report(t, p, "m-missing")) == "report_id"
    # Nothing was written by any refusal.
    assert [b.id for b in memory.beliefs.list(t, p)] == ["b-held"]
    assert memory.beliefs.get(t, p, "b-held").corroboration_count == 1


def test_a_tool_names_the_argument_of_a_missing_belief_or_session(
    memory: Memory, tenant: str, held: str
) -> None:
    tools = Toolset(memory, tenant_id=tenant, principal_id="p1")
    calls: dict[str, tuple[dict[str, Any], str]] = {
        "belief_history": ({"belief_id": "b-missing"}, "belief_id"),
        "session_recall": ({"session_id": "s-missing", "goal": "dark mode"}, "session_id"),
        "resume_session": ({"session_id": "s-missing"}, "session_id"),
    }
    for name, (arguments, field) in calls.items():
        refused = tools.call(name, arguments)["error"]
        assert (refused["type"], refused["field"]) == ("not_found", field), name


@pytest.mark.parametrize(
    ("command", "named"),
    [
        (["belief", "history", "b-missing"], "belief_id"),
        (["unflag", "b-missing"], "belief_id"),
        (["session", "recall", "s-missing", "dark mode"], "session_id"),
        (["session", "show", "s-missing"], "session_id"),
        (["session", "end", "s-missing"], "session_id"),
        (["forget", "--belief", "b-missing", "--yes"], "--belief"),
        (["forget", "--episode", "e-missing", "--yes"], "--episode"),
        (["graph", "--trace", "tr-missing", "--out", "g.dot"], "--trace"),
    ],
)
def test_a_command_names_the_argument_of_a_missing_id(
    memory: Memory,
    tenant: str,
    held: str,
    command: list[str],
    named: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Any,
) -> None:
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    monkeypatch.setenv("RECALLFLOW_DSN", memory.uri)
    monkeypatch.chdir(tmp_path)
    code = main([*command, "--tenant", tenant, "--principal", "p1"])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.split(": error: ", 1)[1].startswith(f"{named}: no ")
