import math

import pytest

from tau_env.domains.banking_knowledge.data_model import Row
from tau_env.domains.banking_knowledge.lookups import (
    add,
    edit,
    query_by,
    render_rows,
    rows,
    rows_where,
)


def _scanned(table, field, expected):
    return [(key, record) for key, record in rows(table) if record.get(field) == expected]


@pytest.mark.parametrize("field", ["account_id", "user_id", "no_such_field"])
def test_rows_where__is_filtering_rows_of_the_official_tables(world, field):
    db = world().agent_db
    for table in (db.bank_account_transaction_history, db.accounts, db.debit_cards):
        values = {record.get(field) for _, record in rows(table) if record.get(field) is not None}
        for expected in [*sorted(values)[:5], "nobody", None]:
            assert rows_where(table, field, expected) == _scanned(table, field, expected)


def test_rows_where__sees_this_episodes_changes_in_table_order(world):
    db = world().agent_db
    table = db.accounts
    first, second = [key for key, _ in rows(table)][:2]
    owner = edit(table, first)["user_id"]
    edit(table, second)["user_id"] = owner  # moved to the owner, keeps its place
    assert add(table, "new_account", {"account_id": "new_account", "user_id": owner})
    table.delete(first)
    db.journal.commit()
    found = rows_where(table, "user_id", owner)
    assert found == _scanned(table, "user_id", owner)
    assert found[0][0] == second and found[-1][0] == "new_account"


def test_rows_where__values_outside_the_index_are_looked_for_record_by_record(world):
    table = world().agent_db.accounts
    add(table, "odd", {"account_id": "odd", "user_id": ["a", "list"], "rate": math.nan})
    assert rows_where(table, "user_id", ["a", "list"]) == [("odd", table.get("odd").root)]
    assert rows_where(table, "rate", math.nan) == []  # NaN equals nothing, as in a scan
    assert isinstance(table.get("odd"), Row)


def _rendered_afresh(table_name, found):
    lines = [f"Found {len(found)} record(s) in '{table_name}':\n"]
    for number, (key, record) in enumerate(found, 1):
        lines.append(f"{number}. Record ID: {key}")
        lines.extend(f"   {field}: {value}" for field, value in record.items())
        lines.append("")
    return "\n".join(lines)


def test_render_rows__writes_every_field_of_every_record(world):
    table = world().agent_db.bank_account_transaction_history
    found = list(rows(table))[:30]
    assert render_rows("history", found) == _rendered_afresh("history", found)
    assert render_rows("history", found) == _rendered_afresh("history", found)  # remembered
    assert render_rows("history", []) == "Found 0 record(s) in 'history':\n"
    assert render_rows("t", [("empty", {})]) == _rendered_afresh("t", [("empty", {})])


def test_render_rows__writes_this_episodes_changed_records_afresh(world):
    db = world().agent_db
    table = db.accounts
    key = next(iter(table.keys()))
    before = query_by(db, "accounts", "account_id", key)  # the shared record, remembered
    record = edit(table, key)
    record["status"] = "CLOSED_IN_THIS_EPISODE"
    during = query_by(db, "accounts", "account_id", key)  # edited, still in its transaction
    record["balance"] = "$1.00"
    db.journal.commit()
    after = query_by(db, "accounts", "account_id", key)
    assert "CLOSED_IN_THIS_EPISODE" not in before
    assert "   status: CLOSED_IN_THIS_EPISODE" in during and "$1.00" not in during
    assert after == _rendered_afresh("accounts", [(key, table.get(key).root)])
    assert "   balance: $1.00" in after
    fresh = world().agent_db  # another episode still sees the shared record
    assert query_by(fresh, "accounts", "account_id", key) == before


def test_render_rows__a_committed_copy_is_written_as_it_was_committed(world):
    db = world().agent_db
    table = db.accounts
    key = next(iter(table.keys()))
    edit(table, key)["status"] = "FIRST"
    db.journal.commit()
    first = query_by(db, "accounts", "account_id", key)  # a committed copy: remembered
    assert "   status: FIRST" in first
    assert query_by(db, "accounts", "account_id", key) == first
    edit(table, key)["status"] = "SECOND"  # copied again, in a new transaction
    during = query_by(db, "accounts", "account_id", key)
    assert "   status: SECOND" in during
    db.journal.rollback()
    assert query_by(db, "accounts", "account_id", key) == first
    assert first == _rendered_afresh("accounts", [(key, table.get(key).root)])


def test_add__makes_the_row_validation_would_make(world):
    table = world().agent_db.accounts
    record = {"account_id": "new", "user_id": "u", "balance": 1.5, "tags": ["a"]}
    assert add(table, "new", record)
    added, validated = table.get("new"), Row(record)
    assert added == validated and added.model_fields_set == validated.model_fields_set
    assert added.model_dump() == validated.model_dump()
    assert added.root is not record  # a copy, as validation makes
    record["user_id"] = "changed later"
    assert table.get("new").root["user_id"] == "u"
    assert not add(table, "new", {"account_id": "other"})  # the id is taken: nothing changes
    assert table.get("new") is added
