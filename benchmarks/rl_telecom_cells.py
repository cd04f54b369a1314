"""Score a saved MaskablePPO telecom model on grid cells, as separate processes, and assemble.

For a shared, loaded machine: ``sb3_train`` scores its grid after training in the same
process, one cell after another. When CPU time is scarce, the training can be stopped once it
has saved ``model.zip`` (its progress lines, the curve points, are in its log), the cells scored
by several processes of this script, and the run's ``summary.json`` assembled from the pieces
(same keys as ``sb3_train`` writes; ``benchmarks/rl_telecom.py --runs`` reads it).

Usage::

    python benchmarks/rl_telecom_cells.py score --run DIR --seed S --cells test/plain train/novice
    python benchmarks/rl_telecom_cells.py assemble --run DIR --seed S --log LOG --cpu-budget 600

Training CPU-seconds are the last curve point's (it includes the final test scoring).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from sb3_contrib import MaskablePPO

from tau_env.baselines.rl.curve import plot_learning_curve
from tau_env.baselines.rl.evaluate import evaluate, predictor_policy
from tau_env.baselines.sb3_train import EVAL_GRID, TrainConfig, _task_ids, _view, scores


def score(run: Path, seed: int, cells: list[str]) -> None:
    """Score ``run``/model.zip on each ``split/style`` cell into ``cell_<split>_<style>.json``."""
    config = TrainConfig(out=run, seed=seed)
    model = MaskablePPO.load(run / "model.zip", device="cpu")
    for cell in cells:
        split, style = cell.split("/")
        env = _view(config, split, style)
        figures = scores(evaluate(predictor_policy(model), env, _task_ids(env, "")))
        (run / f"cell_{split}_{style}.json").write_text(json.dumps(figures) + "\n")
        print(cell, figures["pass1"], flush=True)


def assemble(run: Path, seed: int, log: Path, cpu_budget: float) -> dict[str, Any]:
    """Write ``summary.json`` of ``run`` from its log's curve points and the scored cells."""
    config = TrainConfig(out=run, seed=seed, cpu_budget_s=cpu_budget)
    points = []
    for line in log.read_text().splitlines():
        if line.startswith("{"):
            point = json.loads(line)
            point["train_reward"] = (
                None if math.isnan(point["train_reward"]) else point["train_reward"]
            )
            points.append(point)
    # The last curve point is the greedy policy on every test task with paraphrasing users,
    # seeded as the grid's cell: the test/paraphrase cell itself.
    grid: dict[str, Any] = {"test/paraphrase": {"pass1": points[-1]["test_pass1"]}}
    for split, style in EVAL_GRID:
        cell = run / f"cell_{split}_{style}.json"
        if cell.exists():
            grid[f"{split}/{style}"] = json.loads(cell.read_text())
    plot_learning_curve(
        [{**p, "train_reward": p["train_reward"] or float("nan")} for p in points],
        run / "learning_curve.png",
        title=f"MaskablePPO on telecom, seed {seed} (train -> test, paraphrase users)",
    )
    summary = {
        "command": config.command + "  # grid scored by benchmarks/rl_telecom_cells.py",
        "config": {**{k: v for k, v in vars(config).items()}, "out": str(run)},
        "timesteps": int(points[-1]["steps"]),
        "test_pass1": points[-1]["test_pass1"],
        "grid": grid,
        "time": {"train_cpu_s": points[-1]["cpu_s"], "train_wall_s": None},
        "curve": points,
    }
    (run / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("score", "assemble"))
    parser.add_argument("--run", type=Path, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--cells", nargs="*", default=[])
    parser.add_argument("--log", type=Path)
    parser.add_argument("--cpu-budget", type=float, default=600.0)
    args = parser.parse_args()
    if args.action == "score":
        score(args.run, args.seed, args.cells)
    else:
        assemble(args.run, args.seed, args.log, args.cpu_budget)


if __name__ == "__main__":
    main()
