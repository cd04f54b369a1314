"""pass^k: the chance that k independent trials of a task all succeed (spec §7).

For a task with n trials of which c succeeded, the unbiased estimate is C(c, k) / C(n, k);
the reported value is the unweighted mean over tasks. It is defined only when every task has
the same number of trials: anything else is an error, never a silent average. The one
deliberate exception is `pass_hat_k_excluding`, for runs whose reports name the episodes they
leave out (episodes no judge has graded yet): each task then counts its own trials, as the
reference does when it excludes infrastructure errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import comb

from tau_env.errors import TauEnvError

__all__ = [
    "CoverageError",
    "is_success",
    "pass_hat_k",
    "pass_hat_k_curve",
    "pass_hat_k_excluding",
    "task_pass_hat_k",
]


class CoverageError(TauEnvError, ValueError):
    """Tasks have different numbers of trials, so pass^k is not defined."""


def is_success(reward: float) -> bool:
    """The reference's success rule: reward within 1e-6 of 1."""
    return abs(reward - 1.0) <= 1e-6


def task_pass_hat_k(trials: int, successes: int, k: int) -> float:
    """C(successes, k) / C(trials, k) for one task.

    Raises:
        ValueError: k is not in [1, trials] or successes is not in [0, trials].
    """
    if not 1 <= k <= trials:
        raise ValueError(f"k must be in [1, {trials}], actually: {k}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be in [0, {trials}], actually: {successes}")
    return comb(successes, k) / comb(trials, k)


def _check_coverage(results: Mapping[str, Sequence[float]]) -> int:
    if not results:
        raise CoverageError("no results: pass^k needs at least one task")
    counts = {task: len(rewards) for task, rewards in results.items()}
    distinct = sorted(set(counts.values()))
    if len(distinct) > 1:
        fewest = min(counts, key=lambda task: counts[task])
        raise CoverageError(
            f"tasks have unequal trial counts {distinct} (e.g. {fewest!r} has {counts[fewest]}); "
            "resume the run so every task has the same number of trials"
        )
    if distinct[0] == 0:
        raise CoverageError("tasks have no trials")
    return distinct[0]


def pass_hat_k(results: Mapping[str, Sequence[float]], k: int) -> float:
    """Mean over tasks of the pass^k estimate.

    Args:
        results: task id -> the rewards of its trials.
        k: Number of trials that must all succeed.

    Raises:
        CoverageError: Tasks have different trial counts (or there are none).
        ValueError: k exceeds the trial count.
    """
    trials = _check_coverage(results)
    scores = [
        task_pass_hat_k(trials, sum(is_success(r) for r in rewards), k)
        for rewards in results.values()
    ]
    return sum(scores) / len(scores)


def pass_hat_k_curve(results: Mapping[str, Sequence[float]]) -> dict[int, float]:
    """pass^k for every k from 1 to the trial count."""
    trials = _check_coverage(results)
    return {k: pass_hat_k(results, k) for k in range(1, trials + 1)}


def pass_hat_k_excluding(results: Mapping[str, Sequence[float | None]]) -> dict[int, float]:
    """pass^k over the rewards that exist, leaving out the None ones (episodes not judged).

    Each task's estimate uses its own count of rewards; k runs up to the smallest such count;
    a task with no reward at all is left out of the mean. Callers must report how many
    episodes were left out: the figure describes only the episodes that were graded.

    Returns:
        k -> pass^k (empty when no task has a reward).
    """
    kept = {
        task: [reward for reward in rewards if reward is not None]
        for task, rewards in results.items()
    }
    kept = {task: rewards for task, rewards in kept.items() if rewards}
    if not kept:
        return {}
    fewest = min(len(rewards) for rewards in kept.values())
    curve = {}
    for k in range(1, fewest + 1):
        scores = [
            task_pass_hat_k(len(rewards), sum(is_success(r) for r in rewards), k)
            for rewards in kept.values()
        ]
        curve[k] = sum(scores) / len(scores)
    return curve
