"""Datasets of tau_env tasks in the forms TRL's two routes read.

A GRPO dataset row is one task (the trainer repeats it ``num_generations`` times):

- `environment_dataset`: ``prompt`` is the chat before the customer speaks: the system prompt
  (`message_tool_prompt`: tau_env's agent prompt, saying that talking to the customer is the
  ``send_message_to_customer`` tool), the agent's greeting as the assistant's first turn (and
  any task history), then an empty user message the environment's ``reset`` fills with the
  customer's opening; plus ``task_key`` and ``seed`` for ``reset`` (the base each rollout's
  episode seed derives from, see `tau_env.integrations.trl.seeds`).
- `rollout_dataset`: only the ``prompt`` column reaches a ``rollout_func``, so the prompt is a
  key (`ROLLOUT_KEY` + task key) that the rollout function reads and never shows the model.

No row names its task: ``task_key`` is an opaque key (`tau_env.integrations.trl.keys`, issue
53), which the environment and the rollout function map back in the process that made it.
`tau_env.integrations.trl.task_key` gives the key of a task id, for reading rows.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tau_env.chat import SystemPrompt, make_chat_env
from tau_env.integrations.trl.keys import task_key
from tau_env.utils.extras import require_extra

__all__ = ["environment_dataset", "rollout_dataset", "task_ids"]


def task_ids(
    domain: str,
    *,
    split: str | None = None,
    mode: str = "default",
    data_dir: str | Path | None = None,
    judged: bool = False,
) -> list[str]:
    """The ids of a split's tasks that can be played in `mode`.

    Tasks scored by NL assertions are kept only when `judged` (the training env gets a
    ``judge=``); otherwise they are left out, with a warning saying how many.
    """
    from tau_env.grading.reward import needs_nl_judge
    from tau_env.loader import load_tasks
    from tau_env.rollout.modes import playable_in_mode

    tasks = [
        t for t in load_tasks(domain, data_dir=data_dir, split=split) if playable_in_mode(t, mode)
    ]
    if not judged:
        kept = [task for task in tasks if not needs_nl_judge(task)]
        if len(kept) < len(tasks):
            warnings.warn(
                f"tau_env: {len(tasks) - len(kept)} of {len(tasks)} {domain} tasks need an NL "
                "judge and are left out of the dataset (pass judged=True and judge=... to the "
                "environment to train on them)",
                stacklevel=3,
            )
        tasks = kept
    return [task.id for task in tasks]


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
    judged: bool = False,
) -> Any:
    """A `datasets.Dataset` for `tau_env.integrations.trl.environment_factory`.

    The system prompt is the agent's (per task: No-User instructions carry the ticket).

    Args:
        domain: Domain name or versioned id.
        split: Task split (None: the default split).
        mode: Evaluation mode.
        data_dir: A reference data folder (None: built-in data).
        system_prompt: Instructions -> system message (default: `message_tool_prompt`, or
            tau_env's LLM agent prompt in No-User modes); pass the same to
            `environment_factory`.
        seed: Every row's base seed (the environment derives each rollout's episode seed
            from it, the task and its ``group_seeds``).
        limit: Keep only the first `limit` tasks.
        only: Keep only these task ids (in the split's order).
        judged: Keep tasks scored by NL assertions (the environment must get a ``judge=``).

    Returns:
        Rows ``prompt``, ``task_key`` (opaque: `task_key`) and ``seed``.
    """
    require_extra("trl", "datasets", feature="tau_env.integrations.trl")
    from datasets import Dataset

    from tau_env.integrations.trl.environment import message_tool_prompt
    from tau_env.rollout.modes import has_user

    if system_prompt is None and has_user(mode):
        system_prompt = message_tool_prompt
    chat = make_chat_env(
        domain,
        user=_no_user,
        mode=mode,
        split=split,
        data_dir=data_dir,
        system_prompt=system_prompt,
        judge=_unused_judge,  # a prompt is built without grading anything
    )
    rows = []
    ids = task_ids(domain, split=split, mode=mode, data_dir=data_dir, judged=judged)
    for task_id in _chosen(ids, only, limit):
        prompt = _prompt(chat, task_id, seed)
        rows.append({"prompt": prompt, "task_key": task_key(task_id), "seed": seed})
    return Dataset.from_list(rows)


def rollout_dataset(
    domain: str,
    *,
    split: str | None = None,
    mode: str = "default",
    data_dir: str | Path | None = None,
    limit: int | None = None,
    only: Sequence[str] | None = None,
    judged: bool = False,
) -> Any:
    """A `datasets.Dataset` for `tau_env.integrations.trl.make_rollout_func` (keys as prompts).

    `split`, `mode`, `data_dir`, `limit`, `only` and `judged` choose the tasks as in
    `environment_dataset`.

    Returns:
        Rows ``prompt`` (a user message: `ROLLOUT_KEY` + the task key) and ``task_key``.
    """
    require_extra("trl", "datasets", feature="tau_env.integrations.trl")
    from datasets import Dataset

    from tau_env.integrations.trl.rollout import ROLLOUT_KEY

    ids = task_ids(domain, split=split, mode=mode, data_dir=data_dir, judged=judged)
    keys = [task_key(task_id) for task_id in _chosen(ids, only, limit)]
    return Dataset.from_list(
        [{"prompt": [{"role": "user", "content": ROLLOUT_KEY + k}], "task_key": k} for k in keys]
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


def _prompt(chat: Any, task_id: str, seed: int) -> list[dict[str, Any]]:
    """The chat before the customer's first words, ending in the user message ``reset`` fills.

    The system prompt, the greeting and any task history (fixed for a task, whatever the
    seed); the customer's opening (which the seed may change) is left to ``reset``.
    """
    messages = chat.reset(task_id=task_id, seed=seed).messages
    fixed = messages[1:-1] if len(messages) > 1 and messages[-1]["role"] == "user" else []
    if not fixed or fixed[-1]["role"] != "assistant":  # no greeting: the legacy layout
        fixed = []
    return [messages[0], *fixed, {"role": "user", "content": ""}]


class _Silent:
    """A user that never speaks: building prompts needs only the agent's instructions."""

    def __init__(self, task: Any) -> None:
        self.task = task

    def act(self, view: Any, context: Any) -> Any:
        from tau_env.actions import Stop

        return Stop()


def _no_user(task: Any) -> _Silent:
    return _Silent(task)


def _unused_judge(trajectory: Any, assertions: Sequence[str]) -> list[Any]:
    """Lets prompts of tasks scored by NL assertions be built; their grades are discarded."""
    return []
