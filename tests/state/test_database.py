import hashlib
import json

import pytest

import tau_env
from tau_env.domains.airline.data_model import Passenger
from tau_env.domains.mock.data_model import MockDB, TaskRecord
from tau_env.errors import DataError
from tau_env.state import Journal, deep_merge


def test_reference_hash__is_sha256_of_the_sorted_json_dump(data_dir):
    raw = json.loads((data_dir / "domains/mock/db.json").read_text())
    expected = hashlib.sha256(json.dumps(raw, sort_keys=True, default=str).encode()).hexdigest()
    world = tau_env.load_domain("mock", data_dir).new_world()
    assert world.agent_db.reference_hash() == expected


def test_differences__empty_iff_reference_hashes_equal():
    domain = tau_env.load_domain("mock")
    a, b = domain.new_world(), domain.new_world()
    assert a.differences(b) == []
    a.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "completed"})
    assert a.differences(b) == ["agent:tasks/task_1"]
    assert a.agent_db.reference_hash() != b.agent_db.reference_hash()
    b.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "completed"})
    assert a.differences(b) == []
    assert a.agent_db.reference_hash() == b.agent_db.reference_hash()


def test_differences__a_change_undone_by_another_counts_as_equal():
    domain = tau_env.load_domain("mock")
    a, b = domain.new_world(), domain.new_world()
    a.call_tool("agent", "update_task_status", {"task_id": "task_2", "status": "pending"})
    a.call_tool("agent", "update_task_status", {"task_id": "task_2", "status": "completed"})
    assert a.differences(b) == []


def test_deep_merge__dicts_merge_lists_and_scalars_replace():
    base = {"a": {"x": 1, "y": [1, 2]}, "b": 2}
    assert deep_merge(base, {"a": {"y": [3]}, "c": 4}) == {"a": {"x": 1, "y": [3]}, "b": 2, "c": 4}


def test_apply_patch__merges_records_and_adds_new_ones():
    db = tau_env.load_domain("mock").new_world().agent_db
    assert isinstance(db, MockDB)
    db.apply_patch(
        {
            "users": {"user_1": {"tasks": ["task_1"]}},
            "tasks": {"task_9": {"task_id": "task_9", "title": "T", "status": "pending"}},
        },
        source="test",
    )
    assert db.users["user_1"].tasks == ["task_1"]
    assert db.users["user_1"].name == "Ada Lovelace"
    assert db.tasks["task_9"] == TaskRecord(task_id="task_9", title="T", status="pending")


def test_apply_patch__invalid_patch_names_the_field_and_changes_nothing():
    db = tau_env.load_domain("mock").new_world().agent_db
    before = db.reference_hash()
    with pytest.raises(DataError, match=r"patch\.users: field 'status'|'tasks'"):
        db.apply_patch({"users": {"user_1": {"tasks": "not a list"}}}, source="patch")
    with pytest.raises(DataError, match="unknown field 'flights'"):
        db.apply_patch({"tasks": {"task_1": {"status": "completed"}}, "flights": {}}, source="p")
    assert db.reference_hash() == before


def test_fork__worlds_do_not_share_changes():
    domain = tau_env.load_domain("mock")
    world = domain.new_world()
    fork = world.fork()
    fork.call_tool("agent", "create_task", {"user_id": "user_1", "title": "x"})
    assert "task_4" in fork.agent_db.tasks and "task_4" not in world.agent_db.tasks
    assert isinstance(world.journal, Journal) and world.journal is not fork.journal


def _lines_world():
    return tau_env.load_domain("telecom").new_world(seed=0)


def _add_lines(world, *line_ids):
    lines = world.agent_db.lines
    template = next(iter(lines.values()))
    for line_id in line_ids:
        lines.insert(line_id, template.model_copy(update={"line_id": line_id}))
    world.journal.commit()


