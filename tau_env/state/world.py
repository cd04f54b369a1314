"""The world of one episode: both sides' databases and the one way to change them.

Every tool call and env-function call goes through `World`: arguments are parsed and
validated against the tool's signature, the call runs as a transaction (a failure leaves no
trace), the result is serialized exactly as the reference does, and the domain's sync rule
(telecom: agent database <-> user's phone) runs after every successful call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from tau_env.actions import parse_arguments
from tau_env.errors import ToolError
from tau_env.messages import Side
from tau_env.serialization import to_json_str
from tau_env.state.database import Database, SeedSource
from tau_env.state.journal import Journal
from tau_env.tools.toolset import ToolSet

__all__ = ["ToolResult", "Toolbox", "World"]


@dataclass(frozen=True)
class ToolResult:
    """What a tool call gives back to its caller.

    Attributes:
        content: The serialized result, or ``Error: <message>``.
        error: True when the call failed (and changed nothing).
    """

    content: str
    error: bool = False


@dataclass(frozen=True)
class Toolbox:
    """A domain's static set of callable functions, per side.

    Attributes:
        agent_tools: The tools offered to the agent.
        user_tools: The tools offered to the user (may be empty).
        agent_env_functions: Agent-side setup and assertion helpers for task files.
        user_env_functions: User-side setup and assertion helpers for task files.
        sync: Rule run after every successful call and step to keep the two sides consistent,
            or None when the sides are independent.
    """

    agent_tools: ToolSet
    user_tools: ToolSet
    agent_env_functions: ToolSet
    user_env_functions: ToolSet
    sync: Callable[[World], None] | None = None

    def tools(self, side: Side) -> ToolSet:
        """The tools a side may call during an episode."""
        return self.agent_tools if side == "agent" else self.user_tools

    def env_functions(self, side: Side) -> ToolSet:
        """The helpers of a side that task files may call (tools are callable too)."""
        return self.agent_env_functions if side == "agent" else self.user_env_functions


class World:
    """Both sides' databases for one episode, and the calls that read and change them."""

    def __init__(
        self,
        toolbox: Toolbox,
        agent_db: Database,
        user_db: Database | None,
        journal: Journal,
        seed_source: SeedSource,
    ) -> None:
        self.toolbox = toolbox
        self.agent_db = agent_db
        self.user_db = user_db
        self.journal = journal
        self.seed_source = seed_source

    def db(self, side: Side) -> Database:
        """The database a side's tools work on.

        Raises:
            ToolError: The side has no database (the user in airline and retail).
        """
        if side == "agent":
            return self.agent_db
        if self.user_db is None:
            raise ToolError("User tools not available")
        return self.user_db

    @property
    def rng(self) -> np.random.Generator:
        """The episode's random generator, built on first use."""
        return self.seed_source.rng

    def fork(self, seed: int | None = None) -> World:
        """An independent world starting from this one's committed state.

        Args:
            seed: Seeds the new world's random generator (None: fresh entropy).
        """
        journal = Journal()
        source = SeedSource(seed)
        agent_db = self.agent_db.fork(journal, source)
        if self.user_db is self.agent_db:  # one database for both sides (banking)
            user_db: Database | None = agent_db
        else:
            user_db = None if self.user_db is None else self.user_db.fork(journal, source)
        return World(self.toolbox, agent_db, user_db, journal, source)

    def sync(self) -> None:
        """Apply the domain's consistency rule between the two sides (no-op for most)."""
        with self.journal.transaction():
            self._apply_sync()

    def _apply_sync(self) -> None:
        if self.toolbox.sync is not None:
            self.toolbox.sync(self)

    def call_tool(self, side: Side, name: str, arguments: dict[str, Any] | str) -> ToolResult:
        """Run one of a side's tools; never raises for bad input.

        Unknown tools, malformed JSON and invalid arguments give an ``Error: ...`` result and
        change nothing; so does a tool that raises `ToolError` midway (its changes are undone).

        Args:
            side: The calling side.
            name: Tool name.
            arguments: Keyword arguments, or their JSON text.

        Returns:
            The serialized result.
        """
        spec = self.toolbox.tools(side).get(name)
        if spec is None:
            return ToolResult(f"Error: Tool '{name}' not found.", error=True)
        try:
            parsed = parse_arguments(arguments)
        except ValueError as error:
            return ToolResult(
                f"Error: Arguments of tool '{name}' are not valid JSON: {error}", True
            )
        try:
            kwargs = spec.validate_arguments(parsed)
        except ValueError as error:
            return ToolResult(f"Error: Invalid arguments for tool '{name}': {error}", error=True)
        try:
            with self.journal.transaction():
                value = spec.function(self.db(side), **kwargs)
                self._apply_sync()  # part of the call: a failing sync undoes the call too
        except ToolError as error:
            return ToolResult(f"Error: {error}", error=True)
        return ToolResult(to_json_str(value))

    def run_env_function(self, side: Side, name: str, arguments: dict[str, Any]) -> Any:
        """Run a setup or assertion helper (or a tool) named by a task file.

        Only functions the domain registered are reachable: never arbitrary attributes.

        Returns:
            Whatever the function returns (assertions return a bool).

        Raises:
            KeyError: No registered function has that name on that side.
            ValueError: The arguments do not match its signature.
            ToolError: The function failed; its changes are undone.
        """
        spec = self.toolbox.env_functions(side).get(name) or self.toolbox.tools(side).get(name)
        if spec is None:
            raise KeyError(f"no {side} env function or tool named {name!r}")
        kwargs = spec.validate_arguments(arguments)
        with self.journal.transaction():
            value = spec.function(self.db(side), **kwargs)
            self._apply_sync()
        return value

    def differences(self, other: World) -> list[str]:
        """Where the two worlds' databases differ (``agent:`` / ``user:`` prefixed paths)."""
        found = [f"agent:{path}" for path in self.agent_db.differences(other.agent_db)]
        shared = self.user_db is self.agent_db
        if self.user_db is not None and other.user_db is not None and not shared:
            found += [f"user:{path}" for path in self.user_db.differences(other.user_db)]
        return found
