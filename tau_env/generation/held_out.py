"""Held-out splits by structure: ``test_world`` and ``test_compositional``.

``--hold-out-world F`` (airline, retail) sets a share `F` of the generated world's customers
apart, with everything they own (orders or reservations, payment methods, addresses). A task
that names only such customers goes to ``test_world``; a task that names none keeps the
generator's split (``train`` / ``test``); a task that names both (another customer's order, a
gift card of someone else) is dropped, so that no ``train`` task ever touches the held-out part.
A task "names" a customer when its JSON (plan, request, ticket, checks) holds the customer's
id, e-mail, or the id of one of their orders, reservations or payment methods. The
catalogue and the flight network are shared: every customer's orders and reservations draw
on all of it, so products and routes are not held out.

``--hold-out-compositions`` sends the tasks of a composed sub-goal combination to
``test_compositional``: the domain's draw says which candidate tasks combine sub-goals that
``train`` holds only separately (`tau_env.generation.drawn.Drawn.composed`).

A task goes to the first held-out split that claims it: ``test_family`` (the pipeline's
``--hold-out-families``), then ``test_compositional``, then ``test_world``; so ``test_world``
holds only families and combinations ``train`` has, on customers it never saw.

The pipeline applies both to the draw's splits (`split_world`, `split_compositions`) before
duplicates are removed; without the options nothing changes, so sets generated without them
keep their bytes.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "COMPOSITIONAL_SPLIT",
    "WORLD_SPLIT",
    "customer_index",
    "customers_named",
    "held_out_customers",
    "split_compositions",
    "split_world",
]

WORLD_SPLIT = "test_world"
"""The split of the tasks on the held-out part of the world."""

COMPOSITIONAL_SPLIT = "test_compositional"
"""The split of the tasks combining sub-goals ``train`` only has separately."""

_TOKEN = re.compile(r"[#\w.@+-]+")


def customer_index(tables: Mapping[str, Any]) -> dict[str, str]:
    """Every identifying text of the world -> the customer it belongs to.

    A customer's id and e-mail, the ids of their payment methods, and the ids of their orders
    (retail) or reservations (airline).
    """
    index: dict[str, str] = {}
    for user_id, user in (tables.get("users") or {}).items():
        index[user_id] = user_id
        if user.get("email"):
            index[str(user["email"])] = user_id
        for method in user.get("payment_methods") or {}:
            index[str(method)] = user_id
        for table in ("orders", "reservations"):
            for record_id in user.get(table) or ():
                index[str(record_id)] = user_id
    for table in ("orders", "reservations"):
        for record_id, record in (tables.get(table) or {}).items():
            if record.get("user_id"):
                index[str(record_id)] = str(record["user_id"])
    return index


def customers_named(task: Mapping[str, Any], index: Mapping[str, str]) -> set[str]:
    """The customers whose identifying texts appear anywhere in the task's JSON."""
    named = set()
    for token in _TOKEN.findall(json.dumps(task, ensure_ascii=False)):
        for text in (token, token.rstrip(".")):
            if text in index:
                named.add(index[text])
    return named


def held_out_customers(customers: Iterable[str], share: float, seed: int) -> set[str]:
    """A share of the customers, drawn from the seed alone (not from the tasks' draw)."""
    ordered = sorted(customers)
    rng = random.Random(f"{seed}:{WORLD_SPLIT}")
    return set(rng.sample(ordered, round(len(ordered) * share)))


def split_world(
    split_of: dict[str, str],
    database: bytes,
    share: float,
    seed: int,
    candidates: Iterable[tuple[str, Mapping[str, Any]]],
) -> None:
    """``--hold-out-world``: move candidates to ``test_world`` or drop them, in `split_of`.

    Args:
        split_of: Each candidate's id -> its split; changed in place: a candidate that names
            only held-out customers goes to ``test_world``, one that names both parts is
            taken out (neither ``train`` nor ``test_world`` may have it).
        database: The world's ``db.json``.
        share: The share of the customers held out.
        seed: The request's seed (the held-out customers derive from it alone).
        candidates: Each candidate's id and task.
    """
    tables = json.loads(database)
    index = customer_index(tables)
    held = held_out_customers(tables.get("users") or {}, share, seed)
    del tables
    for task_id, task in candidates:
        named = customers_named(task, index)
        if named and named <= held:
            split_of[task_id] = WORLD_SPLIT
        elif named & held:
            del split_of[task_id]


def split_compositions(split_of: dict[str, str], composed: Iterable[str]) -> None:
    """``--hold-out-compositions``: the `composed` candidates go to ``test_compositional``.

    A composed task on a held-out customer goes there too (``test_world`` stays one shift);
    one dropped by `split_world` (not in `split_of`) stays dropped.
    """
    for task_id in composed:
        if task_id in split_of:
            split_of[task_id] = COMPOSITIONAL_SPLIT
