"""Behaviours: the implementations behind discoverable tools, and how they are called.

A discoverable tool is a catalogue entry (public name such as ``open_bank_account_4821``,
documentation) pointing at a behaviour: a plain function ``f(db, **arguments) -> str``
declared with `behaviour`. Arguments arrive as free JSON (integers already turned into floats
by the callers, as in the reference) and are not checked against a schema: like the
reference, each behaviour validates what it needs and answers ``Error: ...`` as ordinary text.

`invoke` calls a behaviour the way the reference calls the method: a wrong set of keyword
arguments, or a `TypeError` inside, comes back as text; other failures on bad input (a number
where text was expected...) become `ToolError`, so the calling side sees ``Error: ...`` with
the error flag set and nothing changes.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, cast

from tau_env.domains.banking_knowledge.data_model import BankingDB, CatalogEntry
from tau_env.errors import ToolError
from tau_env.tools.as_sent import keywords_error

__all__ = [
    "Answer",
    "Behaviour",
    "BehaviourKind",
    "behaviour",
    "behaviour_of",
    "format_documentation",
    "invoke",
    "name_of",
]

BehaviourKind = Literal["read", "write", "generic"]

F = TypeVar("F", bound=Callable[..., str])

_ATTRIBUTE = "__banking_behaviour__"

_INPUT_ERRORS = (AttributeError, KeyError, ValueError, IndexError, OverflowError, ZeroDivisionError)
"""What a behaviour raises on arguments of the wrong JSON type (the reference's error=True)."""


class Answer(Exception):
    """A behaviour's early answer (an ``Error: ...`` text), raised by a check it calls.

    The wrapper `behaviour` puts around the function returns the text, as if the function had
    returned it, on every path that calls a behaviour (`invoke` and direct calls alike): an
    ordinary answer, not a failed call (the reference's methods return these texts).
    """

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


@dataclass(frozen=True)
class Behaviour:
    """One implementation a discoverable tool can point at.

    Attributes:
        key: Stable name catalogues refer to (``"open_bank_account"``).
        kind: read, write or generic; writes are always logged when the agent calls them.
        function: ``f(db, **arguments) -> str``.
        parameters: Argument names, in signature order.
        required: The arguments without a default.
        accepted: `parameters` as a set (derived from it), for checking a call's keywords.
        accepted_with_self: `accepted` and ``self``: the names the reference's method
            signature holds (it checks a call's keywords against them).
        required_set: `required` as a set (derived from it).
    """

    key: str
    kind: BehaviourKind
    function: Callable[..., str]
    parameters: tuple[str, ...]
    required: tuple[str, ...]
    accepted: frozenset[str] = field(init=False, repr=False, compare=False)
    accepted_with_self: frozenset[str] = field(init=False, repr=False, compare=False)
    required_set: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "accepted", frozenset(self.parameters))
        object.__setattr__(self, "accepted_with_self", frozenset((*self.parameters, "self")))
        object.__setattr__(self, "required_set", frozenset(self.required))

    @property
    def mutates_state(self) -> bool:
        """True for writes (the reference's ``mutates_state``)."""
        return self.kind == "write"


def behaviour(key: str, kind: BehaviourKind) -> Callable[[F], F]:
    """Declare a function as the behaviour `key` (its first parameter is the bank view)."""

    def decorate(function: F) -> F:
        parameters = list(inspect.signature(function).parameters.values())[1:]

        @functools.wraps(function)
        def answering(db: BankingDB, **arguments: Any) -> str:
            try:
                return function(db, **arguments)
            except Answer as answer:
                return answer.text

        spec = Behaviour(
            key=key,
            kind=kind,
            function=answering,
            parameters=tuple(p.name for p in parameters),
            required=tuple(p.name for p in parameters if p.default is inspect.Parameter.empty),
        )
        setattr(answering, _ATTRIBUTE, spec)
        return cast(F, answering)

    return decorate


def behaviour_of(function: Callable[..., str]) -> Behaviour:
    """The `Behaviour` attached to a function by `behaviour`."""
    spec = getattr(function, _ATTRIBUTE, None)
    if not isinstance(spec, Behaviour):
        raise TypeError(f"{function!r} is not declared with @behaviour")
    return spec


