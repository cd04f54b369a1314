"""Training rewards chosen by name, from a `Grade`, and which tasks need a judge for one.

- ``"binary"`` (default): the benchmark's reward, the product of the reward-basis checks (1 or
  0), what pass^k counts.
- ``"partial"``: the fraction of the basis's items that are met. An item is one gold action,
  one env assertion, one piece of information to communicate, one NL assertion; the DB
  comparison is one item. Partial credit for a policy that gets some of the way.
- ``"breakdown"``: the binary reward, plus the per-check vector (`reward_breakdown`: each
  basis component -> the fraction of its items met) in the episode's info / metadata on every
  route, for trainers that weigh the checks themselves.

An episode that ended without a stop (step limit, errors) scores 0 on every scale, as in the
benchmark. A reward that needs an NL judge and got no ruling is None on every scale (never 0):
the routes refuse such tasks without a judge (`needs_nl_judge`, `has_nl_judge`), so None means the
judge failed. The grader does not ask the judge when another check is already 0 (the binary
reward is 0 whatever it says); partial credit and the breakdown need its verdict all the same
(`with_skipped_verdicts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, get_args

from tau_env.errors import LLMError
from tau_env.grading.grader import combine
from tau_env.grading.nl_assertions import (
    Judge,
    assertions_of,
    judge_call_saved,
    judge_name,
    ruled_check,
    unjudged_check,
)
from tau_env.grading.outcome import Grade
from tau_env.messages import Message
from tau_env.tasks.model import Task

__all__ = [
    "REWARDS",
    "RewardKind",
    "check_reward",
    "has_nl_judge",
    "needs_nl_judge",
    "reward_breakdown",
    "reward_of",
    "with_skipped_verdicts",
]

RewardKind = Literal["binary", "partial", "breakdown"]
REWARDS: tuple[str, ...] = get_args(RewardKind)


def check_reward(kind: str) -> RewardKind:
    """`kind`, checked.

    Raises:
        ValueError: Not one of `REWARDS`.
    """
    if kind not in REWARDS:
        raise ValueError(f"reward must be one of {list(REWARDS)}, actually: {kind!r}")
    return kind  # type: ignore[return-value]  # checked above


def reward_of(grade: Grade, kind: RewardKind = "binary") -> float | None:
    """The episode's reward on the named scale (None: an NL judge's ruling is missing)."""
    if kind != "partial":
        return grade.reward
    counts = _item_counts(grade)
    if counts is None:
        return None
    met = sum(m for m, _ in counts.values())
    total = sum(n for _, n in counts.values())
    return met / total if total else float(grade.reward or 0.0)


def reward_breakdown(grade: Grade) -> dict[str, float | None]:
    """Each reward-basis component -> the fraction of its items met (None: not judged).

    Empty for an episode that ended without a stop (nothing was checked).
    """
    breakdown: dict[str, float | None] = {}
    for component in grade.reward_basis or ():
        check = grade.checks[component]
        items = [d.get("met") for d in check.details if "met" in d]
        if check.reward is None:
            breakdown[component] = None
        elif items:
            breakdown[component] = sum(bool(m) for m in items) / len(items)
        else:
            breakdown[component] = float(check.reward)
    return breakdown


def _item_counts(grade: Grade) -> dict[str, tuple[int, int]] | None:
    """(met, total) items per basis component; None when one was not judged."""
    counts: dict[str, tuple[int, int]] = {}
    for component in grade.reward_basis or ():
        check = grade.checks[component]
        if check.reward is None:
            return None
        if not check.reported:  # nothing to compare (the reference leaves it out)
            continue
        items = [d["met"] for d in check.details if "met" in d]
        if items:
            counts[component] = (sum(bool(m) for m in items), len(items))
        else:
            counts[component] = (int(check.reward >= 1.0), 1)
    return counts


def with_skipped_verdicts(
    grade: Grade, trajectory: Sequence[Message], task: Task, judge: Judge | None
) -> Grade:
    """`grade` with the NL assertions the grader did not ask about judged after all.

    The grader skips the judge when another check is 0 (`judge_call_saved`): the binary reward
    is 0 whatever the verdict, but partial credit counts each assertion. Unchanged when nothing
    was skipped or there is no judge; a judge that fails leaves them not judged.
    """
    if judge is None or not judge_call_saved(grade):
        return grade
    assertions = assertions_of(task)
    try:
        check = ruled_check(assertions, judge(trajectory, assertions))
    except LLMError as error:
        check = unjudged_check(assertions, f"{type(error).__name__}: {error}")
    checks = {**grade.checks, "NL_ASSERTION": check}
    ruled = judge_name(judge) if check.judged else None
    return combine(grade.termination, grade.reward_basis or [], checks, judge=ruled)


def needs_nl_judge(task: Task) -> bool:
    """True when the task's reward depends on NL assertions (only a judge can rule on them)."""
    criteria = task.evaluation_criteria
    return bool(
        criteria is not None and "NL_ASSERTION" in criteria.reward_basis and criteria.nl_assertions
    )


def has_nl_judge(grader: Any) -> bool:
    """True when `grader` (a `TaskGrader` or a custom one) can rule on NL assertions.

    A grader whose NL_ASSERTION grader has ``judge`` None cannot; a custom NL grader without a
    ``judge`` attribute is trusted to rule.
    """
    graders = getattr(grader, "graders", None)
    if graders is None:
        return getattr(grader, "judge", True) is not None
    for component in graders:
        if getattr(component, "component", None) == "NL_ASSERTION":
            return getattr(component, "judge", True) is not None
    return False
