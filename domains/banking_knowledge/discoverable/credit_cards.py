"""Credit card behaviours: replacement, closure, statement credits, flags, rewards."""

from __future__ import annotations

from tau_env.domains.banking_knowledge.constants import TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import behaviour
from tau_env.domains.banking_knowledge.discoverable.card_accounts import (
    check_card_exists,
)
from tau_env.domains.banking_knowledge.discoverable.checks import found, given, inserted, one_of
from tau_env.domains.banking_knowledge.discoverable.histories import HISTORIES
from tau_env.domains.banking_knowledge.discoverable.texts import (
    executed,
    title,
)
from tau_env.domains.banking_knowledge.ids import (
    account_flag_id,
    closure_reason_id,
    credit_card_order_id,
    transaction_id,
)
from tau_env.domains.banking_knowledge.json_text import indented
from tau_env.domains.banking_knowledge.lookups import (
    add,
    edit,
    exists,
)

__all__ = ["BEHAVIOURS"]


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
    one_of(reason, "reason", reasons)
    check_card_exists(db, credit_card_account_id)
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
    taken = "Error: Order may have already been placed for this card replacement."
    inserted(db.credit_card_orders, order_id, order, taken)
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


@behaviour("log_credit_card_closure_reason", "write")
def log_credit_card_closure_reason(
    db: BankingDB, credit_card_account_id: str, user_id: str, closure_reason: str
) -> str:
    """Record why a customer wants to close a card (a second record of the pair is ignored)."""
    missing = "Error: Missing required parameters."
    given(all((credit_card_account_id, user_id, closure_reason)), missing)
    reasons = [
        "annual_fee",
        "not_using_card",
        "found_better_card",
        "unhappy_with_rewards",
        "simplifying_finances",
        "negative_experience",
        "other",
    ]
    one_of(closure_reason, "closure_reason", reasons)
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
    lines.append(f"Arguments: {indented(arguments)}")
    lines.append(f"Closure reason '{closure_reason}' logged for account {credit_card_account_id}.")
    return "\n".join(lines)


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
    one_of(reason, "reason", _STATEMENT_CREDIT_REASONS)
    check_card_exists(db, credit_card_account_id)
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
    one_of(flag_type, "flag_type", flags)
    reasons = ["retention_offer", "loyalty_benefit", "promotional", "error_correction", "other"]
    one_of(reason, "reason", reasons)
    check_card_exists(db, credit_card_account_id)
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
    taken = f"Error: Failed to apply account flag. Flag ID '{flag_id}' may already exist."
    inserted(db.credit_card_account_flags, flag_id, record, taken)
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
    missing = "Error: Missing required parameters (credit_card_account_id, user_id)."
    given(all((credit_card_account_id, user_id)), missing)
    check_card_exists(db, credit_card_account_id)
    if not exists(db.credit_card_accounts, credit_card_account_id):
        return f"Error: Failed to close credit card account '{credit_card_account_id}'."
    card = edit(db.credit_card_accounts, credit_card_account_id)
    card["status"] = "CLOSED"
    card["closed_date"] = TODAY_TEXT
    card["closed_by"] = user_id
    arguments = {"credit_card_account_id": credit_card_account_id, "user_id": user_id}
    lines = executed(db, "close_credit_card_account", "Credit card account closed successfully.")
    lines.append(f"Arguments: {indented(arguments)}")
    lines.append(f"Account {credit_card_account_id} has been closed.")
    return "\n".join(lines)


@behaviour("update_transaction_rewards", "write")
def update_transaction_rewards(db: BankingDB, transaction_id: str, new_rewards_earned: str) -> str:
    """Correct the rewards recorded on a card transaction."""
    given(all((transaction_id, new_rewards_earned)), "Error: Missing required parameters.")
    found(db.credit_card_transaction_history, transaction_id, "Transaction")
    edit(db.credit_card_transaction_history, transaction_id)["rewards_earned"] = new_rewards_earned
    arguments = {"transaction_id": transaction_id, "new_rewards_earned": new_rewards_earned}
    lines = executed(db, "update_transaction_rewards", "Transaction rewards updated successfully.")
    lines += [
        f"Arguments: {indented(arguments)}",
        "Transaction updated:",
        f"  - Transaction ID: {transaction_id}",
        f"  - New Rewards: {new_rewards_earned}",
    ]
    return "\n".join(lines)


BEHAVIOURS = (
    order_replacement_credit_card,
    HISTORIES["get_replacement_card_orders"],
    log_credit_card_closure_reason,
    HISTORIES["get_closure_reasons"],
    apply_statement_credit,
    apply_credit_card_flag,
    close_credit_card_account,
    update_transaction_rewards,
)
