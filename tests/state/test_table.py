import pytest
from pydantic import BaseModel

from tau_env.state import Journal, Table


class Rec(BaseModel):
    name: str
    tags: list[str] = []


@pytest.fixture
def base():
    return {"a": Rec(name="A", tags=["x"]), "b": Rec(name="B")}


def test_edit__copies_the_record_and_leaves_the_base_untouched(base):
    table = Table("t", base, Journal())
    table.edit("a").tags.append("y")
    assert table["a"].tags == ["x", "y"]
    assert base["a"].tags == ["x"]


def test_edit__twice_in_one_transaction_returns_the_same_copy(base):
    journal = Journal()
    table = Table("t", base, journal)
    assert table.edit("a") is table.edit("a")
    journal.commit()
    committed = table["a"]
    assert table.edit("a") is not committed  # committed copies are never mutated again


def test_copied_in_transaction__lists_the_records_that_may_still_change(base):
    journal = Journal()
    table = Table("t", base, journal)
    assert "a" not in table.copied_in_transaction()
    table.edit("a")
    table.insert("c", Rec(name="C"))
    table.edit_part("b", "tags")
    assert {"a", "b", "c"} <= set(table.copied_in_transaction())
    journal.commit()  # committed copies are never mutated again
    assert not any(key in table.copied_in_transaction() for key in ("a", "b", "c"))
    table.update("a", name="A2")
    assert set(table.copied_in_transaction()) == {"a"}
    journal.rollback()
    assert "a" not in table.copied_in_transaction()


def test_rollback__restores_edits_inserts_and_deletes(base):
    journal = Journal()
    table = Table("t", base, journal)
    table.edit("a").name = "committed"
    journal.commit()
    table.edit("a").name = "changed"
    table.insert("c", Rec(name="C"))
    table.delete("b")
    journal.rollback()
    assert table["a"].name == "committed"
    assert "c" not in table and "b" in table
    assert list(table) == ["a", "b"]


def test_iteration__base_order_then_new_keys_and_deletions_hidden(base):
    table = Table("t", base, Journal())
    table.insert("z", Rec(name="Z"))
    table.delete("a")
    table.edit("b").name = "B2"
    assert list(table) == ["b", "z"]
    assert [r.name for r in table.values()] == ["B2", "Z"]
    assert len(table) == 2


def test_fork__shares_the_base_and_copies_the_changes(base):
    journal = Journal()
    table = Table("t", base, journal)
    table.insert("c", Rec(name="C"))
    journal.commit()
    other_journal = Journal()
    fork = table.fork(other_journal)
    fork.edit("c").name = "C2"
    other_journal.commit()
    assert table["c"].name == "C" and fork["c"].name == "C2"


def test_missing_keys_raise_key_error(base):
    table = Table("t", base, Journal())
    with pytest.raises(KeyError):
        table.edit("nope")
    with pytest.raises(KeyError):
        table.delete("nope")
    assert table.get("nope") is None


def test_require__returns_the_record_or_raises_the_callers_message(base):
    from tau_env.errors import ToolError

    table = Table("t", base, Journal())
    assert table.require("a", "missing") is base["a"]
    with pytest.raises(ToolError, match=r"^User nope not found$"):
        table.require("nope", "User nope not found")
    table.delete("a")
    with pytest.raises(ToolError, match="gone"):
        table.require("a", "gone")


def test_version__grows_with_every_change_and_only_then(base):
    journal = Journal()
    table = Table("t", base, journal)
    seen = [table.version]
    table.get("a"), list(table.items()), len(table)
    assert table.version == seen[-1]  # reading changes nothing
    for change in (
        lambda: table.edit("a"),
        lambda: table.insert("c", Rec(name="C")),
        lambda: table.delete("b"),
        journal.rollback,  # undoing is a change too
    ):
        change()
        assert table.version > seen[-1]
        seen.append(table.version)


def test_version__is_forked_with_the_changes(base):
    journal = Journal()
    table = Table("t", base, journal)
    table.insert("c", Rec(name="C"))
    journal.commit()
    fork = table.fork(Journal())
    assert fork.version == table.version
    fork.delete("c")
    assert fork.version > table.version
