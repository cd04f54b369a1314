import json
import math

import pytest

from tau_env.domains.banking_knowledge.json_text import indented


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
