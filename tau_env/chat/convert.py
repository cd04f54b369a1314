"""From an OpenAI-style assistant message to env actions, checked before anything is acted on.

An assistant message, as a chat completion returns it, is a mapping with ``content`` (text or
None) and ``tool_calls`` (a list of ``{"id", "type": "function", "function": {"name",
"arguments"}}``, arguments as JSON text or already a mapping). The translation is the one
`tau_env.llm.response_actions` applies to model replies, so an LLM agent and a trained policy
are treated alike: tool calls become one `CallTool` each (text alongside them reaches no one, as
in the reference); otherwise the text becomes one `SendMessage`; a message with neither ends the
episode as the agent's error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.errors import InvalidAction, ParticipantError
from tau_env.llm.convert import response_actions
from tau_env.llm.response import LLMResponse, LLMToolCall
from tau_env.messages import STOP_TOKENS
from tau_env.tools.nesting import MAX_ARGUMENT_DEPTH, clipped, nests_deeper_than

__all__ = ["action_message", "assistant_actions", "normalize_assistant_message"]


def normalize_assistant_message(message: object) -> dict[str, Any]:
    """The message in canonical chat form: ``role``, ``content`` and (if any) ``tool_calls``.

    Tool-call arguments become JSON text, as a chat completion carries them; a call without an
    id gets ``""`` (the env numbers it when it runs).

    Raises:
        InvalidAction: `message` is not an assistant message; the text names the bad part.
    """
    if not isinstance(message, Mapping):
        raise InvalidAction(
            f"an assistant message must be a mapping, actually: {type(message).__name__}"
        )
    role = message.get("role", "assistant")
    if role != "assistant":
        raise InvalidAction(f"the agent sends 'assistant' messages, actually role: {role!r}")
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise InvalidAction(f"'content' must be text or None, actually: {type(content).__name__}")
    raw_calls = message.get("tool_calls") or []
    if not isinstance(raw_calls, list | tuple):
        raise InvalidAction(f"'tool_calls' must be a list, actually: {type(raw_calls).__name__}")
    calls = [_normal_call(call, i) for i, call in enumerate(raw_calls)]
    normal: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        normal["tool_calls"] = calls
    return normal


def _normal_call(call: object, index: int) -> dict[str, Any]:
    where = f"tool_calls[{index}]"
    if not isinstance(call, Mapping):
        raise InvalidAction(f"{where} must be a mapping, actually: {type(call).__name__}")
    function = call.get("function")
    if not isinstance(function, Mapping):
        raise InvalidAction(f"{where} has no 'function' mapping")
    name = function.get("name")
    if not isinstance(name, str) or not name:
        raise InvalidAction(f"{where}.function.name must be a non-empty string, actually: {name!r}")
    arguments = function.get("arguments", "")
    if isinstance(arguments, Mapping):
        arguments = _json_text(dict(arguments), f"{where}.function")
    elif arguments is None:
        arguments = ""
    elif not isinstance(arguments, str):
        raise InvalidAction(
            f"{where}.function.arguments must be JSON text or a mapping, "
            f"actually: {type(arguments).__name__}"
        )
    call_id = call.get("id")
    if not isinstance(call_id, str):
        call_id = ""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _json_text(arguments: dict[str, Any], where: str) -> str:
    """Arguments given as a mapping, as the JSON text a chat completion would carry.

    Arguments nested too deeply for any tool are written only one level past the limit: the
    text stays short and writable, and the env refuses it (an ``Error: ...`` result).

    Raises:
        InvalidAction: A value JSON cannot carry (bytes, an object, a circular reference).
    """
    if nests_deeper_than(arguments):
        arguments = clipped(arguments, MAX_ARGUMENT_DEPTH + 1)
    try:
        return json.dumps(arguments)
    except (TypeError, ValueError) as error:
        raise InvalidAction(f"{where}'s arguments are not JSON: {error}") from None


def assistant_actions(message: Mapping[str, Any]) -> list[Action]:
    """The env actions a normalized assistant message stands for, in order.

    Malformed tool-call arguments are passed on as text (the env answers with an ``Error: ...``
    result); an empty message is one empty `SendMessage` (the env ends the episode as the
    agent's error).
    """
    calls = tuple(
        LLMToolCall.from_wire(c["id"], c["function"]["name"], c["function"]["arguments"])
        for c in message.get("tool_calls") or ()
    )
    reply = LLMResponse(model="chat", content=message.get("content"), tool_calls=calls)
    try:
        return response_actions(reply)
    except ParticipantError:
        return [SendMessage(content="")]


def action_message(action: Action) -> dict[str, Any]:
    """The assistant message standing for one action (the inverse of `assistant_actions`).

    How a programmatic agent (an oracle, a replay) plays through a chat interface: a tool call
    becomes a message with that one call, a message its text, a stop its stop token.
    """
    if isinstance(action, CallTool):
        arguments = action.arguments
        text = arguments if isinstance(arguments, str) else _json_text(arguments, "the call")
        call: dict[str, Any] = {"type": "function", "function": {"name": action.name}}
        call["function"]["arguments"] = text
        if action.call_id:
            call["id"] = action.call_id
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    if isinstance(action, Stop):
        return {"role": "assistant", "content": STOP_TOKENS[action.reason]}
    return {"role": "assistant", "content": action.content}
