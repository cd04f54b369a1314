"""An ordered, named collection of one side's tools or env functions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from tau_env.errors import ToolDefinitionError
from tau_env.messages import Side
from tau_env.tools.spec import FunctionSpec, function_spec

__all__ = ["ToolSet"]


class ToolSet:
    """The tools (or env functions) of one side, in a fixed order.

    The order is the order of the ``tool`` index in the env's action space, so it never
    depends on anything but the list given here.

    Attributes:
        get: ``get(name)``: the spec registered under `name`, or None.
    """

    def __init__(self, side: Side, functions: Iterable[Callable[..., Any]]) -> None:
        self.side: Side = side
        self._specs: dict[str, FunctionSpec] = {}
        for function in functions:
            spec = function_spec(function)
            if spec.side != side:
                raise ToolDefinitionError(f"{spec.name} is a {spec.side} function, not {side}")
            if spec.name in self._specs:
                raise ToolDefinitionError(f"{spec.name} is registered twice")
            self._specs[spec.name] = spec
        self.names: tuple[str, ...] = tuple(self._specs)
        # The dict's own `get`, bound once: the look-up of every tool call, without a Python
        # frame (a method calling it would add one).
        self.get: Callable[[str], FunctionSpec | None] = self._specs.get
        self._schemas: list[dict[str, Any]] | None = None

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[FunctionSpec]:
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    def openai_schemas(self) -> list[dict[str, Any]]:
        """OpenAI function definitions of every tool, in order.

        Built once and shared by every env of the process: treat the result as read-only.
        """
        if self._schemas is None:
            self._schemas = [spec.openai_schema() for spec in self._specs.values()]
        return self._schemas

    def merged(self, other: ToolSet) -> ToolSet:
        """A set with this set's functions followed by `other`'s (same side)."""
        return ToolSet(self.side, [spec.function for spec in (*self, *other)])
