"""The agent's 13 tools on the company database (names, arguments, results as the reference).

Reads: customer lookups, record details, bills, data usage. Writes: suspend/resume a line, ask
the customer to pay a bill, roaming on/off, buy extra data. Generic: hand over to a human.
Every failure raises `ToolError` with the reference's message and changes nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import WithJsonSchema

from tau_env.domains.telecom.constants import TODAY, TRANSFER_RESULT
from tau_env.domains.telecom.data_model import (
    Bill,
    Customer,
    Device,
    Line,
    LineItem,
    Plan,
    TelecomDB,
)
from tau_env.domains.telecom.lookups import (
    bill_by_id,
    bills_awaiting_payment,
    customer_by_id,
    customer_by_phone,
    plan_by_id,
    record_by_id,
    target_line,
)
from tau_env.errors import ToolError
from tau_env.tools import tool

__all__ = [
    "AGENT_TOOLS",
    "Number",
    "add_one_time_charge",
    "disable_roaming",
    "enable_roaming",
    "get_bills_for_customer",
    "get_customer_by_id",
    "get_customer_by_name",
    "get_customer_by_phone",
    "get_data_usage",
    "get_details_by_id",
    "refuel_data",
    "resume_line",
    "send_payment_request",
    "suspend_line",
    "transfer_to_human_agents",
]

Number = Annotated[int | float, WithJsonSchema({"type": "number"})]
"""A number that keeps its JSON type: ``2`` stays an int, so messages print ``2 GB`` as the
reference does; the schema still says ``number``."""


@tool(kind="read")
def get_customer_by_phone(db: TelecomDB, phone_number: str) -> Customer:
    """Find a customer from a phone number: their contact number or the number of any line.

    Args:
        phone_number: The phone number to look up, e.g. 555-123-2002.
    """
    return customer_by_phone(db, phone_number)


@tool(kind="read")
def get_customer_by_id(db: TelecomDB, customer_id: str) -> Customer:
    """Get a customer from their customer id.

    Args:
        customer_id: The customer's id, e.g. C1001.
    """
    return customer_by_id(db, customer_id)


@tool(kind="read")
def get_customer_by_name(db: TelecomDB, full_name: str, dob: str) -> list[Customer]:
    """Find customers by full name and date of birth; the list may be empty.

    The name is matched without regard to case; the date of birth must match exactly.

    Args:
        full_name: The customer's full name.
        dob: The customer's date of birth, formatted YYYY-MM-DD.
    """
    wanted = full_name.lower()
    return [
        customer
        for customer in db.customers.values()
        if customer.full_name.lower() == wanted and customer.date_of_birth == dob
    ]


@tool(kind="read")
def get_details_by_id(db: TelecomDB, id: str) -> Line | Device | Bill | Customer | Plan:
    """Get any record from its id.

    The id's first letter says what it is: a line (L...), device (D...), bill (B...),
    customer (C...) or plan (P...).

    Args:
        id: The id of the record.
    """
    return record_by_id(db, id)


@tool(kind="write")
def suspend_line(db: TelecomDB, customer_id: str, line_id: str, reason: str) -> dict[str, Any]:
    """Suspend an active line of a customer (at most 6 months; a $5/month holding fee applies).

    Args:
        customer_id: The id of the customer who owns the line.
        line_id: The id of the line to suspend.
        reason: Why the line is suspended.
    """
    line = target_line(db, customer_id, line_id)
    if line.status != "Active":
        raise ToolError("Line must be active to suspend")
    edited = db.lines.edit(line_id)
    edited.status = "Suspended"
    edited.suspension_start_date = TODAY
    return {
        "message": "Line suspended successfully. $5/month holding fee will apply.",
        "line": edited,
    }


@tool(kind="write")
def resume_line(db: TelecomDB, customer_id: str, line_id: str) -> dict[str, Any]:
    """Reactivate a suspended (or pending) line of a customer.

    The phone keeps showing no service until it searches for a network again (a reboot).

    Args:
        customer_id: The id of the customer who owns the line.
        line_id: The id of the line to resume.
    """
    line = target_line(db, customer_id, line_id)
    if line.status not in ("Suspended", "Pending Activation"):
        raise ToolError("Line must be suspended to resume")
    edited = db.lines.edit(line_id)
    edited.status = "Active"
    edited.suspension_start_date = None
    return {"message": "Line resumed successfully", "line": edited}


@tool(kind="read")
def get_bills_for_customer(db: TelecomDB, customer_id: str, limit: int = 12) -> list[Bill]:
    """List a customer's bills, newest issue date first.

    Args:
        customer_id: The customer's id.
        limit: The largest number of bills to return.
    """
    customer = customer_by_id(db, customer_id)
    bills = [bill_by_id(db, bill_id) for bill_id in customer.bill_ids]
    return sorted(bills, key=lambda bill: bill.issue_date, reverse=True)[:limit]


@tool(kind="write")
def send_payment_request(db: TelecomDB, customer_id: str, bill_id: str) -> str:
    """Ask the customer to pay one of their bills; the request appears on their phone.

    Only one bill of a customer may await payment at a time. The bill's status is not checked:
    look at it first (only overdue bills should be sent).

    Args:
        customer_id: The id of the customer who owns the bill.
        bill_id: The id of the bill to be paid.
    """
    customer = customer_by_id(db, customer_id)
    if bills_awaiting_payment(db, customer):
        raise ToolError("A bill is already awaiting payment for this customer")
    if bill_id not in customer.bill_ids:
        raise ToolError(f"Bill {bill_id} not found for customer {customer_id}")
    bill_by_id(db, bill_id)
    db.bills.edit(bill_id).status = "Awaiting Payment"
    return f"Payment request sent to the customer for bill {bill_id}"


@tool(kind="read")
def get_data_usage(db: TelecomDB, customer_id: str, line_id: str) -> dict[str, Any]:
    """Show a line's data use this billing cycle: used, plan limit, extra data bought, cycle end.

    Args:
        customer_id: The id of the customer who owns the line.
        line_id: The id of the line.
    """
    line = target_line(db, customer_id, line_id)
    plan = plan_by_id(db, line.plan_id)
    return {
        "line_id": line_id,
        "data_used_gb": line.data_used_gb,
        "data_limit_gb": plan.data_limit_gb,
        "data_refueling_gb": line.data_refueling_gb,
        "cycle_end_date": _month_end(TODAY),
    }


@tool(kind="write")
def enable_roaming(db: TelecomDB, customer_id: str, line_id: str) -> str:
    """Allow international roaming on a line.

    Args:
        customer_id: The id of the customer who owns the line.
        line_id: The id of the line.
    """
    return _set_roaming(db, customer_id, line_id, True)


@tool(kind="write")
def disable_roaming(db: TelecomDB, customer_id: str, line_id: str) -> str:
    """Stop international roaming on a line.

    Args:
        customer_id: The id of the customer who owns the line.
        line_id: The id of the line.
    """
    return _set_roaming(db, customer_id, line_id, False)


def _set_roaming(db: TelecomDB, customer_id: str, line_id: str, on: bool) -> str:
    """Switch the customer's line's roaming on or off (saying so if it already was)."""
    done = "enabled" if on else "disabled"
    if target_line(db, customer_id, line_id).roaming_enabled == on:
        return f"Roaming was already {done}"
    db.lines.edit(line_id).roaming_enabled = on
    return f"Roaming {done} successfully"


@tool(kind="generic")
def transfer_to_human_agents(db: TelecomDB, summary: str) -> str:
    """Hand the customer over to a human agent, with a summary of their issue.

    Only when the customer asks for a human, or when the policy and these tools cannot solve
    the issue.

    Args:
        summary: The customer's issue, for the human agent who takes over.
    """
    return TRANSFER_RESULT


@tool(kind="write")
def refuel_data(db: TelecomDB, customer_id: str, line_id: str, gb_amount: Number) -> dict[str, Any]:
    """Buy extra data for a line this cycle; the price is charged on the customer's next bill.

    Args:
        customer_id: The id of the customer who owns the line.
        line_id: The id of the line.
        gb_amount: How many GB to add.
    """
    line = target_line(db, customer_id, line_id)
    if gb_amount <= 0:
        raise ToolError("Refuel amount must be positive")
    plan = plan_by_id(db, line.plan_id)
    rate = plan.data_refueling_price_per_gb
    charge = gb_amount * rate
    edited = db.lines.edit(line_id)
    edited.data_refueling_gb += gb_amount
    add_one_time_charge(db, customer_id, charge, f"Data refueling: {gb_amount} GB at ${rate}/GB")
    return {
        "message": (
            f"Successfully added {gb_amount} GB of data for line {line_id} for ${charge:.2f}"
        ),
        "new_data_refueling_gb": edited.data_refueling_gb,
        "charge": charge,
    }


def add_one_time_charge(db: TelecomDB, customer_id: str, amount: float, description: str) -> None:
    """Put a charge (or, when negative, a credit) on the customer's draft bill.

    Without a draft bill, one is opened for next month; its id ``B`` + 8 hex digits comes from
    the episode's seeded generator, so the same seed gives the same id.
    """
    customer = customer_by_id(db, customer_id)
    draft_id = next(
        (bill_id for bill_id in customer.bill_ids if bill_by_id(db, bill_id).status == "Draft"),
        None,
    )
    if draft_id is None:
        draft_id = f"B{int(db.rng.integers(0, 2**32)):08x}"
        start = _month_end(TODAY) + dt.timedelta(days=1)
        draft = Bill(
            bill_id=draft_id,
            customer_id=customer_id,
            period_start=start,
            period_end=_month_end(start),
            issue_date=start,
            total_due=0.0,
            due_date=start + dt.timedelta(days=14),
            status="Draft",
        )
        db.bills.insert(draft_id, draft)
        db.customers.edit(customer_id).bill_ids.append(draft_id)
    bill = db.bills.edit(draft_id)
    item_type = "Credit" if amount < 0 else "Charge"
    bill.line_items.append(
        LineItem(description=description, amount=amount, date=TODAY, item_type=item_type)
    )
    bill.total_due += amount


def _month_end(day: dt.date) -> dt.date:
    """The last day of `day`'s month."""
    first_of_next = (day.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    return first_of_next - dt.timedelta(days=1)


AGENT_TOOLS = (
    get_customer_by_phone,
    get_customer_by_id,
    get_customer_by_name,
    get_details_by_id,
    suspend_line,
    resume_line,
    get_bills_for_customer,
    send_payment_request,
    get_data_usage,
    enable_roaming,
    disable_roaming,
    transfer_to_human_agents,
    refuel_data,
)
