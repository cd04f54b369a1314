"""Checking plain tool arguments without pydantic: the common case of a call, made cheap.

Most tool parameters are strings, numbers, booleans, string literals, optional ones of these
or lists of strings. For such a signature, arguments whose values already have exactly the
declared type are what validation would return unchanged, so they are checked here with a
few type tests. Anything else (a missing or unknown argument, a value of another type, a
value outside a literal, any other parameter type) is left to the tool's pydantic model,
which converts or rejects it and words the error; the fast check never decides a rejection.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, NamedTuple, Union

__all__ = [
    "REQUIRED",
    "Keywords",
    "PlainParameter",
    "bound_in_order",
    "check_plain",
    "keywords_check",
    "plain_parameters",
]

REQUIRED: Any = inspect.Parameter.empty
"""The default of a parameter that has none."""

_SCALARS = (str, int, float, bool)
_IMMUTABLE_DEFAULTS = (type(None), str, int, float, bool)


class PlainParameter(NamedTuple):
    """One parameter of a plain signature.

    Attributes:
        name: The parameter's name.
        types: The exact types a value may have (``type(value) in types``).
        allowed: For a literal, the values it allows; None: any value of `types`.
        list_of_str: True for ``list[str]`` (the value is copied, as validation copies it).
        default: The default, or `REQUIRED`.
    """

    name: str
    types: tuple[type, ...]
    allowed: frozenset[Any] | None
    list_of_str: bool
    default: Any


def plain_parameters(function: Callable[..., Any]) -> tuple[PlainParameter, ...] | None:
    """The tool's parameters (after the database) if every one is plain, else None.

    A parameter is plain when its annotation is ``str``, ``int``, ``float``, ``bool``, a
    ``Literal`` of strings, ``list[str]`` or one of these ``| None``, without ``Annotated``
    metadata, and its default (if any) is None or a string, number or boolean.
    """
    try:
        hints = typing.get_type_hints(function, include_extras=True)
    except Exception:  # unresolvable hints: the pydantic model reports them
        return None
    parameters = list(inspect.signature(function).parameters.values())[1:]
    plan = []
    for parameter in parameters:
        if parameter.name not in hints or parameter.kind not in (
            parameter.POSITIONAL_OR_KEYWORD,
            parameter.KEYWORD_ONLY,
        ):
            return None
        shape = _shape(hints[parameter.name])
        default = parameter.default
        if shape is None or (
            default is not REQUIRED and not isinstance(default, _IMMUTABLE_DEFAULTS)
        ):
            return None
        accepted, allowed, list_of_str = shape
        plan.append(PlainParameter(parameter.name, accepted, allowed, list_of_str, default))
    return tuple(plan)


def _shape(annotation: Any) -> tuple[tuple[type, ...], frozenset[Any] | None, bool] | None:
    origin = typing.get_origin(annotation)
    if origin is Union or origin is types.UnionType:
        members = typing.get_args(annotation)
        if len(members) != 2 or type(None) not in members:
            return None
        inner = _shape(next(m for m in members if m is not type(None)))
        if inner is None:
            return None
        accepted, allowed, list_of_str = inner
        if allowed is not None:
            allowed = allowed | {None}
        return (*accepted, type(None)), allowed, list_of_str
    if annotation in _SCALARS:
        return (annotation,), None, False
    if origin is Literal:
        values = typing.get_args(annotation)
        if all(type(value) is str for value in values):
            return (str,), frozenset(values), False
        return None
    if origin is list and typing.get_args(annotation) == (str,):
        return (list,), None, True
    return None


def check_plain(
    plan: tuple[PlainParameter, ...], arguments: dict[str, Any]
) -> dict[str, Any] | None:
    """The keyword arguments validation would give, or None to let validation decide.

    `keywords_check`'s verdict, with every parameter bound (`bound_in_order`). For one call;
    a signature checked again and again makes its check once with `keywords_check`.

    Args:
        plan: The tool's plain parameters (`plain_parameters`).
        arguments: The call's arguments.

    Returns:
        Every parameter, in signature order, with its value or default; None when an argument
        is missing, unknown, or not exactly of a declared type.
    """
    keywords = keywords_check(plan)(arguments)
    return None if keywords is None else bound_in_order(plan, keywords)


def bound_in_order(plan: tuple[PlainParameter, ...], keywords: dict[str, Any]) -> dict[str, Any]:
    """Every parameter of `plan`, in signature order, with its value in `keywords` or default.

    What validation gives for the keywords of an accepting `keywords_check`.
    """
    return {p.name: keywords.get(p.name, p.default) for p in plan}


Keywords = Callable[[dict[str, Any]], "dict[str, Any] | None"]
"""A signature's fast check made once (`keywords_check`): call arguments -> keywords or None."""

_ABSENT: Any = object()
_STR_ONLY = frozenset((str,))  # the element types of a list of exactly `str`


def keywords_check(plan: tuple[PlainParameter, ...]) -> Keywords:
    """`check_plain` made once for one signature, giving keywords to call the function with.

    The check accepts and refuses exactly what `check_plain` does, but gives what a call
    ``function(db, **keywords)`` binds the same way, built with less work: the arguments
    themselves when they hold no list (a ``**`` call copies the mapping, and a parameter left
    out takes the function's own default, which is the plan's), else a copy with each list
    copied (as validation copies it, so the tool never holds the caller's list).

    Args:
        plan: The tool's plain parameters (`plain_parameters`).
    """
    names = frozenset(parameter.name for parameter in plan)
    checks = tuple((p.name, p.types, p.allowed, p.default is REQUIRED, p.list_of_str) for p in plan)
    lists = tuple(parameter.name for parameter in plan if parameter.list_of_str)

    def check(arguments: dict[str, Any]) -> dict[str, Any] | None:
        if not names.issuperset(arguments):  # an unknown argument
            return None
        for name, accepted, allowed, required, list_of_str in checks:
            value = arguments.get(name, _ABSENT)
            if value is _ABSENT:
                if required:
                    return None
                continue
            if type(value) not in accepted or (allowed is not None and value not in allowed):
                return None
            if list_of_str and value is not None and not _STR_ONLY.issuperset(map(type, value)):
                return None  # (`map` and a set test: no generator frame per list)
        if not lists:
            return arguments
        keywords = dict(arguments)
        for name in lists:
            value = keywords.get(name)
            if value is not None:
                keywords[name] = list(value)
        return keywords

    return check
