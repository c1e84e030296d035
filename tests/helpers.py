"""Small builders for test data (not fixtures: plain functions tests call)."""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from recallflow.adapters.embedders import EmbedderUnavailableError, embedder_from_name
from recallflow.adapters.postgres.bootstrap import ensure_database, scratch_database
from recallflow.adapters.postgres.embedded import EmbeddedServer
from recallflow.models.stages import HardFilter
from recallflow.models.store import LifecycleState, Sensitivity

if TYPE_CHECKING:
    from recallflow.memory import Memory
    from recallflow.ports import Embedder

#: When test beliefs were recorded (system time), unless a test says otherwise.
RECORDED = datetime(2025, 1, 1, tzinfo=UTC)


class BrokenZone(tzinfo):
    """A timezone that cannot tell its offset: it raises, or answers with no timedelta."""

    def __init__(self, answer: object) -> None:
        self._answer = answer

    def utcoffset(self, dt: datetime | None) -> timedelta | None:
        if isinstance(self._answer, Exception):
            raise self._answer
        return self._answer  # type: ignore[return-value]

    def dst(self, dt: datetime | None) -> timedelta | None:
        return None

    def tzname(self, dt: datetime | None) -> str | None:
        return "broken"


def belief(tenant: str, principal: str = "p1", **fields: Any) -> dict[str, Any]:
    """A valid belief draft as a dict, with ``fields`` overriding the defaults."""
    data: dict[str, Any] = {
        "tenant_id": tenant,
        "principal_id": principal,
        "statement": "The user prefers dark mode.",
        "subject": "ui-theme",
        "scope": "user",
        "recorded_at": RECORDED,
    }
    data.update(fields)
    return data


def request(tenant: str, principal: str = "p1", goal: str = "", **fields: Any) -> dict[str, Any]:
    """A recall request as a dict: ``goal`` is the working state's goal."""
    data: dict[str, Any] = {
        "tenant_id": tenant,
        "principal_id": principal,
        "working_state": {"goal": goal, **fields.pop("working_state", {})},
    }
    data.update(fields)
    return data


def patient_policy() -> Any:
    """The default policy with an arm timeout no loaded test machine reaches, for tests whose
    later writes need a belief to have been rendered (a timed-out arm degrades the recall)."""
    from recallflow.policy import DEFAULT_POLICY

    limits = DEFAULT_POLICY.limits.model_copy(update={"timeout_ms": 60_000})
    return DEFAULT_POLICY.model_copy(update={"limits": limits})


def fresh_database(server: EmbeddedServer) -> str:
    """The URI of a new, empty database on ``server``, for a test that needs a store of
    its own (a first open, another embedder) on an already running server."""
    name = f"db_{uuid.uuid4().hex[:10]}"
    ensure_database(server.uri("postgres"), name)
    return server.uri(name)


def active_view(
    tenant: str,
    principal: str = "p1",
    *,
    at: datetime | None = None,
    ceiling: Sensitivity = Sensitivity.PERSONAL,
) -> HardFilter:
    """The hard filter of a search of the active beliefs of ``tenant``'s ``principal`` as
    of ``at`` (default: now), as known then, up to ``ceiling``."""
    when = at or datetime.now(UTC)
    return HardFilter(
        tenant_id=tenant,
        principal_id=principal,
        states=(LifecycleState.ACTIVE,),
        as_of=when,
        known_as_of=when,
        sensitivity_ceiling=ceiling,
    )


def two_sided(drafts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``drafts`` with every conflict of one made plain: a conflicted draft whose set (per
    tenant and principal) has no other live conflicted draft is written active, as a
    write refuses a conflict with nobody. For generated batches."""
    sides: dict[tuple[str, str, str], int] = {}
    for d in drafts:
        if d.get("state") == "conflicted" and d.get("retracted_at") is None:
            key = (d["tenant_id"], d["principal_id"], d["conflict_set_id"])
            sides[key] = sides.get(key, 0) + 1
    for d in drafts:
        key = (d["tenant_id"], d["principal_id"], d.get("conflict_set_id") or "")
        if d.get("state") == "conflicted" and sides.get(key, 0) == 1:
            d.update(state="active", conflict_set_id=None)
    return drafts


def add_named(
    memory: Memory,
    tenant: str,
    principal: str,
    named: dict[str, tuple[str, str, list[str]]],
    **fields: Any,
) -> dict[str, str]:
    """Store ``named`` (a name → (statement, subject, entities)) for ``principal`` with the
    other ``fields`` every belief shares; returns the stored id of each by its name."""
    added = memory.beliefs.add_many(
        [
            {
                "tenant_id": tenant,
                "principal_id": principal,
                "statement": statement,
                "subject": subject,
                "entities": entities,
                **fields,
            }
            for statement, subject, entities in named.values()
        ]
    )
    return {name: b.id for name, b in zip(named, added, strict=True)}


def made_home(made_pgdata: Path, home: Path) -> Path:
    """``home`` holding a copy of the session's made data directory (the ``made_pgdata``
    fixture): a home whose server is made and migrated, not running."""
    home.mkdir(parents=True, exist_ok=True)
    shutil.copytree(made_pgdata, home / "pgdata", symlinks=True)
    return home


def embedder_or_skip(name: str) -> Embedder:
    """The embedder of that name; the test is skipped, saying why, where it is not
    installed."""
    try:
        return embedder_from_name(name)
    except EmbedderUnavailableError as exc:
        pytest.skip(f"embedder {name!r} is not installed here: {exc}")


def of_project(name: str, portability: str) -> dict[str, str]:
    """A belief draft's fields that make it one of project ``name``, carried to other
    projects as ``portability`` says."""
    return {"scope": "project", "origin_project": name, "portability": portability}


@contextmanager
def named_memory(
    uri: str,
    database: str,
    embedder: Embedder,
    principal: tuple[str, str],
    beliefs: Mapping[str, Mapping[str, Any]],
    **common: Any,
) -> Iterator[tuple[Memory, dict[str, str]]]:
    """A memory in a scratch database of its own (``database`` on ``uri``'s server),
    embedded by ``embedder`` and holding ``beliefs``: each a user-scoped draft of the
    ``(tenant, principal)`` pair at confidence 0.9, with ``common`` and its own fields
    over that; and the stored id of each belief by its name. The database is dropped when
    the block ends."""
    from recallflow.memory import open_memory

    tenant_id, principal_id = principal
    drafts = [
        {
            "tenant_id": tenant_id,
            "principal_id": principal_id,
            "scope": "user",
            "confidence": 0.9,
            **common,
            **fields,
        }
        for fields in beliefs.values()
    ]
    with scratch_database(uri, database) as own, open_memory(own, embedder=embedder) as mem:
        stored = mem.beliefs.add_many(drafts)
        yield mem, {name: b.id for name, b in zip(beliefs, stored, strict=True)}
