import pytest
from pydantic import BaseModel, PrivateAttr

from tau_env.state import Journal, Table
from tau_env.state.record_copy import copy_record


class Seats(BaseModel):
    free: dict[str, int]


class Flight(BaseModel):
    number: str
    dates: dict[str, Seats]
    notes: list[str] = []


class Odd(BaseModel):  # a private attribute: not copyable field by field
    items: list[str]
    _cache: int = PrivateAttr(default=0)


def _flight() -> Flight:
    return Flight(
        number="F1",
        dates={"d1": Seats(free={"eco": 3}), "d2": Seats(free={"eco": 5})},
        notes=["n"],
    )


@pytest.fixture
def base():
    return {"f": _flight(), "o": Odd(items=["a"])}


def test_edit_part__copies_only_the_path_and_shares_the_rest(base):
    table = Table("t", base, Journal())
    seats = table.edit_part("f", "dates", "d1")
    seats.free["eco"] -= 1
    edited = table["f"]
    assert edited is not base["f"] and edited.dates is not base["f"].dates
    assert edited.dates["d2"] is base["f"].dates["d2"]  # untouched part shared
    assert edited.notes is base["f"].notes
    assert edited.dates["d1"].free == {"eco": 2}
    assert base["f"] == _flight()
    assert edited.model_fields_set == set(Flight.model_fields)  # as `copy_record` gives


def test_edit_part__same_part_twice_in_one_transaction_is_the_same_object(base):
    journal = Journal()
    table = Table("t", base, journal)
    assert table.edit_part("f", "dates", "d1") is table.edit_part("f", "dates", "d1")
    journal.commit()
    committed = table["f"].dates["d1"]
    assert table.edit_part("f", "dates", "d1") is not committed  # never mutated again


def test_edit_after_edit_part__copies_the_rest_and_keeps_the_parts_handed_out(base):
    journal = Journal()
    table = Table("t", base, journal)
    seats = table.edit_part("f", "dates", "d1")
    whole = table.edit("f")
    seats.free["eco"] = 0
    whole.dates["d2"].free["eco"] = 9
    whole.notes.append("m")
    assert whole.dates["d1"] is seats and whole.dates["d1"].free == {"eco": 0}
    assert base["f"] == _flight()
    assert table.edit("f") is whole


def test_edit_part__a_wider_part_keeps_the_narrower_one(base):
    table = Table("t", base, Journal())
    seats = table.edit_part("f", "dates", "d1")
    dates = table.edit_part("f", "dates")
    assert dates["d1"] is seats
    dates["d2"].free["eco"] = 0
    assert base["f"] == _flight()


def test_edit_part__inside_a_part_owned_whole_is_no_copy(base):
    table = Table("t", base, Journal())
    dates = table.edit_part("f", "dates")
    assert table.edit_part("f", "dates", "d2") is dates["d2"]
    whole = table.edit("f")
    assert whole.dates is dates


def test_update__sets_fields_without_copying_the_others(base):
    table = Table("t", base, Journal())
    table.update("f", number="F2", notes=["x"])
    assert table["f"].number == "F2" and table["f"].notes == ["x"]
    assert table["f"].dates is base["f"].dates
    assert base["f"] == _flight()
    with pytest.raises(AttributeError):
        table.update("f", nope=1)


def test_update__of_a_record_owned_whole_leaves_the_new_value_shared(base):
    journal = Journal()
    table = Table("t", base, journal)
    shared = base["f"].dates
    table.edit("f")
    table.update("f", dates=shared)
    table.edit_part("f", "dates", "d1").free["eco"] = 0
    assert base["f"] == _flight()


def test_rollback__undoes_partial_edits_and_updates(base):
    journal = Journal()
    table = Table("t", base, journal)
    table.edit_part("f", "dates", "d1").free["eco"] = 0
    table.update("f", number="X")
    journal.rollback()
    assert table["f"] is base["f"]
    assert not table.has_changes()


def test_edit_part__a_type_not_copyable_by_fields_is_copied_whole(base):
    table = Table("t", base, Journal())
    items = table.edit_part("o", "items")
    items.append("b")
    assert table["o"].items == ["a", "b"] and base["o"].items == ["a"]


def test_edit_part__missing_record_or_path_raises(base):
    table = Table("t", base, Journal())
    with pytest.raises(KeyError):
        table.edit_part("zz", "dates")
    with pytest.raises(AttributeError):
        table.edit_part("f", "nope")


def test_fork__shares_the_overlay_until_either_side_writes(base):
    journal = Journal()
    table = Table("t", base, journal)
    table.edit_part("f", "dates", "d1").free["eco"] = 1
    journal.commit()
    child_journal = Journal()
    child = table.fork(child_journal)
    assert child.overlay() is table.overlay()
    child.update("f", number="C")
    child_journal.commit()
    assert table["f"].number == "F1" and child["f"].number == "C"
    table.delete("o")
    journal.commit()
    assert "o" in child and "o" not in table


def test_fork__inside_a_partial_edit_is_refused(base):
    table = Table("t", base, Journal())
    table.edit_part("f", "dates", "d1")
    with pytest.raises(RuntimeError):
        table.fork(Journal())


def test_partial_copy_then_full_copy__equals_a_copy_record(base):
    table = Table("t", base, Journal())
    table.edit_part("f", "dates", "d1")
    whole = table.edit("f")
    assert whole == copy_record(base["f"])
    assert whole.model_dump() == base["f"].model_dump()


def test_edit_top__assigning_fields_leaves_the_base_and_the_other_fields_shared(base):
    journal = Journal()
    table = Table("t", base, journal)
    top = table.edit_top("f")
    top.number = "F9"
    assert table.edit_top("f") is top
    assert top.dates is base["f"].dates and base["f"].number == "F1"
    table.edit_part("f", "dates", "d1").free["eco"] = 0  # still copies what it changes
    assert base["f"] == _flight()
    assert table.edit("f") is top and top.number == "F9"
    journal.commit()
    assert table.edit_top("f") is not top  # committed: copied again
