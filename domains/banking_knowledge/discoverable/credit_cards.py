"""Credit card behaviours: replacement, closure, statement credits, flags, limits, payments."""

from __future__ import annotations

import json
from typing import Any

from tau_env.domains.banking_knowledge.constants import TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import behaviour
from tau_env.domains.banking_knowledge.discoverable.texts import (
    executed,
    history,
    invalid_choice,
    title,
)
from tau_env.domains.banking_knowledge.ids import (
    account_flag_id,
    closure_reason_id,
    credit_card_order_id,
    credit_limit_request_id,
    transaction_id,
)
from tau_env.domains.banking_knowledge.lookups import (
    add,
    edit,
    exists,
    is_empty_result,
    parse_balance,
    query_by,
    row,
    rows,
)

__all__ = ["BEHAVIOURS"]


def _card_missing(db: BankingDB, account_id: str) -> str | None:
    """The not-found error when no card account has that id (looked up by query, as there)."""
    if is_empty_result(query_by(db, "credit_card_accounts", "account_id", account_id)):
        return f"Error: Credit card account '{account_id}' not found."
    return None


def _not_owned(account_id: str, user_id: str) -> str:
    return f"Error: Credit card account '{account_id}' does not belong to user '{user_id}'."


def _dollars(value: Any) -> float:
    """A dollar amount stored as text (``"$5,000.00"``); 0 when it does not parse."""
    try:
        return parse_balance(str(value))
    except (ValueError, TypeError):
        return 0.0


@behaviour("order_replacement_credit_card", "write")
def order_replacement_credit_card(
    db: BankingDB,
    credit_card_account_id: str,
    user_id: str,
    shipping_address: str,
    reason: str,
    expedited_shipping: bool = False,
) -> str:
    """Order a replacement card; the old card account is closed at once."""
    if not credit_card_account_id or not user_id or not shipping_address or not reason:
        return (
            "Error: Missing required parameters "
            "(credit_card_account_id, user_id, shipping_address, reason)."
        )
    reasons = ["fraud_suspected", "lost", "stolen", "damaged", "expired", "other"]
    if reason not in reasons:
        return invalid_choice("reason", reasons)
    missing = _card_missing(db, credit_card_account_id)
    if missing:
        return missing
    order_id = credit_card_order_id(credit_card_account_id, user_id, reason)
    order = {
        "order_id": order_id,
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "shipping_address": shipping_address,
        "reason": reason,
        "expedited_shipping": expedited_shipping,
        "order_date": TODAY_TEXT,
        "status": "ORDERED",
        "old_card_cancelled": True,
    }
    if not add(db.credit_card_orders, order_id, order):
        return "Error: Order may have already been placed for this card replacement."
    if exists(db.credit_card_accounts, credit_card_account_id):
        card = edit(db.credit_card_accounts, credit_card_account_id)
        card["status"] = "CLOSED"
        card["closed_date"] = TODAY_TEXT
    return "\n".join(
        [
            f"Order ID: {order_id}",
            f"Card Account: {credit_card_account_id}",
            f"Reason: {title(reason)}",
            f"Shipping Address: {shipping_address}",
            f"Shipping Method: {'Expedited' if expedited_shipping else 'Standard'}",
            "Expected Delivery: "
            + ("2-3 business days" if expedited_shipping else "7-10 business days"),
            "",
            "The old card has been cancelled for security. The new card will have the same "
            "account number but a new card number and CVV.",
        ]
    )


@behaviour("get_credit_card_disputes", "read")
def get_credit_card_disputes(db: BankingDB, user_id: str) -> str:
    """A customer's credit card transaction disputes."""
    if not user_id:
        return "Error: Missing required parameter: user_id"
    return history(
        db,
        "get_credit_card_disputes",
        "User transaction dispute history retrieved successfully.",
        f"Transaction dispute history for user {user_id}:",
        "transaction_disputes",
        "user_id",
        user_id,
        "\nNo transaction disputes found for this user.",
    )


@behaviour("get_replacement_card_orders", "read")
def get_replacement_card_orders(db: BankingDB, credit_card_account_id: str) -> str:
    """Replacement orders of a card account (every status, despite the name)."""
    if not credit_card_account_id:
        return "Error: Missing required parameter: credit_card_account_id"
    return history(
        db,
        "get_replacement_card_orders",
        "Pending replacement orders check completed.",
        f"Replacement orders for credit card account {credit_card_account_id}:",
        "credit_card_orders",
        "credit_card_account_id",
        credit_card_account_id,
        "\nNo pending replacement orders found for this credit card account.",
    )


