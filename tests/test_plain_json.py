import datetime as dt
import json
import math
from enum import Enum
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, computed_field, field_serializer

from tau_env.plain_json import plain_json, plain_model, plain_text
from tau_env.serialization import to_json_str


class Leaf(BaseModel):
    name: str
    price: float
    count: int
    ok: bool
    note: str | None = None


class Record(BaseModel):
    id: str
    kind: Literal["a", "b"]
    leaves: list[Leaf]
    by_key: dict[str, Leaf]
    seats: dict[Literal["x", "y"], int]
    tags: list[str] | None = None


def _record(**overrides: Any) -> Record:
    fields: dict[str, Any] = {
        "id": "#W1, {a: b}",
        "kind": "a",
        "leaves": [Leaf(name='say "hi"\n\t\\', price=342.81, count=2, ok=True)],
        "by_key": {"k:1, 2": Leaf(name="x", price=5.0, count=0, ok=False, note="")},
        "seats": {"x": 3},
        "tags": [],
    }
    fields.update(overrides)
    return Record(**fields)


def _expected(value: BaseModel) -> str:
    return json.dumps(value.model_dump(), default=str)


def test_plain_model__records_of_json_types_only():
    assert plain_model(Leaf)
    assert plain_model(Record)


class WithDate(BaseModel):
    day: dt.date
    price: float


class Color(Enum):
    RED = "red"


class WithEnum(BaseModel):
    color: Color
    price: float


class WithAny(BaseModel):
    data: dict[str, Any]
    price: float


class WithExtra(BaseModel):
    model_config = ConfigDict(extra="allow")
    price: float


class WithComputed(BaseModel):
    name: str
    price: float

    @computed_field  # type: ignore[prop-decorator]
    @property
    def upper(self) -> str:
        return self.name.upper()


class WithSerializer(BaseModel):
    name: str
    price: float

    @field_serializer("name")
    def _shout(self, name: str) -> str:
        return name.upper()


class WithIntKeys(BaseModel):
    by_number: dict[int, str]
    price: float


class WithoutFloats(BaseModel):  # json.dumps is as fast on these: not worth the change of layout
    name: str
    count: int


@pytest.mark.parametrize(
    "cls",
    [
        WithDate,
        WithEnum,
        WithAny,
        WithExtra,
        WithComputed,
        WithSerializer,
        WithIntKeys,
        WithoutFloats,
    ],
)
def test_plain_model__refuses_what_json_dumps_writes_its_own_way_or_as_fast(cls):
    assert not plain_model(cls)


def test_plain_json__is_json_dumps_text():
    record = _record()
    assert plain_json(record) == _expected(record)
    assert plain_json([record, record]) == json.dumps([record.model_dump()] * 2, default=str)
    empty = _record(leaves=[], by_key={}, seats={}, tags=None)
    assert plain_json(empty) == _expected(empty)


@pytest.mark.parametrize(
    "leaf",
    [
        Leaf(name="café", price=1.0, count=1, ok=True),  # json.dumps escapes non-ASCII
        Leaf(name="a\x7fb", price=1.0, count=1, ok=True),  # and DEL
        Leaf(name="x", price=0.00001, count=1, ok=True),  # 1e-05 against 0.00001
        Leaf(name="x", price=-2.5e-7, count=1, ok=True),  # -2.5e-07 against -2.5e-7
    ],
)
def test_plain_json__refuses_text_written_differently(leaf):
    assert plain_json(leaf) is None
    assert to_json_str(leaf) == _expected(leaf)


def test_plain_json__refuses_a_value_of_an_undeclared_type():
    leaf = Leaf(name="x", price=1.0, count=1, ok=True)
    leaf.name = dt.datetime(2025, 1, 2, 3, 4)  # type: ignore[assignment]  # no validation
    assert plain_json(leaf) is None
    with pytest.warns(UserWarning):  # pydantic's: a value of an unexpected type
        text = to_json_str(leaf)
    assert text.startswith('{"name": "2025-01-02 03:04:00", ')  # str(), as json.dumps writes it


@pytest.mark.parametrize("price", [0.0, -0.0, 1e-4, 123456789012345.6, 1e16, 1e300, math.inf])
def test_to_json_str__floats_as_json_dumps_writes_them(price):
    leaf = Leaf(name="x", price=price, count=2**70, ok=False)
    assert to_json_str(leaf) == _expected(leaf)
    assert to_json_str([leaf]) == json.dumps([leaf.model_dump()], default=str)


def test_to_json_str__nan_as_json_dumps_writes_it():
    leaf = Leaf(name="x", price=math.nan, count=1, ok=True)
    assert to_json_str(leaf) == _expected(leaf)


def test_plain_text__writes_records_without_floats_too():
    record = WithoutFloats(name='a, b: "c" e-mail 0.00001\n', count=2**70)
    assert plain_text(record) == _expected(record)  # no float checks: no floats to write
    assert plain_text(WithoutFloats(name="café", count=1)) is None  # json.dumps escapes it
    assert plain_text(WithDate(day=dt.date(2025, 1, 2), price=1.0)) is None  # not plain
    broken = WithoutFloats(name="x", count=1)
    broken.count = "1"  # type: ignore[assignment]  # no validation
    assert plain_text(broken) is None


class ConstantLeaf(BaseModel):  # writes infinities and NaN as json.dumps does
    model_config = ConfigDict(ser_json_inf_nan="constants")
    name: str
    price: float
    note: str | None = None


class ConstantRecord(BaseModel):
    model_config = ConfigDict(ser_json_inf_nan="constants")
    leaves: list[ConstantLeaf]
    total: float | None = None


class MixedRecord(BaseModel):  # a nested model writes infinities as null: dumped first
    model_config = ConfigDict(ser_json_inf_nan="constants")
    leaves: list[Leaf]


@pytest.mark.parametrize(
    "price",
    [0.0, -0.0, 342.81, 1e-4, 0.00001, -2.5e-7, 1e16, 1e300, math.inf, -math.inf, math.nan],
)
def test_plain_text__floats_written_straight_from_the_model_as_json_dumps_writes_them(price):
    record = ConstantRecord(leaves=[ConstantLeaf(name="e-x", price=price)], total=price)
    assert plain_model(ConstantRecord)
    assert to_json_str(record) == _expected(record)
    mixed = MixedRecord(leaves=[Leaf(name="x", price=price, count=1, ok=True)])
    assert to_json_str(mixed) == _expected(mixed)


class WiderLeaf(ConstantLeaf):  # a subclass: its own fields must be written too
    extra: str = "wide"


def test_plain_json__a_list_of_one_class_written_in_one_go_as_json_dumps_writes_it():
    leaves = [ConstantLeaf(name="a, b: c", price=1.5), ConstantLeaf(name="x", price=math.inf)]
    expected = json.dumps([leaf.model_dump() for leaf in leaves], default=str)
    assert plain_json(leaves) == expected == to_json_str(leaves) == to_json_str(tuple(leaves))
    mixed = [leaves[0], WiderLeaf(name="y", price=2.0)]
    assert to_json_str(mixed) == json.dumps([leaf.model_dump() for leaf in mixed], default=str)
    assert '"extra": "wide"' in to_json_str(mixed)
    broken = ConstantLeaf(name="z", price=1.0)
    broken.price = "1"  # type: ignore[assignment]  # no validation
    assert plain_json([leaves[0], broken]) is None
    assert plain_json([ConstantLeaf(name="café", price=1.0)]) is None
