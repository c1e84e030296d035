"""Forgetting by scope on the real embedded server: everything of one project
(``forget_project``: its beliefs, its episodes, the not-here rejections made in it) and the
episodes of one conversation (``forget_session``, with or without the beliefs derived from
them), each in one transaction, scrubbed from traces and sessions as one belief or episode
is — and nothing of another project, session, principal or tenant touched (see
"Forgetting a project or a session" in docs/corrections.md)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recallflow import AsyncMemory, ConflictError, InvalidInputError, Memory
from recallflow.models.result import CorrectionKind
from tests.helpers import belief, patient_policy, request
from tests.test_forget_episode import holding

PATIENT = patient_policy()
T0 = datetime(2026, 3, 1, tzinfo=UTC)
SECRET = "Acme's staging password rotates every Friday at noon."
PLAN = "Acme ships the loyalty feature behind the acme-loyalty flag."


def episode(tenant: str, principal: str, eid: str, content: str, **fields: Any) -> dict[str, Any]:
    return {
        "id": eid,
        "tenant_id": tenant,
        "principal_id": principal,
        "occurred_at": T0,
        "content": content,
        **fields,
    }


def acme(memory: Memory, tenant: str, principal: str) -> str:
    """Two beliefs and two episodes of project acme, a belief of project globex rejected
    as not holding in acme, a user belief learned in an acme episode, and an episode of
    globex; returns the trace of a recall in acme that showed the acme beliefs."""
    memory.episodes.add_many(
        [
            episode(tenant, principal, "e-acme-1", SECRET, project="acme", session_id="s-1"),
            episode(tenant, principal, "e-acme-2", PLAN, project="acme", session_id="s-1"),
            episode(tenant, principal, "e-globex", "Globex standup notes.", project="globex"),
        ]
    )
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                principal,
                id="b-acme-secret",
                statement=SECRET,
                subject="acme-staging",
                entities=["acme", "staging"],
                scope="project",
                origin_project="acme",
                source_episode_id="e-acme-1",
                recorded_at=T0,
            ),
            belief(
                tenant,
                principal,
                id="b-acme-plan",
                statement=PLAN,
                subject="acme-loyalty",
                entities=["acme", "loyalty"],
                scope="project",
                origin_project="acme",
                source_episode_id="e-acme-2",
                recorded_at=T0,
            ),
            belief(
                tenant,
                principal,
                id="b-globex-ci",
                statement="Globex runs CI on every push to the staging branch.",
                subject="globex-ci",
                entities=["staging", "loyalty"],
                scope="project",
                origin_project="globex",
                portability="portable",
                recorded_at=T0,
            ),
            belief(
                tenant,
                principal,
                id="b-user-tz",
                statement="Ada works in the Lisbon time zone.",
                subject="time-zone",
                # Learned in acme, but about Ada: a user-scope belief outlives the project.
                origin_project="acme",
                source_episode_id="e-acme-1",
                recorded_at=T0,
            ),
        ]
    )
    shown = memory.recall(
        request(
            tenant,
            principal,
            "acme staging loyalty",
            project="acme",
            working_state={"entities": ["acme", "staging", "loyalty"]},
        ),
        policy=PATIENT,
    )
    assert {"b-acme-secret", "b-acme-plan", "b-globex-ci"} <= set(shown.rendered_ids)
    memory.reject(tenant, principal, shown.trace_id, "b-globex-ci", "not_here")
    assert memory.corrections.excluded_projects(tenant, principal, "b-globex-ci") == ("acme",)
    return shown.trace_id


def held(memory: Memory, tenant: str, principal: str) -> tuple[list[str], list[str]]:
    """The ids of the principal's beliefs (in any state) and episodes, sorted."""
    with memory.pool.connection() as conn:
        return tuple(  # type: ignore[return-value]
            [
                str(r[0])
                for r in conn.execute(
                    f"SELECT id FROM {table} WHERE tenant_id = %s AND principal_id = %s"
                    " ORDER BY id",
                    (tenant, principal),
                ).fetchall()
            ]
            for table in ("beliefs", "episodes")
        )


def erasure_rows(memory: Memory, tenant: str) -> int:
    with memory.pool.connection() as conn:
        row = conn.execute("SELECT count(*) FROM erasures WHERE tenant_id = %s", (tenant,))
        return int(row.fetchone()[0])  # type: ignore[index]


