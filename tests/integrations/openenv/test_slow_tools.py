"""A tool call that could take long never holds the server: banking's grep (issue 56, defect 1)."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import urllib.request

import pytest

from tests.extras import require

require("openenv", "openenv")

CATASTROPHIC = r"(\s|.)*@@@"  # Python's re backtracks on it for ever


def grep_step(pattern: str) -> str:
    call = {"function": {"name": "grep", "arguments": {"pattern": pattern}}}
    return json.dumps({"type": "step", "data": {"tool_calls": [call]}})


def test_grep__other_sessions_health_and_sigterm_are_served_meanwhile():
    """One client's grep froze the server: no other reset, no /health, SIGTERM ignored."""
    import websockets

    from tau_env.testing.serving import free_port

    port = free_port()
    command = [sys.executable, "-m", "tau_env.cli.main", "serve", "--domain", "banking_knowledge"]
    server = subprocess.Popen(
        [*command, "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        line = server.stderr.readline().decode()  # the ready line: the server accepts now
        assert line.startswith("tau-env serve: http://127.0.0.1"), line

        async def main():
            async with websockets.connect(url) as hostile, websockets.connect(url) as other:
                for ws, seed in ((hostile, 0), (other, 1)):
                    await ws.send(json.dumps({"type": "reset", "data": {"seed": seed}}))
                    await ws.recv()
                await hostile.send(grep_step(CATASTROPHIC))
                await other.send(json.dumps({"type": "reset", "data": {"seed": 2}}))
                reset = json.loads(await asyncio.wait_for(other.recv(), 60))
                health = await asyncio.to_thread(
                    lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=60)
                )
                grep = json.loads(await asyncio.wait_for(hostile.recv(), 60))
                await hostile.send(grep_step(CATASTROPHIC))  # in progress at the SIGTERM
                server.send_signal(signal.SIGTERM)
                return reset, health.status, grep

        reset, health, grep = asyncio.run(main())
        exit_code = server.wait(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert reset["type"] == "observation"
    assert health == 200
    result = grep["data"]["observation"]["messages"][0]["content"]
    assert result == f"No matches found for pattern: {CATASTROPHIC}"
    assert exit_code is not None


@pytest.mark.parametrize(
    ("pattern", "words"),
    [("(a)\\1", "invalid escape sequence: \\1"), ("(?=fee)fee", "invalid perl operator")],
)
def test_grep__constructs_without_a_linear_search_are_a_tool_error(bank_server, pattern, words):
    import websockets

    async def main():
        async with websockets.connect(bank_server.replace("http", "ws", 1) + "/ws") as ws:
            await ws.send(json.dumps({"type": "reset", "data": {"seed": 0}}))
            await ws.recv()
            await ws.send(grep_step(pattern))
            return json.loads(await ws.recv())

    answer = asyncio.run(main())
    content = answer["data"]["observation"]["messages"][0]["content"]
    assert content.startswith("Error: grep cannot run this pattern")
    assert words in content
