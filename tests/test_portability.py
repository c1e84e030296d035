"""Export and import of a principal's whole memory (docs/portability.md), on the real
embedded PostgreSQL: what goes out comes back in another store as it was, nothing of
another principal goes with it, a refused import writes nothing, and what was imported
can still be erased whole."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import ConflictError, InvalidInputError, Memory, open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
from recallflow.adapters.postgres.erasure import principal_tables
from recallflow.adapters.postgres.portability import (
    DERIVED_TABLES,
    EXPORTED_TABLES,
    STORE_BOUND_TABLES,
)
from recallflow.cli.main import main
from recallflow.errors import ConfigurationError, ConstraintViolation
from recallflow.models.portability import EXPORT_FORMAT, SECTIONS, PrincipalExport
from recallflow.models.store import Episode, LifecycleState
from tests.helpers import made_home, patient_policy

#: Where the round trip's comparing recalls stand: after every write of the principal.
AS_OF = datetime(2030, 1, 1, tzinfo=UTC)
GOAL = (
    "Which shell and terminal theme does Ada use, and how are money amounts stored in"
    " cents? Which database does billing use?"
)


def _build(memory: Memory, tenant: str, principal: str) -> None:
    """A principal with every kind of record an export holds: a supersession chain, a
    conflict set, a belief rejected as not true, one rejected as not here, one cited, an
    expired, a retracted and a corroborated (promoted) belief, edges, episodes, an entity
    mark and miss hints."""
    who = {"tenant_id": tenant, "principal_id": principal}
    memory.episodes.add_many(
        [
            {**who, "id": "e-setup", "occurred_at": "2026-01-05T09:00:00Z",
             "content": "Setup call about Ada's tools.", "project": "billing-api"},
            {**who, "id": "e-review", "occurred_at": "2026-02-01T09:00:00Z",
             "content": "Code review of the invoice service.", "project": "mobile-app"},
            {**who, "id": "e-family", "occurred_at": "2026-02-03T09:00:00Z",
             "content": "Ada mentioned her sister Maria Lopez.", "sensitivity": "personal"},
        ]
    )  # fmt: skip
    user = {**who, "scope": "user", "belief_type": "preference", "source_episode_id": "e-setup"}
    billing = {**who, "scope": "project", "origin_project": "billing-api", "belief_type": "fact",
               "source_episode_id": "e-setup"}  # fmt: skip
    memory.beliefs.add_many(
        [
            {**user, "id": "b-vim", "statement": "Ada edits code in Vim.", "subject": "editor"},
            {**user, "id": "b-shell", "statement": "Ada's shell is zsh.", "subject": "shell",
             "entities": ["zsh", "shell"]},
            {**user, "id": "b-theme", "statement": "Ada uses a dark terminal theme.",
             "subject": "terminal-theme", "entities": ["terminal-theme"]},
            {**billing, "id": "b-money", "statement": "Money amounts are integer cents.",
             "subject": "money", "entities": ["cents"], "portability": "portable"},
            {**billing, "id": "b-deploy", "statement": "billing-api deploys with fly deploy.",
             "subject": "deploy", "portability": "local"},
            {**billing, "id": "b-db-pg", "statement": "The billing database is PostgreSQL.",
             "subject": "database", "state": "conflicted", "conflict_set_id": "cs-database"},
            {**billing, "id": "b-db-my", "statement": "The billing database is MySQL.",
             "subject": "database", "state": "conflicted", "conflict_set_id": "cs-database"},
            {**user, "id": "b-trial", "statement": "Ada is on the free trial plan.",
             "subject": "plan", "valid_from": "2026-01-01T00:00:00Z"},
            {**user, "id": "b-laptop", "statement": "Ada's laptop is a ThinkPad.",
             "subject": "laptop"},
            {**user, "id": "b-sister", "statement": "Ada's sister Maria Lopez lives in Lisbon.",
             "subject": "family", "entities": ["maria-lopez"], "sensitivity": "personal",
             "source_episode_id": "e-family"},
        ]
    )  # fmt: skip
    memory.supersede(
        "b-vim", {**user, "id": "b-neovim", "statement": "Ada uses Neovim.", "subject": "editor"}
    )
    memory.supersede(
        "b-neovim", {**user, "id": "b-helix", "statement": "Ada uses Helix.", "subject": "editor"}
    )
    memory.expire(tenant, principal, "b-trial", datetime(2026, 3, 1, tzinfo=UTC), "upgraded")
    memory.retract(tenant, principal, "b-laptop", "said by mistake")
    memory.corroborate(tenant, principal, "b-money", "mobile-app", "e-review")
    memory.edges.add_many(
        [
            {**who, "src_id": "b-money", "dst_id": "b-deploy", "relation": "related"},
            {**who, "src_id": "b-helix", "dst_id": "b-shell", "relation": "same_episode",
             "weight": 0.5},
        ]
    )  # fmt: skip
    memory.entities.mark(tenant, principal, "Maria Lopez", "personal")
    result = memory.recall(
        {**who, "project": "mobile-app",
         "working_state": {"goal": GOAL, "entities": ["cents", "zsh", "terminal-theme"]}},
        policy=patient_policy(),
    )  # fmt: skip
    shown = set(result.rendered_ids)
    assert {"b-shell", "b-theme", "b-money"} <= shown, shown
    memory.cite(tenant, principal, result.trace_id, ["b-money"])
    memory.reject(tenant, principal, result.trace_id, "b-shell", "not_true", note="never zsh")
    memory.reject(tenant, principal, result.trace_id, "b-theme", "not_here")
    for _ in range(3):  # a subject nothing answers, missed often enough to queue a hint
        memory.recall(
            {**who, "working_state": {"goal": "quasar spectroscopy telescope calibration"}},
            policy=patient_policy(),
        )


def _owned_by_nobody(export: PrincipalExport) -> dict[str, Any]:
    """The export without the instant it was made and without its owner, everywhere: what
    two exports of the same memory, perhaps under another name, share."""
    data = export.model_dump(mode="json", exclude={"exported_at", "tenant_id", "principal_id"})
    for section in ("beliefs", "edges", "episodes"):
        for item in data[section]:
            del item["tenant_id"], item["principal_id"]
    return data


@pytest.fixture(scope="module")
def source(memory: Memory) -> tuple[Memory, str, str]:
    """The session's store with one rich principal of a tenant of its own."""
    tenant, principal = f"t-{uuid.uuid4().hex[:12]}", "ada"
    _build(memory, tenant, principal)
    return memory, tenant, principal


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory, made_pgdata: Path) -> Iterator[Memory]:
    """A fresh store of its own, with the source's embedder."""
    home = made_home(made_pgdata, tmp_path_factory.mktemp("import-target") / "home")
    with open_memory(home=home, embedder=HashingEmbedder(), operator=True) as memory:
        yield memory


