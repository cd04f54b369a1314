"""The built-in telecom task set: composed, split for generalization, verified.

``.ci/rewrite-builtin-data`` rewrites ``data/builtin_tasks.json`` and
``data/builtin_split_tasks.json``; a test checks that the shipped files equal a fresh generation.
``tau-env generate --domain telecom`` writes sets of any size (``python -m
tau_env.domains.telecom.tasks.generate`` is an alias of it).

Splits test generalization, not recall:

- ``train``: customers `TRAIN_CUSTOMERS`, personas None and Easy, and never an issue of
  `HELD_OUT_ISSUES`.
- ``test``: other customers (`TEST_CUSTOMERS`), personas None and Easy; about half of its
  tasks contain an issue type absent from ``train`` (each has a sibling in ``train`` that the
  same steps fix: a PUK lock like a PIN lock, both roaming switches off like either one, both
  messaging permissions missing like one), the rest combinations of issues ``train`` never
  has (blueprints are split between the two).
- ``test_ood``: drawn as ``test`` but with the Hard persona, which the scripted user plays as
  a novice (paraphrases, omissions, mistakes; `tau_env.wrappers.users.style`).
- ``base``: all of them.

Per intent, tasks are drawn bin by bin (bins = number of issues, so easy and hard tasks both
appear), preferring fixable blueprints four times out of five, with a random customer of the
split, persona and travel destination, and 0 to 2 harmless settings the customer keeps
(`settings.SETTINGS`, at least one in four tasks out of five): fixing those fails the DB check.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from tau_env.domain import DomainData
from tau_env.domains.opaque_ids import opaque_ids, renamed
from tau_env.domains.telecom.tasks.build import Verifier, build_task
from tau_env.domains.telecom.tasks.compose import Blueprint, compose
from tau_env.domains.telecom.tasks.intents import INTENTS
from tau_env.domains.telecom.tasks.personas import PERSONAS, Persona
from tau_env.domains.telecom.tasks.scenario import Scenario
from tau_env.domains.telecom.tasks.settings import SETTINGS, Setting
from tau_env.tasks.model import Task

__all__ = [
    "HELD_OUT_ISSUES",
    "SCENARIO_CUSTOMERS",
    "SPLIT_SIZES",
    "TEST_CUSTOMERS",
    "TRAIN_CUSTOMERS",
    "compose_all",
    "generate",
    "load_scenarios",
    "render",
]

SEED = 2025
TRAIN_CUSTOMERS = ("C2001", "C2003", "C2004")
"""Customers of training tasks (their first line, or the line with their own number)."""
TEST_CUSTOMERS = ("C2008", "C2009", "C2010")
"""Customers of test tasks: never seen in training."""
SCENARIO_CUSTOMERS = TRAIN_CUSTOMERS + TEST_CUSTOMERS
"""Every customer a task may concern (each has a draft bill, so refuels create no random id)."""

HELD_OUT_ISSUES = frozenset(
    {"lock_sim_card_puk", "user_abroad_roaming_disabled_off", "break_app_both_permissions"}
)
"""Issue types that appear in the test splits only."""

DESTINATIONS = ("Portugal", "Japan", "Mexico", "Italy", "Canada", "Kenya", "Norway", "Chile")
"""Where travelling users are."""

SPLIT_SIZES: dict[str, dict[str, int]] = {
    "train": {"service_issue": 60, "mobile_data_issue": 100, "mms_issue": 140},
    "test": {"service_issue": 24, "mobile_data_issue": 40, "mms_issue": 56},
    "test_ood": {"service_issue": 12, "mobile_data_issue": 20, "mms_issue": 28},
}
"""Tasks per split and intent."""

SPLIT_PERSONAS = {"train": ("None", "Easy"), "test": ("None", "Easy"), "test_ood": ("Hard",)}
"""Personas (labels) per split."""

TEST_POOL_SHARE = 0.35
"""Share of the blueprints without held-out issues that only the test splits use."""
NOVEL_SHARE = 0.5
"""Share of test tasks drawn from blueprints with a held-out issue."""
FIXABLE_PREFERENCE = 0.8
ATTEMPTS_PER_TASK = 50
"""Draws per wanted task before a pool counts as exhausted (a repeat is drawn again)."""
SETTING_COUNTS = ((0, 0.2), (1, 0.5), (2, 0.3))
"""How many harmless settings a task gets, with their chances."""

_STATES = {"TX": "Texas", "OR": "Oregon", "OH": "Ohio", "WI": "Wisconsin", "CA": "California"}


def load_scenarios(data: DomainData) -> list[Scenario]:
    """The scenario customers of the built-in database, with the line of their own number."""
    customers: Any = data.agent_snapshot.records["customers"]
    lines: Any = data.agent_snapshot.records["lines"]
    plans = data.agent_snapshot.records["plans"]
    scenarios = []
    for customer_id in SCENARIO_CUSTOMERS:
        customer: Any = customers[customer_id]
        own = [i for i in customer.line_ids if lines[i].phone_number == customer.phone_number]
        line: Any = lines[(own or customer.line_ids)[0]]
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


def _options(blueprint: Blueprint) -> list[Setting]:
    """The harmless settings a task of the blueprint may keep (none touching its issues)."""
    names = {issue.name for issue in blueprint.issues}
    return [
        setting
        for setting in SETTINGS
        if blueprint.intent.name in setting.benign_for and not setting.conflicts & names
    ]


_COUNTS, _COUNT_WEIGHTS = zip(*SETTING_COUNTS, strict=True)
_COUNT_CUMULATIVE = list(itertools.accumulate(_COUNT_WEIGHTS))  # what `choices` sums per call


def _settings(options: Sequence[Setting], rng: random.Random) -> tuple[Setting, ...]:
    """0 to 2 of a blueprint's harmless settings (`_options`), none in conflict."""
    wanted = rng.choices(_COUNTS, cum_weights=_COUNT_CUMULATIVE)[0]
    chosen: list[Setting] = []
    for setting in rng.sample(options, len(options)):
        if len(chosen) == wanted:
            break
        if not any(setting.conflicts & other.conflicts for other in chosen):
            chosen.append(setting)
    return tuple(sorted(chosen, key=lambda setting: setting.name))


