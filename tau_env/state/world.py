"""The world of one episode: both sides' databases and the one way to change them.

Every tool call and env-function call goes through `World`: arguments are parsed and
validated against the tool's signature, the call runs as a transaction (a failure leaves no
trace), the result is serialized exactly as the reference does, and the domain's sync rule
(telecom: agent database <-> user's phone) runs after every successful call that changed one
of the tables it reads (it is a pure function of those tables, so running it again on
unchanged ones would change nothing).
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from tau_env.actions import parse_arguments
from tau_env.errors import ToolDefectWarning, ToolError
from tau_env.messages import Side
from tau_env.serialization import committed_json_str
from tau_env.state.database import Database, SeedSource
from tau_env.state.journal import Journal
from tau_env.state.table import Table
from tau_env.tools.as_sent import ArgumentsAsSent, binding_error
from tau_env.tools.nesting import MAX_ARGUMENT_DEPTH, nests_deeper_than
from tau_env.tools.toolset import ToolSet

__all__ = ["ToolResult", "Toolbox", "World"]

_version = operator.attrgetter("version")


class ToolResult(NamedTuple):
    """What a tool call gives back to its caller.

    Immutable, like a frozen dataclass, and built in a fraction of its time (one per tool
    call: a frozen dataclass sets each field through ``object.__setattr__``).

    Attributes:
        content: The serialized result, or ``Error: <message>``.
        error: True when the call failed (and changed nothing).
    """

    content: str
    error: bool = False


_VALUE_ERRORS = (ValueError, TypeError, ArithmeticError, RecursionError)
"""Python's errors about a value handed to a tool (`World.call_tool` answers them).

A ``RecursionError`` is among them: a tool that reads JSON text it was given (banking's
``arguments`` strings) meets one when the text nests deeper than Python's parser goes."""


def _defect(name: str, error: Exception) -> ToolResult:
    """The result of a tool that failed with an unexpected exception, which is also warned."""
    described = f"{type(error).__name__}: {error}"
    # (1: here, 2: `World._run_tool`, 3: `World.call_tool` or `tool_failure`, 4: their caller)
    warnings.warn(f"tool {name!r} failed with {described}", ToolDefectWarning, stacklevel=4)
    return ToolResult(f"Error: tool '{name}' failed unexpectedly ({described})", error=True)