def test_forget_project_erases_its_beliefs_episodes_and_not_here_rejections(
    memory: Memory, tenant: str
) -> None:
    trace_id = acme(memory, tenant, "ada")
    erasure = memory.forget_project(tenant, "ada", "acme")

    assert erasure.scope == "project"
    assert erasure.deleted["beliefs"] == 2 and erasure.deleted["episodes"] == 2
    assert erasure.deleted["belief_exclusions"] == 1  # globex's, rejected in acme
    assert erasure.restated == 1  # b-user-tz lost its reference to e-acme-1
    assert erasure.scrubbed  # the stored recall showed them
    assert held(memory, tenant, "ada") == (["b-globex-ci", "b-user-tz"], ["e-globex"])
    assert memory.beliefs.get(tenant, "ada", "b-user-tz").source_episode_id is None
    # The rejection made in acme is gone with it: nothing keeps a record of the project.
    assert memory.corrections.excluded_projects(tenant, "ada", "b-globex-ci") == ()
    history = memory.beliefs.history(tenant, "ada", "b-globex-ci").model_dump_json()
    assert "acme" not in history and "not_here" not in history
    # No column of any table of the principal holds the words or the ids.
    for needle in ("staging password", "loyalty feature", "b-acme-secret", "e-acme-2"):
        assert holding(memory, tenant, "ada", needle) == [], needle
    view = memory.explain(tenant, "ada", trace_id).model_dump_json()
    assert "staging password" not in view and "b-acme-plan" not in view
    assert "b-globex-ci" in view  # the trace keeps what was not erased
    # Each item keeps the record its own erasure writes: a keyed retry does not bring
    # one back, and a re-derivation of a forgotten belief writes nothing.
    with pytest.raises(ConflictError):
        memory.episodes.add(
            episode(tenant, "ada", "e-acme-1", SECRET, project="acme"), refuse_forgotten=True
        )
    draft = belief(
        tenant,
        "ada",
        statement=PLAN,
        subject="acme-loyalty",
        scope="project",
        origin_project="acme",
        source_episode_id="e-acme-2",
        recorded_at=T0,
    )
    assert [o.action for o in memory.rederive(tenant, "ada", [draft]).outcomes] == ["forgotten"]


def test_forgetting_a_scope_that_holds_nothing_erases_and_records_nothing(
    memory: Memory, tenant: str
) -> None:
    acme(memory, tenant, "ada")
    before, records = held(memory, tenant, "ada"), erasure_rows(memory, tenant)
    for erasure in (
        memory.forget_project(tenant, "ada", "initech"),
        memory.forget_session(tenant, "ada", "s-none", with_beliefs=True),
    ):
        assert erasure.total_deleted == 0 and erasure.restated == 0 and not erasure.scrubbed
        assert erasure.deleted["beliefs"] == erasure.deleted["episodes"] == 0
    assert held(memory, tenant, "ada") == before and erasure_rows(memory, tenant) == records
    memory.forget_project(tenant, "ada", "acme")
    again = memory.forget_project(tenant, "ada", "acme")  # a repeat: nothing left
    assert again.total_deleted == 0 and held(memory, tenant, "ada") == (
        ["b-globex-ci", "b-user-tz"],
        ["e-globex"],
    )


def test_a_dry_run_counts_what_the_erasure_takes_and_erases_nothing(
    memory: Memory, tenant: str
) -> None:
    acme(memory, tenant, "ada")
    before, records = held(memory, tenant, "ada"), erasure_rows(memory, tenant)
    trial = memory.forget_project(tenant, "ada", "acme", dry_run=True)
    session_trial = memory.forget_session(tenant, "ada", "s-1", with_beliefs=True, dry_run=True)
    assert held(memory, tenant, "ada") == before and erasure_rows(memory, tenant) == records
    assert memory.corrections.excluded_projects(tenant, "ada", "b-globex-ci") == ("acme",)
    assert holding(memory, tenant, "ada", "staging password")
    assert session_trial.deleted["episodes"] == 2 and session_trial.deleted["beliefs"] == 3
    done = memory.forget_project(tenant, "ada", "acme")
    assert (trial.deleted, trial.scrubbed, trial.restated) == (
        done.deleted,
        done.scrubbed,
        done.restated,
    )