@pytest.fixture(scope="module")
def exported(source: tuple[Memory, str, str]) -> PrincipalExport:
    memory, tenant, principal = source
    return memory.export_principal(tenant, principal)


@pytest.fixture(scope="module")
def imported(exported: PrincipalExport, target: Memory) -> PrincipalExport:
    """The export, imported into the fresh store under the same tenant and principal (from
    its JSON, as a file carries it), and exported from there again."""
    done = target.import_principal(exported.model_dump_json())
    assert (done.tenant_id, done.principal_id) == (exported.tenant_id, exported.principal_id)
    return target.export_principal(exported.tenant_id, exported.principal_id)


def test_an_export_holds_every_record_of_the_principal(exported: PrincipalExport) -> None:
    assert exported.format == EXPORT_FORMAT
    states = {b.id: b.state for b in exported.beliefs}
    assert states == {
        "b-vim": LifecycleState.SUPERSEDED,
        "b-neovim": LifecycleState.SUPERSEDED,
        "b-helix": LifecycleState.ACTIVE,
        "b-shell": LifecycleState.RETIRED,
        "b-theme": LifecycleState.ACTIVE,
        "b-money": LifecycleState.ACTIVE,
        "b-deploy": LifecycleState.ACTIVE,
        "b-db-pg": LifecycleState.CONFLICTED,
        "b-db-my": LifecycleState.CONFLICTED,
        "b-trial": LifecycleState.EXPIRED,
        "b-laptop": LifecycleState.ACTIVE,
        "b-sister": LifecycleState.ACTIVE,
    }
    by_id = {b.id: b for b in exported.beliefs}
    assert by_id["b-vim"].superseded_by == "b-neovim" and by_id["b-helix"].supersedes == "b-neovim"
    assert by_id["b-laptop"].retracted_at is not None
    assert by_id["b-money"].corroborating_projects == ("mobile-app",)
    assert [e.id for e in exported.episodes] == ["e-setup", "e-review", "e-family"]
    assert len(exported.edges) == 2
    kinds = {(e.belief_id, e.kind) for e in exported.belief_events}
    assert {("b-vim", "superseded"), ("b-shell", "retired"), ("b-trial", "expired"),
            ("b-laptop", "retracted"), ("b-money", "corroborated")} <= kinds  # fmt: skip
    assert {(f.belief_id, f.kind) for f in exported.feedback} == {
        ("b-money", "cited"),
        ("b-shell", "rejected_not_true"),
        ("b-theme", "rejected_not_here"),
    }
    # The recall those name travels as its user-safe record, never its operator view.
    [trace] = exported.traces
    assert {f.trace_id for f in exported.feedback} == {trace.id} and trace.user_view
    assert [(x.belief_id, x.project) for x in exported.exclusions] == [("b-theme", "mobile-app")]
    assert [m.entity for m in exported.entity_marks] == ["maria-lopez"]
    assert exported.miss_hints and exported.miss_hints[0].miss_count >= 3
    # No vectors: the importing store embeds with its own embedder.
    assert '"embedding"' not in exported.model_dump_json()


def test_a_round_trip_through_a_fresh_store_gives_the_same_export(
    exported: PrincipalExport, imported: PrincipalExport
) -> None:
    """Ids, states, links, events and their order are as exported: the export of the
    imported principal is the export it came from."""
    assert imported.model_dump(exclude={"exported_at"}) == exported.model_dump(
        exclude={"exported_at"}
    )


def test_both_stores_recall_and_tell_the_history_alike(
    source: tuple[Memory, str, str], target: Memory, imported: PrincipalExport
) -> None:
    """With the same embedder, a recall at a fixed instant renders the same block in both
    stores (the exclusion, the conflict, the rejection and the corroboration all count),
    and a belief's history reads the same events in the same order."""
    memory, tenant, principal = source
    for project in ("mobile-app", "billing-api"):
        request = {
            "tenant_id": tenant,
            "principal_id": principal,
            "project": project,
            "as_of": AS_OF,
            "working_state": {"goal": GOAL, "entities": ["cents", "zsh"]},
        }
        policy = patient_policy()
        here = memory.recall(request, policy=policy, persist_trace=False)
        there = target.recall(request, policy=policy, persist_trace=False)
        assert here.block and here.block == there.block
    for belief_id in ("b-neovim", "b-shell", "b-money", "b-theme"):
        mine = memory.beliefs.history(tenant, principal, belief_id)
        theirs = target.beliefs.history(tenant, principal, belief_id)
        assert theirs == mine
    # The recall a rejection names is explained alike: the user-safe record travelled.
    [trace] = imported.traces
    for viewer in ("direct", "public"):
        mine_view = memory.explain(tenant, principal, trace.id, viewer_surface=viewer)
        assert target.explain(tenant, principal, trace.id, viewer_surface=viewer) == mine_view


