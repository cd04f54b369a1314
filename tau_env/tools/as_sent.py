"""Tools that take their arguments as sent: the reference's convention in banking_knowledge.

The reference calls a tool as ``method(**arguments)`` with the JSON values of the call, checking
nothing against the schema: a string where a number is documented reaches the body, which
answers as its own code does (its own error text, a conversion, a success). Only a keyword set
that does not bind fails before the body runs, with CPython's message (``KnowledgeTools.
change_user_email() missing 1 required positional argument: 'new_email'``). A toolbox that
declares `ArgumentsAsSent` is called that way by `tau_env.state.World`, and may also answer
names outside its side's list (the reference's discoverable tools, callable by their names).

Every other domain validates its arguments against the tool's signature (`tau_env.tools.spec`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from tau_env.messages import Side

__all__ = ["ArgumentsAsSent", "UnlistedTool", "binding_error", "keywords_error"]


class UnlistedTool(NamedTuple):
    """A tool a side may call by its name although the side's tool list does not show it.

    Attributes:
        function: ``function(db, **arguments)``, as a listed tool's.
        parameters: Its argument names, in signature order.
        required: The arguments without a default.
        mutates_state: Whether a call can change state (replays re-execute only those).
    """

    function: Callable[..., Any]
    parameters: tuple[str, ...]
    required: Collection[str]
    mutates_state: bool


@dataclass(frozen=True)
class ArgumentsAsSent:
    """A toolbox whose tools take JSON values as sent (no validation, no conversion).

    Attributes:
        owner: ``owner(side, tool name)``: the reference's class of that tool, which CPython
            names in a call that does not bind (``KnowledgeTools``).
        unlisted: ``unlisted(db, side, name)``: the tool of that name the side may call
            although its list does not show it, or None (the name is unknown).
    """

    owner: Callable[[Side, str], str]
    unlisted: Callable[[Any, Side, str], UnlistedTool | None]


# The reference's environment passes the call as ``make_tool_call(name, requestor=...,
# **arguments)``: these argument names collide with that method's own parameters (CPython
# names the method with its module when the keyword is given twice).
_ENVIRONMENT_CALL = "Environment.make_tool_call()"
_ENVIRONMENT_MODULE = "tau2.environment.environment."
_ENVIRONMENT_PARAMETERS = ("self", "tool_name")


def binding_error(
    label: str,
    parameters: tuple[str, ...],
    required: Collection[str],
    arguments: Mapping[str, Any],
) -> str | None:
    """CPython's message for ``function(**arguments)`` when the keywords do not bind, or None.

    As the reference words it: first its environment's own parameters (``requestor``,
    ``self``, ``tool_name``), then the first unexpected argument, then every missing one.

    Args:
        label: The function as CPython names it, without parentheses
            (``KnowledgeTools.change_user_email``).
        parameters: Its argument names, in signature order.
        required: The arguments without a default.
        arguments: The call's arguments.
    """
    if "requestor" in arguments:
        return (
            f"{_ENVIRONMENT_MODULE}{_ENVIRONMENT_CALL} got multiple values for keyword "
            "argument 'requestor'"
        )
    for key in arguments:
        if key in _ENVIRONMENT_PARAMETERS:
            return f"{_ENVIRONMENT_CALL} got multiple values for argument '{key}'"
    return keywords_error(label, parameters, required, arguments)


def keywords_error(
    label: str,
    parameters: tuple[str, ...],
    required: Collection[str],
    arguments: Mapping[str, Any],
) -> str | None:
    """CPython's message when `arguments` do not bind to the method `label` of an instance.

    The first argument named ``self`` (bound already) or not a parameter, else every missing
    required one.
    """
    for key in arguments:
        if key == "self":
            return f"{label}() got multiple values for argument 'self'"
        if key not in parameters:
            return f"{label}() got an unexpected keyword argument '{key}'"
    missing = [f"'{name}'" for name in parameters if name in required and name not in arguments]
    if not missing:
        return None
    if len(missing) == 1:
        listed = missing[0]
    elif len(missing) == 2:
        listed = f"{missing[0]} and {missing[1]}"
    else:
        listed = ", ".join(missing[:-1]) + f", and {missing[-1]}"
    plural = "argument" if len(missing) == 1 else "arguments"
    return f"{label}() missing {len(missing)} required positional {plural}: {listed}"
