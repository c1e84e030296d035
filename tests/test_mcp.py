"""``recallflow mcp`` end to end, with the MCP SDK's own client against the server in a
subprocess: the tools listed are the toolset's, each one answers, a bad call is a typed
error, and no call reaches another principal. Every server process is stopped at the end,
also when the test fails."""

from __future__ import annotations

import gc
import itertools
import json
import math
import os
import queue
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recallflow import DEFAULT_POLICY, Memory
from recallflow.core.render import MEMORY_FRAMING
from recallflow.tools import TOOLS, Toolset
from recallflow.tools.toolset import INSTRUCTIONS
from tests.helpers import belief, patient_policy
from tests.test_tools import GOAL, store

pytest.importorskip("mcp")
import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client import streamable_http
from mcp.client.stdio import stdio_client

# The client's newer name where the installed mcp has it (the older one warns there).
_NEWER: Any = getattr(streamable_http, "streamable_http_client", None)
http_client: Any = _NEWER or streamable_http.streamablehttp_client

SPECS = {spec.name: spec for spec in TOOLS}


def server_env(store_home: Path) -> dict[str, str]:
    """The subprocess opens the test session's store with the test's embedder."""
    env = dict(os.environ)
    env.update(RECALLFLOW_HOME=str(store_home), RECALLFLOW_EMBEDDER="hashing")
    return env


def command(tenant: str, *extra: str) -> list[str]:
    return ["-m", "recallflow.cli.main", "mcp", "--tenant", tenant, "--principal", "p1", *extra]


@asynccontextmanager
async def stdio_session(store_home: Path, tenant: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable, args=command(tenant), env=server_env(store_home)
    )
    # Leaving stdio_client closes the server's stdin and terminates it, failure or not.
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write) as session,
    ):
        initialised = await session.initialize()
        # The server tells the model once how the tools go together and how to read a
        # memory block (what a cached prefix's framing says).
        assert initialised.instructions == INSTRUCTIONS
        assert MEMORY_FRAMING in initialised.instructions
        yield session


