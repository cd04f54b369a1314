import datetime as dt
import gc
import json
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from tau_env import serialization
from tau_env.serialization import committed_json_str, to_json_str


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


class Stop(BaseModel):
    code: str
    seats: dict[str, int]
    note: str | None = None


class Trip(BaseModel):  # no floats: written straight from the model
    trip_id: str
    stops: list[Stop]
    kind: Literal["one_way", "round_trip"]
    big: int
    paid: bool


def _trip(code: str = 'A, B: "C"\n\t\\ e-mail 0.00001') -> Trip:
    stop = Stop(code=code, seats={"x: 1, y": 2}, note=None)
    return Trip(trip_id="T1", stops=[stop, stop], kind="one_way", big=2**70, paid=False)


def _reference(value: Any) -> str:
    return json.dumps(value.model_dump(), default=str)


@pytest.mark.parametrize(
    "trip",
    [
        _trip(),
        _trip(code="café ☕ \U0001f600"),  # non-ASCII: json.dumps escapes it
        _trip(code="a\x7fb\x00\x1f"),  # DEL and control characters
        Trip(trip_id="", stops=[], kind="round_trip", big=-1, paid=True),
    ],
)
def test_to_json_str__records_without_floats_as_json_dumps_writes_them(trip):
    assert to_json_str(trip) == _reference(trip) == committed_json_str(trip)
    assert to_json_str([trip, trip]) == json.dumps([trip.model_dump()] * 2, default=str)


class Dated(BaseModel):  # not plain: the usual way
    day: dt.datetime
    stop: Stop


def test_committed_json_str__is_to_json_str(monkeypatch):
    dated = Dated(day=dt.datetime(2025, 2, 25, 10, 30), stop=Stop(code="é", seats={}))
    for value in ["text", None, 5, {"a": [1, 2.5]}, (True,), [_trip()], _trip(), dated]:
        assert committed_json_str(value) == to_json_str(value)
        assert committed_json_str(value) == to_json_str(value)  # kept text, for records


def test_committed_json_str__writes_a_record_once_while_it_lives(monkeypatch):
    gc.collect()  # records of earlier tests still in uncollected cycles must not count below
    writes = []
    write = serialization.plain_text
    monkeypatch.setattr(serialization, "plain_text", lambda r: writes.append(r) or write(r))
    trip, other = _trip(), _trip()
    texts = [committed_json_str(trip), committed_json_str(other), committed_json_str(trip)]
    assert texts == [_reference(trip)] * 3
    assert writes == [trip, other]  # equal records, but each written once: kept by identity
    kept = len(serialization._KEPT)
    writes.clear()
    del trip, other
    gc.collect()
    assert len(serialization._KEPT) == kept - 2  # dead records leave nothing behind


def test_committed_json_str__keeps_no_text_written_with_a_warning():
    stop = Stop(code="x", seats={})
    stop.code = dt.date(2025, 1, 2)  # type: ignore[assignment]  # no validation
    for _ in range(2):
        with pytest.warns(UserWarning):  # pydantic's: a value of an unexpected type
            assert committed_json_str(stop) == '{"code": "2025-01-02", "seats": {}, "note": null}'


def test_kept_entry__the_text_committed_json_str_kept_for_a_record():
    trip = _trip()
    assert serialization.kept_entry(id(trip)) is None  # nothing written yet
    text = committed_json_str(trip)
    entry = serialization.kept_entry(id(trip))
    assert entry is not None and entry() is trip and entry.text == text
    assert type(trip) in serialization.KEPT_TYPES
    assert serialization.kept_entry(id(_trip())) is None  # an equal record: its own entry


def test_kept_text__a_record_dying_after_module_teardown_raises_nothing(monkeypatch):
    # Issue 41: at interpreter exit, after a TRL run, records that died after this module's
    # globals were cleared to None printed "Exception ignored in: <function _forget>".
    import gc
    import sys

    from tau_env.messages import UserMessage

    record = UserMessage(content="still alive at exit")
    committed_json_str(record)
    raised = []
    monkeypatch.setattr(sys, "unraisablehook", raised.append)
    monkeypatch.setattr(serialization, "_KEPT", None)  # what module teardown does
    del record
    gc.collect()
    assert raised == []
