"""Reading task and split files with errors that name the file, the task and the field."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tau_env.errors import DataError, did_you_mean
from tau_env.tasks.model import Task

__all__ = ["parse_tasks", "read_json", "read_splits", "read_text", "select_split"]


def read_text(path: Path) -> str:
    """A text file's content.

    Raises:
        DataError: The file is missing, unreadable or not UTF-8 text.
    """
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except UnicodeDecodeError as error:
        raise DataError(f"{path}: not UTF-8 text: {error}") from None
    except OSError as error:
        raise DataError(f"{path}: cannot read: {error}") from None


def read_json(path: Path) -> Any:
    """Parse a JSON file.

    Raises:
        DataError: The file is missing, is not UTF-8 text or is not valid JSON (including
            nesting too deep to parse and integers too long to convert); the message names
            the file.
    """
    text = read_text(path)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise DataError(f"{path}: invalid JSON: {error}") from None


def parse_tasks(raw: Any, *, source: str) -> list[Task]:
    """Validate a task list.

    Args:
        raw: The parsed content of a tasks file (a JSON list of task objects).
        source: Where it came from, for error messages.

    Raises:
        DataError: The content is not a list, a task is malformed, or two tasks share an id.
            The message names `source`, the task id (or index) and the field.
    """
    if not isinstance(raw, list):
        raise DataError(f"{source}: expected a list of tasks, found {type(raw).__name__}")
    tasks: list[Task] = []
    seen: set[str] = set()
    for index, item in enumerate(raw):
        label = _task_label(item, index)
        try:
            task = Task.model_validate(item)
        except ValidationError as error:
            detail = error.errors()[0]
            field = ".".join(str(part) for part in detail["loc"]) or "task"
            more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
            message = f"{source}: task {label}: field {field!r}: {detail['msg']}{more}"
            raise DataError(message) from None
        if task.id in seen:
            raise DataError(f"{source}: task {label}: field 'id': duplicate task id")
        seen.add(task.id)
        tasks.append(task)
    return tasks


def _task_label(item: Any, index: int) -> str:
    if isinstance(item, dict) and isinstance(item.get("id"), str):
        return repr(item["id"])
    return f"#{index}"


def read_splits(path: Path) -> dict[str, list[str]]:
    """Read a ``split_tasks.json`` file (split name -> task ids).

    Raises:
        DataError: The file is malformed; the message names it.
    """
    raw = read_json(path)
    if not isinstance(raw, dict) or not all(
        isinstance(ids, list) and all(isinstance(i, str) for i in ids) for ids in raw.values()
    ):
        raise DataError(f"{path}: expected an object mapping split names to lists of task ids")
    return {str(name): list(ids) for name, ids in raw.items()}


def select_split(
    tasks: Sequence[Task], splits: dict[str, list[str]], split: str | None, *, source: str
) -> list[Task]:
    """The tasks of one split, in the split file's order.

    `split=None` gives ``base`` when the split file has one, else every task.

    Raises:
        DataError: The split is unknown or names a task that does not exist.
    """
    if split is None:
        if "base" not in splits:
            return list(tasks)
        split = "base"
    if split not in splits:
        hint = did_you_mean(split, splits)
        raise DataError(
            f"{source}: unknown split {split!r}; known: {sorted(splits)}"
            + (f"; {hint}" if hint else "")
        )
    by_id = {task.id: task for task in tasks}
    missing = [task_id for task_id in splits[split] if task_id not in by_id]
    if missing:
        raise DataError(f"{source}: split {split!r} names unknown tasks, first: {missing[0]!r}")
    return [by_id[task_id] for task_id in splits[split]]
