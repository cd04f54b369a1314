"""Choosing the set's tasks among the candidates: distinct ones, in every family's proportion."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["distinct", "proportional", "quotas", "task_key", "weighted"]


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


def distinct(tasks: Sequence[T], key_of: Callable[[T], str]) -> list[T]:
    """`tasks` without duplicates (the same `key_of`: `task_key`), the first of each kept."""
    seen: set[str] = set()
    kept = []
    for task in tasks:
        key = key_of(task)
        if key not in seen:
            seen.add(key)
            kept.append(task)
    return kept


def proportional(tasks: Sequence[T], count: int, family_of: Callable[[T], str]) -> list[T]:
    """`count` of `tasks`, each family keeping its share of them (draw order kept).

    Every task is ranked by its position within its family as a fraction of the family's
    size; the `count` lowest ranks are kept. A family of a tenth of the candidates gives
    about a tenth of the set, and the choice depends on nothing but the candidates.
    """
    chosen = _proportional_indices([family_of(task) for task in tasks], count)
    return [tasks[index] for index in chosen]


def _proportional_indices(keys: Sequence[str], count: int) -> list[int]:
    """`proportional`'s choice, as sorted indices into `keys` (each task's family)."""
    by_family: dict[str, list[int]] = {}
    for index, key in enumerate(keys):
        by_family.setdefault(key, []).append(index)
    ranked: list[tuple[float, int, int]] = []
    for order, members in enumerate(by_family.values()):
        for position, index in enumerate(members):
            ranked.append(((position + 0.5) / len(members), order, index))
    return sorted(index for _, _, index in sorted(ranked)[:count])


def quotas(weights: Mapping[str, float], count: int) -> dict[str, int]:
    """`count` shared among families in proportion to their weights.

    Each family gets the whole part of its exact share; the tasks left go to the largest
    remainders (ties: the family named first). The quotas add up to `count`.
    """
    total = sum(weights.values())
    exact = {family: count * weight / total for family, weight in weights.items()}
    shares = {family: int(value) for family, value in exact.items()}
    order = list(weights)
    left = count - sum(shares.values())
    for family in sorted(order, key=lambda f: (shares[f] - exact[f], order.index(f)))[:left]:
        shares[family] += 1
    return shares


def weighted(
    tasks: Sequence[T],
    weights: Mapping[str, float],
    count: int,
    family_of: Callable[[T], str],
    stratum_of: Callable[[T], str],
) -> list[T]:
    """`count` of `tasks`, each family of `weights` its `quotas` share (draw order kept).

    Within a family the tasks are chosen as `proportional` chooses them among the family's
    strata (`stratum_of`: its splits), so each family keeps its split shares.

    Raises:
        ValueError: A family has fewer tasks than its quota (the caller draws more).
    """
    shares = quotas(weights, count)
    by_family: dict[str, list[int]] = {family: [] for family in weights}
    for index, task in enumerate(tasks):
        members = by_family.get(family_of(task))
        if members is not None:
            members.append(index)
    chosen: list[int] = []
    for family, members in by_family.items():
        if len(members) < shares[family]:
            raise ValueError(f"{family}: {len(members)} tasks for a quota of {shares[family]}")
        strata = [stratum_of(tasks[index]) for index in members]
        chosen += [members[i] for i in _proportional_indices(strata, shares[family])]
    return [tasks[index] for index in sorted(chosen)]
