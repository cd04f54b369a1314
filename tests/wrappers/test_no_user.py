import pytest
from pettingzoo.test import api_test

import tau_env
from tau_env.actions import CallTool, SendMessage, Stop
from tau_env.baselines.oracle import SoloOracleAgent
from tau_env.episode_runner import run_episode
from tau_env.wrappers import DONE_TOOL, NoUser, playable_without_user, solo_compatible
from tau_env.wrappers.no_user import needs_a_listener, no_user_refusal
from tests.mock_messages import COMPLETE_TASK_1

MOCK_AGENT_TOOLS = ["create_task", "get_users", "update_task_status", "transfer_to_human_agents"]
MOCK_USER_TOOLS = ["check_notifications", "dismiss_notification"]

# Official mock tasks a perfect solo agent still cannot pass: one gold plan misses the user's
# step that its env assertion checks (spec §15.13; the reference cannot pass it either).
OFFICIAL_SOLO_UNPASSABLE = {"update_task_with_user_tools"}
# Refused by the mode since issue 15: its COMMUNICATE basis lists sentences for the user, whom
# No-User removes (a perfect agent scored 0 on it).
OFFICIAL_NEEDS_A_LISTENER = "update_task_with_initialization_data"


def no_user(task_id="complete_and_dismiss", source=None):
    env = NoUser(tau_env.make_env("mock", data_dir=source))
    env.reset(seed=0, options={"task_id": task_id})
    return env


def test_no_user__has_only_the_agent_and_no_greeting():
    env = no_user()
    assert env.possible_agents == ["agent"] and env.agents == ["agent"]
    assert env.agent_selection == "agent"
    assert env.observe("agent")["messages"] == ()  # nobody greeted, nobody wrote
    assert env.unwrapped.conversation.trajectory == []


def test_no_user__offers_agent_tools_then_user_tools_then_done():
    env = no_user()
    names = [t["function"]["name"] for t in env.context("agent").tools]
    assert names == [*MOCK_AGENT_TOOLS, *MOCK_USER_TOOLS, DONE_TOOL]
    assert env.action_space("agent")["tool"].n == len(names)
    assert list(env.context("agent").tool_names) == names


def test_no_user__observation_holds_the_ticket_and_the_policy():
    env = no_user("create_task_with_description")
    instructions = env.observe("agent")["instructions"]
    assert env.unwrapped.task.ticket in instructions
    assert instructions.startswith(env.unwrapped.domain.policy)
    assert "<ticket>" in instructions and DONE_TOOL in instructions


def test_no_user__uses_the_solo_policy_where_the_data_has_one(data_dir):
    env = no_user("create_task_1", source=data_dir)
    solo = env.unwrapped.domain.data.solo_policy
    assert solo is not None and solo != env.unwrapped.domain.policy
    assert env.observe("agent")["instructions"].startswith(solo)


def test_user_tools__act_on_the_users_device_and_answer_the_agent():
    env = no_user()
    env.step(CallTool(name="dismiss_notification", arguments={"notification_id": "notif_1"}))
    (result,) = env.observe("agent")["messages"]
    assert result["content"] == "Notification notif_1 dismissed" and not result["error"]
    world = env.unwrapped.conversation.world
    assert world.run_env_function(
        "user",
        "assert_notification_status",
        {"notification_id": "notif_1", "expected_status": "read"},
    )
    call = env.unwrapped.conversation.trajectory[0]
    assert call.role == "assistant" and call.tool_calls[0].requestor == "assistant"


def test_done__ends_the_episode_as_the_agents_stop_and_it_is_graded():
    env = no_user("complete_task")
    env.step(COMPLETE_TASK_1)
    env.step(CallTool(name=DONE_TOOL))
    _, reward, terminated, truncated, info = env.last()
    assert terminated and not truncated and reward == 1.0
    assert info["termination"] == "agent_stop"


def test_done__as_an_action_space_sample_index():
    env = no_user("complete_task")
    done_index = env.context("agent").tool_names.index(DONE_TOOL)
    env.step({"kind": 1, "content": "", "tool": done_index, "arguments": "{}"})
    assert env.last()[4]["termination"] == "agent_stop"


def test_text_messages__end_the_episode_as_the_agents_error():
    env = no_user("complete_task")
    env.step(SendMessage(content="Hello? Is anyone there?"))
    _, reward, terminated, _, info = env.last()
    assert terminated and reward == 0.0
    assert info["termination"] == "agent_error" and "no user" in info["no_user_error"]
    stopped = no_user("complete_task")
    stopped.step(SendMessage(content="###STOP###"))
    assert stopped.last()[4]["termination"] == "agent_stop"
    stop = no_user("complete_task")
    stop.step(Stop())
    assert stop.last()[4]["termination"] == "agent_stop"


def test_no_user__skips_tasks_whose_history_needs_the_user():
    env = NoUser(tau_env.make_env("mock"))
    assert "complete_after_history" not in [t.id for t in env.tasks]
    assert not playable_without_user(env.unwrapped.domain.task("complete_after_history"))
    seen = set()
    for _ in range(len(env.tasks)):
        env.reset(seed=0)
        seen.add(env.unwrapped.task.id)
    assert seen == {t.id for t in env.tasks}
    with pytest.raises(ValueError, match="complete_after_history"):
        env.reset(options={"task_id": "complete_after_history"})


def test_solo_oracle__reaches_one_on_the_official_mock_data(data_dir):
    env = NoUser(tau_env.make_env("mock", data_dir=data_dir))
    rewards = {
        t.id: run_episode(env, SoloOracleAgent, None, task_id=t.id, seed=0).reward
        for t in env.tasks
    }
    assert {t for t, r in rewards.items() if r < 1.0} == OFFICIAL_SOLO_UNPASSABLE
    # Not playable: the two tasks with a conversation in progress, and the one whose reward
    # needs COMMUNICATE.
    assert len(rewards) == 7 and OFFICIAL_NEEDS_A_LISTENER not in rewards
    assert sum(solo_compatible(t) for t in env.tasks) == 6  # the reference's own filter


def test_solo_oracle__reaches_one_on_built_in_tasks_without_communicate():
    env = NoUser(tau_env.make_env("mock"))
    for task in env.tasks:
        result = run_episode(env, SoloOracleAgent, None, task_id=task.id, seed=0)
        if "COMMUNICATE" not in task.reward_basis:  # nobody to tell anything to
            assert result.reward == 1.0, task.id


def test_no_user__passes_the_pettingzoo_api_test():
    api_test(NoUser(tau_env.make_env("mock")), num_cycles=20)


def test_no_user__rejects_what_is_not_a_tau_env():
    from types import SimpleNamespace

    with pytest.raises(TypeError, match="tau_env"):
        NoUser(SimpleNamespace(unwrapped=object()))


def test_no_user__refuses_a_task_whose_reward_needs_communicate():
    # Before issue 15 the oracle played it and scored 0: nobody receives what COMMUNICATE checks.
    env = NoUser(tau_env.make_env("mock"))
    task = env.unwrapped.domain.task("create_task")
    assert "COMMUNICATE" in task.reward_basis and task.evaluation_criteria.communicate_info
    assert needs_a_listener(task)
    assert "create_task" not in [t.id for t in env.tasks]
    with pytest.raises(ValueError, match="reward needs COMMUNICATE"):
        env.reset(options={"task_id": "create_task"})


def test_no_user__keeps_a_communicate_task_with_nothing_to_say():
    task = tau_env.make_env("mock").unwrapped.domain.task("complete_task")
    assert no_user_refusal(task) is None
