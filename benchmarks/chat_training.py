"""Chat view overhead per agent turn over the AEC env, and OpenEnv episodes per second.

    python benchmarks/chat_training.py [--episodes 200] [--openenv-episodes 400]

1. The plain-text oracle plays telecom tasks against the scripted user twice: through the AEC
   env (`run_episode`) and through `tau_env.chat.ChatEnv` with the same actions as assistant
   messages; the difference in CPU time divided by the agent turns is the chat view's cost.
2. `tau-env serve telecom` on 127.0.0.1 and `TauEnvClient` sessions (16 concurrent) play
   scripted-oracle episodes over WebSocket; wall-clock episodes per second (both processes on
   this machine).
"""

from __future__ import annotations

import argparse
import asyncio
import time

import tau_env
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import action_message, make_chat_env
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import ScriptedUser


def chat_overhead(episodes: int) -> tuple[float, float, int]:
    env = tau_env.make_env("telecom")
    domain = env.unwrapped.domain
    tasks = [t.id for t in env.unwrapped.tasks][:episodes]
    user = ScriptedUser.factory(domain)
    start = time.process_time()
    for i, task_id in enumerate(tasks):
        run_episode(env, PlainTextOracleAgent, user, task_id=task_id, seed=i)
    aec = time.process_time() - start
    chat = make_chat_env("telecom")
    turns = 0
    start = time.process_time()
    for i, task_id in enumerate(tasks):
        chat.reset(task_id=task_id, seed=i)
        agent = PlainTextOracleAgent(chat.single.task)
        while not chat.done:
            chat.step(action_message(agent.act(None, None)))  # type: ignore[arg-type]
            turns += 1
    viewed = time.process_time() - start
    return aec, viewed, turns


def openenv_rate(episodes: int, concurrency: int = 16) -> float:
    from tau_env.integrations.openenv import TauAction, TauEnvClient
    from tau_env.testing.serving import served

    domain = tau_env.make_env("telecom").unwrapped.domain
    tasks = [t.id for t in domain.split(None)]

    async def worker(url: str, queue: asyncio.Queue[int]) -> None:
        async with TauEnvClient(base_url=url) as client:
            while not queue.empty():
                i = queue.get_nowait()
                task_id = tasks[i % len(tasks)]
                agent = PlainTextOracleAgent(domain.task(task_id))
                result = await client.reset(task_id=task_id, seed=i)
                while not result.done:
                    m = action_message(agent.act(None, None))  # type: ignore[arg-type]
                    action = TauAction(content=m["content"], tool_calls=m.get("tool_calls"))
                    result = await client.step(action)

    with served(["telecom"]) as url:
        queue: asyncio.Queue[int] = asyncio.Queue()
        for i in range(episodes):
            queue.put_nowait(i)

        async def main() -> None:
            await asyncio.gather(*(worker(url, queue) for _ in range(concurrency)))

        start = time.perf_counter()
        asyncio.run(main())
        return episodes / (time.perf_counter() - start)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--openenv-episodes", type=int, default=400)
    args = parser.parse_args()
    aec, viewed, turns = chat_overhead(args.episodes)
    print(f"AEC: {aec:.3f} CPU-s, chat view: {viewed:.3f} CPU-s, {turns} agent turns")
    print(f"chat view overhead: {(viewed - aec) / turns * 1e6:.1f} us per agent turn")
    print(f"OpenEnv over WebSocket: {openenv_rate(args.openenv_episodes):.1f} episodes/s")
