"""Finding records in the company database, failing with the reference's messages.

Shared by the agent tools, the task helpers and the sync rule. Records returned here are the
shared base records: read them, and call ``db.<table>.edit(id)`` before changing anything.
"""

from __future__ import annotations

from tau_env.domains.telecom.data_model import Bill, Customer, Device, Line, Plan, TelecomDB
from tau_env.errors import ToolError

__all__ = [
    "bill_by_id",
    "bills_awaiting_payment",
    "customer_by_id",
    "customer_by_phone",
    "device_by_id",
    "line_by_id",
    "line_by_phone",
    "plan_by_id",
    "record_by_id",
    "target_line",
]


def customer_by_id(db: TelecomDB, customer_id: str) -> Customer:
    """The customer with that id."""
    return db.customers.require(customer_id, f"Customer with ID {customer_id} not found")


def customer_by_phone(db: TelecomDB, phone_number: str) -> Customer:
    """The first customer whose contact number, or one of whose lines, has that number.

    The number is compared as written, as the reference does: ``5551232002`` does not find
    the customer of ``555-123-2002``.
    """
    for customer in db.customers.values():
        if customer.phone_number == phone_number:
            return customer
        for line_id in customer.line_ids:
            if line_by_id(db, line_id).phone_number == phone_number:
                return customer
    raise ToolError(f"Customer with phone number {phone_number} not found")


def line_by_id(db: TelecomDB, line_id: str) -> Line:
    """The line with that id."""
    return db.lines.require(line_id, f"Line with ID {line_id} not found")


def line_by_phone(db: TelecomDB, phone_number: str) -> Line:
    """The line with that number, compared as written (as the reference does)."""
    for line in db.lines.values():
        if line.phone_number == phone_number:
            return line
    raise ToolError(f"Line with phone number {phone_number} not found")


def plan_by_id(db: TelecomDB, plan_id: str) -> Plan:
    """The plan with that id."""
    return db.plans.require(plan_id, f"Plan with ID {plan_id} not found")


def device_by_id(db: TelecomDB, device_id: str) -> Device:
    """The device with that id."""
    return db.devices.require(device_id, f"Device with ID {device_id} not found")


def bill_by_id(db: TelecomDB, bill_id: str) -> Bill:
    """The bill with that id."""
    return db.bills.require(bill_id, f"Bill with ID {bill_id} not found")


def target_line(db: TelecomDB, customer_id: str, line_id: str) -> Line:
    """A line that must belong to the customer."""
    customer = customer_by_id(db, customer_id)
    if line_id not in customer.line_ids:
        raise ToolError(f"Line {line_id} not found for customer {customer_id}")
    return line_by_id(db, line_id)


def bills_awaiting_payment(db: TelecomDB, customer: Customer) -> list[Bill]:
    """The customer's bills in status Awaiting Payment, in the customer's order."""
    bills = [bill_by_id(db, bill_id) for bill_id in customer.bill_ids]
    return [bill for bill in bills if bill.status == "Awaiting Payment"]


def record_by_id(db: TelecomDB, record_id: str) -> Line | Device | Bill | Customer | Plan:
    """Any record, by the letter its id starts with (L, D, B, C or P)."""
    if record_id.startswith("L"):
        return line_by_id(db, record_id)
    if record_id.startswith("D"):
        return device_by_id(db, record_id)
    if record_id.startswith("B"):
        return bill_by_id(db, record_id)
    if record_id.startswith("C"):
        return customer_by_id(db, record_id)
    if record_id.startswith("P"):
        return plan_by_id(db, record_id)
    raise ToolError(f"Unknown ID format or type: {record_id}")
