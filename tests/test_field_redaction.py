"""Field-level redaction on every surface, on the real server: an entity marked personal
is named only where the surface's ceiling admits personal — in the recall block, the
session prefix and its corrections, the user-safe trace view, the agent tools and
archival episode search — and every redaction is counted (see "Trust boundary" in
docs/architecture.md)."""

from __future__ import annotations

import hashlib
import itertools
import re
import unicodedata
from datetime import UTC, datetime
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recallflow import Memory, open_memory
from recallflow.adapters.embedders import HashingEmbedder
from recallflow.core.redaction import REDACTED_NAME, NameRedaction, Redactor
from recallflow.core.render import parsed_ids
from recallflow.errors import InvalidInputError
from recallflow.models.store import Sensitivity, normalise_subject
from recallflow.tools import Toolset
from tests.helpers import belief, patient_policy, request
from tests.test_arm_timeout import edges_locked

AS_OF = datetime(2025, 6, 1, tzinfo=UTC)
POLICY = patient_policy().model_copy(
    update={"project_sensitivity": {"divorce-lawyer": Sensitivity.PERSONAL}}
)
GOAL = "Maya Lindqvist school pickup"


def _store(memory: Memory, tenant: str) -> None:
    memory.episodes.add_many(
        [
            {
                "id": "e-pickup",
                "tenant_id": tenant,
                "principal_id": "p1",
                "project": "divorce-lawyer",
                "occurred_at": datetime(2025, 2, 1, tzinfo=UTC),
                "content": "Agreed that Maya Lindqvist is picked up from school at 3pm.",
                "sensitivity": "internal",
            }
        ]
    )
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id="b-pickup",
                subject="maya-lindqvist",
                entities=["Maya Lindqvist", "school"],
                statement="Maya Lindqvist is picked up from school at 3pm on weekdays.",
                confidence=0.9,
                source_authority="user_stated",
                source_episode_id="e-pickup",
            ),
            belief(
                tenant,
                id="b-calendar",
                subject="calendar",
                entities=["school"],
                statement="Block 2:30pm to 3:30pm for the school pickup (maya_lindqvist).",
                confidence=0.9,
            ),
        ]
    )
    assert memory.entities.mark(tenant, "p1", "Maya Lindqvist", "personal") == "maya-lindqvist"


def _recall(memory: Memory, tenant: str, surface: str) -> Any:
    return memory.recall(request(tenant, goal=GOAL, as_of=AS_OF, surface=surface), policy=POLICY)


def test_a_marked_name_is_redacted_in_the_block_below_its_level_and_counted(
    memory: Memory, tenant: str
) -> None:
    _store(memory, tenant)
    team = _recall(memory, tenant, "team")
    direct = _recall(memory, tenant, "direct")
    assert {"b-pickup", "b-calendar"} <= set(team.rendered_ids)
    assert "maya" not in team.block.lower()
    assert team.block.count(REDACTED_NAME) == 2
    assert "(redacted) is picked up from school" in team.block
    assert team.trace.redacted == 2 and team.trace.redacted_by_field == {"entity_name": 2}
    # The items stay citable: the ids parsed from the bytes are the rendered ones.
    assert parsed_ids(team.block) == team.rendered_ids
    assert "Maya Lindqvist is picked up" in direct.block
    assert direct.trace.redacted == 0 and direct.trace.redacted_by_field == {}


def test_the_name_is_withheld_when_the_marks_could_not_ride_the_candidates_load(
    memory: Memory, tenant: str
) -> None:
    """The marks are read in the candidates' load round trip, after the links between the
    candidates; with the edges locked the links are cancelled at the arms' timeout, the
    marks' statement never runs, and the trust stage must read them itself."""
    _store(memory, tenant)
    limits = POLICY.limits.model_copy(update={"timeout_ms": 250})
    quick = POLICY.model_copy(update={"limits": limits})
    with edges_locked(memory):
        team = memory.recall(request(tenant, goal=GOAL, as_of=AS_OF, surface="team"), policy=quick)
    assert "b-pickup" in team.rendered_ids
    assert "maya" not in team.block.lower() and team.block.count(REDACTED_NAME) == 2


