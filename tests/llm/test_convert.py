import json

import pytest

from tau_env.actions import CallTool, SendMessage
from tau_env.errors import ParticipantError
from tau_env.llm import LLMResponse, LLMToolCall, response_actions, to_openai_messages
from tau_env.messages import AssistantMessage, ToolCall, ToolMessage, UserMessage

HISTORY = [
    AssistantMessage(content="Hi! How can I help you today?"),
    UserMessage(content="My inbox is full."),
    AssistantMessage(tool_calls=[ToolCall(id="a1", name="get_users", arguments={})]),
    ToolMessage(id="a1", content="[]", requestor="assistant"),
    AssistantMessage(content="Please check your notifications."),
    UserMessage(tool_calls=[ToolCall(id="u1", name="check_notifications", requestor="user")]),
    ToolMessage(id="u1", content="[]", requestor="user"),
]


def test_agent_view__keeps_roles_and_pairs_tool_calls_with_results():
    agent_history = HISTORY[:5]
    chat = to_openai_messages(agent_history, side="agent", system="policy")
    assert [m["role"] for m in chat] == [
        "system",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
    ]
    assert chat[3]["tool_calls"][0]["function"] == {"name": "get_users", "arguments": "{}"}
    assert chat[4]["tool_call_id"] == "a1"


def test_user_view__is_role_flipped_as_in_the_reference():
    user_history = [HISTORY[0], HISTORY[1], HISTORY[4], HISTORY[5], HISTORY[6]]
    chat = to_openai_messages(user_history, side="user", system="guidelines")
    assert [m["role"] for m in chat] == ["system", "user", "assistant", "user", "assistant", "tool"]
    assert chat[1]["content"] == "Hi! How can I help you today?"
    assert chat[2]["content"] == "My inbox is full."
    assert chat[4]["tool_calls"][0]["function"]["name"] == "check_notifications"


def test_recorded_malformed_arguments__are_sent_back_verbatim():
    call = ToolCall(id="x", name="f", arguments={"_raw_arguments": '{"a": '})
    chat = to_openai_messages([UserMessage(tool_calls=[call])], side="user")
    assert chat[0]["tool_calls"][0]["function"]["arguments"] == '{"a": '


def test_response_actions__tool_calls_win_over_text():
    reply = LLMResponse(
        model="m",
        content="let me check",
        tool_calls=(
            LLMToolCall.from_wire("c1", "f", '{"a": 1}'),
            LLMToolCall.from_wire("c2", "g", "{bad"),
        ),
    )
    first, second = response_actions(reply)
    assert first == CallTool(name="f", arguments={"a": 1}, call_id="c1")
    assert second == CallTool(name="g", arguments="{bad", call_id="c2")


def test_response_actions__text_becomes_a_message_and_empty_is_a_participant_error():
    assert response_actions(LLMResponse(model="m", content="Hi")) == [SendMessage(content="Hi")]
    with pytest.raises(ParticipantError, match="neither text nor tool calls"):
        response_actions(LLMResponse(model="m", content="  "))


def test_tool_arguments__parse_leniently():
    assert LLMToolCall.from_wire("i", "f", "").arguments == {}
    assert LLMToolCall.from_wire("i", "f", "[1]").malformed
    assert LLMToolCall.from_wire("i", "f", json.dumps({"k": "v"})).arguments == {"k": "v"}
