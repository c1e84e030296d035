"""Exact duplicate statements of one principal: stored once, or collapsed at recall?
Measured on the demo memory and the scenario suites (see "Feedback and corrections" in
docs/architecture.md).

Duplicates arise when formation re-derives a principal under new ids. Three conditions:

* **stored once**: a draft that is an exact duplicate of a stored belief of the same
  derivation (source episode, statement, content) is not stored again — what the store
  does (``Memory.beliefs.add_many``, ``Memory.rederive``) — so each statement is held once;
* **duplicates kept**: every live belief is stored again under a new id (what a plain
  re-ingest writes), recall as is;
* **collapsed at recall**: the same duplicated store, recalled through an experiment whose
  resolution keeps only the best-ranked copy of each statement (before the floor and the
  budget, so a freed slot can go to another belief).

Block precision counts the first rendered copy of a relevant statement as relevant and any
further copy as not (a repeat tells the model nothing new). Scenario writes (``then``) are
made on the original ids, as a user would correct what they saw; a kept duplicate then
still carries the uncorrected statement, which must-exclude violations count.

Usage::

    python benchmarks/duplicate_statements.py [--embedder minilm|hashing]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import types
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from recallflow import Experiment, Memory, open_memory  # noqa: E402
from recallflow.cli import demo  # noqa: E402
from recallflow.evaluation.scenarios import (  # noqa: E402
    Scenario,
    apply_action,
    build_request,
    load_scenarios,
    load_store,
    scenario_tenant,
)
from recallflow.models.request import RecallRequest, WorkingState  # noqa: E402
from recallflow.models.result import RecallResult  # noqa: E402
from recallflow.models.stages import ConflictGroup, HardFilter, Resolved, ScoredCandidate  # noqa: E402
from recallflow.models.store import LifecycleState  # noqa: E402
from recallflow.nodes import resolution  # noqa: E402
from recallflow.policy import RetrievalPolicy  # noqa: E402

DUP = ":dup"
LIVE = (LifecycleState.ACTIVE, LifecycleState.PROVISIONAL)

#: Demo probes and the beliefs relevant to each (judged by hand, from the demo's statements).
DEMO_PROBES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "Add a price display to the checkout screen; amounts come from billing-api",
        demo.MOBILE,
        ("b-mob-money", "b-bill-money", "b-mob-api"),
    ),
    ("How do we deploy billing-api?", demo.BILLING, ("b-bill-deploy",)),
    ("Turn on the new checkout behind a feature flag", demo.MOBILE, ("b-mob-flags",)),
    ("How should I write the tests for this bug fix?", demo.MOBILE, ("b-pref-tests",)),
)


def _collapse(units: tuple[Resolved, ...]) -> tuple[Resolved, ...]:
    seen: set[str] = set()
    kept: list[Resolved] = []
    for unit in units:
        if isinstance(unit, ScoredCandidate):
            text = " ".join(unit.belief.statement.split())
            if text in seen:
                continue
            seen.add(text)
        kept.append(unit)
    return tuple(kept)


def _collapsing_module() -> types.ModuleType:
    """An experiment module: the library's resolution, then one copy per statement."""
    module = types.ModuleType("duplicate_collapse")

    def resolved_candidates(
        scored_candidates: tuple[ScoredCandidate, ...],
        hard_filter: HardFilter,
        policy: RetrievalPolicy,
        request: RecallRequest,
    ) -> tuple[ConflictGroup | ScoredCandidate, ...]:
        return _collapse(
            resolution.resolved_candidates(scored_candidates, hard_filter, policy, request)
        )

    resolved_candidates.__module__ = module.__name__
    module.resolved_candidates = resolved_candidates  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module  # Hamilton finds a module's nodes through it
    return module


COLLAPSE = Experiment(name="collapse-duplicates", modules=(_collapsing_module(),))


def duplicate_live(memory: Memory, tenant: str, principal: str) -> int:
    """Store every live belief of the principal again under a new id; returns how many."""
    copies = []
    for b in memory.beliefs.list(tenant, principal):
        if b.state not in LIVE or b.id.endswith(DUP):
            continue
        data = b.model_dump()
        # Without its source episode the store cannot tell it is the same derivation (it
        # would store it once), so the copy stays: the "duplicates kept" condition.
        data.update(id=f"{b.id}{DUP}", supersedes=None, superseded_by=None, source_episode_id=None)
        copies.append(data)
    memory.beliefs.add_many(copies)
    return len(copies)