def test_forget_session_keeps_the_derived_beliefs_unless_asked(memory: Memory, tenant: str) -> None:
    acme(memory, tenant, "ada")
    acme(memory, tenant, "bob")
    kept = memory.forget_session(tenant, "ada", "s-1")
    assert kept.scope == "session" and kept.deleted["episodes"] == 2
    assert kept.deleted["beliefs"] == 0 and kept.restated == 3  # three named them
    beliefs, episodes = held(memory, tenant, "ada")
    assert episodes == ["e-globex"] and "b-acme-secret" in beliefs
    assert memory.beliefs.get(tenant, "ada", "b-acme-secret").source_episode_id is None
    assert holding(memory, tenant, "ada", "e-acme-1") == []

    both = memory.forget_session(tenant, "bob", "s-1", with_beliefs=True)
    assert both.deleted["episodes"] == 2 and both.deleted["beliefs"] == 3
    assert both.restated == 0  # every belief that named them went with them
    assert held(memory, tenant, "bob") == (["b-globex-ci"], ["e-globex"])
    # The not-here rejection is a project's record, not the conversation's: it stays.
    assert memory.corrections.excluded_projects(tenant, "bob", "b-globex-ci") == ("acme",)
    for needle in ("staging password", "loyalty feature", "Lisbon"):
        assert holding(memory, tenant, "bob", needle) == [], needle


def test_open_sessions_hand_out_no_erased_words_and_their_next_turns_tell_them_forgotten(
    memory: Memory, tenant: str
) -> None:
    """The conversation is a stored session whose episodes the host logged under its id;
    a belief learned from them was shown in one of its turns, and a session opened later
    froze it into its prefix. Forgotten with its beliefs: each open session object hands
    out the scrubbed prefix at once (the one a resume reads), and each next turn names the
    line to drop."""
    statement = "Ada works from Lisbon, on Western European Time."
    tz = belief(
        tenant,
        "ada",
        id="b-tz",
        statement=statement,
        subject="time-zone",
        entities=["lisbon"],
        belief_type="preference",
        source_authority="user_stated",
        recorded_at=T0,
    )
    memory.beliefs.add(
        {
            **tz,
            "id": "b-shell",
            "statement": "Ada's shell is zsh.",
            "subject": "shell",
            "entities": [],
        }
    )
    call = memory.open_session(tenant, "ada", policy=PATIENT)
    memory.episodes.add(
        episode(tenant, "ada", "e-call", "I moved to Lisbon last month.", session_id=call.id)
    )
    memory.beliefs.add({**tz, "source_episode_id": "e-call"})
    shown = call.recall({"goal": "where does Ada work from", "entities": ["lisbon"]})
    assert "b-tz" in shown.rendered_ids and "Lisbon" not in call.prefix_text
    later = memory.open_session(tenant, "ada", policy=PATIENT)
    assert "b-tz" in later.snapshot_ids and statement in later.prefix_text
    memory.episodes.add(
        episode(tenant, "ada", "e-later", "Ping me after 9 Lisbon time.", session_id=later.id)
    )

    kept = memory.forget_session(tenant, "ada", later.id)  # its episode only
    assert kept.deleted["episodes"] == 1 and kept.deleted["beliefs"] == 0
    assert statement in later.prefix_text  # b-tz is not derived from it: it stays

    erasure = memory.forget_session(tenant, "ada", call.id, with_beliefs=True)
    assert erasure.deleted["episodes"] == 1 and erasure.deleted["beliefs"] == 1
    assert erasure.scrubbed.get("sessions.prefix") == 1  # the later session froze it
    assert statement not in later.prefix_text and "[b-tz]" in later.prefix_text
    assert memory.resume_session(tenant, "ada", later.id, policy=PATIENT).prefix == later.prefix
    for session in (call, later):
        turn = session.recall({"goal": "which shell"})
        told = [(c.belief_id, c.kind) for c in turn.trace.corrections]
        assert ("b-tz", CorrectionKind.FORGOTTEN) in told
        assert "Lisbon" not in turn.block
    assert holding(memory, tenant, "ada", "Lisbon") == []


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda m, t: m.forget_project(t, "ada", ""), "project"),
        (lambda m, t: m.forget_project(t, "ada", 7), "project"),
        (lambda m, t: m.forget_project(t, "", "acme"), "principal_id"),
        (lambda m, t: m.forget_session(t, "ada", "  "), "session_id"),
        (lambda m, t: m.forget_session(t, "ada", None), "session_id"),
        (lambda m, t: m.forget_session(t, "ada", "s-1", with_beliefs="yes"), "with_beliefs"),
        (lambda m, t: m.forget_project(t, "ada", "acme", dry_run="no"), "dry_run"),
    ],
)
def test_malformed_input_is_refused_by_name_and_nothing_is_written(
    memory: Memory, tenant: str, call: Any, field: str
) -> None:
    acme(memory, tenant, "ada")
    before, records = held(memory, tenant, "ada"), erasure_rows(memory, tenant)
    with pytest.raises(InvalidInputError) as raised:
        call(memory, tenant)
    assert raised.value.field == field
    assert held(memory, tenant, "ada") == before and erasure_rows(memory, tenant) == records


