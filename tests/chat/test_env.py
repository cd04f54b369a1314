from __future__ import annotations

import pytest

import tau_env
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import ChatEnv, make_chat_env
from tau_env.episode_runner import run_episode
from tau_env.errors import InvalidAction, ResetNeeded, TauEnvError
from tau_env.wrappers.users import ScriptedUser
from tests.chat.conftest import play_oracle

TELECOM_TASKS = [t.id for t in tau_env.make_env("telecom").unwrapped.tasks[:6]]


def test_reset__returns_system_greeting_and_user_opening():
    chat = make_chat_env("telecom", system_prompt=lambda policy: f"POLICY:{policy[:10]}")
    turn = chat.reset(task_id=TELECOM_TASKS[0], seed=0)
    roles = [m["role"] for m in turn.messages]
    assert roles == ["system", "assistant", "user"]
    assert turn.messages[0]["content"].startswith("POLICY:")
    assert turn.messages[1]["content"] == "Hi! How can I help you today?"
    assert turn.messages[2]["content"]
    assert chat.messages == turn.messages
    assert {t["function"]["name"] for t in chat.tools} >= {"get_customer_by_phone"}
    assert not turn.done and turn.reward == 0.0


@pytest.mark.parametrize("task_id", TELECOM_TASKS)
def test_oracle_through_chat__same_reward_and_trajectory_as_run_episode(task_id):
    chat = make_chat_env("telecom")
    turns = play_oracle(chat, task_id=task_id, seed=7)
    env = tau_env.make_env("telecom")
    domain = env.unwrapped.domain
    direct = run_episode(
        env, PlainTextOracleAgent, ScriptedUser.factory(domain), task_id=task_id, seed=7
    )
    assert turns[-1].done
    assert turns[-1].reward == direct.reward
    assert turns[-1].grade == direct.grade.model_dump(mode="json")
    assert chat.single.aec.unwrapped.conversation.trajectory == direct.trajectory


def test_step__tool_call_returns_its_result_with_the_call_id():
    chat = make_chat_env("telecom")
    chat.reset(task_id=TELECOM_TASKS[0], seed=0)
    turn = chat.step(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "abc",
                    "type": "function",
                    "function": {
                        "name": "get_customer_by_phone",
                        "arguments": '{"phone_number": "0"}',
                    },
                }
            ],
        }
    )
    assert turn.messages == [
        {"role": "tool", "tool_call_id": "abc", "content": turn.messages[0]["content"]}
    ]
    assert turn.messages[0]["content"].startswith("Error:")
    assert chat.messages[-2]["tool_calls"][0]["id"] == "abc"


def test_step__several_calls_run_in_order_and_get_ids():
    chat = make_chat_env("telecom")
    chat.reset(task_id=TELECOM_TASKS[0], seed=0)
    call = {"function": {"name": "get_customer_by_id", "arguments": {"customer_id": "C1"}}}
    turn = chat.step({"tool_calls": [call, call]})
    ids = [m["tool_call_id"] for m in turn.messages]
    assert len(set(ids)) == 2
    assert [c["id"] for c in chat.messages[-3]["tool_calls"]] == ids
    assert [m["role"] for m in turn.messages] == ["tool", "tool"]


def test_step__text_passes_the_floor_and_returns_the_users_reply():
    chat = make_chat_env("telecom")
    chat.reset(task_id=TELECOM_TASKS[0], seed=0)
    turn = chat.step({"role": "assistant", "content": "What is your phone number?"})
    assert [m["role"] for m in turn.messages] == ["user"]
    assert "phone number" in turn.messages[0]["content"].lower()


def test_step__empty_message_ends_the_episode_as_agent_error():
    chat = make_chat_env("telecom")
    chat.reset(task_id=TELECOM_TASKS[0], seed=0)
    turn = chat.step({"role": "assistant", "content": "  "})
    assert turn.done and turn.reward == 0.0
    assert turn.info["termination"] == "agent_error"
    with pytest.raises(ResetNeeded):
        chat.step({"content": "hello"})


@pytest.mark.parametrize(
    ("message", "complaint"),
    [
        ("hello", "mapping"),
        ({"role": "user", "content": "hi"}, "role"),
        ({"content": 3}, "content"),
        ({"tool_calls": {"a": 1}}, "list"),
        ({"tool_calls": [{"function": {"arguments": "{}"}}]}, "name"),
        ({"tool_calls": [{"function": {"name": "x", "arguments": 5}}]}, "arguments"),
    ],
)
def test_step__malformed_message_raises_and_changes_nothing(message, complaint):
    chat = make_chat_env("telecom")
    chat.reset(task_id=TELECOM_TASKS[0], seed=0)
    before = list(chat.messages)
    steps = chat.single.aec.unwrapped.conversation.step_count
    with pytest.raises(InvalidAction, match=complaint):
        chat.step(message)
    assert chat.messages == before
    assert chat.single.aec.unwrapped.conversation.step_count == steps


def test_step__malformed_arguments_give_an_error_result():
    chat = make_chat_env("telecom")
    chat.reset(task_id=TELECOM_TASKS[0], seed=0)
    turn = chat.step(
        {"tool_calls": [{"function": {"name": "get_customer_by_id", "arguments": "{oops"}}]}
    )
    assert turn.messages[0]["content"].startswith("Error:")
    assert not turn.done


def test_no_user_mode__agent_alone_with_done_tool():
    chat = make_chat_env("telecom", mode="no-user")
    turn = chat.reset(seed=0)
    assert [m["role"] for m in turn.messages] == ["system"]
    assert "done" in {t["function"]["name"] for t in chat.tools}
    turn = chat.step({"tool_calls": [{"function": {"name": "done", "arguments": "{}"}}]})
    assert turn.done and "grade" in turn.info


def test_user__any_participant_factory_plugs_in():
    seen = []

    class Quitter:
        def __init__(self, task):
            seen.append(task.id)

        def act(self, view, context):
            return tau_env.Stop()

    env = tau_env.make_env("mock")
    chat = ChatEnv(env, Quitter)
    turn = chat.reset(seed=0)
    assert turn.done and seen == [chat.task_id]
    assert turn.info["termination"] == "user_stop"


def test_make_chat_env__unknown_user_kind_is_a_clear_error():
    with pytest.raises(TauEnvError, match="unknown user"):
        make_chat_env("mock", user="nobody")


def test_llm_user__needs_a_model():
    with pytest.raises(TauEnvError, match="model"):
        make_chat_env("mock", user="llm")


def test_llm_user__requests_carry_the_episode_seed(monkeypatch):
    # Issue 41: LLM-user requests made from the chat env carried no seed.
    from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply

    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    with FakeOpenAIServer(lambda request: FakeReply.text("Hello, my task is done.")) as server:
        chat = make_chat_env(
            "mock", user="llm", user_model=server.model(), user_api_base=server.base_url
        )
        chat.reset(task_id="create_task", seed=11)
        chat.reset(task_id="create_task")  # no seed: the one the env drew
        drawn = chat.single.aec.unwrapped.episode_seed & 0x7FFFFFFF
        seeds = [request.body.get("seed") for request in server.requests]
    assert seeds == [11, drawn]
