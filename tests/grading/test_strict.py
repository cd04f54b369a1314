"""The strict reading: the task's listed checks multiplied in, beside the official reward."""

import pytest

import tau_env
from tau_env.episode_runner import run_episode
from tau_env.grading import TaskGrader, TerminationReason, Verdict, read_strictly, strict_basis
from tau_env.grading.strict import check_grading
from tau_env.tasks import GoldAction
from tests.grading.conftest import called, make_episode, said, task_with


def _refusal_task(**extra):
    """A refusal as the reference writes them: DB alone in the basis, the rest listed."""
    gold = GoldAction(action_id="a", name="get_users", arguments={})
    return task_with(
        actions=[gold],
        communicate_info=["not allowed"],
        nl_assertions=["The agent refuses."],
        reward_basis=["DB"],
        **extra,
    )


def test_strict_basis__adds_what_the_task_lists_outside_its_basis():
    task = _refusal_task()
    assert strict_basis(task, judged=False) == ["DB", "ACTION", "COMMUNICATE"]
    assert strict_basis(task, judged=True) == ["DB", "ACTION", "COMMUNICATE", "NL_ASSERTION"]
    plain = task_with(reward_basis=["DB", "COMMUNICATE"])
    assert strict_basis(plain, judged=True) == ["DB", "COMMUNICATE"]  # nothing else listed
    nothing = task_with(reward_basis=["DB"], actions=[], communicate_info=[], nl_assertions=[])
    assert strict_basis(nothing, judged=True) == ["DB"]  # empty lists add no check


def test_read_strictly__a_refusal_passes_officially_and_fails_strictly(domain):
    task = _refusal_task()
    idle = make_episode(domain, task, [said("Sorry, I can't.")])
    grade = TaskGrader().grade(idle)
    assert grade.reward == 1.0  # the official loophole: nothing changed, DB matches
    reading = read_strictly(grade, task, judged=False)
    assert reading.reward == 0.0 and not reading.success
    assert reading.added == ("ACTION", "COMMUNICATE")
    assert reading.failed == ("ACTION", "COMMUNICATE")
    # The same from the grade's JSON, as a store holds it.
    assert read_strictly(grade.model_dump(mode="json"), task, judged=False) == reading

    done = make_episode(domain, task, [called("get_users"), said("That is not allowed.")])
    reading = read_strictly(TaskGrader().grade(done), task, judged=False)
    assert reading.reward == 1.0 and reading.failed == ()


def test_read_strictly__nl_assertions_need_a_judge_and_are_judged_as_a_diagnostic(domain):
    task = _refusal_task()
    episode = make_episode(domain, task, [called("get_users"), said("That is not allowed.")])
    calls = []

    def judge(trajectory, assertions):
        calls.append(list(assertions))
        return [Verdict(assertion=a, met=False) for a in assertions]

    official = TaskGrader(judge=judge)
    grade = official.grade(episode)
    assert grade.checks.get("NL_ASSERTION") is None and calls == []  # official: never judged
    strict = TaskGrader(judge=judge, grading="strict")
    grade = strict.grade(make_episode(domain, task, episode.trajectory))
    assert grade.reward == 1.0  # the official reward is untouched
    reading = strict.strict_reading(grade, task)
    assert calls == [["The agent refuses."]]
    assert reading.reward == 0.0 and reading.failed == ("NL_ASSERTION",)
    # Without a ruling on file, a judged reading waits, unless another check decides it.
    unruled = TaskGrader().grade(make_episode(domain, task, episode.trajectory))
    assert read_strictly(unruled, task, judged=True).reward is None
    failing = TaskGrader().grade(make_episode(domain, task, [said("no")]))
    assert read_strictly(failing, task, judged=True).reward == 0.0


def test_read_strictly__premature_endings_stay_zero(domain):
    task = _refusal_task()
    episode = make_episode(domain, task, termination=TerminationReason.MAX_STEPS)
    reading = read_strictly(TaskGrader().grade(episode), task, judged=True)
    assert reading.reward == 0.0 and reading.basis == ()


def test_grading__unknown_names_are_refused():
    with pytest.raises(ValueError, match="grading must be one of"):
        check_grading("lenient")
    with pytest.raises(ValueError, match="grading must be one of"):
        TaskGrader(grading="lenient")  # type: ignore[arg-type]


def _final_infos(env, agent):
    """Play one episode with `agent` (a callable (view) -> action) and the scripted user."""
    from tau_env.wrappers.users import ScriptedUser

    user = ScriptedUser(env.unwrapped.task, env.unwrapped.domain)
    final = {}
    for side in env.agent_iter():
        _, reward, termination, truncation, info = env.last()
        if termination or truncation:
            final[side] = (reward, info)
            env.step(None)
            continue
        bare = env.unwrapped
        view, context = bare.view(side), bare.context(side)
        env.step(agent(view) if side == "agent" else user.act(view, context))
    return final


def test_env__strict_info_beside_the_official_reward(data_dir):
    """Official airline task 5 passes an agent that refuses; its strict reading does not."""
    env = tau_env.make_env("airline", task_id="5", data_dir=data_dir, grading="strict")
    env.reset(seed=0)
    said = []

    def refuse(view):
        said.append(1)
        return tau_env.SendMessage(content="Sorry, I can't.") if len(said) == 1 else tau_env.Stop()

    reward, info = _final_infos(env, refuse)["agent"]
    assert reward == info["grade"]["reward"] == 1.0  # the official reward is the reference's
    assert info["strict"]["reward"] == 0.0
    assert "ACTION" in info["strict"]["added"] and "ACTION" in info["strict"]["failed"]
    plain = tau_env.make_env("airline", task_id="5", data_dir=data_dir)
    plain.reset(seed=0)
    said.clear()
    assert "strict" not in _final_infos(plain, refuse)["agent"][1]


def test_env__strict_never_exceeds_official_over_a_task_set():
    """Both readings grade one episode: strict multiplies in more checks, never fewer."""
    env = tau_env.make_env("airline", data_dir=None, grading="strict")
    from tau_env.baselines.probes import probe_factories
    from tau_env.wrappers.users import ScriptedUser

    bare = env.unwrapped
    user = ScriptedUser.factory(bare.domain)
    player = probe_factories(bare.domain)["random_s0"]
    for task in bare.tasks[:40]:
        grade = run_episode(env, player, user, task_id=task.id, seed=0).grade
        reading = bare.grader.strict_reading(grade, task)
        if grade.reward is not None and reading.reward is not None:
            assert reading.reward <= grade.reward, task.id


def test_env__grading_goes_to_the_grader():
    with pytest.raises(ValueError, match="give grading='strict' to the TaskGrader"):
        tau_env.make_env("mock", grader=TaskGrader(), grading="strict")
    env = tau_env.make_env("mock", grader=TaskGrader(grading="strict"), grading="strict")
    assert env.unwrapped.grading == "strict"
