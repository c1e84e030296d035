"""The JSON-RPC framing of ``recallflow mcp``: every message a client may send is either
handed to the MCP SDK's server or answered as JSON-RPC 2.0 says, on stdio (one message a
line, as the SDK's own ``stdio_server`` reads and writes them) and on streamable HTTP (one
message a POST body).

The SDK's stdio transport reads each line as a message and hands what it cannot read to
the server as an exception, which the server only logs: a line that is not JSON, an object
that is no JSON-RPC message, a request whose id is ``null`` went unanswered, and a client
waiting for the answer waited for ever. Over HTTP its answers were a parse error with the
id ``"server-error"``, an array or a number as invalid params, a request with a ``null``
id accepted as a notification (202, no answer), and a body that is not UTF-8 or nests too
deep for its parser an internal error (500). JSON-RPC 2.0 says what answers them, and so
they are answered here, before the server sees them:

- a line that cannot be read as JSON (``NaN`` and ``Infinity`` are not JSON, nor is a
  number too large for a double, nor a POST body that is not UTF-8; nesting too deep to
  read, an integer of more digits than Python converts) is ``-32700`` (parse error), with
  id ``null``;
- JSON that is no message (an array: MCP takes no batches; a number; an object without
  the version, with neither a method nor a result or an error, or a request whose id is
  neither a string nor an integer) is ``-32600`` (invalid request), with the request's id
  when it has a usable one, else ``null``;
- a request for a method MCP does not define is ``-32601`` (method not found); the SDK
  answered it as ``-32602`` (invalid params), which sends a client looking at its params;
- a request whose params its method does not take (a ``tools/call`` whose ``arguments``
  is not an object) is ``-32602`` (invalid params), its data naming where
  (``params.arguments: ...``): the SDK answered it with empty data.

A malformed response (an object with ``result`` or ``error`` and no ``method``) and an
empty line are not answered: JSON-RPC never answers a response, and a blank line holds no
message (an empty POST body is a parse error). Every other message goes to the server as
the SDK's transport hands it over: on stdio a ``JSONRPCMessage``, over HTTP the body as it
came. It is read by Python's parser, which refuses what is not JSON: the SDK's parsers
read ``NaN`` and ``1e400`` as floats its session then wrote as ``null``, so a tool call
with ``"max_items": NaN`` ran as if the argument were not given. An escaped lone surrogate
(``"\\ud800"``, JSON by its grammar) reaches the tool, whose argument model names the
field (the SDK's stdio parser dropped the whole line). On stdio the end of input reaches
the server only once every request handed to it is answered: the SDK's server ends its
session there and cancels the handlers still running, so a client that wrote its calls
and closed the pipe was never answered the last of them.
"""

from __future__ import annotations

import json
import math
import sys
import typing
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache
from io import TextIOWrapper
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
    from mcp.server.transport_security import TransportSecuritySettings
    from mcp.shared.message import SessionMessage
    from mcp.types import JSONRPCMessage, JSONRPCRequest
    from pydantic import BaseModel
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: JSON-RPC 2.0's error codes for what a line holds.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602

#: How much of a client's text a refusal quotes.
_QUOTED = 60


class UnreadableLine(ValueError):
    """A line that cannot be read as JSON; the message says why."""


