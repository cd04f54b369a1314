"""Rewards by name: binary (the product), partial (items met), breakdown (per check)."""

from __future__ import annotations

import pytest

from tau_env.grading import NLAssertionGrader, TaskGrader, TerminationReason, Verdict
from tau_env.grading.reward import (
    check_reward,
    has_nl_judge,
    needs_nl_judge,
    reward_breakdown,
    reward_of,
)
from tau_env.tasks import GoldAction
from tests.grading.conftest import called, make_episode, said, task_with


def _grade(domain, task, trajectory, judge=None, termination=TerminationReason.USER_STOP):
    episode = make_episode(domain, task, trajectory, termination=termination)
    return TaskGrader(judge=judge).grade(episode)


def _three_actions_two_infos():
    actions = [
        GoldAction(action_id=f"a{i}", name=name, arguments={"task_id": "task_1"})
        for i, name in enumerate(["get_task", "get_task_owner", "list_tasks"])
    ]
    return task_with(
        actions=actions,
        communicate_info=["task_1", "renew"],
        reward_basis=["ACTION", "COMMUNICATE"],
    )


def test_partial__is_the_fraction_of_items_met_and_binary_their_product(domain):
    task = _three_actions_two_infos()
    trajectory = [called("get_task", task_id="task_1"), said("Your task_1 is open.")]
    grade = _grade(domain, task, trajectory)
    assert reward_of(grade, "binary") == 0.0
    assert reward_of(grade, "partial") == pytest.approx(2 / 5)  # one action, one info
    assert reward_of(grade, "breakdown") == 0.0  # the scalar stays binary
    assert reward_breakdown(grade) == {"ACTION": pytest.approx(1 / 3), "COMMUNICATE": 0.5}


def test_partial__a_whole_success_is_one_and_a_premature_ending_zero(domain):
    task = task_with(communicate_info=["task_1"], reward_basis=["COMMUNICATE"])
    done = _grade(domain, task, [said("task_1 done")])
    assert reward_of(done, "partial") == reward_of(done, "binary") == 1.0
    cut = _grade(domain, task, [said("task_1 done")], termination=TerminationReason.MAX_STEPS)
    assert reward_of(cut, "partial") == 0.0 and reward_breakdown(cut) == {}


def test_unjudged__none_on_every_scale_never_zero(domain):
    task = task_with(nl_assertions=["The agent is polite."], reward_basis=["NL_ASSERTION"])
    grade = _grade(domain, task, [said("hello")])
    assert [reward_of(grade, kind) for kind in ("binary", "partial", "breakdown")] == [None] * 3
    assert reward_breakdown(grade) == {"NL_ASSERTION": None}
    judged = _grade(domain, task, [said("hello")], judge=lambda t, a: [Verdict(a[0], met=False)])
    assert reward_of(judged, "partial") == 0.0 and reward_breakdown(judged) == {"NL_ASSERTION": 0.0}


def test_needs_nl_judge__only_when_the_basis_has_assertions():
    with_them = task_with(nl_assertions=["x"], reward_basis=["DB", "NL_ASSERTION"])
    empty = task_with(nl_assertions=[], reward_basis=["DB", "NL_ASSERTION"])
    outside = task_with(nl_assertions=["x"], reward_basis=["DB"])
    assert [needs_nl_judge(t) for t in (with_them, empty, outside)] == [True, False, False]


def test_has_nl_judge():
    assert not has_nl_judge(TaskGrader())
    assert has_nl_judge(TaskGrader(judge=lambda t, a: []))
    assert not has_nl_judge(TaskGrader(graders=[NLAssertionGrader(None)]))


def test_check_reward__names_the_choices():
    assert check_reward("partial") == "partial"
    with pytest.raises(ValueError, match="binary"):
        check_reward("dense")


def test_partial__counts_assertions_the_grader_did_not_ask_about(domain):
    from tau_env.grading.nl_assertions import judge_call_saved
    from tau_env.grading.reward import with_skipped_verdicts

    task = task_with(
        communicate_info=["task_9"],
        nl_assertions=["The agent is polite.", "The agent is brief."],
        reward_basis=["COMMUNICATE", "NL_ASSERTION"],
    )
    calls = []

    def judge(trajectory, assertions):
        calls.append(list(assertions))
        return [Verdict(assertions[0], met=True), Verdict(assertions[1], met=False)]

    grade = _grade(domain, task, [said("hello")], judge=judge)
    assert grade.reward == 0.0 and judge_call_saved(grade) and calls == []
    full = with_skipped_verdicts(grade, [said("hello")], task, judge)
    assert len(calls) == 1 and full.reward == 0.0
    assert reward_of(full, "partial") == pytest.approx(1 / 3)
    assert reward_breakdown(full) == {"COMMUNICATE": 0.0, "NL_ASSERTION": 0.5}
    assert with_skipped_verdicts(grade, [], task, None) is grade
