"""What the RL benchmarks of every featurized view share (``rl_telecom.py``, ``rl_desk.py``).

A `ViewSetup` names a domain's featurized view, its splits, its manual policy and its trivial
heuristics; the functions below measure the view's speed, score any template policy on every
split and user style, score the baselines, train (or read) one MaskablePPO run per seed and
summarise the runs as mean +/- std over seeds, write the table and draw the learning curve.
CPU time (``time.process_time``) is the budget and the figure; wall time is reported beside.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tau_env.baselines.rl.evaluate import TemplatePolicy, evaluate, random_policy
from tau_env.wrappers.rl import FeaturizedEnv, make_featurized_env

STYLES = ("structured", "plain", "paraphrase", "novice")
"""The scripted user's styles every policy is scored with."""

PolicyFor = Callable[[FeaturizedEnv], TemplatePolicy]
"""Builds a template policy for a view (policies read the view's feature and template names)."""


@dataclass(frozen=True)
class ViewSetup:
    """One domain's featurized view as the benchmark plays it.

    Attributes:
        domain: The built-in domain.
        splits: Its splits, in report order (``train`` first, then the held-out ones).
        manual: Builds the hand-written policy (reads features and masks only, no gold plan).
        trivial: Name -> builds a trivial heuristic (what the benchmark must not reward).
    """

    domain: str
    splits: tuple[str, ...]
    manual: PolicyFor
    trivial: Mapping[str, PolicyFor]

    def view(self, split: str | None, style: str | None, user_seed: int = 0) -> FeaturizedEnv:
        """The domain's featurized view on a split with users in a style."""
        return make_featurized_env(self.domain, split=split, style=style, user_seed=user_seed)

    @property
    def cells(self) -> list[str]:
        """Every ``split/style`` cell, in report order."""
        return [f"{split}/{style}" for split in self.splits for style in STYLES]


def task_ids(env: FeaturizedEnv) -> list[str]:
    """Every task id of a view's split."""
    return [task.id for task in env.env.aec.tasks]


def view_speed(setup: ViewSetup, style: str) -> dict[str, float]:
    """Agent steps and template steps per CPU-second of the manual policy over every task."""
    env = setup.view("base", style)
    ids = task_ids(env)
    policy = setup.manual(env)
    # One pass first: each scenario text is read once per process (cached), as in a training,
    # which plays every task many times; the measured pass is the steady state.
    evaluate(policy, env, ids)
    moves, start = env.agent_steps, time.process_time()
    evaluation = evaluate(policy, env, ids)
    elapsed = time.process_time() - start
    return {
        "agent_steps_per_cpu_s": (env.agent_steps - moves) / elapsed,
        "template_steps_per_cpu_s": evaluation.turns * len(ids) / elapsed,
        "cpu_s": elapsed,
        "episodes": len(ids),
        "manual_pass1": evaluation.pass_hat(1),
    }


def score_grid(setup: ViewSetup, policy_for: PolicyFor) -> dict[str, float]:
    """pass^1 of a policy on every split and style (``policy_for(env)`` builds it)."""
    cells = {}
    for split in setup.splits:
        for style in STYLES:
            env = setup.view(split, style)
            cells[f"{split}/{style}"] = evaluate(policy_for(env), env, task_ids(env)).pass_hat(1)
    return cells


def mean_std(values: Sequence[float]) -> dict[str, float]:
    """Mean and (population) standard deviation."""
    return {
        "mean": statistics.fmean(values),
        "std": statistics.pstdev(values) if len(values) > 1 else 0.0,
        "n": len(values),
    }


def score_baselines(setup: ViewSetup, seeds: Sequence[int], speed: bool = True) -> dict[str, Any]:
    """The view's speed per style and every baseline's grid (nothing here depends on training)."""
    found: dict[str, Any] = {}
    if speed:
        found["speed"] = {style: view_speed(setup, style) for style in STYLES}
    randoms = [score_grid(setup, lambda env, s=seed: random_policy(s)) for seed in seeds]
    found["random"] = {cell: mean_std([r[cell] for r in randoms]) for cell in randoms[0]}
    found["manual"] = score_grid(setup, setup.manual)
    found["trivial"] = {name: score_grid(setup, build) for name, build in setup.trivial.items()}
    return found


def train_seeds(setup: ViewSetup, seeds: Sequence[int], cpu_budget: float, out: Path) -> list[Path]:
    """One MaskablePPO training per seed, one after another, into ``out/seed_<S>``."""
    from tau_env.baselines.sb3_train import TrainConfig, train

    runs = []
    for seed in seeds:
        run = out / f"seed_{seed}"
        train(TrainConfig(out=run, domain=setup.domain, seed=seed, cpu_budget_s=cpu_budget))
        runs.append(run)
    return runs


def summarise_runs(trained: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The trained policies' cells (mean +/- std over seeds) and each run's figures."""
    # Runs scored on part of the grid only (benchmarks/rl_telecom_cells.py) leave cells out.
    cells = sorted(set.intersection(*(set(run["grid"]) for run in trained)))
    return {
        "trained": {
            cell: mean_std([run["grid"][cell]["pass1"] for run in trained]) for cell in cells
        },
        "trained_runs": [
            {
                "seed": run["config"]["seed"],
                "timesteps": run["timesteps"],
                "train_cpu_s": run["time"]["train_cpu_s"],
                "train_wall_s": run["time"]["train_wall_s"],
                "test_pass1": run["test_pass1"],
                "command": run["command"],
            }
            for run in trained
        ],
    }


def table(
    summary: Mapping[str, Any],
    cells: Sequence[str],
    extra_rows: Sequence[tuple[str, Mapping[str, Any]]] = (),
) -> str:
    """The figures as a markdown table: one row per policy, one column per split and style.

    Rows: the trained policy, random, each trivial heuristic, the manual policy, then
    `extra_rows` (name, cell -> value).
    """
    lines = [
        "| policy | " + " | ".join(cells) + " |",
        "|---" * (len(cells) + 1) + "|",
    ]

    def row(name: str, values: Mapping[str, Any]) -> str:
        shown = []
        for cell in cells:
            value = values.get(cell)
            if value is None:
                shown.append("not scored")
            elif isinstance(value, dict):
                shown.append(f"{value['mean']:.3f} ± {value['std']:.3f}")
            else:
                shown.append(f"{value:.3f}")
        return f"| {name} | " + " | ".join(shown) + " |"

    lines.append(
        row(f"MaskablePPO (mean ± std, {len(summary['trained_runs'])} seeds)", summary["trained"])
    )
    lines.append(row("random (mean ± std over seeds)", summary["random"]))
    for name, values in summary["trivial"].items():
        lines.append(row(name, values))
    lines.append(row("manual policy", summary["manual"]))
    lines.extend(row(name, values) for name, values in extra_rows)
    return "\n".join(lines)
