import json
import math

import pytest

from tau_env.domains.banking_knowledge.json_text import indented, loads_numbers_as_floats


@pytest.mark.parametrize(
    "value",
    [
        {"user_id": "u1", "amount": 25.0, "count": 3, "ok": True, "no": False, "none": None},
        {"text": 'say "hi"\n\t\\ café ☕ \U0001f600 \x7f \x00', "ünïcode key": "x"},
        {"small": 1e-7, "big": 1e22, "neg": -0.0, "int": 2**70, "nan": math.nan},
        {"inf": math.inf, "minus": -math.inf},
        {"nested": {"a": 1}},  # left to json.dumps
        {"list": [1, "a"]},
        {1: "int key"},
        {},
        [],
        [{"a": 1}],
        [{"card_id": "c1", "limit": 500.0, "active": True}, {"card_id": "c2", "note": None}],
        [{"a": 1}, {}],
        [{"a": 1}, {"b": {"nested": 2}}],  # left to json.dumps
        [{"a": 1}, [2]],
        [{"a": 1}, "text"],
        [[{"a": 1}]],
        "text",
        3.5,
        None,
    ],
)
def test_indented__is_json_dumps_with_indent_2(value):
    assert indented(value) == json.dumps(value, indent=2)


def _outcome(decode, text):
    try:
        return "value", repr(decode(text))
    except json.JSONDecodeError as error:
        return "error", str(error)


@pytest.mark.parametrize(
    "text",
    [
        "{}",
        '{"a": 1, "b": [1, 2.5, {"c": null}], "d": 12345678901234567890}',
        '{"a": 1} ',
        ' {"a": 1}',
        '{"a": 1}{"b": 2}',
        '{"a": 1} x}',
        '{"a": 1}}',
        "{bad}",
        '{"a": 1,}',
        '{"a": NaN, "b": -Infinity}',
        '{"x": "\\u00e9", "x": 2}',
        '"{}"',
        "[1]",
        "",
        " ",
        "\ufeff{}",
    ],
)
def test_loads_numbers_as_floats__is_json_loads_with_parse_int_float(text):
    expected = _outcome(lambda t: json.loads(t, parse_int=float), text)
    assert _outcome(loads_numbers_as_floats, text) == expected