@behaviour("log_credit_card_closure_reason", "write")
def log_credit_card_closure_reason(
    db: BankingDB, credit_card_account_id: str, user_id: str, closure_reason: str
) -> str:
    """Record why a customer wants to close a card (a second record of the pair is ignored)."""
    if not credit_card_account_id or not user_id or not closure_reason:
        return "Error: Missing required parameters."
    reasons = [
        "annual_fee",
        "not_using_card",
        "found_better_card",
        "unhappy_with_rewards",
        "simplifying_finances",
        "negative_experience",
        "other",
    ]
    if closure_reason not in reasons:
        return invalid_choice("closure_reason", reasons)
    record_id = closure_reason_id(credit_card_account_id, user_id)
    add(
        db.credit_card_closure_reasons,
        record_id,
        {
            "record_id": record_id,
            "credit_card_account_id": credit_card_account_id,
            "user_id": user_id,
            "closure_reason": closure_reason,
            "logged_at": TODAY_TEXT,
            "status": "LOGGED",
        },
    )
    arguments = {
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "closure_reason": closure_reason,
    }
    lines = executed(db, "log_credit_card_closure_reason", "Closure reason logged successfully.")
    lines.append(f"Arguments: {json.dumps(arguments, indent=2)}")
    lines.append(f"Closure reason '{closure_reason}' logged for account {credit_card_account_id}.")
    return "\n".join(lines)


@behaviour("get_closure_reasons", "read")
def get_closure_reasons(db: BankingDB, credit_card_account_id: str) -> str:
    """Closure reasons logged for a card account."""
    if not credit_card_account_id:
        return "Error: Missing required parameter: credit_card_account_id"
    return history(
        db,
        "get_closure_reasons",
        "Closure reason history retrieved successfully.",
        f"Closure reason history for credit card account {credit_card_account_id}:",
        "credit_card_closure_reasons",
        "credit_card_account_id",
        credit_card_account_id,
        "\nNo closure reason records found for this credit card account.",
    )


_STATEMENT_CREDIT_REASONS = [
    "goodwill_adjustment",
    "promotional_credit",
    "annual_fee_reversal",
    "late_fee_reversal",
    "interest_charge_reversal",
    "dispute_resolution",
    "price_match",
    "retention_offer",
    "error_correction",
    "other",
]


@behaviour("apply_statement_credit", "write")
def apply_statement_credit(
    db: BankingDB, user_id: str, credit_card_account_id: str, amount: float, reason: str
) -> str:
    """Record a statement credit as a negative card transaction (the balance is unchanged)."""
    if not user_id or not credit_card_account_id or amount is None or not reason:
        return (
            "Error: Missing required parameters (user_id, credit_card_account_id, amount, reason)."
        )
    if amount <= 0:
        return "Error: Credit amount must be positive."
    if reason not in _STATEMENT_CREDIT_REASONS:
        return invalid_choice("reason", _STATEMENT_CREDIT_REASONS)
    missing = _card_missing(db, credit_card_account_id)
    if missing:
        return missing
    credit_id = transaction_id(user_id, "STATEMENT_CREDIT", reason, amount, "Statement Credit")
    record = {
        "transaction_id": credit_id,
        "user_id": user_id,
        "credit_card_account_id": credit_card_account_id,
        "credit_card_type": "N/A",
        "merchant_name": "Rho-Bank Statement Credit",
        "transaction_amount": f"-${amount:.2f}",
        "transaction_date": TODAY_TEXT,
        "category": "Statement Credit",
        "status": "COMPLETED",
        "rewards_earned": "0 points",
        "credit_reason": reason,
    }
    if not add(db.credit_card_transaction_history, credit_id, record):
        return (
            "Error: Failed to apply statement credit. "
            f"Transaction ID '{credit_id}' may already exist."
        )
    lines = executed(db, "apply_statement_credit", "Statement credit applied successfully.")
    lines += [
        f"  - Transaction ID: {credit_id}",
        f"  - User ID: {user_id}",
        f"  - Account: {credit_card_account_id}",
        f"  - Credit Amount: ${amount:.2f}",
        f"  - Reason: {title(reason)}",
        f"  - Date: {TODAY_TEXT}",
    ]
    return "\n".join(lines)


