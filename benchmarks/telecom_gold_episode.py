"""Median wall time of one scripted gold telecom episode (oracle agent + gold user) and of grading.

Usage: ``python benchmarks/telecom_gold_episode.py [--data-dir DIR] [--split S] [--rounds N]``.
Each task of the split is played once to warm the per-task caches (initial world, expected
world), then every task is played `rounds` times; the figures are medians over all plays.
"""

from __future__ import annotations

import argparse
import statistics
import time

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.episode_runner import run_episode
from tau_env.grading.context import Episode
from tau_env.wrappers.users import GoldUser


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--split", default=None)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    env = tau_env.make_env("telecom", data_dir=args.data_dir, split=args.split)
    raw = env.unwrapped
    ids = [task.id for task in raw.tasks]
    for task_id in ids:
        run_episode(env, OracleAgent, GoldUser, task_id=task_id, seed=0)
    episode_times, grade_times, steps = [], [], []
    for _ in range(args.rounds):
        for task_id in ids:
            start = time.perf_counter()
            result = run_episode(env, OracleAgent, GoldUser, task_id=task_id, seed=0)
            episode_times.append(time.perf_counter() - start)
            steps.append(result.steps)
            assert result.reward == 1.0, task_id
            task = raw.task
            episode = Episode(
                task=task,
                trajectory=raw.conversation.trajectory,
                world=raw.conversation.world,
                termination=raw.conversation.termination,
                expected_world_factory=lambda task=task: raw.domain.expected_world(task),
            )
            start = time.perf_counter()
            raw.grader.grade(episode)
            grade_times.append(time.perf_counter() - start)
    episode_ms = statistics.median(episode_times) * 1e3
    print(
        f"{len(ids)} tasks x {args.rounds}: episode median {episode_ms:.3f} ms"
        f" (p90 {statistics.quantiles(episode_times, n=10)[-1] * 1e3:.3f} ms),"
        f" grading median {statistics.median(grade_times) * 1e3:.3f} ms,"
        f" median steps {statistics.median(steps)}"
    )


if __name__ == "__main__":
    main()
