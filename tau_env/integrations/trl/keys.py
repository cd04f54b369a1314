"""Opaque task keys for TRL's dataset rows: a row names its task without saying which it is.

TRL hands a GRPO row's columns to ``reset`` and to the reward functions, and the rollout route's
prompt column is the task's key itself, so rows carry a key, never a task id (issue 53: nothing
a policy may be shown names its task). A key is a keyed hash of the id (HMAC-SHA256) with a
secret drawn once per process: the same task has the same key throughout a training process,
and the environment, which knows its domain's tasks, maps it back (`keyed`). A key means
nothing in another process: build the dataset in the process that trains on it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable

__all__ = ["is_task_key", "keyed", "task_key"]

_SECRET = secrets.token_bytes(32)
"""This process's key secret (never written anywhere)."""

_KEY = re.compile(r"task-[0-9a-f]{16}")


def task_key(task_id: str) -> str:
    """The opaque key of `task_id` in this process (``task-`` and 16 hex digits)."""
    digest = hmac.new(_SECRET, task_id.encode("utf-8"), hashlib.sha256).hexdigest()
    return f"task-{digest[:16]}"


def keyed(task_ids: Iterable[str]) -> dict[str, str]:
    """Key -> task id, for every one of `task_ids` (how the environment maps a row back)."""
    return {task_key(task_id): task_id for task_id in task_ids}


def is_task_key(text: str) -> bool:
    """Whether `text` has the form of a task key (``task-`` and 16 hex digits)."""
    return _KEY.fullmatch(text) is not None
