"""The strict rules: arguments compared, failed calls never match, whole words said after the
look-ups, no forbidden fact, no hand-over the gold plan does not make (issue 53)."""

from tau_env.grading import TaskGrader, read_strictly
from tau_env.grading.strict_graders import (
    StrictActionGrader,
    StrictCommunicateGrader,
    StrictDBGrader,
)
from tau_env.messages import AssistantMessage, ToolCall, ToolMessage
from tau_env.tasks import GoldAction
from tests.grading.conftest import make_episode, said, task_with

_CALLS = iter(range(1_000_000))


def answered(name, result="ok", error=False, **arguments):
    """A call of the agent's and the env's answer to it."""
    call_id = f"c{next(_CALLS)}"
    call = ToolCall(id=call_id, name=name, arguments=arguments)
    return [
        AssistantMessage(tool_calls=[call]),
        ToolMessage(id=call_id, content=result, error=error, name=name),
    ]


def _gold(name, **arguments):
    return GoldAction(action_id=name, name=name, arguments=arguments)


def test_action__a_call_without_the_gold_arguments_never_matches(domain):
    task = task_with(actions=[_gold("create_task", user_id="user_1", title="T")])
    grader = StrictActionGrader()
    bare = make_episode(domain, task, answered("create_task"))
    assert grader.check(bare).reward == 0.0
    partial = make_episode(domain, task, answered("create_task", user_id="user_1"))
    assert grader.check(partial).reward == 0.0
    full = make_episode(domain, task, answered("create_task", user_id="user_1", title="T"))
    assert grader.check(full).reward == 1.0


def test_action__a_call_the_env_answered_with_an_error_never_matches(domain):
    task = task_with(actions=[_gold("get_users")])
    failed = make_episode(domain, task, answered("get_users", "Error: no", error=True))
    assert StrictActionGrader().check(failed).reward == 0.0
    # The reference's rule matches it: the official grade passes, the strict one does not.
    official = TaskGrader().grade(make_episode(domain, task.model_copy(), failed.trajectory))
    assert official.checks["ACTION"].reward == 1.0


def test_action__a_gold_step_that_fails_itself_is_matched_by_the_same_failing_call(domain):
    gold = _gold("update_task_status", task_id="task_9", status="completed")  # no such task
    task = task_with(actions=[gold], reward_basis=["ACTION"])
    assert domain.baseline(task).failing_gold == (True,)
    trajectory = answered(
        "update_task_status", "Error: Task task_9 not found", error=True, **gold.arguments
    )
    episode = make_episode(domain, task, trajectory, baseline=True)
    assert StrictActionGrader().check(episode).reward == 1.0
    wrong = answered("update_task_status", "Error", error=True, task_id="task_8", status="x")
    assert StrictActionGrader().check(make_episode(domain, task, wrong, baseline=True)).reward == 0


def test_action__compare_args_still_names_the_arguments_compared(domain):
    gold = GoldAction(
        action_id="t",
        name="transfer_to_human_agents",
        arguments={"summary": "free text"},
        compare_args=[],
    )
    task = task_with(actions=[gold])
    episode = make_episode(domain, task, answered("transfer_to_human_agents", summary="other"))
    assert StrictActionGrader().check(episode).reward == 1.0


def test_communicate__whole_words_after_the_look_ups(domain):
    task = task_with(actions=[_gold("get_users")], communicate_info=["2"])
    grader = StrictCommunicateGrader()
    early = make_episode(domain, task, [said("You have 2 tasks."), *answered("get_users")])
    assert grader.check(early).reward == 0.0  # said before anything was looked up
    inside = make_episode(domain, task, [*answered("get_users"), said("within 24 hours")])
    assert grader.check(inside).reward == 0.0  # "2" is not heard inside "24"
    done = make_episode(domain, task, [*answered("get_users"), said("You have 2 tasks.")])
    assert grader.check(done).reward == 1.0