def test_the_user_view_applies_the_same_rule_to_a_lower_viewer(memory: Memory, tenant: str) -> None:
    _store(memory, tenant)
    trace_id = _recall(memory, tenant, "direct").trace_id
    own = memory.explain(tenant, "p1", trace_id, viewer_surface="direct", policy=POLICY)
    assert any("Maya Lindqvist" in i.statement for i in own.items) and own.redacted == 0
    team = memory.explain(tenant, "p1", trace_id, viewer_surface="team", policy=POLICY)
    dumped = team.model_dump_json().lower()
    assert "maya" not in dumped and "lindqvist" not in dumped
    pickup = next(i for i in team.items if i.belief_id == "b-pickup")
    assert pickup.statement.startswith(REDACTED_NAME)
    # Two mentions withheld; the episode reference is internal, so it stays.
    assert team.redacted == 2 and pickup.source_episode_id == "e-pickup"


def test_a_mark_added_after_the_recall_still_protects_the_view(memory: Memory, tenant: str) -> None:
    _store(memory, tenant)
    memory.entities.unmark(tenant, "p1", "maya-lindqvist")
    trace_id = _recall(memory, tenant, "team").trace_id
    before = memory.explain(tenant, "p1", trace_id, viewer_surface="team", policy=POLICY)
    assert "Maya Lindqvist" in before.model_dump_json()
    memory.entities.mark(tenant, "p1", "maya-lindqvist", Sensitivity.PERSONAL)
    after = memory.explain(tenant, "p1", trace_id, viewer_surface="team", policy=POLICY)
    assert "Maya" not in after.model_dump_json() and after.redacted == 2


def test_the_tools_show_only_what_the_bound_surface_admits(memory: Memory, tenant: str) -> None:
    _store(memory, tenant)
    tools = Toolset(memory, tenant_id=tenant, principal_id="p1", surface="team", policy=POLICY)
    recalled = tools.call("recall_beliefs", {"goal": GOAL, "as_of": AS_OF.isoformat()})
    assert "error" not in recalled and "Maya" not in recalled["block"]
    explained = tools.call("explain_recall", {"trace_id": recalled["trace_id"]})
    assert "Maya" not in str(explained) and explained["explanation"]["redacted"] == 2
    # Asked as the team may ask: a part of the name it withholds stands as a name nobody
    # has, and finds nothing (see "Trust boundary" in docs/architecture.md).
    found = tools.call("search_episodes", {"query": "school pickup"})
    assert [i["episode_id"] for i in found["items"]] == ["e-pickup"]
    assert "Maya" not in found["block"] and "divorce-lawyer" not in str(found)
    assert "in another project" in found["block"] and found["items"][0]["project"] is None
    session = tools.call("open_session", {"goal": {"goal": GOAL}})
    assert "error" not in session and "Maya" not in session["prefix"]


def test_episode_search_redacts_project_names_and_marked_names(memory: Memory, tenant: str) -> None:
    _store(memory, tenant)
    ask = {"tenant_id": tenant, "principal_id": "p1", "query": "school pickup"}
    team = memory.search_episodes({**ask, "surface": "team"}, retrieval_policy=POLICY)
    direct = memory.search_episodes({**ask, "surface": "direct"}, retrieval_policy=POLICY)
    assert team.rendered_ids == direct.rendered_ids == ("e-pickup",)
    assert "(redacted) is picked up" in team.block and "in another project" in team.block
    assert team.trace.redacted == 1 and team.items[0].names_redacted == 1
    assert "Maya Lindqvist" in direct.block and "project divorce-lawyer" in direct.block
    assert direct.trace.redacted == 0


