"""Playing one episode: the bare env is driven when no wrapper changes what a step does."""

from __future__ import annotations

from pettingzoo.utils.wrappers import AssertOutOfBoundsWrapper, OrderEnforcingWrapper

import tau_env
from tau_env.baselines.oracle import OracleAgent, SoloOracleAgent
from tau_env.episode_runner import bare_env, live_turns, run_episode
from tau_env.wrappers import NoUser
from tau_env.wrappers.users import GoldUser


def test_bare_env__only_through_the_order_enforcing_wrapper(mock_env):
    raw = mock_env.unwrapped
    assert bare_env(mock_env) is raw
    assert bare_env(raw) is raw
    assert bare_env(NoUser(mock_env)) is None
    assert bare_env(OrderEnforcingWrapper(NoUser(raw))) is None


def test_bare_env__not_through_other_wrappers():
    raw = tau_env.make_env("mock").unwrapped
    assert bare_env(AssertOutOfBoundsWrapper(raw)) is None


def test_run_episode__same_result_wrapped_or_bare(mock_env):
    for task in mock_env.unwrapped.tasks:
        wrapped = run_episode(mock_env, OracleAgent, GoldUser, task_id=task.id, seed=3)
        bare = run_episode(mock_env.unwrapped, OracleAgent, GoldUser, task_id=task.id, seed=3)
        assert wrapped.trajectory == bare.trajectory
        assert wrapped.grade == bare.grade and wrapped.steps == bare.steps


def test_run_episode__the_wrapper_stays_usable_after_a_bare_run(mock_env):
    run_episode(mock_env, OracleAgent, GoldUser, seed=0)
    assert mock_env.agents == []  # both sides were stepped out of the episode
    mock_env.reset(options={"task_id": mock_env.unwrapped.tasks[0].id})
    sides = []
    for side in mock_env.agent_iter(max_iter=3):  # the wrapper's own order checks still run
        sides.append(side)
        mock_env.step(tau_env.SendMessage(content="hello"))
    assert sides == ["user", "agent", "user"]


def test_run_episode__leaves_the_order_wrapper_as_its_own_reset_does():
    task_id = tau_env.make_env("mock").unwrapped.tasks[0].id
    by_runner, by_reset = tau_env.make_env("mock"), tau_env.make_env("mock")
    run_episode(by_runner, OracleAgent, GoldUser, task_id=task_id, seed=2)
    by_reset.reset(seed=2, options={"task_id": task_id})
    own = {name: value for name, value in vars(by_reset).items() if name != "env"}
    assert {name: vars(by_runner)[name] for name in own} == own
    assert set(vars(by_runner)) == set(vars(by_reset))
    assert own["_has_reset"] is True and own["_has_updated"] is True


def test_live_turns__through_a_mode_wrapper_uses_the_wrapper(mock_env):
    env = NoUser(mock_env)
    result = run_episode(env, SoloOracleAgent, None, seed=0)
    assert result.grade.termination.value == "agent_stop"
    env.reset(seed=0)
    assert next(live_turns(env)) == "agent"


def test_episode_result_of__equals_the_dataclass_constructor(mock_env):
    from tau_env.episode_runner import EpisodeResult

    result = run_episode(mock_env, OracleAgent, GoldUser, seed=1)
    built = EpisodeResult(
        result.task_id, 1, result.grade.reward, result.grade, result.trajectory, result.steps
    )
    assert result == built and repr(result) == repr(built)
    assert EpisodeResult.of("t", None, result.grade, [], 0).reward == result.grade.reward


def test_run_episode__a_subclass_with_its_own_step_is_stepped_dead_once_per_side():
    from tau_env.env.aec import TauEnv

    class Counting(TauEnv):
        dead_steps = 0

        def step(self, action):
            if action is None:
                Counting.dead_steps += 1
            super().step(action)

    raw = tau_env.make_env("mock").unwrapped
    env = Counting(raw.domain, raw.tasks)
    result = run_episode(env, OracleAgent, GoldUser, seed=0)
    assert Counting.dead_steps == 2 and env.agents == []
    assert result.grade == run_episode(raw, OracleAgent, GoldUser, seed=0).grade
