"""What the RL benchmarks of every featurized view share (``rl_telecom.py``, ``rl_desk.py``).

A `ViewSetup` names a domain's featurized view, its splits, its manual policy and its trivial
heuristics; the functions below measure the view's speed, score any template policy on every
split and user style, score the baselines, train (or read) one MaskablePPO run per seed and
summarise the runs as mean +/- std over seeds, write the table and draw the learning curve.
CPU time (``time.process_time``) is the budget and the figure; wall time is reported beside.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
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


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """The options every view benchmark takes: seeds, budget, runs read back, baselines only."""
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--cpu-budget", type=float, default=600.0)
    parser.add_argument("--runs", type=Path, nargs="*", help="existing sb3_train output folders")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument(
        "--splits",
        nargs="+",
        help="score the baselines on these splits only (default: every split of the view; "
        "fewer save CPU on a shared machine, the table says 'not scored' for the others)",
    )
    parser.add_argument(
        "--baselines-only",
        action="store_true",
        help="measure the view's speed and score the baselines (and the probes, where the "
        "benchmark has them) into baselines.json, then stop (run it next to the trainings; the "
        "report reads that file when it exists)",
    )


def baselines_into(
    summary: dict[str, Any],
    setup: ViewSetup,
    out: Path,
    args: argparse.Namespace,
    score_more: Callable[[], Mapping[str, Any]] = dict,
) -> bool:
    """Put the baselines' figures into `summary`; False when the benchmark should stop here.

    `args` are the benchmark's options ``seeds``, ``skip_speed``, ``splits`` (the baselines'
    splits; None: the view's) and ``baselines_only``. A ``--baselines-only`` run (next to the
    trainings) scores the baselines, plus `score_more`, into ``out/baselines.json`` and stops;
    a later run reads that file, measuring the view's speed then if the file has none (the
    machine is quieter after the trainings). Without the file everything is scored now.
    Prints the view's speed.
    """
    skip_speed, baselines_only = args.skip_speed, args.baselines_only
    if getattr(args, "splits", None):
        setup = replace(setup, splits=tuple(s for s in setup.splits if s in args.splits))
    summary["machine"] = {"cpus": os.cpu_count(), "load": os.getloadavg()}
    cached = out / "baselines.json"
    if cached.exists() and not baselines_only:
        found = json.loads(cached.read_text())
        summary.update({key: value for key, value in found.items() if key != "machine"})
        if "speed" not in found and not skip_speed:
            summary["speed"] = {style: view_speed(setup, style) for style in STYLES}
            summary["machine"]["load_at_speed"] = os.getloadavg()
    else:
        summary.update(score_baselines(setup, args.seeds, speed=not skip_speed))
        summary.update(score_more())
        if baselines_only:
            cached.write_text(json.dumps(summary, indent=2) + "\n")
            return False
    for style, figures in summary.get("speed", {}).items():
        print(
            f"view speed ({style}): {figures['agent_steps_per_cpu_s']:,.0f} agent steps, "
            f"{figures['template_steps_per_cpu_s']:,.0f} template steps per CPU-s"
        )
    return True


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
