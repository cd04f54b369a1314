"""Hostile argument values, and the checks a tool call must pass whatever it was given (issue 42).

Every value here once escaped `World.call_tool` as an exception, or could: integers too large
for a float, infinities and NaN, lone surrogates (what a JSON ``\\ud800`` escape in a model's
reply gives), containers nested 5,000 levels deep, values of the wrong type. `call` makes one
tool call through ``env.step`` and checks what must hold after any call: no exception, the call
and its result recorded as a pair, an error result worded ``Error: ...``, counted once, and the
world unchanged by a failed call.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from tau_env.actions import CallTool, SendMessage
from tau_env.messages import ToolMessage

DEPTH = 5_000


def nested_dict(depth: int = DEPTH) -> dict[str, Any]:
    """``{"a": {"a": ... {}}}``, `depth` levels."""
    value: dict[str, Any] = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


def nested_list(depth: int = DEPTH) -> list[Any]:
    """``[[...[]]]``, `depth` levels."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


HUGE = 10**400
"""A 401-digit integer: Python converts it to no float."""

HOSTILE_VALUES: dict[str, Any] = {
    "400-digit int": HUGE,
    "negative 400-digit int": -HUGE,
    "2**63": 2**63,
    "2**1024": 2**1024,
    "inf": float("inf"),
    "-inf": float("-inf"),
    "nan": float("nan"),
    "lone surrogate": "\ud800",
    "surrogate inside text": "a\udfffb",
    "high surrogate (emoji half)": "Goodbye \ud83d",
    "dict 5000 deep": nested_dict(),
    "list 5000 deep": nested_list(),
    "list holding a surrogate": [1, "\ud83d"],
    "dict with a surrogate key": {"\ud800": 1},
    "None": None,
    "True": True,
    "empty list": [],
    "empty dict": {},
    "empty text": "",
    "float": 1.5,
    "-1": -1,
}
"""Values put in place of each argument of each tool, by name."""

_DEEP_TEXT = "[" * DEPTH + "]" * DEPTH
HOSTILE_JSON: dict[str, str] = {
    "400-digit int": "1" + "0" * 400,
    "1e400 (inf)": "1e400",
    "NaN": "NaN",
    "Infinity": "-Infinity",
    "escaped lone surrogate": '"\\ud800"',
    "array 5000 deep": _DEEP_TEXT,
    "object 5000 deep": '{"a":' * DEPTH + "{}" + "}" * DEPTH,
    "array 500 deep": "[" * 500 + "]" * 500,
    "true": "true",
    "null": "null",
}
"""JSON texts of hostile values (for arguments sent as text, and for JSON-string arguments)."""

HOSTILE_VALUE = st.sampled_from(list(HOSTILE_VALUES.values()))


def arguments_text(arguments: dict[str, str]) -> str:
    """A JSON object written from already-JSON texts: ``{"name": <text>, ...}``."""
    return "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in arguments.items()) + "}"


def take_floor(env, side: str) -> None:
    """Give `side` the floor (the other side says a word)."""
    if env.agent_selection != side:
        env.step(SendMessage(content="Please go ahead."))
    assert env.agent_selection == side and env.agents


def call(env, side: str, name: str, arguments: dict[str, Any] | str) -> ToolMessage:
    """One tool call through ``env.step``, checked; returns its result.

    Checks: nothing raises; exactly the call and its result are recorded, with matching ids and
    requestor; the records can be written as JSON; an error result starts with ``Error: ``, is
    counted once and left the world as it was.
    """
    take_floor(env, side)
    conversation = env.conversation
    world = conversation.world
    before = world.fork()
    errors = conversation.num_errors
    length = len(conversation.trajectory)
    env.step(CallTool(name=name, arguments=arguments))
    new = conversation.trajectory[length:]
    assert len(new) == 2, new
    request, result = new
    assert isinstance(result, ToolMessage), new
    (recorded,) = request.tool_calls
    assert (recorded.id, recorded.requestor) == (result.id, result.requestor)
    assert isinstance(result.content, str)
    for message in new:  # (json.dumps escapes surrogates; the store's own writing is issue 42/2)
        json.dumps(message.model_dump())
    if result.error:
        assert result.content.startswith("Error: "), result.content
        assert conversation.num_errors == errors + 1
        assert world.differences(before) == [], f"failed {name} changed the world"
    else:
        assert conversation.num_errors == errors
    return result


def assert_well_formed(trajectory) -> None:
    """Every tool call is followed at once by its result (same id), and every record is JSON.

    The reference's rule for a trajectory it accepts (spec §5: each message with tool calls is
    followed immediately by one result per call, ids matching).
    """
    index = 0
    while index < len(trajectory):
        message = trajectory[index]
        assert not isinstance(message, ToolMessage), f"result {message.id} answers no call"
        json.dumps(message.model_dump())
        calls = message.tool_calls or []
        for offset, tool_call in enumerate(calls, start=1):
            assert index + offset < len(trajectory), f"call {tool_call.id} has no result"
            result = trajectory[index + offset]
            assert isinstance(result, ToolMessage) and result.id == tool_call.id, result
            json.dumps(result.model_dump())
        index += 1 + len(calls)
