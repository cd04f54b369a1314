"""Datasets of tau_env tasks in the forms TRL's two routes read.

A GRPO dataset row is one task (the trainer repeats it ``num_generations`` times):

- `environment_dataset`: ``prompt`` is the chat before the customer speaks (the agent's
  system prompt, then an empty user message the environment's ``reset`` fills with the
  customer's opening), plus ``task_id`` and ``seed`` for ``reset``.
- `rollout_dataset`: only the ``prompt`` column reaches a ``rollout_func``, so the prompt is a
  key (`ROLLOUT_KEY` + task id) that the rollout function reads and never shows the model.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tau_env.chat import SystemPrompt, make_chat_env
from tau_env.utils.extras import require_extra

__all__ = ["environment_dataset", "rollout_dataset", "task_ids"]


def task_ids(
    domain: str,
    *,
    split: str | None = None,
    mode: str = "default",
    data_dir: str | Path | None = None,
) -> list[str]:
    """The ids of a split's tasks that can be played in `mode`."""
    from tau_env.loader import load_tasks
    from tau_env.rollout.modes import playable_in_mode

    tasks = load_tasks(domain, data_dir=data_dir, split=split)
    return [task.id for task in tasks if playable_in_mode(task, mode)]


def environment_dataset(
    domain: str,
    *,
    split: str | None = None,
    mode: str = "default",
    data_dir: str | Path | None = None,
    system_prompt: SystemPrompt | None = None,
    seed: int = 0,
    limit: int | None = None,
    only: Sequence[str] | None = None,
) -> Any:
    """A `datasets.Dataset` for `tau_env.integrations.trl.environment_factory`.

    The system prompt is the agent's (per task: No-User instructions carry the ticket).

    Args:
        domain: Domain name or versioned id.
        split: Task split (None: the default split).
        mode: Evaluation mode.
        data_dir: A reference data folder (None: built-in data).
        system_prompt: Instructions -> system message (default: tau_env's LLM agent prompt);
            pass the same to `environment_factory`.
        seed: Episode seed of every row.
        limit: Keep only the first `limit` tasks.
        only: Keep only these task ids (in the split's order).
    """
    require_extra("trl", "datasets", feature="tau_env.integrations.trl")
    from datasets import Dataset

    chat = make_chat_env(
        domain,
        user=_no_user,
        mode=mode,
        split=split,
        data_dir=data_dir,
        system_prompt=system_prompt,
    )
    rows = []
    for task_id in _chosen(
        task_ids(domain, split=split, mode=mode, data_dir=data_dir), only, limit
    ):
        system = _system_message(chat, task_id, seed)
        rows.append(
            {
                "prompt": [system, {"role": "user", "content": ""}],
                "task_id": task_id,
                "seed": seed,
            }
        )
    return Dataset.from_list(rows)


def rollout_dataset(
    domain: str,
    *,
    split: str | None = None,
    mode: str = "default",
    data_dir: str | Path | None = None,
    limit: int | None = None,
    only: Sequence[str] | None = None,
) -> Any:
    """A `datasets.Dataset` for `tau_env.integrations.trl.make_rollout_func` (keys as prompts).

    `split`, `mode`, `data_dir`, `limit` and `only` choose the tasks as in `environment_dataset`.
    """
    require_extra("trl", "datasets", feature="tau_env.integrations.trl")
    from datasets import Dataset

    from tau_env.integrations.trl.rollout import ROLLOUT_KEY

    ids = _chosen(task_ids(domain, split=split, mode=mode, data_dir=data_dir), only, limit)
    return Dataset.from_list(
        [{"prompt": [{"role": "user", "content": ROLLOUT_KEY + i}], "task_id": i} for i in ids]
    )


def _chosen(ids: list[str], only: Sequence[str] | None, limit: int | None) -> list[str]:
    if only is not None:
        wanted = set(only)
        unknown = wanted - set(ids)
        if unknown:
            raise ValueError(
                f"tasks not in the split (or not playable in the mode): {sorted(unknown)}"
            )
        ids = [i for i in ids if i in wanted]
    return ids[:limit]


def _system_message(chat: Any, task_id: str, seed: int) -> dict[str, str]:
    messages = chat.reset(task_id=task_id, seed=seed).messages
    return {"role": "system", "content": messages[0]["content"]}


class _Silent:
    """A user that never speaks: building prompts needs only the agent's instructions."""

    def __init__(self, task: Any) -> None:
        self.task = task

    def act(self, view: Any, context: Any) -> Any:
        from tau_env.actions import Stop

        return Stop()


def _no_user(task: Any) -> _Silent:
    return _Silent(task)
