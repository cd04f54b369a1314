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
``test_compositional`` (`Composed`): the domain says which candidate tasks combine sub-goals
that ``train`` holds only separately.

A task goes to the first held-out split that claims it: ``test_family`` (the pipeline's
``--hold-out-families``), then ``test_compositional``, then ``test_world``; so ``test_world``
holds only families and combinations ``train`` has, on customers it never saw.

Both are wrappers around a domain's draw: without the options the draw is returned unchanged,
so sets generated without them keep their bytes.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from tau_env.generation.drawn import Drawn, Request

__all__ = [
    "COMPOSITIONAL_SPLIT",
    "WORLD_SPLIT",
    "Composed",
    "customer_index",
    "customers_named",
    "held_out_customers",
    "with_held_out",
]

WORLD_SPLIT = "test_world"
"""The split of the tasks on the held-out part of the world."""

COMPOSITIONAL_SPLIT = "test_compositional"
"""The split of the tasks combining sub-goals ``train`` only has separately."""

Draw = Callable[[Request, Sequence[str], int], Drawn]

Composed = Callable[[Drawn], set[str]]
"""The candidate task ids (of the draw) that are held-out compositions."""

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


def _split_world(request: Request, drawn: Drawn) -> Drawn:
    tables = json.loads(drawn.files["db.json"])
    index = customer_index(tables)
    held = held_out_customers(tables.get("users") or {}, request.hold_out_world, request.seed)
    tasks, split_of = [], dict(drawn.split_of)
    for task in drawn.tasks:
        named = customers_named(task, index)
        if named and named <= held:
            split_of[task["id"]] = WORLD_SPLIT
        elif named & held:  # touches both parts: neither train nor test_world may have it
            del split_of[task["id"]]
            continue
        tasks.append(task)
    kept = {task["id"] for task in tasks}
    distractors = {key: value for key, value in drawn.distractors.items() if key in kept}
    return Drawn(drawn.files, tasks, split_of, drawn.world_size, distractors)


def _split_compositions(drawn: Drawn, composed: Composed) -> Drawn:
    split_of = dict(drawn.split_of)
    for task_id in composed(drawn):  # also on a held-out customer: test_world stays one shift
        if task_id in split_of:
            split_of[task_id] = COMPOSITIONAL_SPLIT
    return Drawn(drawn.files, drawn.tasks, split_of, drawn.world_size, drawn.distractors)


def with_held_out(draw: Draw, *, world: bool = False, composed: Composed | None = None) -> Draw:
    """`draw`, with ``test_world`` (if `world`) and ``test_compositional`` (if `composed`).

    The request's ``hold_out_world`` and ``hold_out_compositions`` switch them on; a request
    without them gets `draw`'s result unchanged.
    """

    def held_out_draw(request: Request, families: Sequence[str], wanted: int) -> Drawn:
        drawn = draw(request, families, wanted)
        if world and request.hold_out_world:
            drawn = _split_world(request, drawn)
        if composed is not None and request.hold_out_compositions:
            drawn = _split_compositions(drawn, composed)
        return drawn

    return held_out_draw
