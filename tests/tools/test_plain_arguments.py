"""The fast check of plain tool arguments agrees with the tool's pydantic model."""

from __future__ import annotations

import inspect
from typing import Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from tau_env.domain import load_domain
from tau_env.tools.plain_arguments import REQUIRED, check_plain, keywords_check, plain_parameters
from tau_env.tools.spec import function_spec, tool
from tests.conftest import domain_sources, source_id


class Item(BaseModel):
    name: str


@tool(kind="write")
def plain(
    db: object,
    name: str,
    count: int,
    ratio: float = 0.5,
    flag: bool = False,
    note: str | None = None,
    mode: Literal["a", "b"] = "a",
    tags: list[str] | None = None,
) -> str:
    """A tool with every plain parameter shape.

    Args:
        name: A string.
        count: An integer.
        ratio: A float.
        flag: A boolean.
        note: An optional string.
        mode: A literal.
        tags: Optional strings.
    """
    return name


@tool(kind="write")
def nested(db: object, item: Item) -> str:
    """A tool with a model parameter.

    Args:
        item: An item.
    """
    return item.name


def validated(spec, arguments):
    """What the tool's pydantic model gives (the reference behaviour), or the error."""
    try:
        model = spec.arguments_model.model_validate(arguments)
    except ValueError as error:
        return ("error", type(error).__name__)
    return {name: getattr(model, name) for name in spec.arguments_model.model_fields}


def test_plain_parameters__describe_each_shape():
    names = [p.name for p in plain_parameters(plain)]
    assert names == ["name", "count", "ratio", "flag", "note", "mode", "tags"]
    by_name = {p.name: p for p in plain_parameters(plain)}
    assert by_name["name"].default is REQUIRED
    assert by_name["note"].types == (str, type(None))
    assert by_name["mode"].allowed == frozenset({"a", "b"})
    assert by_name["tags"].list_of_str


def test_plain_parameters__none_when_a_parameter_is_not_plain():
    assert plain_parameters(nested) is None


def test_check_plain__gives_every_parameter_in_order_with_defaults():
    kwargs = check_plain(plain_parameters(plain), {"count": 3, "name": "x"})
    assert kwargs == {
        "name": "x",
        "count": 3,
        "ratio": 0.5,
        "flag": False,
        "note": None,
        "mode": "a",
        "tags": None,
    }
    assert list(kwargs) == list(function_spec(plain).parameter_names)


@pytest.mark.parametrize(
    "arguments",
    [
        {"name": "x"},  # missing
        {"name": "x", "count": 1, "other": 2},  # unknown
        {"name": "x", "count": "1"},  # a string for an int: validation converts or refuses
        {"name": "x", "count": True},  # a bool is not an int here
        {"name": "x", "count": 1, "ratio": 1},  # an int for a float
        {"name": "x", "count": 1, "mode": "c"},  # outside the literal
        {"name": "x", "count": 1, "tags": ["a", 1]},  # not a list of strings
        {"name": "x", "count": 1, "tags": ("a",)},  # a tuple, not a list
        {"name": b"x", "count": 1},  # bytes for a string
    ],
)
def test_check_plain__leaves_anything_unusual_to_validation(arguments):
    assert check_plain(plain_parameters(plain), arguments) is None


def test_check_plain__copies_lists_as_validation_does():
    tags = ["a", "b"]
    kwargs = check_plain(plain_parameters(plain), {"name": "x", "count": 1, "tags": tags})
    assert kwargs["tags"] == tags and kwargs["tags"] is not tags


values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=3),
    st.sampled_from(["a", "b", "c"]),
    st.lists(st.one_of(st.text(max_size=2), st.integers()), max_size=2),
)
keys = st.sampled_from(["name", "count", "ratio", "flag", "note", "mode", "tags", "other"])

_exhaustive = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _any_arguments(test):
    """Run `test` on 300 fixed argument dicts of known and unknown names and any values."""
    return _exhaustive(given(st.dictionaries(keys, values, max_size=8))(test))


@_any_arguments
def test_check_plain__whenever_it_answers_validation_gives_the_same(arguments):
    spec = function_spec(plain)
    expected = validated(spec, arguments)
    fast = check_plain(plain_parameters(plain), arguments)
    if fast is not None:
        assert fast == expected
        assert [type(v) for v in fast.values()] == [type(v) for v in expected.values()]
    if isinstance(expected, tuple):
        with pytest.raises(ValueError):
            spec.validate_arguments(arguments)
    else:
        assert spec.validate_arguments(arguments) == expected


@pytest.mark.parametrize("source", domain_sources(), ids=source_id)
def test_validate_arguments__same_as_the_model_on_every_gold_call(source):
    """Every gold call of every task takes the fast path or not, and gets the model's answer."""
    domain = load_domain(*source)
    toolbox = domain.toolbox
    checked = 0
    for task in domain.tasks:
        for action in task.gold_actions:
            side = "agent" if action.requestor == "assistant" else "user"
            spec = toolbox.tools(side).get(action.name)
            expected = validated(spec, action.arguments)
            if isinstance(expected, tuple):
                with pytest.raises(ValueError):
                    spec.validate_arguments(action.arguments)
            else:
                assert spec.validate_arguments(action.arguments) == expected
            checked += 1
    assert checked > 0 or not any(task.gold_actions for task in domain.tasks)


def _bound(keywords):
    """What a call ``plain(None, **keywords)`` binds, defaults included, in signature order."""
    bound = inspect.signature(plain).bind(None, **keywords)
    bound.apply_defaults()
    return {name: value for name, value in bound.arguments.items() if name != "db"}


@_any_arguments
def test_keywords_check__binds_what_check_plain_gives_and_refuses_what_it_refuses(arguments):
    plan = plain_parameters(plain)
    slow = check_plain(plan, arguments)
    fast = keywords_check(plan)(arguments)
    assert (fast is None) == (slow is None)
    if fast is not None:
        assert _bound(fast) == slow
        assert [type(v) for v in _bound(fast).values()] == [type(v) for v in slow.values()]
        spec = function_spec(plain)
        assert _bound(spec.call_arguments(arguments)) == spec.validate_arguments(arguments)


def test_keywords_check__copies_lists_and_passes_other_arguments_as_given():
    check = keywords_check(plain_parameters(plain))
    tags = ["a", "b"]
    arguments = {"name": "x", "count": 1, "tags": tags}
    keywords = check(arguments)
    assert keywords == arguments and keywords["tags"] is not tags and keywords is not arguments
    scalars_only = {"name": "x"}
    assert keywords_check(plain_parameters(scalars))(scalars_only) is scalars_only  # ** copies


@tool(kind="read")
def scalars(db: object, name: str, count: int = 0) -> str:
    """A tool without list parameters.

    Args:
        name: A string.
        count: An integer.
    """
    return name
