"""The tool calls of an episode with how the env answered them, for the strict checks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from tau_env.grading.actions import matches, normalize
from tau_env.messages import Message, ToolCall
from tau_env.tasks.model import GoldAction

__all__ = ["AnsweredCall", "answered_calls", "matches_exactly"]


class AnsweredCall(NamedTuple):
    """A tool call and whether the env answered it with an error.

    Attributes:
        call: The call.
        failed: The env answered with an error (a call with no answer did not fail).
        position: Index of the message that made the call, in the trajectory.
    """

    call: ToolCall
    failed: bool
    position: int


def answered_calls(trajectory: Sequence[Message]) -> list[AnsweredCall]:
    """Every tool call of either side, in order, with its answer's error flag.

    A call is answered by the tool message carrying its id; calls without ids are answered by
    the tool messages that follow, in order (as the env writes them).
    """
    made: list[tuple[ToolCall, int]] = []
    errors: dict[str, bool] = {}
    unnamed: list[bool] = []
    for position, message in enumerate(trajectory):
        if message.role == "tool":
            if message.id:
                errors[message.id] = message.error
            else:
                unnamed.append(message.error)
        elif message.tool_calls:
            made += [(call, position) for call in message.tool_calls]
    answered = []
    order = iter(unnamed)
    for call, position in made:
        failed = errors[call.id] if call.id and call.id in errors else next(order, False)
        answered.append(AnsweredCall(call, failed, position))
    return answered


def matches_exactly(action: GoldAction, call: ToolCall) -> bool:
    """The strict comparison of a gold action with a call (which must not have failed).

    The reference's comparison (`tau_env.grading.actions.matches`), and more: the call must
    have every argument compared (the action's ``compare_args`` when the task lists them,
    else every argument the gold call has) equal to the gold's; the reference compares only
    the keys the call has, so a call without arguments matches any gold call of its name.
    """
    if action.name != call.name:
        return False
    if action.compare_args is None and call.arguments == action.arguments:
        return True  # every argument equal: both comparisons below hold
    if not matches(action, call):
        return False
    keys = list(action.arguments) if action.compare_args is None else action.compare_args
    arguments = call.arguments
    wanted = {key: action.arguments[key] for key in keys if key in action.arguments}
    if any(key not in arguments for key in wanted):
        return False
    called = {key: arguments[key] for key in wanted}
    return called == wanted or normalize(called) == normalize(wanted)