def _setting_choices(options: Sequence[Setting]) -> int:
    """How many different results `_settings` can give: none, one, or two not in conflict."""
    pairs = sum(1 for a, b in itertools.combinations(options, 2) if not a.conflicts & b.conflicts)
    return 1 + len(options) + pairs


_Key = tuple[str, str, str, tuple[str, ...]]
"""What tells drawn tasks apart: blueprint, persona (or ``""``), customer and settings."""


def _draw(
    pools: Sequence[Sequence[Blueprint]],
    shares: Sequence[float],
    count: int,
    scenarios: Sequence[Scenario],
    personas: Sequence[Persona],
    rng: random.Random,
    seen: set[_Key],
    *,
    by_persona: bool = True,
) -> list[Task]:
    """`count` tasks from the pools (chosen with `shares`), bin by bin, without repeats.

    `seen`: the tasks drawn before (a repeat of one is drawn again, and the new tasks are
    added). `by_persona`: whether a task that differs from one of them only in its persona
    is new. Fewer tasks when every distinct one of the pools is drawn, or when
    `ATTEMPTS_PER_TASK` draws per task find no new one.
    """
    binned = []
    for pool in pools:
        bins: dict[tuple[int, bool], list[Blueprint]] = defaultdict(list)
        for blueprint in pool:
            bins[(len(blueprint.issues), blueprint.fixable)].append(blueprint)
        sizes = sorted({size for size, _ in bins})
        binned.append((bins, {key: list(members) for key, members in bins.items()}, sizes))
    options = {id(b): _options(b) for pool in pools for b in pool}  # read on every draw
    cumulative = list(itertools.accumulate(shares))  # as `choices` sums them on every draw
    variants = len(scenarios) * (len(personas) if by_persona else 1)
    distinct = variants * sum(_setting_choices(found) for found in options.values())
    tasks: list[Task] = []
    attempts = 0
    while len(tasks) < count and len(seen) < distinct and attempts < count * ATTEMPTS_PER_TASK:
        attempts += 1
        bins, unused, sizes = rng.choices(binned, cum_weights=cumulative)[0]
        size = rng.choice(sizes)
        fixable = rng.random() < FIXABLE_PREFERENCE
        key = (size, fixable) if (size, fixable) in bins else (size, not fixable)
        if unused[key]:
            blueprint = unused[key].pop(rng.randrange(len(unused[key])))
        else:
            blueprint = rng.choice(bins[key])
        persona, scenario = rng.choice(personas), rng.choice(scenarios)
        location = _location(blueprint, scenario, rng)
        settings = _settings(options[id(blueprint)], rng)
        label = persona.label if by_persona else ""
        name = (blueprint.name, label, scenario.customer_id, tuple(s.name for s in settings))
        if name not in seen:  # a repeat is never built (a large set draws many)
            seen.add(name)
            tasks.append(build_task(blueprint, persona, scenario, location, settings))
    return tasks


