"""Small builders for test data (not fixtures: plain functions tests call)."""

from __future__ import annotations

from typing import Any


def belief(tenant: str, principal: str = "p1", **fields: Any) -> dict[str, Any]:
    """A valid belief draft as a dict, with ``fields`` overriding the defaults."""
    data: dict[str, Any] = {
        "tenant_id": tenant,
        "principal_id": principal,
        "statement": "The user prefers dark mode.",
        "subject": "ui-theme",
        "scope": "user",
    }
    data.update(fields)
    return data
