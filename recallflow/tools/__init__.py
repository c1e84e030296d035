"""Agent tools: recallflow's recall, archival search, explanation, citation, rejection, a
belief's history, sessions, logging an episode, reading the log in order and listing what
memory holds as model-callable tools, bound by the host to one tenant, principal and
surface.

See docs/tools.md. ``Toolset(memory, tenant_id=..., principal_id=..., surface=...)``
gives the definitions (``.openai()``, ``.anthropic()``, ``.definitions()``) and the
handlers (``.call(name, arguments)``); ``recallflow mcp`` serves the same tools over MCP.
"""

from recallflow.tools.toolset import (
    TOOLS,
    TOOLSET_VERSION,
    EpisodeSearch,
    Explainer,
    Toolset,
    ToolSpec,
    tool_error,
)

__all__ = [
    "TOOLS",
    "TOOLSET_VERSION",
    "EpisodeSearch",
    "Explainer",
    "ToolSpec",
    "Toolset",
    "tool_error",
]
