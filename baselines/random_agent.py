"""A random valid-action agent: the floor of any benchmark, and a fuzzer for the env.

Each step it calls one of its tools with arguments drawn from the tool's JSON schema (values of
the right types; strings preferably ids it has seen in the conversation, so some calls hit real
records), sends a short message, or stops. Seeded per episode, so a run is reproducible.
"""

from __future__ import annotations

import random
import re
from typing import Any

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.tasks.model import Task

__all__ = ["RandomAgent"]

_MESSAGES = (
    "Could you tell me more about your request?",
    "I have looked into it.",
    "Is there anything else I can help you with?",
)
_TOKEN = re.compile(r"\b[A-Za-z]*[_-]?[A-Za-z]*\d[\w-]*\b")


class RandomAgent:
    """Acts uniformly at random among valid actions.

    Args:
        task: The episode's task (unused: the agent knows nothing of it).
        seed: Seed of its random generator (the runner passes the episode seed).
        tool_probability: Chance of a tool call on a step.
        stop_probability: Chance of a stop on a step.
    """

    def __init__(
        self,
        task: Task | None = None,
        *,
        seed: int | None = None,
        tool_probability: float = 0.6,
        stop_probability: float = 0.05,
    ) -> None:
        if not 0 <= tool_probability + stop_probability <= 1:
            raise ValueError(
                "tool_probability + stop_probability must be in [0, 1], actually: "
                f"{tool_probability + stop_probability}"
            )
        self.rng = random.Random(seed)
        self.tool_probability = tool_probability
        self.stop_probability = stop_probability

    def set_seed(self, seed: int) -> None:
        """Reseed for an episode."""
        self.rng.seed(seed)

    def act(self, view: SideView, context: SideContext) -> Action:
        """A random tool call, message or stop."""
        draw = self.rng.random()
        if draw < self.stop_probability:
            return Stop()
        if draw < self.stop_probability + self.tool_probability and context.tools:
            tool = self.rng.choice(context.tools)["function"]
            seen = _tokens(view)
            return CallTool(name=tool["name"], arguments=self._arguments(tool, seen))
        return SendMessage(content=self.rng.choice(_MESSAGES))

    def _arguments(self, tool: dict[str, Any], seen: list[str]) -> dict[str, Any]:
        parameters = tool.get("parameters", {})
        required = set(parameters.get("required", []))
        arguments = {}
        for name, schema in parameters.get("properties", {}).items():
            if name in required or self.rng.random() < 0.3:
                arguments[name] = self._value(schema, seen)
        return arguments

    def _value(self, schema: dict[str, Any], seen: list[str]) -> Any:
        """A value of the schema's type."""
        if "enum" in schema:
            return self.rng.choice(schema["enum"])
        if "anyOf" in schema:
            options = [s for s in schema["anyOf"] if s.get("type") != "null"] or schema["anyOf"]
            return self._value(self.rng.choice(options), seen)
        kind = schema.get("type", "string")
        if kind == "integer":
            return self.rng.randint(0, 10)
        if kind == "number":
            return round(self.rng.uniform(0, 100), 2)
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind == "array":
            items = schema.get("items", {"type": "string"})
            return [self._value(items, seen) for _ in range(self.rng.randint(0, 2))]
        if kind == "object":
            return {}
        if kind == "null":
            return None
        if seen and self.rng.random() < 0.8:
            return self.rng.choice(seen)
        return f"x{self.rng.randrange(1000)}"


def _tokens(view: SideView) -> list[str]:
    """Id-like words (containing a digit) of every message this side has seen."""
    found: list[str] = []
    for message in view.history:
        if message.content:
            found.extend(_TOKEN.findall(message.content))
    return sorted(set(found))
