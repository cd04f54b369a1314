"""The learning-curve figure: training reward and test pass^1 against environment steps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["CurvePoint", "plot_learning_curve"]

CurvePoint = Mapping[str, float]
"""One measurement: ``steps``, ``train_reward`` (may be NaN before any episode) and
``test_pass1``."""


def plot_learning_curve(
    points: Sequence[CurvePoint],
    path: Path,
    *,
    baselines: Mapping[str, float] | None = None,
    title: str = "MaskablePPO on telecom",
) -> Path:
    """Draw the curve to a PNG (matplotlib's Agg backend; no display needed).

    Args:
        points: Measurements in step order.
        path: Where to write the PNG.
        baselines: Horizontal reference lines (label -> test pass^1), e.g. the random agent.
        title: The figure's title.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [point["steps"] for point in points]
    figure, axis = plt.subplots(figsize=(7, 4), dpi=100)
    axis.plot(steps, [p["train_reward"] for p in points], marker=".", label="train reward (mean)")
    axis.plot(steps, [p["test_pass1"] for p in points], marker="o", label="test pass^1")
    for (label, value), style in zip((baselines or {}).items(), ("--", ":", "-."), strict=False):
        axis.axhline(value, linestyle=style, color="grey", label=f"{label} ({value:.2f})")
    axis.set_xlabel("environment steps (templates)")
    axis.set_ylabel("reward / pass^1")
    axis.set_ylim(-0.02, 1.02)
    axis.set_title(title)
    axis.grid(alpha=0.3)
    axis.legend(loc="lower right", fontsize="small")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)
    return path
