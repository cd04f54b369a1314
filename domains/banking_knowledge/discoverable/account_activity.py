"""Money on bank accounts: credits, interest reports, transactions, card payments."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from tau_env.domains.banking_knowledge.constants import TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB, Row
from tau_env.domains.banking_knowledge.discoverable.base import behaviour
from tau_env.domains.banking_knowledge.discoverable.card_accounts import dollars, owned_card
from tau_env.domains.banking_knowledge.discoverable.checks import found, given, number, one_of
from tau_env.domains.banking_knowledge.discoverable.texts import executed
from tau_env.domains.banking_knowledge.ids import hex_digest
from tau_env.domains.banking_knowledge.lookups import (
    account_balance,
    edit,
    render_rows,
    rows_where,
)

__all__ = ["BEHAVIOURS"]

_CREDIT_DESCRIPTIONS = {
    "rebate_credit": "REBATE CREDIT - CUSTOMER SERVICE",
    "fee_refund": "FEE REFUND - CUSTOMER SERVICE",
    "interest_correction": "INTEREST CORRECTION - CUSTOMER SERVICE",
    "goodwill_credit": "GOODWILL CREDIT - CUSTOMER SERVICE",
}


def _credit_account(
    db: BankingDB,
    account_id: str,
    amount: float,
    credit_type: str,
    *,
    savings: bool,
) -> str:
    """Shared body of the checking and savings credits (they differ in three details)."""
    if not account_id or amount is None or not credit_type:
        return "Error: Missing required parameters."
    amount = number(amount, "Error: Invalid credit amount. Must be a number.")
    if amount <= 0:
        return "Error: Credit amount must be positive."
    types = (
        ["interest_correction", "fee_refund", "goodwill_credit"]
        if savings
        else ["rebate_credit", "fee_refund"]
    )
    one_of(credit_type, "credit_type", types)
    account = found(db.accounts, account_id, "Account")
    account_class = account.get("class", "").lower()
    if savings and account_class not in ("saving", "savings"):
        return (
            f"Error: Account '{account_id}' is not a savings account. "
            "This tool only applies to savings accounts."
        )
    if not savings and account_class != "checking":
        return (
            f"Error: Account '{account_id}' is not a checking account. "
            "Credits can only be applied to checking accounts."
        )
    if account.get("status") not in ("ACTIVE", "OPEN"):
        return f"Error: Account '{account_id}' is not active."
    previous = account_balance(account)
    new_balance = previous + amount
    # Savings balances are written without a dollar sign, checking ones with it (reference).
    written = f"{new_balance:.2f}" if savings else f"${new_balance:.2f}"
    edit(db.accounts, account_id)["current_holdings"] = written
    prefix = "savings_credit" if savings else "checking_credit"
    transaction = "txn_" + hex_digest(f"{prefix}:{account_id}:{credit_type}:{amount}:{TODAY_TEXT}")
    # Written over any record of the same id (an identical second credit keeps one record).
    db.bank_account_transaction_history.insert(
        transaction,
        Row(
            {
                "transaction_id": transaction,
                "account_id": account_id,
                "date": TODAY_TEXT,
                "description": _CREDIT_DESCRIPTIONS[credit_type],
                "amount": amount,
                "type": credit_type,
                "status": "posted",
            }
        ),
    )
    return (
        "\nCredit applied successfully!\n"
        f"  - Transaction ID: {transaction}\n"
        f"  - Account: {account_id}\n"
        f"  - Credit Type: {credit_type}\n"
        f"  - Amount: ${amount:.2f}\n"
        f"  - Previous Balance: ${previous:.2f}\n"
        f"  - New Balance: ${new_balance:.2f}"
    )


@behaviour("apply_checking_credit", "write")
def apply_checking_credit(db: BankingDB, account_id: str, amount: float, credit_type: str) -> str:
    """Credit a checking account (rebate or fee refund) and record the transaction."""
    return _credit_account(db, account_id, amount, credit_type, savings=False)


@behaviour("apply_savings_credit", "write")
def apply_savings_credit(db: BankingDB, account_id: str, amount: float, credit_type: str) -> str:
    """Credit a savings account (interest correction, fee refund, goodwill)."""
    return _credit_account(db, account_id, amount, credit_type, savings=True)


@behaviour("submit_interest_discrepancy_report", "write")
def submit_interest_discrepancy_report(
    db: BankingDB,
    account_id: str,
    user_id: str,
    expected_apy: float,
    actual_apy: float,
    amount_difference: float,
) -> str:
    """Acknowledge an interest report (never stored: only the call log records it).

    The reference writes the report to a table its database does not have.
    """
    if (
        not account_id
        or not user_id
        or expected_apy is None
        or actual_apy is None
        or amount_difference is None
    ):
        return "Error: Missing required parameters."
    try:
        expected_apy, actual_apy = float(expected_apy), float(actual_apy)
        amount_difference = float(amount_difference)
    except (ValueError, TypeError):
        return "Error: expected_apy, actual_apy, and amount_difference must be numbers."
    account = found(db.accounts, account_id, "Account")
    user = found(db.users, user_id, "User")
    report = "IDR_" + hex_digest(
        f"interest_report:{account_id}:{user_id}:{expected_apy}:{actual_apy}:{TODAY_TEXT}"
    )
    level = account.get("level", "Unknown")
    return (
        "\nInterest Discrepancy Report Submitted Successfully!\n"
        f"  - Report ID: {report}\n"
        f"  - Account: {account_id} ({level})\n"
        f"  - Customer: {user.get('name', 'Unknown')}\n"
        f"  - Expected APY: {expected_apy}%\n"
        f"  - Actual APY: {actual_apy}%\n"
        f"  - APY Difference: {round(expected_apy - actual_apy, 4)}%\n"
        f"  - Amount Difference: ${amount_difference:.2f}\n"
        "  - Status: PENDING_REVIEW\n"
        "\nThe backend team will investigate this discrepancy and ensure "
        "correct APY calculations are applied going forward."
    )


def _transaction_time(record: dict[str, Any]) -> datetime:
    return _parsed_date(str(record.get("date", "")))


@lru_cache(maxsize=4096)
def _parsed_date(text: str) -> datetime:
    """A transaction date (with or without a time); the earliest date when unreadable."""
    for layout in ("%m/%d/%Y %H:%M:%S", "%m/%d/%Y"):
        try:
            return datetime.strptime(text, layout)
        except ValueError:
            continue
    return datetime.min


@behaviour("get_account_transactions", "read")
def get_account_transactions(db: BankingDB, account_id: str) -> str:
    """An account's transactions, most recent first (same-date records keep stored order)."""
    given(account_id, "Error: Missing required parameter: account_id")
    found(db.accounts, account_id, "Account")
    history = db.bank_account_transaction_history
    records = rows_where(history, "account_id", account_id)
    records.sort(key=lambda item: _transaction_time(item[1]), reverse=True)
    lines = executed(
        db, "get_account_transactions", "Bank account transactions retrieved successfully."
    )
    lines.append(f"Transactions for account {account_id}:")
    if records:
        lines.append(
            render_rows(
                "bank_account_transaction_history", records, history.copied_in_transaction()
            )
        )
    else:
        lines.append("\nNo transactions found for this account.")
    return "\n".join(lines)


