import datetime as dt
import json

from pydantic import BaseModel

from tau_env.serialization import to_json_str


class Line(BaseModel):
    line_id: str
    data_used_gb: float
    active: bool


def test_to_json_str__strings_pass_through_unquoted():
    assert to_json_str("Transfer successful") == "Transfer successful"
    assert to_json_str("4.0") == "4.0"


def test_to_json_str__top_level_numbers_and_bools_become_quoted_strings():
    assert to_json_str(True) == '"True"'
    assert to_json_str(5) == '"5"'
    assert to_json_str(2.5) == '"2.5"'


def test_to_json_str__numbers_inside_plain_dicts_are_stringified():
    assert to_json_str({"a": 1}) == '{"a": "1"}'
    assert json.loads(to_json_str({"data_used_gb": 8.7, "ok": False})) == {
        "data_used_gb": "8.7",
        "ok": "False",
    }


def test_to_json_str__pydantic_models_keep_their_numbers():
    line = Line(line_id="L1", data_used_gb=8.7, active=True)
    assert json.loads(to_json_str(line)) == {"line_id": "L1", "data_used_gb": 8.7, "active": True}
    assert json.loads(to_json_str([line])) == [
        {"line_id": "L1", "data_used_gb": 8.7, "active": True}
    ]


def test_to_json_str__none_lists_tuples_and_dates():
    assert to_json_str(None) == "null"
    assert to_json_str((1, "x", None)) == '["1", "x", null]'
    assert to_json_str({"day": dt.date(2025, 2, 25)}) == '{"day": "2025-02-25"}'
