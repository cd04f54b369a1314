"""NL_ASSERTION check: a judge decides whether natural-language outcomes hold."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tau_env.errors import LLMError
from tau_env.grading.context import Episode
from tau_env.grading.outcome import Check, Grade
from tau_env.messages import Message
from tau_env.tasks.model import Task

__all__ = [
    "UNNEEDED",
    "Judge",
    "NLAssertionGrader",
    "Verdict",
    "assertions_of",
    "judge_call_saved",
    "judge_name",
    "ruled_check",
    "unjudged_check",
    "unneeded_check",
]

UNNEEDED = "not asked: another component of the reward is 0, whatever the verdict"
"""Why a judge was not asked about an episode's NL assertions (`unneeded_check`)."""


@dataclass(frozen=True)
class Verdict:
    """A judge's ruling on one assertion."""

    assertion: str
    met: bool
    justification: str = ""


Judge = Callable[[Sequence[Message], Sequence[str]], Sequence[Verdict]]
"""Rules on every assertion given the conversation; injected (for example an `LLMJudge`).

A judge that cannot rule raises `tau_env.errors.LLMError` (an `InfrastructureError` such as
`JudgeError` after its retries): the assertions are then not judged, never passed."""


def judge_name(judge: object) -> str | None:
    """How a judge is recorded in grades: its ``name`` (a model) or its qualified name."""
    if judge is None:
        return None
    name = getattr(judge, "name", None)
    if isinstance(name, str):
        return name
    return getattr(judge, "__qualname__", type(judge).__qualname__)


def assertions_of(task: Task) -> list[str]:
    """The task's NL assertions (empty when it has none)."""
    criteria = task.evaluation_criteria
    return list((criteria.nl_assertions if criteria else None) or [])


def unjudged_check(assertions: Sequence[str], error: str | None = None) -> Check:
    """The check of assertions nothing could rule on (reward None), with the reason if any."""
    details: list[dict[str, Any]] = []
    for text in assertions:
        detail: dict[str, Any] = {"assertion": text, "met": None}
        if error:
            detail["error"] = error
        details.append(detail)
    return Check(component="NL_ASSERTION", reward=None, details=details)


def unneeded_check(assertions: Sequence[str]) -> Check:
    """The check of assertions no judge was asked about: no verdict could change the reward.

    Another basis component is already 0 (the reward is a product). Its reward is None like
    any unjudged check; the grade's reward is 0 all the same.
    """
    details = [{"assertion": text, "met": None, "skipped": UNNEEDED} for text in assertions]
    return Check(component="NL_ASSERTION", reward=None, details=details)


def judge_call_saved(grade: Grade | Mapping[str, Any]) -> bool:
    """True when a grade (or its dump) asked no judge about its NL assertions (`unneeded_check`).

    Its reward is 0 whatever the verdict: the count of such episodes is the judge calls saved.
    """
    if isinstance(grade, Grade):
        check = grade.checks.get("NL_ASSERTION")
        reward, details = (None, []) if check is None else (check.reward, check.details)
    else:
        dumped = (grade.get("checks") or {}).get("NL_ASSERTION") or {}
        reward, details = dumped.get("reward"), dumped.get("details") or []
    return reward is None and any(d.get("skipped") == UNNEEDED for d in details)


def ruled_check(assertions: Sequence[str], verdicts: Sequence[Verdict]) -> Check:
    """The check from a judge's verdicts: met only when every assertion has a verdict of met.

    Unlike the reference, an assertion the judge skipped counts as not met (its empty
    ruling would pass).
    """
    by_text = {verdict.assertion: verdict for verdict in verdicts}
    details: list[dict[str, Any]] = []
    for text in assertions:
        verdict = by_text.get(text)
        details.append(
            {
                "assertion": text,
                "met": bool(verdict and verdict.met),
                "justification": verdict.justification if verdict else "no verdict returned",
            }
        )
    reward = 1.0 if all(d["met"] for d in details) else 0.0
    return Check(component="NL_ASSERTION", reward=reward, details=details)


class NLAssertionGrader:
    """Asks an injected judge about each ``nl_assertions`` entry.

    Without a judge, or when the judge fails (provider outage, no usable verdict after its
    retries), the check is reported as not judged (reward None) rather than guessed: the
    episode then has no reward until a judge rules (``tau-env resume --judge-model``).
    """

    component = "NL_ASSERTION"

    def __init__(self, judge: Judge | None = None) -> None:
        self.judge = judge

    def check(self, episode: Episode) -> Check:
        """Grade one episode."""
        assertions = assertions_of(episode.task)
        if not assertions:
            return Check(component="NL_ASSERTION", reward=1.0)
        if self.judge is None:
            return unjudged_check(assertions)
        try:
            verdicts = self.judge(episode.trajectory, assertions)
        except LLMError as error:
            return unjudged_check(assertions, f"{type(error).__name__}: {error}")
        return ruled_check(assertions, verdicts)
