import pytest

from tau_env.grading import (
    ActionGrader,
    CommunicateGrader,
    DBGrader,
    EnvAssertionGrader,
    NLAssertionGrader,
    TaskGrader,
    TerminationReason,
    Verdict,
)
from tau_env.grading.nl_assertions import UNNEEDED, judge_call_saved
from tau_env.tasks import GoldAction
from tests.grading.conftest import called, make_episode, said, task_with


def test_premature_endings_score_zero_without_grading(domain):
    task = domain.task("complete_task")
    for reason in (
        TerminationReason.MAX_STEPS,
        TerminationReason.TOO_MANY_ERRORS,
        TerminationReason.AGENT_ERROR,
        TerminationReason.USER_ERROR,
    ):
        grade = TaskGrader().grade(make_episode(domain, task, termination=reason))
        assert grade.reward == 0.0 and grade.reward_basis is None
        assert reason.value in grade.note


def test_db__matches_only_when_the_final_world_equals_the_gold_world(domain):
    task = domain.task("complete_task")
    untouched = make_episode(domain, task)
    assert DBGrader().check(untouched).reward == 0.0
    assert DBGrader().check(untouched).details == [{"different": "agent:tasks/task_1"}]
    world = domain.prepare(task).initial_world.fork()
    world.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "completed"})
    assert DBGrader().check(make_episode(domain, task, world=world)).reward == 1.0


def test_db__user_side_changes_count_too(domain):
    task = domain.task("complete_and_dismiss")
    world = domain.prepare(task).initial_world.fork()
    world.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "completed"})
    check = DBGrader().check(make_episode(domain, task, world=world))
    assert check.reward == 0.0 and check.details == [{"different": "user:notifications/notif_1"}]


def test_expected_world__is_computed_once_per_task(domain):
    task = domain.task("reopen_task")
    assert domain.expected_world(task) is domain.expected_world(task)


def test_env_assertions__run_on_a_copy_and_report_each_assertion(domain):
    task = domain.task("create_task_with_description")
    episode = make_episode(domain, task)
    check = EnvAssertionGrader().check(episode)
    assert check.reward == 0.0
    assert [d["met"] for d in check.details] == [False, False]
    assert "Task task_4 not found" in check.details[1]["error"]


def test_communicate__substring_case_insensitive_commas_removed_from_messages_only():
    grader = CommunicateGrader()
    task = task_with(communicate_info=["1000", "Task_4"], reward_basis=["COMMUNICATE"])
    ok = make_episode(None, task, [said("The refund is 1,000 dollars for task_4.")], world=object())
    assert grader.check(ok).reward == 1.0
    task2 = task_with(communicate_info=["1,000"], reward_basis=["COMMUNICATE"])
    assert grader.check(make_episode(None, task2, [said("1,000")], world=object())).reward == 0.0
    user_said = make_episode(None, task, [called("x"), said("nothing")], world=object())
    assert grader.check(user_said).details == [
        {"info": "1000", "met": False},
        {"info": "Task_4", "met": False},
    ]


def test_action__compare_args_rules_and_requestor_ignored():
    grader = ActionGrader()
    gold = [
        GoldAction(action_id="a", name="refund", arguments={"id": "1", "amount": 5}),
        GoldAction(action_id="b", name="transfer", arguments={"summary": "s"}, compare_args=[]),
        GoldAction(
            action_id="c",
            name="note",
            arguments={"text": '{"a": 1, "b": 2}'},
            compare_args=["text"],
        ),
    ]
    task = task_with(actions=[g.model_dump() for g in gold], reward_basis=["ACTION"])
    trajectory = [
        called("refund", id="1"),  # omitted gold args are not checked
        called("transfer", requestor="user", summary="other words"),
        called("note", text='{"b": 2,  "a": 1}'),
    ]
    check = grader.check(make_episode(None, task, trajectory, world=object()))
    assert [d["met"] for d in check.details] == [True, True, True]
    extra = make_episode(None, task, [called("refund", id="1", amount=5, note="x")], world=object())
    assert grader.check(extra).details[0]["met"] is False  # extra call args are compared


