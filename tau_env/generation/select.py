"""Choosing the set's tasks among the candidates: distinct ones, in every family's proportion."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["distinct", "proportional", "task_key"]


def task_key(task: Mapping[str, Any], family: str) -> str:
    """What makes a task itself: its family, starting state, gold plan and checks.

    Two tasks with the same key set the same world facts and need the same plan: one is a
    duplicate, however the customer's request is worded.
    """
    criteria = task.get("evaluation_criteria") or {}
    plan = [
        (a.get("requestor", "assistant"), a.get("name"), a.get("arguments"))
        for a in criteria.get("actions") or []
    ]
    payload = {
        "family": family,
        "initial_state": task.get("initial_state"),
        "plan": plan,
        "env_assertions": criteria.get("env_assertions"),
        "communicate_info": criteria.get("communicate_info"),
    }
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def distinct(
    tasks: Sequence[Mapping[str, Any]], family_of: Callable[[Mapping[str, Any]], str]
) -> list[Mapping[str, Any]]:
    """`tasks` without duplicates (`task_key`), the first of each kept, in order."""
    seen: set[str] = set()
    kept = []
    for task in tasks:
        key = task_key(task, family_of(task))
        if key not in seen:
            seen.add(key)
            kept.append(task)
    return kept


def proportional(
    tasks: Sequence[Mapping[str, Any]],
    count: int,
    family_of: Callable[[Mapping[str, Any]], str],
) -> list[Mapping[str, Any]]:
    """`count` of `tasks`, each family keeping its share of them (draw order kept).

    Every task is ranked by its position within its family as a fraction of the family's
    size; the `count` lowest ranks are kept. A family of a tenth of the candidates gives
    about a tenth of the set, and the choice depends on nothing but the candidates.
    """
    by_family: dict[str, list[int]] = {}
    for index, task in enumerate(tasks):
        by_family.setdefault(family_of(task), []).append(index)
    ranked: list[tuple[float, int, int]] = []
    for order, members in enumerate(by_family.values()):
        for position, index in enumerate(members):
            ranked.append(((position + 0.5) / len(members), order, index))
    chosen = sorted(index for _, _, index in sorted(ranked)[:count])
    return [tasks[index] for index in chosen]
