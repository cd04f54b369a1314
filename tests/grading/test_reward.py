"""Rewards by name: binary (the product), partial (items met), breakdown (per check)."""

from __future__ import annotations

import pytest

from tau_env.grading import NLAssertionGrader, TaskGrader, TerminationReason, Verdict
from tau_env.grading.reward import (
    check_reward,
    has_nl_judge,
    needs_nl_judge,
    partial_items,
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


# -- issue 53: honest partial credit ---------------------------------------------------------


def _strict(task):
    criteria = task.evaluation_criteria.model_copy(update={"grading": "strict"})
    return task.model_copy(update={"evaluation_criteria": criteria})


def test_partial__doing_nothing_earns_nothing_when_the_task_changes_the_world(domain):
    task = domain.task("complete_task")  # DB only: the gold plan completes a task
    idle = TaskGrader().grade(make_episode(domain, task, [said("Sorry.")], baseline=True))
    assert reward_of(idle, "partial") == 0.0
    assert partial_items(idle) == [
        {"component": "DB", "name": "database: changed", "kind": "item", "met": False}
    ]


def test_partial__an_unchanged_database_is_a_constraint_not_an_item(domain):
    task = _strict(domain.task("unknown_user"))  # DB x COMMUNICATE, the gold plan writes nothing
    grader = TaskGrader()
    idle = grader.grade(make_episode(domain, task, [said("Sorry.")], baseline=True))
    assert reward_of(idle, "partial") == 0.0  # the unchanged database earns no credit
    kinds = {(i["component"], i["name"]): i["kind"] for i in partial_items(idle)}
    assert kinds[("DB", "database: unchanged")] == "constraint"
    assert kinds[("COMMUNICATE", "user_7")] == "item"
    told = grader.grade(make_episode(domain, task, [said("No user_7 here.")], baseline=True))
    assert reward_of(told, "partial") == 1.0
    # Breaking the database takes the credit away again.
    world = domain.prepare(task).initial_world.fork()
    world.call_tool("agent", "create_task", {"user_id": "user_1", "title": "x"})
    broke = make_episode(domain, task, [said("No user_7 here.")], world=world, baseline=True)
    assert reward_of(grader.grade(broke), "partial") == 0.0


def test_partial__an_empty_check_is_no_item(domain):
    task = task_with(communicate_info=[], actions=[], reward_basis=["COMMUNICATE", "ACTION"])
    grade = TaskGrader().grade(make_episode(domain, task, [said("hi")], baseline=True))
    assert partial_items(grade) == []
    assert reward_of(grade, "partial") == reward_of(grade, "binary") == 1.0


def test_partial__forbidden_facts_and_extra_transfers_take_credit_away(domain):
    task = task_with(
        actions=[GoldAction(action_id="a", name="get_users")],
        communicate_info=["user_1", "user_2"],
        forbidden_info=["basic economy"],
        reward_basis=["DB", "ACTION", "COMMUNICATE"],
        grading="strict",
    )
    grader = TaskGrader()
    looked = called("get_users")
    honest = grader.grade(make_episode(domain, task, [looked, said("user_1 and user_2")]))
    assert reward_of(honest, "partial") == 1.0
    recital = [looked, said("user_1 and user_2; basic economy never changes")]
    assert reward_of(grader.grade(make_episode(domain, task, recital)), "partial") == 2 / 3
    transfer = called("transfer_to_human_agents", summary="s")
    both = [looked, said("user_1 and user_2; basic economy"), transfer]
    graded = grader.grade(make_episode(domain, task, both))
    assert reward_of(graded, "partial") == 1 / 3  # three items met, two constraints broken
    assert {i["name"] for i in partial_items(graded) if i["kind"] == "constraint"} == {
        "forbidden: basic economy",
        "handover: none",
    }
    assert reward_breakdown(graded)["COMMUNICATE"] == 0.5


def test_partial__an_env_assertion_that_holds_at_the_start_is_a_constraint(domain):
    def holds(name, **arguments):
        return {"env_type": "assistant", "func_name": name, "arguments": arguments}

    task = task_with(
        actions=[
            GoldAction(
                action_id="a",
                name="update_task_status",
                arguments={"task_id": "task_1", "status": "completed"},
            )
        ],
        env_assertions=[
            holds("assert_number_of_tasks", user_id="user_1", expected_number=2),  # already
            holds("assert_task_status", task_id="task_1", expected_status="completed"),
        ],
        reward_basis=["ENV_ASSERTION"],
    )
    assert domain.baseline(task).assertions_at_start == (True, False)
    idle = TaskGrader().grade(make_episode(domain, task, [said("Sorry.")], baseline=True))
    assert [i["kind"] for i in partial_items(idle)] == ["constraint", "item"]
    assert reward_of(idle, "partial") == 0.0  # the assertion that held earns nothing
    world = domain.prepare(task).initial_world.fork()
    world.call_tool("agent", "create_task", {"user_id": "user_1", "title": "x"})
    world.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "completed"})
    broke = TaskGrader().grade(make_episode(domain, task, [], world=world, baseline=True))
    assert reward_of(broke, "partial") == 0.0  # one item met, one constraint broken
