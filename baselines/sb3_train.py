"""Train MaskablePPO (sb3-contrib) on built-in telecom through the featurized view.

The agent plays the `train` split against the scripted user; every ``eval_every`` steps the
greedy policy plays each task of the `test` split once (the scripted user is deterministic,
so one trial gives pass^1 exactly). The random template agent and the untrained policy are
scored on the same tasks. Written to ``--out``: ``model.zip``, ``learning_curve.png`` (train
reward and test pass^1 against environment steps) and ``summary.json`` (figures, timings,
configuration); the summary also scores `ManualPolicy`, the tech-support manual written as a
template policy, as a reference for what the features allow. CPU only; seeds fixed; torch
uses one thread, so CPU time tracks the work done.

Usage::

    python -m tau_env.baselines.sb3_train --out runs/telecom --timesteps 300000

Needs the ``rl`` extra (``pip install torch==2.13.0 && pip install 'tau-env[rl]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tau_env.baselines.rl.curve import plot_learning_curve
from tau_env.baselines.rl.evaluate import Evaluation, evaluate, predictor_policy, random_policy
from tau_env.baselines.rl.manual_policy import ManualPolicy
from tau_env.wrappers.rl import FeaturizedEnv, make_telecom_featurized_env

try:
    import stable_baselines3
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "tau_env.baselines.sb3_train needs the rl extra: "
        "pip install torch==2.13.0 && pip install 'tau-env[rl]'"
    ) from error

__all__ = ["TrainConfig", "main", "train"]


@dataclass(frozen=True)
class TrainConfig:
    """One training run.

    Attributes:
        out: Folder for the model, the figure and the summary.
        timesteps: Environment steps (templates played) to train for.
        seed: Seed of the policy, the training envs and the random agent.
        train_split, test_split: Built-in telecom splits to train and evaluate on.
        task_filter: Keep only tasks whose id contains this text (a narrow family), in both
            splits; empty: every task.
        train_tasks, test_tasks: Explicit task ids of the splits (instead of the filter).
        eval_every: Steps between test evaluations (0: only before and after training).
        n_envs, n_steps, batch_size, n_epochs, learning_rate, gamma, ent_coef, net_arch:
            MaskablePPO's settings.
        max_turns: Templates per episode before truncation.
    """

    out: Path
    timesteps: int = 300_000
    seed: int = 0
    train_split: str = "train"
    test_split: str = "test"
    task_filter: str = ""
    train_tasks: tuple[str, ...] | None = None
    test_tasks: tuple[str, ...] | None = None
    eval_every: int = 25_000
    n_envs: int = 8
    n_steps: int = 256
    batch_size: int = 512
    n_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.99
    ent_coef: float = 0.01
    net_arch: tuple[int, ...] = field(default=(128, 128))
    max_turns: int = 40

    def __post_init__(self) -> None:
        if self.timesteps < 1 or self.n_envs < 1 or self.eval_every < 0:
            raise ValueError("timesteps and n_envs must be >= 1, eval_every >= 0")

    @property
    def command(self) -> str:
        """The command line that runs this configuration (settings it cannot express noted)."""
        parts = ["python -m tau_env.baselines.sb3_train", f"--out {self.out}"]
        defaults = TrainConfig(out=self.out)
        for option, name in _CLI_OPTIONS.items():
            value = getattr(self, name)
            if value != getattr(defaults, name):
                parts.append(
                    f"{option} {value!r}" if isinstance(value, str) else f"{option} {value}"
                )
        others = [
            name
            for name in ("train_tasks", "test_tasks", *_OTHER_SETTINGS)
            if getattr(self, name) != getattr(defaults, name)
        ]
        if others:
            parts.append(f"# plus settings without an option: {', '.join(others)}")
        return " ".join(parts)


_CLI_OPTIONS = {
    "--timesteps": "timesteps",
    "--seed": "seed",
    "--eval-every": "eval_every",
    "--n-envs": "n_envs",
    "--task-filter": "task_filter",
}
"""Command-line option -> `TrainConfig` field."""

_OTHER_SETTINGS = (
    "train_split",
    "test_split",
    "n_steps",
    "batch_size",
    "n_epochs",
    "learning_rate",
    "gamma",
    "ent_coef",
    "net_arch",
    "max_turns",
)


def _task_ids(env: FeaturizedEnv, task_filter: str) -> list[str]:
    ids = [task.id for task in env.env.aec.tasks if task_filter in task.id]
    if not ids:
        raise ValueError(f"no task id contains {task_filter!r}")
    return ids


def _scores(evaluation: Evaluation) -> dict[str, Any]:
    return {
        "pass1": evaluation.pass_hat(1),
        "mean_reward": evaluation.mean_reward,
        "mean_turns": evaluation.turns,
        "pass1_by_intent": evaluation.by_intent(),
    }


class _Curve(BaseCallback):  # type: ignore[misc]  # SB3 is not type-checked here
    """Records the mean training reward and the test pass^1 every ``every`` steps."""

    def __init__(self, every: int, score: Any) -> None:
        super().__init__()
        self.every = every
        self.score = score
        self.next_at = every
        self.episode_rewards: list[float] = []
        self.points: list[dict[str, float]] = []

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", ()):
            if "episode" in info:
                self.episode_rewards.append(float(info["episode"]["r"]))
        if self.every and self.num_timesteps >= self.next_at:
            self.record()
            self.next_at += self.every
        return True

    def record(self, test_pass1: float | None = None) -> None:
        """Add a point: the mean reward of the episodes since the last one, and test pass^1."""
        rewards, self.episode_rewards = self.episode_rewards, []
        self.points.append(
            {
                "steps": float(self.num_timesteps),
                "train_reward": float(np.mean(rewards)) if rewards else float("nan"),
                "test_pass1": self.score() if test_pass1 is None else test_pass1,
            }
        )


def train(config: TrainConfig) -> dict[str, Any]:
    """Run one training (see the module docstring); returns the summary it writes."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    torch.set_num_threads(1)
    config.out.mkdir(parents=True, exist_ok=True)
    probe = make_telecom_featurized_env(split=config.train_split, max_turns=config.max_turns)
    train_ids = list(config.train_tasks or _task_ids(probe, config.task_filter))
    test_env = make_telecom_featurized_env(split=config.test_split, max_turns=config.max_turns)
    test_ids = list(config.test_tasks or _task_ids(test_env, config.task_filter))

    def make_train_env() -> Monitor:
        env = make_telecom_featurized_env(
            split=config.train_split, task_ids=train_ids, max_turns=config.max_turns
        )
        return Monitor(env)

    venv = DummyVecEnv([make_train_env] * config.n_envs)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        learning_rate=config.learning_rate,
        gamma=config.gamma,
        ent_coef=config.ent_coef,
        policy_kwargs={"net_arch": list(config.net_arch)},
        seed=config.seed,
        device="cpu",
        verbose=0,
    )

    def score_model() -> Evaluation:
        return evaluate(predictor_policy(model), test_env, test_ids)

    random_scores = _scores(evaluate(random_policy(config.seed), test_env, test_ids))
    manual = ManualPolicy(test_env.feature_names, test_env.template_names)
    manual_scores = _scores(evaluate(manual, test_env, test_ids))
    untrained = score_model()
    curve = _Curve(config.eval_every, lambda: score_model().pass_hat(1))
    curve.points.append(
        {"steps": 0.0, "train_reward": float("nan"), "test_pass1": untrained.pass_hat(1)}
    )
    train_wall0, train_cpu0 = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=config.timesteps, callback=curve)
    train_wall, train_cpu = time.perf_counter() - train_wall0, time.process_time() - train_cpu0
    trained = score_model()
    if curve.points[-1]["steps"] < model.num_timesteps:
        curve.record(trained.pass_hat(1))
    model.save(config.out / "model.zip")
    figure = plot_learning_curve(
        curve.points,
        config.out / "learning_curve.png",
        baselines={"random agent": random_scores["pass1"], "untrained": untrained.pass_hat(1)},
        title=f"MaskablePPO on telecom ({config.train_split} -> {config.test_split})",
    )
    summary: dict[str, Any] = {
        "command": config.command,
        "config": {**asdict(config), "out": str(config.out)},
        "train_tasks": len(train_ids),
        "test_tasks": len(test_ids),
        "timesteps": int(model.num_timesteps),
        "test": {
            "trained": _scores(trained),
            "untrained": _scores(untrained),
            "random": random_scores,
            "manual": manual_scores,
        },
        "time": {
            "train_wall_s": round(train_wall, 1),
            "train_cpu_s": round(train_cpu, 1),
            "total_wall_s": round(time.perf_counter() - wall0, 1),
            "total_cpu_s": round(time.process_time() - cpu0, 1),
        },
        "machine": {
            "cpus": os.cpu_count(),
            "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
            "python": platform.python_version(),
            "torch": torch.__version__,
            "stable_baselines3": stable_baselines3.__version__,
        },
        "curve": curve.points,
        "files": {"model": "model.zip", "figure": figure.name},
    }
    (config.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    venv.close()
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: parse arguments, train, print the headline figures."""
    parser = argparse.ArgumentParser(
        prog="python -m tau_env.baselines.sb3_train", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--timesteps", type=int, default=TrainConfig.timesteps)
    parser.add_argument("--seed", type=int, default=TrainConfig.seed)
    parser.add_argument("--eval-every", type=int, default=TrainConfig.eval_every)
    parser.add_argument("--n-envs", type=int, default=TrainConfig.n_envs)
    parser.add_argument("--task-filter", default="", help="keep tasks whose id contains this")
    args = parser.parse_args(argv)
    summary = train(
        TrainConfig(
            out=args.out,
            timesteps=args.timesteps,
            seed=args.seed,
            eval_every=args.eval_every,
            n_envs=args.n_envs,
            task_filter=args.task_filter,
        )
    )
    test, timing = summary["test"], summary["time"]
    print(
        f"test pass^1: trained {test['trained']['pass1']:.3f}, "
        f"untrained {test['untrained']['pass1']:.3f}, random {test['random']['pass1']:.3f}; "
        f"{summary['timesteps']} steps, wall {timing['total_wall_s']} s, "
        f"CPU {timing['total_cpu_s']} s; written to {args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
