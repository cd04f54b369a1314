"""Drawing the built-in task set: every family, its quota, gold-replay verification, splits."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from tau_env.data_files import builtin_text
from tau_env.domains.airline.data_model import AirlineData
from tau_env.domains.airline.generator.bags_and_passengers import (
    add_bags,
    bags_refused,
    passenger_count_refused,
    update_passenger,
)
from tau_env.domains.airline.generator.booking import (
    book_one_stop,
    book_one_way,
    book_refused,
    book_round_trip,
)
from tau_env.domains.airline.generator.cancellation import (
    cancel_airline_cancelled,
    cancel_business,
    cancel_flown_transfer,
    cancel_insured,
    cancel_recent,
    cancel_refused,
)
from tau_env.domains.airline.generator.changes import (
    cabin_change,
    cabin_refused_flown,
    change_flight,
    change_refused_basic,
    change_refused_route,
)
from tau_env.domains.airline.generator.compensation import (
    baggage_allowance,
    compensation_cancelled,
    compensation_delayed,
    compensation_refused,
)
from tau_env.domains.airline.generator.context import Context, NoCase
from tau_env.domains.airline.generator.drafts import Draft
from tau_env.domains.airline.generator.forbidden import REASONS, forbidden_facts
from tau_env.domains.forbidden import check_in_policy
from tau_env.tasks.model import Task

__all__ = ["FAMILIES", "Family", "draw_tasks", "split_tasks"]

Family = Callable[[Context], Draft | None]

FAMILIES: tuple[tuple[Family, int], ...] = (
    (book_one_way, 16),
    (book_round_trip, 14),
    (book_one_stop, 10),
    (book_refused, 10),
    (cancel_recent, 12),
    (cancel_airline_cancelled, 10),
    (cancel_business, 12),
    (cancel_insured, 12),
    (cancel_refused, 14),
    (cancel_flown_transfer, 10),
    (change_flight, 16),
    (change_refused_basic, 10),
    (change_refused_route, 8),
    (cabin_change, 14),
    (cabin_refused_flown, 8),
    (add_bags, 14),
    (bags_refused, 10),
    (update_passenger, 10),
    (passenger_count_refused, 8),
    (compensation_cancelled, 10),
    (compensation_refused, 10),
    (compensation_delayed, 8),
    (baggage_allowance, 10),
)
"""Each family with the number of tasks drawn from it (fewer when the world has too few cases)."""

ATTEMPTS_PER_TASK = 12


def draw_tasks(
    data: AirlineData,
    rng: random.Random,
    scale: float = 1.0,
    families: Sequence[tuple[Family, int]] = FAMILIES,
) -> Iterator[Task]:
    """Draw tasks from every family, in family order, named ``<family>_<n>``.

    The names are the generator's own (the split reads the family from them); `generate` then
    gives the tasks their plain ids. Each family's tasks are handed out once it is drawn, so
    a caller need not hold them all (``tau-env generate`` does not).

    Args:
        data: The world the tasks run on.
        rng: The random source (consumed in a fixed order).
        scale: Multiplies every family's quota.
        families: The families to draw from, with their quotas (default: all of them).

    Raises:
        DataError: A reason phrase of `forbidden.REASONS` is not in the policy's words.
    """
    context = Context(data, rng)
    policy = builtin_text("tau_env.domains.airline", "policy.md")
    check_in_policy(REASONS, policy, "airline generator")  # once: the policy is fixed
    for family, quota in families:
        wanted = max(1, round(quota * scale))
        drafts: list[Draft] = []
        for _ in range(wanted * ATTEMPTS_PER_TASK):
            if len(drafts) == wanted:
                break
            try:
                draft = family(context)
            except NoCase:
                continue
            if draft is not None:
                if draft.expects_transfer or not draft.writes():  # a refusal or a question
                    draft.forbidden = forbidden_facts(draft, data)
                drafts.append(draft)
        for i, draft in enumerate(drafts):
            yield draft.to_task(f"{draft.family}_{i}")


def split_tasks(
    task_ids: Sequence[str], rng: random.Random, train_share: float = 0.7
) -> dict[str, list[str]]:
    """``base`` (every task), and disjoint ``train``/``test`` stratified by family."""
    by_family: dict[str, list[str]] = {}
    for task_id in task_ids:
        by_family.setdefault(task_id.rsplit("_", 1)[0], []).append(task_id)
    train: list[str] = []
    test: list[str] = []
    for ids in by_family.values():
        shuffled = list(ids)
        rng.shuffle(shuffled)
        cut = max(1, round(len(shuffled) * train_share)) if len(shuffled) > 1 else 1
        train += sorted(shuffled[:cut], key=ids.index)
        test += sorted(shuffled[cut:], key=ids.index)
    return {"base": list(task_ids), "train": train, "test": test}
