"""How close does the runner get to the ideal wall time when episodes wait on models?

Plays N episodes (mock domain, tasks cycled over trials) at concurrency C, where every model
call takes L seconds, and reports the wall time against the ideal: total model latency / C
(what a runner with zero overhead and unlimited CPU would take). Two setups:

* ``runner``: the agent awaits ``asyncio.sleep(L)`` per decision; no HTTP, no litellm. This is
  the runner's own overhead (env steps, SQLite writes, scheduling).
* ``fake-server``: the LLM agent and the LLM user (``--user scripted`` for the scripted user)
  call the fake OpenAI-compatible server (``tau_env.testing.fake_openai``) through litellm;
  the server runs in a separate process with L seconds of latency per reply.

It also reports the zero-overhead lane-packing bound: the same episodes on C lanes, each
taking the next episode when free, with no CPU cost at all. With few episodes per lane, that
bound alone is above the ideal (the last episodes run on a partly empty machine).

Usage::

    python benchmarks/llm_bound.py                      # 400 episodes, concurrency 64, 50 ms
    python benchmarks/llm_bound.py --setups fake-server --backend ray --episodes 100

Measured on the 2-core development machine (other jobs running): ``runner`` 0.79-0.81 s
against an ideal of 0.69 s (ratio 1.15-1.17; 0.99-1.01 of the packing bound), 0.3 ms of driver
CPU per decision; ``fake-server`` ratio 7.5-8.5, CPU-bound at about 6 ms of driver CPU per
model call, almost all of it inside litellm (request building, logging, cost lookup).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tau_env.baselines.oracle import OracleAgent
from tau_env.rollout import (
    Backend,
    LocalBackend,
    ParticipantSpec,
    RunConfig,
    create_run,
    run,
)
from tau_env.store import ResultStore

LATENCY = {"seconds": 0.05}


class SleepyOracle(OracleAgent):
    """The oracle, waiting LATENCY seconds per decision as a model call would."""

    async def aact(self, view, context):
        await asyncio.sleep(LATENCY["seconds"])
        return self.act(view, context)


def fake_model(request):
    """Agent requests (offered agent tools): a lookup, then a final answer. User requests:
    an opening line, then a stop."""
    from tau_env.testing.fake_openai import FakeReply

    if "get_users" in request.tool_names:
        if request.last_message.get("role") == "tool":
            return FakeReply.text("I looked it up: everything is in order.")
        return FakeReply.tool_call("get_users", {})
    spoken = sum(1 for m in request.messages if m.get("role") == "assistant")
    return FakeReply.text("Hello, I need help with my tasks." if spoken == 0 else "###STOP###")


def serve(latency: float) -> None:
    """Run the fake server in this process and print its base URL."""
    from tau_env.testing import fake_openai

    server = fake_openai.FakeOpenAIServer(fake_model, latency=latency).start()
    print(server.base_url, flush=True)
    sys.stdin.read()  # serve until the parent closes our stdin


def config_for(episodes: int, agent: ParticipantSpec, user: ParticipantSpec) -> RunConfig:
    from tau_env.loader import load_tasks

    task_ids = tuple(t.id for t in load_tasks("mock"))
    trials = -(-episodes // len(task_ids))
    task_ids = task_ids[: -(-episodes // trials)]
    return RunConfig(
        run_id=f"bench-{agent.kind}-{time.time_ns()}",
        domain="mock",
        task_ids=task_ids,
        trials=trials,
        agent=agent,
        user=user,
    )


def measure(store: ResultStore, config: RunConfig, backend: Backend) -> dict[str, float]:
    create_run(store, config)
    cpu, wall = time.process_time(), time.perf_counter()
    summary = run(store, config, backend=backend)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    episodes = list(store.summaries(config.run_id))
    calls = sum(e.agent_usage.calls + e.user_usage.calls for e in episodes)
    return {
        "episodes": summary.finished,
        "failed": summary.failed,
        "wall_seconds": wall,
        "driver_cpu_seconds": cpu,
        "model_calls": calls,
        "passes": sum(e.success for e in episodes),
    }


def packing_bound(calls_per_episode: list[int], latency: float, concurrency: int) -> float:
    """Makespan of the same episodes, in the same order, on `concurrency` lanes that each take
    the next episode when free, with zero overhead: the best a lane scheduler can do."""
    lanes = [0.0] * concurrency
    for calls in calls_per_episode:
        index = lanes.index(min(lanes))
        lanes[index] += calls * latency
    return max(lanes)


def episode_calls(store: ResultStore, config: RunConfig) -> list[int]:
    """Model calls (or sleeps) per episode, in the order the runner started them."""
    from tau_env.rollout import plan_units

    counts: dict[tuple[str, int], int] = {}
    for episode in store.episodes(config.run_id):
        if config.agent.kind == "llm":
            calls = episode.agent.usage.calls + episode.user.usage.calls
        else:  # the sleepy oracle: one sleep per agent decision (greeting excluded)
            calls = sum(1 for m in episode.trajectory[1:] if m["role"] == "assistant")
        counts[(episode.task_id, episode.trial)] = calls
    return [counts[(unit.task_id, unit.trial)] for unit in plan_units(config)]


def benchmark(
    *,
    episodes: int = 400,
    concurrency: int = 64,
    latency: float = 0.05,
    setups: tuple[str, ...] = ("runner", "fake-server"),
    user: str = "llm",
    backend_name: str = "local",
) -> dict[str, dict[str, float]]:
    """Measure each setup; returns, per setup, wall time, ideal, ratios and CPU per call."""
    LATENCY["seconds"] = latency
    if backend_name == "ray":
        from tau_env.rollout.ray_backend import RayBackend

        backend: Backend = RayBackend(concurrency=concurrency, actors=2)
    else:
        backend = LocalBackend(concurrency=concurrency)
    results: dict[str, dict[str, float]] = {}
    calls: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory() as folder, ResultStore(Path(folder) / "b.sqlite") as store:
        if "runner" in setups:
            config = config_for(
                episodes,
                ParticipantSpec(kind=f"{SleepyOracle.__module__}:SleepyOracle"),
                ParticipantSpec(kind="scripted"),
            )
            result = measure(store, config, LocalBackend(concurrency=concurrency))
            calls["runner"] = episode_calls(store, config)
            result["model_calls"] = sum(calls["runner"])
            results["runner"] = result
        if "fake-server" in setups:
            os.environ.setdefault("OPENAI_API_KEY", "sk-fake")
            server = subprocess.Popen(
                [sys.executable, __file__, "--serve", "--latency", str(latency)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            try:
                assert server.stdout is not None
                base_url = server.stdout.readline().strip()
                model = ParticipantSpec(kind="llm", model="openai/fake", api_base=base_url)
                user_spec = model if user == "llm" else ParticipantSpec(kind="scripted")
                warm = config_for(10, model, user_spec)  # imports litellm, opens connections
                measure(store, warm, LocalBackend(concurrency=concurrency))
                config = config_for(episodes, model, user_spec)
                results["fake-server"] = measure(store, config, backend)
                calls["fake-server"] = episode_calls(store, config)
            finally:
                assert server.stdin is not None
                server.stdin.close()
                server.wait(timeout=10)
    for name, result in results.items():
        ideal = result["model_calls"] * latency / concurrency
        bound = packing_bound(calls[name], latency, concurrency)
        result["ideal_seconds"] = ideal
        result["ratio"] = result["wall_seconds"] / ideal if ideal else float("nan")
        result["packing_bound_seconds"] = bound
        result["ratio_to_packing_bound"] = result["wall_seconds"] / bound
        result["driver_cpu_ms_per_call"] = (
            1000 * result["driver_cpu_seconds"] / max(1, result["model_calls"])
        )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--setups", default="runner,fake-server")
    parser.add_argument("--user", choices=("scripted", "llm"), default="llm")
    parser.add_argument("--backend", choices=("local", "ray"), default="local")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.latency)
        return
    results = benchmark(
        episodes=args.episodes,
        concurrency=args.concurrency,
        latency=args.latency,
        setups=tuple(args.setups.split(",")),
        user=args.user,
        backend_name=args.backend,
    )
    for name, result in results.items():
        print(
            f"{name:<12} {result['episodes']:.0f} episodes, {result['model_calls']:.0f} model "
            f"calls at {args.latency * 1000:.0f} ms, concurrency {args.concurrency}: wall "
            f"{result['wall_seconds']:.2f} s vs ideal {result['ideal_seconds']:.2f} s -> ratio "
            f"{result['ratio']:.2f}; zero-overhead lane packing needs "
            f"{result['packing_bound_seconds']:.2f} s "
            f"(ratio {result['ratio_to_packing_bound']:.2f}); "
            f"driver CPU {result['driver_cpu_ms_per_call']:.1f} ms per call"
        )
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