def _constant(name: str) -> object:
    raise UnreadableLine(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise UnreadableLine(f"the number {text[:_QUOTED]} is too large to read")
    return value


def read_json(line: str) -> object:
    """The JSON value of ``line``, or :class:`UnreadableLine` saying why there is none."""
    try:
        return json.loads(line, parse_constant=_constant, parse_float=_finite)
    except UnreadableLine:
        raise
    except json.JSONDecodeError as exc:
        raise UnreadableLine(f"not JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise UnreadableLine("nested too deeply to read") from None
    except ValueError:  # an integer of more digits than int() converts
        raise UnreadableLine("holds an integer of more digits than can be read") from None


def error_line(code: int, message: str, request_id: str | int | None, detail: str) -> str:
    """A JSON-RPC error response, as one line of ASCII (an escaped lone surrogate of the
    client's stays an escape, not a byte sequence UTF-8 cannot encode)."""
    error = {"code": code, "message": message, "data": detail}
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": error})


def _request_id(value: object) -> str | int | None:
    """``value`` as a request id, or ``None`` when it cannot be one: JSON-RPC answers a
    request whose id it could not make out with id ``null``."""
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return None


#: How a refusal names a JSON value that is no object.
_JSON_KINDS: dict[type, str] = {
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "true or false",
    type(None): "null",
}


@cache
def client_methods() -> frozenset[str]:
    """The methods MCP defines for a client to call (the SDK's ``ClientRequest``)."""
    import mcp.types as types

    members = typing.get_args(types.ClientRequest.model_fields["root"].annotation)
    return frozenset(typing.get_args(m.model_fields["method"].annotation)[0] for m in members)


def triage(line: str) -> JSONRPCMessage | str | None:
    """The message ``line`` holds, the error line that answers it, or ``None`` when it
    holds nothing to hand over or answer."""
    import mcp.types as types
    from pydantic import ValidationError

    if not line.strip():
        return None
    try:
        value = read_json(line)
    except UnreadableLine as exc:
        return error_line(PARSE_ERROR, "Parse error", None, str(exc))
    if isinstance(value, list):
        detail = "a batch (a JSON array) is not taken: send one message at a time"
        return error_line(INVALID_REQUEST, "Invalid Request", None, detail)
    if not isinstance(value, dict):
        detail = f"a message is a JSON object, not {_JSON_KINDS[type(value)]}"
        return error_line(INVALID_REQUEST, "Invalid Request", None, detail)
    request_id = _request_id(value.get("id"))
    if "method" in value and "id" in value and request_id is None:
        detail = "a request's id is a string or an integer"
        return error_line(INVALID_REQUEST, "Invalid Request", None, detail)
    # What it is, by its shape: with a method, a request (with an id) or a notification,
    # even when it also has a result (read as a response, it went unanswered); without
    # one, a response, which is never answered, however malformed.
    if "method" not in value:
        if "result" not in value and "error" not in value:
            detail = "a message has a method (a request) or a result or an error (a response)"
            return error_line(INVALID_REQUEST, "Invalid Request", request_id, detail)
        shape: type[Any] = types.JSONRPCResponse if "result" in value else types.JSONRPCError
    else:
        shape = types.JSONRPCRequest if "id" in value else types.JSONRPCNotification
    try:
        root = shape.model_validate(value)
    except ValidationError as exc:
        if "method" not in value:
            return None
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "message"
        detail = f"{where}: {first['msg']}"
        return error_line(INVALID_REQUEST, "Invalid Request", request_id, detail)
    if isinstance(root, types.JSONRPCRequest):
        if root.method not in client_methods():
            detail = f"no method {root.method[:_QUOTED]!r} in MCP"
            return error_line(METHOD_NOT_FOUND, "Method not found", root.id, detail)
        invalid = _invalid_params(root)
        if invalid is not None:
            return error_line(INVALID_PARAMS, "Invalid params", root.id, invalid)
    return types.JSONRPCMessage(root)


@cache
def _request_models() -> dict[str, type[BaseModel]]:
    """The SDK's model of each request a client may send, by its method."""
    import mcp.types as types

    members = typing.get_args(types.ClientRequest.model_fields["root"].annotation)
    return {typing.get_args(m.model_fields["method"].annotation)[0]: m for m in members}


def _invalid_params(request: JSONRPCRequest) -> str | None:
    """Where the params of ``request`` are not what its method takes (``params.arguments:
    Input should be a valid dictionary``), or None. The SDK read them as one of every
    request it knows, answered ``-32602`` naming nothing, and logged a warning listing
    every request the message was not (30 of them for a ``tools/call``)."""
    from pydantic import ValidationError

    model = _request_models()[request.method]
    try:
        model.model_validate(request.model_dump(by_alias=True, mode="json", exclude_none=True))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "params"
        return f"{where}: {first['msg']}"
    return None


def _cancellation(message: JSONRPCMessage) -> bool:
    """Whether ``message`` is MCP's ``notifications/cancelled``, which the stdio server
    does not act on: a tool call runs in a thread that cannot be stopped, so it runs to
    its end and is answered with its result, as MCP lets a receiver do with a request it
    cannot cancel. Handed to the SDK, a cancellation of a call still running was answered
    "Request cancelled" and then answered again with the result, which failed the SDK's
    assertion and stopped the server; one that came before the call's handler started
    raised in the SDK's reading loop, and stopped it too."""
    import mcp.types as types

    root = message.root
    return isinstance(root, types.JSONRPCNotification) and root.method == "notifications/cancelled"


def message_line(message: JSONRPCMessage) -> str:
    """``message`` as the line the SDK writes, or as ASCII JSON when it holds a lone
    surrogate (a tool's error may name a key the client wrote with one), which UTF-8
    cannot encode."""
    from pydantic_core import PydanticSerializationError

    try:
        return message.model_dump_json(by_alias=True, exclude_none=True)
    except PydanticSerializationError:
        dumped = message.model_dump(by_alias=True, mode="json", exclude_none=True)
        return json.dumps(dumped)


@asynccontextmanager
async def stdio_transport(
    stdin: Any = None, stdout: Any = None
) -> AsyncIterator[
    tuple[
        MemoryObjectReceiveStream[SessionMessage | Exception],
        MemoryObjectSendStream[SessionMessage],
    ]
]:
    """The server's read and write streams over stdin and stdout (or the async text files
    given), as ``mcp.server.stdio.stdio_server`` makes them, answering the lines
    :func:`triage` answers."""
    import anyio
    import anyio.lowlevel
    from mcp.shared.message import SessionMessage
    from mcp.types import JSONRPCError, JSONRPCRequest, JSONRPCResponse

    # Not closed on leaving: they are the process's own handles. UTF-8 whatever the
    # platform's default, a byte that is not UTF-8 read as U+FFFD, as the SDK reads them.
    if stdin is None:
        stdin = anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    if stdout is None:
        stdout = anyio.wrap_file(TextIOWrapper(sys.stdout.buffer, encoding="utf-8"))

    read_writer: MemoryObjectSendStream[SessionMessage | Exception]
    read_stream: MemoryObjectReceiveStream[SessionMessage | Exception]
    write_stream: MemoryObjectSendStream[SessionMessage]
    write_reader: MemoryObjectReceiveStream[SessionMessage]
    read_writer, read_stream = anyio.create_memory_object_stream(0)
    write_stream, write_reader = anyio.create_memory_object_stream(0)
    writing = anyio.Lock()  # an error line and a server message never interleave

    # The ids of the requests handed to the server and not yet answered, each with how
    # many times it is pending: at the end of input the server ends its session and
    # cancels the calls still running, so the input is ended for it only once they are
    # all answered (the server answers every request it is handed, a cancelled one too).
    unanswered: Counter[str | int] = Counter()
    answered = anyio.Condition()

    async def emit(line: str) -> None:
        async with writing:
            await stdout.write(line + "\n")
            await stdout.flush()

    async def stdin_reader() -> None:
        try:
            async with read_writer:
                async for line in stdin:
                    triaged = triage(line)
                    if isinstance(triaged, str):
                        await emit(triaged)
                    elif triaged is not None and not _cancellation(triaged):
                        if isinstance(triaged.root, JSONRPCRequest):
                            unanswered[triaged.root.id] += 1
                        await read_writer.send(SessionMessage(triaged))
                async with answered:
                    while unanswered:
                        await answered.wait()
        except anyio.ClosedResourceError:
            await anyio.lowlevel.checkpoint()

    async def stdout_writer() -> None:
        try:
            async with write_reader:
                async for session_message in write_reader:
                    message = session_message.message.root
                    await emit(message_line(session_message.message))
                    if isinstance(message, JSONRPCResponse | JSONRPCError):
                        async with answered:
                            if unanswered[message.id] > 1:
                                unanswered[message.id] -= 1
                            else:
                                unanswered.pop(message.id, None)
                            answered.notify_all()
        except anyio.ClosedResourceError:
            await anyio.lowlevel.checkpoint()

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(stdin_reader)
        tasks.start_soon(stdout_writer)
        yield read_stream, write_stream


def _post_answer(body: bytes) -> JSONRPCMessage | str | None:
    """:func:`triage` of a POST body, which is UTF-8 or no JSON (the SDK's parser raised on
    one that is not, and the request was an internal error, 500), and empty or a message."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        detail = f"not UTF-8: byte 0x{body[exc.start]:02x} at {exc.start}"
        return error_line(PARSE_ERROR, "Parse error", None, detail)
    if not text.strip():
        return error_line(PARSE_ERROR, "Parse error", None, "the body is empty")
    return triage(text)


def answering_posts(app: ASGIApp, security: TransportSecuritySettings) -> ASGIApp:
    """``app`` (the SDK's streamable HTTP handler) with a POST body that :func:`triage`
    answers answered here: a parse error or an invalid request with status 400, a method
    MCP does not have with status 200, each as an ``application/json`` JSON-RPC error. Only
    a request that passes ``security`` (the Host, Origin and Content-Type the SDK's handler
    requires) is read: any other goes to ``app`` untouched, which refuses it as before."""
    from mcp.server.transport_security import TransportSecurityMiddleware
    from starlette.requests import HTTPConnection
    from starlette.responses import Response

    guard = TransportSecurityMiddleware(security)

    async def handle(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await app(scope, receive, send)
            return
        if await guard.validate_request(HTTPConnection(scope), is_post=True) is not None:
            await app(scope, receive, send)
            return
        body = bytearray()
        messages: list[Message] = []
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        answer = _post_answer(bytes(body))
        if isinstance(answer, str):
            code = json.loads(answer)["error"]["code"]
            # A request well formed but of no method MCP has, or with params its method
            # does not take, is answered in a 200 as the SDK answers it; no message is 400.
            status = 200 if code in (METHOD_NOT_FOUND, INVALID_PARAMS) else 400
            response = Response(answer, status_code=status, media_type="application/json")
            await response(scope, receive, send)
            return

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await app(scope, replay, send)

    return handle
