"""The built-in retail data: a generated store and tasks whose gold plans follow the policy.

Everything comes from one seed through a local `random.Random`, so the same seed gives the same
store and tasks on every machine. Every task is checked by replaying its gold plan before it
is emitted (`tasks.verify_draft`).

``tau-env generate --domain retail`` (`tau_env.generation`) writes verified sets of any size
in the reference's layout (``db.json``, ``tasks.json``, ``split_tasks.json``, ``policy.md``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from tau_env.data_files import builtin_text
from tau_env.domain import DomainData
from tau_env.domains.opaque_ids import opaque_ids, renamed
from tau_env.domains.retail.constants import BUILTIN_SEED
from tau_env.domains.retail.data_model import RetailData, RetailDB
from tau_env.domains.retail.generator.families_account import (
    cancel_and_move,
    info_balance,
    info_price,
    info_tracking,
    other_user_refused,
    transfer,
    user_address,
)
from tau_env.domains.retail.generator.families_delivered import (
    exchange,
    exchange_refused,
    return_items,
    return_refused,
)
from tau_env.domains.retail.generator.families_pending import (
    cancel,
    cancel_refused,
    modify_address,
    modify_items,
    modify_items_refused,
    modify_payment,
    modify_payment_refused,
)
from tau_env.domains.retail.generator.store import Store
from tau_env.domains.retail.generator.tasks import Family, generate_tasks, split_tasks
from tau_env.domains.retail.generator.world import generate_world
from tau_env.domains.retail.tools import TOOLBOX
from tau_env.state import Journal, World
from tau_env.state.database import SeedSource
from tau_env.tasks import Task

__all__ = ["FAMILIES", "FEWER", "Generated", "builtin_data", "generate"]

FAMILIES: tuple[Family, ...] = (
    cancel,
    cancel_refused,
    modify_items,
    modify_items_refused,
    modify_address,
    modify_payment,
    modify_payment_refused,
    return_items,
    return_refused,
    exchange,
    exchange_refused,
    user_address,
    info_tracking,
    info_balance,
    info_price,
    transfer,
    other_user_refused,
    cancel_and_move,
)
"""Every task family, in the order tasks are generated."""

FEWER = {"transfer": 10}
"""Families with a smaller quota. An agent that looks the customer up and hands over passes a
transfer task as well as one that understood the request: their share stays under 5% of the
set (issue 53's audit rule)."""


@dataclass(frozen=True)
class Generated:
    """A generated store with its tasks.

    Attributes:
        data: The store's database.
        tasks: Verified tasks with plain ids (``retail/<split>/<NNNN>``; the family is in
            each task's description), in the order of the ``base`` split.
        splits: ``base``, ``train`` and ``test`` task ids.
    """

    data: RetailData
    tasks: tuple[Task, ...]
    splits: dict[str, list[str]]


def generate(seed: int = BUILTIN_SEED, *, users: int = 150, per_family: int = 13) -> Generated:
    """Generate a store and its tasks.

    Args:
        seed: Seeds the generator; the same seed always gives the same result.
        users: Number of customers in the store.
        per_family: Tasks per family (fewer when the store has no suitable order left).

    Raises:
        DataError: A gold plan does not do what its task says (a generator bug).
    """
    rng = random.Random(seed)
    data = generate_world(rng, users=users)
    snapshot = RetailDB.snapshot_of(data)
    journal, source = Journal(), SeedSource(0)
    initial = World(TOOLBOX, RetailDB(snapshot, journal, source), None, journal, source)
    drawn = list(generate_tasks(Store(data, rng), FAMILIES, per_family, initial, FEWER))
    new_ids, splits = opaque_ids("retail", split_tasks([t.id for t in drawn]), seed)
    return Generated(data, tuple(renamed(drawn, new_ids, splits["base"])), splits)


@cache
def builtin_data() -> DomainData:
    """The built-in domain data (generated once per process from `BUILTIN_SEED`)."""
    generated = generate()
    return DomainData(
        policy=builtin_text("tau_env.domains.retail", "policy.md"),
        agent_snapshot=RetailDB.snapshot_of(generated.data),
        user_snapshot=None,
        tasks=generated.tasks,
        splits={name: tuple(ids) for name, ids in generated.splits.items()},
        source="built-in",
    )
