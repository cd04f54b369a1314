"""Train MaskablePPO (sb3-contrib) on a domain's tasks through its featurized view.

The domain is telecom unless ``--domain`` names another with a featurized view (airline,
retail). The agent plays the ``train`` split against the scripted user (each task's persona
style by default: plain or paraphrasing; the structured channel off). Training stops after
``timesteps`` environment steps or ``cpu_budget_s`` CPU-seconds of this process, whichever
comes first. Every ``eval_every`` steps the greedy policy plays each ``test`` task once with
paraphrasing users (the scripted user is deterministic for a seed, so one trial gives pass^1
exactly) for the learning curve. At the end it plays every split and user style of
`EVAL_GRID` that the domain has (built-in airline and retail have no ``test_ood``). Written
to ``--out``: ``model.zip``, ``learning_curve.png`` and ``summary.json`` (figures, CPU and
wall times, configuration). CPU only; seeds fixed; torch uses one thread, so CPU time tracks
the work done.

``--data-dir`` plays a generated set (``tau-env generate``) instead of the built-in tasks;
``--train-split`` and ``--test-split`` name the splits to train on and to draw the curve on,
and ``--eval-splits`` the splits scored at the end (with the curve's user style), e.g. the
held-out ``test_family``, ``test_world`` and ``test_compositional`` of a generated set.

Usage::

    python -m tau_env.baselines.sb3_train --out runs/telecom-s0 --seed 0 --cpu-budget 600
    python -m tau_env.baselines.sb3_train --domain airline --out runs/airline-s0 --seed 0
    python -m tau_env.baselines.sb3_train --domain retail --data-dir my-tasks --out runs/r0 \
        --eval-splits train,test,test_family,test_world

``benchmarks/rl_telecom.py`` (and ``benchmarks/rl_desk.py`` for airline and retail) runs
several seeds and reports them with the baselines. Needs the ``rl`` extra
(``tau_env.utils.extras.INSTALL["rl"]``: torch's CPU wheel first, then the extra).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, get_type_hints

import numpy as np

from tau_env.baselines.rl.curve import plot_learning_curve
from tau_env.baselines.rl.evaluate import Evaluation, evaluate
from tau_env.utils.extras import MissingExtra, require_extra
from tau_env.wrappers.rl import FeaturizedEnv, make_featurized_env

try:
    require_extra(
        "rl", "torch", "stable_baselines3", "sb3_contrib", feature="tau_env.baselines.sb3_train"
    )
except MissingExtra as missing:  # pragma: no cover - depends on the installed extras
    if __name__ == "__main__":  # run as a command: one line, no traceback
        print(f"error: {missing}", file=sys.stderr)
        raise SystemExit(2) from None
    raise

import stable_baselines3
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

__all__ = ["EVAL_GRID", "TrainConfig", "greedy_policy", "json_text", "main", "scores", "train"]

EVAL_GRID: tuple[tuple[str, str], ...] = tuple(
    (split, style)
    for split in ("train", "test", "test_ood")
    for style in ("structured", "plain", "paraphrase", "novice")
)
"""(split, user style) pairs every trained policy is scored on."""


@dataclass(frozen=True)
class TrainConfig:
    """One training run.

    Attributes:
        out: Folder for the model, the figure and the summary.
        domain: The domain (one with a featurized view: telecom, airline, retail).
        data_dir: A data folder holding the domain's tasks (``tau-env generate``'s ``--out``);
            None: the built-in tasks.
        timesteps: Environment steps (templates played) to train for at most.
        cpu_budget_s: CPU-seconds of training (learning and curve evaluations) at most; None:
            no limit.
        seed: Seed of the policy, the training envs and the users' styles.
        train_split, test_split: The splits to train on and to draw the curve on.
        train_style: The users' style in training (None: each task's persona).
        test_style: The users' style on the curve's test split.
        task_filter: Keep only tasks of this family (``service_issue``; built-in tasks name it
            in their description) or whose id contains this text, in both splits.
        train_tasks, test_tasks: Explicit task ids of the splits (instead of the filter).
        eval_every: Steps between curve points (0: only before and after training).
        grid: (split, style) pairs scored at the end (empty: the curve's split only); pairs
            whose split the domain lacks are left out.
        n_envs, n_steps, batch_size, n_epochs, learning_rate, gamma, ent_coef, net_arch:
            MaskablePPO's settings.
        max_turns: Templates per episode before truncation.
    """

    out: Path
    domain: str = "telecom"
    data_dir: str | None = None
    timesteps: int = 1_000_000
    cpu_budget_s: float | None = 600.0
    seed: int = 0
    train_split: str = "train"
    test_split: str = "test"
    train_style: str | None = None
    test_style: str = "paraphrase"
    task_filter: str = ""
    train_tasks: tuple[str, ...] | None = None
    test_tasks: tuple[str, ...] | None = None
    eval_every: int = 25_000
    grid: tuple[tuple[str, str], ...] = EVAL_GRID
    n_envs: int = 8
    n_steps: int = 256
    batch_size: int = 256
    n_epochs: int = 10
    learning_rate: float = 3e-4
    gamma: float = 0.99
    ent_coef: float = 0.01
    net_arch: tuple[int, ...] = field(default=(128, 128))
    max_turns: int = 40

    def __post_init__(self) -> None:
        if self.timesteps < 1 or self.n_envs < 1 or self.eval_every < 0:
            raise ValueError("timesteps and n_envs must be >= 1, eval_every >= 0")
        if self.cpu_budget_s is not None and self.cpu_budget_s <= 0:
            raise ValueError(f"cpu_budget_s must be > 0, actually: {self.cpu_budget_s}")

    @property
    def command(self) -> str:
        """The command line that runs this configuration (settings it cannot express noted)."""
        parts = ["python -m tau_env.baselines.sb3_train", f"--out {self.out}"]
        defaults = TrainConfig(out=self.out)
        for option, name in _CLI_OPTIONS.items():
            value = getattr(self, name)
            if value != getattr(defaults, name):
                parts.append(f"{option} {value}")
        splits = tuple(split for split, _ in self.grid)
        expressed = not self.grid or self.grid == _grid(splits, self.test_style)
        if self.grid != defaults.grid and expressed:
            parts.append(f"--eval-splits {','.join(splits)}" if self.grid else "--no-grid")
        others = [
            name
            for name in ("train_tasks", "test_tasks", "grid", *_OTHER_SETTINGS)
            if getattr(self, name) != getattr(defaults, name) and not (name == "grid" and expressed)
        ]
        if others:
            parts.append(f"# plus settings without an option: {', '.join(others)}")
        return " ".join(parts)


def _grid(splits: Sequence[str], style: str) -> tuple[tuple[str, str], ...]:
    """The (split, style) pairs of ``--eval-splits``: each split with the curve's style."""
    return tuple((split, style) for split in splits)


_CLI_OPTIONS = {
    "--domain": "domain",
    "--data-dir": "data_dir",
    "--train-split": "train_split",
    "--test-split": "test_split",
    "--timesteps": "timesteps",
    "--cpu-budget": "cpu_budget_s",
    "--seed": "seed",
    "--eval-every": "eval_every",
    "--n-envs": "n_envs",
    "--task-filter": "task_filter",
    "--train-style": "train_style",
    "--test-style": "test_style",
    "--n-steps": "n_steps",
    "--batch-size": "batch_size",
    "--n-epochs": "n_epochs",
    "--learning-rate": "learning_rate",
    "--ent-coef": "ent_coef",
}
"""Command-line option -> `TrainConfig` field."""

_OTHER_SETTINGS = ("gamma", "net_arch", "max_turns")


def _task_ids(env: FeaturizedEnv, task_filter: str) -> list[str]:
    tasks = env.env.aec.tasks
    ids = [task.id for task in tasks if task.family == task_filter or task_filter in task.id]
    if not ids:
        raise ValueError(f"no task id contains {task_filter!r} and no task is of that family")
    return ids


def scores(evaluation: Evaluation) -> dict[str, Any]:
    """The figures of one evaluation: pass^1, mean reward, templates per episode, by intent."""
    return {
        "pass1": evaluation.pass_hat(1),
        "mean_reward": evaluation.mean_reward,
        "mean_turns": evaluation.turns,
        "pass1_by_intent": evaluation.by_intent(),
    }


class _Curve(BaseCallback):  # type: ignore[misc]  # SB3 is not type-checked here
    """Records curve points every ``every`` steps and stops at the CPU budget."""

    def __init__(self, every: int, score: Any, budget: float | None, start: float) -> None:
        super().__init__()
        self.every, self.score, self.budget, self.start = every, score, budget, start
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
        return self.budget is None or self.cpu() < self.budget

    def cpu(self) -> float:
        """CPU-seconds since training started."""
        return time.process_time() - self.start

    def record(self, test_pass1: float | None = None) -> None:
        """Add a point: the mean reward of the episodes since the last one, and test pass^1."""
        rewards, self.episode_rewards = self.episode_rewards, []
        point = {
            "steps": float(self.num_timesteps),
            "cpu_s": round(self.cpu(), 1),
            "train_reward": float(np.mean(rewards)) if rewards else float("nan"),
            "test_pass1": self.score() if test_pass1 is None else test_pass1,
        }
        self.points.append(point)
        print(json_text(point), flush=True)  # progress, for runs left in the background


def json_text(value: Any, indent: int | None = None) -> str:
    """Strict JSON of `value`, a figure that is not a number written as null.

    NaN (no episode ended between two curve points) is not JSON: readers refuse it.
    """
    return json.dumps(_finite(value), indent=indent, allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not np.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def _view(config: TrainConfig, split: str, style: str | None, tasks: Any = None) -> FeaturizedEnv:
    return make_featurized_env(
        config.domain,
        split=split,
        task_ids=tasks,
        style=style,
        user_seed=config.seed,
        data_dir=config.data_dir,
        max_turns=config.max_turns,
    )


def greedy_policy(model: Any) -> Any:
    """The masked greedy policy of a MaskablePPO model, as `predictor_policy` would play it.

    The same choice as ``model.predict(..., deterministic=True)`` (the most likely applicable
    template), computed straight from the policy network without building a distribution
    per step: several times cheaper, and curve points are paid from the CPU budget.
    """
    policy = model.policy

    def act(features: Any, mask: Any) -> int:
        with torch.no_grad():
            observation = torch.as_tensor(features, dtype=torch.float32).unsqueeze(0)
            latent = policy.mlp_extractor.forward_actor(
                policy.extract_features(observation, policy.pi_features_extractor)
            )
            logits = policy.action_net(latent)[0]
        logits[~torch.as_tensor(mask, dtype=torch.bool)] = -torch.inf
        return int(torch.argmax(logits))

    return act


def train(config: TrainConfig) -> dict[str, Any]:
    """Run one training (see the module docstring); returns the summary it writes."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    torch.set_num_threads(1)
    # SB3 builds a Categorical per step; checking its arguments every time costs more than
    # the network itself on this small MLP (the masks and logits are SB3's own, always valid).
    torch.distributions.Distribution.set_default_validate_args(False)
    config.out.mkdir(parents=True, exist_ok=True)
    probe = _view(config, config.train_split, config.train_style)
    splits = probe.env.aec.domain.data.splits
    missing = sorted({split for split, _ in config.grid if split not in splits})
    if missing and config.grid != EVAL_GRID:  # the default grid scores the splits there are
        raise ValueError(
            f"no split {', '.join(missing)} in the tasks (they have: {', '.join(splits)})"
        )
    train_ids = list(config.train_tasks or _task_ids(probe, config.task_filter))
    test_env = _view(config, config.test_split, config.test_style)
    test_ids = list(config.test_tasks or _task_ids(test_env, config.task_filter))

    def make_train_env() -> Monitor:
        return Monitor(_view(config, config.train_split, config.train_style, train_ids))

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

    def score_model() -> float:
        return evaluate(greedy_policy(model), test_env, test_ids).pass_hat(1)

    train_wall0, train_cpu0 = time.perf_counter(), time.process_time()
    curve = _Curve(config.eval_every, score_model, config.cpu_budget_s, train_cpu0)
    curve.record(score_model())
    model.learn(total_timesteps=config.timesteps, callback=curve)
    train_wall, train_cpu = time.perf_counter() - train_wall0, time.process_time() - train_cpu0
    final = score_model()
    if curve.points[-1]["steps"] < model.num_timesteps:
        curve.record(final)
    model.save(config.out / "model.zip")
    grid = {}
    for split, style in config.grid or ((config.test_split, config.test_style),):
        if split not in splits:
            continue
        env = _view(config, split, style)
        ids = test_ids if split == config.test_split and config.test_tasks else None
        grid[f"{split}/{style}"] = scores(
            evaluate(greedy_policy(model), env, ids or _task_ids(env, config.task_filter))
        )
    figure = plot_learning_curve(
        curve.points,
        config.out / "learning_curve.png",
        title=f"MaskablePPO on {config.domain}, seed {config.seed} ({config.train_split} -> "
        f"{config.test_split}, {config.test_style} users)",
    )
    summary: dict[str, Any] = {
        "command": config.command,
        "config": {**asdict(config), "out": str(config.out)},
        "train_tasks": len(train_ids),
        "test_tasks": len(test_ids),
        "timesteps": int(model.num_timesteps),
        "test_pass1": final,
        "grid": grid,
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
    (config.out / "summary.json").write_text(json_text(summary, indent=2) + "\n")
    venv.close()
    return summary


_NUMBERS = (
    "timesteps",
    "seed",
    "eval_every",
    "n_envs",
    "n_steps",
    "batch_size",
    "n_epochs",
    "learning_rate",
    "ent_coef",
)
"""`TrainConfig` fields set on the command line as ``--<name>`` (with dashes), with the
field's annotated type and default."""


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: parse arguments, train, print the headline figures."""
    parser = argparse.ArgumentParser(
        prog="python -m tau_env.baselines.sb3_train", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--domain", default=TrainConfig.domain, help="telecom, airline or retail")
    parser.add_argument(
        "--data-dir", default=None, help="a data folder with the domain's tasks (default: built-in)"
    )
    parser.add_argument("--train-split", default=TrainConfig.train_split, help="split trained on")
    parser.add_argument(
        "--test-split", default=TrainConfig.test_split, help="split of the learning curve"
    )
    parser.add_argument(
        "--eval-splits",
        type=lambda text: tuple(name.strip() for name in text.split(",") if name.strip()),
        default=None,
        metavar="A,B",
        help="splits scored at the end, with the --test-style users (default: every split and "
        "style of the built-in grid)",
    )
    parser.add_argument("--cpu-budget", type=float, default=TrainConfig.cpu_budget_s)
    parser.add_argument(
        "--task-filter", default="", help="keep tasks of this family, or whose id contains this"
    )
    parser.add_argument("--train-style", default=None, help="user style in training (persona)")
    parser.add_argument("--test-style", default=TrainConfig.test_style)
    types = get_type_hints(TrainConfig)
    for name in _NUMBERS:
        option = f"--{name.replace('_', '-')}"
        parser.add_argument(option, type=types[name], default=getattr(TrainConfig, name))
    parser.add_argument("--no-grid", action="store_true", help="score the curve's split only")
    args = parser.parse_args(argv)
    grid = EVAL_GRID if args.eval_splits is None else _grid(args.eval_splits, args.test_style)
    summary = train(
        TrainConfig(
            out=args.out,
            domain=args.domain,
            data_dir=args.data_dir,
            train_split=args.train_split,
            test_split=args.test_split,
            cpu_budget_s=args.cpu_budget,
            task_filter=args.task_filter,
            train_style=args.train_style,
            test_style=args.test_style,
            **{name: getattr(args, name) for name in _NUMBERS},
            grid=() if args.no_grid else grid,
        )
    )
    timing = summary["time"]
    cells = ", ".join(f"{k} {v['pass1']:.3f}" for k, v in summary["grid"].items())
    print(
        f"test pass^1 {summary['test_pass1']:.3f} after {summary['timesteps']} steps, "
        f"train CPU {timing['train_cpu_s']} s; grid: {cells}; written to {args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