async def call(session: ClientSession, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A successful call's structured result, checked against the declared output schema."""
    result = await session.call_tool(name, arguments)
    assert not result.isError, result.structuredContent
    assert result.structuredContent is not None
    jsonschema.validate(result.structuredContent, SPECS[name].output_schema)
    return dict(result.structuredContent)


async def refused(session: ClientSession, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A failed call's structured error."""
    result = await session.call_tool(name, arguments)
    assert result.isError
    assert result.structuredContent is not None
    return dict(result.structuredContent["error"])


def test_every_tool_over_stdio(memory: Memory, store_home: Path, tenant: str) -> None:
    store(memory, tenant, "p1")
    store(memory, tenant, "p2")
    for principal in ("p1", "p2"):
        memory.episodes.add({"tenant_id": tenant, "principal_id": principal,
                             "id": f"e-earlier-{principal}", "occurred_at": "2026-01-01T00:00Z",
                             "content": f"{principal} opened the billing-api repo."})  # fmt: skip
    other = Toolset(memory, tenant_id=tenant, principal_id="p2", policy=patient_policy())
    their_trace = other.call("recall_beliefs", GOAL)["trace_id"]
    their_session = other.call("open_session", {})["session_id"]
    expected = Toolset(memory, tenant_id=tenant, principal_id="p1").definitions()

    async def scenario() -> None:
        async with stdio_session(store_home, tenant) as session:
            listed = (await session.list_tools()).tools
            assert [t.name for t in listed] == [d["name"] for d in expected]
            for tool, definition in zip(listed, expected, strict=True):
                assert tool.inputSchema == definition["input_schema"]
                assert tool.outputSchema == definition["output_schema"]
            # What each call does to the store, for a client deciding what to run unasked:
            # reads change nothing, a rejection may end a belief, nothing leaves the store.
            hints = {t.name: t.annotations for t in listed}
            assert all(h is not None and h.openWorldHint is False for h in hints.values())
            read_only = {name for name, h in hints.items() if h and h.readOnlyHint}
            assert read_only == {
                "explain_recall",
                "belief_history",
                "resume_session",
                "list_beliefs",
                "list_episodes",
            }
            destructive = {name for name, h in hints.items() if h and h.destructiveHint}
            assert destructive == {"reject_belief"}
            cite_hints, recall_hints = hints["cite"], hints["recall_beliefs"]
            assert cite_hints is not None and cite_hints.idempotentHint
            assert recall_hints is not None and not recall_hints.idempotentHint
            # Logging writes; without a key, the same call twice logs two episodes.
            log_hints = hints["log_episode"]
            assert log_hints is not None and not log_hints.idempotentHint
            # The client is told the least window the server's policy opens a session with.
            opening = next(t for t in listed if t.name == "open_session").inputSchema
            least = DEFAULT_POLICY.sessions.min_window
            assert opening["properties"]["model_window"]["minimum"] == least

            recall = await call(session, "recall_beliefs", GOAL)
            ids = [item["belief_id"] for item in recall["items"]]
            assert "b-cents-p1" in ids
            assert not any(i.endswith("-p2") for i in ids)
            trace_id = recall["trace_id"]
            cited = await call(
                session, "cite", {"trace_id": trace_id, "belief_ids": ["b-cents-p1"]}
            )
            assert cited["cited"] == ["b-cents-p1"]
            opened = await call(session, "open_session", {"goal": GOAL})
            turn = await call(
                session, "session_recall", {"session_id": opened["session_id"], **GOAL}
            )
            assert turn["trace_id"] != trace_id
            rejected = await call(
                session,
                "reject_belief",
                {"trace_id": trace_id, "belief_id": "b-cents-p1", "kind": "unspecified"},
            )
            assert rejected["recorded"] is True
            missed = await call(
                session, "report_miss", {"trace_id": trace_id, "expected": "Invoices are PDFs."}
            )
            assert missed["recorded"] is True
            episode = {"content": "Ada paired with Grace on the invoice service.", "key": "k-1"}
            logged = await call(session, "log_episode", episode)
            again = await call(session, "log_episode", episode)
            assert (logged["recorded"], again["recorded"]) == (True, False)
            assert again["episode_id"] == logged["episode_id"]
            # The log read in order, the latest first: the episode just logged, p1's alone.
            log = await call(session, "list_episodes", {"newest_first": True, "max_items": 1})
            assert [item["episode_id"] for item in log["items"]] == [logged["episode_id"]]
            assert "Ada paired with Grace" in log["block"] and log["next_cursor"]
            rest = await call(session, "list_episodes", {"cursor": log["next_cursor"]})
            assert [item["episode_id"] for item in rest["items"]] == ["e-earlier-p1"]
            assert rest["next_cursor"] is None and "p2" not in rest["block"]
            held = await call(session, "list_beliefs", {})
            held_ids = [item["belief_id"] for item in held["items"]]
            assert "b-cents-p1" in held_ids
            assert not any(i.endswith("-p2") for i in held_ids)
            history = await call(session, "belief_history", {"belief_id": "b-cents-p1"})
            assert [(e["kind"], e["trace_id"]) for e in history["events"]] == [
                ("created", None),
                ("cited", trace_id),
                ("rejected_unspecified", trace_id),
            ]

            bad = await refused(session, "recall_beliefs", {"goal": "x", "principal_id": "p2"})
            assert (bad["type"], bad["field"]) == ("invalid_arguments", "principal_id")
            bad = await refused(session, "reject_belief", {"trace_id": trace_id})
            assert bad["type"] == "invalid_arguments"
            # p2's trace and session are not found from p1's server.
            crossed = await refused(
                session, "cite", {"trace_id": their_trace, "belief_ids": ["b-cents-p2"]}
            )
            assert crossed["type"] == "not_found"
            crossed = await refused(
                session, "session_recall", {"session_id": their_session, **GOAL}
            )
            assert crossed["type"] == "not_found"
            crossed = await refused(session, "belief_history", {"belief_id": "b-cents-p2"})
            missing = await refused(session, "belief_history", {"belief_id": "b-missing"})
            assert crossed == {
                **missing,
                "message": missing["message"].replace("b-missing", "b-cents-p2"),
            }

    anyio.run(scenario)
    assert memory.beliefs.get(tenant, "p2", "b-cents-p2").state.value == "active"
    assert other.call("cite", {"trace_id": their_trace, "belief_ids": ["b-cents-p2"]})["cited"] == [
        "b-cents-p2"
    ], "p1's server must not have cited p2's belief"


def test_a_session_opened_by_one_server_process_is_resumed_by_the_next(
    memory: Memory, store_home: Path, tenant: str
) -> None:
    """An MCP client restarted with its server keeps its cached prompt: the session one
    server process opened is resumed by another with the very prefix bytes."""
    store(memory, tenant, "p1")

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with stdio_session(store_home, tenant) as first:
            opened = await call(first, "open_session", {"goal": GOAL})
        async with stdio_session(store_home, tenant) as second:
            resumed = await call(second, "resume_session", {"session_id": opened["session_id"]})
            gone = await refused(second, "resume_session", {"session_id": "s-missing"})
            assert (gone["type"], gone["field"]) == ("not_found", "session_id")
        return opened, resumed

    opened, resumed = anyio.run(scenario)
    assert resumed == opened and resumed["prefix"].encode() == opened["prefix"].encode()
    stored = memory.resume_session(tenant, "p1", opened["session_id"])
    assert stored.prefix == opened["prefix"].encode()


#: The line the server writes to stderr once it listens, naming the port it got.
LISTENING = re.compile(rb"streamable HTTP on http://127\.0\.0\.1:(\d+)/mcp")


@contextmanager
def http_server(store_home: Path, tenant: str) -> Iterator[str]:
    """The server on streamable HTTP in a subprocess, on a port the system chose (named in
    the line it writes once it listens); terminated (then killed) on exit."""
    # The server's log goes to a file, not a pipe: a pipe nobody reads while the server
    # runs would block the server once its log filled the pipe's buffer.
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [sys.executable, *command(tenant, "--http", "--port", "0")],
            env=server_env(store_home),
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                # Read at an offset, not through the file position the server's stderr
                # shares: a seek here would move where its next line is written.
                listening = LISTENING.search(os.pread(log.fileno(), 1 << 16, 0))
                if listening is not None:
                    port = int(listening.group(1))
                    with suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                        break
                if proc.poll() is not None:
                    raise AssertionError(
                        f"the server exited: {os.pread(log.fileno(), 1 << 16, 0)!r}"
                    )
                if time.monotonic() > deadline:
                    raise AssertionError("the server did not listen within a minute")
                time.sleep(0.2)
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            _stopped(proc)


def test_streamable_http_serves_the_same_tools(
    memory: Memory, store_home: Path, tenant: str
) -> None:
    store(memory, tenant, "p1")

    async def scenario(url: str) -> None:
        async with (
            http_client(url) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            listed = [t.name for t in (await session.list_tools()).tools]
            assert listed == list(Toolset(memory, tenant_id=tenant, principal_id="p1").names)
            recall = await call(session, "recall_beliefs", GOAL)
            assert "b-cents-p1" in [item["belief_id"] for item in recall["items"]]
            bad = await refused(session, "cite", {"trace_id": "tr-x", "tenant_id": "other"})
            assert bad["type"] == "invalid_arguments"

    with http_server(store_home, tenant) as url:
        anyio.run(scenario, url)


def _traces(memory: Memory, tenant: str) -> int:
    with memory.pool.connection() as conn:
        row = conn.execute("SELECT count(*) FROM recall_traces WHERE tenant_id = %s", (tenant,))
        found = row.fetchone()
    assert found is not None
    return int(found[0])


def test_a_web_page_rebound_to_the_loopback_reads_nothing(
    memory: Memory, store_home: Path, tenant: str
) -> None:
    """Listening on 127.0.0.1 kept other machines out, but not a web page in the user's
    browser: one whose name was rebound to 127.0.0.1 posts to the port as its own origin,
    and the server answered it with the user's memory. A request naming another host, or
    sent from a page of another origin, is refused before any tool runs; the host and the
    pages of the address the server names are still served."""
    import httpx

    store(memory, tenant, "p1")
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "recall_beliefs", "arguments": GOAL},
    }
    accept = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    with http_server(store_home, tenant) as url:
        port = url.split(":")[2].split("/")[0]
        before = _traces(memory, tenant)
        for headers, status in (
            (
                {"host": f"attacker.example:{port}", "origin": f"http://attacker.example:{port}"},
                421,
            ),
            ({"origin": "http://attacker.example"}, 403),
        ):
            answer = httpx.post(url + "/", json=call, headers={**accept, **headers}, timeout=60)
            assert answer.status_code == status, answer.text
            assert "b-cents-p1" not in answer.text
        assert _traces(memory, tenant) == before, "a refused request ran the tool"
        own = {"host": f"localhost:{port}", "origin": f"http://localhost:{port}"}
        answer = httpx.post(url + "/", json=call, headers={**accept, **own}, timeout=60)
        assert answer.status_code == 200 and "b-cents-p1" in answer.text


def test_the_address_the_server_names_is_answered_without_a_redirect(
    memory: Memory, store_home: Path, tenant: str
) -> None:
    """The server names ``http://127.0.0.1:PORT/mcp``, and a POST there was answered 307 to
    ``/mcp/``: a client that does not follow a redirect on a POST (curl without ``-L``,
    httpx) got no answer, and the redirect was sent before the Host check, to whatever host
    the request named (``Location: http://attacker.example/mcp/``). The named address now
    answers itself, and refuses another host there as it does under ``/mcp/``."""
    import httpx

    store(memory, tenant, "p1")
    call = _call(1, "recall_beliefs", json.dumps(GOAL))
    accept = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    with http_server(store_home, tenant) as url:
        port = url.split(":")[2].split("/")[0]
        answer = httpx.post(url, content=call, headers=accept, timeout=60)
        assert answer.status_code == 200 and "b-cents-p1" in answer.text
        rebound = {**accept, "host": f"attacker.example:{port}"}
        answer = httpx.post(url, content=call, headers=rebound, timeout=60)
        assert answer.status_code == 421 and "location" not in answer.headers


def test_the_server_freezes_what_it_started_with_before_serving(
    memory: Memory, store_home: Path, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full collection would walk every object the libraries and the open store hold
    (50-80 ms at the 100k tier, within a tool call); the server moves them out of the
    collector's reach before its first call. Served in-process here, with the serving
    loop replaced by one that records what the collector would walk."""
    from recallflow.cli.main import main

    seen: list[int] = []

    def serve(*_args: Any) -> None:
        seen.append(gc.get_freeze_count())

    monkeypatch.setattr(anyio, "run", serve)
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    gc.unfreeze()
    try:
        # The store the memory fixture opened: the embedded home, or the external server.
        dsn = os.environ.get("RECALLFLOW_DSN")
        store = ["--dsn", dsn] if dsn else ["--home", str(store_home)]
        argv = ["mcp", *store, "--tenant", tenant, "--principal", "p1"]
        assert main(argv) == 0
    finally:
        gc.unfreeze()
    assert len(seen) == 1
    assert seen[0] > 10_000  # the imported libraries at least, not a handful of objects


def test_a_taken_port_is_one_line_naming_it(store_home: Path, tenant: str) -> None:
    """A port another process listens on: exit 1 and one line naming --port and the
    address, and no line claiming the server is up."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, *command(tenant, "--http", "--port", str(port))],
            env=server_env(store_home),
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"--port: cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "streamable HTTP on" not in done.stderr


class RawStdio:
    """``recallflow mcp`` on stdio in a subprocess, spoken to line by line: what a client
    that writes any bytes it likes sends, and every line the server writes back."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:  # ends when the server's stdout closes
            self.lines.put(line)

    def send(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def answer(self, timeout: float = 60) -> dict[str, Any]:
        """The next line the server writes, as JSON; a server that writes none within
        ``timeout`` seconds fails the test (the client would have waited for ever)."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no answer within {timeout} s") from None
        parsed = json.loads(line)
        assert isinstance(parsed, dict), line
        return parsed

    def answers_until(self, request_id: str | int, timeout: float = 60) -> list[dict[str, Any]]:
        """Every line the server writes up to and including the answer to ``request_id``
        (requests are served concurrently, so others may come first)."""
        seen = [self.answer(timeout)]
        while seen[-1].get("id") != request_id or "method" in seen[-1]:
            seen.append(self.answer(timeout))
        return seen


@contextmanager
def raw_stdio_server(store_home: Path, tenant: str) -> Iterator[RawStdio]:
    """The server on stdio, initialized; its stdin closed (then terminated, then killed)
    on exit, failure or not."""
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [sys.executable, *command(tenant)],
            env=server_env(store_home),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,  # a file: a pipe nobody reads would block the server's log
        )
        try:
            server = RawStdio(proc)
            server.send(json.dumps(INITIALIZE).encode())
            assert "result" in server.answer(timeout=120), os.pread(log.fileno(), 1 << 16, 0)
            server.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
            yield server
        finally:
            assert proc.stdin is not None
            with suppress(OSError):
                proc.stdin.close()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                _stopped(proc)


