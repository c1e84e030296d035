"""``recallflow mcp``: the agent tools over the Model Context Protocol.

The server exposes the tools of :class:`recallflow.tools.Toolset` — the same definitions
and handlers — bound to one tenant, principal and surface given on the command line
(``--tenant --principal --surface``) or in ``RECALLFLOW_MCP_TENANT``,
``RECALLFLOW_MCP_PRINCIPAL`` and ``RECALLFLOW_MCP_SURFACE``. A tool call can never name
another (see "Trust boundary" in docs/architecture.md). It speaks stdio by default, or
streamable HTTP on 127.0.0.1 with ``--http --port``. A bad call comes back as a tool
result with ``isError`` set and ``{"error": {"type", "message", "field"}}`` as its
structured content. The store is opened at start and closed when the server stops.
"""

from __future__ import annotations

import argparse
import gc
import os
import socket
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server
    from mcp.server.transport_security import TransportSecuritySettings

    from recallflow.tools import Toolset

#: The environment variables the binding is read from when not given as options.
ENV_TENANT = "RECALLFLOW_MCP_TENANT"
ENV_PRINCIPAL = "RECALLFLOW_MCP_PRINCIPAL"
ENV_SURFACE = "RECALLFLOW_MCP_SURFACE"
#: The port ``recallflow mcp --http`` listens on when ``--port`` is not given.
DEFAULT_PORT = 8765


def mcp_server(toolset: Toolset) -> Server[Any, Any]:
    """An MCP server serving ``toolset``'s tools (input validation is the toolset's, so a
    bad call gets its structured error rather than the SDK's text)."""
    import anyio
    import mcp.types as types
    from mcp.server.lowlevel import Server

    from recallflow.tools.toolset import INSTRUCTIONS, result_text

    server: Server[Any, Any] = Server(
        "recallflow", version=toolset.version, instructions=INSTRUCTIONS
    )

    @server.list_tools()  # type: ignore[no-untyped-call, untyped-decorator]
    async def list_tools() -> list[types.Tool]:
        return [
            types.Tool(
                name=spec.name,
                description=spec.description,
                inputSchema=spec.input_schema,
                outputSchema=spec.output_schema,
                annotations=types.ToolAnnotations(**spec.effects.hints()),
            )
            for spec in toolset.specs
        ]

    @server.call_tool(validate_input=False)  # type: ignore[untyped-decorator]
    async def call_tool(name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        result = await anyio.to_thread.run_sync(toolset.call, name, arguments)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=result_text(result))],
            structuredContent=result,
            isError="error" in result,
        )

    return server


async def _serve_stdio(server: Server[Any, Any]) -> None:
    # The SDK's stdio transport, but answering every line a client may send (a line that
    # is not JSON went unanswered, and its client waited for ever; see jsonrpc).
    from recallflow.cli.jsonrpc import stdio_transport

    async with stdio_transport() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def listening_socket(port: int) -> socket.socket:
    """A socket bound to 127.0.0.1:``port`` and listening, made before the server is
    started, so a port that is taken is one line naming it (not a server's traceback and
    exit code) and the address is printed only once it is really served."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise OSError(f"--port: cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    return sock


def loopback_only(port: int) -> TransportSecuritySettings:
    """The requests the HTTP server answers: those addressed to this machine on ``port``
    (the ``Host`` header), from no web page but one served from it (the ``Origin``
    header, when a browser sends one). Listening on 127.0.0.1 keeps other machines out,
    not a web page in the user's browser: one whose name was rebound to 127.0.0.1 reaches
    the port as its own origin, and would read and correct the user's memory."""
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = [f"127.0.0.1:{port}", f"localhost:{port}"]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[f"http://{host}" for host in hosts],
    )


