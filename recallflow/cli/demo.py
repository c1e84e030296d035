"""The demo memory that ``recallflow demo`` loads, read from ``demo_data.json`` beside this
module (shipped inside the package, so an installed wheel has it too).

The data is one principal's beliefs across two projects and user scope, with one belief
for each case a recall has a rule for: a superseded, an expired and a retired belief (see
"Lifecycle and history" in docs/architecture.md), a provisional one and an unresolved
conflict ("Conflicts"), project-local beliefs ("Transfer across projects"), a personal and
a secret one and one whose text tries a prompt injection ("Trust boundary"), and a second
principal whose beliefs must never show up in the first one's recall ("Hard filters").

Every record of the file is validated by the store models when it is read, so a typo in
the data fails at load, naming the record and the field.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from importlib import resources
from typing import Any

from pydantic import ValidationError

from recallflow.errors import InvalidInputError
from recallflow.models.base import FrozenModel
from recallflow.models.store import BeliefDraft, BeliefEdge, EpisodeDraft, Key

#: The data file, inside this package.
DATA_FILE = "demo_data.json"


class DemoData(FrozenModel):
    """The shape of the data file: shared values once, then the records."""

    about: str
    tenant_id: Key
    principal_id: Key
    other_principal_id: Key
    billing_project: Key
    mobile_project: Key
    recorded_at: datetime
    episodes: tuple[dict[str, Any], ...]
    beliefs: tuple[dict[str, Any], ...]
    edges: tuple[dict[str, Any], ...]


@cache
def demo_data() -> DemoData:
    """The parsed data file (read once per process)."""
    text = resources.files("recallflow.cli").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return DemoData.model_validate_json(text)


_DATA = demo_data()

TENANT: str = _DATA.tenant_id
PRINCIPAL: str = _DATA.principal_id
OTHER_PRINCIPAL: str = _DATA.other_principal_id
BILLING: str = _DATA.billing_project
MOBILE: str = _DATA.mobile_project


def _records(kind: str, defaults: dict[str, Any], model: type[Any]) -> list[Any]:
    out = []
    for index, record in enumerate(getattr(_DATA, kind)):
        try:
            out.append(model.model_validate({**defaults, **record}))
        except ValidationError as exc:
            first = exc.errors()[0]
            raise InvalidInputError(
                f"{DATA_FILE}: {first['msg']}",
                field=f"{kind}.{'.'.join(map(str, first['loc']))}",
                item_index=index,
                item_id=record.get("id"),
            ) from exc
    return out


def demo_episodes() -> list[EpisodeDraft]:
    """The sessions the demo beliefs were learned in."""
    defaults = {"tenant_id": TENANT, "principal_id": PRINCIPAL}
    episodes: list[EpisodeDraft] = _records("episodes", defaults, EpisodeDraft)
    return episodes


def demo_beliefs() -> list[BeliefDraft]:
    """The demo beliefs (ids are stable, so the demo's output is too)."""
    defaults = {"tenant_id": TENANT, "principal_id": PRINCIPAL, "recorded_at": _DATA.recorded_at}
    beliefs: list[BeliefDraft] = _records("beliefs", defaults, BeliefDraft)
    return beliefs


def demo_edges() -> list[BeliefEdge]:
    """Links between the demo principal's beliefs, for graph expansion."""
    defaults = {"tenant_id": TENANT, "principal_id": PRINCIPAL}
    edges: list[BeliefEdge] = _records("edges", defaults, BeliefEdge)
    return edges
