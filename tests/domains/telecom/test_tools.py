"""Agent tools: results and errors byte for byte, serialization quirks, transactional errors."""

import json

import pytest

from tau_env.domains.telecom import TOOLBOX
from tests.domains.telecom.conftest import call, run, state_hash


def test_toolsets__sizes_and_kinds_match_the_reference():
    kinds = [spec.kind for spec in TOOLBOX.agent_tools]
    assert len(kinds) == 13
    assert (kinds.count("read"), kinds.count("write"), kinds.count("generic")) == (6, 6, 1)
    user = [spec.kind for spec in TOOLBOX.user_tools]
    assert (len(user), user.count("read"), user.count("write")) == (30, 15, 15)
    assert not set(TOOLBOX.agent_tools.names) & set(TOOLBOX.user_tools.names)


def test_get_data_usage__numbers_come_back_as_strings(official_world):
    out = call(official_world, "agent", "get_data_usage", customer_id="C1001", line_id="L1002")
    assert out == (
        '{"line_id": "L1002", "data_used_gb": "8.7", "data_limit_gb": "15.0", '
        '"data_refueling_gb": "0.0", "cycle_end_date": "2025-02-28"}'
    )


def test_record_dumps__keep_numbers_and_field_order(official_world):
    out = call(official_world, "agent", "get_details_by_id", id="L1002")
    line = json.loads(out)
    assert list(line)[:4] == ["line_id", "phone_number", "status", "plan_id"]
    assert line["data_used_gb"] == 8.7 and line["contract_end_date"] == "2026-12-31"
    assert out.startswith('{"line_id": "L1002", "phone_number": "555-123-2002", "status": "Active"')


@pytest.mark.parametrize(
    ("tool", "arguments", "message"),
    [
        (
            "get_customer_by_phone",
            {"phone_number": "555-000-0000"},
            "Customer with phone number 555-000-0000 not found",
        ),
        ("get_customer_by_id", {"customer_id": "C9"}, "Customer with ID C9 not found"),
        ("get_details_by_id", {"id": "X1"}, "Unknown ID format or type: X1"),
        ("get_details_by_id", {"id": "L9"}, "Line with ID L9 not found"),
        (
            "suspend_line",
            {"customer_id": "C1001", "line_id": "L1004", "reason": "x"},
            "Line L1004 not found for customer C1001",
        ),
        (
            "suspend_line",
            {"customer_id": "C1001", "line_id": "L1003", "reason": "x"},
            "Line must be active to suspend",
        ),
        (
            "resume_line",
            {"customer_id": "C1001", "line_id": "L1002"},
            "Line must be suspended to resume",
        ),
        (
            "send_payment_request",
            {"customer_id": "C1001", "bill_id": "B1005"},
            "Bill B1005 not found for customer C1001",
        ),
        (
            "refuel_data",
            {"customer_id": "C1001", "line_id": "L1002", "gb_amount": 0},
            "Refuel amount must be positive",
        ),
        ("nonexistent_tool", {}, "Tool 'nonexistent_tool' not found."),
    ],
)
def test_errors__reference_messages_and_no_state_change(official_world, tool, arguments, message):
    before = state_hash(official_world)
    result = official_world.call_tool("agent", tool, arguments)
    assert result.error and result.content == f"Error: {message}"
    assert state_hash(official_world) == before


def test_errors__bad_arguments_change_nothing(official_world):
    before = state_hash(official_world)
    result = official_world.call_tool("agent", "refuel_data", {"customer_id": "C1001"})
    assert result.error and "'line_id'" in result.content and "'gb_amount'" in result.content
    result = official_world.call_tool(
        "user", "set_apn_settings", {"apn_settings": {"apn_name": "x"}}
    )
    assert result.error
    assert state_hash(official_world) == before


def test_lookups__phone_by_any_line_compared_as_written(official_world):
    by_line = json.loads(
        call(official_world, "agent", "get_customer_by_phone", phone_number="555-123-2001")
    )
    assert by_line["customer_id"] == "C1001"
    # The reference (pinned version) compares the string as given: digits alone find no one.
    digits = official_world.call_tool(
        "agent", "get_customer_by_phone", {"phone_number": "5551232002"}
    )
    assert (digits.error, digits.content) == (
        True,
        "Error: Customer with phone number 5551232002 not found",
    )
    found = call(
        official_world, "agent", "get_customer_by_name", full_name="john SMITH", dob="1985-06-15"
    )
    assert [c["customer_id"] for c in json.loads(found)] == ["C1001"]
    assert (
        call(
            official_world,
            "agent",
            "get_customer_by_name",
            full_name="John Smith",
            dob="1985-06-16",
        )
        == "[]"
    )


def test_bills__newest_first_with_limit(official_world):
    bills = json.loads(
        call(official_world, "agent", "get_bills_for_customer", customer_id="C1001", limit=2)
    )
    assert [b["bill_id"] for b in bills] == ["B1003", "B1002"]


def test_roaming__messages(official_world):
    args = {"customer_id": "C1001", "line_id": "L1002"}
    assert call(official_world, "agent", "enable_roaming", **args) == "Roaming was already enabled"
    assert (
        call(official_world, "agent", "disable_roaming", **args) == "Roaming disabled successfully"
    )
    assert (
        call(official_world, "agent", "disable_roaming", **args) == "Roaming was already disabled"
    )
    assert call(official_world, "agent", "enable_roaming", **args) == "Roaming enabled successfully"


