import random

import pytest
from pydantic import BaseModel

from tau_env.state import Journal, Table
from tau_env.state.base_index import BaseIndex, base_index


class Rec(BaseModel):
    group: object = None
    note: str = ""


def _group(record: Rec) -> object:
    return record.group


def _base(count: int, rng: random.Random) -> dict[str, Rec]:
    values = ["x", "y", 1, 1.0, True, None, ["list"]]
    return {f"k{n}": Rec(group=rng.choice(values)) for n in range(count)}


def test_base_index__groups_keys_by_value_in_base_order_and_skips_unhashable_values():
    base = {"a": Rec(group="x"), "b": Rec(group=["x"]), "c": Rec(group="x"), "d": Rec()}
    index = BaseIndex(base, _group)
    assert index.keys_by_value == {"x": ["a", "c"], None: ["d"]}
    assert index.position == {"a": 0, "b": 1, "c": 2, "d": 3}


def test_base_index__is_made_once_per_base_and_name():
    base = {"a": Rec(group="x")}
    first = base_index(base, "group", _group)
    assert base_index(base, "group", _group) is first
    assert base_index(dict(base), "group", _group) is not first  # another base: another index


@pytest.mark.parametrize("seed", range(40))
def test_items_where__is_filtering_items_under_any_overlay(seed):
    rng = random.Random(seed)
    base = _base(rng.randint(0, 12), rng)
    journal = Journal()
    table = Table("t", base, journal)
    index = table.index("group", _group)
    values = ["x", "y", 1, True, None, "z"]
    for _ in range(rng.randint(0, 10)):  # edits that move records between values, deletions,
        keys = list(table)  # insertions (new keys and deleted base keys put back)
        action = rng.choice(["edit", "delete", "insert", "insert_back"])
        if action == "edit" and keys:
            table.update(rng.choice(keys), group=rng.choice(values))
        elif action == "delete" and keys:
            table.delete(rng.choice(keys))
        elif action == "insert":
            table.insert(f"new{rng.randint(0, 5)}", Rec(group=rng.choice(values)))
        elif action == "insert_back" and base:
            key = rng.choice(list(base))
            if key not in table:
                table.insert(key, Rec(group=rng.choice(values)))
        if rng.random() < 0.5:
            journal.commit()
    for expected in values:
        scanned = [(key, record) for key, record in table.items() if record.group == expected]
        assert table.items_where(index, expected) == scanned


def test_items_where__refuses_an_index_of_another_base():
    table = Table("t", {"a": Rec(group="x")}, Journal())
    other = BaseIndex({"a": Rec(group="x")}, _group)
    with pytest.raises(ValueError, match="table 't'"):
        table.items_where(other, "x")
