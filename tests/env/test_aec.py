"""`TauEnv`'s end of episode: the reward at once, the infos and diagnostics when first read."""

from __future__ import annotations

import pytest

import tau_env
from tau_env.actions import SendMessage, Stop
from tau_env.grading import TaskGrader
from tau_env.grading.grader import ComponentGrader
from tests.mock_messages import COMPLETE_TASK_1


class _Counting:
    """Wraps a component grader and counts its runs."""

    def __init__(self, inner: ComponentGrader) -> None:
        self.inner = inner
        self.component = inner.component
        self.runs = 0

    def check(self, episode):
        self.runs += 1
        return self.inner.check(episode)


def _env_and_graders():
    counting = [_Counting(g) for g in TaskGrader().graders]
    env = tau_env.make_env("mock", grader=TaskGrader(graders=counting)).unwrapped
    return env, {g.component: g for g in counting}


def _play_complete_task(env) -> None:
    env.reset(seed=0, options={"task_id": "complete_task"})
    for action in (
        SendMessage(content="close task_1"),
        COMPLETE_TASK_1,
        Stop(),
    ):
        env.step(action)


def test_finish__reward_now_diagnostics_when_the_infos_are_read():
    env, graders = _env_and_graders()
    _play_complete_task(env)
    basis = env.task.evaluation_criteria.reward_basis
    assert env.rewards == {"agent": 1.0, "user": 1.0}
    assert all(g.runs == (name in basis) for name, g in graders.items())
    info = env.infos["user"]
    assert info["termination"] == "agent_stop" and "task_id" not in info  # issue 53
    assert info["grade"] == env.grade.model_dump(mode="json")
    assert set(info["grade"]["checks"]) == {"DB", "ENV_ASSERTION", "ACTION", "COMMUNICATE"}
    assert env.infos["agent"] == info and env.infos["agent"] is not info
    assert all(g.runs == 1 for name, g in graders.items() if name != "NL_ASSERTION")


def test_dead_steps__drop_the_infos_unbuilt_and_the_grade_keeps_its_checks():
    env, _ = _env_and_graders()
    _play_complete_task(env)
    env.step(None)
    assert "agent" not in env.infos and set(env.infos) == {"user"}
    assert env.infos["user"]["grade"]["reward"] == 1.0  # the remaining side's is built
    env.step(None)
    assert env.infos == {} and env.agents == []
    assert set(env.grade.checks) == {"DB", "ENV_ASSERTION", "ACTION", "COMMUNICATE"}


def test_dead_steps__both_sides_gone_before_any_read_never_build_the_infos():
    env, graders = _env_and_graders()
    _play_complete_task(env)
    env.step(None)
    env.step(None)
    assert env.infos == {}
    assert env.task.evaluation_criteria.reward_basis == ["DB"]
    assert graders["DB"].runs == 1 and graders["ACTION"].runs == 0
    assert env.grade.checks["ACTION"].reward == 1.0 and graders["ACTION"].runs == 1


def test_dead_step__with_an_action_still_raises_and_keeps_the_infos():
    env, _ = _env_and_graders()
    _play_complete_task(env)
    with pytest.raises(ValueError, match="dead"):
        env.step(Stop())
    assert set(env.infos) == {"agent", "user"}
    assert env.infos["agent"]["grade"]["reward"] == 1.0


def test_reset__forgets_the_last_episodes_infos():
    env, _ = _env_and_graders()
    _play_complete_task(env)
    env.reset(seed=0, options={"task_id": "complete_task"})
    assert env.infos == {"agent": {}, "user": {}}


def _observable(env) -> dict:
    """Everything PettingZoo's dead step touches, as PettingZoo users see it."""
    return {
        "agents": list(env.agents),
        "rewards": [(side, type(r), r) for side, r in env.rewards.items()],
        "cumulative": dict(env._cumulative_rewards),
        "terminations": dict(env.terminations),
        "truncations": dict(env.truncations),
        "infos": sorted(env.infos),
        "selection": env.agent_selection,
        "skip": env._skip_agent_selection,
    }


def _mark_done(env, done: dict) -> None:
    for side, value in done.items():
        env.terminations[side] = value


@pytest.mark.parametrize(
    "done",
    [
        None,  # the episode's own end: both sides done
        {"user": True},  # the selected side alone (state a wrapper could set up)
        {"agent": True, "user": True},  # both, mid-conversation
    ],
)
def test_dead_steps__leave_the_state_pettingzoo_s_own_dead_step_leaves(done):
    from pettingzoo import AECEnv

    ours, theirs = (tau_env.make_env("mock").unwrapped for _ in range(2))
    for env in (ours, theirs):
        if done is None:
            _play_complete_task(env)
        else:
            env.reset(seed=0, options={"task_id": "complete_task"})
            _mark_done(env, done)
    while (side := theirs.agent_selection) in theirs.agents and (
        theirs.terminations[side] or theirs.truncations[side]
    ):
        ours.step(None)
        AECEnv._was_dead_step(theirs, None)
        assert _observable(ours) == _observable(theirs)
    assert ours.agents == theirs.agents


@pytest.mark.parametrize(
    "setup",
    [
        "end",  # the episode's own end: both sides done
        "end, infos read",  # the same, after the infos were built
        "end, one side stepped",  # one dead step taken before
        "both done mid-conversation",
    ],
)
def test_step_dead_sides__leaves_the_state_of_one_dead_step_per_side(setup):
    from pettingzoo import AECEnv

    ours, theirs = (tau_env.make_env("mock").unwrapped for _ in range(2))
    for env in (ours, theirs):
        if setup.startswith("end"):
            _play_complete_task(env)
        else:
            env.reset(seed=0, options={"task_id": "complete_task"})
            _mark_done(env, {"agent": True, "user": True})
        if setup == "end, infos read":
            assert env.infos["agent"]["grade"]["reward"] == 1.0
        if setup == "end, one side stepped":
            env.step(None)
    assert ours.step_dead_sides() is True
    while theirs.agents:
        AECEnv._was_dead_step(theirs, None)
    assert _observable(ours) == _observable(theirs)
    assert ours.agents == [] and ours.infos == {}
    assert ours.grade.reward == 1.0 if setup.startswith("end") else ours.grade is None


def test_step_dead_sides__refuses_while_a_side_is_live_and_changes_nothing():
    env = tau_env.make_env("mock").unwrapped
    env.reset(seed=0, options={"task_id": "complete_task"})
    _mark_done(env, {"user": True})
    before = _observable(env)
    assert env.step_dead_sides() is False
    assert _observable(env) == before


def test_step_dead_sides__refuses_for_a_class_with_its_own_step_and_changes_nothing():
    """A subclass that redefines `step` is owed each dead step through it."""
    from tau_env.env.aec import TauEnv

    class OwnStep(TauEnv):
        def step(self, action):
            super().step(action)

    raw = tau_env.make_env("mock").unwrapped
    env = OwnStep(raw.domain, raw.tasks)
    _play_complete_task(env)
    before = _observable(env)
    assert env.step_dead_sides() is False
    assert _observable(env) == before
    env.step(None)
    env.step(None)
    assert env.agents == []
