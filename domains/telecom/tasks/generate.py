"""The built-in telecom task set: composed, sampled into disjoint train/test splits, verified.

Run ``python -m tau_env.domains.telecom.tasks.generate`` to rewrite ``data/builtin_tasks.json`` and
``data/builtin_split_tasks.json``; a test checks that the shipped files equal a fresh generation.

How tasks are chosen, per intent: every blueprint (issue combination) is composed; the
blueprints are shuffled and split into a test pool and a train pool, so no combination of
issues appears in both splits. Each split then draws its tasks bin by bin (bins = number of
issues, so easy and hard tasks both appear), preferring fixable blueprints four times out of
five, with a random customer, persona and travel destination. ``base`` = train + test, as in
the reference.
"""

from __future__ import annotations

import json
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from tau_env.domain import DomainData
from tau_env.domains.telecom.tasks.build import Verifier, build_task
from tau_env.domains.telecom.tasks.compose import Blueprint, compose
from tau_env.domains.telecom.tasks.intents import INTENTS
from tau_env.domains.telecom.tasks.personas import PERSONAS
from tau_env.domains.telecom.tasks.scenario import Scenario
from tau_env.tasks.model import Task

__all__ = [
    "SCENARIO_CUSTOMERS",
    "SPLIT_SIZES",
    "compose_all",
    "generate",
    "load_scenarios",
    "main",
]

SEED = 2025
SCENARIO_CUSTOMERS = ("C2001", "C2002", "C2003", "C2004", "C2005")
"""Customers of the built-in database whose phone tasks may concern (one line each: the first)."""

DESTINATIONS = ("Portugal", "Japan", "Mexico", "Italy", "Canada", "Kenya", "Norway", "Chile")
"""Where travelling users are."""

SPLIT_SIZES: dict[str, dict[str, int]] = {
    "train": {"service_issue": 60, "mobile_data_issue": 100, "mms_issue": 140},
    "test": {"service_issue": 24, "mobile_data_issue": 40, "mms_issue": 56},
}
"""Tasks per split and intent."""

TEST_POOL_SHARE = 0.35
FIXABLE_PREFERENCE = 0.8

_STATES = {"TX": "Texas", "OR": "Oregon", "OH": "Ohio", "WI": "Wisconsin", "CA": "California"}


def load_scenarios(data: DomainData) -> list[Scenario]:
    """The scenario customers of the built-in database, with their first line."""
    customers, lines = (
        data.agent_snapshot.records["customers"],
        data.agent_snapshot.records["lines"],
    )
    plans = data.agent_snapshot.records["plans"]
    scenarios = []
    for customer_id in SCENARIO_CUSTOMERS:
        customer: Any = customers[customer_id]
        line: Any = lines[customer.line_ids[0]]
        plan: Any = plans[line.plan_id]
        address = customer.address
        scenarios.append(
            Scenario(
                customer_id=customer_id,
                full_name=customer.full_name,
                date_of_birth=customer.date_of_birth,
                phone_number=line.phone_number,
                line_id=line.line_id,
                data_limit_gb=plan.data_limit_gb,
                refueled_gb=line.data_refueling_gb,
                overdue_bill_id=f"B{customer_id[1:]}99",
                home=f"at home in {address.city}, {_STATES.get(address.state, address.state)}",
                abroad="abroad",
            )
        )
    return scenarios


def compose_all() -> dict[str, list[Blueprint]]:
    """Every blueprint of every intent (3,429 in all: service 71, mobile data 382, MMS 2,976)."""
    return {name: compose(intent) for name, intent in INTENTS.items()}


def _location(blueprint: Blueprint, scenario: Scenario, rng: random.Random) -> str:
    return f"abroad in {rng.choice(DESTINATIONS)}" if blueprint.abroad else scenario.home