def test_async_memory_forgets_by_scope(memory: Memory, tenant: str) -> None:
    acme(memory, tenant, "ada")

    async def scenario() -> None:
        wrapped = AsyncMemory(memory)
        gone = await wrapped.forget_session(tenant, "ada", "s-1")
        assert gone.deleted["episodes"] == 2
        gone = await wrapped.corrections.forget_project(tenant, "ada", "acme")
        assert gone.deleted["beliefs"] == 2

    asyncio.run(scenario())
    assert held(memory, tenant, "ada") == (["b-globex-ci", "b-user-tz"], ["e-globex"])


# --- isolation ------------------------------------------------------------------------------

_NAMES = st.sampled_from(["acme", "globex", "s-1", "s-2"])
_ITEM = st.tuples(
    st.sampled_from(["t-a", "t-b"]),  # tenant suffix
    st.sampled_from(["ada", "bob"]),  # principal
    _NAMES,  # a belief's origin project, an episode's project
    _NAMES,  # an episode's session id
)


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    items=st.lists(_ITEM, min_size=1, max_size=10),
    scope=st.sampled_from(["project", "session"]),
    name=_NAMES,
    with_beliefs=st.booleans(),
)
def test_forgetting_a_scope_touches_no_other_principal_tenant_project_or_session(
    memory: Memory,
    tenant: str,
    items: list[tuple[str, str, str, str]],
    scope: str,
    name: str,
    with_beliefs: bool,
) -> None:
    """Every principal of two tenants holds beliefs and episodes under the same project
    names and session ids; forgetting one scope of ``t-a``/ada takes exactly the items of
    that principal in that scope, and leaves every other row as it was."""
    run = f"{tenant}-{uuid.uuid4().hex[:8]}"
    expected: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    erased_episodes = 0
    for index, (suffix, principal, project, session_id) in enumerate(items):
        t, eid, bid = f"{run}-{suffix}", f"e-{index}", f"b-{index}"
        memory.episodes.add(
            episode(
                t,
                principal,
                eid,
                f"Note {index} of {project}.",
                project=project,
                session_id=session_id,
            )
        )
        memory.beliefs.add(
            belief(
                t,
                principal,
                id=bid,
                statement=f"Fact {index} of {project}.",
                subject=f"s{index}",
                scope="project",
                origin_project=project,
                source_episode_id=eid,
                recorded_at=T0,
            )
        )
        beliefs, episodes = expected.setdefault((t, principal), ([], []))
        in_scope = (suffix, principal) == ("t-a", "ada") and name == (
            project if scope == "project" else session_id
        )
        erased_episodes += in_scope
        if not in_scope:
            episodes.append(eid)
        if not in_scope or (scope == "session" and not with_beliefs):
            beliefs.append(bid)
    if scope == "project":
        erasure = memory.forget_project(f"{run}-t-a", "ada", name)
    else:
        erasure = memory.forget_session(f"{run}-t-a", "ada", name, with_beliefs=with_beliefs)
    for (t, principal), (beliefs, episodes) in expected.items():
        assert held(memory, t, principal) == (sorted(beliefs), sorted(episodes)), (t, principal)
    assert erasure.deleted["episodes"] == erased_episodes
