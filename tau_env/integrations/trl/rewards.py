"""Per-check GRPO reward functions, for ``reward="breakdown"`` training.

`component_rewards` gives one reward function per grading check; each returns, per rollout, the
fraction of that check's items met (`tau_env.grading.reward.reward_breakdown`), or None where
the task's reward basis has no such check (TRL leaves a None out of that rollout's weighted
sum; a rollout whose NL judge failed to rule gets None from every check). Weigh them with
``GRPOConfig(reward_weights=...)``. Both routes are read: an
``environment_factory`` rollout through its environment, a ``rollout_func`` one through the
``tau_breakdown`` column the rollout function returns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["CHECKS", "component_rewards"]

CHECKS: tuple[str, ...] = ("DB", "ENV_ASSERTION", "ACTION", "COMMUNICATE", "NL_ASSERTION")
"""The grading checks a task's reward basis may name."""

RewardFunction = Callable[..., list[float | None]]


def component_rewards(checks: Sequence[str] = CHECKS) -> list[RewardFunction]:
    """One reward function per check, named ``tau_<check>`` (as TRL logs it).

    Raises:
        ValueError: An unknown check name.
    """
    unknown = [name for name in checks if name not in CHECKS]
    if unknown:
        raise ValueError(f"unknown checks {unknown}; use names of {list(CHECKS)}")
    return [_reward_of(name) for name in checks]


def _reward_of(check: str) -> RewardFunction:
    def reward(
        completions: Sequence[Any],
        environments: Sequence[Any] | None = None,
        tau_breakdown: Sequence[dict[str, float | None]] | None = None,
        **_: Any,
    ) -> list[float | None]:
        if tau_breakdown is None:
            if environments is None:
                raise ValueError("no tau_env rollouts: use environment_factory or rollout_func")
            tau_breakdown = [_ended(environment) for environment in environments]
        return [breakdown.get(check) for breakdown in tau_breakdown]

    reward.__name__ = reward.__qualname__ = f"tau_{check.lower()}"
    return reward


def _ended(environment: Any) -> dict[str, float | None]:
    """The breakdown of an environment's episode, ended first (as `get_reward` ends it).

    Empty when its NL judge failed to rule: the rollout is left unscored by every check.
    """
    if environment.get_reward() is None:
        return {}
    breakdown: dict[str, float | None] = environment.chat.reward_breakdown
    return breakdown
