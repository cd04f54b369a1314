"""Credit limit behaviours: requests, approval and denial, their history, payment history."""

from __future__ import annotations

from typing import Any

from tau_env.domains.banking_knowledge.constants import TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import behaviour
from tau_env.domains.banking_knowledge.discoverable.card_accounts import (
    dollars,
    owned_card,
)
from tau_env.domains.banking_knowledge.discoverable.checks import found, given, number
from tau_env.domains.banking_knowledge.discoverable.histories import HISTORIES
from tau_env.domains.banking_knowledge.discoverable.texts import (
    executed,
)
from tau_env.domains.banking_knowledge.ids import (
    credit_limit_request_id,
)
from tau_env.domains.banking_knowledge.lookups import (
    add,
    edit,
    rows,
)

__all__ = ["BEHAVIOURS"]

_MISSING = "Error: Missing required parameters."


def _logged(
    db: BankingDB, account_id: str, user_id: str, increase: float, status: str, **details: Any
) -> str | None:
    """Log a limit increase request (``PENDING``) or a decision on one, with its `details`.

    Returns:
        The record's id; None when that record exists already (nothing is written).
    """
    request_id = credit_limit_request_id(account_id, user_id, increase)
    dated = "submitted_at" if status == "PENDING" else "decision_date"
    record = {
        "request_id": request_id,
        "credit_card_account_id": account_id,
        "user_id": user_id,
        **details,
        dated: TODAY_TEXT,
        "status": status,
    }
    return request_id if add(db.credit_limit_increase_requests, request_id, record) else None


@behaviour("submit_credit_limit_request", "write")
def submit_credit_limit_request(
    db: BankingDB, credit_card_account_id: str, user_id: str, requested_increase_amount: int
) -> str:
    """File a credit limit increase request for a whole number of dollars."""
    amount_given = requested_increase_amount is not None
    given(all((credit_card_account_id, user_id, amount_given)), _MISSING)
    invalid = "Error: Invalid requested_increase_amount. Must be a whole number."
    amount = number(requested_increase_amount, invalid)
    if not amount.is_integer():
        return "Error: Invalid requested_increase_amount. Must be a whole number of dollars."
    whole = int(amount)
    if whole <= 0:
        return "Error: Requested increase amount must be positive."
    owned_card(db, credit_card_account_id, user_id)  # answers for a missing or foreign card
    request_id = _logged(
        db, credit_card_account_id, user_id, whole, "PENDING", requested_increase_amount=whole
    )
    if request_id is None:
        return "Error: A similar request may already exist."
    lines = executed(
        db, "submit_credit_limit_request", "Credit limit increase request submitted successfully."
    )
    lines += [
        f"  - Request ID: {request_id}",
        f"  - Account: {credit_card_account_id}",
        f"  - Requested Increase: ${whole:,}",
        "  - Status: PENDING",
    ]
    return "\n".join(lines)


@behaviour("get_payment_history", "read")
def get_payment_history(db: BankingDB, credit_card_account_id: str, months: int) -> str:
    """The latest `months` payments of a card account and the on-time streak.

    Payments are sorted by their MM/DD/YYYY date as text, as the reference does.
    """
    missing = "Error: Missing required parameters (credit_card_account_id, months)."
    given(credit_card_account_id and months is not None, missing)
    try:
        count = int(months)
    except (ValueError, TypeError):
        return "Error: Invalid months value. Must be a positive integer."
    if count <= 0:
        return "Error: months must be a positive integer."
    payments = [
        payment
        for _, payment in rows(db.payment_history)
        if payment.get("credit_card_account_id") == credit_card_account_id
    ]
    if not payments:
        return f"No payment history found for account '{credit_card_account_id}'."
    payments.sort(key=lambda p: p.get("payment_date") or "", reverse=True)
    payments = payments[:count]
    streak = 0
    for payment in payments:
        if payment.get("status") != "ON_TIME":
            break
        streak += 1
    lines = [
        f"Payment history for account '{credit_card_account_id}' (last {count} months):",
        f"Consecutive on-time payments: {streak}",
    ]
    lines += [
        f"\n  - Payment Date: {p.get('payment_date')}\n"
        f"    Amount: {p.get('amount')}\n"
        f"    Status: {p.get('status')}"
        for p in payments
    ]
    return "\n".join(lines)


