"""Values a stage builds without validating them again are the same values, and a slip in
building one (a field left out or misspelt) fails at once rather than at a later read."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recallflow.models.base import FrozenModel, ModelEnum
from recallflow.models.result import Arm, ConfidenceBand, ScoreBreakdown, ScoredEntry


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
