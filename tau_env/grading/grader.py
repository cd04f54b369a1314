"""The task grader: runs the component checks and multiplies those in the reward basis."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from tau_env.grading.actions import ActionGrader
from tau_env.grading.communicate import CommunicateGrader
from tau_env.grading.context import Episode
from tau_env.grading.db import DBGrader
from tau_env.grading.env_assertions import EnvAssertionGrader
from tau_env.grading.nl_assertions import Judge, NLAssertionGrader
from tau_env.grading.outcome import STOP_TERMINATIONS, Check, Grade

__all__ = ["ComponentGrader", "TaskGrader"]


class ComponentGrader(Protocol):
    """One check of the grade (DB, ENV_ASSERTION, COMMUNICATE, ACTION, NL_ASSERTION)."""

    component: str

    def check(self, episode: Episode) -> Check:
        """Grade one episode on this component."""
        ...


class TaskGrader:
    """Grades an episode as the reference's ``evaluate_simulation`` with ``ALL`` (spec §6).

    Any ending other than a stop scores 0 without grading. A task without criteria scores 1.
    DB, ENV_ASSERTION, ACTION and COMMUNICATE always run (diagnostics when outside the basis);
    NL_ASSERTION runs only when the basis names it, because it calls a judge. The reward is the
    product of the basis components that could be judged; the others are listed in
    ``Grade.not_judged``.

    Args:
        judge: Rules on natural-language assertions; None leaves them not judged.
        graders: Replaces the default component graders (for research on grading).
    """

    def __init__(
        self, judge: Judge | None = None, graders: Sequence[ComponentGrader] | None = None
    ) -> None:
        self.graders: tuple[ComponentGrader, ...] = tuple(
            graders
            or (
                DBGrader(),
                EnvAssertionGrader(),
                ActionGrader(),
                CommunicateGrader(),
                NLAssertionGrader(judge),
            )
        )

    def grade(self, episode: Episode) -> Grade:
        """Grade a finished episode."""
        if episode.termination not in STOP_TERMINATIONS:
            return Grade(
                reward=0.0,
                termination=episode.termination,
                note=f"Episode ended prematurely: {episode.termination.value}",
            )
        criteria = episode.task.evaluation_criteria
        if criteria is None:
            return Grade(reward=1.0, termination=episode.termination, note="no criteria")
        basis = list(criteria.reward_basis)
        checks: dict[str, Check] = {}
        for grader in self.graders:
            if grader.component == "NL_ASSERTION" and "NL_ASSERTION" not in basis:
                continue
            checks[grader.component] = grader.check(episode)
        missing = [component for component in basis if component not in checks]
        if missing:
            raise ValueError(f"no grader for reward basis components {missing}")
        reward = 1.0
        breakdown: dict[str, float] = {}
        not_judged = []
        for component in basis:
            value = checks[component].reward
            if value is None:
                not_judged.append(component)
                continue
            breakdown[component] = value
            reward *= value
        return Grade(
            reward=reward,
            termination=episode.termination,
            reward_basis=basis,
            breakdown=breakdown,
            checks=checks,
            not_judged=not_judged,
        )
