"""Chat view overhead per agent turn over the AEC env, and OpenEnv episodes per second.

    python benchmarks/chat_training.py                       # both, default sizes
    python benchmarks/chat_training.py --skip openenv --tasks 200 --repeats 9
    python benchmarks/chat_training.py --only chat --passes 3  # one side, for callgrind

1. Chat view overhead. The plain-text oracle's actions on telecom tasks (scripted user) are
   recorded once. Then the same actions are replayed, in turn, through the AEC env (the
   `run_episode` loop: `live_turns`, `view`/`context` for the user) and through
   `tau_env.chat.ChatEnv` (as assistant messages): the difference in CPU time
   (`time.process_time`) divided by the agent turns is what the chat view adds per turn. Both
   sides are warmed first, the order alternates between repeats, and the median over repeats
   is reported (the machine may be shared: CPU time, not wall time). ``--only aec|chat``
   plays one side ``--passes`` times after one warm pass, for instruction counts under
   ``valgrind --tool=callgrind`` (subtract a ``--passes 0`` run).
2. OpenEnv over WebSocket. ``tau-env serve telecom`` on 127.0.0.1 and `TauEnvClient`
   sessions (``--sessions``, 16 concurrent by default) play scripted-oracle episodes
   (replayed assistant messages), after one warm pass over every task (the server caches each
   task's initial and expected worlds on first play); reported: episodes per wall second, and
   CPU milliseconds per episode of the server process and of the client process separately
   (meaningful on a loaded machine), with the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import tau_env
from tau_env.actions import Action
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import ChatEnv, action_message, make_chat_env
from tau_env.episode_runner import live_turns
from tau_env.wrappers.users import ScriptedUser


class ChatBench:
    """The recorded oracle actions of `tasks` telecom tasks and the two ways to replay them."""

    def __init__(self, tasks: int) -> None:
        self.env = tau_env.make_env("telecom")
        self.user = ScriptedUser.factory(self.env.unwrapped.domain)
        self.tasks = [t.id for t in self.env.unwrapped.tasks][:tasks]
        self.plans = {task_id: self._record(i, task_id) for i, task_id in enumerate(self.tasks)}
        self.messages = {k: [action_message(a) for a in v] for k, v in self.plans.items()}
        self.turns = sum(len(plan) for plan in self.plans.values())
        self.chat: ChatEnv = make_chat_env("telecom")

    def _record(self, seed: int, task_id: str) -> list[Action]:
        env = self.env
        env.reset(seed=seed, options={"task_id": task_id})
        agent = PlainTextOracleAgent(env.unwrapped.task)
        user = self.user(env.unwrapped.task)
        actions: list[Action] = []
        for side in live_turns(env):
            if side == "agent":
                actions.append(agent.act(env.view(side), env.context(side)))
                env.step(actions[-1])
            else:
                env.step(user.act(env.view(side), env.context(side)))
        assert env.unwrapped.grade.reward == 1.0, task_id
        return actions

    def aec_pass(self) -> None:
        """Every task through the AEC env, the agent's actions replayed."""
        env, user = self.env, self.user
        for seed, task_id in enumerate(self.tasks):
            env.reset(seed=seed, options={"task_id": task_id})
            player = user(env.unwrapped.task)
            actions = iter(self.plans[task_id])
            for side in live_turns(env):
                if side == "agent":
                    env.step(next(actions))
                else:
                    env.step(player.act(env.view(side), env.context(side)))

    def chat_pass(self) -> None:
        """Every task through the chat view, the same actions as assistant messages."""
        chat = self.chat
        for seed, task_id in enumerate(self.tasks):
            chat.reset(task_id=task_id, seed=seed)
            for message in self.messages[task_id]:
                chat.step(message)
            assert chat.done and chat.reward == 1.0, task_id


