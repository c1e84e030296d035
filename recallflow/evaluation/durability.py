"""The correction-durability gate: a rejected belief does not come back after re-derivation,
and nothing that was not rejected is lost (see "Feedback and corrections" in
docs/architecture.md).

On a generated principal (a few dozen beliefs learned in three projects, each from an
episode), a script makes typed rejections of all four kinds from real recall traces, then
the whole principal is re-derived from its sources: every belief drafted again under a new
id, half of them with re-labelled entities (as a newer formation model would), through
:meth:`~recallflow.memory.Memory.rederive`. The same probes are recalled again, and every
rejection must still hold:

* not true — no live belief of that source and statement, and no probe renders it;
* changed — every belief of it is superseded by the replacement, which is rendered instead;
* not here — not rendered in the project it was rejected in, still rendered in its origin;
* unspecified — still live, and flagged;

and every belief that was not rejected must still be rendered by its probe.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from recallflow.core.replay import derivation_key, folded_statement
from recallflow.evaluation.gates import GateResult, GateStatus
from recallflow.memory import Memory
from recallflow.models.corrections import RejectionKind
from recallflow.models.request import RecallRequest, WorkingState
from recallflow.models.result import RecallResult
from recallflow.models.store import Belief, BeliefDraft, EpisodeDraft, LifecycleState

NAME = "correction durability"
PRINCIPAL = "p-durability"
PROJECTS = ("alpha", "beta", "gamma")
LEARNED = datetime(2025, 1, 1, tzinfo=UTC)
REDERIVED = datetime(2025, 2, 1, tzinfo=UTC)
LIVE = (LifecycleState.ACTIVE, LifecycleState.PROVISIONAL, LifecycleState.CONFLICTED)

#: (key, statement): one belief each, every key distinct.
TOPICS: tuple[tuple[str, str], ...] = (
    ("editor", "The user writes code in the Helix editor with vim keys."),
    ("shell", "The user's interactive shell is fish with the starship prompt."),
    ("timezone", "The user works from Lisbon in the WET time zone."),
    ("formatter", "Python code is formatted with ruff format before every commit."),
    ("database", "The orders service stores its data in PostgreSQL 16."),
    ("deploy", "Releases are deployed with a blue-green switch on Fridays."),
    ("ci", "Continuous integration runs on Buildkite agents."),
    ("queue", "Background jobs run on a RabbitMQ work queue."),
    ("logging", "Services log structured JSON lines to Loki."),
    ("testing", "Tests use pytest with the hypothesis plugin for properties."),
    ("review", "Every pull request needs two approving reviews."),
    ("spelling", "The user answers questions in British English spelling."),
    ("docs", "Documentation is written in Markdown and built with MkDocs."),
    ("cache", "Hot reads are cached in Redis with a five minute TTL."),
    ("secrets", "Secrets are kept in HashiCorp Vault, never in env files."),
    ("linting", "TypeScript is linted with eslint and the strict preset."),
)
#: The rejection script: topic key → kind. Not-here rejections are of portable beliefs
#: learned in alpha, rejected where they were recalled in beta.
SCRIPT: dict[str, RejectionKind] = {
    "shell": RejectionKind.NOT_TRUE,
    "database": RejectionKind.NOT_TRUE,
    "review": RejectionKind.NOT_TRUE,
    "timezone": RejectionKind.CHANGED,
    "ci": RejectionKind.CHANGED,
    "cache": RejectionKind.CHANGED,
    "editor": RejectionKind.NOT_HERE,
    "formatter": RejectionKind.NOT_HERE,
    "testing": RejectionKind.NOT_HERE,
    "queue": RejectionKind.UNSPECIFIED,
    "docs": RejectionKind.UNSPECIFIED,
    "linting": RejectionKind.UNSPECIFIED,
}
#: What a changed belief changed to.
REPLACEMENTS: dict[str, str] = {
    "timezone": "The user works from Toronto in the Eastern time zone.",
    "ci": "Continuous integration runs on GitHub Actions runners.",
    "cache": "Hot reads are cached in Memcached with a one minute TTL.",
}

#: ``(request) -> result``: how the gate recalls (the harness passes its audited recall).
Recall = Callable[[RecallRequest], RecallResult]


def _origin(index: int, key: str) -> str:
    if SCRIPT.get(key) is RejectionKind.NOT_HERE:
        return "alpha"
    return PROJECTS[index % len(PROJECTS)]


def episodes(tenant: str) -> list[EpisodeDraft]:
    """One session per project, and the session the user corrected things in."""
    return [
        EpisodeDraft(
            id=f"ep-{name}",
            tenant_id=tenant,
            principal_id=PRINCIPAL,
            project=name if name in PROJECTS else None,
            occurred_at=LEARNED,
            content=f"Working session ({name}).",
        )
        for name in (*PROJECTS, "corrections")
    ]


def drafts(tenant: str, *, generation: str = "b", relabel: bool = False) -> list[BeliefDraft]:
    """The principal's beliefs as formation derives them from the episodes.

    ``generation`` prefixes the ids (a re-derivation mints new ones); ``relabel`` gives
    every other belief an extra entity key (content a newer formation would differ in).
    """
    out = []
    for index, (key, statement) in enumerate(TOPICS):
        project = _origin(index, key)
        entities = (key, "rederived") if relabel and index % 2 == 0 else (key,)
        out.append(
            BeliefDraft(
                id=f"{generation}-{key}",
                tenant_id=tenant,
                principal_id=PRINCIPAL,
                statement=statement,
                subject=key,
                entities=entities,
                scope="project",
                origin_project=project,
                portability="portable",
                confidence=0.85,
                source_authority="user_stated",
                source_episode_id=f"ep-{project}",
                recorded_at=REDERIVED if generation != "b" else LEARNED,
            )
        )
    return out


def replacement(tenant: str, key: str, generation: str = "b") -> BeliefDraft:
    """The successor a user gave for a changed belief (learned in the corrections session)."""
    return BeliefDraft(
        id=f"{generation}-{key}-now",
        tenant_id=tenant,
        principal_id=PRINCIPAL,
        statement=REPLACEMENTS[key],
        subject=key,
        entities=(key,),
        scope="user",
        portability="portable",
        confidence=0.9,
        source_authority="user_stated",
        source_episode_id="ep-corrections",
    )


def probe(tenant: str, key: str, statement: str, project: str) -> RecallRequest:
    """The recall that should render the belief about ``key``."""
    return RecallRequest(
        tenant_id=tenant,
        principal_id=PRINCIPAL,
        project=project,
        working_state=WorkingState(goal=statement, entities=(key,)),
    )


@dataclass(frozen=True)
class Script:
    """What the gate did: the rejections, and what each probe rendered before them."""

    rejected: dict[str, RejectionKind]
    kept: tuple[str, ...]
    unrenderable: tuple[str, ...] = ()


def _statements(memory: Memory, tenant: str, result: RecallResult) -> set[str]:
    return {memory.beliefs.get(tenant, PRINCIPAL, i).statement for i in result.rendered_ids}


def reject_scripted(memory: Memory, tenant: str, recall: Recall) -> Script:
    """Load the principal and make the scripted rejections from real traces."""
    memory.episodes.add_many(episodes(tenant))
    memory.beliefs.add_many(drafts(tenant))
    rejected: dict[str, RejectionKind] = {}
    kept: list[str] = []
    unrenderable: list[str] = []
    for index, (key, statement) in enumerate(TOPICS):
        kind = SCRIPT.get(key)
        where = "beta" if kind is RejectionKind.NOT_HERE else _origin(index, key)
        result = recall(probe(tenant, key, statement, where))
        if f"b-{key}" not in result.rendered_ids:
            unrenderable.append(key)
            continue
        if kind is None:
            kept.append(key)
            continue
        memory.reject(
            tenant,
            PRINCIPAL,
            result.trace_id,
            f"b-{key}",
            kind,
            replacement=replacement(tenant, key) if key in REPLACEMENTS else None,
        )
        rejected[key] = kind
    return Script(rejected=rejected, kept=tuple(kept), unrenderable=tuple(unrenderable))


def rederive(memory: Memory, tenant: str, generation: str = "r") -> None:
    """Re-derive the whole principal from its sources: new ids, half re-labelled."""
    memory.rederive(
        tenant,
        PRINCIPAL,
        [
            *drafts(tenant, generation=generation, relabel=True),
            *(replacement(tenant, key, generation) for key in REPLACEMENTS),
        ],
    )


def problems(memory: Memory, tenant: str, script: Script, recall: Recall) -> list[str]:
    """Every rejection that no longer holds and every kept belief that was lost."""
    by_key: dict[tuple[str | None, str], list[Belief]] = {}
    for b in memory.beliefs.list(tenant, PRINCIPAL):
        by_key.setdefault(derivation_key(b), []).append(b)

    def seen(key: str, statement: str, project: str) -> set[str]:
        return _statements(memory, tenant, recall(probe(tenant, key, statement, project)))

    out: list[str] = []
    for index, (key, statement) in enumerate(TOPICS):
        origin = _origin(index, key)
        derived = by_key.get((f"ep-{origin}", folded_statement(statement)), [])
        live = [b for b in derived if b.state in LIVE]
        kind = script.rejected.get(key)
        if kind is RejectionKind.NOT_TRUE:
            if live:
                out.append(f"{key}: rejected as not true, live again as {[b.id for b in live]}")
            if statement in seen(key, statement, origin):
                out.append(f"{key}: rejected as not true, rendered again")
        elif kind is RejectionKind.CHANGED:
            successor = f"b-{key}-now"
            wrong = [b.id for b in live if b.superseded_by != successor]
            if wrong:
                out.append(f"{key}: changed, but {wrong} are live and not superseded by it")
            rendered = seen(key, statement, origin)
            if statement in rendered:
                out.append(f"{key}: changed, the old statement rendered again")
            if REPLACEMENTS[key] not in rendered:
                out.append(f"{key}: changed, the replacement is not rendered")
        elif kind is RejectionKind.NOT_HERE:
            if statement in seen(key, statement, "beta"):
                out.append(f"{key}: rejected as not here (beta), rendered in beta again")
            if statement not in seen(key, statement, origin):
                out.append(f"{key}: rejected only in beta, lost in its origin {origin}")
        elif kind is RejectionKind.UNSPECIFIED:
            if not live:
                out.append(f"{key}: rejected unspecified (a flag), but no longer live")
            elif not all(b.flagged for b in live):
                out.append(f"{key}: rejected unspecified, live again without its flag")
        elif key in script.kept and statement not in seen(key, statement, origin):
            out.append(f"{key}: not rejected, but no longer rendered")
    return out


def correction_durability(memory: Memory, tenant: str, recall: Recall) -> GateResult:
    """Run the script, re-derive, and judge: pass only when every rejection holds and
    nothing unrejected was lost."""
    gate_tenant = f"{tenant}-durability"
    script = reject_scripted(memory, gate_tenant, recall)
    if not script.rejected:
        return GateResult(name=NAME, status=GateStatus.NOT_BUILT, detail="no probe rendered")
    rederive(memory, gate_tenant)
    found = problems(memory, gate_tenant, script, recall)
    kinds = ", ".join(
        f"{sum(1 for k in script.rejected.values() if k is kind)} {kind.value}"
        for kind in RejectionKind
    )
    held = len(script.rejected) - len({p.split(":")[0] for p in found} & set(script.rejected))
    lost = len({p.split(":")[0] for p in found} & set(script.kept))
    figures = (
        f"{held}/{len(script.rejected)} rejections ({kinds}) hold after re-deriving all "
        f"{len(TOPICS) + len(REPLACEMENTS)} drafts from their sources (new ids, half "
        f"re-labelled); {lost} of {len(script.kept)} unrejected beliefs lost"
    )
    if script.unrenderable:
        figures += f"; {len(script.unrenderable)} probes rendered nothing to reject"
    if found:
        return GateResult(
            name=NAME, status=GateStatus.FAIL, detail=figures + ": " + "; ".join(found[:5])
        )
    return GateResult(name=NAME, status=GateStatus.PASS, detail=figures)
