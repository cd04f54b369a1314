"""What a side can do in one step: send a message, call one tool, or stop.

`TauEnv.step` accepts these pydantic models (how LLM and scripted participants act) as well as
samples of the env's `Dict` action space (how generic RL code acts); `decode_action` turns the
latter into the former.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tau_env.errors import InvalidAction
from tau_env.messages import UserRequest
from tau_env.tools.nesting import MAX_ARGUMENT_DEPTH, nests_deeper_than

__all__ = [
    "ACTION_KINDS",
    "Action",
    "CallTool",
    "SendMessage",
    "Stop",
    "StopReason",
    "decode_action",
]

StopReason = Literal["done", "transfer", "out_of_scope"]


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SendMessage(_Action):
    """Send text to the other side; the floor passes to it."""

    kind: Literal["message"] = "message"
    content: str = Field(description="The text. Stop tokens inside it end the episode.")
    request: UserRequest | None = Field(
        default=None,
        description="Agent only: a structured request the scripted user acts on exactly.",
    )


class CallTool(_Action):
    """Call one of the acting side's tools; the caller keeps the floor and sees the result."""

    kind: Literal["tool_call"] = "tool_call"
    name: str = Field(description="Tool name.")
    arguments: dict[str, Any] | str = Field(
        default_factory=dict,
        description="Keyword arguments, or their JSON text (malformed JSON is an error result).",
    )
    call_id: str | None = Field(default=None, description="Id to record; generated if absent.")


class Stop(_Action):
    """End the conversation."""

    kind: Literal["stop"] = "stop"
    reason: StopReason = Field(default="done", description="Why the conversation ends.")


Action = SendMessage | CallTool | Stop
"""Everything `TauEnv.step` acts on."""

_ACTION_TYPES = (SendMessage, CallTool, Stop)  # a tuple: isinstance is faster than on a union

ACTION_KINDS: tuple[str, ...] = ("message", "tool_call", "stop")
"""Index -> kind, for the ``kind`` entry of the `Dict` action space."""


def decode_action(action: object, tool_names: Sequence[str]) -> Action:
    """Turn whatever was passed to `step` into an action model.

    Accepts the action models themselves, samples of the `Dict` action space (``kind``,
    ``content``, ``tool``, ``arguments``) and plain mappings in the models' own layout
    (``{"kind": "tool_call", "name": ..., "arguments": ...}``).

    Args:
        action: The object passed to `step`.
        tool_names: The acting side's tools, in the order of the ``tool`` index.

    Returns:
        The action as a model.

    Raises:
        InvalidAction: `action` is none of the accepted forms; the message says what is wrong.
    """
    if isinstance(action, _ACTION_TYPES):
        return action
    if not isinstance(action, Mapping):
        raise InvalidAction(
            f"an action must be SendMessage, CallTool, Stop or a mapping, actually: "
            f"{type(action).__name__}"
        )
    kind = action.get("kind")
    if kind is not None and not isinstance(kind, str):
        return _decode_space_sample(action, tool_names)
    try:
        if kind == "message":
            return SendMessage.model_validate(action)
        if kind == "tool_call":
            return CallTool.model_validate(action)
        if kind == "stop":
            return Stop.model_validate(action)
    except ValidationError as error:
        raise InvalidAction(f"malformed {kind} action: {_first_error(error)}") from None
    raise InvalidAction(f"action kind must be one of {list(ACTION_KINDS)}, actually: {kind!r}")


def _decode_space_sample(action: Mapping[str, Any], tool_names: Sequence[str]) -> Action:
    missing = {"kind", "content", "tool", "arguments"} - set(action)
    if missing:
        raise InvalidAction(f"action space sample lacks the keys {sorted(missing)}")
    try:
        kind_index = int(action["kind"])
        tool_index = int(action["tool"])
    except (TypeError, ValueError, OverflowError):  # (int(inf) overflows)
        raise InvalidAction(
            f"'kind' and 'tool' must be integers, actually: {action['kind']!r}, {action['tool']!r}"
        ) from None
    if not 0 <= kind_index < len(ACTION_KINDS):
        raise InvalidAction(f"'kind' must be in [0, {len(ACTION_KINDS)}), actually: {kind_index}")
    content, arguments = action["content"], action["arguments"]
    if not isinstance(content, str) or not isinstance(arguments, str):
        raise InvalidAction("'content' and 'arguments' must be strings")
    kind = ACTION_KINDS[kind_index]
    if kind == "message":
        return SendMessage(content=content)
    if kind == "stop":
        return Stop()
    # An index past the side's tools is a call of an unknown tool: an error result, not a crash.
    name = tool_names[tool_index] if 0 <= tool_index < len(tool_names) else f"#{tool_index}"
    return CallTool(name=name, arguments=arguments)


def _first_error(error: ValidationError) -> str:
    detail = error.errors()[0]
    where = ".".join(str(part) for part in detail["loc"]) or "action"
    return f"{where}: {detail['msg']}"


def parse_arguments(arguments: dict[str, Any] | str) -> dict[str, Any]:
    """Return tool-call arguments as a dict, parsing JSON text.

    Raises:
        ValueError: The text is not JSON, not a JSON object, or nests deeper than
            `MAX_ARGUMENT_DEPTH` levels (a dict is returned as it is).
    """
    if isinstance(arguments, dict):
        return arguments
    text = arguments.strip()
    if text == "":
        return {}
    too_deep = f"nested more than {MAX_ARGUMENT_DEPTH} levels deep"
    try:
        parsed = json.loads(text)
    except RecursionError:  # deeper than the parser goes, so deeper than allowed too
        raise ValueError(too_deep) from None
    if nests_deeper_than(parsed):
        raise ValueError(too_deep)
    if not isinstance(parsed, dict):
        raise ValueError(f"arguments must be a JSON object, actually: {type(parsed).__name__}")
    return parsed