def test_a_rejection_survives_a_re_derivation_in_the_importing_store(
    target: Memory, imported: PrincipalExport
) -> None:
    """``b-shell`` was rejected as not true in the source: formation deriving the same
    sentence from the same episode in the new store does not bring it back."""
    tenant, principal = imported.tenant_id, imported.principal_id
    draft = {
        "tenant_id": tenant,
        "principal_id": principal,
        "id": f"b-again-{uuid.uuid4().hex[:6]}",
        "statement": "Ada's shell is zsh.",
        "subject": "shell",
        "scope": "user",
        "belief_type": "preference",
        "confidence": 0.9,
        "source_episode_id": "e-setup",
    }
    [outcome] = target.rederive(tenant, principal, [draft]).outcomes
    assert outcome.action == "corrected" and "rejected_not_true" in outcome.replayed
    assert target.beliefs.get(tenant, principal, outcome.belief_id).state is LifecycleState.RETIRED
    shown = target.recall(
        {"tenant_id": tenant, "principal_id": principal,
         "working_state": {"goal": "Which shell does Ada use?", "entities": ["zsh"]}},
        policy=patient_policy(), persist_trace=False,
    )  # fmt: skip
    assert "zsh" not in shown.block


def test_an_import_can_be_re_homed_and_then_forgotten_whole(
    exported: PrincipalExport, target: Memory
) -> None:
    """Imported as another tenant's principal, the memory is the same but for its owner;
    ``forget`` then erases all of it, as of any principal."""
    tenant, principal = f"t-{uuid.uuid4().hex[:12]}", "ada-moved"
    done = target.import_principal(exported, tenant_id=tenant, principal_id=principal)
    assert (done.tenant_id, done.principal_id) == (tenant, principal)
    assert done.written["beliefs"] == len(exported.beliefs)
    moved = target.export_principal(tenant, principal)
    assert _owned_by_nobody(moved) == _owned_by_nobody(exported)
    erasure = target.forget(tenant, principal)
    assert erasure.deleted["beliefs"] == len(exported.beliefs)
    assert erasure.deleted["feedback_events"] == len(exported.feedback)
    assert target.export_principal(tenant, principal).empty


def _store_state(memory: Memory, tenant: str, principal: str) -> tuple[Any, ...]:
    return (
        memory.summary(),
        memory.export_principal(tenant, principal).model_dump(exclude={"exported_at"}),
    )


def _mutated(export: PrincipalExport, section: str, index: int, **fields: Any) -> dict[str, Any]:
    data = export.model_dump(mode="json")
    data[section][index].update(fields)
    return data


def test_a_refused_import_writes_nothing(exported: PrincipalExport, target: Memory) -> None:
    """Every refusal names what is wrong and leaves the target as it was: an unknown
    format, a malformed item, a reference the export does not hold, an item of another
    principal, ids the target holds, and a row the database refuses midway (the
    transaction rolls back the rows written before it)."""
    tenant, principal = f"t-{uuid.uuid4().hex[:12]}", "ada"
    target.import_principal(exported, tenant_id=tenant)  # what the target holds already
    before = _store_state(target, tenant, principal)
    fresh = f"t-{uuid.uuid4().hex[:12]}"
    refusals: list[tuple[Any, str | None, type[Exception], str]] = [
        ({**exported.model_dump(mode="json"), "format": "recallflow.principal/9"}, fresh,
         InvalidInputError, "field 'format'"),
        (exported.model_dump(mode="json") | {"format": None}, fresh, InvalidInputError,
         "unknown export format"),
        (_mutated(exported, "beliefs", 3, confidence=2), fresh, InvalidInputError,
         "item 3, id 'b-helix', field 'beliefs.confidence'"),
        (_mutated(exported, "edges", 0, dst_id="b-elsewhere"), fresh, InvalidInputError,
         "item 0, field 'edges.dst_id': names belief 'b-elsewhere', which the export lacks"),
        (_mutated(exported, "episodes", 1, principal_id="bob"), fresh, InvalidInputError,
         "field 'episodes.principal_id'"),
        (exported, tenant, ConflictError, "field 'beliefs.id'"),
        ("{not json", fresh, InvalidInputError, "field 'export': is not JSON"),
        ([], fresh, InvalidInputError, "field 'export'"),
    ]  # fmt: skip
    # A citation listed twice is refused by the document's check of what the store
    # records once (one citation per trace and belief), before anything is written.
    twice = exported.model_dump(mode="json")
    twice["feedback"].append(twice["feedback"][0])
    refusals.append(
        (twice, fresh, InvalidInputError, f"item {len(exported.feedback)}, field 'feedback.kind'")
    )
    for document, into, error, words in refusals:
        with pytest.raises(error) as caught:
            target.import_principal(document, tenant_id=into)
        assert words in str(caught.value), str(caught.value)
        assert target.export_principal(fresh, principal).empty
    assert _store_state(target, tenant, principal) == before


def test_a_principal_with_nothing_is_an_empty_export_and_bad_ids_are_refused(
    memory: Memory,
) -> None:
    export = memory.export_principal(f"t-{uuid.uuid4().hex[:12]}", "nobody")
    assert export.empty and export.format == EXPORT_FORMAT
    with pytest.raises(InvalidInputError, match="principal_id"):
        memory.export_principal("acme", "not an id")
    with pytest.raises(InvalidInputError, match="tenant_id"):
        memory.export_principal("", "ada")


