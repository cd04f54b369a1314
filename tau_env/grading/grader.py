"""The task grader: runs the component checks and multiplies those in the reward basis."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import NamedTuple, Protocol

from tau_env.grading.actions import ActionGrader
from tau_env.grading.communicate import CommunicateGrader
from tau_env.grading.context import Episode
from tau_env.grading.db import DBGrader
from tau_env.grading.env_assertions import EnvAssertionGrader
from tau_env.grading.nl_assertions import (
    Judge,
    NLAssertionGrader,
    assertions_of,
    judge_name,
    unneeded_check,
)
from tau_env.grading.outcome import STOP_TERMINATIONS, Check, Grade, TerminationReason
from tau_env.grading.strict import (
    Grading,
    StrictReading,
    check_grading,
    read_strictly,
    strict_basis,
)
from tau_env.grading.strict_graders import (
    StrictActionGrader,
    StrictCommunicateGrader,
    StrictDBGrader,
)
from tau_env.messages import trusted
from tau_env.tasks.model import RewardType, Task, TaskRules

__all__ = ["ComponentGrader", "TaskGrader", "combine"]


class ComponentGrader(Protocol):
    """One check of the grade (DB, ENV_ASSERTION, COMMUNICATE, ACTION, NL_ASSERTION)."""

    component: str

    def check(self, episode: Episode) -> Check:
        """Grade one episode on this component."""
        ...


class TaskGrader:
    """Grades an episode as the reference's ``evaluate_simulation`` with ``ALL`` (spec §6).

    Any ending other than a stop scores 0 without grading. A task without criteria scores 1.
    The basis components run first (they decide the reward); DB, ENV_ASSERTION, ACTION and
    COMMUNICATE outside the basis are diagnostics, computed when the grade's checks are first
    read, dumped or pickled (`Grade.defer_diagnostics`), so an episode whose grade nobody
    inspects pays only for its reward. NL_ASSERTION runs only when the basis names it,
    because it calls a judge, and last: when another basis component is already 0 the judge is
    not asked (`unneeded_check`; the reward is 0 whatever its verdict). The reward is the
    product of the basis components; when one of them could not be judged (NL assertions
    without a working judge) and the others do not make it 0, the episode has no reward
    (``Grade.reward`` None, listed in ``Grade.not_judged``) and is never a pass.

    Each task's checks are read with the rules its criteria name (``grading``): the
    reference's (`graders`, the default), or the strict ones only doing the task passes
    (`strict_graders`; built-in tasks say so). The plan of a task, which graders run for its
    basis, is made once per (rules, basis).

    With ``grading="strict"`` the reward stays the same; the grade is also read strictly
    (`strict_reading`, `tau_env.grading.strict`): a task read with the reference's rules gets
    the strict rules' DB, ACTION and COMMUNICATE checks too (`Grade.strict_checks`), and NL
    assertions outside the basis are judged when a judge is given: as a diagnostic, when the
    checks are first read, and only when the other checks of the strict reading leave its
    verdict something to change.

    Args:
        judge: Rules on natural-language assertions (an `LLMJudge`, or any callable
            ``(trajectory, assertions) -> [Verdict, ...]``); None leaves them not judged.
        graders: Replaces the default component graders (for research on grading).
        grading: ``"official"`` (the reference's) or ``"strict"`` (also judge listed NL
            assertions outside the basis, for the strict reading).
        strict_graders: Replaces the strict rules' graders (default: the strict DB, ACTION
            and COMMUNICATE graders, and `graders`' others).
    """

    def __init__(
        self,
        judge: Judge | None = None,
        graders: Sequence[ComponentGrader] | None = None,
        *,
        grading: Grading = "official",
        strict_graders: Sequence[ComponentGrader] | None = None,
    ) -> None:
        self.judge = judge
        self.grading: Grading = check_grading(grading)
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
        self.strict_graders: tuple[ComponentGrader, ...] = tuple(
            strict_graders or _strict_versions(self.graders)
        )
        self._plans: dict[tuple[TaskRules, tuple[str, ...]], _Plan] = {}  # per rules, basis

    def grade(self, episode: Episode) -> Grade:
        """Grade a finished episode."""
        termination = episode.termination
        if termination not in STOP_TERMINATIONS:
            return Grade(
                reward=0.0,
                termination=termination,
                note=f"Episode ended prematurely: {termination.value}",
            )
        criteria = episode.task.evaluation_criteria
        if criteria is None:
            return Grade(reward=1.0, termination=termination, note="no criteria")
        basis = criteria.reward_basis
        rules = criteria.rules
        plan = self._plans.get((rules, tuple(basis)))
        if plan is None or plan.graders is not self._graders_of(rules):
            plan = self._plan(rules, basis)
        # The reward first; diagnostics when first read (they never change it). NL assertions
        # last: their judge is asked only when its verdict can change the reward.
        checks: dict[str, Check] = {}  # the grade's own (`combine` copies its argument)
        judged_last = None
        for component, grader in plan.basis:
            if component == "NL_ASSERTION":
                judged_last = grader
                continue
            check = grader.check(episode)
            checks[component] = check if type(check) is Check else Check.model_validate(check)
        if judged_last is not None:
            checks["NL_ASSERTION"] = self._nl_check(judged_last, episode, checks)
            if basis[-1] != "NL_ASSERTION":  # back in basis order
                checks = {component: checks[component] for component in basis}
        nl_check = checks.get("NL_ASSERTION")
        ruled = nl_check is not None and nl_check.judged and bool(nl_check.details)
        judge = judge_name(self.judge) if ruled else None
        diagnostics = plan.diagnostics
        stricter = self._strict_checks(episode) if plan.stricter else {}
        return _combined(
            termination,
            basis,
            checks,
            judge,
            partial(_diagnose, diagnostics, episode, checks, stricter) if diagnostics else None,
            stricter,
        )

    def _graders_of(self, rules: TaskRules) -> tuple[ComponentGrader, ...]:
        return self.strict_graders if rules == "strict" else self.graders

    def _strict_checks(self, episode: Episode) -> dict[str, Check]:
        """The strict rules' checks that differ from the reference's (`Grade.strict_checks`).

        For the strict reading of a task read with the reference's rules: the components of
        its strict basis whose strict grader is not the reference's.
        """
        listed = strict_basis(episode.task, judged=False)
        reference = {grader.component: grader for grader in self.graders}
        checks: dict[str, Check] = {}
        for grader in self.strict_graders:
            component = grader.component
            if component in listed and reference.get(component) is not grader:
                check = grader.check(episode)
                checks[component] = check if type(check) is Check else Check.model_validate(check)
        return checks

    def strict_reading(self, grade: Grade, task: Task) -> StrictReading:
        """`grade` (of an episode of `task` this grader graded) under the strict reading."""
        return read_strictly(grade, task, judged=self.judge is not None)

    @staticmethod
    def _nl_check(grader: ComponentGrader, episode: Episode, others: dict[str, Check]) -> Check:
        """The NL_ASSERTION check; `unneeded_check` when another basis component is 0.

        The judge is not asked then: the reward is 0 whatever its verdict.
        """
        if any(check.reward == 0.0 for check in others.values()):
            assertions = assertions_of(episode.task)
            if assertions:
                return unneeded_check(assertions)
        check = grader.check(episode)
        return check if type(check) is Check else Check.model_validate(check)

    def _plan(self, rules: TaskRules, basis: Sequence[RewardType]) -> _Plan:
        """What grading a task of these rules and basis runs (made once, then looked up).

        Raises:
            ValueError: A basis component has no grader.
        """
        graders = self._graders_of(rules)
        by_component = {grader.component: grader for grader in graders}
        missing = [component for component in basis if component not in by_component]
        if missing:
            raise ValueError(f"no grader for reward basis components {missing}")
        # NL assertions call a judge: outside the basis only for the strict reading.
        judge_outside = self.grading == "strict" and self.judge is not None
        diagnostics = tuple(
            grader
            for grader in graders
            if grader.component not in basis
            and (grader.component != "NL_ASSERTION" or judge_outside)
        )
        in_basis = tuple((component, by_component[component]) for component in basis)
        stricter = self.grading == "strict" and rules == "reference"
        plan = _Plan(graders, in_basis, diagnostics, stricter)
        self._plans[rules, tuple(basis)] = plan
        return plan


class _Plan(NamedTuple):
    """The graders one reward basis runs: the basis components in order, then diagnostics.

    Attributes:
        graders: The graders it was made from (`TaskGrader.graders` or `strict_graders`; a
            plan of others is made again).
        basis: (component, grader) per basis entry, in basis order.
        diagnostics: The graders outside the basis, NL_ASSERTION aside (it calls a judge)
            unless the grading is strict and a judge is given.
        stricter: The strict rules' checks are added for the strict reading (a task read
            with the reference's rules, under ``grading="strict"``).
    """

    graders: tuple[ComponentGrader, ...]
    basis: tuple[tuple[str, ComponentGrader], ...]
    diagnostics: tuple[ComponentGrader, ...]
    stricter: bool = False


def _diagnose(
    graders: Sequence[ComponentGrader],
    episode: Episode,
    basis_checks: Mapping[str, Check],
    strict_checks: Mapping[str, Check],
) -> dict[str, Check]:
    """The checks outside the reward basis, in the graders' order (`Grade.checks` adds them).

    NL assertions outside the basis (strict grading with a judge) come last, and their judge
    is asked only when no other check of the strict reading is 0 (`unneeded_check` then).
    """
    checks: dict[str, Check] = {}
    nl_grader = None
    for grader in graders:
        if grader.component == "NL_ASSERTION":
            nl_grader = grader
            continue
        checks[grader.component] = grader.check(episode)
    if nl_grader is not None:
        known = {**basis_checks, **checks}
        strict = strict_basis(episode.task, judged=True)
        decided = any(
            (check := known.get(component)) is not None and check.reward == 0.0
            for component in strict
        ) or any(check.reward == 0.0 for check in strict_checks.values())
        assertions = assertions_of(episode.task)
        if decided and assertions:
            checks["NL_ASSERTION"] = unneeded_check(assertions)
        else:
            checks["NL_ASSERTION"] = nl_grader.check(episode)
    return {grader.component: checks[grader.component] for grader in graders}


def combine(
    termination: TerminationReason,
    basis: Sequence[RewardType],
    checks: Mapping[str, Check],
    *,
    judge: str | None = None,
    strict_checks: Mapping[str, Check] | None = None,
) -> Grade:
    """The grade of a stopped episode from its component checks.

    The reward is the product of the basis components, or None when any of them could not be
    judged and the others do not already make it 0. The breakdown lists the basis components
    the reference reports (not DB and ENV_ASSERTION of a task with nothing to compare them
    with).

    Args:
        termination: How the episode ended (a stop).
        basis: The task's reward basis.
        checks: Every component that ran (each basis component must be present).
        judge: The judge that ruled on the NL assertions, recorded in the grade.
        strict_checks: The strict rules' checks for the strict reading (`Grade.strict_checks`).
    """
    stricter = _checks_of(strict_checks) if strict_checks else {}
    return _combined(termination, basis, _checks_of(checks), judge, None, stricter)


def _combined(
    termination: TerminationReason,
    basis: Sequence[RewardType],
    checks: dict[str, Check],
    judge: str | None,
    diagnose: Callable[[], dict[str, Check]] | None,
    strict_checks: dict[str, Check],
) -> Grade:
    """`combine` on checks that become the grade's own, with diagnostics to defer (if any)."""
    product = 1.0
    breakdown: dict[str, float] = {}
    not_judged: list[RewardType] = []
    for component in basis:
        check = checks[component]
        value = check.reward
        if value is None:
            not_judged.append(component)
            continue
        if check.reported:
            breakdown[component] = value
        product *= value
    reward: float | None = product
    note = None
    if not_judged and product == 0.0:  # a judged factor is 0: no verdict can change that
        note = f"{', '.join(not_judged)} not judged: the reward is 0 whatever the verdict"
        not_judged = []
    elif not_judged:
        reward = None
        errors = [
            detail["error"]
            for component in not_judged
            for detail in checks[component].details[:1]
            if detail.get("error")
        ]
        note = f"not judged: {', '.join(not_judged)}" + (f" ({errors[0]})" if errors else "")
    # Every value is already of its field's type (checks are `Check`s, the termination a
    # `TerminationReason`): built as the validating constructor would, without validating.
    fields = {
        "reward": reward,
        "termination": (
            termination
            if type(termination) is TerminationReason
            else TerminationReason(termination)
        ),
        "reward_basis": list(basis),
        "breakdown": breakdown,
        "checks": checks,
        "not_judged": not_judged,
        "judge": judge,
        "note": note,
        "strict_checks": strict_checks,
    }
    grade = trusted(Grade, fields, _GRADE_FIELDS)
    if diagnose is not None:
        grade.defer_diagnostics(diagnose)
    return grade


_GRADE_FIELDS = frozenset(Grade.model_fields)


def _checks_of(checks: Mapping[str, Check]) -> dict[str, Check]:
    """A copy of `checks` for a grade, each a `Check` (validated if it is not one already)."""
    copied = dict(checks)
    for name, check in copied.items():
        if type(check) is not Check:
            copied[name] = Check.model_validate(check)
    return copied


_STRICT_VERSIONS: dict[type, Callable[[], ComponentGrader]] = {
    DBGrader: StrictDBGrader,
    ActionGrader: StrictActionGrader,
    CommunicateGrader: StrictCommunicateGrader,
}
"""The reference's graders whose strict rules differ, and their strict graders."""


def _strict_versions(graders: Sequence[ComponentGrader]) -> tuple[ComponentGrader, ...]:
    """`graders` with the strict version of each reference DB, ACTION and COMMUNICATE grader.

    Other graders, and custom ones of those components, are kept.
    """
    return tuple(
        _STRICT_VERSIONS[type(grader)]() if type(grader) in _STRICT_VERSIONS else grader
        for grader in graders
    )