def test_a_session_prefix_and_its_corrections_withhold_the_name(
    memory: Memory, tenant: str
) -> None:
    _store(memory, tenant)
    memory.beliefs.add(
        belief(
            tenant,
            id="b-maya-pref",
            subject="maya-lindqvist-food",
            belief_type="preference",
            statement="Maya Lindqvist does not eat peanuts.",
            confidence=0.95,
        )
    )
    session = memory.open_session(tenant, "p1", surface="team", goal={"goal": GOAL}, policy=POLICY)
    assert "b-maya-pref" in session.snapshot_ids
    assert "Maya" not in session.prefix_text and REDACTED_NAME in session.prefix_text
    memory.supersede(
        "b-maya-pref",
        belief(
            tenant,
            id="b-maya-pref-2",
            subject="maya-lindqvist-food",
            belief_type="preference",
            statement="Maya Lindqvist eats peanuts again since the allergy test.",
            confidence=0.95,
        ),
    )
    turn = session.recall({"goal": GOAL})
    assert [c.belief_id for c in turn.trace.corrections] == ["b-maya-pref"]
    assert "Maya" not in turn.block and "eats peanuts again" in turn.block


def test_a_name_marked_after_a_session_opened_is_withheld_from_its_stored_prefix(
    memory: Memory, tenant: str
) -> None:
    """A team session froze "Grace Hopper" into its prefix; the user then marked the name
    personal. The stored prefix kept it, and every resume (a new process serving the
    team channel) sent it to the model again: marked afterwards, a name stayed on the
    very surface the mark keeps it from. Now the mark withholds it in the stored prefix
    as a prefix rendered now would (ids and tags kept); this handle's open object reads
    the rewritten prefix at once, another process's at its next turn. A direct session,
    whose ceiling admits the name, keeps its bytes."""
    ada = {"tenant_id": tenant, "principal_id": "p1"}
    memory.beliefs.add({**ada, "id": "b-reviews", "belief_type": "preference",
                        "statement": "Grace Hopper reviews every change to the invoice service.",
                        "subject": "invoice reviews", "entities": ["Grace Hopper", "invoices"],
                        "scope": "user", "sensitivity": "internal", "confidence": 0.9})  # fmt: skip
    team = memory.open_session(tenant, "p1", surface="team")
    direct = memory.open_session(tenant, "p1", surface="direct")
    assert b"Grace Hopper" in team.prefix and b"Grace Hopper" in direct.prefix
    before = direct.prefix
    with open_memory(memory.uri, embedder=HashingEmbedder()) as elsewhere:
        there = elsewhere.resume_session(tenant, "p1", team.id)
        memory.entities.mark(tenant, "p1", "Grace Hopper", "personal")
        assert b"Grace" not in team.prefix and REDACTED_NAME in team.prefix_text
        assert "[b-reviews] (high) " in team.prefix_text  # the line keeps its id and tags
        assert hashlib.sha256(team.prefix).hexdigest() == team.prefix_sha256
        assert b"Grace" not in memory.resume_session(tenant, "p1", team.id).prefix
        there.recall({"goal": "Who reviews changes to the invoice service?"})
        assert there.prefix == team.prefix
    assert direct.prefix == before == memory.resume_session(tenant, "p1", direct.id).prefix


def test_marking_checks_its_input_and_writes_nothing_when_bad(memory: Memory, tenant: str) -> None:
    with pytest.raises(InvalidInputError) as bad_level:
        memory.entities.mark(tenant, "p1", "maya", "very-secret")
    assert bad_level.value.field == "sensitivity"
    with pytest.raises(InvalidInputError) as bad_entity:
        memory.entities.mark(tenant, "p1", "  ...  ")
    assert bad_entity.value.field == "entity"
    with pytest.raises(InvalidInputError) as bad_tenant:
        memory.entities.mark("has spaces", "p1", "maya")
    assert bad_tenant.value.field == "tenant_id"
    # Refused like the same text in a belief's entities, not folded into another key.
    for unstorable in ("maya\x00", "maya\ud800"):
        with pytest.raises(InvalidInputError) as bad_text:
            memory.entities.mark(tenant, "p1", unstorable)
        assert bad_text.value.field == "entity"
    # A name whose key is longer than a key may be is refused as a belief's entity is, not
    # cut to the key of another entity (which the mark would then redact).
    for overlong in ("a" * 200 + "b", "Maya " * 60):
        with pytest.raises(InvalidInputError) as too_long:
            memory.entities.mark(tenant, "p1", overlong)
        assert too_long.value.field == "entity" and "at most 200" in str(too_long.value)
    assert memory.entities.marked(tenant, "p1") == {}