def _stopped(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server this module started: asked to end, then killed if it will not."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}


def _call(request_id: int, name: str, arguments: str) -> bytes:
    """A ``tools/call`` line with ``arguments`` written as JSON text as it is."""
    head = f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", "params": '
    return f'{head}{{"name": "{name}", "arguments": {arguments}}}}}'.encode()


def _error(answer: dict[str, Any]) -> tuple[Any, int]:
    assert answer["jsonrpc"] == "2.0" and "result" not in answer, answer
    return answer["id"], answer["error"]["code"]


def test_every_line_a_client_sends_is_answered_as_json_rpc_says(
    store_home: Path, tenant: str
) -> None:
    """A line that is not JSON, JSON that is no JSON-RPC message, and a request of a
    method MCP does not have went unanswered (the first two) or were answered as invalid
    params, so a client waited for ever for an answer; JSON-RPC 2.0 answers them with a
    parse error, an invalid request (id ``null`` when the request's could not be made
    out) and method not found. ``NaN`` is no JSON: the SDK read it and then wrote it back
    as ``null``, so the call ran as if the argument were not given."""
    with raw_stdio_server(store_home, tenant) as server:
        for line, expected in (
            (b"not json", (None, -32700)),
            (b'{"jsonrpc": "2.0", "id": 1, "method": "ping"', (None, -32700)),
            (b"\xff\xfe{", (None, -32700)),  # not UTF-8: read as U+FFFD, then not JSON
            (_call(2, "search_episodes", '{"query": "x", "max_items": NaN}'), (None, -32700)),
            (_call(3, "open_session", '{"model_window": 1e400}'), (None, -32700)),
            (b"[" * 5000, (None, -32700)),
            (b"[]", (None, -32600)),
            (b'[{"jsonrpc": "2.0", "id": 4, "method": "ping"}]', (None, -32600)),
            (b"42", (None, -32600)),
            (b'{"jsonrpc": "2.0", "id": null, "method": "ping"}', (None, -32600)),
            (b'{"jsonrpc": "2.0", "id": [5], "method": "ping"}', (None, -32600)),
            (b'{"jsonrpc": "1.0", "id": 6, "method": "ping"}', (6, -32600)),
            (b'{"jsonrpc": "2.0", "id": "7", "method": 7}', ("7", -32600)),
            (b'{"jsonrpc": "2.0", "id": 8, "method": "no/such"}', (8, -32601)),
            (b"{}", (None, -32600)),
            (b'{"jsonrpc": "2.0", "id": 8}', (8, -32600)),
        ):
            server.send(line)
            assert _error(server.answer()) == expected, line
        # The server kept serving: a ping after it all is the next line answered, so
        # neither a blank line nor a response (never answered) was answered either (the
        # SDK may log a response it did not ask for, as a notification).
        server.send(b"")
        server.send(b'{"jsonrpc": "2.0", "id": 9, "result": {}}')
        server.send(b'{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "x"}}')
        server.send(b'{"jsonrpc": "2.0", "id": 10, "method": "ping"}')
        answered = [a for a in server.answers_until(10) if "method" not in a]
        assert answered == [{"jsonrpc": "2.0", "id": 10, "result": {}}]
        # An escaped lone surrogate is JSON; the SDK's parser dropped its line, unanswered.
        # It reaches the tool, whose argument model names the field.
        server.send(_call(11, "recall_beliefs", '{"goal": "\\ud800"}'))
        answer = server.answer()
        assert answer["id"] == 11 and answer["result"]["isError"] is True
        error = answer["result"]["structuredContent"]["error"]
        assert (error["type"], error["field"]) == ("invalid_arguments", "goal")


def test_every_body_posted_over_http_is_answered_as_json_rpc_says(
    memory: Memory, store_home: Path, tenant: str
) -> None:
    """Over streamable HTTP the SDK answered a parse error with the id ``"server-error"``,
    a body that is not UTF-8 as an internal error (500), an array or a number as invalid
    params, a request with a ``null`` id as a notification
    (202, no answer), a method MCP does not have as invalid params, nesting too deep for
    its parser as an internal error (500), and ran a call with ``NaN`` as if the argument
    were not given. A page of another origin is still refused before its body is read."""
    import httpx

    store(memory, tenant, "p1")
    accept = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    with http_server(store_home, tenant) as url:
        before = _traces(memory, tenant)
        for body, status, expected in (
            (b"not json", 400, (None, -32700)),
            (b"", 400, (None, -32700)),
            # Not UTF-8, though JSON otherwise: the SDK's parser raised, an internal error.
            (
                b'{"jsonrpc": "2.0", "id": 0, "method": "ping", "params": {"x": "caf\xe9"}}',
                400,
                (None, -32700),
            ),
            (b"[" * 5000, 400, (None, -32700)),
            (_call(1, "search_episodes", '{"query": "x", "max_items": NaN}'), 400, (None, -32700)),
            (_call(2, "recall_beliefs", '{"goal": "cents", "as_of": 1e400}'), 400, (None, -32700)),
            (b"[]", 400, (None, -32600)),
            (b"42", 400, (None, -32600)),
            (b'{"jsonrpc": "2.0", "id": null, "method": "ping"}', 400, (None, -32600)),
            (b'{"jsonrpc": "1.0", "id": 3, "method": "ping"}', 400, (3, -32600)),
            (b'{"jsonrpc": "2.0", "id": 4, "method": "no/such"}', 200, (4, -32601)),
        ):
            answer = httpx.post(url + "/", content=body, headers=accept, timeout=60)
            assert answer.status_code == status, (body, answer.text)
            assert _error(answer.json()) == expected, body
        assert _traces(memory, tenant) == before, "a refused body ran a tool"
        # The origin check comes first, garbage or not.
        foreign = {**accept, "origin": "http://attacker.example"}
        answer = httpx.post(url + "/", content=b"not json", headers=foreign, timeout=60)
        assert answer.status_code == 403
        # A sound call is still served, its body read once here and once by the SDK.
        answer = httpx.post(
            url + "/", content=_call(5, "recall_beliefs", json.dumps(GOAL)), headers=accept
        )
        assert answer.status_code == 200 and "b-cents-p1" in answer.text


def _nested(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)


def _json_values() -> st.SearchStrategy[Any]:
    """Any JSON value (NaN and the infinities among the floats, as Python's json writes
    them, which is no JSON)."""
    leaves = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
    return st.recursive(leaves, _nested, max_leaves=12)


def _fuzzed_lines() -> st.SearchStrategy[str]:
    """Lines a careless or hostile client writes: any text, any JSON value, and objects
    made of JSON-RPC's own fields with any values (NaN and infinities written as Python's
    json writes them, which is no JSON). No line break inside: stdio frames by lines."""
    methods = st.sampled_from(["ping", "tools/list", "tools/call", "no/such"]) | st.text(
        max_size=12
    )
    fields = st.fixed_dictionaries(
        {},
        optional={
            "jsonrpc": st.sampled_from(["2.0", "1.0", 2]) | _json_values(),
            "id": st.integers() | st.text(max_size=8) | _json_values(),
            "method": methods | _json_values(),
            "params": _json_values(),
            "result": _json_values(),
        },
    )
    # Text a line can carry: UTF-8 has no lone surrogate (the test would fail encoding it).
    text = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\r\n"), max_size=80)
    return text | _json_values().map(json.dumps) | fields.map(json.dumps)


def _no_number(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    if not math.isfinite(value := float(text)):
        raise ValueError(f"{text} is no double")
    return value


def _readable(line: str) -> Any:
    """``line`` as strict JSON, or ``Ellipsis`` when it is none."""
    try:
        return json.loads(line, parse_constant=_no_number, parse_float=_finite)
    except (ValueError, RecursionError):
        return ...


def test_any_line_gets_at_most_one_answer_and_never_stops_the_server(
    store_home: Path, tenant: str
) -> None:
    """Whatever a line holds, the server answers it with one well-formed JSON-RPC message
    at most (exactly one parse error, id null, when it is not JSON; exactly one answer
    naming a request's usable id), and answers the next request."""
    counter = itertools.count()
    with raw_stdio_server(store_home, tenant) as server:

        @settings(max_examples=int(os.environ.get("RECALLFLOW_FUZZ_EXAMPLES", "60")), database=None)
        @given(line=_fuzzed_lines())
        def any_line(line: str) -> None:
            probe = f"probe-{next(counter)}"
            server.send(line.encode("utf-8"))
            server.send(json.dumps({"jsonrpc": "2.0", "id": probe, "method": "ping"}).encode())
            value = _readable(line)
            named = value.get("id") if isinstance(value, dict) and "method" in value else None
            # The id of a request the line makes, which its answer names.
            wanted = named if type(named) in (str, int) else None  # a bool is no id
            seen = server.answers_until(probe, timeout=20)
            if wanted is not None and not any(a.get("id") == wanted for a in seen):
                seen += server.answers_until(wanted, timeout=20)
            answers = [a for a in seen if "method" not in a and a.get("id") != probe]
            for answer in answers:
                assert answer["jsonrpc"] == "2.0" and "id" in answer, answer
                assert ("result" in answer) != ("error" in answer), answer
            if value is ... and line.strip():
                assert [_error(a) for a in answers] == [(None, -32700)], line
            elif wanted is not None:
                assert [a["id"] for a in answers] == [wanted], line
            assert len(answers) <= 1, (line, answers)

        any_line()


@settings(max_examples=int(os.environ.get("RECALLFLOW_FUZZ_EXAMPLES", "300")), database=None)
@given(line=_fuzzed_lines())
def test_the_transport_reads_any_line_as_a_message_or_its_answer(line: str) -> None:
    """In process, many more lines than a server is sent: each is handed over as one
    message, answered by one JSON-RPC error, or (a response, a blank line) neither, and a
    message handed over is one the SDK's session can write back."""
    from mcp.types import JSONRPCMessage

    from recallflow.cli.jsonrpc import message_line, triage

    triaged = triage(line)
    value = _readable(line)
    if isinstance(triaged, str):
        answer = json.loads(triaged)
        assert set(answer) == {"jsonrpc", "id", "error"} and answer["jsonrpc"] == "2.0"
        assert answer["id"] is None or answer["id"] == value["id"]
        assert answer["error"]["code"] in (-32700, -32600, -32601, -32602)
        assert (answer["error"]["code"] == -32700) == (value is ...)
    elif triaged is None:
        assert not line.strip() or (isinstance(value, dict) and "method" not in value)
    else:
        assert isinstance(triaged, JSONRPCMessage)
        assert json.loads(message_line(triaged))["jsonrpc"] == "2.0"


def test_a_result_text_holds_every_character_as_itself(
    memory: Memory, store_home: Path, tenant: str
) -> None:
    """The text content is what an MCP client hands the model. It held every non-ASCII
    character as a ``\\uXXXX`` escape (``json.dumps``'s default), so a belief in Japanese,
    or a name like José, reached the model as escapes to decode, at several times the
    tokens; the structured content already held the characters."""
    statement = "ユキさんは日本語での回答を好みます。Her lead is José Müller in Zürich."
    memory.beliefs.add(
        belief(tenant, "p1", id="b-yuki", statement=statement, subject="answer language")
    )

    async def scenario() -> None:
        async with stdio_session(store_home, tenant) as session:
            result = await session.call_tool("recall_beliefs", {"goal": statement})
            text = result.content[0].text  # type: ignore[union-attr]
            assert statement in text and "\\u" not in text
            assert json.loads(text) == result.structuredContent
            assert statement in str(result.structuredContent)
            refused = await session.call_tool("recall_beliefs", {"goal": "x", "ü": "é"})
            refused_text = refused.content[0].text  # type: ignore[union-attr]
            assert json.loads(refused_text) == refused.structuredContent
            assert json.loads(refused_text)["error"]["field"] == "ü"
            assert '"field": "ü"' in refused_text

    anyio.run(scenario)


def test_every_request_sent_before_the_input_ends_is_answered(
    store_home: Path, tenant: str
) -> None:
    """A client that writes its requests and then closes the server's stdin (a script
    piping a file of calls, a host's last citation before it shuts down) is answered each
    one before the server exits: the SDK ended the session at the end of input and
    cancelled the calls still running, which were never answered, and a call that had not
    started yet was never made."""
    calls = {
        100 + n: _call(100 + n, "log_episode", json.dumps({"content": f"step {n} of the run"}))
        for n in range(6)
    }
    with raw_stdio_server(store_home, tenant) as server:
        for line in calls.values():
            server.send(line)
        server.send(b'{"jsonrpc": "2.0", "id": "last", "method": "ping"}')
        assert server.proc.stdin is not None
        server.proc.stdin.close()
        assert server.proc.wait(timeout=60) == 0
        server.reader.join(timeout=10)
        answers: list[dict[str, Any]] = []
        while not server.lines.empty():
            answers.append(json.loads(server.lines.get()))
    answered = {a["id"]: a for a in answers if "method" not in a}
    assert set(answered) == {*calls, "last"}
    for request_id in calls:
        result = answered[request_id]["result"]
        assert result["isError"] is False and result["structuredContent"]["recorded"] is True


_BAD_PARAMS = [
    # (params of a tools/call, the field its answer names)
    ({"name": "recall_beliefs", "arguments": "goal=cents"}, "params.arguments"),
    ({"name": "recall_beliefs", "arguments": ["cents"]}, "params.arguments"),
    ({"arguments": {"goal": "cents"}}, "params.name"),
    ({"name": 7, "arguments": {}}, "params.name"),
]


@pytest.mark.parametrize(("params", "field"), _BAD_PARAMS)
def test_a_request_whose_params_its_method_does_not_take_is_answered_naming_them(
    params: Any, field: str
) -> None:
    """A ``tools/call`` whose arguments are not an object, or with no tool name, was
    answered ``-32602`` with empty data (nothing said which param), after the SDK logged a
    warning of thirty validation errors, one for each request the line was not. It is
    answered invalid params with the request's id, naming where the params are wrong."""
    from recallflow.cli.jsonrpc import triage

    line = json.dumps({"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": params})
    answer = triage(line)
    assert isinstance(answer, str), answer
    error = json.loads(answer)
    assert (error["id"], error["error"]["code"]) == (12, -32602)
    assert error["error"]["data"].startswith(f"{field}:"), error
    # A sound request of every kind a client sends is still handed over.
    for sound in (
        {"name": "recall_beliefs", "arguments": {"goal": "cents"}},
        {"name": "recall_beliefs"},
        {"name": "no_such_tool", "arguments": {}},  # the toolset answers unknown_tool
    ):
        request = {"jsonrpc": "2.0", "id": 13, "method": "tools/call", "params": sound}
        assert not isinstance(triage(json.dumps(request)), str), sound
    assert not isinstance(triage('{"jsonrpc": "2.0", "id": 14, "method": "ping"}'), str)
    assert not isinstance(triage(json.dumps(INITIALIZE)), str)


def test_params_a_method_does_not_take_are_named_over_stdio_and_http(
    memory: Memory, store_home: Path, tenant: str
) -> None:
    """Both transports answer the line or body as :func:`triage` does (over HTTP in a 200,
    as the SDK answered it), and run nothing."""
    import httpx

    params, field = _BAD_PARAMS[0]
    line = json.dumps({"jsonrpc": "2.0", "id": 21, "method": "tools/call", "params": params})
    before = _traces(memory, tenant)
    with raw_stdio_server(store_home, tenant) as server:
        server.send(line.encode())
        answer = server.answer()
        assert _error(answer) == (21, -32602)
        assert answer["error"]["data"].startswith(f"{field}:")
    accept = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    with http_server(store_home, tenant) as url:
        posted = httpx.post(url + "/", content=line.encode(), headers=accept, timeout=60)
        assert posted.status_code == 200, posted.text
        assert _error(posted.json()) == (21, -32602)
        assert posted.json()["error"]["data"].startswith(f"{field}:")
    assert _traces(memory, tenant) == before


def test_a_call_the_client_cancels_is_answered_once_and_the_server_serves_on(
    store_home: Path, tenant: str
) -> None:
    """MCP's ``notifications/cancelled`` for a tool call (a client's timeout, a user who
    stopped the turn): the SDK answered a call still running "Request cancelled", then
    its thread finished and the handler answered it again, which failed the SDK's
    assertion and stopped the server with a traceback; a cancellation that came before
    the call's handler started stopped it too. A call cannot be stopped once it runs, so
    the cancellation is not acted on: each call is answered once, with its result, and
    the server answers what comes after."""
    goal = json.dumps({"goal": {"goal": "Which invoice fields are stored in cents? " * 40}})
    ids = list(range(300, 306))
    with raw_stdio_server(store_home, tenant) as server:
        for request_id in ids:
            server.send(_call(request_id, "open_session", goal))
            cancel = {"requestId": request_id, "reason": "the user stopped the turn"}
            server.send(
                json.dumps(
                    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel}
                ).encode()
            )
        server.send(b'{"jsonrpc": "2.0", "id": "after", "method": "ping"}')
        seen = [a for a in server.answers_until("after") if "method" not in a]
        while {a["id"] for a in seen} < {*ids, "after"}:
            seen.append(server.answer())
        answered = [a for a in seen if a["id"] != "after"]
        assert sorted(a["id"] for a in answered) == ids, seen  # each once
        assert all(a["result"]["isError"] is False for a in answered), answered
        server.send(b'{"jsonrpc": "2.0", "id": "later", "method": "ping"}')
        assert server.answers_until("later")[-1] == {"jsonrpc": "2.0", "id": "later", "result": {}}
        assert server.proc.poll() is None
