"""Training rewards chosen by name, from a `Grade`, and which tasks need a judge for one.

- ``"binary"`` (default): the benchmark's reward, the product of the reward-basis checks (1 or
  0), what pass^k counts.
- ``"partial"``: the fraction of the basis's items that are met, less one item's worth per
  constraint broken (never below 0). An item is something an agent can fail by doing
  nothing: one gold action, one piece of information to communicate, one NL assertion, one
  env assertion that does not hold at the start, the database when the gold plan changes it,
  the hand-over when the gold plan makes one. A constraint is met by doing nothing and only
  takes credit away: a fact the agent must not say, an env assertion that held at the start,
  the database when the task changes nothing, no hand-over the gold plan does not make.
  A check with nothing in it is no item. An episode with no item at all scores its binary
  reward. Partial credit for a policy that gets some of the way, none for doing nothing.
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

from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple, get_args

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
from tau_env.grading.outcome import Check, Grade
from tau_env.messages import Message
from tau_env.tasks.model import Task

__all__ = [
    "REWARDS",
    "RewardKind",
    "check_reward",
    "has_nl_judge",
    "needs_nl_judge",
    "partial_items",
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
    counted = _counted(grade)
    if counted is None:
        return None
    met = sum(c.met for c in counted.values())
    total = sum(c.items for c in counted.values())
    broken = sum(c.broken for c in counted.values())
    if not total:
        return float(grade.reward or 0.0)
    return max(0.0, met - broken) / total


def reward_breakdown(grade: Grade) -> dict[str, float | None]:
    """Each reward-basis component -> its partial credit (None: not judged).

    The fraction of its items met less its broken constraints (never below 0); a component
    with no item gives its check's reward (0 when it broke a constraint). Empty for an
    episode that ended without a stop (nothing was checked).
    """
    breakdown: dict[str, float | None] = {}
    for component in grade.reward_basis or ():
        check = grade.checks[component]
        if check.reward is None:
            breakdown[component] = None
            continue
        counted = _count(check)
        if counted.items:
            breakdown[component] = max(0.0, counted.met - counted.broken) / counted.items
        else:
            breakdown[component] = float(check.reward)
    return breakdown


def partial_items(grade: Grade) -> list[dict[str, Any]]:
    """Every item and constraint of the basis checks, named, for reports and research.

    Each entry: ``component``, ``name`` (what the check's detail names: the action id, the
    fact, the assertion, ``database``, ``handover``...), ``kind`` (``item`` or
    ``constraint``) and ``met`` (None: not judged).
    """
    entries = []
    for component in grade.reward_basis or ():
        check = grade.checks[component]
        if not check.reported:
            continue
        for detail in check.details:
            if "met" not in detail:
                continue
            entries.append(
                {
                    "component": component,
                    "name": _item_name(detail),
                    "kind": "constraint" if detail.get("constraint") else "item",
                    "met": detail["met"],
                }
            )
    return entries


_NAME_KEYS = (
    "action_id",
    "info",
    "forbidden",
    "assertion",
    "database",
    "handover",
)


def _item_name(detail: Mapping[str, Any]) -> str:
    for key in _NAME_KEYS:
        if key in detail:
            value = detail[key]
            return f"{key}: {value}" if key in ("database", "handover", "forbidden") else str(value)
    return "item"


class _Count(NamedTuple):
    met: int
    items: int
    broken: int


def _count(check: Check) -> _Count:
    """Items met, items, and constraints broken of one judged check.

    An item or constraint is a detail with ``met`` (``"constraint": True`` for the latter);
    a check with none is no item (an empty check), except the DB comparison of an episode
    graded without its task's baseline: one item, met when the check is.
    """
    met = items = broken = 0
    listed = False
    for detail in check.details:
        if "met" not in detail:
            continue
        listed = True
        if detail.get("constraint"):
            broken += not detail["met"]
        else:
            items += 1
            met += bool(detail["met"])
    if not listed and check.component == "DB":
        return _Count(int((check.reward or 0.0) >= 1.0), 1, 0)
    return _Count(met, items, broken)


def _counted(grade: Grade) -> dict[str, _Count] | None:
    """Per reported basis component, its count; None when one was not judged."""
    counts: dict[str, _Count] = {}
    for component in grade.reward_basis or ():
        check = grade.checks[component]
        if check.reward is None:
            return None
        if not check.reported:  # nothing to compare (the reference leaves it out)
            continue
        counts[component] = _count(check)
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
    return combine(
        grade.termination,
        grade.reward_basis or [],
        checks,
        judge=ruled,
        strict_checks=grade.strict_checks,
    )


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
