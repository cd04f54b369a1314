"""Choosing built-in tasks by what they are (family, parameters), not by spelling their ids.

Built-in ids are plain (``airline/train/0012``); a task's family and the generator's parameters
are in its description (`tau_env.tasks.Description`).
"""

from __future__ import annotations

from collections.abc import Iterable

import tau_env
from tau_env.tasks import Task


def of_family(tasks: Iterable[Task], family: str, **parameters: str) -> list[Task]:
    """The tasks of `family` whose description parameters include `parameters`."""
    return [
        task
        for task in tasks
        if task.family == family
        and all(
            (task.description.parameters or {}).get(key) == value  # type: ignore[union-attr]
            for key, value in parameters.items()
        )
    ]


def task_of(
    domain: str, family: str, index: int = 0, *, split: str | None = None, **parameters: str
) -> Task:
    """Task `index` of `family` in the built-in `domain` (of `split`, or of every task).

    Raises:
        LookupError: Fewer tasks than that.
    """
    loaded = tau_env.load_domain(domain)
    tasks = loaded.split(split) if split is not None else loaded.tasks
    found = of_family(tasks, family, **parameters)
    if index >= len(found):
        raise LookupError(f"{domain}: {len(found)} task(s) of family {family!r} {parameters}")
    return found[index]
