"""How close do runs get to the ideal wall time when episodes wait on models?

Plays episodes (mock domain, tasks cycled over trials) at concurrency C, where every model
call takes L seconds, and reports the wall time against the ideal: total model latency / C
(what a runner with zero overhead and unlimited CPU would take). Setups:

* ``runner``: the agent awaits ``asyncio.sleep(L)`` per decision; no HTTP. The runner's own
  overhead (env steps, grading, SQLite writes, scheduling).
* ``lean`` and ``litellm``: an LLM agent and an LLM user call the fake OpenAI-compatible
  server (`tau_env.testing.fake_openai`, in its own process, L seconds per reply) through
  `tau_env.llm`, forced onto one route or the other.
* ``client``: no runner; LLMClient alone, telecom-sized requests (the telecom agent's system
  prompt and tools, a conversation growing by two messages per call, ~16-20 KB per request)
  at concurrency 64 on each route: the client's CPU per call.

Also reported: CPU per model call of the driver plus its worker processes (``--workers``;
their start-up, a few seconds once per run, is left out of wall and CPU figures) and of the
fake server; the cores that CPU would need to keep pace with the ideal (above the machine's
core count the ideal cannot be reached whatever the scheduling); and the zero-overhead
lane-packing bound (the same episodes on C lanes, each taking the next episode when free, at
no CPU cost: with few episodes per lane it is above the ideal). The episode count defaults to
25 per lane (1,600 at C=64, 6,400 at C=256), so that the packing bound is close to ideal.

Usage::

    python benchmarks/llm_bound.py                                  # C=64 and 256, all setups
    python benchmarks/llm_bound.py --concurrency 64 --setups lean --workers 2
    python benchmarks/llm_bound.py --setups client
    python benchmarks/llm_bound.py --setups lean --backend ray     # episodes on Ray actors

Figures measured on the shared 2-core development machine are in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tau_env.baselines.oracle import OracleAgent
from tau_env.rollout import Backend, LocalBackend, ParticipantSpec, RunConfig, create_run, run
from tau_env.store import ResultStore

LATENCY = {"seconds": 0.05}
EPISODES_PER_LANE = 25
"""Default episodes per lane: with few, the zero-overhead packing bound alone exceeds the
ideal (at 6 per lane, 400 episodes at C=64, it is 1.16 x), so no runner could reach 1.1 x."""
ROUTES = ("lean", "litellm")


class SleepyOracle(OracleAgent):
    """The oracle, waiting LATENCY seconds per decision as a model call would."""

    async def aact(self, view, context):
        await asyncio.sleep(LATENCY["seconds"])
        return self.act(view, context)


def fake_model(request):
    """Agent requests (offered agent tools): a lookup, then a final answer. User requests:
    an opening line, then a stop. Anything else (the client setup): a short answer."""
    from tau_env.testing.fake_openai import FakeReply

    # the body read directly: this script stands in for a model, its cost is the server's
    body = request.body
    messages = body.get("messages") or [{}]
    if any(tool["function"]["name"] == "get_users" for tool in body.get("tools") or ()):
        if messages[-1].get("role") == "tool":
            return FakeReply.text("I looked it up: everything is in order.")
        return FakeReply.tool_call("get_users", {})
    if body.get("model") == "client":  # the client setup's telecom agent
        return FakeReply.text("Sure, let me check that for you.")
    spoken = any(m.get("role") == "assistant" for m in messages)
    return FakeReply.text("###STOP###" if spoken else "Hello, I need help with my tasks.")


def serve(latency: float) -> None:
    """Run the fake server in this process and print its base URL."""
    from tau_env.testing import fake_openai

    server = fake_openai.FakeOpenAIServer(fake_model, latency=latency, keep_requests=False)
    server.start()
    gc.freeze()  # the server's startup objects are never collected: cheaper collections
    print(server.base_url, flush=True)
    sys.stdin.read()  # serve until the parent closes our stdin


class FakeServerProcess:
    """The fake server in a child process (so its CPU is not the client's)."""

    def __init__(self, latency: float) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve", "--latency", str(latency)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        self.base_url = self.process.stdout.readline().strip()

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().split()
        return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


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


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (the worker processes)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def measure(store: ResultStore, config: RunConfig, backend: Backend) -> dict[str, float]:
    create_run(store, config)
    cpu, wall = _cpu(), time.perf_counter()
    summary = run(store, config, backend=backend)
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    startup = getattr(backend, "startup", None) or {}  # worker processes: not the steady state
    wall -= startup.get("seconds", 0.0)
    cpu -= startup.get("cpu_seconds", 0.0)
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


def make_backend(name: str, concurrency: int, workers: int) -> Backend:
    if name == "ray":
        from tau_env.rollout.ray_backend import RayBackend

        return RayBackend(concurrency=concurrency, actors=max(2, workers))
    if workers > 1:
        from tau_env.rollout.process_backend import ProcessBackend

        return ProcessBackend(workers=workers, concurrency=concurrency)
    return LocalBackend(concurrency=concurrency)


def benchmark(
    *,
    episodes: int | None = None,
    concurrency: int = 64,
    latency: float = 0.05,
    setups: tuple[str, ...] = ("runner", *ROUTES),
    user: str = "llm",
    backend_name: str = "local",
    workers: int = 1,
) -> dict[str, dict[str, float]]:
    """Measure each episode setup; per setup: wall time, ideal, ratios and CPU per call."""
    LATENCY["seconds"] = latency
    episodes = episodes or EPISODES_PER_LANE * concurrency
    results: dict[str, dict[str, float]] = {}
    calls: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory() as folder, ResultStore(Path(folder) / "b.sqlite") as store:
        if "runner" in setups:
            config = config_for(
                episodes,
                ParticipantSpec(kind=f"{SleepyOracle.__module__}:SleepyOracle"),
                ParticipantSpec(kind="scripted"),
            )
            result = measure(store, config, make_backend(backend_name, concurrency, workers))
            calls["runner"] = episode_calls(store, config)
            result["model_calls"] = sum(calls["runner"])
            results["runner"] = result
        routes = [route for route in ROUTES if route in setups]
        if routes:
            server = FakeServerProcess(latency)
            try:
                for route in routes:
                    model = ParticipantSpec(
                        kind="llm",
                        model="openai/fake",
                        api_base=server.base_url,
                        llm_args={"route": route},
                    )
                    user_spec = model if user == "llm" else ParticipantSpec(kind="scripted")
                    warm = config_for(20, model, user_spec)  # imports, opens connections
                    measure(store, warm, LocalBackend(concurrency=concurrency))
                    config = config_for(episodes, model, user_spec)
                    server_cpu = server.cpu_seconds()
                    backend = make_backend(backend_name, concurrency, workers)
                    result = measure(store, config, backend)
                    result["server_cpu_seconds"] = server.cpu_seconds() - server_cpu
                    results[route] = result
                    calls[route] = episode_calls(store, config)
            finally:
                server.close()
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
        # cores the run needs to keep pace with the ideal: driver (and workers) plus server
        cpu = result["driver_cpu_seconds"] + result.get("server_cpu_seconds", 0.0)
        result["cores_needed_at_ideal"] = cpu / ideal if ideal else float("nan")
    return results


def telecom_request() -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """The telecom agent's opening messages and tools (about 16 KB as JSON)."""
    from tau_env.baselines.llm_agent import agent_system_prompt
    from tau_env.loader import make_env

    env = make_env("telecom")
    env.reset(seed=1)
    context = env.context("agent")
    messages: list[dict[str, object]] = [
        {"role": "system", "content": agent_system_prompt(context.instructions)},
        {"role": "assistant", "content": "Hi! How can I help you today?"},
        {"role": "user", "content": "My mobile data stopped working this morning."},
    ]
    return messages, context.tools


async def _client_load(base_url: str, route: str, calls: int, concurrency: int) -> int:
    """`calls` model calls from `concurrency` conversations, 20 calls per conversation."""
    from tau_env.llm import CallLimiter, LLMClient, ModelConfig

    opening, tools = telecom_request()
    config = ModelConfig("openai/client", api_base=base_url, route=route)  # type: ignore[arg-type]
    limiter = CallLimiter(concurrency)
    left = [calls]
    longest: list[list[dict[str, object]]] = [[]]

    async def lane() -> None:
        while left[0] > 0:
            client = LLMClient(config, limiter=limiter)  # one client per conversation
            history = list(opening)
            for _ in range(20):
                if left[0] <= 0:
                    return
                left[0] -= 1
                reply = await client.complete(history, tools, seed=7)
                history += [
                    {"role": "assistant", "content": reply.content},
                    {"role": "user", "content": "I restarted the phone; still no data. " * 2},
                ]
                if len(history) > len(longest[0]):
                    longest[0] = history

    await asyncio.gather(*(lane() for _ in range(concurrency)))
    return len(json.dumps({"messages": longest[0][:-1], "tools": tools}))  # the last request


def client_benchmark(calls: int = 3000, concurrency: int = 64) -> dict[str, dict[str, float]]:
    """CPU per call of LLMClient alone on each route (no runner, no env), telecom requests."""
    results: dict[str, dict[str, float]] = {}
    server = FakeServerProcess(0.0)
    try:
        for route in ROUTES:
            asyncio.run(_client_load(server.base_url, route, 2 * concurrency, concurrency))
            cpu, wall = time.process_time(), time.perf_counter()
            largest = asyncio.run(_client_load(server.base_url, route, calls, concurrency))
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            results[route] = {
                "calls": calls,
                "client_cpu_ms_per_call": 1000 * cpu / calls,
                "calls_per_second": calls / wall,
                "largest_request_bytes": largest,
            }
    finally:
        server.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=None, help="default: 25 per lane")
    parser.add_argument("--concurrency", default="64,256", help="comma-separated list")
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--setups", default="runner,lean,litellm,client")
    parser.add_argument("--user", choices=("scripted", "llm"), default="llm")
    parser.add_argument("--backend", choices=("local", "ray"), default="local")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (local)")
    parser.add_argument("--client-calls", type=int, default=3000)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.latency)
        return
    setups = tuple(args.setups.split(","))
    report: dict[str, object] = {}
    for concurrency in (int(c) for c in args.concurrency.split(",")):
        episode_setups = tuple(s for s in setups if s != "client")
        if not episode_setups:
            break
        results = benchmark(
            episodes=args.episodes,
            concurrency=concurrency,
            latency=args.latency,
            setups=episode_setups,
            user=args.user,
            backend_name=args.backend,
            workers=args.workers,
        )
        report[f"concurrency {concurrency}"] = results
        for name, r in results.items():
            print(
                f"C={concurrency:<4} {name:<8} {r['episodes']:.0f} episodes, "
                f"{r['model_calls']:.0f} calls at {args.latency * 1000:.0f} ms: wall "
                f"{r['wall_seconds']:.2f} s vs ideal {r['ideal_seconds']:.2f} s -> ratio "
                f"{r['ratio']:.2f} (packing bound {r['packing_bound_seconds']:.2f} s, ratio to "
                f"it {r['ratio_to_packing_bound']:.2f}); CPU {r['driver_cpu_ms_per_call']:.2f} "
                f"ms per call (driver + {args.workers} worker(s)), server "
                f"{1000 * r.get('server_cpu_seconds', 0) / max(1, r['model_calls']):.2f} ms; "
                f"at the ideal pace that CPU needs {r['cores_needed_at_ideal']:.2f} cores "
                f"(this machine: {os.cpu_count()})",
                flush=True,
            )
    if "client" in setups:
        client = client_benchmark(calls=args.client_calls)
        report["client"] = client
        for route, r in client.items():
            print(
                f"client   {route:<8} {r['calls']:.0f} telecom calls (up to "
                f"{r['largest_request_bytes'] / 1000:.1f} KB) at concurrency 64: "
                f"{r['client_cpu_ms_per_call']:.2f} ms CPU per call, "
                f"{r['calls_per_second']:.0f} calls/s",
                flush=True,
            )
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
