import pytest

import tau_env
from tau_env.baselines.oracle import OracleAgent, PlainTextOracleAgent
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import ReplayUser, ScriptedUser


@pytest.mark.parametrize(
    "task_id", ["complete_and_dismiss", "complete_after_history", "delete_refused"]
)
def test_replay_user__reproduces_a_recorded_episode(task_id):
    env = tau_env.make_env("mock")
    recorded = run_episode(env, PlainTextOracleAgent, ScriptedUser, task_id=task_id, seed=4)
    replayed = run_episode(
        env,
        PlainTextOracleAgent,
        ReplayUser.factory({task_id: recorded.trajectory}),
        task_id=task_id,
        seed=4,
    )
    assert [m.model_dump() for m in replayed.trajectory] == [
        m.model_dump() for m in recorded.trajectory
    ]
    assert replayed.grade == recorded.grade


def test_replay_user__plays_its_side_whatever_the_agent_does_and_stops_at_the_end():
    env = tau_env.make_env("mock")
    recorded = run_episode(env, OracleAgent, ScriptedUser, task_id="complete_task", seed=0)
    replay = ReplayUser.factory({"complete_task": recorded.trajectory[:2]})  # greeting + opening

    class Quiet:
        def act(self, view, context):
            from tau_env.actions import SendMessage

            return SendMessage(content="Noted.")

    result = run_episode(env, lambda t: Quiet(), replay, task_id="complete_task", seed=0)
    user = [m.content for m in result.trajectory if m.role == "user"]
    assert user == [recorded.trajectory[1].content, "###STOP###"]
    assert result.reward == 0.0  # nothing was done this time


def test_replay_user__factory_names_a_missing_task():
    factory = ReplayUser.factory({})
    with pytest.raises(KeyError, match="create_task"):
        factory(tau_env.load_domain("mock").task("create_task"))
