"""The recallflow tools as LangChain ``BaseTool`` objects (the ``langchain`` extra).

Each tool carries its JSON schema as ``args_schema`` and hands the model's arguments to
:meth:`recallflow.tools.Toolset.call` unchanged, so validation, the binding rule and the
structured errors are the toolset's own; the tool returns the result as JSON text. A
call the toolset refused is the same text, marked as a failed tool call the way LangChain
marks one (a ``ToolMessage`` with ``status="error"``), as MCP marks it with ``isError``.
LangChain is imported only when this module is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from recallflow.errors import ConfigurationError

if TYPE_CHECKING:
    from recallflow.tools.toolset import Toolset


def langchain_tools(toolset: Toolset) -> list[Any]:
    """One LangChain ``BaseTool`` per tool of ``toolset``."""
    from recallflow.tools.toolset import result_text

    try:
        from langchain_core.tools import BaseTool, ToolException
    except ImportError as exc:
        raise ConfigurationError(
            "the LangChain adapter needs langchain-core: pip install 'recallflow[langchain]'"
        ) from exc

    class RecallflowTool(BaseTool):
        """A recallflow tool; its arguments are validated by the toolset, not LangChain."""

        def _to_args_and_kwargs(
            self, tool_input: Any, tool_call_id: str | None
        ) -> tuple[tuple[Any, ...], dict[str, Any]]:
            # The model's input as it came, whatever it is: LangChain's own reading raised
            # ValueError for JSON text (which the toolset reads) and TypeError for a list or
            # None, out of the call, and spread a mapping into keywords, where an argument
            # the model named ``run_manager`` was dropped and the call ran without it.
            return (tool_input,), {}

        def _run(self, arguments: Any) -> str:
            result = toolset.call(self.name, arguments)
            if "error" in result:
                # Handled by LangChain (handle_tool_error): the text is the same, but the
                # ToolMessage of a tool call says the call failed. Returned as a success,
                # an agent loop that routes on the status (retry, stop, tell the user) took
                # a refused citation or rejection for one that was recorded.
                raise ToolException(result_text(result))
            return result_text(result)

    return [
        RecallflowTool(
            name=spec.name,
            description=spec.description,
            args_schema=spec.input_schema,
            handle_tool_error=True,
        )
        for spec in toolset.specs
    ]
