"""Airline speed: data loading, reset, tool steps, grading and whole gold episodes.

Run ``python benchmarks/airline_speed.py [--data-dir DIR]``; prints medians. The official
data folder defaults to ``TAU2_DATA_DIR`` (skipped when absent). Targets from the airline
issue: a whole gold episode <= 1.3 ms and grading <= 0.5 ms (median over tasks).
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import tau_env
from tau_env.actions import CallTool, SendMessage
from tau_env.baselines.oracle import OracleAgent
from tau_env.domains.airline import DEFINITION
from tau_env.episode_runner import run_episode
from tau_env.grading import Episode
from tau_env.wrappers.users import GoldUser


def median_ms(samples: list[float]) -> float:
    return 1000 * statistics.median(samples)


def timed(function: Callable[[], object], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return samples


def measure(label: str, data_dir: Path | None) -> None:
    print(f"== {label}")
    loader = (
        (lambda: DEFINITION.load_builtin())
        if data_dir is None
        else (lambda: DEFINITION.load_official(data_dir))
    )
    print(f"load + validate data files: {median_ms(timed(loader, 3)):8.1f} ms")
    build = lambda: tau_env.make_env("airline", data_dir=data_dir)  # noqa: E731
    build()  # the domain is cached per process from here on
    print(f"make_env (domain cached):   {median_ms(timed(build, 20)):8.3f} ms")
    env = build()
    raw = env.unwrapped
    tasks = list(raw.tasks)
    for task in tasks:  # prepare every task once (cached per process), as a long run would
        raw.domain.expected_world(task)
    reset = timed(lambda: env.reset(seed=0, options={"task_id": tasks[0].id}), 200)
    print(f"reset:                      {median_ms(reset):8.3f} ms")

    user_id = next(iter(raw.domain.data.agent_snapshot.records["users"]))
    reservation_id = next(iter(raw.domain.data.agent_snapshot.records["reservations"]))
    reads, writes = [], []
    for _ in range(200):
        env.reset(seed=0, options={"task_id": tasks[0].id})
        env.step(SendMessage(content="hello"))
        start = time.perf_counter()
        env.step(CallTool(name="get_user_details", arguments={"user_id": user_id}))
        reads.append(time.perf_counter() - start)
        start = time.perf_counter()
        env.step(CallTool(name="cancel_reservation", arguments={"reservation_id": reservation_id}))
        writes.append(time.perf_counter() - start)
    print(f"step: read tool (user):     {median_ms(reads):8.3f} ms")
    print(f"step: write tool (cancel):  {median_ms(writes):8.3f} ms")

    episodes, grading = [], []
    for task in tasks:
        play = functools.partial(run_episode, env, OracleAgent, GoldUser, task_id=task.id, seed=0)
        samples = timed(play, 5)
        episodes.append(statistics.median(samples))
        conversation = raw.conversation
        episode = Episode(
            task=task,
            trajectory=conversation.trajectory,
            world=conversation.world,
            termination=conversation.termination,
            expected_world_factory=lambda task=task: raw.domain.expected_world(task),
        )
        grade = functools.partial(raw.grader.grade, episode)
        grading.append(statistics.median(timed(grade, 20)))
    count = len(tasks)
    print(f"whole gold episode:         {median_ms(episodes):8.3f} ms (median over {count} tasks)")
    print(f"grading a finished episode: {median_ms(grading):8.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir", type=Path, default=os.environ.get("TAU2_DATA_DIR"))
    args = parser.parse_args()
    measure("built-in data", None)
    if args.data_dir is not None and (Path(args.data_dir) / "domains" / "airline").is_dir():
        measure(f"official data ({args.data_dir})", Path(args.data_dir))


if __name__ == "__main__":
    main()
