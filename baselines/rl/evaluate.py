"""Play a template policy on a list of tasks and score it (pass^k, mean reward, per intent).

A template policy maps the featurized observation and the action mask to a template index.
`random_policy` is the random template agent (uniform over the applicable templates);
`predictor_policy` adapts any object with SB3's masked ``predict`` (MaskablePPO), so this module
needs no torch.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tau_env.metrics import pass_hat_k
from tau_env.wrappers.rl.featurized import FeaturizedEnv

__all__ = [
    "Evaluation",
    "TemplatePolicy",
    "evaluate",
    "intent_of",
    "predictor_policy",
    "random_policy",
]

TemplatePolicy = Callable[[NDArray[np.float32], NDArray[np.bool_]], int]
"""(features, action mask) -> template index."""


@dataclass(frozen=True)
class Evaluation:
    """Rewards of a policy on a set of tasks.

    Attributes:
        rewards: Task id -> the reward of each trial.
        turns: Mean number of templates per episode.
        intents: Task id -> its intent (`intent_of`), for `by_intent`.
    """

    rewards: Mapping[str, Sequence[float]]
    turns: float
    intents: Mapping[str, str] = field(default_factory=dict)

    def pass_hat(self, k: int = 1) -> float:
        """pass^k over the tasks (pass^1: success rate per task, averaged)."""
        return pass_hat_k(self.rewards, k)

    @property
    def mean_reward(self) -> float:
        """Mean reward over every trial."""
        return float(np.mean([r for rewards in self.rewards.values() for r in rewards]))

    def by_intent(self) -> dict[str, float]:
        """pass^1 per intent (`intents`; for a task not in it, the bracketed prefix of its id)."""
        groups: dict[str, dict[str, Sequence[float]]] = {}
        for task_id, rewards in self.rewards.items():
            intent = self.intents.get(task_id) or _bracketed(task_id)
            groups.setdefault(intent, {})[task_id] = rewards
        return {intent: pass_hat_k(group, 1) for intent, group in sorted(groups.items())}


def intent_of(task: Any) -> str:
    """A task's intent, for grouping results.

    Its family (built-in tasks: ``service_issue``), else the bracketed prefix of its id
    (official telecom ids: ``[service_issue]...``), else ``other``.
    """
    return str(task.family or _bracketed(task.id))


def _bracketed(task_id: str) -> str:
    return task_id[1 : task_id.index("]")] if task_id.startswith("[") else "other"


def random_policy(seed: int) -> TemplatePolicy:
    """The random template agent: a uniform choice among the applicable templates."""
    rng = np.random.default_rng(seed)

    def act(features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return act


def predictor_policy(model: Any, *, deterministic: bool = True) -> TemplatePolicy:
    """A policy from an object with SB3's masked ``predict`` (e.g. MaskablePPO)."""

    def act(features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        action, _ = model.predict(features, action_masks=mask, deterministic=deterministic)
        return int(action)

    return act


def evaluate(
    policy: TemplatePolicy,
    env: FeaturizedEnv,
    task_ids: Sequence[str],
    *,
    trials: int = 1,
    seed: int = 0,
) -> Evaluation:
    """Play every task `trials` times and collect the final rewards.

    Args:
        policy: The template policy.
        env: A featurized view whose tasks include `task_ids`.
        task_ids: The tasks to play.
        trials: Trials per task (the scripted user is deterministic, so a deterministic
            policy gives the same reward every trial).
        seed: Trial ``t`` resets with seed ``seed + t``.
    """
    if trials < 1:
        raise ValueError(f"trials must be >= 1, actually: {trials}")
    if not task_ids:
        raise ValueError("task_ids is empty: nothing to evaluate")
    rewards: dict[str, list[float]] = {}
    intents: dict[str, str] = {}
    turns: list[int] = []
    for task_id in task_ids:
        for trial in range(trials):
            features, _ = env.reset(seed=seed + trial, options={"task_id": task_id})
            intents[task_id] = intent_of(env.task)
            reward, done = 0.0, False
            while not done:
                action = policy(features, env.action_masks())
                features, step_reward, terminated, truncated, _ = env.step(action)
                reward, done = float(step_reward), terminated or truncated
            rewards.setdefault(task_id, []).append(reward)
            turns.append(env.turn)
    return Evaluation(rewards=rewards, turns=float(np.mean(turns)), intents=intents)
