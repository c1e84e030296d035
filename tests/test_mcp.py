"""``recallflow mcp`` end to end, with the MCP SDK's own client against the server in a
subprocess: the tools listed are the toolset's, each one answers, a bad call is a typed
error, and no call reaches another principal. Every server process is stopped at the end,
also when the test fails."""

from __future__ import annotations

import gc
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from recallflow import DEFAULT_POLICY, Memory
from recallflow.tools import TOOLS, Toolset
from tests.helpers import patient_policy
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
        await session.initialize()
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
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


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