def _draw(
    pool: Sequence[Blueprint],
    count: int,
    scenarios: Sequence[Scenario],
    rng: random.Random,
) -> list[Task]:
    """`count` tasks from `pool`, bin by bin, without repeating a (blueprint, persona, customer)."""
    bins: dict[tuple[int, bool], list[Blueprint]] = defaultdict(list)
    for blueprint in pool:
        bins[(len(blueprint.issues), blueprint.fixable)].append(blueprint)
    sizes = sorted({size for size, _ in bins})
    unused = {key: list(members) for key, members in bins.items()}
    tasks: list[Task] = []
    seen: set[str] = set()
    while len(tasks) < count:
        size = rng.choice(sizes)
        fixable = rng.random() < FIXABLE_PREFERENCE
        key = (size, fixable) if (size, fixable) in bins else (size, not fixable)
        if unused[key]:
            blueprint = unused[key].pop(rng.randrange(len(unused[key])))
        else:
            blueprint = rng.choice(bins[key])
        persona, scenario = rng.choice(PERSONAS), rng.choice(scenarios)
        task = build_task(blueprint, persona, scenario, _location(blueprint, scenario, rng))
        if task.id not in seen:
            seen.add(task.id)
            tasks.append(task)
    return tasks


def generate(data: DomainData, seed: int = SEED) -> tuple[list[Task], dict[str, list[str]]]:
    """The built-in tasks and splits, each task verified by replaying its gold plan.

    Args:
        data: The built-in telecom data (its databases; its tasks are ignored).
        seed: Seeds every random choice; the same seed gives the same tasks.

    Returns:
        The tasks (test first, then train) and the splits ``base``, ``train``, ``test``.

    Raises:
        GenerationError: A task fails verification.
    """
    scenarios = load_scenarios(data)
    verifier = Verifier(data)
    splits: dict[str, list[Task]] = {"test": [], "train": []}
    for name, blueprints in compose_all().items():
        rng = random.Random(f"{seed}:{name}")
        shuffled = list(blueprints)
        rng.shuffle(shuffled)
        cut = round(len(shuffled) * TEST_POOL_SHARE)
        pools = {"test": shuffled[:cut], "train": shuffled[cut:]}
        for split in ("test", "train"):
            drawn = _draw(pools[split], SPLIT_SIZES[split][name], scenarios, rng)
            splits[split] += drawn
    tasks = splits["test"] + splits["train"]
    for task in tasks:
        verifier.verify(task)
    ids = {split: [task.id for task in chosen] for split, chosen in splits.items()}
    ids["base"] = ids["train"] + ids["test"]
    return tasks, {"base": ids["base"], "train": ids["train"], "test": ids["test"]}


def render(tasks: Sequence[Task], splits: dict[str, list[str]]) -> tuple[str, str]:
    """The contents of ``tasks.json`` and ``split_tasks.json``."""
    task_list = [task.model_dump(mode="json", exclude_none=True) for task in tasks]
    tasks_text = json.dumps(task_list, ensure_ascii=False, separators=(",", ":")) + "\n"
    return tasks_text, json.dumps(splits, indent=1) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate the shipped task files (``--check`` only compares)."""
    from tau_env.data_files import BUILTIN_FILES
    from tau_env.domains.telecom import builtin_databases

    args = list(sys.argv[1:] if argv is None else argv)
    tasks, splits = generate(builtin_databases())
    tasks_text, splits_text = render(tasks, splits)
    folder = Path(str(resources.files("tau_env.domains.telecom").joinpath("data")))
    targets = {
        folder / BUILTIN_FILES["tasks"]: tasks_text,
        folder / BUILTIN_FILES["splits"]: splits_text,
    }
    if "--check" in args:
        stale = [path.name for path, text in targets.items() if path.read_text() != text]
        print("stale: " + ", ".join(stale) if stale else "up to date")
        return 1 if stale else 0
    for path, text in targets.items():
        path.write_text(text, encoding="utf-8")
    counts = {split: len(ids) for split, ids in splits.items()}
    print(f"wrote {len(tasks)} verified tasks; splits {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
