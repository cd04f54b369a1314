"""``tau-env run``: play tasks x trials with scripted participants and report rewards and pass^k.

This is the offline main job: no network, no API key. Later issues add LLM participants,
concurrency and a result store.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from tau_env.baselines.oracle import OracleAgent
from tau_env.cli.common import add_data_arguments
from tau_env.episode_runner import run_episode
from tau_env.metrics import pass_hat_k_curve
from tau_env.registry import make_env
from tau_env.rollout_seeds import episode_seed
from tau_env.wrappers.users import GoldUser

__all__ = ["add_parser"]


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "run", help="run episodes offline (oracle agent, gold user) and print rewards"
    )
    add_data_arguments(parser, default_domain="mock")
    parser.add_argument("--trials", type=int, default=1, help="trials per task (default: 1)")
    parser.add_argument("--seed", type=int, default=300, help="base seed (default: 300)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per episode")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Run every (task, trial) and print the rewards, then pass^k."""
    if args.trials < 1:
        raise SystemExit("tau-env run: --trials must be >= 1")
    env = make_env(args.domain, data_dir=args.data_dir, split=args.split)
    task_ids = args.tasks.split(",") if args.tasks else [t.id for t in env.unwrapped.tasks]
    rewards: dict[str, list[float]] = {task_id: [] for task_id in task_ids}
    for trial in range(args.trials):
        for task_id in task_ids:
            seed = episode_seed(args.seed, task_id, trial)
            result = run_episode(env, OracleAgent, GoldUser, task_id=task_id, seed=seed)
            rewards[task_id].append(result.reward)
            if args.json:
                print(
                    json.dumps(
                        {
                            "task_id": task_id,
                            "trial": trial,
                            "seed": seed,
                            "reward": result.reward,
                            "termination": result.grade.termination.value,
                        }
                    )
                )
            else:
                print(
                    f"{task_id}\ttrial {trial}\treward {result.reward:.1f}\t"
                    f"{result.grade.termination.value}"
                )
    curve = pass_hat_k_curve(rewards)
    summary = ", ".join(f"pass^{k}={value:.3f}" for k, value in curve.items())
    if args.json:
        print(json.dumps({"pass_hat_k": curve, "episodes": args.trials * len(task_ids)}))
    else:
        print(f"{len(task_ids)} tasks x {args.trials} trials: {summary}")
    return 0
