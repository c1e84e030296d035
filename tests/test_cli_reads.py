"""The paged reads on the command line: ``recallflow episodes`` without a query reads the
event log in order, ``recallflow belief held`` what a surface may see now; each as text
(one item a line, then a line naming the ``--after`` of the next page) and as JSON (what
the Python API returns), and bad input refused in one line naming the flag."""

from __future__ import annotations

import inspect
import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import InvalidInputError, Memory
from recallflow.cli.args import EPISODE_KINDS, EXIT_FAILURE, EXIT_USAGE, PAGE_DEFAULT, PAGE_MAX
from recallflow.cli.main import main
from recallflow.ingestion import Beliefs, Episodes
from recallflow.models.store import EpisodeKind
from tests.helpers import belief

PRINCIPAL = "ada"
#: System time late enough to know what a test wrote (``--known-as-of`` is ``--as-of``'s
#: time unless given, and the log was recorded when the test ran).
KNOWN_NOW = ["--known-as-of", "2100-01-01T00:00:00Z"]
START = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)
#: (id, minutes after START, session, project, kind, sensitivity, content): ids out of
#: time order, two episodes of one instant (kept in the order stored), one personal.
LOG = [
    ("ep-z", 0, "s-pairing", None, "message", "internal", "Ada: let's store prices as cents."),
    ("ep-a", 1, "s-pairing", "billing", "message", "internal", "Grace: integer cents."),
    ("ep-m", 1, "s-pairing", "billing", "tool_call", "internal", "ran the money tests"),
    ("ep-b", 5, None, "billing", "observation", "personal", "Ada sounded tired today."),
    ("ep-y", 9, "s-deploy", None, "message", "internal", "Ada: tabs\x1b[2J please."),
]


