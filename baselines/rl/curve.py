"""Learning-curve figures: one run, or several seeds as a mean line with a band."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["CurvePoint", "plot_learning_curve", "plot_seed_band"]

CurvePoint = Mapping[str, float]
"""One measurement: ``steps``, ``cpu_s``, ``train_reward`` (may be NaN before any episode) and
``test_pass1``."""


def _figure() -> tuple[Any, Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7.5, 4.2), dpi=100)
    return plt, figure, axis


def _finish(plt: Any, figure: Any, axis: Any, path: Path, title: str, xlabel: str) -> Path:
    axis.set_xlabel(xlabel)
    axis.set_ylabel("pass^1")
    axis.set_ylim(-0.02, 1.02)
    axis.set_title(title, fontsize="medium")
    axis.grid(alpha=0.3)
    axis.legend(loc="lower right", fontsize="small")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)
    return path


def plot_learning_curve(
    points: Sequence[CurvePoint],
    path: Path,
    *,
    baselines: Mapping[str, float] | None = None,
    title: str = "MaskablePPO on telecom",
) -> Path:
    """Draw one run's curve to a PNG (matplotlib's Agg backend; no display needed).

    Args:
        points: Measurements in step order.
        path: Where to write the PNG.
        baselines: Horizontal reference lines (label -> test pass^1), e.g. the random agent.
        title: The figure's title.
    """
    plt, figure, axis = _figure()
    steps = [point["steps"] for point in points]
    axis.plot(steps, [p["train_reward"] for p in points], marker=".", label="train reward (mean)")
    axis.plot(steps, [p["test_pass1"] for p in points], marker="o", label="test pass^1")
    for (label, value), style in zip((baselines or {}).items(), ("--", ":", "-."), strict=False):
        axis.axhline(value, linestyle=style, color="grey", label=f"{label} ({value:.2f})")
    return _finish(plt, figure, axis, path, title, "environment steps (templates)")


def plot_seed_band(
    runs: Sequence[Sequence[CurvePoint]],
    path: Path,
    *,
    x: str = "cpu_s",
    baselines: Mapping[str, float] | None = None,
    title: str = "MaskablePPO on telecom",
) -> Path:
    """Draw several seeds: the mean test pass^1 against `x`, with a +/- one std band.

    Each run's curve is interpolated on a shared grid of `x` up to the shortest run's end.

    Args:
        runs: One curve per seed.
        path: Where to write the PNG.
        x: ``"cpu_s"`` (CPU-seconds of training) or ``"steps"``.
        baselines: Horizontal reference lines (label -> pass^1).
        title: The figure's title.
    """
    plt, figure, axis = _figure()
    end = min(run[-1][x] for run in runs)
    grid = np.linspace(0.0, end, 60)
    values = np.array(
        [np.interp(grid, [p[x] for p in run], [p["test_pass1"] for p in run]) for run in runs]
    )
    mean, std = values.mean(axis=0), values.std(axis=0)
    axis.plot(grid, mean, color="C0", label=f"test pass^1, mean of {len(runs)} seeds")
    axis.fill_between(grid, mean - std, mean + std, color="C0", alpha=0.25, label="+/- 1 std")
    for run in runs:
        axis.plot([p[x] for p in run], [p["test_pass1"] for p in run], color="C0", alpha=0.25)
    styles = ("--", ":", "-.", (0, (1, 4)))
    for (label, value), style in zip((baselines or {}).items(), styles, strict=False):
        axis.axhline(value, linestyle=style, color="grey", label=f"{label} ({value:.2f})")
    xlabel = "training CPU-seconds" if x == "cpu_s" else "environment steps (templates)"
    return _finish(plt, figure, axis, path, title, xlabel)