@behaviour("apply_credit_card_flag", "write")
def apply_credit_card_flag(
    db: BankingDB,
    credit_card_account_id: str,
    user_id: str,
    flag_type: str,
    expiration_date: str,
    reason: str,
) -> str:
    """Put a flag (fee waiver, promotional APR...) on a card account."""
    if not all((credit_card_account_id, user_id, flag_type, expiration_date, reason)):
        return (
            "Error: Missing required parameters "
            "(credit_card_account_id, user_id, flag_type, expiration_date, reason)."
        )
    flags = ["annual_fee_waived", "promotional_apr", "rewards_bonus", "other"]
    if flag_type not in flags:
        return invalid_choice("flag_type", flags)
    reasons = ["retention_offer", "loyalty_benefit", "promotional", "error_correction", "other"]
    if reason not in reasons:
        return invalid_choice("reason", reasons)
    missing = _card_missing(db, credit_card_account_id)
    if missing:
        return missing
    flag_id = account_flag_id(credit_card_account_id, flag_type, expiration_date)
    record = {
        "flag_id": flag_id,
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "flag_type": flag_type,
        "effective_date": TODAY_TEXT,
        "expiration_date": expiration_date,
        "reason": reason,
        "applied_at": TODAY_TEXT,
        "status": "ACTIVE",
    }
    if not add(db.credit_card_account_flags, flag_id, record):
        return f"Error: Failed to apply account flag. Flag ID '{flag_id}' may already exist."
    return (
        "Account flag applied successfully!\n"
        f"  - Flag ID: {flag_id}\n"
        f"  - Account: {credit_card_account_id}\n"
        f"  - User ID: {user_id}\n"
        f"  - Flag Type: {title(flag_type)}\n"
        f"  - Effective Date: {TODAY_TEXT}\n"
        f"  - Expiration Date: {expiration_date}\n"
        f"  - Reason: {title(reason)}"
    )


@behaviour("close_credit_card_account", "write")
def close_credit_card_account(db: BankingDB, credit_card_account_id: str, user_id: str) -> str:
    """Close a card account for good."""
    if not credit_card_account_id or not user_id:
        return "Error: Missing required parameters (credit_card_account_id, user_id)."
    missing = _card_missing(db, credit_card_account_id)
    if missing:
        return missing
    if not exists(db.credit_card_accounts, credit_card_account_id):
        return f"Error: Failed to close credit card account '{credit_card_account_id}'."
    card = edit(db.credit_card_accounts, credit_card_account_id)
    card["status"] = "CLOSED"
    card["closed_date"] = TODAY_TEXT
    card["closed_by"] = user_id
    arguments = {"credit_card_account_id": credit_card_account_id, "user_id": user_id}
    lines = executed(db, "close_credit_card_account", "Credit card account closed successfully.")
    lines.append(f"Arguments: {json.dumps(arguments, indent=2)}")
    lines.append(f"Account {credit_card_account_id} has been closed.")
    return "\n".join(lines)


@behaviour("submit_credit_limit_request", "write")
def submit_credit_limit_request(
    db: BankingDB, credit_card_account_id: str, user_id: str, requested_increase_amount: int
) -> str:
    """File a credit limit increase request for a whole number of dollars."""
    if not credit_card_account_id or not user_id or requested_increase_amount is None:
        return "Error: Missing required parameters."
    try:
        amount = float(requested_increase_amount)
    except (TypeError, ValueError):
        return "Error: Invalid requested_increase_amount. Must be a whole number."
    if not amount.is_integer():
        return "Error: Invalid requested_increase_amount. Must be a whole number of dollars."
    whole = int(amount)
    if whole <= 0:
        return "Error: Requested increase amount must be positive."
    card = row(db.credit_card_accounts, credit_card_account_id)
    if card is None:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    if card.get("user_id") != user_id:
        return _not_owned(credit_card_account_id, user_id)
    request_id = credit_limit_request_id(credit_card_account_id, user_id, whole)
    record = {
        "request_id": request_id,
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "requested_increase_amount": whole,
        "submitted_at": TODAY_TEXT,
        "status": "PENDING",
    }
    if not add(db.credit_limit_increase_requests, request_id, record):
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


@behaviour("get_credit_limit_requests", "read")
def get_credit_limit_requests(db: BankingDB, credit_card_account_id: str) -> str:
    """Credit limit increase requests and decisions of a card account."""
    if not credit_card_account_id:
        return "Error: Missing required parameter: credit_card_account_id"
    return history(
        db,
        "get_credit_limit_requests",
        "Credit limit increase history retrieved.",
        f"Credit limit increase history for account {credit_card_account_id}:",
        "credit_limit_increase_requests",
        "credit_card_account_id",
        credit_card_account_id,
        "\nNo credit limit increase requests found for this account.",
    )


