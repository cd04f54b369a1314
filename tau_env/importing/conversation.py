"""Reading a recorded conversation and checking it against the turn protocol (spec §4).

A conversation the protocol could not have produced cannot be re-graded honestly: replaying
its tool calls would give a world no episode reaches. Such a simulation is left out of the
imported run with the reason (`ProtocolViolation`), and the rest of the file is imported.

The rules checked are those both the reference and tau_env enforce:

* the trajectory holds only agent, user and tool messages (never a system prompt), each with
  text or tool calls;
* it begins with the task's message history when the task has one, else with the agent;
* every tool call is answered at once, in order, by one result with its id and requestor, and
  no result answers nothing; a side's calls are its own (requestor = its role);
* a tool result gives the floor back to the caller, a text message passes it to the other side;
* nothing follows the user's stop; in No-User mode there is no user message and the agent's
  text ends the conversation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import TypeAdapter, ValidationError

from tau_env.messages import (
    AssistantMessage,
    Message,
    ToolMessage,
    UserMessage,
    has_stop_token,
    has_text,
)
from tau_env.tasks.model import Task

__all__ = ["ProtocolViolation", "read_conversation"]

_MESSAGE: TypeAdapter[Message] = TypeAdapter(Message)
_ROLES = ("assistant", "user", "tool")
_NAMES = {"assistant": "agent", "user": "user"}


class ProtocolViolation(ValueError):
    """A recorded conversation breaks the turn protocol; the message says where and how."""


def read_conversation(raw: Sequence[Any], task: Task, *, solo: bool) -> list[Message]:
    """The messages of a recorded conversation, checked against the protocol.

    Args:
        raw: The messages as the file holds them (reference layout; unknown keys ignored).
        task: The task played (its message history must open the conversation).
        solo: No-User mode: the agent works alone.

    Raises:
        ProtocolViolation: A message the protocol forbids; the text names its index.
    """
    messages = [_parse(index, item) for index, item in enumerate(raw)]
    history = (task.initial_state.message_history if task.initial_state else None) or []
    _check_history(messages, history)
    floor = _opening_floor(messages, history)
    index = len(history)
    while index < len(messages):
        message = messages[index]
        if isinstance(message, ToolMessage):
            raise ProtocolViolation(f"message {index}: a tool result that answers no call")
        side = _NAMES[message.role]
        if solo and side == "user":
            raise ProtocolViolation(f"message {index}: a user message in No-User mode")
        if floor is not None and side != floor:
            raise ProtocolViolation(
                f"message {index}: the {side} speaks while the floor is the {floor}'s"
            )
        calls = message.tool_calls or []
        if not calls and not has_text(message.content):
            raise ProtocolViolation(
                f"message {index}: the {side}'s message has neither text nor tool calls"
            )
        if calls:
            _check_answers(messages, index)
            index += 1 + len(calls)
            floor = side
            continue
        ends = (side == "user" and has_stop_token(message.content or "")) or (
            solo and side == "agent"
        )
        if ends and index + 1 < len(messages):
            stop = "the user's stop" if side == "user" else "the agent's text in No-User mode"
            raise ProtocolViolation(f"message {index + 1} follows {stop} (message {index})")
        floor = "user" if side == "agent" else "agent"
        index += 1
    return messages


def _parse(index: int, item: Any) -> Message:
    if not isinstance(item, dict):
        raise ProtocolViolation(f"message {index}: not an object but {type(item).__name__}")
    role = item.get("role")
    if role not in _ROLES:
        what = "a system prompt" if role == "system" else f"role {role!r}"
        raise ProtocolViolation(
            f"message {index}: {what}; a conversation holds agent, user and tool messages"
        )
    try:
        return _MESSAGE.validate_python(item)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:])
        raise ProtocolViolation(f"message {index}: field {where}: {first['msg']}") from None


def _same(recorded: Message, expected: Message) -> bool:
    keys = ("role", "content", "tool_calls", "id", "requestor")
    left = recorded.model_dump(mode="json", include=set(keys))
    right = expected.model_dump(mode="json", include=set(keys))
    for calls in (left.get("tool_calls"), right.get("tool_calls")):
        for call in calls or []:
            call.pop("id", None)  # call ids are the participants' own; the calls must agree
    left.pop("id", None)
    right.pop("id", None)
    return bool(left == right)


def _check_history(messages: Sequence[Message], history: Sequence[Message]) -> None:
    if not history:
        return
    if len(messages) < len(history) or not all(
        _same(recorded, expected) for recorded, expected in zip(messages, history, strict=False)
    ):
        raise ProtocolViolation(
            f"messages 0-{len(history) - 1} are not the task's message history, which the "
            "conversation must begin with"
        )


def _opening_floor(messages: Sequence[Message], history: Sequence[Message]) -> str | None:
    """Who speaks first after the history (None: the conversation ended with it)."""
    if not history:
        if messages and not isinstance(messages[0], AssistantMessage):
            raise ProtocolViolation(
                "message 0: the conversation opens with the user; the agent speaks first"
            )
        return "agent"
    last = history[-1]
    if isinstance(last, ToolMessage):
        return _NAMES[last.requestor]
    assert isinstance(last, AssistantMessage | UserMessage)
    side = _NAMES[last.role]
    if last.tool_calls:
        return side
    return "user" if side == "agent" else "agent"


def _check_answers(messages: Sequence[Message], index: int) -> None:
    """The results right after message `index` answer its calls, one each, in order."""
    message = messages[index]
    assert isinstance(message, AssistantMessage | UserMessage)
    side = _NAMES[message.role]
    for number, call in enumerate(message.tool_calls or []):
        if call.requestor != message.role:
            raise ProtocolViolation(
                f"message {index}: the {side}'s tool call {call.name!r} has requestor "
                f"{call.requestor!r}"
            )
        at = index + 1 + number
        answer = messages[at] if at < len(messages) else None
        if not isinstance(answer, ToolMessage):
            raise ProtocolViolation(
                f"message {index}: tool call {call.name!r} (id {call.id!r}) is not answered by "
                f"message {at}"
            )
        if answer.id != call.id or answer.requestor != call.requestor:
            raise ProtocolViolation(
                f"message {at}: the result (id {answer.id!r}, requestor {answer.requestor!r}) "
                f"does not answer tool call {call.name!r} (id {call.id!r}, requestor "
                f"{call.requestor!r})"
            )