@pytest.mark.parametrize(
    ("left", "right", "order_differs"),
    [
        (("LX1", "LX2"), ("LX1", "LX2"), False),
        (("LX1", "LX2"), ("LX2", "LX1"), True),
        (("LX1",), ("LX1",), False),
    ],
)
def test_differences__order_of_added_records_in_a_list_table(left, right, order_differs):
    a, b = _lines_world(), _lines_world()
    _add_lines(a, *left)
    _add_lines(b, *right)
    assert (a.differences(b) == ["agent:lines: record order"]) is order_differs
    assert (a.agent_db.reference_hash() != b.agent_db.reference_hash()) is order_differs


def test_differences__a_deleted_base_record_differs_and_equal_deletions_do_not():
    a, b = _lines_world(), _lines_world()
    first = next(iter(a.agent_db.lines))
    a.agent_db.lines.delete(first)
    a.journal.commit()
    assert a.differences(b) == [f"agent:lines/{first}"]
    b.agent_db.lines.delete(first)
    b.journal.commit()
    assert a.differences(b) == []
    assert a.agent_db.reference_hash() == b.agent_db.reference_hash()


def test_differences__equal_copies_of_a_record_are_equal():
    a, b = _lines_world(), _lines_world()
    first = next(iter(a.agent_db.lines))
    a.agent_db.lines.edit(first)
    b.agent_db.lines.edit(first).data_used_gb += 1
    a.journal.commit()
    b.journal.commit()
    assert a.differences(b) == [f"agent:lines/{first}"]
    b.agent_db.lines.edit(first).data_used_gb -= 1
    b.journal.commit()
    assert a.differences(b) == []


def test_fork__tables_are_created_on_first_use_with_the_parents_changes():
    domain = tau_env.load_domain("mock")
    world = domain.new_world()
    world.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "completed"})
    fork = world.fork()
    assert "tasks" not in fork.agent_db.__dict__  # not created yet
    assert fork.agent_db.tasks["task_1"].status == "completed"
    assert fork.differences(world) == []
    fork.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "pending"})
    assert world.agent_db.tasks["task_1"].status == "completed"
    assert fork.differences(world) == ["agent:tasks/task_1"]
    assert list(fork.agent_db.tables) == list(MockDB.data_model.model_fields)


def test_fork__of_a_fork_keeps_changes_of_tables_never_created_in_between():
    domain = tau_env.load_domain("mock")
    world = domain.new_world()
    world.call_tool("agent", "create_task", {"user_id": "user_1", "title": "x"})
    grandchild = world.fork().fork()
    assert "task_4" in grandchild.agent_db.tasks
    assert grandchild.differences(world) == []
    assert grandchild.agent_db.reference_hash() == world.agent_db.reference_hash()


def test_differences__forks_look_only_at_tables_written_since_the_fork():
    domain = tau_env.load_domain("mock")
    world = domain.new_world()
    world.call_tool("agent", "create_task", {"user_id": "user_1", "title": "x"})
    a, b = world.fork(), world.fork()
    assert a.differences(b) == []
    assert "tasks" not in a.agent_db.__dict__ and "tasks" not in b.agent_db.__dict__
    a.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "completed"})
    assert a.differences(b) == ["agent:tasks/task_1"]
    assert "users" not in a.agent_db.__dict__ and "users" not in b.agent_db.__dict__
    b.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "completed"})
    assert a.differences(b) == [] and b.differences(a) == []


def test_differences__a_rolled_back_write_leaves_nothing_to_compare():
    domain = tau_env.load_domain("mock")
    world = domain.new_world()
    a, b = world.fork(), world.fork()
    result = a.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "bogus"})
    assert result.error
    assert a.differences(b) == []