def cpu(work: Callable[[], None]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def chat_overhead(tasks: int, repeats: int) -> dict[str, Any]:
    """Median CPU microseconds per agent turn: AEC env, chat view, and their difference."""
    bench = ChatBench(tasks)
    for _ in range(2):  # warm both sides
        bench.aec_pass()
        bench.chat_pass()
    aec, chat, overhead = [], [], []
    for r in range(repeats):
        first, second = (bench.aec_pass, bench.chat_pass)
        if r % 2:
            first, second = second, first
        times = {first: cpu(first), second: cpu(second)}
        aec.append(times[bench.aec_pass] / bench.turns * 1e6)
        chat.append(times[bench.chat_pass] / bench.turns * 1e6)
        overhead.append(chat[-1] - aec[-1])
    return {
        "turns": bench.turns,
        "aec_us": statistics.median(aec),
        "chat_us": statistics.median(chat),
        "overhead_us": statistics.median(overhead),
        "overheads": overhead,
    }


def openenv_rate(episodes: int, concurrency: int = 16) -> dict[str, float]:
    """Scripted-oracle telecom episodes over WebSocket: rate and CPU per episode per process."""
    import psutil

    from tau_env.integrations.openenv import TauAction, TauEnvClient
    from tau_env.testing.serving import served

    chat = make_chat_env("telecom")
    tasks = [t.id for t in chat.single.aec.unwrapped.domain.split(None)]
    all_tasks = len(tasks)
    plans: dict[str, list[dict[str, Any]]] = {}
    for task_id in tasks:  # the oracle's assistant messages, recorded once
        chat.reset(task_id=task_id)
        agent = PlainTextOracleAgent(chat.single.task)
        plans[task_id] = []
        while not chat.done:
            plans[task_id].append(action_message(agent.act(None, None)))  # type: ignore[arg-type]
            chat.step(plans[task_id][-1])
        if chat.reward != 1.0:  # a user that needs a request repeated: not a fixed replay
            del plans[task_id]
    tasks = list(plans)

    async def worker(url: str, queue: asyncio.Queue[int]) -> None:
        async with TauEnvClient(base_url=url) as client:
            while not queue.empty():
                i = queue.get_nowait()
                task_id = tasks[i % len(tasks)]
                result = await client.reset(task_id=task_id, seed=i)
                for message in plans[task_id]:
                    if result.done:
                        break
                    content, calls = message["content"], message.get("tool_calls")
                    action = TauAction(content=content, tool_calls=calls)
                    result = await client.step(action)
                assert result.done and result.reward == 1.0, task_id

    async def play(url: str, count: int) -> None:
        queue: asyncio.Queue[int] = asyncio.Queue()
        for i in range(count):
            queue.put_nowait(i)
        await asyncio.gather(*(worker(url, queue) for _ in range(concurrency)))

    with served(["telecom"]) as url:
        server = next(p for p in psutil.Process().children() if "serve" in " ".join(p.cmdline()))
        # Warm: every task once, so the server has built each task's initial and expected
        # worlds (cached per task, as in training, where every task is played many times).
        asyncio.run(play(url, len(tasks)))
        server_before = sum(server.cpu_times()[:2])
        client_before = time.process_time()
        start = time.perf_counter()
        asyncio.run(play(url, episodes))
        wall = time.perf_counter() - start
        client_cpu = time.process_time() - client_before
        server_cpu = sum(server.cpu_times()[:2]) - server_before
    return {
        "episodes_per_s": episodes / wall,
        "server_cpu_ms": server_cpu / episodes * 1e3,
        "client_cpu_ms": client_cpu / episodes * 1e3,
        "cpu_bound_episodes_per_s": episodes / max(server_cpu, client_cpu),
        "tasks": len(tasks),
        "all_tasks": all_tasks,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=150, help="telecom tasks per pass")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--openenv-episodes", type=int, default=800)
    parser.add_argument(
        "--sessions", type=int, default=16, help="concurrent OpenEnv sessions (default: 16)"
    )
    parser.add_argument("--skip", default="", help="comma-separated: chat, openenv")
    parser.add_argument("--only", choices=["aec", "chat"], help="play one side (callgrind)")
    parser.add_argument("--passes", type=int, default=1, help="passes with --only")
    args = parser.parse_args()
    if args.only:
        bench = ChatBench(args.tasks)
        work = bench.aec_pass if args.only == "aec" else bench.chat_pass
        work()
        for _ in range(args.passes):
            work()
        print(f"{args.only}: {args.passes} passes of {bench.turns} agent turns")
        return
    skip = set(filter(None, args.skip.split(",")))
    print(f"load average at start: {os.getloadavg()}")
    if "chat" not in skip:
        r = chat_overhead(args.tasks, args.repeats)
        print(
            f"chat view: {r['turns']} agent turns/pass; AEC {r['aec_us']:.1f} CPU-us/turn, "
            f"chat {r['chat_us']:.1f} CPU-us/turn; overhead median {r['overhead_us']:.1f} "
            f"us/turn (target <= 50); repeats {[round(x, 1) for x in r['overheads']]}"
        )
    if "openenv" not in skip:
        o = openenv_rate(args.openenv_episodes, args.sessions)
        print(
            f"OpenEnv over WebSocket, {args.sessions} sessions, {o['tasks']:.0f} of "
            f"{o['all_tasks']:.0f} telecom tasks (a fixed plan solves them): "
            f"{o['episodes_per_s']:.1f} "
            "episodes/s wall "
            f"(target >= 100); CPU per episode: server {o['server_cpu_ms']:.2f} ms, client "
            f"{o['client_cpu_ms']:.2f} ms; CPU-bound rate {o['cpu_bound_episodes_per_s']:.1f} "
            "episodes/s"
        )
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