@behaviour("get_payment_history", "read")
def get_payment_history(db: BankingDB, credit_card_account_id: str, months: int) -> str:
    """The latest `months` payments of a card account and the on-time streak.

    Payments are sorted by their MM/DD/YYYY date as text, as the reference does.
    """
    if not credit_card_account_id or months is None:
        return "Error: Missing required parameters (credit_card_account_id, months)."
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
    for _, dispute in rows(db.transaction_disputes):
        if dispute.get("user_id") == user_id and dispute.get("status") in (
            "SUBMITTED",
            "UNDER_REVIEW",
            "PENDING",
        ):
            return True
    for _, order in rows(db.credit_card_orders):
        if order.get("credit_card_account_id") == account_id and order.get("status") in (
            "PENDING",
            "PROCESSING",
            "SHIPPED",
        ):
            return True
    standing = card.get("account_status", "").upper()
    return standing in ("PAST_DUE", "DELINQUENT", "COLLECTIONS", "CLOSED")


@behaviour("approve_credit_limit_increase", "write")
def approve_credit_limit_increase(
    db: BankingDB, credit_card_account_id: str, user_id: str, new_credit_limit: int
) -> str:
    """Set a card's new limit when nothing blocks it, and record the decision."""
    if not credit_card_account_id or not user_id or new_credit_limit is None:
        return "Error: Missing required parameters."
    card = row(db.credit_card_accounts, credit_card_account_id)
    if card is None:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    if card.get("user_id") != user_id:
        return _not_owned(credit_card_account_id, user_id)
    if _blocks_limit_increase(db, credit_card_account_id, user_id, card):
        return "Error: Credit limit increase request cannot be approved at this time."
    current = _dollars(card.get("credit_limit", "$0.00"))
    new_limit = float(new_credit_limit)
    edit(db.credit_card_accounts, credit_card_account_id)["credit_limit"] = f"${new_limit:.2f}"
    increase = new_limit - current
    request_id = credit_limit_request_id(credit_card_account_id, user_id, increase)
    add(
        db.credit_limit_increase_requests,
        request_id,
        {
            "request_id": request_id,
            "credit_card_account_id": credit_card_account_id,
            "user_id": user_id,
            "previous_limit": f"${current:.2f}",
            "new_limit": f"${new_limit:.2f}",
            "increase_amount": f"${increase:.2f}",
            "decision_date": TODAY_TEXT,
            "status": "APPROVED",
        },
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
    if not credit_card_account_id or not user_id or not denial_reason:
        return "Error: Missing required parameters."
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
    if not exists(db.credit_card_accounts, credit_card_account_id):
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    request_id = credit_limit_request_id(credit_card_account_id, user_id, 0.0)
    add(
        db.credit_limit_increase_requests,
        request_id,
        {
            "request_id": request_id,
            "credit_card_account_id": credit_card_account_id,
            "user_id": user_id,
            "denial_reason": denial_reason,
            "decision_date": TODAY_TEXT,
            "status": "DENIED",
        },
    )
    return (
        "Credit limit increase request denied.\n"
        f"  - Account: {credit_card_account_id}\n"
        f"  - Denial Reason: {denial_reason}\n"
        f"  - Date: {TODAY_TEXT}\n"
        "The customer will receive a notification explaining the denial."
    )


@behaviour("update_transaction_rewards", "write")
def update_transaction_rewards(db: BankingDB, transaction_id: str, new_rewards_earned: str) -> str:
    """Correct the rewards recorded on a card transaction."""
    if not transaction_id or not new_rewards_earned:
        return "Error: Missing required parameters."
    if not exists(db.credit_card_transaction_history, transaction_id):
        return f"Error: Transaction '{transaction_id}' not found."
    edit(db.credit_card_transaction_history, transaction_id)["rewards_earned"] = new_rewards_earned
    arguments = {"transaction_id": transaction_id, "new_rewards_earned": new_rewards_earned}
    lines = executed(db, "update_transaction_rewards", "Transaction rewards updated successfully.")
    lines += [
        f"Arguments: {json.dumps(arguments, indent=2)}",
        "Transaction updated:",
        f"  - Transaction ID: {transaction_id}",
        f"  - New Rewards: {new_rewards_earned}",
    ]
    return "\n".join(lines)


BEHAVIOURS = (
    order_replacement_credit_card,
    get_credit_card_disputes,
    get_replacement_card_orders,
    log_credit_card_closure_reason,
    get_closure_reasons,
    apply_statement_credit,
    apply_credit_card_flag,
    close_credit_card_account,
    submit_credit_limit_request,
    get_credit_limit_requests,
    get_payment_history,
    approve_credit_limit_increase,
    deny_credit_limit_increase,
    update_transaction_rewards,
)
