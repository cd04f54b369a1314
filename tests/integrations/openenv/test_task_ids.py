"""``tau-env serve`` sends no part of the task's id, over HTTP or over the WebSocket (issue 53).

Every frame the server sends back (reset, each step of a whole oracle episode, the state) is
searched for the id and its parts (`tests.id_leaks`), on a built-in and an official telecom task;
the client names the task it wants, as trainers do, so requests may carry it. verifiers'
`OpenEnvTaskset` pastes these frames into the model's prompt
(``tests/integrations/openenv/test_verifiers.py`` checks the requests it sends the model).
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest

from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import action_message
from tau_env.testing.serving import served
from tests.id_leaks import agent_sees, leaked, revealing_task


@pytest.fixture(scope="module", params=["built-in", "official"])
def serving(request):
    """(the server's URL, the telecom domain, the task played), built-in and official."""
    data_dir = None if request.param == "built-in" else request.getfixturevalue("data_dir")
    domain, task = revealing_task(data_dir)
    folder = [] if data_dir is None else ["--data-dir", str(data_dir)]
    with served(["--domain", "telecom", *folder]) as url:
        yield url, domain, task


def test_http__reset_and_state_hold_no_part_of_the_id(serving):
    url, domain, task = serving

    def post(url, body):
        request = urllib.request.Request(
            url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:  # a stateless /step: no episode
            return {"status": error.code, "body": error.read().decode()}

    received = [post(f"{url}/reset", {"task_id": task.id, "seed": 0})]
    received.append(post(f"{url}/step", {"action": {"content": "Hello?"}}))
    with urllib.request.urlopen(f"{url}/state", timeout=30) as response:
        received.append(json.loads(response.read()))
    assert received[0]["observation"]["messages"][0]["role"] == "system"
    assert leaked(task, received, agent_sees(domain, task)) == []


def test_websocket__every_frame_of_an_episode_holds_no_part_of_the_id(serving):
    import websockets

    url, domain, task = serving
    oracle = PlainTextOracleAgent(task)

    async def play(url):
        frames = []
        async with websockets.connect(url.replace("http", "ws", 1) + "/ws") as ws:

            async def ask(kind, data):
                await ws.send(json.dumps({"type": kind, "data": data}))
                frames.append(json.loads(await ws.recv()))
                return frames[-1]["data"]

            answer = await ask("reset", {"task_id": task.id, "seed": 0})
            while not answer["done"]:
                message = action_message(oracle.act(None, None))
                answer = await ask("step", {k: message.get(k) for k in ("content", "tool_calls")})
                await ask("state", {})
        return answer, frames

    last, frames = asyncio.run(play(url))
    assert last["reward"] == 1.0
    assert leaked(task, frames, agent_sees(domain, task)) == []
