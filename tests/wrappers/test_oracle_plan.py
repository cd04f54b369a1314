import pytest
from pettingzoo.test import api_test

import tau_env
from tau_env.baselines.oracle import SoloOracleAgent
from tau_env.episode_runner import run_episode
from tau_env.wrappers import NoUser, OraclePlan, resolution_steps
from tau_env.wrappers.users import ScriptedUser


def test_oracle_plan__adds_who_does_what_with_arguments_to_the_first_observation():
    env = OraclePlan(tau_env.make_env("mock"))
    env.reset(seed=0, options={"task_id": "complete_and_dismiss"})
    assert env.agent_selection == "user"  # the user opens; the agent's first turn is next
    env.step(ScriptedUser(env.unwrapped.task).act(env.view("user"), env.context("user")))
    instructions = env.observe("agent")["instructions"]
    assert instructions.startswith(env.unwrapped.domain.policy)
    assert "<resolution_steps>" in instructions
    assert "Step 1 (you): update_task_status(task_id=task_1, status=completed)" in instructions
    assert (
        "Step 2 (ask the user to do this on their side): "
        "dismiss_notification(notification_id=notif_1)" in instructions
    )
    assert env.context("agent").instructions == instructions


def test_oracle_plan__leaves_the_user_and_the_tools_unchanged():
    plain = tau_env.make_env("mock")
    planned = OraclePlan(tau_env.make_env("mock"))
    for env in (plain, planned):
        env.reset(seed=0, options={"task_id": "complete_and_dismiss"})
    assert planned.observe("user") == plain.observe("user")
    assert planned.context("agent").tools == plain.context("agent").tools
    assert planned.context("user") == plain.context("user")


def test_oracle_plan__over_no_user_makes_every_step_the_agents():
    env = OraclePlan(NoUser(tau_env.make_env("mock")))
    env.reset(seed=0, options={"task_id": "complete_and_dismiss"})
    instructions = env.observe("agent")["instructions"]
    assert "<ticket>" in instructions and "<resolution_steps>" in instructions
    assert "Step 2 (you, on the user's device): dismiss_notification" in instructions
    assert "ask the user" not in instructions
    assert env.context("agent").tools[-1]["function"]["name"] == "done"


def test_oracle_plan_no_user__composes_and_the_solo_oracle_passes():
    env = OraclePlan(NoUser(tau_env.make_env("mock")))
    result = run_episode(env, SoloOracleAgent, None, task_id="complete_and_dismiss", seed=0)
    assert result.reward == 1.0


def test_resolution_steps__say_so_when_there_is_nothing_to_do():
    task = tau_env.load_domain("mock").task("unknown_user")
    assert "No tool call is needed" in resolution_steps(task)


@pytest.mark.parametrize("wrap", [OraclePlan, lambda env: OraclePlan(NoUser(env))])
def test_oracle_plan__passes_the_pettingzoo_api_test(wrap):
    api_test(wrap(tau_env.make_env("mock")), num_cycles=20)


def test_oracle_plan__rejects_what_is_not_a_tau_env():
    from types import SimpleNamespace

    with pytest.raises(TypeError, match="tau_env"):
        OraclePlan(SimpleNamespace(unwrapped=object()))