def _serve_http(server: Server[Any, Any], port: int) -> None:
    from collections.abc import AsyncIterator
    from contextlib import asynccontextmanager

    import uvicorn
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.routing import Mount
    from starlette.types import Receive, Scope, Send

    from recallflow.cli.jsonrpc import answering_posts

    with listening_socket(port) as sock:
        bound = sock.getsockname()[1]  # the port the system chose, for --port 0
        manager = StreamableHTTPSessionManager(
            app=server, stateless=True, security_settings=loopback_only(bound)
        )

        async def serve(scope: Scope, receive: Receive, send: Send) -> None:
            await manager.handle_request(scope, receive, send)

        # A body that is no JSON-RPC message is answered as JSON-RPC says (see jsonrpc).
        handle = answering_posts(serve, loopback_only(bound))

        @asynccontextmanager
        async def lifespan(_: Starlette) -> AsyncIterator[None]:
            async with manager.run():
                yield

        routed = Starlette(routes=[Mount("/mcp", app=handle)], lifespan=lifespan)

        async def app(scope: Scope, receive: Receive, send: Send) -> None:
            # The address the server names is served as it is named: routed as the mount
            # routes it, "/mcp" was answered 307 to "/mcp/" (before the Host check, so
            # to any host a request named), and a client that does not follow redirects
            # on a POST got no answer from the URL it was given.
            if scope["type"] in ("http", "websocket") and scope["path"] == "/mcp":
                scope = {**scope, "path": "/mcp/", "raw_path": b"/mcp/"}
            await routed(scope, receive, send)

        print(f"recallflow mcp: streamable HTTP on http://127.0.0.1:{bound}/mcp", file=sys.stderr)
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])


def _binding(args: argparse.Namespace) -> tuple[str, str, str]:
    """The tenant, principal and surface the server is bound to, from the options or the
    environment, each checked (naming the option or variable it came from) before any
    store is opened."""
    from recallflow.cli.args import SURFACES, UsageError, key

    bound: list[str] = []
    for flag, given, env in (
        ("--tenant", args.tenant, ENV_TENANT),
        ("--principal", args.principal, ENV_PRINCIPAL),
    ):
        if given is not None:
            bound.append(given)  # checked by the parser
            continue
        value = os.environ.get(env)
        if not value:
            raise UsageError(f"needs {flag} (or {env})")
        try:
            bound.append(key(value))
        except argparse.ArgumentTypeError as exc:
            raise UsageError(f"{env}: {exc}") from None
    surface = args.surface or os.environ.get(ENV_SURFACE) or "direct"
    if surface not in SURFACES:
        raise UsageError(f"{ENV_SURFACE}: {surface!r} is not one of {', '.join(SURFACES)}")
    return bound[0], bound[1], surface


def _cmd_mcp(args: argparse.Namespace) -> int:
    from recallflow.cli.args import UsageError, open_store

    if args.port is not None and not args.http:  # a stdio server would ignore it
        raise UsageError("--port is the HTTP port: give --http with it (stdio has no port)")
    try:
        import anyio
        import mcp  # noqa: F401
    except ImportError:
        raise UsageError("needs the mcp extra: pip install 'recallflow[mcp]'") from None
    from recallflow.tools import Toolset

    tenant, principal, surface = _binding(args)
    with open_store(args, serving=True) as memory:
        server = mcp_server(
            Toolset(memory, tenant_id=tenant, principal_id=principal, surface=surface)
        )
        # What exists now (the libraries, the open store) lives as long as the server:
        # moved out of the collector's reach, a full collection no longer walks it and
        # stalls the call it falls in (see "Garbage collection pauses" in
        # docs/operations.md).
        gc.freeze()
        if args.http:
            _serve_http(server, DEFAULT_PORT if args.port is None else args.port)
        else:
            anyio.run(_serve_stdio, server)
    return 0


def _port(value: str) -> int:
    """A TCP port to listen on (``--port``); 0 lets the system choose a free one, which the
    line announcing the address names: a caller that picked a free port itself and passed
    it could lose it to another process before the server bound it."""
    try:
        port = int(value)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            f"{value[:20]!r} is not a TCP port (1-65535, or 0 for any free one)"
        )
    return port


def add_mcp_parser(sub: Any) -> None:
    """Register ``recallflow mcp`` on the command's subparsers."""
    from recallflow.cli.args import SURFACES, add_store_args, key

    p = sub.add_parser("mcp", help="serve the agent tools over MCP (stdio, or --http)")
    add_store_args(p)
    p.add_argument(
        "--tenant", default=None, type=key, help=f"the bound tenant (default: {ENV_TENANT})"
    )
    p.add_argument(
        "--principal",
        default=None,
        type=key,
        help=f"the bound principal (default: {ENV_PRINCIPAL})",
    )
    p.add_argument(
        "--surface",
        default=None,
        choices=SURFACES,
        help=f"the bound surface (default: {ENV_SURFACE}, else direct)",
    )
    p.add_argument("--http", action="store_true", help="serve streamable HTTP, not stdio")
    p.add_argument(
        "--port",
        type=_port,
        default=None,
        help=f"with --http: the port on 127.0.0.1 (default {DEFAULT_PORT}; 0: any free port,"
        " named on stderr)",
    )
    p.set_defaults(func=_cmd_mcp)