@pytest.mark.parametrize("level", [True, False, b"secret"])
def test_a_mark_level_of_another_kind_is_refused_as_a_beliefs_is(
    memory: Memory, tenant: str, level: object
) -> None:
    """``True`` was marked internal (pydantic reads it as 1), where a belief or an episode
    given the same sensitivity is refused: a flag passed for a level is a mistake, not a
    level."""
    with pytest.raises(InvalidInputError) as refused:
        memory.beliefs.add(belief(tenant, sensitivity=level))
    assert refused.value.field == "sensitivity"
    with pytest.raises(InvalidInputError) as bad_level:
        memory.entities.mark(tenant, "p1", "maya", level)  # type: ignore[arg-type]
    assert bad_level.value.field == "sensitivity"
    assert "boolean" in str(bad_level.value) or "bytes" in str(bad_level.value)
    assert memory.entities.marked(tenant, "p1") == {}


def test_forgetting_the_principal_forgets_the_marks(memory: Memory, tenant: str) -> None:
    memory.entities.mark(tenant, "p9", "Maya Lindqvist")
    memory.forget(tenant, "p9")
    assert memory.entities.marked(tenant, "p9") == {}


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8)
_SEP = st.sampled_from([" ", "-", "_", ".", "  ", "\u00a0"])


@given(
    parts=st.lists(_WORD, min_size=1, max_size=3),
    sep=_SEP,
    before=st.text(max_size=30),
    after=st.text(max_size=30),
    upper=st.booleans(),
)
def test_no_mention_of_a_withheld_key_survives_redaction(
    parts: list[str], sep: str, before: str, after: str, upper: bool
) -> None:
    key = "-".join(parts)
    mention = sep.join(p.upper() if upper else p.capitalize() for p in parts)
    text = f"{before} {mention} {after}"
    names = NameRedaction({key: Sensitivity.PERSONAL})
    shown, count = names.apply(text, Sensitivity.INTERNAL)
    assert count >= 1
    words = r"[\W_]{0,3}".join(map(re.escape, parts))
    assert not re.search(rf"(?<![A-Za-z0-9]){words}(?![A-Za-z0-9])", shown, re.IGNORECASE)
    # A surface that admits the level shows the text unchanged.
    assert names.apply(text, Sensitivity.PERSONAL) == (text, 0)


def test_a_longer_word_containing_the_name_is_not_a_mention() -> None:
    names = NameRedaction({"maya": Sensitivity.PERSONAL})
    assert names.apply("Mayakovsky and Amaya met Maya.", Sensitivity.PUBLIC) == (
        "Mayakovsky and Amaya met (redacted).",
        1,
    )


@pytest.mark.parametrize("form", ["NFC", "NFD"])
def test_an_accented_name_is_withheld_whole_in_any_case_or_unicode_form(form: str) -> None:
    names = NameRedaction({normalise_subject("José Müller"): Sensitivity.PERSONAL})
    nf: Literal["NFC", "NFD"] = "NFC" if form == "NFC" else "NFD"
    text = unicodedata.normalize(nf, "José Müller, JOSÉ MÜLLER and José-Müller; not Josémüllerian.")
    shown = unicodedata.normalize(nf, "(redacted), (redacted) and (redacted); not Josémüllerian.")
    assert names.apply(text, Sensitivity.INTERNAL) == (shown, 3)


