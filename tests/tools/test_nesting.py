"""How deep tool-call arguments may nest, and what a trajectory keeps of deeper ones."""

from collections import OrderedDict

import pytest

from tau_env.tools.nesting import CUT_MARK, MAX_ARGUMENT_DEPTH, clipped, nests_deeper_than


def nested(depth: int, kind=dict):
    value = kind()
    for _ in range(depth - 1):
        value = kind(a=value) if kind is not list else [value]
    return value


@pytest.mark.parametrize("kind", [dict, list, OrderedDict])
def test_nests_deeper_than__counts_levels_of_containers(kind):
    limit = MAX_ARGUMENT_DEPTH
    deep = [nests_deeper_than({"x": nested(n, kind)}) for n in (limit - 2, limit - 1, limit, 5000)]
    assert deep == [False, False, True, True]  # the arguments object is a level too


def test_nests_deeper_than__scalars_and_flat_arguments():
    assert not nests_deeper_than("x" * 10_000) and not nests_deeper_than(10**400)
    assert not nests_deeper_than({"a": 1, "b": "x", "c": None, "d": 1.5, "e": True})
    assert nests_deeper_than({"a": 1}, 0) and not nests_deeper_than({"a": 1}, 1)
    assert nests_deeper_than({"a": [1]}, 1) and not nests_deeper_than({"a": [1]}, 2)
    assert nests_deeper_than({"a": (({},),)}, 3) and not nests_deeper_than({"a": (({},),)}, 4)


def test_clipped__keeps_the_first_levels_and_marks_the_cut():
    value = clipped(nested(5000), MAX_ARGUMENT_DEPTH)
    assert not nests_deeper_than(value) and nests_deeper_than(value, MAX_ARGUMENT_DEPTH - 1)
    for _ in range(MAX_ARGUMENT_DEPTH - 1):
        value = value["a"]
    assert value == {"a": CUT_MARK}
    assert clipped({"a": (1, "x")}) == {"a": [1, "x"]} and clipped(7) == 7