@pytest.fixture
def log(memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """LOG in a tenant of its own, the store named by RECALLFLOW_DSN with its embedder."""
    memory.episodes.add_many(
        [
            {
                "tenant_id": tenant,
                "principal_id": PRINCIPAL,
                "id": episode_id,
                "occurred_at": START + timedelta(minutes=minutes),
                "session_id": session,
                "project": project,
                "kind": kind,
                "sensitivity": sensitivity,
                "content": content,
            }
            for episode_id, minutes, session, project, kind, sensitivity, content in LOG
        ]
    )
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    monkeypatch.setenv("RECALLFLOW_DSN", memory.uri)
    return tenant


@pytest.fixture
def held(memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """Beliefs of every kind a filter tells apart, in a tenant of their own."""
    drafts = [
        belief(tenant, PRINCIPAL, id="b-cents", statement="Prices are integer cents.",
               subject="money", scope="project", origin_project="billing",
               entities=["billing-api"]),
        belief(tenant, PRINCIPAL, id="b-terse", statement="Ada likes terse answers.",
               subject="answer style", belief_type="preference"),
        belief(tenant, PRINCIPAL, id="b-fly", statement="Deploys go through Fly.io.",
               subject="billing deploy target", entities=["Fly.io"]),
        belief(tenant, PRINCIPAL, id="b-secret", statement="The vault key is in 1Password.",
               subject="vault key", sensitivity="secret"),
        belief(tenant, PRINCIPAL, id="b-old", statement="Ada used spaces.",
               subject="indentation", belief_type="preference"),
    ]  # fmt: skip
    memory.beliefs.add_many(drafts)
    memory.retire(tenant, PRINCIPAL, "b-old", reason="she switched to tabs")
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    monkeypatch.setenv("RECALLFLOW_DSN", memory.uri)
    return tenant


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The command's exit code, stdout and stderr (a refusal of the parser included)."""
    try:
        code = main(list(args))
    except SystemExit as stop:
        code = int(str(stop.code))
    out, err = capsys.readouterr()
    return code, out, err


def who(tenant: str) -> list[str]:
    return ["--tenant", tenant, "--principal", PRINCIPAL]


def listed(out: str) -> list[str]:
    """The ids of a text listing, in the order printed."""
    return re.findall(r"^\[(\S+)\]", out, re.MULTILINE)


def next_after(out: str) -> str | None:
    """The ``--after`` a listing's last line names for the next page, if it names one."""
    found = re.search(r"--after (\S+)\)$", out.rstrip("\n").splitlines()[-1])
    return found.group(1) if found else None


def paged(capsys: pytest.CaptureFixture[str], *args: str) -> list[list[str]]:
    """Every page of a listing, each read with the ``--after`` the page before named, until
    a page names none or comes back empty."""
    pages: list[list[str]] = []
    after: list[str] = []
    while True:
        code, out, err = run(capsys, *args, *after)
        assert code == 0, err
        ids = listed(out)
        if not ids:
            return pages
        pages.append(ids)
        last = next_after(out)
        if last is None:
            return pages
        assert last == ids[-1], out
        after = ["--after", last]
        assert len(pages) <= len(LOG) + 5, pages  # a page that never ends is a bug


# --- episodes without a query: the log in order ---------------------------------------------


def test_episodes_without_a_query_reads_the_log_in_the_order_it_happened(
    log: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``recallflow episodes`` took only a ranked search: the log in order (a session's
    transcript, what happened since) was readable only from Python. Without a QUERY it is
    the log, oldest first, one episode a line, and the last line says how many."""
    code, out, err = run(capsys, "episodes", *who(log))
    assert code == 0 and err == ""
    in_order = ["ep-z", "ep-a", "ep-m", "ep-b", "ep-y"]
    assert listed(out) == in_order
    lines = out.splitlines()
    assert lines[0].split()[1:3] == ["2026-09-01T09:00:00Z", "message"]
    assert "session s-pairing, project billing: Grace: integer cents." in lines[1]
    assert "\\x1b[2J" in out and "\x1b" not in out  # stored text never drives the terminal
    assert lines[-1].startswith(f"5 episodes of {log}/{PRINCIPAL}, oldest first")
    assert next_after(out) == "ep-y"  # what occurs later follows the last one

    code, out, _ = run(capsys, "episodes", *who(log), "--json")
    episodes = json.loads(out)
    assert code == 0 and [e["id"] for e in episodes] == in_order
    assert episodes[1] | {"recorded_at": None} == {
        "id": "ep-a",
        "tenant_id": log,
        "principal_id": PRINCIPAL,
        "project": "billing",
        "session_id": "s-pairing",
        "occurred_at": "2026-09-01T09:01:00Z",
        "kind": "message",
        "content": "Grace: integer cents.",
        "sensitivity": "internal",
        "recorded_at": None,
    }

    code, out, _ = run(capsys, "episodes", *who(log), "--newest-first", "--limit", "1")
    assert code == 0 and listed(out) == ["ep-y"]
    assert "latest first (more may follow: the next page is --after ep-y)" in out
    # With a QUERY it is the ranked archival search it always was.
    code, out, _ = run(capsys, "episodes", "integer cents", *who(log), "--json")
    assert code == 0 and {"block", "items", "trace"} <= set(json.loads(out))


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--session", "s-pairing"], ["ep-z", "ep-a", "ep-m"]),
        (["--project", "billing"], ["ep-a", "ep-m", "ep-b"]),
        (["--kind", "message"], ["ep-z", "ep-a", "ep-y"]),
        (["--surface", "team"], ["ep-z", "ep-a", "ep-m", "ep-y"]),  # not the personal one
        (["--since", "2026-09-01T09:05:00Z"], ["ep-b", "ep-y"]),
        (["--as-of", "2026-09-01T09:01:00Z", *KNOWN_NOW], ["ep-z", "ep-a", "ep-m"]),
        (["--as-of", "2026-09-01T11:01:00+02:00", *KNOWN_NOW], ["ep-z", "ep-a", "ep-m"]),
        (["--as-of", "2026-09-01T09:01:00Z"], []),  # as known then: not yet recorded
        (["--known-as-of", "2026-01-01T00:00:00Z"], []),  # recorded later than that
        (["--after", "ep-a"], ["ep-m", "ep-b", "ep-y"]),
        (["--newest-first", "--after", "ep-b"], ["ep-m", "ep-a", "ep-z"]),
    ],
)
def test_the_log_is_narrowed_by_each_flag_as_the_api_narrows_it(
    log: str,
    memory: Memory,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    expected: list[str],
) -> None:
    code, out, err = run(capsys, "episodes", *who(log), *flags, "--json")
    assert (code, err) == (0, ""), err
    assert [e["id"] for e in json.loads(out)] == expected
    code, out, _ = run(capsys, "episodes", *who(log), *flags)
    assert code == 0 and listed(out) == expected
    assert out.splitlines()[-1].startswith(f"{len(expected)} episode")


def test_an_archival_search_takes_since_as_the_api_does(
    log: str, memory: Memory, capsys: pytest.CaptureFixture[str]
) -> None:
    """``episodes QUERY`` had no ``--since`` (refused as a log flag) though the search the
    Python API runs takes one: "what was said about cents since 09:01" found the earlier
    episode too. The window is the request's, so the episodes before it are never found."""
    query = "cents"

    def found(*flags: str) -> list[str]:
        code, out, err = run(capsys, "episodes", query, *who(log), *flags, "--json")
        assert (code, err) == (0, ""), err
        return [item["episode_id"] for item in json.loads(out)["items"]]

    assert found() == ["ep-a", "ep-z"]
    since = START + timedelta(minutes=1)
    bounded = found("--since", since.isoformat())
    assert bounded == ["ep-a"]
    api = memory.search_episodes(
        {"tenant_id": log, "principal_id": PRINCIPAL, "query": query, "since": since}
    )
    assert bounded == [item.episode_id for item in api.items]
    assert found("--since", (START + timedelta(minutes=10)).isoformat()) == []
    code, out, _ = run(capsys, "episodes", query, *who(log), "--since", since.isoformat())
    assert code == 0 and "Grace: integer cents." in out and "let's store prices" not in out


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(limit=st.integers(1, len(LOG) + 1), newest_first=st.booleans())
def test_following_each_pages_after_reads_the_whole_log_once_in_order(
    log: str, memory: Memory, capsys: pytest.CaptureFixture[str], limit: int, newest_first: bool
) -> None:
    """Whatever the page size, the pages the last lines lead to are the log in order, each
    episode once, every page but the last full."""
    order = ["--newest-first"] if newest_first else []
    pages = paged(capsys, "episodes", *who(log), "--limit", str(limit), *order)
    whole = memory.episodes.logged(log, PRINCIPAL, newest_first=newest_first, limit=PAGE_MAX)
    assert [i for page in pages for i in page] == [e.id for e in whole]
    assert all(len(page) == limit for page in pages[:-1]), pages


def test_an_after_that_names_no_episode_exits_1_naming_the_flag(
    log: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A forgotten or mistyped cursor is not the end of the log: exit 1, one line."""
    code, out, err = run(capsys, "episodes", *who(log), "--after", "ep-gone")
    assert (code, out, err.count("\n")) == (EXIT_FAILURE, "", 1), err
    assert err.startswith("recallflow episodes: error: --after: no episode 'ep-gone'")


# --- belief held: what a surface may see now ------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        ([], ["b-cents", "b-fly", "b-terse"]),  # not the secret one, nor the retired one
        (["--surface", "vault"], ["b-cents", "b-fly", "b-secret", "b-terse"]),
        (["--type", "preference"], ["b-terse"]),
        (["--entity", "Fly.io"], ["b-fly"]),
        (["--entity", "fly-io"], []),  # an entity is read as an entity is
        (["--project", "billing"], ["b-cents"]),
        (["--subject", "Deploy Target"], ["b-fly"]),
        (["--after", "b-cents"], ["b-fly", "b-terse"]),
        (["--as-of", "2024-01-01T00:00:00Z"], []),  # recorded in 2025
    ],
)
def test_belief_held_lists_what_a_surface_may_see_filtered(
    held: str,
    memory: Memory,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    expected: list[str],
) -> None:
    """``belief list`` printed every belief whatever its state, and nothing printed what
    a surface may see now: ``belief held`` does, with the API's filters."""
    code, out, err = run(capsys, "belief", "held", *who(held), *flags, "--json")
    assert (code, err) == (0, ""), err
    assert [b["id"] for b in json.loads(out)] == expected
    code, out, _ = run(capsys, "belief", "held", *who(held), *flags)
    assert code == 0 and listed(out) == expected
    assert out.splitlines()[-1].endswith("(the last page)")


def test_belief_held_pages_with_the_after_its_last_line_names(
    held: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "belief", "held", *who(held), "--limit", "2")
    assert code == 0 and listed(out) == ["b-cents", "b-fly"]
    assert out.splitlines()[0].split()[1:3] == ["active", "billing:"]
    assert out.splitlines()[-1] == (
        f"2 beliefs of {held}/{PRINCIPAL} the direct surface may see now"
        " (more may follow: the next page is --after b-fly)"
    )
    pages = paged(capsys, "belief", "held", *who(held), "--surface", "vault", "--limit", "2")
    assert pages == [["b-cents", "b-fly"], ["b-secret", "b-terse"]]


# --- bad input --------------------------------------------------------------------------------

T = ["--tenant", "t", "--principal", "p"]

#: A flag the form does not take, or values only judged together: refused before a store
#: (unreachable here) is opened, naming the flag.
REFUSED = {
    "a log flag beside a query": (["episodes", "q", *T, "--limit", "5"], "--limit"),
    "a session beside a query": (["episodes", "q", *T, "--session", "s-1"], "--session"),
    "newest first beside a query": (["episodes", "q", *T, "--newest-first"], "--newest-first"),
    "max items without a query": (["episodes", *T, "--max-items", "3"], "--max-items"),
    "max items 0 without a query": (["episodes", *T, "--max-items", "0"], "--max-items"),
    "since in the future": (["episodes", *T, "--since", "2999-01-01T00:00:00Z"], "--since"),
    "since after as-of": (
        ["episodes", *T, "--since", "2026-02-01T00:00:00Z", "--as-of", "2026-01-01T00:00:00Z"],
        "--since",
    ),
    "search since in the future": (
        ["episodes", "q", *T, "--since", "2999-01-01T00:00:00Z"],
        "--since",
    ),
    "search since after as-of": (
        ["episodes", "q", *T, "--since", "2026-02-01T00:00:00Z", "--as-of", "2026-01-01T00:00:00Z"],
        "--since",
    ),
    "two entities": (["belief", "held", *T, "--entity", "a", "--entity", "b"], "--entity"),
}

#: A malformed value, refused by the parser.
MALFORMED = {
    "log limit 0": (["episodes", *T, "--limit", "0"], "--limit"),
    "log limit over the most": (["episodes", *T, "--limit", str(PAGE_MAX + 1)], "--limit"),
    "log unknown kind": (["episodes", *T, "--kind", "chat"], "--kind"),
    "log bad after": (["episodes", *T, "--after", "ep 1"], "--after"),
    "log bad session": (["episodes", *T, "--session", "s 1"], "--session"),
    "log since without a zone": (["episodes", *T, "--since", "2026-01-01"], "--since"),
    "search since without a zone": (["episodes", "q", *T, "--since", "2026-01-01"], "--since"),
    "held limit": (["belief", "held", *T, "--limit", "many"], "--limit"),
    "held unknown type": (["belief", "held", *T, "--type", "opinion"], "--type"),
    "held subject of no letters": (["belief", "held", *T, "--subject", "!!!"], "--subject"),
    "held entity of no letters": (["belief", "held", *T, "--entity", " - "], "--entity"),
    "held bad after": (["belief", "held", *T, "--after", "b 1"], "--after"),
    "held bad project": (["belief", "held", *T, "--project", "a b"], "--project"),
}


@pytest.mark.parametrize(("args", "flag"), REFUSED.values(), ids=REFUSED.keys())
def test_a_flag_the_read_cannot_take_is_one_line_naming_it(
    args: list[str],
    flag: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RECALLFLOW_DSN", "postgresql://nobody@127.0.0.1:1/none")
    code, out, err = run(capsys, *args)
    assert (code, out, err.count("\n")) == (EXIT_USAGE, "", 1), err
    command = " ".join(args[:2] if args[0] == "belief" else args[:1])
    assert err.startswith(f"recallflow {command}: error: {flag}: "), err


@pytest.mark.parametrize(("args", "flag"), MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_value_of_a_read_is_one_line_naming_its_flag(
    args: list[str],
    flag: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RECALLFLOW_DSN", "postgresql://nobody@127.0.0.1:1/none")
    code, out, err = run(capsys, *args)
    assert (code, out, err.count("\n")) == (EXIT_USAGE, "", 1), err
    assert f"error: argument {flag}: " in err and "Traceback" not in err


def test_the_reads_flags_are_the_apis() -> None:
    """``--kind`` offers the episode kinds; ``--limit``'s default and most are the API's."""
    assert tuple(k.value for k in EpisodeKind) == EPISODE_KINDS
    for read in (Episodes.logged, Beliefs.held):
        assert inspect.signature(read).parameters["limit"].default == PAGE_DEFAULT


def test_the_most_a_page_holds_is_the_apis(log: str, memory: Memory) -> None:
    assert len(memory.episodes.logged(log, PRINCIPAL, limit=PAGE_MAX)) == len(LOG)
    assert memory.beliefs.held(log, PRINCIPAL, limit=PAGE_MAX) == []
    with pytest.raises(InvalidInputError) as refused:
        memory.episodes.logged(log, PRINCIPAL, limit=PAGE_MAX + 1)
    assert refused.value.field == "limit"
    with pytest.raises(InvalidInputError) as refused:
        memory.beliefs.held(log, PRINCIPAL, limit=PAGE_MAX + 1)
    assert refused.value.field == "limit"


def _sensitivities(document: object) -> list[object]:
    """Every value of a ``sensitivity`` key anywhere in a JSON document."""
    if isinstance(document, dict):
        found = [v for k, v in document.items() if k == "sensitivity"]
        return found + [s for v in document.values() for s in _sensitivities(v)]
    if isinstance(document, list):
        return [s for v in document for s in _sensitivities(v)]
    return []


def test_every_json_read_names_a_sensitivity_as_the_text_and_the_tools_do(
    held: str, log: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The JSON of the command line wrote a sensitivity as the number it is stored as
    (``3``), where its text lines, the agent tools and the docs name it (``secret``)."""
    names = {"public", "internal", "personal", "secret"}
    reads = [
        (["belief", "held", *who(held), "--surface", "vault"], {"internal", "secret"}),
        (["belief", "list", *who(held)], {"internal", "secret"}),
        (["belief", "history", "b-secret", *who(held)], {"secret"}),
        (["belief", "add", "Ada takes tea.", "--subject", "tea", "--sensitivity", "personal",
          *who(held)], {"personal"}),
        (["recall", "vault key", *who(held), "--surface", "vault"], {"secret"}),
        (["episodes", *who(log), "--surface", "vault"], {"internal", "personal"}),
    ]  # fmt: skip
    for args, expected in reads:
        code, out, err = run(capsys, *args, "--json")
        assert (code, err) == (0, ""), (args, err)
        found = _sensitivities(json.loads(out))
        assert found and set(found) <= names, (args, found)
        assert expected <= set(found), (args, found)
    code, out, _ = run(capsys, "belief", "list", *who(held))
    assert code == 0 and "secret" in out  # the text line names it the same way
