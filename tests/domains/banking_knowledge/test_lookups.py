import math

import pytest

from tau_env.domains.banking_knowledge.data_model import Row
from tau_env.domains.banking_knowledge.lookups import add, edit, rows, rows_where


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
