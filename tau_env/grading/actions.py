"""ACTION check: every gold action was performed by some tool call (spec §6)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tau_env.grading.context import Episode
from tau_env.grading.outcome import Check, new_check
from tau_env.messages import ToolCall
from tau_env.tasks.model import GoldAction
from tau_env.tools.nesting import nests_deeper_than

__all__ = ["ActionGrader", "matches", "normalize"]


class ActionGrader:
    """A gold action matches if any call of either side does; order and count are ignored.

    Subclasses decide which gold actions are met (`met_actions`): the strict rules' grader
    counts only calls that did not fail and compares every gold argument.
    """

    component = "ACTION"

    def check(self, episode: Episode) -> Check:
        """Grade one episode."""
        criteria = episode.task.evaluation_criteria
        gold = criteria.actions if criteria else None
        if not gold:
            return new_check("ACTION", 1.0)
        met = self.met_actions(episode, gold)
        details = [
            {"action_id": action.action_id, "name": action.name, "met": done}
            for action, done in zip(gold, met, strict=True)
        ]
        reward = 1.0 if all(met) else 0.0
        return new_check("ACTION", reward, details)

    def met_actions(self, episode: Episode, gold: Sequence[GoldAction]) -> list[bool]:
        """Per gold action: some call of either side matches it (`matches`)."""
        calls_by_name: dict[str, list[ToolCall]] = {}  # names must be equal to match
        for message in episode.trajectory:
            # Told apart by role, the messages' discriminator: ``isinstance`` against a
            # pydantic class that does not match runs ABCMeta's check (~0.1 us a message).
            if message.role != "tool" and message.tool_calls:
                for call in message.tool_calls:
                    calls_by_name.setdefault(call.name, []).append(call)
        return [
            any(matches(action, call) for call in calls_by_name.get(action.name, ()))
            for action in gold
        ]


def matches(action: GoldAction, call: ToolCall) -> bool:
    """The reference's comparison of a gold action with a tool call.

    Names must be equal; the requestor is not compared. With ``compare_args=None`` the keys
    compared are the call's own keys; ``[]`` matches any arguments. Argument values that are
    JSON text are compared as parsed JSON.
    """
    if action.name != call.name:
        return False
    keys = list(call.arguments) if action.compare_args is None else action.compare_args
    if not keys:
        return True
    called = {k: v for k, v in call.arguments.items() if k in keys}
    wanted = {k: v for k, v in action.arguments.items() if k in keys}
    if called == wanted:  # equal values normalize equally: the usual match costs no parsing
        return True
    return {k: normalize(v) for k, v in called.items()} == {
        k: normalize(v) for k, v in wanted.items()
    }


def normalize(value: Any) -> Any:
    """`value` with JSON text parsed (recursively), as the ACTION comparison reads values."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith(("{", "[")):
            try:
                parsed = json.loads(stripped)
            except (ValueError, RecursionError):  # (nested deeper than the parser goes)
                return value
            # JSON text nested too deeply for any tool is compared as text (and not walked).
            return value if nests_deeper_than(parsed) else normalize(parsed)
        return value
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize(v) for v in value]
    return value
