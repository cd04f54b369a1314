"""Judging a graded episode's NL assertions later, from its conversation alone.

An episode graded without a judge (or whose judge failed) keeps every other check in its
grade; NL assertions look only at the conversation, so a judge can rule on them at any time
without replaying the episode. The result is the grade the episode would have had with that
judge from the start. A grade whose other components already give 0 is completed without
asking the judge (its reward is 0 whatever the verdict).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from tau_env.errors import LLMError
from tau_env.grading.grader import combine
from tau_env.grading.nl_assertions import (
    Judge,
    Verdict,
    assertions_of,
    judge_name,
    ruled_check,
    unjudged_check,
    unneeded_check,
)
from tau_env.grading.outcome import Check, Grade
from tau_env.messages import Message
from tau_env.tasks.model import Task

__all__ = ["arejudge", "needs_judge", "rejudge"]


def needs_judge(grade: Grade) -> bool:
    """True when the grade waits for a judge (its NL assertions were not judged)."""
    return "NL_ASSERTION" in grade.not_judged


def rejudge(grade: Grade, trajectory: Sequence[Message], task: Task, judge: Judge) -> Grade:
    """`grade` with its NL assertions judged by `judge` (unchanged when none wait).

    A failing judge leaves them not judged, with the error in the check.
    """
    if not needs_judge(grade):
        return grade
    assertions = assertions_of(task)
    if _decided(grade):
        return _with(grade, unneeded_check(assertions), None)
    try:
        verdicts = judge(trajectory, assertions)
    except LLMError as error:
        return _with(grade, unjudged_check(assertions, f"{type(error).__name__}: {error}"), None)
    return _with(grade, ruled_check(assertions, verdicts), judge_name(judge))


async def arejudge(grade: Grade, trajectory: Sequence[Message], task: Task, judge: Judge) -> Grade:
    """`rejudge` for async code: awaits the judge's ``ajudge`` (else runs it in a thread)."""
    if not needs_judge(grade):
        return grade
    assertions = assertions_of(task)
    if _decided(grade):
        return _with(grade, unneeded_check(assertions), None)
    ajudge = getattr(judge, "ajudge", None)
    try:
        verdicts: Sequence[Verdict]
        if ajudge is not None:
            verdicts = await ajudge(trajectory, assertions)
        else:
            verdicts = await asyncio.to_thread(judge, trajectory, assertions)
    except LLMError as error:
        return _with(grade, unjudged_check(assertions, f"{type(error).__name__}: {error}"), None)
    return _with(grade, ruled_check(assertions, verdicts), judge_name(judge))


def _decided(grade: Grade) -> bool:
    """True when another basis component is 0: no verdict can change the reward.

    (A grade stored before such episodes were given reward 0 without a judge.)
    """
    return any(value == 0.0 for value in grade.breakdown.values())


def _with(grade: Grade, check: Check, judge: str | None) -> Grade:
    if grade.reward_basis is None:  # cannot happen for a grade that waits for a judge
        raise ValueError("a grade without reward basis has nothing to judge")
    checks = {**grade.checks, "NL_ASSERTION": check}
    return combine(
        grade.termination,
        grade.reward_basis,
        checks,
        judge=judge,
        strict_checks=grade.strict_checks,
    )
