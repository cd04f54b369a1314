"""Plain ids for generated task sets: ``<domain>/<split>/<NNNN>`` (``telecom/train/0173``).

A generator names its tasks by what they are while it draws and splits them (family and
parameters: ``cancel_refused_3``, ``[mms_issue]...[CUSTOMER:C2008]``), and keeps those facts in
each task's ``description`` (``family``, ``parameters``) for reports. Once the split is made,
`opaque_ids` gives every task an id that says nothing about it: its domain, its split and a
number. The numbers are a seeded shuffle within each split, so not even the order of the numbers
follows the families; the same generator seed always gives the same ids.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

__all__ = ["opaque_ids", "renamed"]

Item = TypeVar("Item")


def opaque_ids(
    domain: str, splits: Mapping[str, Sequence[str]], seed: int | str
) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Each task's new id, and the splits under the new ids.

    Args:
        domain: The domain name (the ids' first part).
        splits: ``base`` (every task) and disjoint named splits that cover it, by the
            generator's names.
        seed: The generator's seed (the numbering's shuffle derives from it).

    Returns:
        The generator's name -> the new id; and the splits under the new ids, each in
        number order, ``base`` listing the named splits one after the other.

    Raises:
        ValueError: A task is in no named split, or in two of them.
    """
    named = {name: list(ids) for name, ids in splits.items() if name != "base"}
    new_ids: dict[str, str] = {}
    renamed_splits: dict[str, list[str]] = {}
    for split, ids in named.items():
        order = list(ids)
        random.Random(f"{seed}:{domain}:{split}").shuffle(order)
        width = max(4, len(str(len(order) - 1)))
        for number, name in enumerate(order):
            if name in new_ids:
                raise ValueError(f"task {name!r} is in two splits")
            new_ids[name] = f"{domain}/{split}/{number:0{width}d}"
        renamed_splits[split] = sorted(new_ids[name] for name in ids)
    missing = [name for name in splits.get("base", ()) if name not in new_ids]
    if missing:
        raise ValueError(f"tasks in no named split: {missing[:3]}")
    base = [task_id for ids in renamed_splits.values() for task_id in ids]
    return new_ids, {"base": base, **renamed_splits}


def renamed(tasks: Sequence[Item], new_ids: Mapping[str, str], order: Sequence[str]) -> list[Item]:
    """`tasks` (models with an ``id``, or task dicts) under their new ids, in `order`.

    Args:
        tasks: The generator's tasks.
        new_ids: The generator's name -> the new id (`opaque_ids`).
        order: The new ids in the order wanted (the renamed ``base`` split).
    """
    by_id: dict[str, Any] = {}
    for task in tasks:
        if isinstance(task, dict):
            by_id[new_ids[task["id"]]] = {**task, "id": new_ids[task["id"]]}
        else:
            by_id[new_ids[task.id]] = task.model_copy(update={"id": new_ids[task.id]})  # type: ignore[attr-defined]
    return [by_id[task_id] for task_id in order]
