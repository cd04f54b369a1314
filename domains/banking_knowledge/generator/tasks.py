"""Drawing the built-in task set family by family, and its train/test split by family."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tau_env.domains.banking_knowledge.generator.context import Context
from tau_env.domains.banking_knowledge.generator.drafts import Draft
from tau_env.domains.banking_knowledge.generator.forbidden import forbidden_facts, refuses
from tau_env.domains.banking_knowledge.generator.kinds_card_services import CARD_SERVICE_KINDS
from tau_env.domains.banking_knowledge.generator.kinds_cards import CARD_KINDS
from tau_env.domains.banking_knowledge.generator.kinds_checking import CHECKING_KINDS
from tau_env.domains.banking_knowledge.generator.kinds_debit import DEBIT_KINDS
from tau_env.domains.banking_knowledge.generator.kinds_debit_issues import DEBIT_ISSUE_KINDS
from tau_env.domains.banking_knowledge.generator.kinds_profile import PROFILE_KINDS
from tau_env.domains.banking_knowledge.generator.kinds_savings import DEPOSIT_KINDS, SAVINGS_KINDS
from tau_env.domains.banking_knowledge.generator.products import FAMILIES, TEST_FAMILIES

__all__ = ["FAMILY_KINDS", "Kind", "draw_tasks", "family_of", "split_tasks"]

Kind = Callable[[Context, str, int], Draft | None]

FAMILY_KINDS: dict[str, tuple[tuple[Kind, int], ...]] = {
    "everyday_checking": (*CHECKING_KINDS, *DEBIT_KINDS, *DEBIT_ISSUE_KINDS, *DEPOSIT_KINDS),
    "premier_checking": (*CHECKING_KINDS, *DEBIT_KINDS, *DEBIT_ISSUE_KINDS, *DEPOSIT_KINDS),
    "savings": (*SAVINGS_KINDS, *DEPOSIT_KINDS),
    "cashback_cards": (*CARD_KINDS, *CARD_SERVICE_KINDS),
    "travel_cards": (*CARD_KINDS, *CARD_SERVICE_KINDS),
    "business_cards": (*CARD_KINDS, *CARD_SERVICE_KINDS),
    "starter_cards": (*CARD_KINDS, *CARD_SERVICE_KINDS),
    "profile": PROFILE_KINDS,
}
"""Each family's task kinds with the number of tasks drawn from each."""

ATTEMPTS_PER_TASK = 4
"""A kind may decline an index (no product fits that variant): it gets this many tries per task."""


def family_of(task_id: str) -> str:
    """The family of a generator's task name (``<family>-<kind>-<n>``)."""
    return task_id.split("-", 1)[0]


def draw_tasks(
    ctx: Context,
    scale: float = 1.0,
    documents: Mapping[str, str] | None = None,
    policy: str = "",
    families: Sequence[str] = FAMILIES,
) -> list[dict[str, Any]]:
    """Every family's tasks, in family order, as task objects named ``<family>-<kind>-<n>``.

    The names are the generator's own (the split reads the family from them); `generate` then
    gives the tasks their plain ids.

    Args:
        ctx: The context (its random source is consumed in a fixed order).
        scale: Multiplies every kind's quota (at least one task per kind).
        documents: Document id -> text: a refusing task must not name the tools they and
            `policy` name (`forbidden.forbidden_facts`; none without).
        policy: The agent's policy.
        families: The product families to draw (default: all, in `FAMILIES` order).
    """
    tasks: list[dict[str, Any]] = []
    for family in families:
        numbers: Counter[str] = Counter()
        for kind, quota in FAMILY_KINDS[family]:
            wanted = max(1, round(quota * scale))
            made = 0
            for index in range(wanted * ATTEMPTS_PER_TASK):
                if made == wanted:
                    break
                drafted = kind(ctx, family, index)
                if drafted is None:
                    continue
                made += 1
                task_id = f"{family}-{drafted.kind}-{numbers[drafted.kind]}"
                numbers[drafted.kind] += 1
                if refuses(drafted.kind):
                    drafted.forbidden = forbidden_facts(drafted, documents or {}, policy)
                tasks.append(drafted.to_task(task_id))
    return tasks


def split_tasks(task_ids: Sequence[str]) -> dict[str, list[str]]:
    """``base`` (every task), ``train`` and ``test`` (whole families, none of them in train)."""
    test = [i for i in task_ids if family_of(i) in TEST_FAMILIES]
    train = [i for i in task_ids if family_of(i) not in TEST_FAMILIES]
    return {"base": list(task_ids), "train": train, "test": test}
