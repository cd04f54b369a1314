from __future__ import annotations

import json

import tau_env
from tau_env.chat import make_chat_env
from tau_env.chat.transcript import recorded_chat
from tests.chat.conftest import play_oracle

# A telecom task in which the customer runs tools on their phone (traffic the agent never sees).
TASK = next(
    t.id
    for t in tau_env.make_env("telecom").unwrapped.tasks
    if any(g.requestor == "user" for g in t.gold_actions)
    and any(g.requestor == "assistant" for g in t.gold_actions)
)


def test_recorded_chat__is_the_chat_the_agent_was_shown():
    chat = make_chat_env("telecom")
    play_oracle(chat, task_id=TASK, seed=3)
    trajectory = chat.single.driven.unwrapped.conversation.trajectory
    assert any(m.role == "tool" and m.requestor == "user" for m in trajectory)
    assert any(m.role == "tool" and m.requestor == "assistant" for m in trajectory)

    rebuilt = recorded_chat(chat.messages[0]["content"], trajectory)

    assert rebuilt == chat.messages  # the customer's own tool traffic left out


def test_recorded_chat__a_turn_of_several_calls_comes_back_as_one_turn_per_call():
    """The trajectory holds one call per message: the documented limit of a rebuilt chat."""
    chat = make_chat_env("mock")
    chat.reset(task_id="complete_task", seed=0)
    call = {"type": "function", "function": {"name": "get_users", "arguments": "{}"}}
    chat.step({"role": "assistant", "content": "Looking.", "tool_calls": [call, call]})
    trajectory = chat.single.driven.unwrapped.conversation.trajectory

    rebuilt = recorded_chat(chat.messages[0]["content"], trajectory)

    sent = chat.messages[3:]
    assert [m["role"] for m in sent[:3]] == ["assistant", "tool", "tool"]
    assert [m["role"] for m in rebuilt[3:7]] == ["assistant", "tool", "assistant", "tool"]
    assert [m["content"] for m in rebuilt[3:7:2]] == [None, None]  # the text reached no one
    calls = [m["tool_calls"][0] for m in rebuilt[3:7:2]]
    assert calls == sent[0]["tool_calls"]  # the same calls, with the ids the env gave them
    assert json.loads(rebuilt[4]["content"]) == json.loads(sent[1]["content"])
