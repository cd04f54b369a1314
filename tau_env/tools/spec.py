"""Declaring tools and env functions: one typed function, one Google docstring.

A tool is a plain function whose first parameter is the calling side's database view (injected
by the world, hidden from the schema) and whose other parameters are the tool's arguments::

    @tool(side="agent", kind="write")
    def create_task(db: MockDB, user_id: str, title: str) -> Task:
        \"\"\"Create a task for a user.

Args:
            user_id: The user who owns the task.
            title: The task's title.
        \"\"\"

From the signature and the docstring the decorator builds, once, the OpenAI function schema and
a pydantic model that validates call arguments. Env functions (`env_function`) are the setup
and assertion helpers that task files may call by name; they share the machinery but are never
offered to a model.

Numbers are taken as the reference's tools see them: its arguments reach the Python function
unconverted, so a string is never a number. A numeric parameter (``int``, ``float``, ``bool``,
also inside unions and containers of the signature) accepts only a JSON value of that type
(``"5"`` and ``5.0`` are not an ``int``; ``"2.0"`` is not a ``float``), except that an integer
is accepted where a float is expected and stays an integer, as in Python. Fields of nested
models (a payment ``{"amount": ...}``) keep pydantic's conversions, because the reference
builds those models from the dicts it receives.
"""

from __future__ import annotations

import copy
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Any, Literal, TypeVar, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    ValidationError,
    WithJsonSchema,
    create_model,
)
from pydantic_core import PydanticCustomError

from tau_env.errors import ToolDefinitionError
from tau_env.messages import Side
from tau_env.tools.docstring import parse_docstring
from tau_env.tools.nesting import MAX_ARGUMENT_DEPTH, nests_deeper_than
from tau_env.tools.plain_arguments import (
    Keywords,
    PlainParameter,
    bound_in_order,
    keywords_check,
    plain_parameters,
)

__all__ = [
    "FunctionSpec",
    "ToolKind",
    "env_function",
    "exact_numbers",
    "format_validation_error",
    "function_spec",
    "tool",
]

ToolKind = Literal["read", "write", "generic", "think", "env"]
"""read/write/generic/think as in the reference; ``env`` marks setup and assertion helpers."""

F = TypeVar("F", bound=Callable[..., Any])

_SPEC_ATTRIBUTE = "__tau_function_spec__"


