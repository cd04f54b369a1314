"""``tau-env generate --domain retail``: the retail generator driven by the task-set pipeline.

The store grows with the set: 150 customers for the built-in 231 tasks, as many per task for
larger sets, up to 36,000 (every customer has a distinct name; ``--world-size`` sets it). The
catalogue keeps its size.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from tau_env.domains.retail.data_model import RetailDB
from tau_env.domains.retail.generator import FAMILIES, FEWER
from tau_env.domains.retail.generator.families_delivered import return_items
from tau_env.domains.retail.generator.store import Store
from tau_env.domains.retail.generator.tasks import Family, generate_tasks, split_tasks
from tau_env.domains.retail.generator.world import customer_names, generate_world
from tau_env.domains.retail.tools import TOOLBOX
from tau_env.generation.drawn import (
    Adapter,
    Drawn,
    Request,
    Take,
    described_family,
    desk_drawn,
)
from tau_env.generation.render import model_tables, task_dict
from tau_env.heap_collector import collector_paused
from tau_env.state import Journal, World
from tau_env.state.database import SeedSource

__all__ = ["ADAPTER"]

_BUILTIN_USERS = 150
_BUILTIN_TASKS = 231
_MAX_USERS = len(customer_names())
"""Every customer has a distinct name: the store holds at most this many (36,000)."""


def _name(family: Family) -> str:
    """The family's name as its tasks' descriptions give it."""
    return "return" if family is return_items else family.__name__


COMPOSED = {"cancel_and_move": ("cancel", "user_address")}
"""Families whose tasks combine two requests, with the families holding each one alone."""


@collector_paused()  # the draw's objects all live on: collections find nothing
def _draw(request: Request, families: Sequence[str], wanted: int, take: Take) -> Drawn:
    rng = random.Random(request.seed)
    users = request.world_size or min(
        _MAX_USERS, max(_BUILTIN_USERS, math.ceil(wanted * _BUILTIN_USERS / _BUILTIN_TASKS))
    )
    data = generate_world(rng, users=users)
    journal, source = Journal(), SeedSource(0)
    initial = World(
        TOOLBOX, RetailDB(RetailDB.snapshot_of(data), journal, source), None, journal, source
    )
    chosen = [family for family in FAMILIES if _name(family) in families]
    full = [family for family in chosen if family.__name__ not in FEWER] or chosen
    per_family = math.ceil(wanted / len(full))
    drawn: list[str] = []
    composed: set[str] = set()  # --hold-out-compositions: the tasks of a composed family
    for task in generate_tasks(Store(data, rng), chosen, per_family, initial, FEWER):
        named = {str(v) for a in task.gold_actions for v in a.arguments.values()}
        owners = [data.orders[v].user_id for v in named if v in data.orders]
        user = next((v for v in named if v in data.users), owners[0] if owners else None)
        held = data.users[user].orders if user is not None else []
        dumped = task_dict(task)  # each handed over, none held
        take(dumped, sum(1 for order in held if order not in named))
        drawn.append(task.id)
        if request.hold_out_compositions and described_family(dumped) in COMPOSED:
            composed.add(task.id)
    files, split_of = desk_drawn("tau_env.domains.retail", model_tables(data), split_tasks(drawn))
    return Drawn(files, split_of, users, composed)


ADAPTER = Adapter(
    families=tuple(_name(family) for family in FAMILIES),
    family_of=described_family,
    draw=_draw,
    min_world=20,
    max_world=_MAX_USERS,
    world_split=True,
    compositional_split=True,
)
"""The retail domain's adapter."""