def test_an_accented_marked_name_is_withheld_from_the_block(memory: Memory, tenant: str) -> None:
    memory.beliefs.add(
        belief(
            tenant,
            id="b-zoe",
            subject="pickup",
            entities=["Zoë Müller"],
            statement="Zoë Müller is picked up from school at 3pm.",
        )
    )
    memory.entities.mark(tenant, "p1", "Zoë Müller", "personal")
    team = memory.recall(
        request(tenant, goal="school pickup at 3pm", surface="team"), policy=patient_policy()
    )
    assert "b-zoe" in team.rendered_ids
    assert "(redacted) is picked up" in team.block
    assert "Zo" not in team.block and "ller" not in team.block


@pytest.mark.parametrize(
    ("marked", "text", "shown"),
    [
        ("Jonas Berg", "Berg, Jonas wrote it.", "(redacted) wrote it."),
        ("Jonas Berg", "BERG Jonas, the lead", "(redacted), the lead"),
        (
            "Jonas Berg",
            "Jonas Berg's car and Jonas Berg’s bike",
            "(redacted)'s car and (redacted)’s bike",
        ),
        ("Jonas Berg", "Jonas K. Berg and jonas k l berg", "(redacted) and (redacted)"),
        ("Jonas Berg", "met Jonas\n      Berg at noon", "met (redacted) at noon"),
        ("Jonas K. Berg", "Jonas Berg and Berg, Jonas", "(redacted) and (redacted)"),
        ("Zoë Müller", "Zoe Muller, ZOË MÜLLER; Müller, Zoë", "(redacted), (redacted); (redacted)"),
        ("Иван Петров", "Петров, Иван и ИВАН ПЕТРОВ", "(redacted) и (redacted)"),
        ("María de la Cruz", "de la Cruz, María called", "(redacted) called"),
    ],
)
def test_every_spelling_of_a_marked_name_is_withheld(marked: str, text: str, shown: str) -> None:
    names = NameRedaction({normalise_subject(marked): Sensitivity.PERSONAL})
    assert names.apply(text, Sensitivity.INTERNAL) == (shown, shown.count(REDACTED_NAME))
    assert names.apply(text, Sensitivity.PERSONAL) == (text, 0)


def test_a_lone_given_name_or_surname_is_withheld_where_the_text_names_the_person() -> None:
    names = NameRedaction(
        {"jonas-berg": Sensitivity.PERSONAL, "maria-de-la-cruz": Sensitivity.PERSONAL}
    )
    team = Sensitivity.INTERNAL
    assert names.apply("Jonas Berg called. Jonas said Berg's flat is sold.", team) == (
        "(redacted) called. (redacted) said (redacted)'s flat is sold.",
        3,
    )
    assert names.apply("María de la Cruz: de la Cruz and María agree", team)[0] == (
        "(redacted): (redacted) and (redacted) agree"
    )
    # Without the full name a lone "Jonas" may be anyone: kept, as are longer words.
    kept = "Jonas said the Bergen office and Jonasson agree."
    assert names.apply(kept, team) == (kept, 0)
    assert names.apply(f"Jonas Berg wrote. {kept}", team) == (
        "(redacted) wrote. (redacted) said the Bergen office and Jonasson agree.",
        2,
    )
    # An excerpt is judged by the episode it was cut from.
    redact = Redactor.of(names, team)
    assert redact("… Berg said it moves", "Jonas Berg joined. … Berg said it moves") == (
        "… (redacted) said it moves",
        1,
    )
    assert redact("… Berg said it moves", "Ada Berg joined. … Berg said it moves") == (
        "… Berg said it moves",
        0,
    )


_GAPS = st.sampled_from([" ", ", ", "\n    ", " K. ", "  \n\t", "_"])