@behaviour("pay_credit_card_from_checking", "write")
def pay_credit_card_from_checking(
    db: BankingDB,
    user_id: str,
    checking_account_id: str,
    credit_card_account_id: str,
    amount: float,
) -> str:
    """Pay a card balance from the customer's checking account."""
    if not user_id or not checking_account_id or not credit_card_account_id or amount is None:
        return (
            "Error: Missing required parameters "
            "(user_id, checking_account_id, credit_card_account_id, amount)."
        )
    amount = number(amount, "Error: Invalid payment amount. Must be a positive number.")
    if amount <= 0:
        return "Error: Payment amount must be a positive number."
    checking = found(db.accounts, checking_account_id, "Checking account")
    if checking.get("user_id") != user_id:
        return (
            f"Error: Checking account '{checking_account_id}' does not belong to user '{user_id}'."
        )
    if checking.get("class") != "checking":
        return f"Error: Account '{checking_account_id}' is not a checking account."
    available = account_balance(checking)
    if amount > available:
        return (
            "Error: Insufficient funds in checking account. "
            f"Available balance: ${available:.2f}, requested payment: ${amount:.2f}."
        )
    card = owned_card(db, credit_card_account_id, user_id)
    owed = dollars(card.get("current_balance", "$0.00"))
    if amount > owed:
        return (
            f"Error: Payment amount (${amount:.2f}) exceeds credit card balance "
            f"(${owed:.2f}). Please specify an amount up to the outstanding balance."
        )
    new_checking, new_owed = available - amount, owed - amount
    edit(db.accounts, checking_account_id)["current_holdings"] = f"{new_checking:.2f}"
    edit(db.credit_card_accounts, credit_card_account_id)["current_balance"] = f"${new_owed:.2f}"
    return (
        "Payment processed successfully!\n"
        f"  - Payment Amount: ${amount:.2f}\n"
        f"  - From Checking Account: {checking_account_id}\n"
        f"  - To Credit Card Account: {credit_card_account_id}\n"
        f"  - New Checking Balance: ${new_checking:.2f}\n"
        f"  - New Credit Card Balance: ${new_owed:.2f}\n"
        "The payment has been applied immediately."
    )


BEHAVIOURS = (
    apply_checking_credit,
    apply_savings_credit,
    submit_interest_discrepancy_report,
    get_account_transactions,
    pay_credit_card_from_checking,
)
