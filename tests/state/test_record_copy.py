"""Specialised record copies equal validated ones and share nothing mutable."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from tau_env.domain import load_domain
from tau_env.state.record_copy import copier_for, copy_record, top_copier_for, validated_copy
from tests.conftest import domain_sources, source_id


def mutable_parts(value: Any, found: list[Any]) -> list[Any]:
    """Every container and model inside `value` (including itself)."""
    if isinstance(value, BaseModel):
        found.append(value)
        for item in value.__dict__.values():
            mutable_parts(item, found)
    elif isinstance(value, list | dict | set):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            mutable_parts(item, found)
    return found


def assert_same_copy(record: BaseModel) -> None:
    copy, expected = copy_record(record), validated_copy(record)
    assert type(copy) is type(expected)
    assert copy == expected == record
    assert copy.model_dump() == expected.model_dump()
    assert copy.model_dump_json() == expected.model_dump_json()
    assert copy.model_fields_set == expected.model_fields_set
    assert copy.__pydantic_extra__ == expected.__pydantic_extra__
    assert copy.__pydantic_private__ == expected.__pydantic_private__
    original = {id(part) for part in mutable_parts(record, [])}
    assert not any(id(part) in original for part in mutable_parts(copy, []))
    for mine, theirs in zip(mutable_parts(copy, []), mutable_parts(expected, []), strict=True):
        assert type(mine) is type(theirs)
        if isinstance(mine, BaseModel):
            assert mine.model_fields_set == theirs.model_fields_set


@pytest.mark.parametrize("source", domain_sources(), ids=source_id)
def test_copy_record__every_record_of_every_domain(source):
    domain = load_domain(*source)
    snapshots = [domain.data.agent_snapshot, domain.data.user_snapshot]
    for snapshot in filter(None, snapshots):
        for field in snapshot.layout:
            # banking keeps each table row as the JSON object it was written as (`Row`, a
            # RootModel over Any): copied by the general rule by design; all else specialised
            specialised = field.record_type.__name__ != "Row"
            assert (copier_for(field.record_type) is not None) == specialised, field.name
            for record in snapshot.records[field.name].values():
                assert_same_copy(record)


@pytest.mark.parametrize("source", domain_sources(), ids=source_id)
def test_top_copier__what_model_copy_makes_for_every_record_of_every_domain(source):
    domain = load_domain(*source)
    snapshots = [domain.data.agent_snapshot, domain.data.user_snapshot]
    for snapshot in filter(None, snapshots):
        for field in snapshot.layout:
            copier = top_copier_for(field.record_type)
            assert (copier is None) == (copier_for(field.record_type) is None), field.name
            for record in snapshot.records[field.name].values() if copier else ():
                copy, expected = copier(record), record.model_copy(update=record.__dict__)
                assert type(copy) is type(record) and copy is not record
                assert copy == expected == record
                assert copy.model_fields_set == expected.model_fields_set
                assert copy.__pydantic_extra__ == expected.__pydantic_extra__
                assert copy.__pydantic_private__ == expected.__pydantic_private__
                assert copy.__dict__ is not record.__dict__
                assert all(copy.__dict__[k] is v for k, v in record.__dict__.items())


class Leaf(BaseModel):
    tags: list[str] = []
    scores: dict[str, float] = {}


class Cat(BaseModel):
    kind: Literal["cat"] = "cat"
    leaf: Leaf = Field(default_factory=Leaf)


class Dog(BaseModel):
    kind: Literal["dog"] = "dog"
    names: set[str] = set()


class Tree(BaseModel):
    name: str
    leaves: list[Leaf] = []
    by_name: dict[str, Leaf] = {}
    maybe: Leaf | None = None
    pet: Cat | Dog = Field(default_factory=Cat, discriminator="kind")
    pair: tuple[int, str] = (1, "a")
    number: int | float = 1


def test_copy_record__nested_containers_unions_and_optionals():
    leaf = Leaf(tags=["a"], scores={"x": 1.0})
    tree = Tree(
        name="t",
        leaves=[leaf, Leaf()],
        by_name={"a": leaf},
        maybe=leaf,
        pet=Dog(names={"rex"}),
        number=2.5,
    )
    assert copier_for(Tree) is not None
    assert_same_copy(tree)
    assert_same_copy(Tree(name="u"))
    copy = copy_record(tree)
    copy.leaves[0].tags.append("b")
    assert tree.leaves[0].tags == ["a"]


class Loose(BaseModel):
    value: Any = None


class Checked(BaseModel):
    name: str

    @field_validator("name")
    @classmethod
    def strip(cls, name: str) -> str:
        return name.strip()


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str = ""


class Private(BaseModel):
    name: str = ""
    _cache: dict[str, str] = PrivateAttr(default_factory=dict)


class Holder(BaseModel):
    inner: Loose = Field(default_factory=Loose)


class Node(BaseModel):
    children: list[Node] = []


@pytest.mark.parametrize("record_type", [Loose, Checked, Open, Private, Holder, Node])
def test_copier_for__types_a_copy_cannot_reproduce_are_validated(record_type):
    assert copier_for(record_type) is None


def test_copy_record__falls_back_to_validation_for_them():
    loose = Loose(value=["shared?"])
    copy = copy_record(loose)
    assert copy == loose and copy.value is not loose.value  # the dump made it new
    node = Node(children=[Node()])
    assert copy_record(node) == node and copy_record(node).children[0] is not node.children[0]


class Base(BaseModel):
    name: str = ""


class Derived(Base):
    extra: str = "x"


class Owner(BaseModel):
    item: Base


def test_copy_record__a_subclass_instance_inside_is_copied_as_validation_copies_it():
    owner = Owner(item=Derived(name="n"))
    copy, expected = copy_record(owner), validated_copy(owner)
    assert type(copy.item) is type(expected.item) is Base  # dumped as the declared type
    assert copy == expected