def test_refuel__adds_to_the_draft_bill_and_reports_strings(official_world):
    out = call(
        official_world, "agent", "refuel_data", customer_id="C1001", line_id="L1002", gb_amount=2.0
    )
    assert json.loads(out) == {
        "message": "Successfully added 2.0 GB of data for line L1002 for $4.00",
        "new_data_refueling_gb": "2.0",
        "charge": "4.0",
    }
    draft = official_world.agent_db.bills["B1003"]
    assert draft.total_due == 4.0
    assert draft.line_items[-1].description == "Data refueling: 2.0 GB at $2.0/GB"
    assert run(
        official_world,
        "agent",
        "assert_data_refueling_amount",
        customer_id="C1001",
        line_id="L1002",
        expected_amount=2.0,
    )


def test_refuel__an_integer_amount_prints_as_given(official_world):
    out = call(
        official_world, "agent", "refuel_data", customer_id="C1001", line_id="L1002", gb_amount=1
    )
    assert json.loads(out)["message"] == "Successfully added 1 GB of data for line L1002 for $2.00"
    assert json.loads(out)["new_data_refueling_gb"] == "1.0"


def test_refuel__without_draft_opens_a_bill_from_the_seeded_generator(builtin):
    hashes = []
    for seed in (7, 7, 8):
        world = builtin.new_world(seed=seed)
        call(world, "agent", "refuel_data", customer_id="C2002", line_id="L2003", gb_amount=2.0)
        new = [
            b for b in world.agent_db.bills if b not in builtin.data.agent_snapshot.records["bills"]
        ]
        assert len(new) == 1 and new[0].startswith("B") and len(new[0]) == 9
        bill = world.agent_db.bills[new[0]]
        assert (str(bill.period_start), str(bill.period_end), str(bill.due_date)) == (
            "2025-03-01",
            "2025-03-31",
            "2025-03-15",
        )
        assert bill.status == "Draft" and bill.total_due == 4.0
        assert new[0] in world.agent_db.customers["C2002"].bill_ids
        hashes.append(state_hash(world))
    assert hashes[0] == hashes[1] != hashes[2]


def test_suspend_and_resume__messages_and_dates(official_world):
    args = {"customer_id": "C1001", "line_id": "L1002"}
    out = json.loads(call(official_world, "agent", "suspend_line", reason="travel", **args))
    assert out["message"] == "Line suspended successfully. $5/month holding fee will apply."
    assert (
        out["line"]["status"] == "Suspended"
        and out["line"]["suspension_start_date"] == "2025-02-25"
    )
    out = json.loads(call(official_world, "agent", "resume_line", **args))
    assert out["message"] == "Line resumed successfully"
    assert out["line"]["suspension_start_date"] is None


def test_transfer__result(official_world):
    assert (
        call(official_world, "agent", "transfer_to_human_agents", summary="x")
        == "Transfer successful"
    )


def test_suspend_line_for_overdue_bill__builds_last_months_bill(official_world):
    run(
        official_world,
        "agent",
        "suspend_line_for_overdue_bill",
        customer_id="C1001",
        line_id="L1002",
        new_bill_id="B1234321",
        contract_ended=True,
    )
    bill = official_world.agent_db.bills["B1234321"]
    assert (str(bill.period_start), str(bill.period_end), str(bill.due_date)) == (
        "2025-01-01",
        "2025-01-31",
        "2025-01-15",
    )
    assert bill.status == "Overdue" and bill.total_due == 65.0
    assert bill.line_items[0].description == "Charge for line L1002"
    assert str(official_world.agent_db.lines["L1002"].contract_end_date) == "2025-01-31"
    assert run(
        official_world,
        "agent",
        "assert_overdue_bill_exists",
        customer_id="C1001",
        overdue_bill_id="B1234321",
    )
    assert not run(official_world, "agent", "assert_no_overdue_bill", overdue_bill_id="B1234321")
    assert run(official_world, "agent", "assert_no_overdue_bill", overdue_bill_id="B0")
    assert run(
        official_world,
        "agent",
        "assert_line_status",
        customer_id="C1001",
        line_id="L1002",
        expected_status="Suspended",
    )
    assert run(official_world, "agent", "get_available_plan_ids") == [
        "P1001",
        "P1002",
        "P1003",
        "P1004",
        "P1005",
    ]


@pytest.mark.parametrize(
    ("tool", "arguments", "argument"),
    [
        (
            "refuel_data",
            {"customer_id": "C1001", "line_id": "L1002", "gb_amount": "2.0"},
            "gb_amount",
        ),
        ("get_bills_for_customer", {"customer_id": "C1004", "limit": "5"}, "limit"),
        ("get_bills_for_customer", {"customer_id": "C1004", "limit": 5.0}, "limit"),
    ],
)
def test_numbers__strings_and_floats_are_not_converted(official_world, tool, arguments, argument):
    # The reference fails these inside the tool ("'<=' not supported between instances of
    # 'str' and 'int'", "slice indices must be integers ..."); no number is made of a string.
    before = state_hash(official_world)
    result = official_world.call_tool("agent", tool, arguments)
    assert result.error and result.content.startswith(f"Error: Invalid arguments for tool '{tool}'")
    assert f"'{argument}': Input should be a valid" in result.content
    assert state_hash(official_world) == before


def test_numbers__an_integer_is_a_float_and_stays_an_integer(official_world):
    out = json.loads(
        call(
            official_world,
            "agent",
            "refuel_data",
            customer_id="C1001",
            line_id="L1002",
            gb_amount=2,
        )
    )
    assert out["message"].startswith("Successfully added 2 GB of data for line L1002")
    bills = call(official_world, "agent", "get_bills_for_customer", customer_id="C1001", limit=2)
    assert len(json.loads(bills)) == 2
