"""Episode seeds of training rollouts: one per GRPO group, or one per rollout.

The seed rule of `tau-env run` carried over to training: an episode's seed is
`tau_env.rollout_seeds.episode_seed` of (base seed, task, k), where ``k`` counts how often the
task was played before (a run's trial index; here the task's group or rollout number). The
episode seed decides the user's choices (`tau_env.participant`), so:

- ``"shared"`` (default): every rollout of a GRPO group plays the same task with the same seed,
  so the group's rewards differ only by the policy's choices; the next group of the task gets
  the next seed, so the user varies over training.
- ``"distinct"``: every rollout gets its own seed (the user varies within a group too).
- ``"fixed"``: the row's seed as it is, every time.

TRL hands a row's ``num_generations`` copies one after the other, so a group is a run of
consecutive rollouts of the same task and base seed, cut every `group_size` rollouts when that
is known. The seeds depend only on the order rollouts are asked for, which TRL's sampler fixes
with its own seed: a run replays with the same seeds.

With several processes (``accelerate launch``, one rank per GPU) each process plays its own
slice of every batch, and the counts are made rank-aware so that no seed is handed out twice:

- `SeedSchedule.batch` (the ``rollout_func`` route, which sees each process's whole batch)
  gathers the batch's tasks from every process and plays the schedule over the whole batch,
  keeping its own slice: the seeds are those one process would give the same batch, and a
  GRPO group split over two processes shares its seed.
- `SeedSchedule.next` (the ``environment_factory`` route, one rollout at a time, no batch to
  gather) numbers this process's groups and rollouts ``count * world + rank``: distinct over
  processes, one seed per group as long as a group stays on one process, which holds when the
  per-process batch (``per_device_train_batch_size * steps_per_generation``) is a multiple of
  ``num_generations``. A group seen cut short (fewer than `group_size` rollouts here, the rest
  on another process, with another seed) is warned about once.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Literal, get_args

from tau_env.rollout_seeds import episode_seed

__all__ = [
    "GROUP_SEEDS",
    "GroupSeeds",
    "SeedSchedule",
    "current_process",
    "gather_tasks",
    "process_of",
]

GroupSeeds = Literal["shared", "distinct", "fixed"]
GROUP_SEEDS: tuple[str, ...] = get_args(GroupSeeds)

Key = tuple[int, str]
"""(base seed, task id or "") of a rollout."""


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
        self._played: dict[Key, int] = {}  # (base, task) -> groups or rollouts begun
        self._group: Key | None = None  # the group in progress
        self._in_group = 0  # its rollouts so far
        self._seed = 0  # its seed
        self._warned = False

    def next(self, task_id: str | None, base: int | None) -> int:
        """The episode seed of this process's next rollout of `task_id`, from a row seeded `base`.

        Rank-aware numbering (see the module docstring), the rank and world size read from
        accelerate (`current_process`).

        Args:
            task_id: The row's task (None: the env draws it; the seed is derived all the same).
            base: The row's seed (None: 0).
        """
        return self._next(_key(task_id, base), *current_process())

    def batch(
        self,
        task_ids: Sequence[str | None],
        base: int | None,
        *,
        rank: int = 0,
        world: int = 1,
    ) -> list[int]:
        """The episode seeds of one process's batch, as one process would give the whole batch.

        Args:
            task_ids: This process's rollouts, in order (TRL's repeated prompts).
            base: The seed of every rollout's row (None: 0).
            rank: This process's index.
            world: How many processes play this batch, each its own slice: with more than one,
                every process must call this at once (`gather_tasks` is collective).
        """
        mine = list(task_ids)
        batches = [mine] if world == 1 else gather_tasks(mine)
        seeds = [[self._next(_key(t, base), 0, 1) for t in batch] for batch in batches]
        return seeds[rank]

    def _next(self, key: Key, rank: int, world: int) -> int:
        if self.group_seeds == "fixed":
            return key[0]
        if self.group_seeds == "distinct":
            return self._derive(key, rank, world)
        full = self.group_size is not None and self._in_group >= self.group_size
        if key != self._group or full:
            self._check_whole()
            self._group, self._in_group = key, 0
            self._seed = self._derive(key, rank, world)
        self._in_group += 1
        return self._seed

    def _derive(self, key: Key, rank: int, world: int) -> int:
        count = self._played.get(key, 0)
        self._played[key] = count + 1
        return episode_seed(key[0], key[1], count * world + rank)

    def _check_whole(self) -> None:
        """Warn (once) when the group that ends had fewer rollouts here than a group has."""
        size, ended = self.group_size, self._group
        if size is None or ended is None or self._in_group % size == 0 or self._warned:
            return
        self._warned = True
        warnings.warn(
            f"tau_env: a GRPO group of task {ended[1]!r} had {self._in_group} of its {size} "
            "rollouts in this process: its others ran in another process, with another seed. "
            "Make per_device_train_batch_size * steps_per_generation a multiple of "
            "num_generations, or use make_rollout_func (it seeds whole batches)",
            stacklevel=4,
        )


def current_process() -> tuple[int, int]:
    """(rank, world size) of this training process, from accelerate; (0, 1) outside one.

    Read only once the trainer's `Accelerator` has set up the processes (before that, or
    without accelerate, this is one process).
    """
    try:
        from accelerate.state import PartialState, is_initialized
    except ImportError:
        return 0, 1
    if not is_initialized():
        return 0, 1
    state = PartialState()
    return int(state.process_index), int(state.num_processes)


def gather_tasks(task_ids: list[str | None]) -> list[list[str | None]]:
    """Every process's `task_ids`, in rank order (accelerate's ``gather_object``; collective)."""
    from accelerate.utils import gather_object

    gathered: list[list[str | None]] = gather_object([task_ids])
    return gathered


def process_of(trainer: Any) -> tuple[int, int]:
    """(rank, world size) of a trainer's process (its accelerator's; (0, 1) without one)."""
    accelerator = getattr(trainer, "accelerator", None)
    rank = getattr(accelerator, "process_index", 0)
    world = getattr(accelerator, "num_processes", 1)
    return (rank, world) if isinstance(rank, int) and isinstance(world, int) else (0, 1)


def _key(task_id: str | None, base: int | None) -> Key:
    return (0 if base is None else int(base), task_id or "")
