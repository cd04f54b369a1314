"""Why episodes failed: by the grader (reward-basis component) that failed, and by termination.

An episode that ended with a stop (``user_stop``/``agent_stop``) is graded: its reward is the
product of its basis components, and each component below 1 is a failed grader. Any other
ending (step limit, too many errors, a participant's error) scores 0 without grading; such
episodes are counted under their termination reason, not under a grader. Episodes that wait
for a judge (no reward) are neither passes nor failures: they are counted apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tau_env.metrics import is_success
from tau_env.store.records import EpisodeRecord

__all__ = [
    "NOT_GRADED",
    "UNATTRIBUTED",
    "FailureBreakdown",
    "TerminationCount",
    "failed_graders",
    "failure_breakdown",
]

NOT_GRADED = "not graded (ended early)"
"""The grader row for failed episodes that ended without a stop, so nothing graded them."""

UNATTRIBUTED = "no failed grader recorded"
"""The grader row for graded failures whose stored grade names no failed component."""

_TOLERANCE = 1e-6


@dataclass(frozen=True)
class TerminationCount:
    """Episodes that ended one way, and how many of them failed."""

    episodes: int = 0
    failed: int = 0


@dataclass(frozen=True)
class FailureBreakdown:
    """The failures of one run.

    Attributes:
        episodes: Episodes in the run.
        failed: Episodes with a reward below 1.
        not_judged: Episodes without reward (NL assertions waiting for a judge).
        by_grader: Basis component (or `NOT_GRADED`, `UNATTRIBUTED`) -> failed episodes it
            failed. An episode can fail several components, so the counts may add up to more
            than `failed`.
        by_termination: Termination reason -> its episodes and failures.
    """

    episodes: int
    failed: int
    by_grader: dict[str, int] = field(default_factory=dict)
    not_judged: int = 0
    by_termination: dict[str, TerminationCount] = field(default_factory=dict)


def failed_graders(grade: dict[str, Any]) -> list[str]:
    """The basis components of a stored grade whose reward is below 1."""
    breakdown: dict[str, float] = grade.get("breakdown") or {}
    return [name for name, value in breakdown.items() if value < 1.0 - _TOLERANCE]


def failure_breakdown(records: Iterable[EpisodeRecord]) -> FailureBreakdown:
    """Count a run's failures by grader and by termination reason."""
    episodes = failed = not_judged = 0
    graders: Counter[str] = Counter()
    ended: Counter[str] = Counter()
    ended_failed: Counter[str] = Counter()
    for record in records:
        episodes += 1
        ended[record.termination] += 1
        if record.reward is None:
            not_judged += 1
            continue
        if is_success(record.reward):
            continue
        failed += 1
        ended_failed[record.termination] += 1
        names = failed_graders(record.grade)
        if not names:
            names = [NOT_GRADED if record.grade.get("reward_basis") is None else UNATTRIBUTED]
        graders.update(names)
    return FailureBreakdown(
        episodes=episodes,
        failed=failed,
        by_grader=dict(graders.most_common()),
        not_judged=not_judged,
        by_termination={
            reason: TerminationCount(episodes=count, failed=ended_failed[reason])
            for reason, count in ended.most_common()
        },
    )