@dataclass
class Tally:
    precision: list[float] = field(default_factory=list)
    include: list[float] = field(default_factory=list)
    exclude_violations: int = 0
    repeats: int = 0

    def add(
        self,
        result: RecallResult,
        statements: dict[str, str],
        relevant: Sequence[str],
        must_include: Sequence[str] = (),
        must_exclude: Sequence[str] = (),
    ) -> None:
        base = [i.removesuffix(DUP) for i in result.rendered_ids]
        seen: set[str] = set()
        useful = 0
        for original, rendered in zip(base, result.rendered_ids, strict=True):
            text = statements.get(rendered) or statements.get(original, original)
            if text in seen:
                self.repeats += 1
                continue
            seen.add(text)
            useful += original in relevant
        if base and relevant:
            self.precision.append(useful / len(base))
        if must_include:
            self.include.append(len(set(must_include) & set(base)) / len(must_include))
        self.exclude_violations += len(set(must_exclude) & set(base))

    def row(self, name: str) -> str:
        p = sum(self.precision) / len(self.precision) if self.precision else float("nan")
        r = sum(self.include) / len(self.include) if self.include else float("nan")
        return (
            f"| {name} | {p:.3f} | {r:.3f} | {self.exclude_violations} | {self.repeats} "
            f"| {len(self.precision)} |"
        )


def _statements(memory: Memory, tenant: str, principal: str) -> dict[str, str]:
    return {b.id: " ".join(b.statement.split()) for b in memory.beliefs.list(tenant, principal)}


def run_scenarios(
    memory: Memory, scenarios: Sequence[Scenario], duplicate: bool, experiment: Experiment | None
) -> Tally:
    tally = Tally()
    run = f"dup-{uuid.uuid4().hex[:6]}"
    for scenario in scenarios:
        load_store(memory, run, scenario)
        tenant = scenario_tenant(run, scenario)
        if duplicate:
            principals = {str(b.get("principal_id", "p-main")) for b in scenario.store.beliefs}
            for principal in principals:
                if "tenant" not in principal:
                    duplicate_live(memory, tenant, principal)
        for spec in scenario.requests:
            request = build_request(run, scenario, spec)
            result = memory.recall(request, experiment=experiment)
            statements = _statements(memory, tenant, spec.principal_id)
            tally.add(result, statements, spec.relevant_ids, spec.must_include, spec.must_exclude)
            for action in spec.then:
                apply_action(memory, run, scenario, result, action)
    return tally


def run_demo(memory: Memory, duplicate: bool, experiment: Experiment | None) -> Tally:
    tally = Tally()
    tenant = f"demo-{uuid.uuid4().hex[:6]}"

    def owned(items: Sequence[Any]) -> list[dict[str, Any]]:
        return [{**i.model_dump(exclude_none=True), "tenant_id": tenant} for i in items]

    memory.episodes.add_many(owned(demo.demo_episodes()))
    memory.beliefs.add_many(owned(demo.demo_beliefs()))
    memory.edges.add_many(owned(demo.demo_edges()))
    if duplicate:
        duplicate_live(memory, tenant, demo.PRINCIPAL)
    statements = _statements(memory, tenant, demo.PRINCIPAL)
    for goal, project, relevant in DEMO_PROBES:
        request = RecallRequest(
            tenant_id=tenant,
            principal_id=demo.PRINCIPAL,
            project=project,
            working_state=WorkingState(goal=goal),
        )
        tally.add(memory.recall(request, experiment=experiment), statements, relevant, relevant)
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--embedder", choices=("minilm", "hashing"), default="minilm")
    args = parser.parse_args(argv)
    scenarios = load_scenarios(REPO_ROOT / "benchmarks" / "scenarios")
    home = tempfile.mkdtemp(prefix="recallflow-dups-")
    kwargs: dict[str, Any] = {}
    if args.embedder == "hashing":
        from recallflow.adapters.embedders.hashing import HashingEmbedder

        kwargs["embedder"] = HashingEmbedder()
    try:
        with open_memory(None, home, **kwargs) as memory:
            print(f"embedder {memory.embedder.name}")
            header = "| condition | block precision | must-include recall | must-exclude "
            header += "violations | repeated statements rendered | blocks |"
            conditions: tuple[tuple[str, bool, Experiment | None], ...] = (
                ("stored once", False, None),
                ("duplicates kept", True, None),
                ("collapsed at recall", True, COLLAPSE),
            )
            for label in ("scenarios", "demo"):
                print(f"\n{label}\n\n{header}\n|---|---|---|---|---|---|")
                for name, duplicate, experiment in conditions:
                    tally = (
                        run_scenarios(memory, scenarios, duplicate, experiment)
                        if label == "scenarios"
                        else run_demo(memory, duplicate, experiment)
                    )
                    print(tally.row(name))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
