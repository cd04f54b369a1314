"""Speed of the user side: scripted episodes, the gym view, and LLM-user calls over local HTTP.

Run: ``python benchmarks/bench_users.py``. Prints figures; asserts nothing (speed is measured
here, never in tests/).
"""

from __future__ import annotations

import time

import gymnasium

import tau_env
import tau_env.wrappers  # registers the gymnasium ids
from tau_env.baselines.oracle import OracleAgent, PlainTextOracleAgent
from tau_env.episode_runner import run_episode
from tau_env.llm import LLMClient, RetryPolicy
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply
from tau_env.wrappers.users import ScriptedUser


def scripted_episodes(agent, rounds: int = 50) -> float:
    env = tau_env.make_env("mock")
    user = ScriptedUser.factory(env.unwrapped.domain)
    tasks = [t.id for t in env.unwrapped.tasks]
    start = time.perf_counter()
    for _ in range(rounds):
        for task_id in tasks:
            run_episode(env, agent, user, task_id=task_id, seed=0)
    return rounds * len(tasks) / (time.perf_counter() - start)


def gym_steps(steps: int = 5000) -> float:
    env = gymnasium.make("tau_env/Mock-v0")
    env.reset(seed=0)
    env.action_space.seed(0)
    start = time.perf_counter()
    for _ in range(steps):
        *_, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()
    return steps / (time.perf_counter() - start)


def fake_llm_calls(calls: int = 200) -> float:
    with FakeOpenAIServer(lambda request: FakeReply.text("ok")) as server:
        client = LLMClient(server.config(), retry=RetryPolicy(max_retries=0))
        client.complete_sync([{"role": "user", "content": "warm-up"}])
        start = time.perf_counter()
        for i in range(calls):
            client.complete_sync([{"role": "user", "content": f"message {i}"}])
        return calls / (time.perf_counter() - start)


if __name__ == "__main__":
    for name, agent in (("structured", OracleAgent), ("plain text", PlainTextOracleAgent)):
        rate = scripted_episodes(agent)
        print(f"scripted user + oracle ({name}): {rate:8.0f} episodes/s")
    print(f"gym view, random agent actions: {gym_steps():8.0f} steps/s")
    print(f"LLM client over local HTTP (sync): {fake_llm_calls():8.0f} calls/s")
