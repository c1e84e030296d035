"""The retrieval policy: frozen all the way down, validated however it is made, and its
``retrieval_policy_version`` changes whenever anything in it does (no database)."""

from __future__ import annotations

import copy
import json
import math
import pickle
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from recallflow.core.calibration import CORPUS_VERSION, CalibrationRef, uncalibrated
from recallflow.dataflows import POLICY_KEYS, dag_config
from recallflow.errors import InvalidInputError
from recallflow.models.request import Moment
from recallflow.models.result import ConfidenceBand
from recallflow.models.store import BeliefType, LifecycleState, Portability, SourceAuthority
from recallflow.policy import (
    DEFAULT_POLICY,
    Arm,
    Budget,
    Ranking,
    RetrievalPolicy,
    match_only,
)

# --- frozen -------------------------------------------------------------------------------


def _values(value: Any, path: str = "policy") -> Iterator[tuple[str, Any]]:
    """Every value reachable from ``value`` (fields of models, items of mappings and
    tuples), with a readable path."""
    yield path, value
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _values(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _values(item, f"{path}[{key!r}]")
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            yield from _values(item, f"{path}[{index}]")


def test_nothing_in_the_policy_is_mutable() -> None:
    mutable = [
        path
        for path, value in _values(DEFAULT_POLICY)
        if isinstance(value, dict | list | set | bytearray)
        or (isinstance(value, BaseModel) and not value.model_config.get("frozen"))
    ]
    assert mutable == []


def test_changing_the_default_policy_in_place_raises() -> None:
    with pytest.raises(TypeError):
        DEFAULT_POLICY.budgets[Moment.IN_TURN] = Budget(max_items=1, max_tokens=1)  # type: ignore[index]
    with pytest.raises(TypeError):
        DEFAULT_POLICY.arm_weights[Arm.LEXICAL] = 5.0  # type: ignore[index]
    with pytest.raises(TypeError):
        del DEFAULT_POLICY.state_factor[LifecycleState.ACTIVE]  # type: ignore[attr-defined]
    with pytest.raises(ValidationError):
        DEFAULT_POLICY.rrf_k = 1  # type: ignore[misc]
    with pytest.raises(ValidationError):
        DEFAULT_POLICY.limits.per_arm = 1  # type: ignore[misc]
    assert RetrievalPolicy() == DEFAULT_POLICY


def test_a_derived_policy_is_as_frozen_as_the_default() -> None:
    derived = DEFAULT_POLICY.model_copy(update={"arm_weights": {"lexical_hits": 0.5}})
    assert derived.arm_weights == {Arm.LEXICAL: 0.5}
    with pytest.raises(TypeError):
        derived.arm_weights[Arm.LEXICAL] = 1.0  # type: ignore[index]


def test_a_policy_survives_copy_pickle_and_its_own_json() -> None:
    for twin in (
        copy.deepcopy(DEFAULT_POLICY),
        pickle.loads(pickle.dumps(DEFAULT_POLICY)),
        RetrievalPolicy.model_validate_json(DEFAULT_POLICY.model_dump_json()),
        RetrievalPolicy.model_validate(DEFAULT_POLICY.model_dump(mode="json")),
    ):
        assert twin == DEFAULT_POLICY
        assert twin.version == DEFAULT_POLICY.version


# --- validated --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "update",
    [
        {"arm_weights": {"lexcial_hits": 0.5}},  # a typo: it used to do nothing, silently
        {"arms": ("structured_hits", "vector_hits")},
        {"arms": ()},
        {"arms": ("lexical_hits", "lexical_hits")},
        {"arms": ("lexical_hits", "graph_expanded_hits")},
        {"ranking": "learned"},
        {"budgets": {"in_turn": {"max_items": -1, "max_tokens": 600}}},
        {"budgets": {}},  # the in-turn budget is required
        {"admissible_states": {"in_turn": ("active",)}},  # every moment needs its states
        {"rrf_k": 0},
        {"arm_weight": {"lexical_hits": 0.5}},  # not a field
    ],
)
def test_a_bad_policy_is_refused_however_it_is_made(update: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        RetrievalPolicy(**update)
    with pytest.raises(ValidationError):
        DEFAULT_POLICY.model_copy(update=update)


@pytest.mark.parametrize("moment", [Moment.SESSION_SNAPSHOT, Moment.CHILD_RUN])
def test_a_snapshot_budget_in_budgets_is_refused_and_named(moment: Moment) -> None:
    # A snapshot takes its session kind's budget; one given here would be read by no
    # recall yet change the version, so it is refused, naming where the budget lives.
    budgets = {**DEFAULT_POLICY.budgets, moment: Budget(max_items=3, max_tokens=300)}
    data = DEFAULT_POLICY.model_dump(mode="json")
    data["budgets"][moment.value] = {"max_items": 3, "max_tokens": 300}
    makers: list[Callable[[], RetrievalPolicy]] = [
        lambda: RetrievalPolicy(budgets=budgets),
        lambda: DEFAULT_POLICY.model_copy(update={"budgets": budgets}),
        lambda: RetrievalPolicy.model_validate_json(json.dumps(data)),
    ]
    for make in makers:
        with pytest.raises(ValidationError) as raised:
            make()
        (error,) = raised.value.errors()
        assert error["loc"] == ("budgets",)
        assert f"budgets[{moment.value}] is read by no recall" in error["msg"]
        assert "sessions.budgets[kind]" in error["msg"]


def test_the_budgets_hold_the_in_turn_budget_only() -> None:
    assert dict(DEFAULT_POLICY.budgets) == {Moment.IN_TURN: Budget(max_items=8, max_tokens=600)}


def test_arm_names_are_the_arm_node_names() -> None:
    from recallflow.dataflows import build

    nodes = build().graph.nodes
    fused = [arm for arm in Arm if arm is not Arm.DURABLE]  # the snapshot's own arm
    assert all(arm.value in nodes for arm in fused)
    assert all(nodes[arm.value].tags["stage"] == "arm" for arm in fused)


# --- versioned --------------------------------------------------------------------------

_ENUM_VALUES = [
    m.value
    for enum in (
        Arm,
        Ranking,
        LifecycleState,
        ConfidenceBand,
        Portability,
        SourceAuthority,
        Moment,
        BeliefType,
    )
    for m in enum
]


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    else:
        yield path, value


def _containers(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict | list):
        yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            yield from _containers(item, (*path, key))


def _replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        return {**data, head: _replaced(data[head], rest, value)}
    return [_replaced(item, rest, value) if i == head else item for i, item in enumerate(data)]


def _alternatives(value: Any) -> list[Any]:
    if value is None:  # the calibration, unbound until a store binds its embedder's
        return [{"embedder": "e", "corpus_version": "v", "pair_mean": 0.0, "pair_std": 0.1}]
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1]
    if isinstance(value, float):
        return [value / 2 if value else 0.01, value + 0.01]
    if isinstance(value, str):
        return [f"{value}-variant", *(v for v in _ENUM_VALUES if v != value)]
    raise AssertionError(f"unexpected leaf {value!r}")


