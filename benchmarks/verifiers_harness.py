"""verifiers harness time per agent turn in the tau-env-verifiers environment.

    /work/venvs/server-verifiers/bin/python benchmarks/verifiers_harness.py --episodes 40

Runs in the verifiers venv (``.ci/verifiers-requirements.txt``, plus ``uv pip install -e .
-e environments/tau_env_verifiers``). Built-in telecom test tasks (scripted user) are played in
order, one episode at a time, through `tau_env_verifiers.load_environment` in this process:
verifiers' interception server, its eval client and the environment's in-process harness, as
``vf-eval`` runs them. The model is tau_env's fake OpenAI-compatible server (a thread of this
process) replaying the plain-text oracle's turns as native tool calls and text, so every
episode must score 1.0 (checked).

Each agent turn is timed from the environment's side (``Interaction.turn``, from handing the
agent the tool results and the customer's reply to having its next message); the model call's
own span, as verifiers records it on the trace (its upstream request to the fake server, the
fake's reply included), is subtracted: what is left is what the harness and verifiers'
per-turn machinery cost (the HTTP hop to the interception server, the trace's message graph,
the segment bookkeeping). tau_env's own step (tools, the scripted user) is not in it. The
first ``--warm`` episodes are not counted. Before this environment, verifiers reached tau_env
through ``OpenEnvTaskset`` and the ``null`` harness, which starts a program (through ``uv``)
per turn: about 2.6 s per turn on this machine (measured 2026-12-04 on main 9411e3e).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from typing import Any


def plans(count: int) -> tuple[list[list[dict[str, Any]]], list[str]]:
    """The oracle's assistant messages for the first `count` telecom test tasks it solves,
    and those tasks' ids."""
    from tau_env.baselines.oracle import PlainTextOracleAgent
    from tau_env.chat import action_message, make_chat_env

    chat = make_chat_env("telecom", split="test")
    chosen = []
    for i, task in enumerate(chat.single.aec.unwrapped.domain.split("test")):
        chat.reset(task_id=task.id, seed=i)  # the taskset's seed of task i
        oracle = PlainTextOracleAgent(task)
        messages = []
        while not chat.done:
            messages.append(action_message(oracle.act(None, None)))  # type: ignore[arg-type]
            chat.step(messages[-1])
        chosen.append((task.id, messages if chat.reward == 1.0 else None))
        if sum(m is not None for _, m in chosen) == count:
            break
    return [m for _, m in chosen if m is not None], [t for t, m in chosen if m is not None]


def measure(episodes: int, warm: int) -> dict[str, Any]:
    """Play the episodes (the fake server outside the event loop verifiers runs in)."""
    from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply

    scripts, ids = plans(episodes + warm)
    cursor = {"episode": -1}

    def reply(request: Any) -> Any:
        messages = request.messages
        if len(messages) == 3:  # system, greeting, the customer's opening: a new episode
            cursor["episode"] += 1
        turn = sum(m["role"] == "assistant" for m in messages) - 1
        message = scripts[cursor["episode"]][turn]
        if message.get("tool_calls"):
            call = message["tool_calls"][0]["function"]
            return FakeReply.tool_call(call["name"], _arguments(call["arguments"]))
        return FakeReply.text(message["content"])

    with FakeOpenAIServer(reply, keep_requests=False) as fake:
        return asyncio.run(play(fake.base_url, ids, warm))


async def play(base_url: str, ids: list[str], warm: int) -> dict[str, Any]:
    """Every episode in order; each turn's wall time and model time."""
    import tau_env_verifiers
    import verifiers.v1 as vf

    turns: list[tuple[float, Any]] = []  # (wall seconds of one turn, its trace)
    original = vf.Interaction.turn

    async def timed(self: Any, message: Any = None) -> Any:
        start = time.perf_counter()
        segment = await original(self, message)
        turns.append((time.perf_counter() - start, self.trace))
        return segment

    vf.Interaction.turn = timed
    env = tau_env_verifiers.load_environment(domain="telecom", split="test")
    wanted = set(ids)
    tasks = [task for task in env.taskset if task.data.task_id in wanted]
    os.environ.setdefault("TAU_ENV_FAKE_KEY", "sk-fake")
    harness, model, walls, rewards = [], [], [], []
    client = vf.EvalClientConfig(base_url=base_url, api_key_var="TAU_ENV_FAKE_KEY")
    ctx = vf.ModelContext(model="fake", client=client)
    async with env.serving():
        for n, task in enumerate(tasks):
            turns.clear()
            episode = await env.run_episode(task, ctx)
            (trace,) = episode.traces
            rewards.append(trace.rewards["tau_reward"].score)
            if n < warm:
                continue
            calls = [c.time.duration for c in trace.calls]
            for (wall, _), call in zip(turns, calls, strict=True):
                walls.append(wall)
                model.append(call)
                harness.append(wall - call)
    if rewards != [1.0] * len(tasks):
        raise RuntimeError(f"not every replayed episode scored 1.0: {rewards}")
    return {"turns": len(harness), "harness": harness, "model": model, "walls": walls}


def _arguments(text: str) -> dict[str, Any]:
    import json

    return dict(json.loads(text or "{}"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--warm", type=int, default=3)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()}; {os.cpu_count()} cores", flush=True)
    start, cpu = time.perf_counter(), time.process_time()
    r = measure(args.episodes, args.warm)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu

    def ms(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return 1e3 * ordered[int(q * (len(ordered) - 1))]

    print(
        f"{r['turns']} agent turns over {args.episodes} episodes: harness + verifiers per turn "
        f"median {ms(r['harness'], 0.5):.1f} ms, mean {1e3 * statistics.mean(r['harness']):.1f} "
        f"ms, p90 {ms(r['harness'], 0.9):.1f} ms (target <= 20); model call (fake server) "
        f"median {ms(r['model'], 0.5):.1f} ms; whole turn median {ms(r['walls'], 0.5):.1f} ms; "
        f"process CPU {cpu:.1f} s over {wall:.1f} s"
    )
    print(f"load average at end: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