def test_nl_assertions__not_judged_without_a_judge_and_strict_with_one(domain):
    task = task_with(
        nl_assertions=["The agent was polite", "The task exists"], reward_basis=["NL_ASSERTION"]
    )
    episode = make_episode(None, task, [said("hello")], world=object())
    unjudged = TaskGrader().grade(episode)
    assert unjudged.not_judged == ["NL_ASSERTION"] and unjudged.breakdown == {}
    assert unjudged.reward is None and not unjudged.success and not unjudged.judged
    seen = {}

    def judge(trajectory, assertions):
        seen["assertions"] = list(assertions)
        return [Verdict("The agent was polite", True, "said hello")]

    graded = TaskGrader(judge=judge).grade(episode)
    assert seen["assertions"] == ["The agent was polite", "The task exists"]
    assert graded.reward == 0.0  # a missing verdict is a failure, unlike the reference
    assert NLAssertionGrader(lambda t, a: []).check(episode).reward == 0.0


def test_reward__is_the_product_of_the_basis_and_other_checks_are_diagnostics(domain):
    task = domain.task("create_task")  # basis DB x COMMUNICATE
    world = domain.prepare(task).initial_world.fork()
    world.call_tool("agent", "create_task", {"user_id": "user_1", "title": "Renew passport"})
    silent = TaskGrader().grade(make_episode(domain, task, world=world))
    assert silent.breakdown == {"DB": 1.0, "COMMUNICATE": 0.0} and silent.reward == 0.0
    assert silent.failed_components() == ["COMMUNICATE"]
    assert "ACTION" in silent.checks  # computed as a diagnostic, not gating
    told = TaskGrader().grade(make_episode(domain, task, [said("Created task_4.")], world=world))
    assert told.reward == 1.0 and told.success


def test_no_criteria__scores_one(domain):
    from tau_env.tasks import Task

    task = Task.model_validate({"id": "free", "user_scenario": {"instructions": "x"}})
    assert TaskGrader().grade(make_episode(None, task, world=object())).reward == 1.0


def test_basis_without_grader__is_a_clear_error():
    task = task_with(reward_basis=["DB"])
    with pytest.raises(ValueError, match=r"no grader for reward basis components \['DB'\]"):
        TaskGrader(graders=[CommunicateGrader()]).grade(make_episode(None, task, world=object()))


def test_not_judged__no_reward_even_when_every_judged_check_passed(domain):
    # Before: the unjudged NL check was left out of the product and the episode passed.
    task = task_with(nl_assertions=["The agent was polite"], reward_basis=["DB", "NL_ASSERTION"])
    grade = TaskGrader().grade(make_episode(None, task, [said("hello")], world=object()))
    assert grade.checks["DB"].reward == 1.0
    assert (grade.reward, grade.success, grade.not_judged) == (None, False, ["NL_ASSERTION"])
    assert grade.checks["NL_ASSERTION"].details == [
        {"assertion": "The agent was polite", "met": None}
    ]
    assert grade.note == "not judged: NL_ASSERTION"


def test_not_judged__a_failing_judge_is_never_a_pass(domain):
    from tau_env.errors import JudgeError

    def broken(trajectory, assertions):
        raise JudgeError("judge m: no usable verdict after 3 replies (last: it is empty)")

    task = task_with(nl_assertions=["The agent was polite"], reward_basis=["NL_ASSERTION"])
    grade = TaskGrader(judge=broken).grade(make_episode(None, task, [said("hi")], world=object()))
    assert grade.reward is None and grade.not_judged == ["NL_ASSERTION"] and grade.judge is None
    assert "JudgeError: judge m: no usable verdict" in grade.note
    assert "no usable verdict" in grade.checks["NL_ASSERTION"].details[0]["error"]


def test_judge__named_in_the_grade_when_it_ruled(domain):
    def polite(trajectory, assertions):
        return [Verdict(text, True, "yes") for text in assertions]

    task = task_with(nl_assertions=["The agent was polite"], reward_basis=["NL_ASSERTION"])
    grade = TaskGrader(judge=polite).grade(make_episode(None, task, [said("hi")], world=object()))
    assert grade.reward == 1.0 and grade.judge.endswith("polite")
    assert grade.checks["NL_ASSERTION"].details == [
        {"assertion": "The agent was polite", "met": True, "justification": "yes"}
    ]


