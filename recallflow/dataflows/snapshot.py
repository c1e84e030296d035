"""The DAG of the snapshot moments: session open and child-run start (see "Sessions" and
"Moments" in docs/architecture.md).

The graph really differs from the in-turn one: the core of a snapshot is chosen with no
query, composed with the opening goal's priming set by the session kind's budget rule, and
traced with the fingerprints the session's corrections are computed against. It is the
in-turn node modules with :mod:`recallflow.nodes.snapshot` laid over them, so the hard
filter, transfer rules, ranking function, floor, trust scan and renderer are the very
same functions every moment runs. An experiment's modules are laid over it in turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

from hamilton import driver
from hamilton.lifecycle.base import LifecycleAdapter

from recallflow.dataflows import build as build_moment
from recallflow.models.request import Moment
from recallflow.nodes import snapshot
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy

#: The moments whose DAG is the snapshot's.
SNAPSHOT_MOMENTS = frozenset({Moment.SESSION_SNAPSHOT, Moment.CHILD_RUN})


def moment_modules(moment: Moment | str) -> tuple[ModuleType, ...]:
    """The modules laid over the shared node modules for ``moment`` (none for in-turn)."""
    return (snapshot,) if Moment(moment) in SNAPSHOT_MOMENTS else ()


def build(
    moment: Moment | str = Moment.SESSION_SNAPSHOT,
    config: Mapping[str, Any] | None = None,
    *,
    policy: RetrievalPolicy = DEFAULT_POLICY,
    extra_modules: Iterable[ModuleType] = (),
    adapters: Iterable[LifecycleAdapter] = (),
) -> driver.Driver:
    """The built Hamilton driver of any moment: a snapshot moment's is the snapshot DAG."""
    return build_moment(
        moment,
        config,
        policy=policy,
        extra_modules=(*moment_modules(moment), *extra_modules),
        adapters=adapters,
    )