def name_of(db: BankingDB, key: str) -> str:
    """The public name this bank gives the behaviour `key` (its own name in texts it prints).

    The first catalogue entry pointing at `key`, in table order; `key` itself when none does.
    """
    catalog = db.tool_catalog
    if not catalog.has_changes():  # the bank's own catalogue: looked up in its index
        return _names_by_behaviour(db.snapshot.records["tool_catalog"]).get(key, key)
    for entry in catalog.values():
        if entry.behaviour == key:
            return entry.name
    return key


_NAMES: dict[int, tuple[Mapping[str, Any], dict[str, str]]] = {}
"""id(catalogue records) -> (the records, behaviour -> first name): derived from shared data."""


def _names_by_behaviour(records: Mapping[str, Any]) -> dict[str, str]:
    """Behaviour key -> the name of the first entry pointing at it, for a snapshot's catalogue.

    Built once per catalogue: a snapshot's records are shared and never change (the ids of
    dead ones may be reused, hence the identity check).
    """
    kept = _NAMES.get(id(records))
    if kept is None or kept[0] is not records:
        names: dict[str, str] = {}
        for entry in records.values():
            names.setdefault(entry.behaviour, entry.name)
        kept = _NAMES[id(records)] = (records, names)
    return kept[1]


def invoke(spec: Behaviour, db: BankingDB, owner: str, name: str, arguments: Any) -> str:
    """Call a behaviour with JSON arguments, reporting a bad call as the reference does.

    Args:
        spec: The behaviour.
        db: The bank view.
        owner: The reference's class name in argument errors (``KnowledgeTools``).
        name: The tool's public name.
        arguments: The decoded JSON (a dict, or anything else an agent sent).

    Returns:
        The behaviour's text.

    Raises:
        TypeError: The keyword set does not fit the signature (CPython's message, with the
            reference's class name) or the behaviour raised it; callers report it as text.
        ToolError: The behaviour failed on a value of the wrong type.
    """
    # The usual call binds (a dict of accepted keywords with every required one): told by
    # two set comparisons, the message is looked for only otherwise.
    if not (
        type(arguments) is dict
        and spec.accepted.issuperset(arguments)
        and arguments.keys() >= spec.required_set
    ):
        problem = _binding_problem(spec, owner, name, arguments)
        if problem is not None:
            raise TypeError(problem)
    try:
        return spec.function(db, **arguments)
    except _INPUT_ERRORS as error:
        raise ToolError(str(error)) from None


_REFERENCE_MODULE = "tau2.domains.banking_knowledge.tools"
"""The reference's module, which CPython names in one of its call errors."""


def _binding_problem(spec: Behaviour, owner: str, name: str, arguments: Any) -> str | None:
    """CPython's message for calling the reference's method with ``**arguments``, or None."""
    label = f"{owner}.{name}()"
    if not isinstance(arguments, dict):
        kind = type(arguments).__name__
        return f"{_REFERENCE_MODULE}.{label} argument after ** must be a mapping, not {kind}"
    return keywords_error(label[:-2], spec.parameters, spec.required_set, arguments)


_DOCUMENTATION: dict[int, tuple[CatalogEntry, str]] = {}
"""id(catalogue entry) -> (the entry, its documentation block): entries are frozen."""


def format_documentation(entry: CatalogEntry) -> str:
    """The documentation block unlocking shows: name, description, one line per parameter.

    Written once per entry (the entry is kept with its text, so its id is not reused).
    """
    kept = _DOCUMENTATION.get(id(entry))
    if kept is None or kept[0] is not entry:
        kept = _DOCUMENTATION[id(entry)] = (entry, _documentation(entry))
    return kept[1]


def _documentation(entry: CatalogEntry) -> str:
    lines = [
        f"  - {p.name}: {p.type} ({'required' if p.required else 'optional'}) - {p.description}"
        for p in entry.parameters
    ]
    parameters = "\n".join(lines) if lines else "  (no parameters)"
    return f"Tool: {entry.name}\nDescription: {entry.description}\nParameters:\n{parameters}"