def test_breakdown__a_task_with_no_gold_actions_nor_env_assertions_reports_no_db(data_dir):
    # Official mock create_task_1_nl_eval (basis DB x COMMUNICATE, neither actions nor env
    # assertions): the reference's breakdown is {COMMUNICATE: 1.0}, DB counts as met.
    import tau_env

    official = tau_env.load_domain("mock", data_dir)
    task = official.task("create_task_1_nl_eval")
    assert task.evaluation_criteria.reward_basis == ["DB", "COMMUNICATE"]
    grade = TaskGrader().grade(make_episode(official, task, [said("Done.")]))
    assert grade.breakdown == {"COMMUNICATE": 1.0} and grade.reward == 1.0
    assert grade.checks["DB"].reward == 1.0 and not grade.checks["DB"].reported
    assert not grade.checks["ENV_ASSERTION"].reported


def test_breakdown__env_assertion_in_the_basis_is_reported_when_actions_exist(domain):
    task = task_with(
        actions=[{"action_id": "a", "name": "get_users", "arguments": {}}],
        reward_basis=["DB", "ENV_ASSERTION"],
    )
    grade = TaskGrader().grade(make_episode(domain, task))
    assert grade.breakdown == {"DB": 1.0, "ENV_ASSERTION": 1.0}


def test_basis__checks_run_before_diagnostics(domain):
    order = []

    class Recording:
        def __init__(self, component):
            self.component = component

        def check(self, episode):
            order.append(self.component)
            from tau_env.grading import Check

            return Check(component=self.component, reward=1.0)

    graders = [Recording(c) for c in ("DB", "ENV_ASSERTION", "ACTION", "COMMUNICATE")]
    task = task_with(reward_basis=["COMMUNICATE", "ACTION"])
    grade = TaskGrader(graders=graders).grade(make_episode(None, task, world=object()))
    assert grade.checks  # the diagnostics run when the checks are first read (issue 17)
    assert order == ["COMMUNICATE", "ACTION", "DB", "ENV_ASSERTION"]


def _counting_judge(calls):
    def judge(trajectory, assertions):
        calls.append(list(assertions))
        return [Verdict(text, True, "yes") for text in assertions]

    return judge


def test_judge__not_asked_when_another_component_already_gives_0():
    # NL first in the basis: it is still graded last, and the checks keep the basis order.
    task = task_with(
        nl_assertions=["The agent was polite"],
        communicate_info=["refund"],
        reward_basis=["NL_ASSERTION", "COMMUNICATE"],
    )
    calls = []
    silent = make_episode(None, task, [said("hello")], world=object())
    grade = TaskGrader(judge=_counting_judge(calls)).grade(silent)
    assert calls == []
    assert (grade.reward, grade.not_judged, grade.judge) == (0.0, [], None)
    assert grade.breakdown == {"COMMUNICATE": 0.0}
    assert list(grade.checks)[:2] == ["NL_ASSERTION", "COMMUNICATE"]
    assert grade.checks["NL_ASSERTION"].details == [
        {"assertion": "The agent was polite", "met": None, "skipped": UNNEEDED}
    ]
    assert grade.note == "NL_ASSERTION not judged: the reward is 0 whatever the verdict"
    assert judge_call_saved(grade) and judge_call_saved(grade.model_dump(mode="json"))
    told = make_episode(None, task, [said("Your refund is on its way.")], world=object())
    assert TaskGrader(judge=_counting_judge(calls)).grade(told).reward == 1.0
    assert calls == [["The agent was polite"]]  # its verdict could change the reward


def test_not_judged__without_a_judge_a_0_from_another_component_is_reward_0():
    task = task_with(
        nl_assertions=["The agent was polite"],
        communicate_info=["refund"],
        reward_basis=["COMMUNICATE", "NL_ASSERTION"],
    )
    grade = TaskGrader().grade(make_episode(None, task, [said("hello")], world=object()))
    assert (grade.reward, grade.success, grade.not_judged) == (0.0, False, [])
    assert judge_call_saved(grade)


def test_judge_call_saved__not_for_a_judged_or_waiting_grade():
    task = task_with(nl_assertions=["The agent was polite"], reward_basis=["NL_ASSERTION"])
    episode = make_episode(None, task, [said("hi")], world=object())
    assert not judge_call_saved(TaskGrader().grade(episode))  # waits for a judge
    assert not judge_call_saved(TaskGrader(judge=_counting_judge([])).grade(episode))
