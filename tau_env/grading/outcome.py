"""Results of grading: one `Check` per component, combined into a `Grade`."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tau_env.tasks.model import RewardType

__all__ = ["STOP_TERMINATIONS", "Check", "Grade", "TerminationReason"]


class TerminationReason(StrEnum):
    """Why an episode ended (the reference's values)."""

    USER_STOP = "user_stop"
    AGENT_STOP = "agent_stop"
    MAX_STEPS = "max_steps"
    TOO_MANY_ERRORS = "too_many_errors"
    AGENT_ERROR = "agent_error"
    USER_ERROR = "user_error"
    INFRASTRUCTURE_ERROR = "infrastructure_error"


STOP_TERMINATIONS = frozenset({TerminationReason.USER_STOP, TerminationReason.AGENT_STOP})
"""The only endings that are graded; every other ending scores 0."""


class Check(BaseModel):
    """The outcome of one grading component.

    Attributes:
        component: Which check this is.
        reward: 1.0 when met, 0.0 when not (None when it could not be judged).
        details: Per-item results (which assertion, which action, which string...).
        reported: False when the check had nothing to compare: a task with neither gold
            actions nor env assertions gives DB and ENV_ASSERTION 1.0 without a breakdown
            entry, as the reference reports it.
    """

    model_config = ConfigDict(frozen=True)

    component: RewardType
    reward: float | None
    details: list[dict[str, Any]] = Field(default_factory=list)
    reported: bool = True

    @property
    def judged(self) -> bool:
        """False when the check could not run (an NL assertion without a judge)."""
        return self.reward is not None


class Grade(BaseModel):
    """The grade of one episode: the terminal reward and why.

    Attributes:
        reward: Product of the components in `reward_basis`; None when a basis component
            could not be judged (NL assertions without a working judge): such an episode has
            no reward, is never a pass and is left out of pass^k until it is judged.
        termination: How the episode ended.
        reward_basis: The components that gate the reward (None: ended prematurely).
        breakdown: Component -> its reward, for the basis components the reference reports.
        checks: Every component that ran, including diagnostics outside the basis.
        not_judged: Basis components that nothing could judge (why `reward` is None).
        judge: The judge that ruled on the NL assertions (a model name), when one did.
        note: Free text, e.g. why the episode scored 0 without grading.
    """

    model_config = ConfigDict(frozen=True)

    reward: float | None
    termination: TerminationReason
    reward_basis: list[RewardType] | None = None
    breakdown: dict[str, float] = Field(default_factory=dict)
    checks: dict[str, Check] = Field(default_factory=dict)
    not_judged: list[RewardType] = Field(default_factory=list)
    judge: str | None = None
    note: str | None = None

    @property
    def judged(self) -> bool:
        """True when every basis component was judged (the reward exists)."""
        return self.reward is not None

    @property
    def success(self) -> bool:
        """The reference's success rule: reward within 1e-6 of 1 (never for no reward)."""
        return self.reward is not None and abs(self.reward - 1.0) <= 1e-6

    def failed_components(self) -> list[str]:
        """Basis components whose reward is below 1."""
        return [name for name, value in self.breakdown.items() if value < 1.0 - 1e-6]