@dataclass(frozen=True)
class Toolbox:
    """A domain's static set of callable functions, per side.

    Attributes:
        agent_tools: The tools offered to the agent.
        user_tools: The tools offered to the user (may be empty).
        agent_env_functions: Agent-side setup and assertion helpers for task files.
        user_env_functions: User-side setup and assertion helpers for task files.
        sync: Rule run after every successful call and step to keep the two sides consistent,
            or None when the sides are independent. It must depend only on the tables it
            reads and leave them as it wants them (running it twice changes nothing more).
        sync_inputs: Per side, the names of the tables `sync` reads. A call after which none
            of them changed since the last sync skips it. None: every table of both sides.
        arguments_as_sent: Set when the tools take JSON values as sent, without validation
            (the reference's banking_knowledge; see `tau_env.tools.as_sent`). None: arguments
            are validated against each tool's signature.
    """

    agent_tools: ToolSet
    user_tools: ToolSet
    agent_env_functions: ToolSet
    user_env_functions: ToolSet
    sync: Callable[[World], None] | None = None
    sync_inputs: Mapping[Side, frozenset[str]] | None = None
    arguments_as_sent: ArgumentsAsSent | None = None

    @classmethod
    def of(
        cls,
        agent_tools: Iterable[Callable[..., Any]],
        user_tools: Iterable[Callable[..., Any]] = (),
        *,
        agent_env_functions: Iterable[Callable[..., Any]] = (),
        user_env_functions: Iterable[Callable[..., Any]] = (),
        sync: Callable[[World], None] | None = None,
        sync_inputs: Mapping[Side, frozenset[str]] | None = None,
        arguments_as_sent: ArgumentsAsSent | None = None,
    ) -> Toolbox:
        """The toolbox of these functions, each side's made a `ToolSet` (none: an empty one)."""
        return cls(
            ToolSet("agent", agent_tools),
            ToolSet("user", user_tools),
            ToolSet("agent", agent_env_functions),
            ToolSet("user", user_env_functions),
            sync,
            sync_inputs,
            arguments_as_sent,
        )

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
        self._sync_tables: tuple[Table[Any], ...] | None = None  # built on first use
        self._synced_at: int | None = None  # `_sync_stamp` after the last sync; None: never

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
        world = World(self.toolbox, agent_db, user_db, journal, source)
        world._synced_at = self._synced_at  # the tables' versions are forked with them
        return world

    def sync(self) -> None:
        """Apply the domain's consistency rule between the two sides (no-op for most).

        Commits what is pending either way. Without a rule no stamp is taken: nothing reads it
        (`_sync_if_changed` has no rule to run), and taking it builds every table.
        """
        rule = self.toolbox.sync
        with self.journal.transaction():
            if rule is not None:
                rule(self)
        if rule is not None:
            self._synced_at = self._sync_stamp()

    def _sync_if_changed(self) -> bool:
        """Run the sync rule unless none of the tables it reads changed since it last ran.

        Called inside the caller's transaction. Returns whether the rule ran: then the caller
        records `_sync_stamp` once that transaction is committed (otherwise the stamp is still
        the recorded one).
        """
        sync = self.toolbox.sync
        if sync is None or self._sync_stamp() == self._synced_at:
            return False
        sync(self)
        return True

    def _sync_stamp(self) -> int:
        """Sum of the versions of the tables the sync rule reads (versions only grow)."""
        tables = self._sync_tables
        if tables is None:
            tables = self._sync_tables = self._tables_read_by_sync()
        return sum(map(_version, tables))

    def _tables_read_by_sync(self) -> tuple[Table[Any], ...]:
        inputs = self.toolbox.sync_inputs
        tables: list[Table[Any]] = []
        for side, db in (("agent", self.agent_db), ("user", self.user_db)):
            if db is not None:
                wanted = None if inputs is None else inputs.get(side, frozenset())  # type: ignore[call-overload]
                for field in db.snapshot.layout:
                    if wanted is None or field.name in wanted:
                        tables.append(db.table_named(field.name))
        return tuple(tables)

    def call_tool(self, side: Side, name: str, arguments: dict[str, Any] | str) -> ToolResult:
        """Run one of a side's tools; never raises for bad input.

        Unknown tools, malformed JSON and invalid arguments give an ``Error: ...`` result and
        change nothing; so does a tool that raises midway (its changes are undone): a
        `ToolError` or Python's error about a value is worded as the reference words it
        (``Error: <message>``), any other exception is named with its type and warned about
        (`ToolDefectWarning`). Only exceptions that are not errors (``KeyboardInterrupt``)
        propagate.

        Args:
            side: The calling side.
            name: Tool name.
            arguments: Keyword arguments, or their JSON text.

        Returns:
            The serialized result.
        """
        value, failure = self._run_tool(side, name, arguments)
        return ToolResult(committed_json_str(value)) if failure is None else failure

    def tool_failure(
        self, side: Side, name: str, arguments: dict[str, Any] | str
    ) -> ToolResult | None:
        """Run a tool as `call_tool` does; its error result, or None when it succeeded.

        For a caller that only checks which calls fail (a generator replaying its own plan):
        a successful call's result is not serialized, which is most of a cheap call's cost.
        """
        return self._run_tool(side, name, arguments)[1]

    def _run_tool(
        self, side: Side, name: str, arguments: dict[str, Any] | str
    ) -> tuple[Any, ToolResult | None]:
        """`call_tool` up to serializing: (the tool's value, None), or (None, the error result)."""
        toolbox = self.toolbox
        if toolbox.arguments_as_sent is not None:
            return self._call_as_sent(toolbox.arguments_as_sent, side, name, arguments)
        spec = (toolbox.agent_tools if side == "agent" else toolbox.user_tools).get(name)
        if spec is None:
            return None, ToolResult(f"Error: Tool '{name}' not found.", error=True)
        try:
            parsed = arguments if type(arguments) is dict else parse_arguments(arguments)
        except ValueError as error:
            return None, ToolResult(
                f"Error: Arguments of tool '{name}' are not valid JSON: {error}", True
            )
        try:
            kwargs = spec.call_arguments(parsed)
        except ValueError as error:
            return None, ToolResult(
                f"Error: Invalid arguments for tool '{name}': {error}", error=True
            )
        try:
            with self.journal.transaction():
                value = spec.function(self.db(side), **kwargs)
                # part of the call: a failing sync undoes it too
                synced = toolbox.sync is not None and self._sync_if_changed()
        except ToolError as error:
            return None, ToolResult(f"Error: {error}", error=True)
        except _VALUE_ERRORS as error:
            # Python refusing a value the tool was given (an integer too large for a float, a
            # string that cannot be encoded, a model field refusing a value, JSON text nested
            # deeper than the parser goes): the reference
            # answers every exception with ``Error: <message>`` (spec §2.2), and so does this.
            return None, ToolResult(f"Error: {error}", error=True)
        except Exception as error:  # a defect of the tool: named, and the episode goes on
            return None, _defect(name, error)
        if synced:
            self._synced_at = self._sync_stamp()
        return value, None

    def _call_as_sent(
        self, as_sent: ArgumentsAsSent, side: Side, name: str, arguments: dict[str, Any] | str
    ) -> tuple[Any, ToolResult | None]:
        """`_run_tool` for a toolbox whose tools take JSON values as sent.

        A listed tool, or one the domain answers by name although it is not listed, gets the
        values unchecked; a keyword set that does not bind is refused with CPython's message.
        Whatever the body raises is an error result that changes nothing, as every exception
        is in the reference (``Error: <exception text>``, error flag set).
        """
        toolbox = self.toolbox
        spec = (toolbox.agent_tools if side == "agent" else toolbox.user_tools).get(name)
        db = self.agent_db if side == "agent" else self.db(side)
        required: Collection[str]
        if spec is not None:
            function, parameters, required = (
                spec.function,
                spec.parameter_names,
                spec.required_names,
            )
        else:
            unlisted = as_sent.unlisted(db, side, name)
            if unlisted is None:
                return None, ToolResult(f"Error: Tool '{name}' not found.", error=True)
            function, parameters, required = unlisted[:3]
        try:
            parsed = arguments if type(arguments) is dict else parse_arguments(arguments)
        except ValueError as error:
            return None, ToolResult(
                f"Error: Arguments of tool '{name}' are not valid JSON: {error}", True
            )
        if nests_deeper_than(parsed):  # as on the validating path: refused before the tool
            return None, ToolResult(
                f"Error: Invalid arguments for tool '{name}': nested more than "
                f"{MAX_ARGUMENT_DEPTH} levels deep",
                error=True,
            )
        problem = binding_error(f"{as_sent.owner(side, name)}.{name}", parameters, required, parsed)
        if problem is not None:
            return None, ToolResult(f"Error: {problem}", error=True)
        try:
            with self.journal.transaction():
                value = function(db, **parsed)
                synced = toolbox.sync is not None and self._sync_if_changed()
        except Exception as error:  # the reference's answer to any exception of a tool
            return None, ToolResult(f"Error: {error}", error=True)
        if synced:
            self._synced_at = self._sync_stamp()
        return value, None

    def tool_mutates_state(self, side: Side, name: str) -> bool:
        """Whether a call of the side's tool `name` can change state (False when unknown).

        Replays re-execute only such calls. Names a domain answers outside its tool lists
        (`ArgumentsAsSent.unlisted`) count, as in the reference.
        """
        spec = self.toolbox.tools(side).get(name)
        if spec is not None:
            return spec.mutates_state
        as_sent = self.toolbox.arguments_as_sent
        if as_sent is None:
            return False
        unlisted = as_sent.unlisted(self.db(side), side, name)
        return unlisted is not None and unlisted.mutates_state

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
        kwargs = spec.call_arguments(arguments)
        with self.journal.transaction():
            value = spec.function(self.db(side), **kwargs)
            synced = self._sync_if_changed()
        if synced:
            self._synced_at = self._sync_stamp()
        return value

    def changes_state(self, side: Side, name: str) -> bool:
        """Whether the helper (or tool) `name` may change the world; True when unknown."""
        spec = self.toolbox.env_functions(side).get(name) or self.toolbox.tools(side).get(name)
        return spec is None or spec.mutates_state

    def evaluate(self, side: Side, name: str, arguments: dict[str, Any]) -> Any:
        """Run a helper that declares it changes nothing (an assertion) on this world.

        Same lookup, validation, errors and value as `run_env_function`, without its sync
        (the world is as its last sync left it, and a read leaves the sync nothing to do);
        should the helper change something after all, the change is undone.

        Raises:
            KeyError: No registered function has that name on that side.
            ValueError: The arguments do not match its signature.
            ToolError: The function failed.
            RuntimeError: A transaction is open (its changes would be undone too).
        """
        if self.journal.pending:
            raise RuntimeError("evaluate cannot run inside an open transaction")
        spec = self.toolbox.env_functions(side).get(name) or self.toolbox.tools(side).get(name)
        if spec is None:
            raise KeyError(f"no {side} env function or tool named {name!r}")
        kwargs = spec.call_arguments(arguments)
        try:
            return spec.function(self.db(side), **kwargs)
        finally:
            self.journal.rollback()

    def differences(self, other: World) -> list[str]:
        """Where the two worlds' databases differ (``agent:`` / ``user:`` prefixed paths)."""
        found = self.agent_db.differences(other.agent_db)
        if found:  # (the usual case is none: no list is built for them)
            found = [f"agent:{path}" for path in found]
        user_db, other_user_db = self.user_db, other.user_db
        if user_db is not None and other_user_db is not None and user_db is not self.agent_db:
            on_user = user_db.differences(other_user_db)
            if on_user:
                found += [f"user:{path}" for path in on_user]
        return found
