"""Episode seeds of training rollouts: one per GRPO group, or one per rollout.

The seed rule of `tau-env run` carried over to training: an episode's seed is
`tau_env.rollout_seeds.episode_seed` of (base seed, task, k), where ``k`` counts how often the
task was played before (a run's trial index; here the task's group or rollout number in this
process). The episode seed decides the user's choices (`tau_env.participant`), so:

- ``"shared"`` (default): every rollout of a GRPO group plays the same task with the same seed,
  so the group's rewards differ only by the policy's choices; the next group of the task gets
  the next seed, so the user varies over training.
- ``"distinct"``: every rollout gets its own seed (the user varies within a group too).
- ``"fixed"``: the row's seed as it is, every time.

TRL hands a row's ``num_generations`` copies one after the other, so a group is a run of
consecutive rollouts of the same task and base seed, cut every `group_size` rollouts when that
is known. The seeds depend only on the order rollouts are asked for, which TRL's sampler fixes
with its own seed: a run replays with the same seeds.
"""

from __future__ import annotations

from typing import Literal, get_args

from tau_env.rollout_seeds import episode_seed

__all__ = ["GROUP_SEEDS", "GroupSeeds", "SeedSchedule"]

GroupSeeds = Literal["shared", "distinct", "fixed"]
GROUP_SEEDS: tuple[str, ...] = get_args(GroupSeeds)


class SeedSchedule:
    """Hands out the episode seed of each rollout, in the order rollouts start.

    Args:
        group_seeds: ``"shared"``, ``"distinct"`` or ``"fixed"`` (see the module docstring).
        group_size: Rollouts per group (GRPO's ``num_generations``), when known; None: a
            group is every consecutive rollout of the same task and base seed.

    Raises:
        ValueError: Unknown `group_seeds` or a `group_size` below 1.
    """

    def __init__(self, group_seeds: str = "shared", group_size: int | None = None) -> None:
        if group_seeds not in GROUP_SEEDS:
            raise ValueError(f"group_seeds must be one of {list(GROUP_SEEDS)}: {group_seeds!r}")
        if group_size is not None and group_size < 1:
            raise ValueError(f"group_size must be >= 1, actually: {group_size}")
        self.group_seeds = group_seeds
        self.group_size = group_size
        self._played: dict[tuple[int, str], int] = {}  # (base, task) -> groups or rollouts begun
        self._group: tuple[int, str] | None = None  # the group in progress
        self._in_group = 0  # its rollouts so far
        self._seed = 0  # its seed

    def next(self, task_id: str | None, base: int | None) -> int:
        """The episode seed of the next rollout of `task_id` from a row with seed `base`.

        Args:
            task_id: The row's task (None: the env draws it; the seed is derived all the same).
            base: The row's seed (None: 0).
        """
        key = (0 if base is None else int(base), task_id or "")
        if self.group_seeds == "fixed":
            return key[0]
        if self.group_seeds == "distinct":
            return self._derive(key)
        full = self.group_size is not None and self._in_group >= self.group_size
        if key != self._group or full:
            self._group, self._in_group = key, 0
            self._seed = self._derive(key)
        self._in_group += 1
        return self._seed

    def _derive(self, key: tuple[int, str]) -> int:
        count = self._played.get(key, 0)
        self._played[key] = count + 1
        return episode_seed(key[0], key[1], count)
