import asyncio

from tau_env.errors import InfrastructureError
from tau_env.grading import TaskGrader, Verdict, arejudge, needs_judge, rejudge
from tests.grading.conftest import make_episode, said, task_with

TASK = task_with(
    nl_assertions=["The agent was polite", "The agent said the total"],
    reward_basis=["COMMUNICATE", "NL_ASSERTION"],
    communicate_info=["42"],
)
TRAJECTORY = [said("Hello, the total is 42.")]


def _unjudged():
    return TaskGrader().grade(make_episode(None, TASK, TRAJECTORY, world=object()))


def _rule(met_by_text):
    def judge(trajectory, assertions):
        assert list(trajectory) == TRAJECTORY
        return [Verdict(text, met_by_text[text], "ruled") for text in assertions]

    return judge


def test_rejudge__gives_the_grade_the_judge_would_have_given_from_the_start():
    rule = _rule({"The agent was polite": True, "The agent said the total": False})
    later = rejudge(_unjudged(), TRAJECTORY, TASK, rule)
    at_once = TaskGrader(judge=rule).grade(make_episode(None, TASK, TRAJECTORY, world=object()))
    assert later == at_once
    assert later.reward == 0.0 and later.breakdown == {"COMMUNICATE": 1.0, "NL_ASSERTION": 0.0}
    assert not needs_judge(later) and later.judge.endswith("judge")


def test_rejudge__leaves_judged_grades_alone_and_keeps_failures_not_judged():
    def broken(trajectory, assertions):
        raise InfrastructureError("provider down")

    judged = rejudge(
        _unjudged(),
        TRAJECTORY,
        TASK,
        _rule(dict.fromkeys(TASK.evaluation_criteria.nl_assertions, True)),
    )
    assert judged.reward == 1.0
    assert rejudge(judged, TRAJECTORY, TASK, broken) is judged
    still = rejudge(_unjudged(), TRAJECTORY, TASK, broken)
    assert still.reward is None and needs_judge(still) and "provider down" in still.note


def test_arejudge__awaits_ajudge_or_runs_a_plain_judge_in_a_thread():
    rule = _rule(dict.fromkeys(TASK.evaluation_criteria.nl_assertions, True))

    class Async:
        name = "async-judge"

        async def ajudge(self, trajectory, assertions):
            return rule(trajectory, assertions)

        def __call__(self, trajectory, assertions):
            raise AssertionError("the blocking path must not be used")

    by_async = asyncio.run(arejudge(_unjudged(), TRAJECTORY, TASK, Async()))
    by_thread = asyncio.run(arejudge(_unjudged(), TRAJECTORY, TASK, rule))
    assert by_async.reward == by_thread.reward == 1.0 and by_async.judge == "async-judge"


def test_rejudge__a_stored_grade_already_at_0_is_completed_without_the_judge():
    # A grade stored before such grades got reward 0 at once: COMMUNICATE 0, NL waiting.
    from tau_env.grading import combine
    from tau_env.grading.nl_assertions import judge_call_saved, unjudged_check

    silent = [said("Hello.")]
    graded = TaskGrader().grade(make_episode(None, TASK, silent, world=object()))
    checks = {**graded.checks, "NL_ASSERTION": unjudged_check(["a", "b"])}
    stored = combine(graded.termination, graded.reward_basis, checks)
    stored = stored.model_copy(update={"reward": None, "not_judged": ["NL_ASSERTION"]})
    assert needs_judge(stored)

    def never(trajectory, assertions):
        raise AssertionError("the judge was asked")

    for done in (
        rejudge(stored, silent, TASK, never),
        asyncio.run(arejudge(stored, silent, TASK, never)),
    ):
        assert done.reward == 0.0 and not needs_judge(done) and judge_call_saved(done)