def test_communicate__a_fact_a_result_holds_counts_once_that_result_came(domain):
    task = task_with(
        actions=[_gold("get_users"), _gold("create_task", user_id="u", title="t")],
        communicate_info=["task_9"],
    )
    trajectory = [*answered("create_task", "task_9", user_id="x", title="t"), said("It is task_9")]
    check = StrictCommunicateGrader().check(make_episode(domain, task, trajectory))
    assert check.reward == 1.0  # the gold read was never made, but a result held the fact


def test_communicate__a_forbidden_fact_said_anywhere_fails_and_is_a_constraint(domain):
    task = task_with(
        actions=[_gold("get_users")],
        communicate_info=["not allowed"],
        forbidden_info=["basic economy"],
    )
    grader = StrictCommunicateGrader()
    honest = make_episode(domain, task, [*answered("get_users"), said("That is not allowed.")])
    assert grader.check(honest).reward == 1.0
    recital = [*answered("get_users"), said("That is not allowed. Basic economy never changes.")]
    check = grader.check(make_episode(domain, task, recital))
    assert check.reward == 0.0
    assert check.details[-1] == {"forbidden": "basic economy", "met": False, "constraint": True}


def test_db__no_hand_over_the_gold_plan_does_not_make(domain):
    task = domain.task("complete_task")
    world = domain.prepare(task).initial_world.fork()
    world.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "completed"})
    transfer = answered("transfer_to_human_agents", "Transfer successful", summary="s")
    grader = StrictDBGrader()
    assert grader.check(make_episode(domain, task, [], world=world)).reward == 1.0
    extra = grader.check(make_episode(domain, task, transfer, world=world))
    assert extra.reward == 0.0
    handover = {"handover": "none", "met": False, "constraint": True, "transfers": 1}
    assert extra.details[-1] == handover


def test_db__one_transfer_with_the_gold_reason_and_no_second(domain):
    gold = GoldAction(
        action_id="t",
        name="transfer_to_human_agents",
        arguments={"summary": "s", "reason": "fraud"},
        compare_args=["reason"],
    )
    task = task_with(actions=[gold], reward_basis=["DB"])
    grader = StrictDBGrader()

    def transfers(*reasons):
        messages = []
        for reason in reasons:
            messages += answered("transfer_to_human_agents", summary="x", reason=reason)
        return grader.check(make_episode(domain, task, messages))

    assert transfers("fraud").reward == 1.0
    assert transfers("other").reward == 0.0  # another reason
    assert transfers("fraud", "fraud").reward == 0.0  # a second transfer
    assert transfers("other", "fraud").reward == 0.0  # one per reason
    assert transfers().reward == 0.0  # none: the hand-over is the task
    assert transfers().details[-1] == {"handover": "as planned", "met": False}


def test_task_grader__a_task_that_says_strict_is_graded_with_the_strict_rules(domain):
    criteria = {"actions": [_gold("get_users")], "reward_basis": ["ACTION"]}
    reference = task_with(**criteria)
    strict = task_with(**criteria, grading="strict")
    trajectory = answered("get_users", "Error: down", error=True)
    grader = TaskGrader()
    assert grader.grade(make_episode(domain, reference, trajectory)).reward == 1.0
    assert grader.grade(make_episode(domain, strict, trajectory)).reward == 0.0


def test_strict_reading__reads_reference_tasks_with_the_strict_rules_too(domain):
    task = task_with(actions=[_gold("get_users")], reward_basis=["ACTION"])
    grader = TaskGrader(grading="strict")
    grade = grader.grade(make_episode(domain, task, answered("get_users", "Error", error=True)))
    assert grade.reward == 1.0  # the official reward: the reference's rules
    assert grade.strict_checks["ACTION"].reward == 0.0
    reading = grader.strict_reading(grade, task)
    assert reading.reward == 0.0 and reading.failed == ("ACTION",)
    # The same from the stored JSON.
    stored = grade.model_dump(mode="json")
    assert read_strictly(stored, task, judged=False) == reading
    # Official grading adds no strict checks.
    assert TaskGrader().grade(make_episode(domain, task, [])).strict_checks == {}
