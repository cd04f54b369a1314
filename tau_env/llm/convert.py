"""Between tau_env's trajectory messages and actions and the OpenAI chat format.

The model always plays one side. Its own messages become ``assistant`` messages (with their
tool calls), the other side's text becomes ``user`` messages and results of its own tool calls
become ``tool`` messages. For the user side this is the reference's role flip: the simulated
user's messages are sent as ``assistant`` and the agent's as ``user``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tau_env.actions import Action, CallTool, SendMessage
from tau_env.errors import ParticipantError
from tau_env.llm.response import LLMResponse
from tau_env.messages import AssistantMessage, Message, Side, ToolCall, ToolMessage, UserMessage

__all__ = ["response_actions", "response_message", "to_openai_messages", "tool_call_to_openai"]

RAW_ARGUMENTS_KEY = "_raw_arguments"
"""Where the env records tool-call arguments that were not valid JSON (see `Conversation`)."""


def to_openai_messages(
    history: Sequence[Message], *, side: Side, system: str | None = None
) -> list[dict[str, Any]]:
    """A side's history as OpenAI chat messages, from that side's point of view.

    Args:
        history: The messages the side has seen (``env.view(side).history``), in order.
        side: The side the model plays (``"agent"``, or ``"user"`` for a role-flipped user).
        system: A system prompt to put first.

    Returns:
        Chat messages; `UserRequest` payloads are left out (models read the text).
    """
    own: type[AssistantMessage] | type[UserMessage] = (
        AssistantMessage if side == "agent" else UserMessage
    )
    chat: list[dict[str, Any]] = []
    if system is not None:
        chat.append({"role": "system", "content": system})
    for message in history:
        if isinstance(message, ToolMessage):
            chat.append(
                {"role": "tool", "tool_call_id": message.id, "content": message.content or ""}
            )
        elif isinstance(message, own):
            entry: dict[str, Any] = {"role": "assistant", "content": message.content}
            if message.tool_calls:
                entry["tool_calls"] = [tool_call_to_openai(c) for c in message.tool_calls]
            chat.append(entry)
        elif not message.tool_calls:  # the other side's calls are never visible
            chat.append({"role": "user", "content": message.content or ""})
    return chat


def tool_call_to_openai(call: ToolCall) -> dict[str, Any]:
    """A recorded tool call in OpenAI format (malformed arguments are sent back verbatim)."""
    raw = call.arguments.get(RAW_ARGUMENTS_KEY)
    arguments = raw if isinstance(raw, str) and len(call.arguments) == 1 else None
    return {
        "id": call.id,
        "type": "function",
        "function": {
            "name": call.name,
            "arguments": arguments if arguments is not None else json.dumps(call.arguments),
        },
    }


def response_actions(response: LLMResponse) -> list[Action]:
    """The actions a reply stands for, in order.

    Tool calls become `CallTool` actions (one per call, with the model's call ids; malformed
    arguments are passed on as text, so the env answers with an ``Error: ...`` tool result,
    which counts towards ``max_errors``). A reply with tool calls and text keeps only the
    calls, as in the reference (such text reaches no one). Otherwise the text becomes one
    `SendMessage`; stop tokens inside it end the episode in the env.

    Raises:
        ParticipantError: The reply has neither text nor tool calls.
    """
    if response.tool_calls:
        return [
            CallTool(
                name=call.name,
                arguments=call.raw_arguments if call.arguments is None else call.arguments,
                call_id=call.id or None,
            )
            for call in response.tool_calls
        ]
    if response.content is not None and response.content.strip():
        return [SendMessage(content=response.content)]
    raise ParticipantError(f"{response.model} replied with neither text nor tool calls")


def response_message(response: LLMResponse) -> dict[str, Any]:
    """A reply as the assistant message the model sent (text and calls, arguments verbatim)."""
    message: dict[str, Any] = {"role": "assistant", "content": response.content}
    if response.tool_calls:
        message["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.raw_arguments},
            }
            for call in response.tool_calls
        ]
    return message
