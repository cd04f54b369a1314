"""The sync rule: the user's surroundings follow the state of their line at the company.

Run after every successful tool or helper call that changed one of the tables it reads
(``Toolbox(sync=..., sync_inputs=SYNC_INPUTS)``): a phone setting changed by the user, or a read,
leaves it nothing to do, so it is skipped. Once the phone belongs
to a number (``set_user_info``), the rule copies from that line: whether it is active, whether
it allows roaming, whether its data is used up; it settles a paid payment request (the bill
becomes Paid) and surfaces the customer's first bill awaiting payment as a new request.

It never makes the phone search for a network: after ``resume_line`` the phone still shows no
service until something (a reboot, a toggle) triggers a search, as in the reference.
"""

from __future__ import annotations

from tau_env.domains.telecom.data_model import TelecomDB
from tau_env.domains.telecom.lookups import (
    bill_by_id,
    bills_awaiting_payment,
    customer_by_phone,
    line_by_phone,
    plan_by_id,
)
from tau_env.domains.telecom.user_data_model import PaymentRequest, TelecomUserDB
from tau_env.messages import Side
from tau_env.state import World

__all__ = ["SYNC_INPUTS", "sync_phone_with_line"]

SYNC_INPUTS: dict[Side, frozenset[str]] = {
    "agent": frozenset({"customers", "lines", "plans", "bills"}),
    "user": frozenset({"surroundings"}),
}
"""The tables `sync_phone_with_line` reads: it depends on nothing else (not the phone itself)."""


def sync_phone_with_line(world: World) -> None:
    """Bring the user's surroundings in line with the agent's database (and settle payments).

    Records are copied only when something actually changes, so a sync that finds nothing to
    do costs a few lookups.
    """
    user_db, agent_db = world.user_db, world.agent_db
    assert isinstance(user_db, TelecomUserDB) and isinstance(agent_db, TelecomDB)
    surroundings = user_db.surroundings.get()
    phone_number = surroundings.phone_number
    if phone_number is None:
        return
    line = line_by_phone(agent_db, phone_number)
    plan = plan_by_id(agent_db, line.plan_id)
    line_active = line.status == "Active"
    exceeded = line.data_used_gb >= plan.data_limit_gb + line.data_refueling_gb
    request = surroundings.payment_request
    if request is not None and request.paid:
        bill_by_id(agent_db, request.bill_id)
        agent_db.bills.edit(request.bill_id).status = "Paid"
        request = None
    if request is None:
        awaiting = bills_awaiting_payment(agent_db, customer_by_phone(agent_db, phone_number))
        if awaiting:
            request = PaymentRequest(bill_id=awaiting[0].bill_id, amount_due=awaiting[0].total_due)
    if (
        surroundings.line_active != line_active
        or surroundings.roaming_allowed != line.roaming_enabled
        or surroundings.mobile_data_usage_exceeded != exceeded
        or surroundings.payment_request is not request
    ):
        edited = user_db.surroundings.edit_top()  # assigns fields only (new values)
        edited.line_active = line_active
        edited.roaming_allowed = line.roaming_enabled
        edited.mobile_data_usage_exceeded = exceeded
        if edited.payment_request != request:
            edited.payment_request = request
