"""The telecom company's database: plans, customers, lines, bills and devices.

The file schema (`TelecomData`) keeps the reference's layout: every table is a list of records
(``[[plans]]``, ``[[customers]]``... in ``db.toml``), keyed here by its id attribute. Field names
and their order follow the reference, because tool results are record dumps and are compared
byte for byte.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from tau_env.state import Database, Table

__all__ = [
    "AccountStatus",
    "Address",
    "Bill",
    "BillStatus",
    "Customer",
    "Device",
    "Line",
    "LineItem",
    "LineStatus",
    "PaymentMethod",
    "Plan",
    "TelecomDB",
    "TelecomData",
]

LineStatus = Literal["Active", "Suspended", "Pending Activation", "Closed"]
BillStatus = Literal["Draft", "Issued", "Awaiting Payment", "Paid", "Overdue", "Disputed"]
AccountStatus = Literal["Active", "Suspended", "Pending Verification", "Closed"]
DeviceType = Literal["phone", "router", "tablet", "watch", "other"]
PaymentMethodType = Literal["Credit Card", "Debit Card", "PayPal"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Address(_Record):
    """A customer's billing address."""

    street: str = Field(description="Street and number.")
    city: str = Field(description="City.")
    state: str = Field(description="State code, e.g. CA.")
    zip_code: str = Field(description="Postal code.")


class Plan(_Record):
    """A mobile plan the company sells."""

    plan_id: str = Field(description="Unique id, e.g. P1001.")
    name: str = Field(description="Display name.")
    data_limit_gb: float = Field(description="Monthly data allowance in GB.")
    price_per_month: float = Field(description="Monthly price in USD.")
    data_refueling_price_per_gb: float = Field(description="Price of one extra GB in USD.")


class Device(_Record):
    """A device registered with the company."""

    device_id: str = Field(description="Unique id, e.g. D1001.")
    device_type: DeviceType = Field(description="phone, router, tablet, watch or other.")
    model: str = Field(description="Model name.")
    imei: str | None = Field(default=None, description="Hardware identity number.")
    is_esim_capable: bool = Field(description="Whether the device accepts an eSIM.")
    activated: bool = Field(default=False, description="Whether it is active on the network.")
    activation_date: dt.datetime | None = Field(default=None, description="When activated.")
    last_esim_transfer_date: dt.datetime | None = Field(
        default=None, description="Last eSIM profile transfer to this device."
    )


class Line(_Record):
    """A phone line: a number on a plan, possibly with a device."""

    line_id: str = Field(description="Unique id, e.g. L1002.")
    phone_number: str = Field(description="The line's number, e.g. 555-123-2002.")
    status: LineStatus = Field(default="Pending Activation", description="Line status.")
    plan_id: str = Field(description="The plan the line is on.")
    device_id: str | None = Field(default=None, description="The device using the line.")
    data_used_gb: float = Field(default=0.0, description="Data used this cycle, in GB.")
    data_refueling_gb: float = Field(default=0.0, description="Extra data bought this cycle.")
    roaming_enabled: bool = Field(default=False, description="Whether roaming is allowed.")
    contract_end_date: dt.date | None = Field(default=None, description="End of the contract.")
    last_plan_change_date: dt.date | None = Field(default=None, description="Last plan change.")
    last_sim_replacement_date: dt.date | None = Field(
        default=None, description="Last SIM replacement."
    )
    suspension_start_date: dt.date | None = Field(
        default=None, description="Start of the current suspension."
    )


class LineItem(_Record):
    """One charge or credit on a bill."""

    description: str = Field(description="What the amount is for.")
    amount: float = Field(description="USD; negative for credits.")
    date: dt.date = Field(description="When it was applied.")
    item_type: str = Field(description="Category, e.g. Plan Charge, Charge, Credit, Fee.")


class Bill(_Record):
    """A monthly bill of a customer."""

    bill_id: str = Field(description="Unique id, e.g. B1001.")
    customer_id: str = Field(description="The customer billed.")
    period_start: dt.date = Field(description="First day of the billing period.")
    period_end: dt.date = Field(description="Last day of the billing period.")
    issue_date: dt.date = Field(description="When the bill was issued.")
    total_due: float = Field(description="Amount due in USD.")
    due_date: dt.date = Field(description="Payment deadline.")
    line_items: list[LineItem] = Field(default_factory=list, description="Charges and credits.")
    status: BillStatus = Field(default="Draft", description="Bill status.")


class PaymentMethod(_Record):
    """A stored means of payment."""

    method_type: PaymentMethodType = Field(description="Credit Card, Debit Card or PayPal.")
    account_number_last_4: str = Field(description="Last four digits.")
    expiration_date: str = Field(description="MM/YYYY.")


class Customer(_Record):
    """A customer account."""

    customer_id: str = Field(description="Unique id, e.g. C1001.")
    full_name: str = Field(description="Full name.")
    date_of_birth: str = Field(description="YYYY-MM-DD, used to verify identity.")
    email: str = Field(description="Email address.")
    phone_number: str = Field(description="Primary contact number.")
    address: Address = Field(description="Billing address.")
    account_status: AccountStatus = Field(
        default="Pending Verification", description="Account status."
    )
    payment_methods: list[PaymentMethod] = Field(default_factory=list, description="Stored.")
    line_ids: list[str] = Field(default_factory=list, description="Lines the customer owns.")
    bill_ids: list[str] = Field(default_factory=list, description="The customer's bills.")
    created_at: dt.datetime = Field(
        default=dt.datetime(2025, 1, 1), description="When the account was opened."
    )
    last_extension_date: dt.date | None = Field(
        default=None, description="Last payment extension granted."
    )
    goodwill_credit_used_this_year: float = Field(
        default=0.0, description="Goodwill credit already granted this year, USD."
    )


class TelecomData(_Record):
    """Layout of the telecom ``db.toml`` / ``db.json`` file."""

    plans: list[Plan] = Field(default_factory=list)
    customers: list[Customer] = Field(default_factory=list)
    lines: list[Line] = Field(default_factory=list)
    bills: list[Bill] = Field(default_factory=list)
    devices: list[Device] = Field(default_factory=list)


class TelecomDB(Database):
    """The agent side's view of the company database for one episode."""

    data_model = TelecomData
    list_keys: ClassVar[Mapping[str, str]] = {
        "plans": "plan_id",
        "customers": "customer_id",
        "lines": "line_id",
        "bills": "bill_id",
        "devices": "device_id",
    }
    plans: Table[Plan]
    customers: Table[Customer]
    lines: Table[Line]
    bills: Table[Bill]
    devices: Table[Device]
