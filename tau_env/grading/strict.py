"""The strict reading of a grade: the strict rules, and the task's own listed checks.

The reference grades a task only on its ``reward_basis``; checks a task lists outside it
are diagnostics. Some official tasks pass for an agent that does nothing because of that:
a refusal task whose NL assertion ("the agent refuses...") is outside the basis, a task that
lists gold actions without ACTION in the basis. Others pass for an agent that games the
reference's rules: ACTION compares only the keys a call has (``{}`` matches), COMMUNICATE is a
substring ("2" in "24"), a transfer nobody planned costs nothing. The strict reading
(``grading="strict"``, ``--grading strict``):

- reads DB, ACTION and COMMUNICATE with the strict rules (`tau_env.grading.strict_graders`:
  every argument compared, failed calls never match, whole words said after the look-ups,
  no forbidden fact, no hand-over the gold plan does not make);
- multiplies in every check the task lists: ACTION when it lists gold actions, COMMUNICATE
  when it lists information to communicate or facts not to say, NL_ASSERTION when it lists
  assertions and a judge is given (without a judge they stay out).

For official data it is opt-in and reported beside the official score, never instead of it:
the reward an env gives, a run stores and pass^k counts stays the reference's. Built-in
tasks say ``grading: "strict"`` in their criteria: their official reward is already read
with the strict rules (over their own basis). Both readings grade the same episode, so strict
<= official always holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from tau_env.grading.outcome import Check, Grade
from tau_env.tasks.model import RewardType, Task

__all__ = [
    "GRADINGS",
    "Grading",
    "StrictReading",
    "check_grading",
    "read_strictly",
    "strict_basis",
]

Grading = Literal["official", "strict"]
"""How scores are read: the reference's reward basis only, or with the strict reading beside."""

GRADINGS: tuple[Grading, ...] = ("official", "strict")
"""Every grading name, for command lines and help texts."""


def check_grading(grading: str) -> Grading:
    """`grading` if it is a known grading name.

    Raises:
        ValueError: Another name (the message lists the known ones).
    """
    if grading == "official":
        return "official"
    if grading == "strict":
        return "strict"
    raise ValueError(f"grading must be one of {list(GRADINGS)}, actually: {grading!r}")


def strict_basis(task: Task, *, judged: bool) -> list[RewardType]:
    """The task's reward basis plus every check it lists outside it.

    Args:
        task: The task.
        judged: A judge is given, so listed NL assertions join the basis.
    """
    basis = list(task.reward_basis)
    criteria = task.evaluation_criteria
    if criteria is None:
        return basis
    listed: list[tuple[RewardType, bool]] = [
        ("ACTION", bool(criteria.actions)),
        ("COMMUNICATE", bool(criteria.communicate_info) or bool(criteria.forbidden_info)),
        ("NL_ASSERTION", bool(criteria.nl_assertions) and judged),
    ]
    basis += [
        component for component, listed_here in listed if listed_here and component not in basis
    ]
    return basis


@dataclass(frozen=True)
class StrictReading:
    """An episode's grade under the strict reading.

    Attributes:
        reward: Product of the strict basis' checks; None when one of them was not judged
            (NL assertions that no judge ruled on) and none of the others scored 0.
        basis: The strict basis (the official one first, then the added checks).
        added: The components the strict reading added to the official basis.
        failed: Components of the strict basis whose check is below 1.
        not_judged: Components of the strict basis without a ruling.
    """

    reward: float | None
    basis: tuple[RewardType, ...] = ()
    added: tuple[RewardType, ...] = ()
    failed: tuple[RewardType, ...] = ()
    not_judged: tuple[RewardType, ...] = field(default=())

    @property
    def success(self) -> bool:
        """Reward within 1e-6 of 1 (never without a reward), as the official rule."""
        return self.reward is not None and abs(self.reward - 1.0) <= 1e-6

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields (for ``infos``, stores and reports)."""
        return {
            "reward": self.reward,
            "basis": list(self.basis),
            "added": list(self.added),
            "failed": list(self.failed),
            "not_judged": list(self.not_judged),
        }


def read_strictly(grade: Grade | Mapping[str, Any], task: Task, *, judged: bool) -> StrictReading:
    """The strict reading of a finished episode's grade.

    Uses only the checks the grade already holds (the graders run every check outside the
    basis as a diagnostic, NL assertions only under a strict `TaskGrader` with a judge; a
    strict `TaskGrader` adds the strict rules' checks of a task read with the reference's, in
    ``strict_checks``, read together with the reference's: strict never passes more): nothing
    is graded again. A check without a ruling leaves the reading without a reward, unless
    another check scored 0 and the official grade has a reward (then it is 0).

    Args:
        grade: The episode's grade, or its JSON dump (as stored).
        task: The task played.
        judged: A judge was given (listed NL assertions are then part of the strict basis).
    """
    if isinstance(grade, Grade):
        official_basis = grade.reward_basis
        reward = grade.reward
        checks: Mapping[str, Any] = grade.checks if official_basis is not None else {}
        stricter: Mapping[str, Any] = grade.strict_checks
    else:
        official_basis = grade.get("reward_basis")
        reward = grade.get("reward")
        checks = grade.get("checks") or {}
        stricter = grade.get("strict_checks") or {}

    if official_basis is None:  # ended before a stop: 0 under every reading
        return StrictReading(reward=reward)
    basis = strict_basis(task, judged=judged)
    product = 1.0
    failed: list[RewardType] = []
    not_judged: list[RewardType] = []
    for component in basis:
        value = _reward_of(checks.get(component))
        if component in stricter:  # read with both rules: strict never passes more
            strict_value = _reward_of(stricter[component])
            value = None if value is None or strict_value is None else min(value, strict_value)
        if value is None:
            not_judged.append(component)
            continue
        if value < 1.0 - 1e-6:
            failed.append(component)
        product *= value
    added = tuple(component for component in basis if component not in official_basis)
    # A check that scored 0 decides the product (what was not judged cannot change it),
    # unless the official grade itself waits for a judge: the strict reading never claims
    # a ruling the official one lacks, so both count the same episodes.
    decided = product == 0.0 and reward is not None
    return StrictReading(
        reward=None if not_judged and not decided else product,
        basis=tuple(basis),
        added=added,
        failed=tuple(failed),
        not_judged=tuple(not_judged),
    )


def _reward_of(check: Check | Mapping[str, Any] | None) -> float | None:
    if check is None:
        return None
    if isinstance(check, Check):
        return check.reward
    value = check.get("reward")
    return None if value is None else float(value)