def _variant(data: dict[str, Any], path: tuple[Any, ...], options: list[Any]) -> RetrievalPolicy:
    """The policy with the value at ``path`` replaced by the first option that is valid."""
    for option in options:
        try:
            return RetrievalPolicy.model_validate(_replaced(data, path, option))
        except ValidationError:
            continue
    raise AssertionError(f"no valid change of {path}")


def test_every_change_anywhere_in_the_policy_gives_a_new_version() -> None:
    base = DEFAULT_POLICY.version
    data = DEFAULT_POLICY.model_dump(mode="json")
    assert DEFAULT_POLICY.model_copy().version == base
    changed: set[str] = set()
    for path, leaf in _leaves(data):
        variant = _variant(data, path, _alternatives(leaf))
        assert variant.version != base, path
        changed.add(path[0])
    # Removing an entry of a mapping or a tuple (an arm weight, an admissible state).
    for path, container in _containers(data):
        if isinstance(container, dict):
            options = [{k: v for k, v in container.items() if k != key} for key in container]
        else:
            options = [container[:i] + container[i + 1 :] for i in range(len(container))]
        try:
            variant = _variant(data, path, options)
        except AssertionError:
            continue  # no entry can go (a band's (name, threshold) pair)
        if variant.model_dump(mode="json") == data:
            continue  # a model's field left out falls back to its (same) default
        assert variant.version != base, path
    # A mapping empty by default has no leaf to change: adding an entry must count too.
    for name, value in data.items():
        if value == {}:
            variant = DEFAULT_POLICY.model_copy(update={name: {"a-project": 3}})
            assert variant.version != base, name
            changed.add(name)
    assert changed == set(RetrievalPolicy.model_fields)


def test_the_version_follows_content_not_identity() -> None:
    weights = DEFAULT_POLICY.task.model_copy(update={"match": 0.5})
    a = DEFAULT_POLICY.model_copy(update={"task": weights})
    b = RetrievalPolicy(task=weights)
    assert a.version == b.version != DEFAULT_POLICY.version


def test_what_a_policy_derives_is_its_own_not_the_policy_it_was_copied_from() -> None:
    # Read on the default first, so a value remembered for it could leak into the copy.
    assert DEFAULT_POLICY.rounded_penalties["flagged"] == round(DEFAULT_POLICY.penalties.flagged, 6)
    assert DEFAULT_POLICY.bands_below[ConfidenceBand.HIGH] is ConfidenceBand.MEDIUM
    before = DEFAULT_POLICY.best_fused_score
    copied = DEFAULT_POLICY.model_copy(
        update={
            "penalties": DEFAULT_POLICY.penalties.model_copy(update={"flagged": -0.1234567}),
            "bands": ((ConfidenceBand.HIGH, 0.9), (ConfidenceBand.LOW, 0.0)),
            "rrf_k": DEFAULT_POLICY.rrf_k + 40,
        }
    )
    assert copied.rounded_penalties["flagged"] == -0.123457
    assert copied.bands_below[ConfidenceBand.HIGH] is ConfidenceBand.LOW
    assert copied.best_fused_score < before
    assert DEFAULT_POLICY.rounded_penalties["flagged"] == round(DEFAULT_POLICY.penalties.flagged, 6)
    assert DEFAULT_POLICY.best_fused_score == before


