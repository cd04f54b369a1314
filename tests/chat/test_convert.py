from __future__ import annotations

import pytest

from tau_env.actions import CallTool, SendMessage, Stop
from tau_env.chat import action_message, assistant_actions, normalize_assistant_message


def test_round_trip__actions_to_messages_and_back():
    for action in (
        CallTool(name="get_bill", arguments={"id": "B1"}, call_id="c9"),
        SendMessage(content="Hello"),
    ):
        assert assistant_actions(normalize_assistant_message(action_message(action))) == [action]


def test_stop__becomes_its_token():
    assert action_message(Stop(reason="transfer"))["content"] == "###TRANSFER###"


def test_text_alongside_calls__only_the_calls_act():
    message = normalize_assistant_message(
        {"content": "hi", "tool_calls": [{"function": {"name": "a", "arguments": {}}}]}
    )
    assert message["content"] == "hi"
    assert assistant_actions(message) == [CallTool(name="a", arguments={})]


def test_empty_message__one_empty_send():
    assert assistant_actions(normalize_assistant_message({"content": None})) == [
        SendMessage(content="")
    ]


def test_malformed_arguments__passed_on_as_text():
    message = normalize_assistant_message(
        {"tool_calls": [{"function": {"name": "a", "arguments": "{x"}}]}
    )
    assert assistant_actions(message) == [CallTool(name="a", arguments="{x")]


@pytest.mark.parametrize("bad", [None, [], {"role": "tool"}])
def test_normalize__rejects_what_is_not_an_assistant_message(bad):
    from tau_env.errors import InvalidAction

    with pytest.raises(InvalidAction):
        normalize_assistant_message(bad)
