"""An experiment: what a recall changes about the DAG, recorded in its trace.

Two ways to change a stage without touching the library (see "Experiments" in
docs/architecture.md): a config switch that picks another ``@config.when`` variant of a
node, or a module whose nodes replace the library's nodes of the same name. Both are
named here, so the trace of every recall says which experiment served it, and the flow
built for it is cached under that name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any

from recallflow.errors import InvalidInputError
from recallflow.models.result import ExperimentRecord


@dataclass(frozen=True)
class Experiment:
    """A named change to the recall DAG.

    :param name: how the experiment is known in traces and reports.
    :param config: Hamilton config switches (``@config.when`` keys) to set.
    :param modules: node modules whose functions replace same-named library nodes.
    """

    name: str
    config: Mapping[str, Any] = field(default_factory=dict)
    modules: tuple[ModuleType, ...] = ()

    def __post_init__(self) -> None:
        if not self.name or not self.name.strip():
            raise InvalidInputError("an experiment needs a name", field="experiment.name")
        for i, module in enumerate(self.modules):
            if not isinstance(module, ModuleType):
                raise InvalidInputError(
                    f"must be a module, got {type(module).__name__}",
                    field=f"experiment.modules[{i}]",
                )
        object.__setattr__(self, "config", MappingProxyType(dict(self.config)))
        object.__setattr__(self, "modules", tuple(self.modules))

    @property
    def key(self) -> str:
        """A stable key of what the experiment changes (the flow cache key)."""
        return json.dumps(
            {
                "name": self.name,
                "config": dict(self.config),
                "modules": [m.__name__ for m in self.modules],
            },
            sort_keys=True,
            default=str,
        )

    def record(self) -> ExperimentRecord:
        """What the trace keeps of this experiment."""
        return ExperimentRecord(
            name=self.name,
            config={k: json.dumps(v, sort_keys=True, default=str) for k, v in self.config.items()},
            modules=tuple(m.__name__ for m in self.modules),
        )
