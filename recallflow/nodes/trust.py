"""Stage: the trust boundary: recalled memory is data, never instructions.

Every item becomes ``TrustLevel.MEMORY`` data. Its statement is scanned through the
:class:`~recallflow.ports.InjectionScanner` port; text that reads like
instructions is replaced by ``[BLOCKED]`` for that item alone (the id stays citable, so
the user can correct it). Sensitivity above the surface's ceiling never gets here: the
hard filter keeps it out in SQL. A field that carries its own sensitivity — the origin
project's name, the name of an entity the principal marked — is redacted when the
surface's ceiling does not admit it (see "Trust boundary" in docs/architecture.md).
"""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.core.corrections import kind_of, shows_statement
from recallflow.core.redaction import NO_MARKED_NAMES, NameRedaction, Redactor, names_marked
from recallflow.core.render import BLOCKED
from recallflow.models.result import Correction, CorrectionPeer, RecalledItem, TrustLevel
from recallflow.models.session import SessionTurn
from recallflow.models.stages import (
    ConflictGroup,
    FloorOutcome,
    HardFilter,
    RenderUnit,
    ScoredCandidate,
    TrustOutcome,
)
from recallflow.models.store import Belief, LifecycleState, Sensitivity
from recallflow.policy import RetrievalPolicy
from recallflow.ports import EntitySensitivity, InjectionScanner


def _item(
    c: ScoredCandidate,
    scanner: InjectionScanner,
    families: dict[str, str],
    ceiling: Sensitivity,
    policy: RetrievalPolicy,
    redact: Redactor,
) -> RecalledItem:
    family = scanner.scan(c.belief.statement)  # the statement as stored, names and all
    blocked = family is not None
    if family is not None:
        families[c.belief_id] = family
    origin = c.belief.origin_project if c.transferred else None
    redacted = origin is not None and not _origin_admitted(c.belief, ceiling, policy)
    text, names = (BLOCKED, 0) if blocked else redact(c.belief.statement)
    # Every value comes from a loaded belief or is computed here: not validated again
    # (given in the fields' order, the order its JSON keeps).
    return RecalledItem.trusted(
        belief_id=c.belief_id,
        text=text,
        band=c.band,
        trust=TrustLevel.MEMORY,
        origin_project=None if redacted else origin,
        origin_redacted=redacted,
        names_redacted=names,
        conflict_set_id=c.belief.conflict_set_id
        if c.belief.state is LifecycleState.CONFLICTED
        else None,
        provisional=c.belief.state is LifecycleState.PROVISIONAL,
        flagged=c.belief.flagged,
        blocked=blocked,
        score=c.score,
        tokens=0,
        sensitivity=c.belief.sensitivity,
    )


def _origin_admitted(belief: Belief, ceiling: Sensitivity, policy: RetrievalPolicy) -> bool:
    """Whether a surface with ``ceiling`` may show the belief's origin project name: the
    name carries the belief's sensitivity, or the project's own when the policy lists it
    (``project_sensitivity``), whichever is higher."""
    return max(belief.sensitivity, policy.name_sensitivity(belief.origin_project)) <= ceiling


@tag(stage="trust")
def marked_names(
    hard_filter: HardFilter, entity_sensitivity: EntitySensitivity | None = None
) -> NameRedaction:
    """The principal's entities marked above the surface's ceiling: their names are
    withheld from every text this recall renders."""
    return names_marked(
        entity_sensitivity,
        hard_filter.tenant_id,
        hard_filter.principal_id,
        hard_filter.sensitivity_ceiling,
    )


@tag(stage="trust")
def trusted_items(
    above_floor: FloorOutcome,
    injection_scanner: InjectionScanner,
    hard_filter: HardFilter,
    policy: RetrievalPolicy,
    marked_names: NameRedaction = NO_MARKED_NAMES,
) -> TrustOutcome:
    """The kept units as MEMORY items, instruction-like text replaced by [BLOCKED], with
    the family the scanner named for each blocked item (the budget may still drop some:
    the trace counts only the blocked items it rendered); a marked entity's name above
    the ceiling shows as (redacted)."""
    units: list[RenderUnit] = []
    families: dict[str, str] = {}
    ceiling = hard_filter.sensitivity_ceiling
    redact = Redactor.of(marked_names, ceiling)

    def item(c: ScoredCandidate) -> RecalledItem:
        return _item(c, injection_scanner, families, ceiling, policy, redact)

    for unit in above_floor.kept:
        if isinstance(unit, ConflictGroup):
            items = tuple(item(m) for m in unit.members)
            units.append(
                RenderUnit(items=items, conflict_set_id=unit.conflict_set_id, score=unit.score)
            )
        else:
            units.append(RenderUnit(items=(item(unit),), score=unit.score))
    blocked = tuple(i.belief_id for u in units for i in u.items if i.blocked)
    return TrustOutcome(
        units=tuple(units),
        blocked_ids=blocked,
        blocked_families=families,
        redacted_ids=tuple(
            i.belief_id for u in units for i in u.items if i.origin_redacted or i.names_redacted
        ),
        scanner_version=injection_scanner.version,
    )


def _peer(belief_id: str, text: str, scanner: InjectionScanner, redact: Redactor) -> CorrectionPeer:
    blocked = scanner.scan(text) is not None
    return CorrectionPeer(
        belief_id=belief_id, text=BLOCKED if blocked else redact(text)[0], blocked=blocked
    )


@tag(stage="trust")
def turn_corrections(
    injection_scanner: InjectionScanner,
    hard_filter: HardFilter,
    marked_names: NameRedaction = NO_MARKED_NAMES,
    session_turn: SessionTurn | None = None,
) -> tuple[Correction, ...]:
    """The session's pending corrections, their text scanned like any recalled item
    (a replacement's statement is memory too) and marked names withheld alike; empty
    outside a session."""
    if session_turn is None:
        return ()
    redact = Redactor.of(marked_names, hard_filter.sensitivity_ceiling)

    def peer(belief_id: str, text: str) -> CorrectionPeer:
        return _peer(belief_id, text, injection_scanner, redact)

    out: list[Correction] = []
    for p in session_turn.pending:
        kind = kind_of(p.previous, p.fingerprint)
        own = peer(p.belief_id, p.fingerprint.statement)
        shows = shows_statement(kind, p.previous, p.fingerprint)
        out.append(
            Correction(
                belief_id=p.belief_id,
                kind=kind,
                text=own.text if shows else None,
                blocked=own.blocked if shows else False,
                replacement=peer(*p.replacement) if p.replacement else None,
                replacement_hidden=p.fingerprint.superseded_by is not None
                and p.replacement is None,
                replacement_elsewhere=p.replacement_elsewhere and p.replacement is None,
                replacement_ended=p.replacement_ended and p.replacement is None,
                replacement_provisional=p.replacement_provisional and p.replacement is not None,
                replacement_flagged=p.replacement_flagged and p.replacement is not None,
                conflict_set_id=p.fingerprint.conflict_set_id or p.replacement_conflict_set_id,
                peers=tuple(peer(i, t) for i, t in p.peers),
            )
        )
    return tuple(out)
