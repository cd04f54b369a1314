"""Results of grading: one `Check` per component, combined into a `Grade`."""

from __future__ import annotations

from collections.abc import Callable, Generator
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tau_env.messages import trusted
from tau_env.tasks.model import RewardType

__all__ = ["STOP_TERMINATIONS", "Check", "Grade", "TerminationReason", "new_check"]

_get = object.__getattribute__
_set = object.__setattr__
_PENDING = "_pending_diagnostics"


class TerminationReason(StrEnum):
    """Why an episode ended (the reference's values).

    The last three are never produced by tau_env's own episodes; they appear in results files
    of the reference (``tau-env import``), and such episodes are graded 0 as every ending but
    a stop.
    """

    USER_STOP = "user_stop"
    AGENT_STOP = "agent_stop"
    MAX_STEPS = "max_steps"
    TOO_MANY_ERRORS = "too_many_errors"
    AGENT_ERROR = "agent_error"
    USER_ERROR = "user_error"
    INFRASTRUCTURE_ERROR = "infrastructure_error"
    TIMEOUT = "timeout"
    CONTEXT_WINDOW_EXCEEDED = "context_window_exceeded"
    UNEXPECTED_ERROR = "unexpected_error"


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


def new_check(
    component: RewardType,
    reward: float | None,
    details: list[dict[str, Any]] | None = None,
    *,
    reported: bool = True,
) -> Check:
    """A `Check` from values already of their fields' types (a grader's own), not validated.

    Equal to ``Check(component=..., reward=..., details=..., reported=...)`` called with the
    same arguments (`details` passed when not None, `reported` when False), including
    ``model_fields_set``; every grade builds a few, so validation would be a visible cost.
    """
    given = _GIVEN[details is not None, reported]
    if details is None:
        details = []
    fields = {"component": component, "reward": reward, "details": details, "reported": reported}
    return trusted(Check, fields, given)


# `Check.model_fields_set` per (details given, reported): frozensets, which `trusted` copies
# into a set at a fraction of the cost of building one from a sequence.
_GIVEN = {
    (with_details, reported): frozenset(
        ["component", "reward"]
        + (["details"] if with_details else [])
        + ([] if reported else ["reported"])
    )
    for with_details in (False, True)
    for reported in (False, True)
}


class Grade(BaseModel):
    """The grade of one episode: the terminal reward and why.

    Attributes:
        reward: Product of the components in `reward_basis`; None when a basis component
            could not be judged (NL assertions without a working judge): such an episode has
            no reward, is never a pass and is left out of pass^k until it is judged.
        termination: How the episode ended.
        reward_basis: The components that gate the reward (None: ended prematurely).
        breakdown: Component -> its reward, for the basis components the reference reports.
        checks: Every component that ran, including diagnostics outside the basis. A grader
            may leave the diagnostics to be computed on first use (`defer_diagnostics`):
            reading ``checks``, ``model_dump``/``model_dump_json``, pickling, copying,
            comparing or printing the grade computes them first, so every reader sees the
            same grade as an eager one. (Serialising it as a field of another pydantic
            model, or through a ``TypeAdapter``, bypasses those methods: read ``checks``
            first.)
        not_judged: Basis components that nothing could judge (why `reward` is None).
        judge: The judge that ruled on the NL assertions (a model name), when one did.
        note: Free text, e.g. why the episode scored 0 without grading.
        strict_checks: Under ``grading="strict"``, for a task read with the reference's
            rules, the checks whose strict rules differ (DB, ACTION, COMMUNICATE), graded
            with them for the strict reading (`tau_env.grading.strict`); empty otherwise.
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
    strict_checks: dict[str, Check] = Field(default_factory=dict)

    def defer_diagnostics(self, compute: Callable[[], dict[str, Check]]) -> None:
        """Add the checks `compute` returns to `checks` when first needed, not now.

        The reward never depends on them (they are outside the reward basis), so an episode
        whose grade nobody inspects never pays for them. `compute` must give the same checks
        whenever it runs (it reads the finished episode, which nothing changes any more).
        Until then ``checks`` is kept aside, out of the fields, so that reading it reaches
        `__getattr__`: no other attribute read pays for the laziness. The pending state
        lives in pydantic's private slot (no declared private attribute, so building a grade
        costs nothing more); it is None again once the checks are complete.
        """
        fields = _get(self, "__dict__")
        _set(self, "__pydantic_private__", {_PENDING: (fields.pop("checks"), compute)})

    def _complete(self) -> None:
        """Compute the deferred diagnostics into `checks` (once; a no-op afterwards)."""
        private = _get(self, "__pydantic_private__")
        if private is not None and _PENDING in private:
            checks, compute = private[_PENDING]
            for name, check in compute().items():
                checks.setdefault(name, check)
            fields = _get(self, "__dict__")
            fields["checks"] = checks
            # Back in its place: dumps and reprs list the fields in the order of `__dict__`.
            _set(self, "__dict__", {name: fields[name] for name in _FIELD_ORDER})
            _set(self, "__pydantic_private__", None)  # as any grade's

    def __getattr__(self, name: str) -> Any:
        if name == "checks":  # only while the diagnostics are pending
            self._complete()
            return _get(self, "__dict__")["checks"]
        return super().__getattr__(name)  # type: ignore[misc]  # pydantic's (extras, private)

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:  # noqa: D102 (BaseModel's)
        self._complete()
        return super().model_dump(**kwargs)

    def model_dump_json(self, **kwargs: Any) -> str:  # noqa: D102 (BaseModel's)
        self._complete()
        return super().model_dump_json(**kwargs)

    def __eq__(self, other: object) -> bool:
        self._complete()
        if isinstance(other, Grade):
            other._complete()
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # as before: a model with dict fields

    def __getstate__(self) -> dict[Any, Any]:
        self._complete()  # the pending computation holds the episode; its result pickles
        return super().__getstate__()

    def __copy__(self) -> Grade:
        self._complete()
        return super().__copy__()

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Grade:
        self._complete()
        return super().__deepcopy__(memo)

    def __iter__(self) -> Generator[tuple[str, Any], None, None]:
        self._complete()
        yield from super().__iter__()

    def __repr_args__(self) -> Any:
        self._complete()
        return super().__repr_args__()

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


_FIELD_ORDER = tuple(Grade.model_fields)
