"""Seeded hostile requests over every server surface: never a 5xx, a dead session or a lost frame.

The requests come from `tau_env.testing.hostile` (non-finite and huge numbers, lone surrogates,
deep nesting, bodies that are not JSON, MCP methods, grep patterns that backtrack for ever);
``benchmarks/server_fuzz.py`` sends many more of them.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import random
from urllib.parse import urlparse

from tests.extras import require

require("openenv", "openenv")

SEED = 56
FRAME_TYPES = {"observation", "state", "error"}


def send(url: str, request) -> tuple[int, bytes]:
    parts = urlparse(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    headers = {} if request.content_type is None else {"Content-Type": request.content_type}
    connection.request(request.method, request.path, body=request.body, headers=headers)
    response = connection.getresponse()
    answer = response.status, response.read()
    connection.close()
    return answer


def test_http__every_hostile_request_is_answered_below_500_on_one_line(bank_server):
    from tau_env.testing.hostile import hostile_requests

    rng = random.Random(SEED)
    for request in hostile_requests(rng, "tau_env-banking_knowledge", 200):
        status, body = send(bank_server, request)
        assert status < 500, (request, body[:300])
        if status >= 400:
            detail = json.loads(body)["detail"]
            assert isinstance(detail, str) and "\n" not in detail, (request, detail)


def test_websocket__every_hostile_message_gets_a_frame_and_the_session_goes_on(bank_server):
    import websockets

    from tau_env.testing.hostile import hostile_ws_messages

    rng = random.Random(SEED)
    url = bank_server.replace("http", "ws", 1) + "/ws"
    reset = json.dumps({"type": "reset", "data": {"seed": 0}})

    async def main():
        frames, closes = [], 0
        async with websockets.connect(url, max_size=None) as ws:
            await ws.send(reset)
            await ws.recv()
            for number, message in enumerate(hostile_ws_messages(rng, 200, ("grep", "KB_search"))):
                if number % 10 == 0:  # an episode in progress, so the steps reach the tools
                    await ws.send(reset)
                    await ws.recv()
                await ws.send(message)
                frames.append((message, json.loads(await asyncio.wait_for(ws.recv(), 60))))
            await ws.send(json.dumps({"type": "state"}))
            last = json.loads(await ws.recv())
        return frames, closes, last

    frames, closes, last = asyncio.run(main())
    for message, frame in frames:
        assert frame["type"] in FRAME_TYPES, (message[:200], frame)
        if frame["type"] == "error":
            assert "serializ" not in frame["data"]["message"], (message[:200], frame)
    assert closes == 0
    assert last["type"] == "state"
    tool_results = [f for _, f in frames if f["type"] == "observation"]
    assert tool_results, "no hostile step reached a tool"
