"""The base of every recallflow model: frozen and closed.

Frozen, so a value handed from one stage to the next cannot be changed behind the back of
the stage that made it; closed (``extra="forbid"``), so a misspelt field is an error
instead of silently ignored input.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class FrozenModel(BaseModel):
    """A frozen pydantic model that refuses unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")
