"""``tau-env serve --workers 2``: both processes serve sessions, one cap over both, restarts."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import time
from urllib.parse import urlparse

import pytest

import tau_env
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import action_message
from tests.extras import require

require("openenv", "openenv")
psutil = require("psutil", "openenv")

SESSIONS = 16
DOMAIN = tau_env.make_env("telecom").unwrapped.domain
TASKS = [t.id for t in DOMAIN.split("test")[:SESSIONS]]


@pytest.fixture(scope="module")
def two_workers():
    from tau_env.testing.serving import served

    with served(["--domain", "telecom", "--workers", "2", "--max-sessions", str(SESSIONS)]) as url:
        yield url


def workers(url: str) -> list[psutil.Process]:
    """The live worker processes of the server on `url` this test process started."""
    options = f"--workers 2 --max-sessions {SESSIONS} --port {urlparse(url).port}"
    command = f"tau_env.cli.main serve --domain telecom {options}"
    (supervisor,) = [p for p in psutil.Process().children() if _command(p).endswith(command)]
    return [p for p in supervisor.children() if "spawn_main" in _command(p)]


def _command(process: psutil.Process) -> str:
    try:
        if process.status() == psutil.STATUS_ZOMBIE:
            return ""
        return " ".join(process.cmdline())
    except psutil.Error:  # gone, or a zombie until its parent reaps it
        return ""


def sessions_per_worker(url: str) -> list[int]:
    port = urlparse(url).port
    return [
        sum(
            c.status == psutil.CONN_ESTABLISHED and c.laddr.port == port
            for c in worker.net_connections(kind="tcp")
        )
        for worker in workers(url)
    ]


async def play(ws, task_id: str, seed: int) -> float:
    """One oracle episode over an open session; its reward."""

    async def ask(kind, data):
        await ws.send(json.dumps({"type": kind, "data": data}))
        answer = json.loads(await ws.recv())
        assert answer["type"] == "observation", answer
        return answer["data"]

    agent = PlainTextOracleAgent(DOMAIN.task(task_id))
    result = await ask("reset", {"task_id": task_id, "seed": seed})
    while not result["done"]:
        message = action_message(agent.act(None, None))
        action = {k: message[k] for k in ("content", "tool_calls") if message.get(k)}
        result = await ask("step", action)
    return float(result["reward"])


async def play_all(sockets: list) -> list[float]:
    """One oracle episode on each open session, task i on session i, all at once."""
    pairs = enumerate(zip(sockets, TASKS, strict=True))
    return list(await asyncio.gather(*(play(ws, task_id, i) for i, (ws, task_id) in pairs)))


def test_two_workers__each_serves_sessions_and_one_cap_bounds_both(two_workers):
    import websockets

    url = two_workers.replace("http", "ws", 1) + "/ws"

    async def main():
        sockets = [await websockets.connect(url) for _ in TASKS]
        rewards = await play_all(sockets)
        spread = sessions_per_worker(two_workers)
        extra = await websockets.connect(url)  # one over the cap of both workers together
        refused = json.loads(await extra.recv())
        await extra.close()
        await sockets.pop().close()
        await asyncio.sleep(0.5)  # the server sees the close
        admitted = await websockets.connect(url)
        replayed = await play(admitted, TASKS[0], 0)
        for ws in [*sockets, admitted]:
            await ws.close()
        return rewards, spread, refused, replayed

    rewards, spread, refused, replayed = asyncio.run(main())
    assert rewards == [1.0] * SESSIONS
    assert len(spread) == 2 and sum(spread) == SESSIONS
    assert min(spread) >= 1, spread  # both processes hold sessions
    assert refused["data"]["code"] == "CAPACITY_REACHED"
    assert refused["data"]["active_sessions"] == SESSIONS
    assert replayed == 1.0


def test_dead_worker__restarted_its_slots_freed_the_server_plays_on(two_workers):
    import websockets

    before = workers(two_workers)
    victim = before[0]
    # A worker dying within 10 s of its start stops the server (it could not start): let it age.
    time.sleep(max(0.0, victim.create_time() + 11 - time.time()))
    url = two_workers.replace("http", "ws", 1) + "/ws"

    async def fill() -> list:
        # Connections hashed to the new worker wait in its queue until it has imported.
        return [await websockets.connect(url, open_timeout=300) for _ in range(SESSIONS)]

    async def main():
        held = await fill()
        for ws in held:  # every slot taken, some of them on the victim
            await ws.send(json.dumps({"type": "state"}))
            await ws.recv()
        os.kill(victim.pid, signal.SIGKILL)
        for _ in range(600):
            pids = {w.pid for w in workers(two_workers)}
            if len(pids) == 2 and victim.pid not in pids:
                break
            await asyncio.sleep(0.1)
        alive = [ws for ws in held if not await _closed(ws)]
        for ws in alive:
            await ws.close()
        await asyncio.sleep(0.5)
        refill = await fill()  # the victim's slots were given back
        rewards = await play_all(refill)
        for ws in refill:
            await ws.close()
        return rewards

    rewards = asyncio.run(main())
    after = workers(two_workers)
    assert len(after) == 2 and victim.pid not in {w.pid for w in after}
    assert rewards == [1.0] * SESSIONS


async def _closed(ws) -> bool:
    try:
        await ws.send(json.dumps({"type": "state"}))
        await asyncio.wait_for(ws.recv(), 10)
    except Exception:
        return True
    return False


def test_second_server_on_a_taken_port__refused(two_workers):
    from tau_env.errors import TauEnvError
    from tau_env.integrations.openenv.workers import bind

    port = urlparse(two_workers).port
    with pytest.raises(TauEnvError, match="already in use"):
        bind("127.0.0.1", port, 2)
    with pytest.raises(TauEnvError, match="cannot listen"):
        bind("127.0.0.1", port, 1)
    with socket.socket() as probe:  # the server still answers
        assert probe.connect_ex(("127.0.0.1", port)) == 0
