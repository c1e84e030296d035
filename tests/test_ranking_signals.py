"""Adjacency, graph neighbours loaded beyond the candidate cut, the periods a query
names, told time and turns that ask: ranking signals that move a candidate without
letting it past the floor."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from recallflow import Memory, RecallRequest
from recallflow.core.calibration import CalibrationRef
from recallflow.core.query_forming import asks_when, named_periods
from recallflow.core.relevance import (
    asking_share,
    candidate_relevance,
    own_evidence,
    tells_time,
    within,
)
from recallflow.models.result import Arm, ArmHit, ArmResult
from recallflow.models.stages import CandidateEvidence, EvidenceSet, TextCoverage
from recallflow.models.store import BeliefEdge, EdgeRelation
from recallflow.nodes.fusion import fused_candidates
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy
from tests.helpers import belief, patient_policy, request

CALIBRATION = CalibrationRef(embedder="e", corpus_version="v", pair_mean=0.1, pair_std=0.1)
NULL = (0.35,)
MONTHS = (
    "January February March April May June July August September October November December"
).split()


def _evidence(
    coverage: dict[str, float], links: tuple[tuple[str, str, float], ...] = ()
) -> EvidenceSet:
    return EvidenceSet(
        by_id={
            bid: CandidateEvidence(cosines=(0.1,), texts=(TextCoverage(held=c, total=1.0),))
            for bid, c in coverage.items()
        },
        links=links,
    )


def _with(**relevance: float | int) -> RetrievalPolicy:
    return DEFAULT_POLICY.model_copy(
        update={"relevance": DEFAULT_POLICY.relevance.model_copy(update=relevance)}
    )


def test_the_reply_to_the_matching_turn_outranks_an_unlinked_weak_match() -> None:
    # "question" matches the query; "reply" (linked by a follows edge) shares no word.
    evidence = _evidence(
        {"question": 0.9, "reply": 0.0, "loose": 0.3},
        links=(("question", "reply", 1.0),),
    )
    lifted = candidate_relevance(evidence, NULL, CALIBRATION, DEFAULT_POLICY)
    assert lifted["reply"].relevance > lifted["loose"].relevance
    # the lift is ranking only: the reply's own evidence still does not clear the floor
    assert not lifted["reply"].clears
    off = candidate_relevance(evidence, NULL, CALIBRATION, _with(adjacency=0.0))
    assert off["reply"].relevance < off["loose"].relevance


def test_only_the_top_candidates_lend_their_relevance() -> None:
    evidence = _evidence(
        {"a": 0.9, "b": 0.8, "c": 0.2, "na": 0.0, "nc": 0.0},
        links=(("a", "na", 1.0), ("c", "nc", 1.0)),
    )
    relevance = candidate_relevance(evidence, NULL, CALIBRATION, _with(adjacency_seeds=2))
    assert relevance["na"].relevance > relevance["nc"].relevance
    # a looser link lends less
    loose = _evidence({"a": 0.9, "n": 0.0}, links=(("a", "n", 0.5),))
    tight = _evidence({"a": 0.9, "n": 0.0}, links=(("a", "n", 1.0),))
    assert (
        candidate_relevance(loose, NULL, CALIBRATION, DEFAULT_POLICY)["n"].relevance
        < candidate_relevance(tight, NULL, CALIBRATION, DEFAULT_POLICY)["n"].relevance
    )


def test_a_candidate_in_the_named_period_ranks_higher_but_does_not_clear() -> None:
    evidence = _evidence({"then": 0.3, "other": 0.3})
    relevance = candidate_relevance(
        evidence, NULL, CALIBRATION, DEFAULT_POLICY, in_period=frozenset({"then"})
    )
    assert relevance["then"].relevance > relevance["other"].relevance
    assert relevance["then"].clears == relevance["other"].clears


def _result(arm: Arm, ids: list[str]) -> ArmResult:
    return ArmResult(
        arm=arm,
        hits=tuple(ArmHit(belief_id=i, rank=n, raw_score=1.0) for n, i in enumerate(ids, 1)),
    )


def test_graph_neighbours_are_loaded_below_the_candidate_cut() -> None:
    lexical = _result(Arm.LEXICAL, [f"l{i}" for i in range(10)])
    graph = _result(Arm.GRAPH_EXPANDED, ["n1", "n2", "n3"])
    policy = DEFAULT_POLICY.model_copy(
        update={
            "limits": DEFAULT_POLICY.limits.model_copy(
                update={"max_candidates": 5, "graph_loaded": 2}
            )
        }
    )
    ids = [
        c.belief_id for c in fused_candidates((lexical, graph), ArmResult(arm=Arm.PROFILE), policy)
    ]
    assert ids[:5] == [f"l{i}" for i in range(5)]
    assert sorted(ids[5:]) == ["n1", "n2"]
    off = policy.model_copy(update={"limits": policy.limits.model_copy(update={"graph_loaded": 0})})
    assert len(fused_candidates((lexical, graph), ArmResult(arm=Arm.PROFILE), off)) == 5


def test_named_periods_of_common_phrasings() -> None:
    day = (datetime(2023, 12, 4, tzinfo=UTC), datetime(2023, 12, 5, tzinfo=UTC))
    assert named_periods(["What was Sam doing on December 4, 2023?"]) == (day,)
    assert named_periods(["on the 4th of December 2023"]) == (day,)
    assert named_periods(["notes from 2023-12-04"]) == (day,)
    assert named_periods(["Where was Dave in August 2023?"]) == (
        (datetime(2023, 8, 1, tzinfo=UTC), datetime(2023, 9, 1, tzinfo=UTC)),
    )
    assert named_periods(["What did she paint in 2022?"]) == (
        (datetime(2022, 1, 1, tzinfo=UTC), datetime(2023, 1, 1, tzinfo=UTC)),
    )
    assert named_periods(["May I ask what you did last week?", "February 30, 2023"]) == ()


_FORMS = (
    "What happened on {month} {day}, {year}?",
    "on the {day}th of {month} {year}",
    "notes from {year}-{mm}-{dd}",
    "Where was Dave in {month} {year}?",
    "What did she paint in {year}?",
)


@given(
    form=st.sampled_from(_FORMS),
    year=st.integers(0, 9999),
    month=st.integers(0, 13),
    day=st.integers(0, 99),
)
def test_a_written_date_no_calendar_holds_names_no_period_and_fails_nothing(
    form: str, year: int, month: int, day: int
) -> None:
    """A date no calendar holds ("May 0000", "December 31, 9999") is text a user may type;
    reading it as a period raised out of the recall (a traceback from the CLI). A date the
    calendar holds is still that period."""
    text = form.format(
        month=MONTHS[(month - 1) % 12], day=day, year=f"{year:04d}", mm=f"{month:02d}",
        dd=f"{day:02d}",
    )  # fmt: skip
    for start, end in named_periods([text]):
        assert start < end and start.year == year


def test_a_question_naming_a_year_out_of_the_calendar_still_recalls(
    memory: Memory, tenant: str
) -> None:
    statement = "The team moved the backups offsite in May."
    memory.beliefs.add(belief(tenant, id="b-may", subject="backups", statement=statement))
    for goal in ("When did the team move the backups offsite, May 0000?", "On 9999-12-31?"):
        result = memory.recall(request(tenant, goal=goal))
        assert not result.degraded
        assert memory.explain(tenant, "p1", result.trace_id).trace_id == result.trace_id
    result = memory.recall(request(tenant, goal="Did the team move the backups in May 0000?"))
    assert "b-may" in result.rendered_ids


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 12, 31)))
def test_a_named_day_is_that_day(day: date) -> None:
    text = f"What happened on {MONTHS[day.month - 1]} {day.day}, {day.year}?"
    ((start, end),) = named_periods([text])
    assert start.date() == day
    assert end - start == timedelta(days=1)
    assert within(start + timedelta(hours=13), [(start, end)])
    assert not within(end, [(start, end)])


def test_the_period_arm_finds_what_was_said_in_the_named_month(memory: Memory, tenant: str) -> None:
    # Twelve visits, one a month; the question shares no word with the May one but "May".
    months = [datetime(2023, m, 10, tzinfo=UTC) for m in range(1, 13)]
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id=f"b-{when.month:02d}",
                statement=f"Went hiking near the lake with Sam ({when:%B} trip {when.month}).",
                subject="hiking",
                valid_from=when,
                recorded_at=when,
            )
            for when in months
        ]
        + [belief(tenant, id="b-other", statement="The user drinks green tea.", subject="tea")]
    )
    result = memory.recall(
        RecallRequest.model_validate(
            request(
                tenant,
                goal="What did I do outdoors in May 2023?",
                as_of=datetime(2024, 1, 1, tzinfo=UTC),
            )
        ),
        policy=patient_policy(),
    )
    arm = next(a for a in result.trace.arms if a.arm is Arm.PERIOD)
    assert arm.ok and [h.belief_id for h in arm.hits] == ["b-05"]
    assert result.trace.ranked_ids[0] == "b-05"
    # a question that names no period asks the store nothing in this arm
    plain = memory.recall(
        RecallRequest.model_validate(request(tenant, goal="What did I do outdoors?")),
        policy=patient_policy(),
    )
    assert not next(a for a in plain.trace.arms if a.arm is Arm.PERIOD).hits


def test_questions_that_ask_when_and_statements_that_tell_a_time() -> None:
    for question in (
        "When did Ana go to the lake?",
        "How long ago did she move?",
        "What year did he start?",
        "Which month was the concert in?",
        "So when is the dentist appointment?",
        "Remind me, when is the dentist appointment?",
        "Do you remember when we met?",
        "Since when has she lived in Lyon?",
        "when did i last call mum",
    ):
        assert asks_when([question]), question
    for question in (
        "What did Ana do at the lake?",
        "May I see the list?",
        "Whenever.",
        # a "when" that opens a condition asks nothing about time
        "What herbs should I leave out when cooking for Maya?",
        "What should I pack when I go to Japan?",
        "How does Ana feel when spending time with her dog?",
        "What do I do when it rains?",
        "Who was there when the party started?",
    ):
        assert not asks_when([question]), question
    for statement in (
        "I went to the lake yesterday!",
        "We moved there two weeks ago.",
        "See you next Saturday",
        "It opened in 2019.",
        "The concert was in October.",
    ):
        assert tells_time(statement), statement
    for statement in (
        "The lake was lovely and warm.",
        "You may like it.",
        "Ana swims well.",
        "She is 5 years old.",  # an age says how old, not when
        "We adopted a six-month-old puppy.",
    ):
        assert not tells_time(statement), statement
    assert tells_time("She was 5 years old two years ago.")


def test_coverage_alone_does_not_clear_a_belief_further_from_the_query_than_noise() -> None:
    """ "How do I train for a triathlon?" and "Jasmine is a trained barista": half the
    query's rarity-weighted words, and a similarity far below what unrelated sentences
    score against the query. One shared word is not aboutness; coverage alone clears only
    a belief whose similarity is not that far below, or whose vector could not be read."""

    def clears(cosines: tuple[float, ...]) -> bool:
        evidence = CandidateEvidence(cosines=cosines, texts=(TextCoverage(held=1, total=2),))
        return own_evidence({"b": evidence}, NULL, CALIBRATION, DEFAULT_POLICY)["b"][3]

    least = DEFAULT_POLICY.floor.lexical_standing
    far = NULL[0] + (least - 1.0) * CALIBRATION.pair_std
    near = NULL[0] + (least + 0.5) * CALIBRATION.pair_std
    assert not clears((far,))
    assert clears((near,))
    assert clears(())


def test_a_statement_that_says_when_ranks_higher_but_does_not_clear() -> None:
    evidence = _evidence({"told": 0.3, "other": 0.3})
    relevance = candidate_relevance(
        evidence, NULL, CALIBRATION, DEFAULT_POLICY, says_when=frozenset({"told"})
    )
    assert relevance["told"].relevance > relevance["other"].relevance
    assert relevance["told"].clears == relevance["other"].clears
    off = candidate_relevance(
        evidence, NULL, CALIBRATION, _with(says_when=0.0), says_when=frozenset({"told"})
    )
    assert off["told"].relevance == off["other"].relevance


def test_asked_when_the_turn_that_says_when_comes_first(memory: Memory, tenant: str) -> None:
    # Both turns are about Ana's lake trip; only one says when it was.
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id="described",
                statement="Ana: the lake trip with Sam was lovely, the lake water was warm.",
                subject="lake-trip",
            ),
            belief(
                tenant,
                id="dated",
                statement="Ana: Sam and I went on a trip to the lake last Friday.",
                subject="lake-trip",
            ),
        ]
    )
    asked = RecallRequest.model_validate(request(tenant, goal="When was Ana's lake trip with Sam?"))
    assert memory.recall(asked, policy=patient_policy()).trace.ranked_ids[0] == "dated"
    off = patient_policy().model_copy(
        update={"relevance": DEFAULT_POLICY.relevance.model_copy(update={"says_when": 0.0})}
    )
    assert memory.recall(asked, policy=off).trace.ranked_ids[0] == "described"
    # a question that does not ask when is not reordered by dates
    what = RecallRequest.model_validate(request(tenant, goal="How was Ana's lake trip with Sam?"))
    assert memory.recall(what, policy=patient_policy()).trace.ranked_ids[0] == "described"


def test_how_much_of_a_statement_asks() -> None:
    assert asking_share("What made you combine dance and fashion?") == 1.0
    assert asking_share("Did you see it? [image: a dog on a beach]") == 1.0
    # a statement that tells and then asks back still mostly tells
    told_then_asked = asking_share("I love sci-fi movies, the effects are so cool! And you?")
    assert 0.0 < told_then_asked < 0.5
    for statement in ("I went to the lake.", "Why? Because it was warm.", ""):
        assert asking_share(statement) == 0.0, statement


@given(st.text(max_size=200))
def test_the_asking_share_is_a_share(statement: str) -> None:
    assert 0.0 <= asking_share(statement) <= 1.0


def test_a_turn_that_asks_ranks_below_the_turn_that_answers_but_clears_alike() -> None:
    evidence = _evidence({"asks": 0.6, "answers": 0.6})
    relevance = candidate_relevance(
        evidence, NULL, CALIBRATION, DEFAULT_POLICY, asking={"asks": 1.0}
    )
    assert relevance["asks"].relevance < relevance["answers"].relevance
    assert relevance["asks"].clears == relevance["answers"].clears
    off = candidate_relevance(evidence, NULL, CALIBRATION, _with(asking=0.0), asking={"asks": 1.0})
    assert off["asks"].relevance == off["answers"].relevance


def test_asked_what_the_answer_comes_before_the_question(memory: Memory, tenant: str) -> None:
    memory.beliefs.add_many(
        [
            belief(
                tenant,
                id="question",
                statement="Jon: Wow! What made Gina combine her clothing business with dance?",
                subject="gina-business",
            ),
            belief(
                tenant,
                id="answer",
                statement="Gina: I combined my clothing business with dance because I love both.",
                subject="gina-business",
            ),
        ]
    )
    asked = RecallRequest.model_validate(
        request(tenant, goal="Why did Gina combine her clothing business with dance?")
    )
    assert memory.recall(asked, policy=patient_policy()).trace.ranked_ids[0] == "answer"
    off = patient_policy().model_copy(
        update={"relevance": DEFAULT_POLICY.relevance.model_copy(update={"asking": 0.0})}
    )
    assert memory.recall(asked, policy=off).trace.ranked_ids[0] == "question"


def test_the_turn_after_a_top_turn_that_asks_is_lifted_above_the_turn_before_it() -> None:
    # "asks" matches the query and ends by asking; the turns before and after it share
    # none of its words and are linked to it alike, but only "after" follows it.
    def lifted(asking: dict[str, float], policy: RetrievalPolicy) -> dict[str, float]:
        evidence = EvidenceSet(
            by_id=_evidence({"asks": 0.9, "before": 0.0, "after": 0.0}).by_id,
            links=(("after", "asks", 1.0), ("asks", "before", 1.0)),
            follows=(("asks", "after"), ("before", "asks")),
        )
        out = candidate_relevance(evidence, NULL, CALIBRATION, policy, asking=asking)
        assert not out["after"].clears  # ranking only
        return {i: e.relevance for i, e in out.items()}

    asked = lifted({"asks": 1.0}, DEFAULT_POLICY)
    assert asked["after"] > asked["before"] > 0
    # a top turn that only asks lends its reply more than a seed that tells would
    assert asked["after"] > DEFAULT_POLICY.relevance.adjacency * asked["asks"]
    # a turn that tells lends both neighbours alike; so does one that asks with reply off
    assert lifted({}, DEFAULT_POLICY)["after"] == lifted({}, DEFAULT_POLICY)["before"]
    off = lifted({"asks": 1.0}, _with(reply=0.0))
    assert off["after"] == off["before"]


def test_asked_back_the_reply_outranks_the_turn_before_the_question(
    memory: Memory, tenant: str
) -> None:
    # A conversation of three turns: the middle one asks what the query asks; the
    # answer follows it, and the turn before it shares the question's words no more than it.
    memory.beliefs.add_many(
        [
            belief(tenant, id="t1", statement="Sam: I spent the whole weekend outdoors."),
            belief(tenant, id="t2", statement="Ana: Which lake did you kayak on with Leo?"),
            belief(tenant, id="t3", statement="Sam: The one below the pines, at sunrise."),
        ]
    )
    memory.edges.add_many(
        [
            BeliefEdge(
                tenant_id=tenant,
                principal_id="p1",
                src_id=src,
                dst_id=dst,
                relation=EdgeRelation.FOLLOWS,
            )
            for src, dst in (("t1", "t2"), ("t2", "t3"))
        ]
    )
    asked = RecallRequest.model_validate(
        request(tenant, goal="Which lake did Sam kayak on with Leo?")
    )
    ranked = memory.recall(asked, policy=patient_policy()).trace.ranked_ids
    assert ranked.index("t3") < ranked.index("t1")
    off = patient_policy().model_copy(
        update={"relevance": DEFAULT_POLICY.relevance.model_copy(update={"reply": 0.0})}
    )
    ranked_off = memory.recall(asked, policy=off).trace.ranked_ids
    assert ranked_off.index("t1") < ranked_off.index("t3")
