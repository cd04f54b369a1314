"""``tau-env generate --domain airline``: the airline generator driven by the task-set pipeline.

The world grows with the set: 120 customers for the built-in 255 tasks, as many per task for
larger sets (``--world-size`` sets it), so families keep finding fresh cases and tasks stay
distinct. Flights and routes keep the built-in size.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from tau_env.domains.airline.generator.tasks import FAMILIES, draw_tasks, split_tasks
from tau_env.domains.airline.generator.world import WorldConfig, generate_world
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

__all__ = ["ADAPTER"]

_BUILTIN_TASKS = sum(quota for _, quota in FAMILIES)
_BUILTIN_USERS = WorldConfig().users


@collector_paused()  # the draw's objects all live on: collections find nothing
def _draw(request: Request, families: Sequence[str], wanted: int, take: Take) -> Drawn:
    rng = random.Random(request.seed)
    users = request.world_size or max(
        _BUILTIN_USERS, math.ceil(wanted * _BUILTIN_USERS / _BUILTIN_TASKS)
    )
    data = generate_world(rng, WorldConfig(users=users))
    chosen = [(family, quota) for family, quota in FAMILIES if family.__name__ in families]
    scale = wanted / sum(quota for _, quota in chosen)
    drawn: list[str] = []
    for task in draw_tasks(data, rng, scale, chosen):  # each handed over, none held
        user_ids = {a.arguments.get("user_id") for a in task.gold_actions}
        named = {str(a.arguments.get("reservation_id")) for a in task.gold_actions}
        held = [r for u in user_ids if u in data.users for r in data.users[str(u)].reservations]
        take(task_dict(task), sum(1 for r in held if r not in named))
        drawn.append(task.id)
    files, split_of = desk_drawn(
        "tau_env.domains.airline", model_tables(data), split_tasks(drawn, rng)
    )
    return Drawn(files, split_of, users)


ADAPTER = Adapter(
    families=tuple(family.__name__ for family, _ in FAMILIES),
    family_of=described_family,
    draw=_draw,
    min_world=20,
    world_split=True,
)
"""The airline domain's adapter."""
