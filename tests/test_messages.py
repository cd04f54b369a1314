"""Trajectory messages: records the env builds without validation equal validated ones."""

from __future__ import annotations

import pytest

from tau_env import CallTool, SendMessage, Stop
from tau_env.messages import (
    AssistantMessage,
    RequestedToolCall,
    ToolCall,
    ToolMessage,
    UserMessage,
    UserRequest,
    trusted,
)


def same_record(built, validated) -> None:
    """Everything observable about a pydantic record is the same."""
    assert type(built) is type(validated)
    assert built == validated
    assert list(built.__dict__) == list(validated.__dict__)  # field order (iteration, repr)
    assert built.model_fields_set == validated.model_fields_set
    assert built.model_dump() == validated.model_dump()
    assert built.model_dump_json() == validated.model_dump_json()
    assert built.model_dump(exclude_unset=True) == validated.model_dump(exclude_unset=True)
    assert repr(built) == repr(validated)
    assert type(validated).model_validate(built.model_dump()) == built


def test_trusted__equals_the_validating_constructor():
    validated = ToolMessage(id="c1", content="ok", requestor="user", error=True, name="x")
    built = trusted(
        ToolMessage,
        {
            "role": "tool",
            "id": "c1",
            "content": "ok",
            "requestor": "user",
            "error": True,
            "name": "x",
        },
        ("id", "content", "requestor", "error", "name"),
    )
    same_record(built, validated)


def test_trusted__fields_set_is_its_own():
    given = ["content"]
    built = trusted(UserMessage, {"role": "user", "content": "hi", "tool_calls": None}, given)
    built.__pydantic_fields_set__.add("tool_calls")
    assert given == ["content"]
    other = trusted(UserMessage, {"role": "user", "content": "hi", "tool_calls": None}, given)
    assert other.model_fields_set == {"content"}


def _played(env, *actions):
    """The trajectory after resetting the mock env to its first task and acting in turn."""
    env.reset(options={"task_id": env.tasks[0].id})
    for action in actions:
        env.step(action)
    return env.conversation.trajectory


def test_env_records__equal_the_records_validation_would_build(raw_mock_env):
    request = UserRequest(tool_calls=[RequestedToolCall(name="x", arguments={"a": 1})])
    arguments = {"user_id": "user_1", "title": "Buy milk"}
    trajectory = _played(
        raw_mock_env,
        SendMessage(content="I need a task."),
        CallTool(name="create_task", arguments=arguments, call_id="c7"),
        CallTool(name="create_task", arguments='{"user_id": "nobody", "title": "t"}'),
        CallTool(name="create_task", arguments="{not json"),
        SendMessage(content="Done.", request=request),
        SendMessage(content="Thanks"),
        SendMessage(content="Bye"),
        Stop(),
    )
    greeting, user_text, call, result, call2, result2, call3, result3, *rest = trajectory
    same_record(greeting, AssistantMessage(content=greeting.content))
    same_record(user_text, UserMessage(content="I need a task."))
    same_record(
        call,
        AssistantMessage(
            tool_calls=[
                ToolCall(id="c7", name="create_task", arguments=arguments, requestor="assistant")
            ]
        ),
    )
    assert call.tool_calls[0].arguments is not arguments  # a copy, as validation makes
    for record in (result, result2, result3):
        same_record(
            record,
            ToolMessage(
                id=record.id,
                content=record.content,
                requestor="assistant",
                error=record.error,
                name="create_task",
            ),
        )
    assert (result.error, result2.error, result3.error) == (False, True, True)
    same_record(
        call2,
        AssistantMessage(
            tool_calls=[
                ToolCall(
                    id="call_2",
                    name="create_task",
                    arguments={"user_id": "nobody", "title": "t"},
                    requestor="assistant",
                )
            ]
        ),
    )
    same_record(
        call3.tool_calls[0],
        ToolCall(
            id="call_3",
            name="create_task",
            arguments={"_raw_arguments": "{not json"},
            requestor="assistant",
        ),
    )
    agent_text, user_thanks, agent_bye, stop = rest
    same_record(agent_text, AssistantMessage(content="Done.", request=request))
    assert agent_text.request is request
    same_record(user_thanks, UserMessage(content="Thanks"))
    same_record(agent_bye, AssistantMessage(content="Bye", request=None))
    same_record(stop, UserMessage(content="###STOP###"))


@pytest.mark.parametrize("side", ["agent", "user"])
def test_env_records__user_tool_calls_and_agent_stops_too(side):
    import tau_env

    env = tau_env.make_env("telecom").unwrapped
    env.reset(options={"task_id": env.tasks[0].id})
    if side == "user":
        env.step(CallTool(name="check_status_bar"))
        call, result = env.conversation.trajectory[-2:]
        same_record(
            call,
            UserMessage(
                tool_calls=[
                    ToolCall(id="call_1", name="check_status_bar", arguments={}, requestor="user")
                ]
            ),
        )
        assert result.requestor == "user"
    else:
        env.step(SendMessage(content="Hello"))
        env.step(Stop(reason="transfer"))
        same_record(env.conversation.trajectory[-1], AssistantMessage(content="###TRANSFER###"))
