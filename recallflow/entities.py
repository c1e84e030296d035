"""Marking entities with a sensitivity of their own (see "Trust boundary" in
docs/architecture.md).

A belief's sensitivity says who may see the belief; an *entity's* says who may see its
name. Marking ``alice-smith`` personal for a principal keeps the belief "Alice Smith
prefers tabs" (internal) recallable on a team surface, rendered "(redacted) prefers
tabs": the name shows only where the surface's ceiling admits personal. The mark
applies to every text recall renders for the principal — statements, corrections,
episode excerpts — and to the user-safe trace view.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import TypeAdapter, ValidationError

from recallflow.adapters.postgres.entities import PostgresEntitySensitivity
from recallflow.errors import InvalidInputError
from recallflow.ingestion import key_of
from recallflow.models.fields import kind_of
from recallflow.models.store import Sensitivity, SensitivityLevel, checked_key

_LEVEL: TypeAdapter[Sensitivity] = TypeAdapter(SensitivityLevel)
#: The kind a sensitivity is given as, checked as a belief's or an episode's is: a name or
#: a number, never a boolean (pydantic's lax mode reads ``True`` as 1, internal).
_LEVEL_KIND = kind_of(Sensitivity)


def _entity_key(entity: object) -> str:
    if not isinstance(entity, str):
        raise InvalidInputError("an entity is a string", field="entity")
    # Read as a belief's entities are: text a key cannot keep is refused, not folded away
    # with the punctuation, and a key longer than a key may be is refused, not cut (the
    # cut key is another entity's, whose name the mark would have redacted).
    try:
        return checked_key(entity, "entity")
    except ValueError as exc:
        raise InvalidInputError(str(exc), field="entity") from None


def _level(value: object) -> Sensitivity:
    problem = None if _LEVEL_KIND is None else _LEVEL_KIND.problem(value)
    if problem is not None:
        raise InvalidInputError(problem, field="sensitivity")
    try:
        return _LEVEL.validate_python(value)
    except ValidationError as exc:
        raise InvalidInputError(exc.errors()[0]["msg"], field="sensitivity") from exc


class Entities:
    """The entity marks of the store: ``memory.entities``."""

    def __init__(
        self,
        store: PostgresEntitySensitivity,
        prefixes_rewritten: Callable[[str, str], None] = lambda tenant, principal: None,
    ) -> None:
        self._store = store
        #: Told when a mark rewrote stored session prefixes of the principal: the open
        #: session objects of the handle read theirs back.
        self._prefixes_rewritten = prefixes_rewritten

    def mark(
        self,
        tenant_id: str,
        principal_id: str,
        entity: str,
        sensitivity: Sensitivity | str | int = Sensitivity.PERSONAL,
    ) -> str:
        """Give the entity's *name* its own sensitivity for this principal; returns the
        normalised key marked (``"Alice Smith"`` marks ``alice-smith``). A session
        already open on a surface the name is now above has it withheld from its stored
        prefix too (its next turn, or a resume, hands out the rewritten prefix).

        :raises InvalidInputError: a malformed id, an entity without letters or digits,
            or an unknown sensitivity; nothing is written.
        :raises WriteCancelledError: a turn held a session row of the principal past the
            default ``sessions.lock_timeout_ms``; nothing is written.
        """
        tenant = key_of(tenant_id, "tenant_id")
        principal = key_of(principal_id, "principal_id")
        key = _entity_key(entity)
        level = _level(sensitivity)
        if self._store.mark(tenant, principal, key, level):
            self._prefixes_rewritten(tenant, principal)
        return key

    def unmark(self, tenant_id: str, principal_id: str, entity: str) -> bool:
        """Remove an entity's mark; False when it had none."""
        tenant = key_of(tenant_id, "tenant_id")
        principal = key_of(principal_id, "principal_id")
        return self._store.unmark(tenant, principal, _entity_key(entity))

    def marked(self, tenant_id: str, principal_id: str) -> dict[str, Sensitivity]:
        """Every marked entity key of the principal, with its level."""
        tenant = key_of(tenant_id, "tenant_id")
        principal = key_of(principal_id, "principal_id")
        return self._store.marks(tenant, principal)
