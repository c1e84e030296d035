"""Stage: wiring. Hands each port of the single ``ports`` input on as its own node, so
every stage still names exactly the ports it uses (a node does I/O only through ports).
"""

from __future__ import annotations

from hamilton.function_modifiers import tag

from recallflow.core.calibration import Calibration, uncalibrated
from recallflow.ports import (
    BeliefSearch,
    Embedder,
    EntitySensitivity,
    ExternalProvider,
    InjectionScanner,
    QueryFormer,
    RecallPorts,
    TokenCounter,
)


@tag(stage="wiring")
def belief_search(ports: RecallPorts) -> BeliefSearch:
    """The hard-filtered belief search every arm queries."""
    return ports.belief_search


@tag(stage="wiring")
def embedder(ports: RecallPorts) -> Embedder:
    """The embedder of the query vectors (the store's own)."""
    return ports.embedder


@tag(stage="wiring")
def token_counter(ports: RecallPorts) -> TokenCounter:
    """The token counter of the budget."""
    return ports.token_counter


@tag(stage="wiring")
def query_former(ports: RecallPorts) -> QueryFormer:
    """The query former (deterministic by default)."""
    return ports.query_former


@tag(stage="wiring")
def injection_scanner(ports: RecallPorts) -> InjectionScanner:
    """The injection scanner of the trust boundary."""
    return ports.injection_scanner


@tag(stage="wiring")
def external_provider(ports: RecallPorts) -> ExternalProvider | None:
    """The external provider, or None when the external arm is off."""
    return ports.external_provider


@tag(stage="wiring")
def calibration(ports: RecallPorts, embedder: Embedder) -> Calibration:
    """The embedder's calibration against unrelated text (the conservative default when
    the store has none; see "Relevance floor" in docs/architecture.md)."""
    return ports.calibration or uncalibrated(embedder.name)


@tag(stage="wiring")
def entity_sensitivity(ports: RecallPorts) -> EntitySensitivity | None:
    """The principal's marked entities, or None when the store keeps no marks."""
    return ports.entity_sensitivity