@dataclass(frozen=True)
class FunctionSpec:
    """Everything the world needs to expose and call one tool or env function.

    Attributes:
        name: The name models and task files use.
        side: Which side's database the function works on.
        kind: read, write, generic, think, or env (setup/assertion helper).
        mutates_state: Whether a call can change state; only such calls are re-executed when a
            recorded trajectory is replayed.
        function: The plain Python function.
        description: Summary plus long description from the docstring.
        arguments_model: Validates call arguments (unknown arguments are rejected).
        slow: A call may take long (a search over a corpus, a call to a service): a server runs
            it off its event loop, so other sessions are not held up.
    """

    name: str
    side: Side
    kind: ToolKind
    mutates_state: bool
    function: Callable[..., Any]
    description: str
    arguments_model: type[BaseModel]
    slow: bool = False

    @cached_property
    def parameter_names(self) -> tuple[str, ...]:
        """The argument names, in signature order."""
        return tuple(self.arguments_model.model_fields)

    @cached_property
    def required_names(self) -> frozenset[str]:
        """The arguments without a default."""
        return frozenset(
            name for name, field in self.arguments_model.model_fields.items() if field.is_required()
        )

    @cached_property
    def _plain_parameters(self) -> tuple[PlainParameter, ...] | None:
        return plain_parameters(self.function)

    @cached_property
    def _keywords_check(self) -> Keywords | None:
        plain = self._plain_parameters
        return None if plain is None else keywords_check(plain)

    @cached_property
    def _parameters_schema(self) -> dict[str, Any]:
        # Generating a JSON schema costs about 0.5 ms; every env built asks for every tool's.
        return self.arguments_model.model_json_schema()

    def openai_schema(self) -> dict[str, Any]:
        """The tool as an OpenAI function definition (the reference's layout)."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": copy.deepcopy(self._parameters_schema),
            },
        }

    def validate_arguments(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Check arguments against the signature and return them as keyword arguments.

        Raises:
            ValueError: An argument is missing, unknown or of the wrong type, or the
                arguments nest deeper than `MAX_ARGUMENT_DEPTH`; the message names each
                offending argument.
        """
        if nests_deeper_than(arguments):  # (before anything recursive looks at them)
            raise ValueError(f"nested more than {MAX_ARGUMENT_DEPTH} levels deep")
        plain, check = self._plain_parameters, self._keywords_check
        if plain is not None and check is not None:  # exactly the declared types: no model
            keywords = check(arguments)
            if keywords is not None:
                return bound_in_order(plain, keywords)
        try:  # `model_validate` without its Python wrapper (it adds nothing for plain input)
            validated = self.arguments_model.__pydantic_validator__.validate_python(arguments)
        except ValidationError as error:
            raise ValueError(format_validation_error(error)) from None
        # Every parameter, in signature order: extra fields are forbidden, so the fields are
        # all the instance holds (read at once, not one model attribute look-up each).
        return dict(validated.__dict__)

    def call_arguments(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Keywords to call the function with: `validate_arguments`'s, bound the same way.

        Arguments of exactly the declared plain types are checked once and passed as they
        are (``function(db, **keywords)`` copies them; the function's own defaults fill in
        what is left out, as validation would): the world's hot path, checked at the
        boundary and trusted inside. Anything else is validated.

        Raises:
            ValueError: As `validate_arguments`.
        """
        check = self._keywords_check
        if check is not None:
            keywords = check(arguments)
            if keywords is not None:
                return keywords
        return self.validate_arguments(arguments)


MAX_PROBLEMS_SHOWN = 5
"""Problems a validation error names; the rest are counted (a list argument of 100,000 wrong
items is 100,000 problems: the error text stays a few lines, whatever the input)."""


def format_validation_error(error: ValidationError) -> str:
    """The problems, naming each argument: ``'title': Field required; ...``.

    At most `MAX_PROBLEMS_SHOWN` are named, then ``and N more``.
    """
    problems = []
    for detail in error.errors()[:MAX_PROBLEMS_SHOWN]:
        where = ".".join(str(part) for part in detail["loc"]) or "arguments"
        message = "unexpected argument" if detail["type"] == "extra_forbidden" else detail["msg"]
        problems.append(f"'{where[:80]}': {message}")
    hidden = error.error_count() - len(problems)
    return "; ".join(problems) + (f"; and {hidden} more" if hidden > 0 else "")


def function_spec(function: Callable[..., Any]) -> FunctionSpec:
    """The spec attached to a function by `tool` or `env_function`.

    Raises:
        ToolDefinitionError: The function was not decorated.
    """
    spec = getattr(function, _SPEC_ATTRIBUTE, None)
    if not isinstance(spec, FunctionSpec):
        raise ToolDefinitionError(f"{function!r} is not declared with @tool or @env_function")
    return spec


def tool(
    *,
    side: Side = "agent",
    kind: ToolKind,
    mutates_state: bool | None = None,
    argument_texts: Mapping[str, str] | None = None,
    slow: bool = False,
) -> Callable[[F], F]:
    """Declare a function as a tool of one side.

    Args:
        side: ``"agent"`` for the company's tools, ``"user"`` for the user's own device tools.
        kind: ``"read"``, ``"write"``, ``"generic"`` or ``"think"``.
        mutates_state: Whether calls change state; defaults to ``kind == "write"``.
        argument_texts: Argument descriptions that replace the docstring's in the schema, for
            interface text a Google docstring cannot carry (a line break inside one argument's
            description, which a reference's schema may contain byte for byte).
        slow: A call may take long (it searches a corpus, or waits on a service); see
            `FunctionSpec.slow`.

    Returns:
        A decorator that attaches the spec and returns the function unchanged.
    """
    if kind == "env":
        raise ToolDefinitionError("use @env_function for setup and assertion helpers")

    def decorate(function: F) -> F:
        mutates = kind == "write" if mutates_state is None else mutates_state
        spec = _build_spec(
            function,
            side,
            kind,
            mutates,
            require_descriptions=True,
            overrides=argument_texts,
            slow=slow,
        )
        setattr(function, _SPEC_ATTRIBUTE, spec)
        return function

    return decorate


def env_function(*, side: Side = "agent", mutates_state: bool = True) -> Callable[[F], F]:
    """Declare a setup or assertion helper that task files may call by name.

    Args:
        side: Which side's database the helper works on.
        mutates_state: False for assertions and other pure checks.

    Returns:
        A decorator that attaches the spec and returns the function unchanged.
    """

    def decorate(function: F) -> F:
        spec = _build_spec(function, side, "env", mutates_state, require_descriptions=False)
        setattr(function, _SPEC_ATTRIBUTE, spec)
        return function

    return decorate


def _build_spec(
    function: Callable[..., Any],
    side: Side,
    kind: ToolKind,
    mutates_state: bool,
    *,
    require_descriptions: bool,
    overrides: Mapping[str, str] | None = None,
    slow: bool = False,
) -> FunctionSpec:
    name = function.__name__
    try:
        hints = typing.get_type_hints(function, include_extras=True)  # keep Annotated metadata
    except Exception as error:
        raise ToolDefinitionError(f"{name}: cannot resolve type hints: {error}") from error
    parameters = list(inspect.signature(function).parameters.values())
    if not parameters:
        raise ToolDefinitionError(f"{name}: the first parameter must be the database view")
    docstring = parse_docstring(function.__doc__)
    problems: list[str] = []
    if require_descriptions and not docstring.summary:
        problems.append("no docstring summary")
    fields: dict[str, Any] = {}
    for parameter in parameters[1:]:
        if parameter.kind not in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
            problems.append(f"parameter {parameter.name!r}: *args/**kwargs are not supported")
            continue
        if parameter.name not in hints:
            problems.append(f"parameter {parameter.name!r}: no type annotation")
            continue
        description = docstring.args.get(parameter.name)
        if overrides and parameter.name in overrides:
            description = overrides[parameter.name]
        if require_descriptions and not description:
            problems.append(f"parameter {parameter.name!r}: no description in 'Args:'")
        default = ... if parameter.default is parameter.empty else parameter.default
        annotation = exact_numbers(hints[parameter.name])
        fields[parameter.name] = (annotation, Field(default, description=description))
    unknown = sorted(set(overrides or ()) - set(fields))
    if unknown:
        problems.append(f"argument_texts name no parameter: {unknown}")
    if problems:
        raise ToolDefinitionError(f"{name}: " + "; ".join(problems))
    arguments_model = create_model("parameters", __config__=ConfigDict(extra="forbid"), **fields)
    return FunctionSpec(
        name=name,
        side=side,
        kind=kind,
        mutates_state=mutates_state,
        function=function,
        description=docstring.description,
        arguments_model=arguments_model,
        slow=slow,
    )


def _number(value: Any) -> Any:
    """A JSON number as given (an integer stays an integer); anything else is refused."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PydanticCustomError("float_type", "Input should be a valid number")
    return value


_EXACT_FLOAT = Annotated[float, PlainValidator(_number), WithJsonSchema({"type": "number"})]
_CONTAINERS = (list, tuple, set, frozenset, dict)


def exact_numbers(annotation: Any) -> Any:
    """`annotation` with its numbers exact: no conversion from strings, floats or bools.

    ``int`` and ``bool`` become strict; ``float`` (and ``int | float``) accepts an integer or
    a float and keeps it as given, still described as ``number`` in the schema. Unions,
    ``Annotated`` metadata and the items of built-in containers are rewritten the same way;
    models and every other type are left as they are.
    """
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        inner, *metadata = typing.get_args(annotation)
        return Annotated[(exact_numbers(inner), *metadata)]
    if origin is Union or origin is types.UnionType:
        members = typing.get_args(annotation)
        if float in members and set(members) <= {int, float, type(None)}:
            members = tuple(m for m in members if m is not int)  # int | float is a number
        rewritten = tuple(exact_numbers(member) for member in members)
        return rewritten[0] if len(rewritten) == 1 else Union[rewritten]  # noqa: UP007
    if origin in _CONTAINERS:
        return origin[tuple(exact_numbers(arg) for arg in typing.get_args(annotation))]
    if annotation is bool:
        return Annotated[bool, Strict()]
    if annotation is int:
        return Annotated[int, Strict()]
    if annotation is float:
        return _EXACT_FLOAT
    return annotation
