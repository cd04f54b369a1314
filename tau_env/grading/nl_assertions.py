"""NL_ASSERTION check: a judge decides whether natural-language outcomes hold."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tau_env.grading.context import Episode
from tau_env.grading.outcome import Check
from tau_env.messages import Message

__all__ = ["Judge", "NLAssertionGrader", "Verdict"]


@dataclass(frozen=True)
class Verdict:
    """A judge's ruling on one assertion."""

    assertion: str
    met: bool
    justification: str = ""


Judge = Callable[[Sequence[Message], Sequence[str]], Sequence[Verdict]]
"""Rules on every assertion given the conversation; injected (for example an LLM judge)."""


class NLAssertionGrader:
    """Asks an injected judge about each ``nl_assertions`` entry.

    Without a judge the check is reported as not judged (reward None) rather than guessed.
    Unlike the reference, an empty or incomplete ruling is a failure: every assertion needs
    its own verdict.
    """

    component = "NL_ASSERTION"

    def __init__(self, judge: Judge | None = None) -> None:
        self.judge = judge

    def check(self, episode: Episode) -> Check:
        """Grade one episode."""
        criteria = episode.task.evaluation_criteria
        assertions = (criteria.nl_assertions if criteria else None) or []
        if not assertions:
            return Check(component="NL_ASSERTION", reward=1.0)
        if self.judge is None:
            unjudged = [{"assertion": text, "met": None} for text in assertions]
            return Check(component="NL_ASSERTION", reward=None, details=unjudged)
        verdicts = {v.assertion: v for v in self.judge(episode.trajectory, assertions)}
        details: list[dict[str, Any]] = []
        for text in assertions:
            verdict = verdicts.get(text)
            details.append(
                {
                    "assertion": text,
                    "met": bool(verdict and verdict.met),
                    "justification": verdict.justification if verdict else "no verdict returned",
                }
            )
        reward = 1.0 if all(d["met"] for d in details) else 0.0
        return Check(component="NL_ASSERTION", reward=reward, details=details)
