"""The bank's database: reference layout, hash, patches, copy on write, episode state."""

import json

import pytest

from tau_env.domains.banking_knowledge.constants import TABLES
from tau_env.domains.banking_knowledge.data_model import BankingDB, to_snapshot_data
from tau_env.domains.banking_knowledge.discoverable import reference_catalog
from tau_env.errors import DataError
from tau_env.state import Journal
from tau_env.state.database import SeedSource


def _tiny(raw):
    catalog = {entry.name: entry for entry in reference_catalog()}
    snapshot = BankingDB.load_snapshot(to_snapshot_data(raw, catalog, source="t"), source="t")
    return BankingDB(snapshot, Journal(), SeedSource(0))


def test_dump__has_the_23_tables_with_data_and_notes_in_the_reference_layout(bank):
    dump = bank.new_world().agent_db.dump()
    assert list(dump) == list(TABLES)
    assert set(dump["users"]) == {"data", "notes"}
    assert dump["debit_card_disputes"] == {"data": {}, "notes": ""}  # absent from db.json
    assert dump["referrals"]["notes"]  # the notes are part of the hashed content


def test_hash__equals_sorted_json_of_the_dump_and_tracks_changes():
    db = _tiny({"users": {"data": {"u": {"name": "A", "n": 25}}, "notes": "people"}})
    import hashlib

    expected = hashlib.sha256(
        json.dumps(db.dump(), sort_keys=True, default=str).encode()
    ).hexdigest()
    assert db.reference_hash() == expected
    with db.journal.transaction():
        db.users.edit("u").root["n"] = 25.0  # 25 and 25.0 hash differently
    assert db.reference_hash() != expected
    assert (
        db.reference_hash()
        == hashlib.sha256(json.dumps(db.dump(), sort_keys=True, default=str).encode()).hexdigest()
    )


def test_records__keep_their_key_order_and_value_types():
    db = _tiny({"accounts": {"data": {"a": {"z": "1", "a": 2, "m": 2.5, "b": True}}}})
    assert list(db.accounts["a"].root.items()) == [("z", "1"), ("a", 2), ("m", 2.5), ("b", True)]


def test_patch__reference_layout_merges_records_and_adds_new_ones():
    db = _tiny({"accounts": {"data": {"a": {"status": "OPEN", "x": {"k": 1}}}}})
    patch = {
        "accounts": {"data": {"a": {"x": {"j": 2}}, "b": {"status": "NEW"}}},
        "task_config": {"data": {"dispute_settings": {"auto_resolve_disputes": True}}},
    }
    db.apply_patch(patch, source="task")
    assert db.accounts["a"].root == {"status": "OPEN", "x": {"k": 1, "j": 2}}
    assert list(db.accounts) == ["a", "b"]
    assert db.task_config["dispute_settings"].root == {"auto_resolve_disputes": True}


def test_patch__unknown_tables_and_shapes_are_refused_and_change_nothing():
    db = _tiny({"users": {"data": {"u": {"name": "A"}}}})
    before = db.reference_hash()
    with pytest.raises(DataError, match="unknown table"):
        db.apply_patch({"users": {"data": {"u": {"name": "B"}}}, "nope": {"data": {}}}, source="t")
    with pytest.raises(DataError, match="expected"):
        db.apply_patch({"users": {"rows": {}}}, source="t")
    assert db.reference_hash() == before


def test_file__unknown_table_or_key_names_the_file():
    with pytest.raises(DataError, match=r"db\.json: unknown table 'usres'"):
        to_snapshot_data({"usres": {"data": {}}}, {}, source="db.json")
    with pytest.raises(DataError, match="unknown key 'rows'"):
        to_snapshot_data({"users": {"rows": {}}}, {}, source="db.json")


def test_fork__copies_unlocks_and_allowlist_but_never_the_base(bank):
    world = bank.prepare(bank.task("task_043")).initial_world
    fork = world.fork()
    assert fork.agent_db.read_log_allowlist == world.agent_db.read_log_allowlist != frozenset()
    fork.call_tool(
        "agent", "unlock_discoverable_agent_tool", {"agent_tool_name": "example_agent_tool_0000"}
    )
    assert world.agent_db.unlocked == frozenset()
    assert fork.fork().agent_db.unlocked == {"example_agent_tool_0000"}
    assert fork.user_db is fork.agent_db
