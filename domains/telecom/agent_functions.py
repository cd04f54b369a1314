"""Agent-side helpers that task files may call: setting up a broken account, and assertions.

They are never offered to the agent. Names, arguments and behaviour follow the reference's
non-tool methods of its telecom toolkit, which its task files name.
"""

from __future__ import annotations

import datetime as dt

from tau_env.domains.telecom.constants import TODAY
from tau_env.domains.telecom.data_model import Bill, LineItem, LineStatus, TelecomDB
from tau_env.domains.telecom.lookups import (
    bill_by_id,
    customer_by_id,
    line_by_id,
    plan_by_id,
    target_line,
)
from tau_env.domains.telecom.tools import Number
from tau_env.errors import ToolError
from tau_env.tools import env_function

__all__ = [
    "AGENT_ENV_FUNCTIONS",
    "assert_data_refueling_amount",
    "assert_line_status",
    "assert_no_overdue_bill",
    "assert_overdue_bill_exists",
    "get_available_plan_ids",
    "set_data_usage",
    "suspend_line_for_overdue_bill",
]


@env_function(side="agent")
def set_data_usage(db: TelecomDB, customer_id: str, line_id: str, data_used_gb: Number) -> str:
    """Set how much data a line has used this cycle."""
    target_line(db, customer_id, line_id)
    db.lines.edit(line_id).data_used_gb = data_used_gb
    return f"Data usage set to {data_used_gb} GB for line {line_id}"


@env_function(side="agent")
def suspend_line_for_overdue_bill(
    db: TelecomDB, customer_id: str, line_id: str, new_bill_id: str, contract_ended: bool
) -> str:
    """Give the customer an unpaid bill for last month and suspend the line for it.

    The new bill (status Overdue) charges one month of the line's plan. With `contract_ended`,
    the line's contract is also made to end last month, which forbids resuming it.
    """
    line = line_by_id(db, line_id)
    if line.status != "Active":
        raise ToolError("Line must be active to suspend for unpaid bill")
    amount = plan_by_id(db, line.plan_id).price_per_month
    if amount <= 0:
        raise ToolError("Amount must be positive for overdue bill")
    customer = customer_by_id(db, customer_id)
    if any(bill_by_id(db, bill_id).status == "Overdue" for bill_id in customer.bill_ids):
        raise ToolError("Customer already has an overdue bill")
    last_month_end = TODAY.replace(day=1) - dt.timedelta(days=1)
    last_month_start = last_month_end.replace(day=1)
    bill = Bill(
        bill_id=new_bill_id,
        customer_id=customer_id,
        period_start=last_month_start,
        period_end=last_month_end,
        issue_date=last_month_start,
        total_due=0.0 + amount,
        due_date=last_month_start + dt.timedelta(days=14),
        line_items=[
            LineItem(
                description=f"Charge for line {line_id}",
                amount=amount,
                date=TODAY,
                item_type="Charge",
            )
        ],
        status="Overdue",
    )
    db.bills.insert(new_bill_id, bill)
    db.customers.edit(customer_id).bill_ids.append(new_bill_id)
    edited = db.lines.edit(line_id)
    edited.status = "Suspended"
    edited.suspension_start_date = TODAY
    if contract_ended:
        edited.contract_end_date = last_month_end
    return (
        f"Line {line_id} suspended for unpaid bill {new_bill_id}. Contract ended: {contract_ended}"
    )


@env_function(side="agent", mutates_state=False)
def assert_data_refueling_amount(
    db: TelecomDB, customer_id: str, line_id: str, expected_amount: float
) -> bool:
    """True when the line's extra data this cycle is `expected_amount` GB (within 1e-6)."""
    return abs(target_line(db, customer_id, line_id).data_refueling_gb - expected_amount) < 1e-6


@env_function(side="agent", mutates_state=False)
def assert_line_status(
    db: TelecomDB, customer_id: str, line_id: str, expected_status: LineStatus
) -> bool:
    """True when the line has the expected status."""
    return target_line(db, customer_id, line_id).status == expected_status


@env_function(side="agent", mutates_state=False)
def assert_overdue_bill_exists(db: TelecomDB, customer_id: str, overdue_bill_id: str) -> bool:
    """True when the customer has that bill and it is overdue (an error otherwise)."""
    customer = customer_by_id(db, customer_id)
    if overdue_bill_id not in customer.bill_ids:
        raise ToolError(f"Overdue bill {overdue_bill_id} not found")
    if bill_by_id(db, overdue_bill_id).status != "Overdue":
        raise ToolError(f"Overdue bill {overdue_bill_id} is not overdue")
    return True


@env_function(side="agent", mutates_state=False)
def assert_no_overdue_bill(db: TelecomDB, overdue_bill_id: str) -> bool:
    """True when the bill is paid or does not exist."""
    bill = db.bills.get(overdue_bill_id)
    return bill is None or bill.status == "Paid"


@env_function(side="agent", mutates_state=False)
def get_available_plan_ids(db: TelecomDB) -> list[str]:
    """The ids of every plan."""
    return list(db.plans)


AGENT_ENV_FUNCTIONS = (
    set_data_usage,
    suspend_line_for_overdue_bill,
    assert_data_refueling_amount,
    assert_line_status,
    assert_overdue_bill_exists,
    assert_no_overdue_bill,
    get_available_plan_ids,
)
