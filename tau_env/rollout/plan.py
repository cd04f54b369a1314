"""The episodes of a run: (task, trial) units with their seeds, trial-major."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from tau_env.rollout.config import RunConfig
from tau_env.rollout_seeds import episode_seed

__all__ = ["Unit", "pending_units", "plan_units"]


@dataclass(frozen=True)
class Unit:
    """One episode to play.

    Attributes:
        task_id: The task.
        trial: Trial index, from 0.
        seed: `episode_seed` of (base seed, task, trial): independent of order and machine.
    """

    task_id: str
    trial: int
    seed: int


def plan_units(config: RunConfig) -> list[Unit]:
    """Every episode of a run, trial-major: a partial run covers all tasks evenly."""
    return [
        Unit(task_id, trial, episode_seed(config.base_seed, task_id, trial))
        for trial in range(config.trials)
        for task_id in config.task_ids
    ]


def pending_units(config: RunConfig, completed: Collection[tuple[str, int]]) -> list[Unit]:
    """The episodes of a run that have no finished episode yet."""
    return [unit for unit in plan_units(config) if (unit.task_id, unit.trial) not in completed]
