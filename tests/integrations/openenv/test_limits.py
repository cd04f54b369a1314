"""The server's limits: message size, idle sessions, the session cap (one worker here)."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest

import tau_env
from tests.extras import require

require("openenv", "openenv")

LIMIT = 65_536
IDLE = 2.0
TASK = tau_env.load_tasks("telecom", split="test")[0].id


@pytest.fixture(scope="module")
def limited():
    from tau_env.testing.serving import served

    options = ["--max-sessions", "2", "--max-message-bytes", str(LIMIT), "--idle-timeout", "2"]
    with served(["--domain", "telecom", *options]) as url:
        yield url


def ws_url(url: str) -> str:
    return url.replace("http", "ws", 1) + "/ws"


async def ask(ws, kind: str, data: dict | None = None) -> dict:
    message = {"type": kind} if data is None else {"type": kind, "data": data}
    await ws.send(json.dumps(message, ensure_ascii=False))
    return json.loads(await ws.recv())


def test_message_over_the_limit__error_frame_nothing_changes_session_goes_on(limited):
    import websockets

    async def main():
        async with websockets.connect(ws_url(limited)) as ws:
            await ask(ws, "reset", {"task_id": TASK, "seed": 0})
            before = await ask(ws, "state")
            refused = await ask(ws, "step", {"content": "x" * (LIMIT + 1)})
            unchanged = await ask(ws, "state")
            near = await ask(ws, "step", {"content": "é" * (LIMIT // 2 - 40)})  # 2 bytes each
            after = await ask(ws, "state")
            return before, refused, unchanged, near, after

    before, refused, unchanged, near, after = asyncio.run(main())
    assert refused["type"] == "error"
    assert refused["data"]["code"] == "MESSAGE_TOO_LARGE"
    assert f"{LIMIT:,} bytes" in refused["data"]["message"]
    assert unchanged == before  # the refused step did nothing
    assert near["type"] == "observation"  # just under the limit in UTF-8 bytes: played
    assert after["data"]["step_count"] == before["data"]["step_count"] + 1


def test_message_over_the_limit__openenv_client_raises_with_the_reason(limited):
    from tau_env.integrations.openenv import TauAction, TauEnvClient

    async def main():
        async with TauEnvClient(base_url=limited) as client:
            await client.reset(task_id=TASK, seed=0)
            with pytest.raises(RuntimeError, match="MESSAGE_TOO_LARGE"):
                await client.step(TauAction(content="x" * (LIMIT + 1)))
            return await client.step(TauAction(content="Hello, how can I help?"))

    result = asyncio.run(main())
    assert result.observation.messages[0]["role"] == "user"


def test_frame_far_over_the_limit__connection_closed_unread(limited):
    import websockets

    async def main():
        async with websockets.connect(ws_url(limited), max_size=None) as ws:
            await ask(ws, "reset", {"task_id": TASK, "seed": 0})
            huge = json.dumps({"type": "step", "data": {"content": "x" * (2 * LIMIT + 1)}})
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.send(huge)  # the server may close while this is still being written
                await ws.recv()
            return closed.value.rcvd

    received = asyncio.run(main())
    # Refused from the frame's header: closed "message too big" (or reset mid-write, unread).
    assert received is None or received.code == 1009


@pytest.mark.parametrize("chunked", [False, True])
def test_http_body_over_the_limit__413_json(limited, chunked):
    body = json.dumps({"task_id": "x" * LIMIT}).encode()
    headers = {"Content-Type": "application/json"}
    data = iter([body]) if chunked else body  # an iterable body is sent chunked
    request = urllib.request.Request(limited + "/reset", data=data, headers=headers)
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request, timeout=30)
    assert answer.value.code == 413
    assert "--max-message-bytes" in json.loads(answer.value.read())["detail"]


def test_idle_sessions__closed_and_their_slots_freed_busy_ones_kept(limited):
    import websockets

    async def main():
        idle = [await websockets.connect(ws_url(limited)) for _ in range(2)]
        for ws in idle:
            await ask(ws, "reset", {"task_id": TASK, "seed": 0})
        refused = await websockets.connect(ws_url(limited))  # the cap is 2
        capacity = json.loads(await refused.recv())
        frames, codes = [], []
        for ws in idle:
            frames.append(json.loads(await asyncio.wait_for(ws.recv(), IDLE * 10)))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            codes.append(closed.value.rcvd.code)
        fresh = await websockets.connect(ws_url(limited))  # a slot is free again
        played = await ask(fresh, "reset", {"task_id": TASK, "seed": 1})
        await fresh.close()
        await refused.close()
        return capacity, frames, codes, played

    capacity, frames, codes, played = asyncio.run(main())
    assert capacity["data"]["code"] == "CAPACITY_REACHED"
    assert capacity["data"]["max_sessions"] == 2
    assert [f["data"]["code"] for f in frames] == ["IDLE_TIMEOUT"] * 2
    assert "--idle-timeout" in frames[0]["data"]["message"]
    assert codes == [4408, 4408]
    assert played["type"] == "observation"


def test_idle_timeout__reconnecting_openenv_client_is_told_to_reset(limited):
    """OpenEnv's client reconnects on its own after the close: the new session says why."""
    from tau_env.integrations.openenv import TauAction, TauEnvClient

    async def main():
        async with TauEnvClient(base_url=limited) as client:
            await client.reset(task_id=TASK, seed=0)
            await asyncio.sleep(IDLE * 2)
            with pytest.raises(RuntimeError, match="no episode in progress") as error:
                await client.step(TauAction(content="Hello"))
            again = await client.reset(task_id=TASK, seed=0)
            return str(error.value), again

    message, again = asyncio.run(main())
    assert "--idle-timeout" in message
    assert again.observation.messages[0]["role"] == "system" and not again.done  # reset again
