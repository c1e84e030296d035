"""Small builders for test data (not fixtures: plain functions tests call)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

#: When test beliefs were recorded (system time), unless a test says otherwise.
RECORDED = datetime(2025, 1, 1, tzinfo=UTC)


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
