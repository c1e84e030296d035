"""Values a stage builds without validating them again are the same values, and a slip in
building one (a field left out or misspelt) fails at once rather than at a later read; so
do the stage values made as plain function calls."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recallflow.core.scoring import rank_key
from recallflow.models.base import FrozenModel, ModelEnum
from recallflow.models.result import (
    Arm,
    ConfidenceBand,
    FusedCandidate,
    ScoreBreakdown,
    ScoredEntry,
)
from recallflow.models.stages import (
    CandidateEvidence,
    ScoredCandidate,
    TextCoverage,
    make_candidate_evidence,
    make_scored_candidate,
    make_text_coverage,
)
from recallflow.models.store import Belief


class _Row(FrozenModel):
    name: str
    score: float
    tags: tuple[str, ...] = ()


@given(st.text(), st.floats(allow_nan=False), st.lists(st.text(), max_size=3))
def test_a_trusted_value_equals_the_validated_one(name: str, score: float, tags: list[str]) -> None:
    validated = _Row(name=name, score=score, tags=tuple(tags))
    trusted = _Row.trusted(name=name, score=score, tags=tuple(tags))
    assert trusted == validated
    assert trusted.model_dump() == validated.model_dump()
    assert hash(trusted) == hash(validated)


def test_a_trusted_value_needs_every_field_and_no_other() -> None:
    with pytest.raises(TypeError, match=r"_Row\.trusted\(\) missing .*argument: 'tags'"):
        _Row.trusted(name="a", score=1.0)
    with pytest.raises(TypeError, match=r"_Row\.trusted\(\) got an unexpected .* 'scroe'"):
        _Row.trusted(name="a", scroe=1.0, score=1.0, tags=())


def test_a_score_breakdown_built_trusted_reads_back_as_validated() -> None:
    fields: dict[str, object] = {name: 0.25 for name in ScoreBreakdown.model_fields}
    fields["penalties"] = {"stale": -0.1}
    assert ScoreBreakdown.trusted(**fields) == ScoreBreakdown(**fields)


class _Tagged(_Row):
    label: str = ""


def test_a_trusted_value_keeps_the_declared_order_whatever_the_order_given() -> None:
    validated = _Row(name="a", score=1.5, tags=("x",))
    trusted = _Row.trusted(tags=("x",), score=1.5, name="a")
    assert trusted.model_dump_json() == validated.model_dump_json()
    assert list(trusted.model_dump()) == ["name", "score", "tags"]


def test_a_model_built_on_another_is_trusted_with_its_own_fields() -> None:
    _Row.trusted(name="a", score=1.0, tags=())  # the base's own, before the next model

    class Late(_Row):
        label: str = ""

    for model in (_Tagged, Late):
        built = model.trusted(name="a", score=1.0, tags=(), label="l")
        assert built == model(name="a", score=1.0, label="l")
        assert type(built) is model
        with pytest.raises(TypeError, match=r"missing .*argument: 'label'"):
            model.trusted(name="a", score=1.0, tags=())
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'label'"):
        _Row.trusted(name="a", score=1.0, tags=(), label="l")


def test_a_models_enum_reads_its_members_string_as_value() -> None:
    # Its ``value`` is read in C (what pydantic reads to serialise each enum field);
    # it must still be the member's own string, through JSON and back.
    for enum in (Arm, ConfidenceBand):
        assert issubclass(enum, ModelEnum)
        for member in enum:
            assert member.value == str(member) and type(member.value) is str
            assert enum(member.value) is member
    entry = ScoredEntry.trusted(
        belief_id="b1",
        score=0.5,
        band=ConfidenceBand.HIGH,
        transferred=False,
        arm_ranks={Arm.SEMANTIC: 1},
        breakdown=ScoreBreakdown(
            match=0.0,
            confidence_state=0.5,
            corroboration=0.0,
            authority=0.0,
            scope_affinity=0.0,
            utility=0.0,
            penalties={},
            total=0.5,
        ),
        relevance=None,
    )
    text = entry.model_dump_json()
    assert '"band":"high"' in text and '"arm_ranks":{"semantic_hits":1}' in text
    assert ScoredEntry.model_validate_json(text) == entry


def _scored(belief_id: str, total: float) -> ScoredCandidate:
    breakdown = ScoreBreakdown(
        match=total,
        confidence_state=0.0,
        corroboration=0.0,
        authority=0.0,
        scope_affinity=0.0,
        utility=0.0,
        penalties={},
        total=total,
    )
    return ScoredCandidate(
        belief=Belief.model_validate(
            {
                "id": belief_id,
                "tenant_id": "t",
                "principal_id": "p",
                "statement": "s",
                "subject": "s",
                "scope": "user",
                "recorded_at": datetime(2026, 1, 1, tzinfo=UTC),
            }
        ),
        fused=FusedCandidate(belief_id=belief_id, rrf_score=0.1, arm_ranks={}),
        breakdown=breakdown,
        band=ConfidenceBand.HIGH,
        transferred=False,
    )


def test_a_stage_value_made_by_its_maker_equals_the_one_its_class_makes() -> None:
    coverage = make_text_coverage(held=1.5, total=3.0, words_held=1, words=2, fingerprint=7.0)
    assert coverage == TextCoverage(held=1.5, total=3.0, words_held=1, words=2, fingerprint=7.0)
    evidence = make_candidate_evidence(
        cosines=(0.5,), texts=(coverage,), names=(), subject_match=True, centrality=None
    )
    assert evidence == CandidateEvidence(cosines=(0.5,), texts=(coverage,), subject_match=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        evidence.subject_match = False  # type: ignore[misc]
    # Every field must be given, and no other (as a trusted model's): a slip fails at once.
    with pytest.raises(TypeError, match=r"make_TextCoverage\(\) missing .*argument: 'words'"):
        make_text_coverage(held=1.5, total=3.0, words_held=1, fingerprint=7.0)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'wrods'"):
        make_text_coverage(held=1.5, total=3.0, words_held=1, words=2, fingerprint=7.0, wrods=2)


def test_a_scored_candidate_reads_its_id_and_score_from_its_belief_and_breakdown() -> None:
    made = _scored("b1", 0.5)
    fields = {f.name: getattr(made, f.name) for f in dataclasses.fields(made) if f.init}
    assert make_scored_candidate(**fields) == made
    for scored in (made, make_scored_candidate(**fields)):
        assert (scored.belief_id, scored.score) == ("b1", 0.5)
    # A breakdown changed later (resolution's cap under a local belief) moves the score.
    lowered = dataclasses.replace(made, breakdown=_scored("b1", 0.25).breakdown)
    assert (lowered.belief_id, lowered.score) == ("b1", 0.25)
    assert rank_key(lowered) == (-0.25, "b1")


@given(st.text(), st.floats(allow_nan=False), st.lists(st.text(), max_size=3))
def test_a_replaced_value_is_the_one_model_copy_makes(
    name: str, score: float, tags: list[str]
) -> None:
    for row in (_Row(name="a", score=1.0), _Row.trusted(name="a", score=1.0, tags=("x",))):
        copied = row.model_copy(update={"score": score, "tags": tuple(tags)})
        replaced = row.replaced(score=score, tags=tuple(tags))
        assert replaced == copied
        assert list(replaced.__dict__) == list(copied.__dict__)
        assert replaced.model_fields_set == copied.model_fields_set
        assert replaced.model_dump_json() == copied.model_dump_json()
        assert row.replaced(name=name).name == name
        assert row.score == 1.0  # the original is left as it was
    assert _Row(name="a", score=1.0).replaced(score=2.0).model_fields_set == {"name", "score"}


def test_replacing_a_field_the_model_does_not_have_fails() -> None:
    with pytest.raises(TypeError, match=r"_Row\.replaced: unknown fields \['scroe'\]"):
        _Row(name="a", score=1.0).replaced(scroe=2.0)
