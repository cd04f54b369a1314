"""Building a task's starting world: data patches, setup calls, then the history's writes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from tau_env.errors import DataError, ReplayMismatch, ToolError
from tau_env.messages import AssistantMessage, Message, ToolMessage, UserMessage, side_of
from tau_env.state.world import World
from tau_env.tasks.model import Task

__all__ = ["WorldFactory", "build_initial_world", "replay_history", "same_tool_output"]


class WorldFactory(Protocol):
    """What building a starting world needs of a domain (`tau_env.domain.Domain` is one).

    A protocol rather than the `Domain` class, so this module does not import
    `tau_env.domain`, which imports it.
    """

    @property
    def tasks_source(self) -> str:
        """Where the tasks come from, named in errors."""
        ...

    def new_world(self, seed: int | None = 0) -> World:
        """A world holding the domain's untouched databases."""
        ...


def build_initial_world(domain: WorldFactory, task: Task) -> World:
    """Apply a task's ``initial_state`` to a fresh world, as the reference's ``set_state``.

    Steps: merge ``initialization_data`` into each side's own database (the reference's
    cross-aliasing of the two databases is a known bug and is not reproduced); run each
    ``initialization_action`` (registered functions only); replay the mutating tool calls of
    ``message_history``, checking each output against the recording.

    Raises:
        DataError: A step fails; the message names the source, the task and the field.
    """
    source = f"{domain.tasks_source}: task {task.id!r}"
    world = domain.new_world()
    state = task.initial_state
    if state is None:
        world.sync()
        return world
    data = state.initialization_data
    if data is not None:
        if data.agent_data:
            field = "initial_state.initialization_data.agent_data"
            world.agent_db.apply_patch(data.agent_data, source=f"{source}: field {field!r}")
        if data.user_data:
            field = "initial_state.initialization_data.user_data"
            if world.user_db is None:
                raise DataError(f"{source}: field {field!r}: this domain has no user database")
            world.user_db.apply_patch(data.user_data, source=f"{source}: field {field!r}")
    for index, call in enumerate(state.initialization_actions or []):
        field = f"initial_state.initialization_actions[{index}]"
        try:
            world.run_env_function(side_of(call.env_type), call.func_name, call.arguments)
        except (KeyError, ValueError, ToolError) as error:
            raise DataError(f"{source}: field {field!r}: {call.func_name}: {error}") from None
    try:
        replay_history(world, state.message_history or [])
    except (ValueError, ReplayMismatch) as error:
        raise DataError(f"{source}: field 'initial_state.message_history': {error}") from None
    world.sync()
    return world


def replay_history(world: World, messages: Sequence[Message], *, strict: bool = True) -> None:
    """Re-execute the mutating tool calls of a recorded conversation on `world`.

    Calls of unknown tools (hallucinated names) and of read-only tools are skipped, as in the
    reference. Every call must be answered by the tool messages that follow it, in order.

    Raises:
        ValueError: A tool call is not followed by its results.
        ReplayMismatch: `strict` and a re-executed call gives a different output.
    """
    index = 0
    while index < len(messages):
        message = messages[index]
        index += 1
        if not isinstance(message, AssistantMessage | UserMessage) or not message.tool_calls:
            continue
        calls = message.tool_calls
        results = messages[index : index + len(calls)]
        if len(results) < len(calls) or not all(isinstance(r, ToolMessage) for r in results):
            raise ValueError(f"message {index - 1}: {len(calls)} tool call(s) lack their results")
        for call, result in zip(calls, results, strict=True):
            assert isinstance(result, ToolMessage)
            if result.id != call.id:
                raise ValueError(f"tool result id {result.id!r} does not answer call {call.id!r}")
            side = side_of(call.requestor)
            if not world.tool_mutates_state(side, call.name):
                continue
            output = world.call_tool(side, call.name, call.arguments)
            if strict and not same_tool_output(output.content, result.content or ""):
                raise ReplayMismatch(
                    f"replaying {call.name} gave {output.content!r}, recorded {result.content!r}"
                )
        index += len(calls)


def same_tool_output(new: str, recorded: str) -> bool:
    """The reference's replay comparison: equal as JSON, else equal as text.

    Two error results count as the same even when their wording differs, because error texts
    of the reference include Python class names that no other implementation reproduces.
    """
    if new.startswith("Error:") and recorded.startswith("Error:"):
        return True
    parsed_new, parsed_recorded = _maybe_json(new), _maybe_json(recorded)
    if parsed_new is _NOT_JSON or parsed_recorded is _NOT_JSON:
        return new == recorded
    return bool(parsed_new == parsed_recorded)


_NOT_JSON = object()


def _maybe_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return _NOT_JSON
