"""The turn protocol of recorded conversations: each forbidden message is named, with why."""

from __future__ import annotations

import pytest

from tau_env.domain import load_domain
from tau_env.importing import ProtocolViolation, read_conversation

GREETING = {"role": "assistant", "content": "Hi! How can I help you today?"}
ASK = {"role": "user", "content": "Please complete task_1."}
CALL = {
    "role": "assistant",
    "tool_calls": [{"id": "c1", "name": "update_task_status", "requestor": "assistant",
                    "arguments": {"task_id": "task_1", "status": "completed"}}],
}  # fmt: skip
RESULT = {"role": "tool", "id": "c1", "content": "{}", "requestor": "assistant"}
DONE = {"role": "assistant", "content": "Done."}
STOP = {"role": "user", "content": "Thanks ###STOP###"}
GOOD = [GREETING, ASK, CALL, RESULT, DONE, STOP]


@pytest.fixture(scope="module")
def task():
    return load_domain("mock").task("complete_task")


def test_read__a_conversation_the_protocol_allows(task):
    messages = read_conversation(GOOD, task, solo=False)
    assert [m.role for m in messages] == [
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
    ]


def _with(index, message):
    return [*GOOD[:index], message, *GOOD[index + 1 :]]


CALL_OF_USER = {**CALL, "tool_calls": [{**CALL["tool_calls"][0], "requestor": "user"}]}


@pytest.mark.parametrize(
    ("messages", "reason"),
    [
        (
            [{"role": "system", "content": "You are..."}, *GOOD],
            "message 0: a system prompt; a conversation holds agent, user and tool messages",
        ),
        ([ASK, *GOOD], "message 0: the conversation opens with the user; the agent speaks first"),
        ([*GOOD[:2], RESULT, *GOOD[2:]], "message 2: a tool result that answers no call"),
        (
            [*GOOD[:3], DONE, STOP],
            "message 2: tool call 'update_task_status' (id 'c1') is not answered by message 3",
        ),
        (
            _with(3, {**RESULT, "id": "other"}),
            "message 3: the result (id 'other', requestor 'assistant') does not answer tool "
            "call 'update_task_status' (id 'c1', requestor 'assistant')",
        ),
        (
            _with(2, CALL_OF_USER),
            "message 2: the agent's tool call 'update_task_status' has requestor 'user'",
        ),
        (
            [GREETING, ASK, ASK, *GOOD[2:]],
            "message 2: the user speaks while the floor is the agent's",
        ),
        ([*GOOD[:4], STOP], "message 4: the user speaks while the floor is the agent's"),
        ([*GOOD, DONE], "message 6 follows the user's stop (message 5)"),
        (
            _with(4, {"role": "assistant", "content": "  "}),
            "message 4: the agent's message has neither text nor tool calls",
        ),
        (
            _with(1, {"role": "user", "content": 7}),
            "message 1: field content: Input should be a valid string",
        ),
        (_with(1, "hello"), "message 1: not an object but str"),
    ],
)
def test_read__forbidden_messages_are_named(task, messages, reason):
    with pytest.raises(ProtocolViolation) as violation:
        read_conversation(messages, task, solo=False)
    assert str(violation.value) == reason


def test_read__no_user_mode(task):
    solo = [CALL, RESULT, {"role": "assistant", "content": "###STOP###"}]
    assert len(read_conversation(solo, task, solo=True)) == 3
    with pytest.raises(ProtocolViolation, match="message 2: a user message in No-User mode"):
        read_conversation([CALL, RESULT, ASK], task, solo=True)
    with pytest.raises(ProtocolViolation, match="message 1 follows the agent's text in No-User"):
        read_conversation([DONE, CALL, RESULT], task, solo=True)


def test_read__the_task_history_must_open_the_conversation():
    task = load_domain("mock").task("complete_after_history")
    history = [
        m.model_dump(mode="json", exclude_none=True) for m in task.initial_state.message_history
    ]
    assert history[-1]["role"] == "assistant"  # the user has the floor after it
    assert len(read_conversation([*history, STOP], task, solo=False)) == len(history) + 1
    with pytest.raises(ProtocolViolation, match="message 5: the agent speaks while the floor"):
        read_conversation([*history, DONE], task, solo=False)
    other = [history[0], {**history[1], "content": "Add 'Call mum'."}, *history[2:], STOP]
    with pytest.raises(ProtocolViolation, match=r"messages 0-4 are not the task's message history"):
        read_conversation(other, task, solo=False)