@given(
    parts=st.lists(_WORD, min_size=2, max_size=3),
    gap=_GAPS,
    turn=st.integers(min_value=0, max_value=2),
    upper=st.booleans(),
    lone_first=st.booleans(),
)
def test_no_spelling_or_lone_part_of_a_named_key_survives(
    parts: list[str], gap: str, turn: int, upper: bool, lone_first: bool
) -> None:
    key = "-".join(parts)
    turned = parts[turn % len(parts) :] + parts[: turn % len(parts)]
    mention = gap.join(p.upper() if upper else p.capitalize() for p in turned)
    lone = (parts[0] if lone_first else parts[-1]).capitalize()
    text = f"Met {mention} today. {lone}'s plan holds."
    shown, count = NameRedaction({key: Sensitivity.PERSONAL}).apply(text, Sensitivity.INTERNAL)
    assert count >= 2
    for part in (parts[0], parts[-1]):
        assert not re.search(rf"(?<![A-Za-z0-9]){part}(?![A-Za-z0-9])", shown, re.IGNORECASE)
    # Byte-stable: the same text and marks give the same bytes.
    assert NameRedaction({key: Sensitivity.PERSONAL}).apply(text, Sensitivity.INTERNAL) == (
        shown,
        count,
    )


def test_other_spellings_are_withheld_on_every_surface_path(memory: Memory, tenant: str) -> None:
    _store(memory, tenant)
    filler = " ".join(f"word{i}" for i in range(80))
    memory.episodes.add(
        {
            "id": "e-rota",
            "tenant_id": tenant,
            "principal_id": "p1",
            "occurred_at": datetime(2025, 3, 1, tzinfo=UTC),
            "content": f"Maya Lindqvist joined the rota. {filler} Later Maya said the"
            " school pickup moves to 4pm.",
        }
    )
    memory.beliefs.add(
        belief(
            tenant,
            id="b-rota",
            subject="school-rota",
            entities=["school"],
            statement="Lindqvist, Maya asked for the school pickup rota; Maya takes Fridays.",
            confidence=0.9,
        )
    )
    # Asked as the team may ask it: a goal naming her reads as a name nobody has there.
    asked = request(tenant, goal="school pickup rota", as_of=AS_OF, surface="team")
    team = memory.recall(asked, policy=POLICY)
    assert "b-rota" in team.rendered_ids
    assert "maya" not in team.block.lower() and "lindqvist" not in team.block.lower()
    assert "(redacted) asked for the school pickup rota; (redacted) takes Fridays" in team.block
    trace_id = _recall(memory, tenant, "direct").trace_id
    view = memory.explain(tenant, "p1", trace_id, viewer_surface="team", policy=POLICY)
    assert "maya" not in view.model_dump_json().lower()
    ask = {"tenant_id": tenant, "principal_id": "p1", "query": "school pickup moves 4pm"}
    found = memory.search_episodes({**ask, "surface": "team"}, retrieval_policy=POLICY)
    rota = next(i for i in found.items if i.episode_id == "e-rota")
    assert rota.excerpted and "Maya" not in rota.text and "(redacted) said" in rota.text


def test_a_principal_with_many_marked_names_keeps_its_patterns_bounded() -> None:
    # A long-running server reads texts naming ever other combinations of a principal's
    # marked names; each combination's pattern is compiled once, and the oldest are let go,
    # so what it holds stays bounded, and a text whose pattern was let go reads the same.
    people = [f"person{chr(97 + i)}-surname{chr(97 + i)}" for i in range(14)]
    names = NameRedaction({key: Sensitivity.PERSONAL for key in people})
    marked = names.pattern(Sensitivity.INTERNAL)
    assert marked is not None

    def text(combination: tuple[int, ...]) -> str:
        full = " and ".join(people[i].replace("-", " ").title() for i in combination)
        return f"{full} met; later {people[combination[0]].split('-')[1].title()} left."

    combinations = list(itertools.islice(itertools.combinations(range(len(people)), 3), 600))
    first = names.apply(text(combinations[0]), Sensitivity.INTERNAL)
    assert first[0] == "(redacted) and (redacted) and (redacted) met; later (redacted) left."
    for combination in combinations:
        assert names.apply(text(combination), Sensitivity.INTERNAL)[1] == 4
    held = sum(1 for v in vars(marked).values() if isinstance(v, dict) for _ in v)
    assert held < 2 * len(people) + 300
    assert names.apply(text(combinations[0]), Sensitivity.INTERNAL) == first