def generate(
    data: DomainData,
    seed: int = SEED,
    sizes: Mapping[str, Mapping[str, int]] = SPLIT_SIZES,
    *,
    verify: bool = True,
    distinct_by_persona: bool = True,
) -> tuple[list[Task], dict[str, list[str]]]:
    """The built-in tasks and splits, each task verified by replaying its gold plan.

    Args:
        data: The built-in telecom data (its databases; its tasks are ignored).
        seed: Seeds every random choice; the same seed gives the same tasks.
        sizes: Tasks per split and intent (default `SPLIT_SIZES`; an intent left out of a
            split gets none there).
        verify: Replay every task's gold plan (`Verifier`); False leaves it to the caller.
        distinct_by_persona: A task that differs from another only in its persona is a new
            one (the built-in set's rule). False: it is a repeat, never drawn, in ``test``
            and ``test_ood`` together too (same world, plan and checks: ``tau-env generate``
            would remove it as a duplicate).

    Returns:
        The tasks, with plain ids ``telecom/<split>/<NNNN>`` (`tau_env.domains.opaque_ids`;
        intent and parameters in each task's description), in the order of ``base`` (train,
        test, then test_ood), and the splits ``base``, ``train``, ``test``, ``test_ood``.

    Raises:
        GenerationError: A task fails verification.
    """
    scenarios = {s.customer_id: s for s in load_scenarios(data)}
    customers = {
        "train": [scenarios[c] for c in TRAIN_CUSTOMERS],
        "test": [scenarios[c] for c in TEST_CUSTOMERS],
    }
    verifier = Verifier(data)
    splits: dict[str, list[Task]] = {"test": [], "test_ood": [], "train": []}
    for name, blueprints in compose_all().items():
        rng = random.Random(f"{seed}:{name}")
        novel = [b for b in blueprints if any(i.name in HELD_OUT_ISSUES for i in b.issues)]
        held = {id(b) for b in novel}  # by identity: comparing blueprints field by field is slow
        familiar = [b for b in blueprints if id(b) not in held]
        rng.shuffle(familiar)
        cut = round(len(familiar) * TEST_POOL_SHARE)
        tested: set[_Key] = set()  # test and test_ood draw from the same pools and customers
        for split in ("test", "test_ood", "train"):
            personas = [p for p in PERSONAS if p.label in SPLIT_PERSONAS[split]]
            if split == "train":
                pools, shares = [familiar[cut:]], [1.0]
                people = customers["train"]
            else:
                pools, shares = [novel, familiar[:cut]], [NOVEL_SHARE, 1 - NOVEL_SHARE]
                people = customers["test"]
            size = sizes.get(split, {}).get(name, 0)
            seen = tested if split != "train" and not distinct_by_persona else set()
            splits[split] += _draw(
                pools, shares, size, people, personas, rng, seen, by_persona=distinct_by_persona
            )
    drawn = splits["test"] + splits["test_ood"] + splits["train"]
    for task in drawn if verify else ():
        verifier.verify(task)
    names = {split: [task.id for task in chosen] for split, chosen in splits.items()}
    new_ids, renamed_splits = opaque_ids(
        "telecom", {"base": [t.id for t in drawn], **{s: names[s] for s in SPLIT_SIZES}}, seed
    )
    return renamed(drawn, new_ids, renamed_splits["base"]), renamed_splits


def render(tasks: Sequence[Task], splits: dict[str, list[str]]) -> tuple[str, str]:
    """The contents of ``tasks.json`` and ``split_tasks.json``."""
    task_list = [task.model_dump(mode="json", exclude_none=True) for task in tasks]
    tasks_text = json.dumps(task_list, ensure_ascii=False, separators=(",", ":")) + "\n"
    return tasks_text, json.dumps(splits, indent=1) + "\n"


if __name__ == "__main__":  # an alias of `tau-env generate --domain telecom`
    from tau_env.domains.generator_options import generate_alias

    raise SystemExit(generate_alias("telecom"))
