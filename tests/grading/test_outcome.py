"""A grade whose diagnostics are deferred reads, dumps, pickles and compares as an eager one."""

from __future__ import annotations

import copy
import pickle

import pytest

from tau_env.grading import Check, Grade, TaskGrader, TerminationReason
from tests.grading.conftest import make_episode, said, task_with


class _Counting:
    """A component grader that counts its runs."""

    def __init__(self, component: str) -> None:
        self.component = component
        self.runs = 0

    def check(self, episode: object) -> Check:
        self.runs += 1
        return Check(component=self.component, reward=1.0, details=[{"run": self.runs}])


def _graded() -> tuple[Grade, dict[str, _Counting]]:
    graders = {c: _Counting(c) for c in ("DB", "ENV_ASSERTION", "ACTION", "COMMUNICATE")}
    task = task_with(reward_basis=["ACTION"])
    grade = TaskGrader(graders=list(graders.values())).grade(
        make_episode(None, task, world=object())
    )
    return grade, graders


def _eager() -> Grade:
    checks = {
        c: Check(component=c, reward=1.0, details=[{"run": 1}])
        for c in ("ACTION", "DB", "ENV_ASSERTION", "COMMUNICATE")
    }
    return Grade(
        reward=1.0,
        termination=TerminationReason.USER_STOP,
        reward_basis=["ACTION"],
        breakdown={"ACTION": 1.0},
        checks=checks,
    )


def test_grade__runs_only_the_basis_until_the_checks_are_read():
    grade, graders = _graded()
    assert grade.reward == 1.0 and grade.breakdown == {"ACTION": 1.0} and grade.success
    assert [g.runs for g in graders.values()] == [0, 0, 1, 0]
    assert list(grade.checks) == ["ACTION", "DB", "ENV_ASSERTION", "COMMUNICATE"]
    assert list(grade.checks) == ["ACTION", "DB", "ENV_ASSERTION", "COMMUNICATE"]
    assert [g.runs for g in graders.values()] == [1, 1, 1, 1]  # once, not per read


@pytest.mark.parametrize(
    "read",
    [
        lambda g: g.model_dump(),
        lambda g: g.model_dump(mode="json"),
        lambda g: Grade.model_validate_json(g.model_dump_json()),
        lambda g: pickle.loads(pickle.dumps(g)),
        copy.copy,
        copy.deepcopy,
        lambda g: g.model_copy(),
        repr,
        dict,
    ],
    ids=["dump", "dump-json", "json", "pickle", "copy", "deepcopy", "model_copy", "repr", "dict"],
)
def test_deferred_grade__every_reader_sees_the_eager_grade(read):
    grade, _ = _graded()
    eager = _eager()
    assert read(grade) == read(eager)
    assert grade == eager and grade.model_dump_json() == eager.model_dump_json()
    assert list(grade.model_dump()) == list(Grade.model_fields)  # field order unchanged


def test_deferred_grade__equal_both_ways_and_to_itself_when_pending():
    assert _graded()[0] == _eager()
    assert _eager() == _graded()[0]
    assert _graded()[0] == _graded()[0]
    assert _graded()[0] != _eager().model_copy(update={"note": "other"})


def test_deferred_grade__checks_stay_frozen():
    grade, _ = _graded()
    with pytest.raises(ValueError, match="frozen"):
        grade.checks = {}  # type: ignore[misc]


def test_real_grader__deferred_checks_equal_the_eager_components(domain):
    task = domain.task("complete_task")
    episode = make_episode(domain, task, [said("Done.")])
    grade = TaskGrader().grade(episode)
    graders = TaskGrader().graders
    expected = {g.component: g.check(episode) for g in graders if g.component != "NL_ASSERTION"}
    assert grade.checks == {c: expected[c] for c in grade.checks}
    assert set(grade.checks) == set(expected)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("DB", 1.0), {}),
        (("DB", 1.0), {"reported": False}),
        (("ACTION", 0.0, [{"met": False}]), {}),
        (("COMMUNICATE", 1.0, []), {}),
    ],
)
def test_new_check__equals_the_validating_constructor_fields_set_included(args, kwargs):
    from tau_env.grading.outcome import new_check

    names = ("component", "reward", "details")
    validated = Check(**dict(zip(names, args, strict=False)), **kwargs)
    built = new_check(*args, **kwargs)
    assert built == validated
    assert built.model_fields_set == validated.model_fields_set
    assert built.model_dump_json() == validated.model_dump_json()
