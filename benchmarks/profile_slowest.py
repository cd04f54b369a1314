"""Profile the slowest environment path: whole scripted gold telecom episodes on official data.

Usage: ``python benchmarks/profile_slowest.py [--data-dir DIR] [--rounds N] [--top K]``. Plays
every task of the split once to warm the per-task caches, then profiles `rounds` more passes
with cProfile and prints the functions by cumulative and by own time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import time
from pathlib import Path

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import GoldUser

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.environ.get("TAU2_DATA_DIR") or str(REPO.parent / "shared" / "tau2-data")
    parser.add_argument("--data-dir", default=default)
    parser.add_argument("--domain", default="telecom")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="profile in this thread's CPU time (steadier on a shared machine; slower)",
    )
    args = parser.parse_args()
    data_dir = args.data_dir if Path(args.data_dir, "domains").is_dir() else None
    env = tau_env.make_env(args.domain, data_dir=data_dir)
    task_ids = [task.id for task in env.unwrapped.tasks]
    gold = GoldUser.factory(env.unwrapped.domain)  # banking reads openings in its vocabulary
    for task_id in task_ids:
        run_episode(env, OracleAgent, gold, task_id=task_id, seed=0)
    profile = cProfile.Profile(time.thread_time) if args.cpu_time else cProfile.Profile()
    profile.enable()
    for _ in range(args.rounds):
        for task_id in task_ids:
            run_episode(env, OracleAgent, gold, task_id=task_id, seed=0)
    profile.disable()
    for order in ("cumulative", "tottime"):
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(order).print_stats(args.top)
        print(out.getvalue())


if __name__ == "__main__":
    main()