def test_an_export_is_one_snapshot(
    memory: Memory, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A supersession committed while the export reads (after its beliefs, before its
    events) is in none of it: the export never holds an event naming a belief it lacks,
    nor a predecessor marked superseded by a successor it does not hold."""
    who = {"tenant_id": tenant, "principal_id": "ada"}
    shell = {**who, "subject": "shell", "scope": "user"}
    memory.episodes.add({**who, "id": "e-1", "occurred_at": "2026-01-01T00:00:00Z",
                         "content": "setup call"})  # fmt: skip
    memory.beliefs.add({**shell, "id": "b-bash", "statement": "Ada's shell is bash."})
    original = Episode.model_validate
    written: list[str] = []

    def meanwhile(row: Any) -> Any:
        if not written:  # once, between the export's read of beliefs and of events
            memory.supersede("b-bash", {**shell, "id": "b-zsh", "statement": "Ada uses zsh."})
            written.append("b-zsh")
        return original(row)

    monkeypatch.setattr(Episode, "model_validate", meanwhile)
    export = memory.export_principal(tenant, "ada")
    monkeypatch.undo()
    assert written == ["b-zsh"]
    assert [(b.id, b.state, b.superseded_by) for b in export.beliefs] == [
        ("b-bash", LifecycleState.ACTIVE, None)
    ]
    assert export.belief_events == ()
    after = memory.export_principal(tenant, "ada")
    assert {b.id for b in after.beliefs} == {"b-bash", "b-zsh"} and after.belief_events


# --- isolation ------------------------------------------------------------------------

_WORDS = st.sampled_from(["deploy", "cents", "zsh", "helix", "lisbon", "kafka", "rust"])


@settings(max_examples=6, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    principals=st.lists(
        st.lists(st.tuples(st.sampled_from(["b-1", "b-2", "b-3"]), _WORDS), min_size=1,
                 max_size=3, unique_by=lambda pair: pair[0]),
        min_size=2, max_size=3,
    ),
)  # fmt: skip
def test_an_export_holds_nothing_of_another_principal_or_tenant(
    memory: Memory, principals: list[list[tuple[str, str]]]
) -> None:
    """Principals of one tenant that share belief and episode ids, and the same principal
    ids in another tenant: each export holds its own principal's records and nothing else."""
    tenants = [f"t-{uuid.uuid4().hex[:12]}", f"t-{uuid.uuid4().hex[:12]}"]
    written: dict[tuple[str, str], set[str]] = {}
    for tenant in tenants:
        for n, beliefs in enumerate(principals):
            principal = f"p{n}"
            who = {"tenant_id": tenant, "principal_id": principal}
            memory.episodes.add({**who, "id": "e-1", "occurred_at": "2026-01-01T00:00:00Z",
                                 "content": f"{tenant} {principal} said things."})  # fmt: skip
            statements = set()
            for belief_id, word in beliefs:
                statement = f"{tenant} {principal} uses {word} ({belief_id})."
                memory.beliefs.add({**who, "id": belief_id, "statement": statement,
                                    "subject": word, "scope": "user",
                                    "source_episode_id": "e-1"})  # fmt: skip
                statements.add(statement)
            ids = [b for b, _ in beliefs]
            if len(ids) > 1:
                memory.edges.add({**who, "src_id": ids[0], "dst_id": ids[1]})
            memory.entities.mark(tenant, principal, f"{tenant}-{principal}", "secret")
            written[(tenant, principal)] = statements
    for (tenant, principal), statements in written.items():
        export = memory.export_principal(tenant, principal)
        owners = {(i.tenant_id, i.principal_id) for s in ("beliefs", "edges", "episodes")
                  for i in getattr(export, s)}  # fmt: skip
        assert owners == {(tenant, principal)}
        assert {b.statement for b in export.beliefs} == statements
        assert [e.content for e in export.episodes] == [f"{tenant} {principal} said things."]
        assert [m.entity for m in export.entity_marks] == [f"{tenant}-{principal}"]
        text = export.model_dump_json()
        others = {t for t in tenants if t != tenant}
        assert not any(other in text for other in others)


# --- every table the erasure reaches ---------------------------------------------------


def test_every_table_holding_a_principal_is_exported_derived_or_left_out_on_purpose(
    memory: Memory,
) -> None:
    """The erasure finds the tables holding a principal's rows in the catalog; each one is
    exactly one of: exported, derived by the importing store, bound to its store. A table
    added without deciding which is caught here, not found missing from a user's export."""
    with psycopg.connect(memory.uri) as conn:
        tables = set(principal_tables(conn))
    kinds = [EXPORTED_TABLES, DERIVED_TABLES, STORE_BOUND_TABLES]
    assert set().union(*kinds) == tables
    assert sum(len(kind) for kind in kinds) == len(tables)  # none in two


def test_a_table_the_export_does_not_know_stops_it(fresh_home: Path) -> None:
    """A table of principals' rows that this release knows nothing of: the export refuses
    to run rather than hand the user a copy that silently lacks those rows."""
    with open_memory(home=fresh_home, embedder=HashingEmbedder()) as memory:
        with psycopg.connect(memory.uri, autocommit=True) as conn:
            conn.execute(
                "CREATE TABLE principal_notes (tenant_id text NOT NULL,"
                " principal_id text NOT NULL, note text)"
            )
        with pytest.raises(ConfigurationError, match="principal_notes"):
            memory.export_principal("acme", "ada")


# --- the command line -----------------------------------------------------------------


def test_export_and_import_from_the_command_line(
    source: tuple[Memory, str, str],
    target: Memory,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    memory, tenant, principal = source
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    who = ["--tenant", tenant, "--principal", principal]
    assert main(["export", *who, "--dsn", memory.uri]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["format"] == EXPORT_FORMAT and len(printed["beliefs"]) == 12
    out = tmp_path / "ada.json"
    assert main(["export", *who, "--dsn", memory.uri, "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["counts"]["beliefs"] == 12 and out.stat().st_mode & 0o077 == 0
    moved = f"t-{uuid.uuid4().hex[:12]}"
    assert main(["import", str(out), "--tenant", moved, "--dsn", target.uri]) == 0
    assert f"imported into {moved}/{principal}:" in capsys.readouterr().out
    assert len(target.export_principal(moved, principal).beliefs) == 12
    # Again: every id is there now. One line, exit 2, nothing written.
    assert main(["import", str(out), "--tenant", moved, "--dsn", target.uri]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already stored" in err and "beliefs.id" in err
    assert main(["import", str(tmp_path / "none.json"), "--dsn", target.uri]) == 2
    assert "cannot read it" in capsys.readouterr().err


def test_an_export_piped_in_latin_1_is_refused_as_not_utf8_like_the_same_file(
    exported: PrincipalExport, target: Memory, tmp_path: Path
) -> None:
    """``import -`` read stdin with the locale's decoder: under a C or POSIX locale a byte
    that is not UTF-8 came through as a lone surrogate, and the export was refused deep
    inside, naming a statement ("contains a lone surrogate"), where the same bytes from a
    file were refused as not UTF-8. Piped or named, it is one line saying so, and nothing
    is written."""
    import subprocess
    import sys

    moved = f"t-{uuid.uuid4().hex[:12]}"
    document = json.loads(exported.model_dump_json())
    document["beliefs"][0]["statement"] = "MARK " + document["beliefs"][0]["statement"]
    # ASCII JSON but for one Latin-1 byte: "café" as an editor in that encoding saves it.
    latin = json.dumps(document).replace("MARK", "caf\u00e9", 1).encode("latin-1")
    path = tmp_path / "latin.json"
    path.write_bytes(latin)
    env = {**os.environ, "RECALLFLOW_EMBEDDER": "hashing", "LC_ALL": "C", "LANG": "C"}
    env.pop("PYTHONUTF8", None)
    lines = []
    for source, stdin in (("-", latin), (str(path), b"")):
        done = subprocess.run(
            [sys.executable, "-m", "recallflow.cli.main", "import", source, "--tenant", moved,
             "--dsn", target.uri],
            input=stdin, capture_output=True, env=env, timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode == 2 and done.stdout == b"", done
        lines.append(done.stderr.decode().replace(f"error: {source}:", "error: FILE:", 1))
    refused = "recallflow import: error: FILE: is not UTF-8 text (an export is JSON)\n"
    assert lines[0] == lines[1] == refused
    assert target.export_principal(moved, exported.principal_id).empty


def test_the_line_an_export_to_a_file_prints_counts_every_section(
    source: tuple[Memory, str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The line after ``export --out`` counted beliefs, episodes, edges, events and feedback
    only: the entity marks, exclusions, miss hints and recalls the file also holds were not
    named, so whoever checked it before an erasure could not tell they were in it."""
    memory, tenant, principal = source
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    export = memory.export_principal(tenant, principal)
    out = tmp_path / "ada.json"
    who = ["--tenant", tenant, "--principal", principal, "--dsn", memory.uri, "--out", str(out)]
    assert main(["export", *who, "--json"]) == 0
    counts = json.loads(capsys.readouterr().out)["counts"]
    assert counts == {name: len(getattr(export, name)) for name in SECTIONS}
    assert all(counts[name] > 0 for name in ("entity_marks", "exclusions", "miss_hints", "traces"))
    assert main(["export", *who]) == 0
    line = capsys.readouterr().out
    assert all(f"{name} {n}" in line for name, n in counts.items())


def test_an_export_to_a_directory_that_does_not_exist_is_refused_before_the_store_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--out`` in a missing directory was found only after the export was read, as exit
    1 and an error naming a temporary file; a directory named as the file likewise."""
    who = ["--tenant", "acme", "--principal", "ada", "--dsn", "postgresql://nowhere.invalid/x"]
    for out, says in (
        (tmp_path / "missing" / "ada.json", "there is no directory"),
        (tmp_path, "is a directory; name a file"),
    ):
        with pytest.raises(SystemExit) as exited:
            main(["export", *who, "--out", str(out)])
        err = capsys.readouterr().err
        assert exited.value.code == 2 and err.count("\n") == 1
        assert err.startswith("recallflow export: error: argument --out: ") and says in err
        assert ".partial" not in err


def test_an_import_does_not_bring_back_what_the_principal_forgot(
    memory: Memory, tenant: str
) -> None:
    """An export taken before ``forget_belief`` or ``forget_episode``, imported back into
    the principal (a restore after a later ``forget`` of the whole principal, or an edited
    export of the erased items alone), wrote the erased belief and episode again: an
    erasure undone by a copy. Each is refused as a ``ConflictError`` naming the item,
    nothing written; what the user wrote again on purpose after the erasure is not what
    was erased, and imports."""
    who = {"tenant_id": tenant, "principal_id": "ada"}
    memory.episodes.add({**who, "id": "e-pin", "occurred_at": "2026-01-05T09:00:00Z",
                         "content": "Ada read out her bank PIN."})  # fmt: skip
    memory.beliefs.add_many(
        [
            {**who, "id": "b-pin", "statement": "Ada's bank PIN is 4711.", "subject": "pin",
             "scope": "user", "source_episode_id": "e-pin"},
            {**who, "id": "b-shell", "statement": "Ada's shell is zsh.", "subject": "shell",
             "scope": "user"},
        ]
    )  # fmt: skip
    before_erasure = memory.export_principal(tenant, "ada")
    memory.forget_belief(tenant, "ada", "b-pin")
    memory.forget_episode(tenant, "ada", "e-pin")

    erased_only = before_erasure.model_dump(mode="json")
    erased_only["beliefs"] = [b for b in erased_only["beliefs"] if b["id"] == "b-pin"]
    erased_only["belief_events"] = [
        e for e in erased_only["belief_events"] if e["belief_id"] == "b-pin"
    ]
    erased_only["beliefs"][0]["source_episode_id"] = None
    erased_only["episodes"] = []
    with pytest.raises(ConflictError) as caught:
        memory.import_principal(erased_only)
    assert (caught.value.field, caught.value.item_id) == ("beliefs.id", "b-pin")
    assert "forgotten" in str(caught.value)
    memory.forget(tenant, "ada")
    for section, item in (("beliefs", "b-pin"), ("episodes", "e-pin")):
        with pytest.raises(ConflictError) as caught:
            document = before_erasure.model_dump(mode="json")
            if section == "episodes":  # the beliefs left out: the episode is refused too
                document["beliefs"] = document["belief_events"] = []
            memory.import_principal(document)
        assert (caught.value.field, caught.value.item_id) == (f"{section}.id", item)
        assert memory.export_principal(tenant, "ada").empty
    assert memory.import_principal(before_erasure, principal_id="ada-copy").written["beliefs"] == 2

    # Written again on purpose after the erasure, it is new knowledge: a copy of it imports
    # under the id. (Written here under a principal of its own: the one way to empty "ada"
    # again is another erasure, and a copy taken before that is an older export.)
    memory.beliefs.add({**who, "principal_id": "ada-later", "id": "b-pin",
                        "statement": "Ada's bank PIN changed.", "subject": "pin",
                        "scope": "user"})  # fmt: skip
    again = memory.export_principal(tenant, "ada-later")
    assert memory.import_principal(again, principal_id="ada").written["beliefs"] == 1
    for principal in ("ada", "ada-copy", "ada-later"):
        memory.forget(tenant, principal)


def _only(export: PrincipalExport, **sections: Any) -> dict[str, Any]:
    """``export`` as JSON holding only ``sections`` (each a list of its items as JSON)."""
    data = export.model_dump(mode="json")
    for section in SECTIONS:
        data[section] = sections.get(section, [])
    return data


def test_an_import_does_not_undo_a_forget_of_the_whole_principal(
    exported: PrincipalExport, target: Memory
) -> None:
    """A restore of an export taken before ``forget`` of the whole principal brought every
    erased belief and episode back, and an edited copy of its entity marks or miss hints
    (the names the user marked, the words their recalls missed) brought those back. Now
    every item the principal had recorded by the erasure is refused as a ``ConflictError``
    naming it, nothing written, whatever its section and even under a new id; what was
    recorded after the erasure imports under the same ids, and the old export imports
    under another principal."""
    tenant = f"t-{uuid.uuid4().hex[:12]}"
    target.import_principal(exported, tenant_id=tenant)
    before = target.export_principal(tenant, "ada")
    assert before.beliefs and before.episodes and before.entity_marks and before.miss_hints
    target.forget(tenant, "ada")

    def refused(document: Any) -> ConflictError:
        with pytest.raises(ConflictError) as caught:
            target.import_principal(document)
        assert "forgotten" in str(caught.value)
        assert target.export_principal(tenant, "ada").empty  # nothing written
        return caught.value

    whole = refused(before)
    assert (whole.field, whole.item_index, whole.item_id) == ("beliefs.id", 0, before.beliefs[0].id)
    data = before.model_dump(mode="json")
    episode = {**data["episodes"][-1], "id": "e-renamed"}  # an edited id is still the item
    for sections, field, item_id in (
        ({"episodes": data["episodes"]}, "episodes.id", before.episodes[0].id),
        ({"episodes": [episode]}, "episodes.recorded_at", "e-renamed"),
        ({"entity_marks": data["entity_marks"]}, "entity_marks.marked_at",
         before.entity_marks[0].entity),
        ({"miss_hints": data["miss_hints"]}, "miss_hints.first_missed_at",
         before.miss_hints[0].subject),
    ):  # fmt: skip
        caught = refused(_only(before, **sections))
        assert (caught.field, caught.item_index, caught.item_id) == (field, 0, item_id)

    # Another principal may take the old export; what the principal recorded after the
    # erasure, under the erased ids, imports (written under a principal of its own, then
    # copied: the one way to empty "ada" again is another erasure).
    assert target.import_principal(before, principal_id="ada-copy").written["beliefs"] == len(
        before.beliefs
    )
    later = {"tenant_id": tenant, "principal_id": "ada-later"}
    target.episodes.add_many(
        [{**later, "id": e.id, "occurred_at": e.occurred_at, "content": e.content}
         for e in before.episodes]
    )  # fmt: skip
    target.beliefs.add({**later, "id": before.beliefs[0].id, "statement": "Ada uses Helix.",
                        "subject": "editor", "scope": "user"})  # fmt: skip
    done = target.import_principal(target.export_principal(tenant, "ada-later"), principal_id="ada")
    assert (done.written["episodes"], done.written["beliefs"]) == (len(before.episodes), 1)
    for principal in ("ada", "ada-copy", "ada-later"):
        target.forget(tenant, principal)


#: Values an API that writes the field refuses, by (section, field): an edited export
#: carried each into the store, past every bound the write path holds it to.
_AHEAD = "2999-01-01T00:00:00Z"
_BLANKS = ("", "   ", "\u200b", "\u2060\n")
_REFUSED: dict[tuple[str, str], tuple[Any, ...]] = {
    ("feedback", "note"): _BLANKS,
    ("belief_events", "reason"): _BLANKS,
    ("reported_misses", "note"): (*_BLANKS, "x" * 1001),
    ("beliefs", "statement"): (*_BLANKS, "x" * 4001),
    ("beliefs", "subject"): ("", "x" * 201),
    ("beliefs", "confidence"): (2, -0.5),
    ("beliefs", "recorded_at"): (_AHEAD,),
    ("beliefs", "retracted_at"): (_AHEAD,),
    ("episodes", "content"): _BLANKS,
    ("episodes", "occurred_at"): (_AHEAD,),
    ("episodes", "recorded_at"): (_AHEAD,),
    ("belief_events", "created_at"): (_AHEAD,),
    ("feedback", "created_at"): (_AHEAD,),
    ("exclusions", "created_at"): (_AHEAD,),
    ("entity_marks", "marked_at"): (_AHEAD,),
    ("entity_marks", "entity"): ("Not A Key", ""),
    ("miss_hints", "miss_count"): (0, 2**31),
    ("miss_hints", "acknowledged_at"): ("2000-01-01T00:00:00Z",),
    # Text inside a trace's JSON that jsonb cannot hold, at any depth, in a value or a key.
    ("traces", "user_view"): (
        {"block": "a\x00b"},
        {"items": [{"text": "Ada \ud800"}]},
        {"items": [{"note\x00": 1}]},
        # A view its readers cannot read, or of another surface than its recall's.
        {"items": []},
        {"surface": "direct", "moment": "in_turn", "items": [{"belief_id": "b-money"}]},
        {"surface": "vault", "moment": "in_turn"},
    ),
    ("miss_hints", "last_missed_at"): (_AHEAD,),
    ("traces", "created_at"): (_AHEAD,),
}


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_import_holds_every_field_to_the_bounds_of_the_api_that_writes_it(
    exported: PrincipalExport, target: Memory, data: st.DataObject
) -> None:
    """A blank or invisible note, a reason with no text, a time the store's clock has not
    reached, a statement over its cap: each is refused by the API that writes the field,
    and an edited export carried it in. Refused as an ``InvalidInputError`` naming the
    section, the item and the field, before anything is written."""
    present = sorted(key for key in _REFUSED if getattr(exported, key[0]))
    section, field = data.draw(st.sampled_from(present), label="field")
    index = data.draw(st.integers(0, len(getattr(exported, section)) - 1), label="index")
    value = data.draw(st.sampled_from(_REFUSED[section, field]), label="value")
    document = _mutated(exported, section, index, **{field: value})
    fresh = f"t-{uuid.uuid4().hex[:12]}"
    with pytest.raises(InvalidInputError) as caught:
        target.import_principal(document, tenant_id=fresh)
    assert not isinstance(caught.value, ConstraintViolation)  # refused before any write
    assert (caught.value.field, caught.value.item_index) == (f"{section}.{field}", index)
    assert target.export_principal(fresh, "ada").empty


def test_a_note_longer_than_todays_cap_from_an_older_store_is_kept(
    exported: PrincipalExport, target: Memory
) -> None:
    """A release before the 1,000-character cap stored longer rejection notes, and its
    store exports them: the import keeps them as the user wrote them (the cap bounds new
    notes, not records of old ones), while a note with no text is refused."""
    assert exported.feedback
    long_note = "The deploy target moved twice that quarter. " * 40
    assert len(long_note) > 1000
    fresh = f"t-{uuid.uuid4().hex[:12]}"
    target.import_principal(_mutated(exported, "feedback", 0, note=long_note), tenant_id=fresh)
    assert target.export_principal(fresh, "ada").feedback[0].note == long_note
    target.forget(fresh, "ada")


class _ShiftedClock(type):
    """A stand-in for ``datetime`` in a module that reads the application's clock: its
    ``now`` runs ``shift`` off the real one, and a real datetime is still an instance."""

    shift = timedelta(0)

    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, datetime)

    def now(cls, tz: Any = None) -> datetime:
        return datetime.now(tz) + cls.shift


@pytest.mark.parametrize("shift_hours", [-24, 24])
def test_an_imports_system_times_are_held_to_the_stores_clock_not_the_applications(
    exported: PrincipalExport,
    target: Memory,
    monkeypatch: pytest.MonkeyPatch,
    shift_hours: int,
) -> None:
    """A time the store records may not lie ahead of the store's clock (PostgreSQL's
    ``now()``), which every time it records is taken from. The check read the
    application's clock: with an application a day behind the database server, an export
    taken a moment ago was refused as "ahead"; a day ahead, an item recorded an hour ahead
    of the store was taken in, hidden from every read for that hour."""

    class AppClock(metaclass=_ShiftedClock):
        pass

    monkeypatch.setattr(_ShiftedClock, "shift", timedelta(hours=shift_hours))
    monkeypatch.setattr("recallflow.portability.datetime", AppClock)
    with target.pool.connection() as conn:
        row = conn.execute("SELECT now()").fetchone()
    assert row is not None
    store_now: datetime = row[0]
    fresh = f"t-{uuid.uuid4().hex[:12]}"
    # Recorded at the store's now: imports, whatever the application's clock says.
    just_now = _mutated(exported, "beliefs", 0, recorded_at=store_now.isoformat())
    assert target.import_principal(just_now, tenant_id=fresh).written["beliefs"] > 0
    target.forget(fresh, "ada")
    # An hour ahead of the store's clock: refused, whatever the application's clock says.
    ahead = _mutated(
        exported, "beliefs", 0, recorded_at=(store_now + timedelta(hours=1)).isoformat()
    )
    with pytest.raises(InvalidInputError) as caught:
        target.import_principal(ahead, tenant_id=fresh)
    assert (caught.value.field, caught.value.item_index) == ("beliefs.recorded_at", 0)
    assert target.export_principal(fresh, "ada").empty


def test_an_entity_mark_of_any_script_goes_out_and_comes_back(
    memory: Memory, target: Memory, tenant: str
) -> None:
    """An entity's key keeps the letters of every script (``Москва`` marks ``москва``);
    the export read its marks with the ASCII-only pattern of an older key rule, so the
    export of a principal who had marked one failed with pydantic's own error, and an
    edited-in one was refused on import."""
    keys = [memory.entities.mark(tenant, "ada", name, "secret") for name in ("Москва", "東京")]
    assert keys == ["москва", "東京"]
    export = memory.export_principal(tenant, "ada")
    assert [m.entity for m in export.entity_marks] == keys
    target.import_principal(export.model_dump_json())
    assert list(target.entities.marked(tenant, "ada")) == keys
    target.forget(tenant, "ada")


def _with(export: PrincipalExport, section: str, *items: dict[str, Any]) -> dict[str, Any]:
    data = export.model_dump(mode="json")
    data[section] = [*data[section], *items]
    return data


def test_what_the_store_keeps_once_or_requires_is_refused_before_anything_is_written(
    exported: PrincipalExport, target: Memory
) -> None:
    """An edited export with an item the store's own rules refuse (a supersession naming
    no successor, a corroboration listed twice, a reported miss saying nothing missed or
    listed twice, an acknowledgement before its report) or a document nested past what a
    JSON reader follows: each was refused midway by the database, as a
    ``ConstraintViolation`` naming no item or field, or was a ``RecursionError``. Each is
    an ``InvalidInputError`` naming the section, the item and the field; nothing is
    written."""
    at = "2026-02-01T00:00:00Z"
    trace = exported.traces[0].id
    event = {"belief_id": "b-money", "effective_at": at, "created_at": at}
    report = {"trace_id": trace, "subject": "money", "reported_at": at}
    corroboration = {**event, "kind": "corroborated", "project": "ios", "evidence_id": "e-setup"}
    events, reports = len(exported.belief_events), len(exported.reported_misses)
    refusals: list[tuple[Any, str, int | None]] = [
        (_with(exported, "belief_events", {**event, "kind": "superseded"}),
         "belief_events.related_id", events),
        (_with(exported, "belief_events", {**event, "kind": "corroborated", "project": "ios"}),
         "belief_events.evidence_id", events),
        (_with(exported, "belief_events", corroboration, corroboration),
         "belief_events.evidence_id", events + 1),
        (_with(exported, "reported_misses", {**report, "id": "m-1"}),
         "reported_misses.expected", reports),
        (_with(exported, "reported_misses", {**report, "id": "m-1", "belief_id": "b-money"},
               {**report, "id": "m-2", "belief_id": "b-money"}),
         "reported_misses.expected", reports + 1),
        (_with(exported, "reported_misses", {**report, "id": "m-1", "expected": "cents",
                                             "acknowledged_at": "2026-01-01T00:00:00Z"}),
         "reported_misses.acknowledged_at", reports),
        ('{"format": "recallflow.principal/1", "beliefs": ' + "[" * 100_000, "export", None),
    ]  # fmt: skip
    for document, field, index in refusals:
        fresh = f"t-{uuid.uuid4().hex[:12]}"
        with pytest.raises(InvalidInputError) as caught:
            target.import_principal(document, tenant_id=fresh)
        assert not isinstance(caught.value, ConstraintViolation), caught.value
        assert (caught.value.field, caught.value.item_index) == (field, index), caught.value
        assert target.export_principal(fresh, "ada").empty


#: What a hand edit may leave in a field: text a store cannot hold or shows nothing,
#: numbers past every column, other kinds, and times at and past the calendar's ends.
_ODD_VALUES = st.one_of(
    st.sampled_from(
        [None, "", " ", "\x00", "a\x00b", "\ud800", "\u200b", "x" * 5000, "Not A Key", "b-money",
         "e-setup", -1, 0, 2**31, 2**63, 10**30, 1.5, float("nan"), float("inf"), True, [], {},
         ["\x00"], {"k": "\x00"}, {"k\x00": 1}, [[["\ud800"]]], "0001-01-01T00:00:00Z",
         "0001-01-02T00:00:00Z", "9999-12-31T23:59:59Z", "2026-01-01T00:00:00", "-infinity",
         "infinity", "superseded", "corroborated", "conflicted", "cited", "direct", "secret"]
    ),
    st.text(max_size=20),
    st.integers(),
    st.floats(),
)  # fmt: skip


@settings(
    max_examples=int(os.environ.get("RECALLFLOW_FUZZ_EXAMPLES", "30")),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_an_edited_export_imports_or_is_refused_naming_the_item_and_nothing_is_written(
    exported: PrincipalExport, target: Memory, data: st.DataObject
) -> None:
    """One field of one item of an export set to an odd value or removed, or the item listed
    again, as it is or with one field set: the import writes all of it, or refuses it
    before anything is written with an ``InvalidInputError`` (or a ``ConflictError``)
    naming the section and the field — never a ``ConstraintViolation`` from the database
    midway, nor any other exception; and what it took in reads back (a recall's view that
    its readers could not read was taken, and ``explain`` of it raised ``KeyError``)."""
    document = exported.model_dump(mode="json")
    section = data.draw(st.sampled_from([s for s in SECTIONS if document[s]]), label="section")
    index = data.draw(st.integers(0, len(document[section]) - 1), label="index")
    item = document[section][index]
    edit = data.draw(st.sampled_from(["set", "remove", "again", "again, edited"]), label="edit")
    field = data.draw(st.sampled_from(sorted(item)), label="field")
    if edit == "remove":
        del item[field]
    elif edit.startswith("again"):
        document[section].append(dict(item))
    if edit in ("set", "again, edited"):
        document[section][-1 if edit.startswith("again") else index][field] = data.draw(
            _ODD_VALUES | st.just(f"{item[field]}-2"), label="value"
        )
    fresh = f"t-{uuid.uuid4().hex[:12]}"
    try:
        target.import_principal(document, tenant_id=fresh)
    except (InvalidInputError, ConflictError) as exc:
        assert not isinstance(exc, ConstraintViolation), exc
        assert exc.field is not None and (
            exc.field.split(".")[0] in SECTIONS or exc.field in {"export", "format"}
        ), exc
        assert target.export_principal(fresh, "ada").empty
    else:
        # What was taken in reads back: the user's view of each recall it holds.
        for trace in target.export_principal(fresh, "ada").traces:
            if trace.user_view is not None:
                target.explain(fresh, "ada", trace.id)
        target.forget(fresh, "ada")


def test_an_export_edited_with_model_copy_is_checked_as_its_json_is(
    exported: PrincipalExport, target: Memory
) -> None:
    """pydantic's ``model_copy(update=...)`` checks nothing, and an export instance was
    taken as valid: an edit made with it wrote a statement with no visible text, reached
    the database's own checks (a ``ConstraintViolation``), raised ``TypeError`` on a naive
    time, and wrote the rows before it raised pydantic's own error on a tenant id that is
    no identifier. Each is refused as the same edit of the JSON is, nothing written."""
    belief = exported.beliefs[0]

    def edited(**fields: Any) -> PrincipalExport:
        beliefs = (belief.model_copy(update=fields), *exported.beliefs[1:])
        return exported.model_copy(update={"beliefs": beliefs})

    naive = belief.recorded_at.replace(tzinfo=None)
    refusals: list[tuple[PrincipalExport, str, str]] = [
        (edited(statement="\u200b"), "beliefs.statement", "no visible text"),
        (edited(statement="a\x00b"), "beliefs.statement", "NUL"),
        (edited(confidence=5.0), "beliefs.confidence", "less than or equal to 1"),
        (edited(recorded_at=naive), "beliefs.recorded_at", "timezone-aware"),
        (exported.model_copy(update={"tenant_id": "not an id"}), "tenant_id", "identifier"),
    ]
    for document, field, words in refusals:
        fresh = f"t-{uuid.uuid4().hex[:12]}"
        with pytest.raises(InvalidInputError) as caught:
            target.import_principal(document, tenant_id=fresh if field != "tenant_id" else None)
        assert not isinstance(caught.value, ConstraintViolation), caught.value
        assert caught.value.field == field and words in str(caught.value), caught.value
        assert target.export_principal(fresh, "ada").empty