def _blocks_limit_increase(
    db: BankingDB, account_id: str, user_id: str, card: dict[str, Any]
) -> bool:
    """Open disputes of the customer, a pending replacement, or an account not in standing."""
    open_disputes = ("SUBMITTED", "UNDER_REVIEW", "PENDING")
    if any(
        dispute.get("user_id") == user_id and dispute.get("status") in open_disputes
        for _, dispute in rows(db.transaction_disputes)
    ):
        return True
    open_orders = ("PENDING", "PROCESSING", "SHIPPED")
    if any(
        order.get("credit_card_account_id") == account_id and order.get("status") in open_orders
        for _, order in rows(db.credit_card_orders)
    ):
        return True
    standing = card.get("account_status", "").upper()
    return standing in ("PAST_DUE", "DELINQUENT", "COLLECTIONS", "CLOSED")


@behaviour("approve_credit_limit_increase", "write")
def approve_credit_limit_increase(
    db: BankingDB, credit_card_account_id: str, user_id: str, new_credit_limit: int
) -> str:
    """Set a card's new limit when nothing blocks it, and record the decision."""
    limit_given = new_credit_limit is not None
    given(all((credit_card_account_id, user_id, limit_given)), _MISSING)
    card = owned_card(db, credit_card_account_id, user_id)
    if _blocks_limit_increase(db, credit_card_account_id, user_id, card):
        return "Error: Credit limit increase request cannot be approved at this time."
    current = dollars(card.get("credit_limit", "$0.00"))
    new_limit = float(new_credit_limit)
    edit(db.credit_card_accounts, credit_card_account_id)["credit_limit"] = f"${new_limit:.2f}"
    increase = new_limit - current
    _logged(
        db,
        credit_card_account_id,
        user_id,
        increase,
        "APPROVED",
        previous_limit=f"${current:.2f}",
        new_limit=f"${new_limit:.2f}",
        increase_amount=f"${increase:.2f}",
    )
    return (
        "Credit limit increase approved!\n"
        f"  - Account: {credit_card_account_id}\n"
        f"  - Previous Limit: ${current:.2f}\n"
        f"  - New Limit: ${new_limit:.2f}\n"
        f"  - Increase: ${increase:.2f}\n"
        f"  - Effective Date: {TODAY_TEXT}\n"
        "The customer will receive a confirmation email."
    )


@behaviour("deny_credit_limit_increase", "write")
def deny_credit_limit_increase(
    db: BankingDB, credit_card_account_id: str, user_id: str, denial_reason: str
) -> str:
    """Record the denial of a credit limit increase."""
    given(all((credit_card_account_id, user_id, denial_reason)), _MISSING)
    reasons = [
        "insufficient_account_age",
        "cooldown_period_active",
        "pending_disputes",
        "pending_replacement_card",
        "past_due_balance",
        "high_utilization",
        "insufficient_payment_history",
        "requested_amount_exceeds_limit",
        "other",
    ]
    if denial_reason not in reasons:
        return f"Error: Invalid denial_reason. Must be one of: {', '.join(reasons)}"
    found(db.credit_card_accounts, credit_card_account_id, "Credit card account")
    _logged(db, credit_card_account_id, user_id, 0.0, "DENIED", denial_reason=denial_reason)
    return (
        "Credit limit increase request denied.\n"
        f"  - Account: {credit_card_account_id}\n"
        f"  - Denial Reason: {denial_reason}\n"
        f"  - Date: {TODAY_TEXT}\n"
        "The customer will receive a notification explaining the denial."
    )


BEHAVIOURS = (
    submit_credit_limit_request,
    HISTORIES["get_credit_limit_requests"],
    get_payment_history,
    approve_credit_limit_increase,
    deny_credit_limit_increase,
)