def test_differences__paths_in_file_order_then_overlay_order_this_side_first():
    domain = tau_env.load_domain("mock")
    a, b = domain.new_world(), domain.new_world()
    b.call_tool("agent", "create_task", {"user_id": "user_1", "title": "late"})
    a.call_tool("agent", "update_task_status", {"task_id": "task_2", "status": "pending"})
    a.call_tool("agent", "update_task_status", {"task_id": "task_1", "status": "completed"})
    assert list(MockDB.data_model.model_fields) == ["tasks", "users"]
    tasks = ["agent:tasks/task_2", "agent:tasks/task_1", "agent:tasks/task_4"]
    assert a.differences(b) == [*tasks, "agent:users/user_1"]
    tasks = ["agent:tasks/task_4", "agent:tasks/task_2", "agent:tasks/task_1"]
    assert b.differences(a) == [*tasks, "agent:users/user_1"]


def test_differences__a_deleted_then_reinserted_record_equal_to_the_base_is_no_difference():
    a, b = _lines_world(), _lines_world()
    lines = a.agent_db.lines
    first = next(iter(lines))
    record = lines[first]
    lines.delete(first)
    a.journal.commit()
    lines.insert(first, record.model_copy())
    a.journal.commit()
    assert a.differences(b) == [] and b.differences(a) == []
    assert a.agent_db.reference_hash() == b.agent_db.reference_hash()


def test_differences__records_equal_in_content_but_not_in_fields_set_are_equal():
    a, b = _lines_world(), _lines_world()
    first = next(iter(a.agent_db.lines))
    record = a.agent_db.lines[first]
    rebuilt = type(record).model_validate(record.model_dump())  # every field set
    assert rebuilt is not record
    a.agent_db.lines.insert(first, rebuilt)
    a.journal.commit()
    assert a.differences(b) == []


def test_differences__records_dumping_equally_but_unequal_by_eq_are_equal():
    a, b = _lines_world(), _lines_world()
    first = next(iter(a.agent_db.lines))
    record = a.agent_db.lines[first]
    twin = record.model_copy()
    object.__setattr__(twin, "__pydantic_private__", {"note": "not dumped"})
    assert twin != record and twin.model_dump() == record.model_dump()
    a.agent_db.lines.insert(first, twin)
    a.journal.commit()
    assert a.differences(b) == [] and b.differences(a) == []


def test_differences__records_sent_with_equal_texts_are_equal_without_comparing_fields(
    monkeypatch,
):
    domain = tau_env.load_domain("airline")
    a, b = domain.new_world(), domain.new_world()
    reservation_id, reservation = next(iter(a.agent_db.reservations.items()))
    passengers = [passenger.model_dump() for passenger in reservation.passengers]
    arguments = {"reservation_id": reservation_id, "passengers": passengers}
    for world in (a, b):  # the same change on both sides, its result sent (its text kept)
        assert not world.call_tool("agent", "update_reservation_passengers", arguments).error
    a_passengers = a.agent_db.reservations[reservation_id].passengers
    assert a_passengers[0] is not b.agent_db.reservations[reservation_id].passengers[0]

    def compared_field_by_field(self, other):
        raise AssertionError("compared field by field")

    monkeypatch.setattr(Passenger, "__eq__", compared_field_by_field)
    assert a.differences(b) == [] and b.differences(a) == []
    # The same content without a sent text is compared field by field (which the patch shows).
    copy = b.agent_db.reservations[reservation_id].model_copy(deep=True)
    b.agent_db.reservations.insert(reservation_id, copy)
    b.journal.commit()
    with pytest.raises(AssertionError, match="field by field"):
        a.differences(b)


def test_differences__records_sent_with_different_texts_differ():
    domain = tau_env.load_domain("mock")
    a, b = domain.new_world(), domain.new_world()
    for world, status in ((a, "completed"), (b, "pending")):
        assert not world.call_tool(
            "agent", "update_task_status", {"task_id": "task_1", "status": status}
        ).error
    assert a.differences(b) == ["agent:tasks/task_1"]
    assert a.agent_db.reference_hash() != b.agent_db.reference_hash()