def test_the_ranking_ablation_is_a_policy_with_its_own_version() -> None:
    ablation = match_only(DEFAULT_POLICY)
    assert ablation.ranking is Ranking.MATCH_ONLY
    assert ablation.version != DEFAULT_POLICY.version
    assert dag_config(ablation)["ranking"] == "match_only"


# --- the graph's shape comes from the policy only ----------------------------------------


@pytest.mark.parametrize("key", POLICY_KEYS)
def test_config_cannot_override_what_the_policy_decides(key: str) -> None:
    with pytest.raises(InvalidInputError, match="derive a policy") as raised:
        dag_config(DEFAULT_POLICY, {key: DEFAULT_POLICY.model_dump(mode="json").get(key)})
    assert raised.value.field == f"config.{key}"


def test_a_slimmed_arm_set_is_normalised_by_its_own_arms() -> None:
    # The match normaliser counts the arms that actually run: a belief every remaining arm
    # ranks first gets the full match, whatever arms were left out.
    lexical = DEFAULT_POLICY.model_copy(update={"arms": (Arm.LEXICAL,), "graph_expansion": False})
    assert dag_config(lexical)["arms"] == ("lexical_hits",)
    assert lexical.best_fused_score == pytest.approx(1 / (lexical.rrf_k + 1))


# --- the semantic arm's noise cut -----------------------------------------------------------


def _calibration(mean: float, std: float) -> CalibrationRef:
    return CalibrationRef(embedder="m", corpus_version=CORPUS_VERSION, pair_mean=mean, pair_std=std)


@pytest.mark.parametrize(
    ("mean", "std"),
    # The shipped embedders' unrelated pairs (MiniLM, e5, hashing) and a projected MiniLM:
    # the raw cut stands, so what they find does not move.
    [(0.094, 0.099), (0.775, 0.032), (0.160, 0.176), (0.097, 0.142)],
)
def test_the_semantic_cut_stays_raw_for_models_on_minilms_scale_or_higher(
    mean: float, std: float
) -> None:
    limits = DEFAULT_POLICY.limits
    assert limits.semantic_cut(_calibration(mean, std)) == limits.semantic_min_similarity


def test_the_semantic_cut_follows_a_model_whose_cosines_sit_lower() -> None:
    # Unrelated text about 0.05 and a paraphrase about 0.2: the raw 0.3 would drop the
    # paraphrase's hit before the floor could judge it.
    limits = DEFAULT_POLICY.limits
    cut = limits.semantic_cut(_calibration(0.047, 0.051))
    assert 0.047 < cut < 0.2
    assert limits.semantic_cut(None) == limits.semantic_min_similarity
    assert limits.semantic_cut(uncalibrated("m").ref) == limits.semantic_min_similarity
    raw = limits.model_copy(update={"semantic_min_standing": None})
    assert raw.semantic_cut(_calibration(0.047, 0.051)) == limits.semantic_min_similarity


def _numbers(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every number in a policy's JSON (a weight, a threshold, a cap)."""
    for leaf_path, leaf in _leaves(value, path):
        if isinstance(leaf, int | float) and not isinstance(leaf, bool):
            yield leaf_path


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_no_number_of_a_policy_is_nan_or_infinite(bad: float) -> None:
    """A NaN or infinite weight, threshold or penalty was taken, the policy given a version,
    and the recall that ran it failed in the database storing the policy (a JSON column
    holds no NaN), with psycopg's error, not the policy's; a NaN threshold passes or fails
    every comparison, so a floor of NaN is no floor. Each is refused where the policy is
    made, naming the field, however it is made."""
    calibration = {"embedder": "e", "corpus_version": "v", "pair_mean": 0.1, "pair_std": 0.1}
    data = {**DEFAULT_POLICY.model_dump(mode="json"), "calibration": calibration}
    paths = list(_numbers(data))
    assert len(paths) > 100
    for path in paths:
        with pytest.raises(ValidationError) as raised:
            RetrievalPolicy.model_validate(_replaced(data, path, bad))
        assert any(
            [str(part) for part in error["loc"]][: len(path) - 1]
            == [str(part) for part in path[:-1]]
            for error in raised.value.errors()
        ), (path, raised.value.errors())
        field, *inner = path
        with pytest.raises(ValidationError):
            DEFAULT_POLICY.model_copy(update={field: _replaced(data[field], tuple(inner), bad)})
