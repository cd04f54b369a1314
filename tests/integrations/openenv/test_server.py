from __future__ import annotations

import asyncio
import json
import urllib.request

import tau_env
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import action_message
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import ScriptedUser
from tests.extras import require

require("openenv", "openenv")

TASKS = [t.id for t in tau_env.make_env("telecom").unwrapped.tasks[:16]]


async def play(url: str, task_id: str, seed: int) -> tuple[float, dict, int]:
    from tau_env.integrations.openenv import TauAction, TauEnvClient

    domain = tau_env.make_env("telecom").unwrapped.domain
    agent = PlainTextOracleAgent(domain.task(task_id))
    steps = 0
    async with TauEnvClient(base_url=url) as client:
        result = await client.reset(task_id=task_id, seed=seed)
        assert result.observation.tools and result.observation.messages[0]["role"] == "system"
        while not result.done:
            message = action_message(agent.act(None, None))
            result = await client.step(
                TauAction(content=message["content"], tool_calls=message.get("tool_calls"))
            )
            steps += 1
    return result.reward, result.observation.metadata, steps


def test_client__16_concurrent_episodes_match_run_episode(server):
    async def main():
        return await asyncio.gather(
            *(play(server, task_id, 100 + i) for i, task_id in enumerate(TASKS))
        )

    served_results = asyncio.run(main())
    env = tau_env.make_env("telecom")
    domain = env.unwrapped.domain
    for i, (task_id, (reward, metadata, steps)) in enumerate(
        zip(TASKS, served_results, strict=True)
    ):
        direct = run_episode(
            env, PlainTextOracleAgent, ScriptedUser.factory(domain), task_id=task_id, seed=100 + i
        )
        assert reward == direct.reward
        assert metadata["grade"] == direct.grade.model_dump(mode="json")
        assert steps >= 1
    assert {r for r, _, _ in served_results} == {1.0}


def test_generic_client__plays_with_plain_dicts(server):
    from openenv import GenericEnvClient

    async def main():
        async with GenericEnvClient(base_url=server) as client:
            await client.reset(task_id=TASKS[0], seed=0)
            return await client.step({"content": "What is your phone number?"})

    result = asyncio.run(main())
    assert result.observation["messages"][0]["role"] == "user"
    assert result.done is False


def test_invalid_action__error_in_metadata_episode_continues(server):
    from openenv import GenericEnvClient

    async def main():
        async with GenericEnvClient(base_url=server) as client:
            await client.reset(task_id=TASKS[0], seed=0)
            bad = await client.step({"tool_calls": [{"function": {"arguments": "{}"}}]})
            good = await client.step({"content": "Hello?"})
            return bad, good

    bad, good = asyncio.run(main())
    assert "name" in bad.observation["metadata"]["error"]
    assert good.observation["messages"][0]["role"] == "user"


def test_task_discovery__routes_list_ids_only(server):
    def get(path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            server + path, data=data, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    assert get("/list_environments") == ["tau_env-telecom"]
    names = [s["name"] for s in get("/tau_env-telecom/splits")]
    assert {"train", "test"} <= set(names)
    count = get("/tau_env-telecom/num_tasks", {"split": "test"})["num_tasks"]
    assert count == len(tau_env.load_tasks("telecom", split="test"))
    task = get("/tau_env-telecom/task", {"split": "test", "index": 0})["task"]
    assert task == {"id": tau_env.load_tasks("telecom", split="test")[0].id, "index": 0}
    schema = get("/schema")
    assert {"content", "tool_calls"} <= set(schema["action"]["properties"])


def test_long_message__other_sessions_are_answered_while_it_is_read(server):
    """The user's reading of a long message (seconds) runs off the event loop."""
    import websockets

    long_text = "Please check your status bar and tell me what it shows. " * 4000  # 224 KB
    url = server.replace("http", "ws", 1) + "/ws"

    async def ask(ws, kind, data):
        await ws.send(json.dumps({"type": kind, "data": data}))
        return json.loads(await ws.recv())

    async def main():
        async with websockets.connect(url) as slow, websockets.connect(url) as quick:
            await ask(slow, "reset", {"task_id": TASKS[0], "seed": 0})
            await ask(quick, "reset", {"task_id": TASKS[1], "seed": 0})
            answered: list[str] = []

            async def read_long():
                await ask(slow, "step", {"content": long_text})
                answered.append("long")

            async def chat():
                for _ in range(5):
                    await ask(quick, "step", {"content": "What do you see on your screen?"})
                    answered.append("short")

            await asyncio.gather(read_long(), chat())
            return answered

    answered = asyncio.run(main())
    # Played inline, the long step would hold every message that arrived after it.
    assert answered.index("long") >= 3, answered
