"""Bank account behaviours: open, close, list, transfer, credit, report, transactions."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from tau_env.domains.banking_knowledge.constants import NOW, TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB, Row
from tau_env.domains.banking_knowledge.discoverable.base import behaviour
from tau_env.domains.banking_knowledge.discoverable.texts import executed, invalid_choice
from tau_env.domains.banking_knowledge.ids import hex_digest
from tau_env.domains.banking_knowledge.lookups import (
    account_balance,
    add,
    edit,
    exists,
    is_empty_result,
    parse_balance,
    query_by,
    render_rows,
    row,
    rows,
)

__all__ = ["BEHAVIOURS"]

_CHECKING_EARLY_CLOSURE = {
    "Light Blue Account": (15, 30),
    "Light Green Account": (15, 30),
    "Green Fee-Free Account": (15, 30),
    "Blue Account": (25, 60),
    "Green Account": (25, 60),
    "Evergreen Account": (50, 90),
    "Bluest Account": (100, 180),
}
"""Checking tier -> (early closure fee in dollars, window in days since opening)."""

_SAVINGS_EARLY_CLOSURE = {
    "Bronze Account": (20, 60),
    "Silver Account": (35, 90),
    "Silver Plus Account": (35, 90),
    "Gold Account": (75, 180),
    "Gold Plus Account": (75, 180),
    "Gold Years Account": (75, 180),
    "Platinum Account": (150, 270),
    "Platinum Plus Account": (150, 270),
    "Diamond Elite Account": (150, 270),
}
"""Savings tier -> (fee, window). Applies to class ``savings``, which the data never uses
(it spells the class ``saving``): kept as the reference has it."""

_ELIGIBILITY_ERROR = "Error: Account eligibility requirements not met."


def _age_in_days(account: dict[str, Any]) -> int:
    try:
        opened = datetime.strptime(account.get("date_opened", ""), "%m/%d/%Y")
    except ValueError:
        return 0
    return (NOW - opened).days


def _kind(account: dict[str, Any]) -> Any:
    return account.get("account_type", account.get("class", ""))


def _is_open(account: dict[str, Any]) -> bool:
    return account.get("status", "") in ("OPEN", "ACTIVE")


def _eligible(owned: list[dict[str, Any]], account_type: str) -> bool:
    """The reference's eligibility rules for opening an account of `account_type`."""
    personal_checking = ("checking", "personal_checking")
    if account_type == "savings":
        return any(
            _kind(a) in personal_checking and _is_open(a) and _age_in_days(a) >= 14 for a in owned
        )
    if account_type == "business_checking":
        if any(a.get("status") == "CLOSED" for a in owned):
            return False
        return any(_kind(a) in personal_checking and _is_open(a) for a in owned)
    if account_type == "business_savings":
        if any(account_balance(a) < 0 for a in owned):
            return False
        return any(
            _kind(a) == "business_checking" and _is_open(a) and _age_in_days(a) >= 30 for a in owned
        )
    return True


@behaviour("open_bank_account", "write")
def open_bank_account(db: BankingDB, user_id: str, account_type: str, account_class: str) -> str:
    """Open an account after the type's eligibility checks.

    New records use the ``account_type``/``account_class`` fields (not ``class``/``level``),
    as the reference's do.
    """
    if not user_id or not account_type or not account_class:
        return "Error: Missing required parameters."
    types = ["checking", "savings", "business_checking", "business_savings"]
    if account_type not in types:
        return invalid_choice("account_type", types)
    owned = [a for _, a in rows(db.accounts) if a.get("user_id") == user_id]
    if not _eligible(owned, account_type):
        return _ELIGIBILITY_ERROR
    account_id = hex_digest(f"account:{user_id}:{account_type}:{account_class}")
    record = {
        "account_id": account_id,
        "user_id": user_id,
        "account_type": account_type,
        "account_class": account_class,
        "current_holdings": "0.00",
        "status": "OPEN",
        "date_opened": TODAY_TEXT,
    }
    if not add(db.accounts, account_id, record):
        return f"Failed to open account: Account ID '{account_id}' may already exist."
    return (
        "Bank account opened successfully!\n"
        f"  - Account ID: {account_id}\n"
        f"  - User ID: {user_id}\n"
        f"  - Account Type: {account_type}\n"
        f"  - Account Class: {account_class}\n"
        "  - Status: OPEN\n"
        "  - Initial Balance: $0.00\n"
        f"  - Date Opened: {TODAY_TEXT}"
    )


def _early_closure_fee(account: dict[str, Any], balance: float) -> float | None:
    """The fee due when closing now (0 if none); None when the balance cannot cover it."""
    table = {"checking": _CHECKING_EARLY_CLOSURE, "savings": _SAVINGS_EARLY_CLOSURE}.get(
        account.get("class", "")
    )
    terms = table.get(account.get("level", "")) if table else None
    opened = account.get("date_opened", "")
    if not terms or not opened:
        return 0.0
    try:
        age = (NOW - datetime.strptime(opened, "%m/%d/%Y")).days
    except ValueError:
        return 0.0
    fee, window = terms
    if age >= window:
        return 0.0
    return None if balance < fee else fee


@behaviour("close_bank_account", "write")
def close_bank_account(
    db: BankingDB,
    account_id: str,
    reason: str = "Customer requested closure",
    waive_early_closure_fee: bool = False,
) -> str:
    """Close an account whose balance, less any early closure fee, is exactly zero."""
    if not account_id:
        return "Error: Missing required parameter (account_id)."
    account = row(db.accounts, account_id)
    if account is None:
        return f"Error: Account '{account_id}' not found."
    if account.get("status") == "CLOSED":
        return f"Error: Account '{account_id}' is already closed."
    balance = account_balance(account)
    fee = 0.0
    if not waive_early_closure_fee:
        due = _early_closure_fee(account, balance)
        if due is None:
            return "Error: Account unable to be closed."
        fee = due
    if balance - fee != 0:
        return (
            f"Error: Account balance must be $0.00 before closing. Current balance: ${balance:.2f}"
        )
    closed = edit(db.accounts, account_id)
    closed["status"] = "CLOSED"
    closed["date_closed"] = TODAY_TEXT
    closed["closure_reason"] = reason
    closed["early_closure_fee_waived"] = waive_early_closure_fee
    return (
        "Bank account closed successfully!\n"
        f"  - Account ID: {account_id}\n"
        f"  - Account Type: {closed.get('account_type', 'N/A')}\n"
        f"  - Account Class: {closed.get('account_class', 'N/A')}\n"
        "  - Status: CLOSED\n"
        f"  - Date Closed: {TODAY_TEXT}\n"
        f"  - Reason: {reason}\n"
        f"  - Early Closure Fee Waived: {'Yes' if waive_early_closure_fee else 'No'}"
    )


@behaviour("get_user_accounts", "read")
def get_user_accounts(db: BankingDB, user_id: str) -> str:
    """Every bank account and credit card account of a customer."""
    if not user_id:
        return "Error: Missing required parameter: user_id"
    bank = query_by(db, "accounts", "user_id", user_id)
    cards = query_by(db, "credit_card_accounts", "user_id", user_id)
    lines = executed(db, "get_user_accounts", "User accounts retrieved successfully.")
    lines += [f"Accounts for user {user_id}:", "", "Bank Accounts:"]
    lines.append("  No bank accounts found." if is_empty_result(bank) else bank)
    lines.append("\nCredit Card Accounts:")
    lines.append("  No credit card accounts found." if is_empty_result(cards) else cards)
    return "\n".join(lines)


@behaviour("transfer_funds", "write")
def transfer_funds(
    db: BankingDB, source_account_id: str, destination_account_id: str, amount: float
) -> str:
    """Move money between two open accounts (both balances written with a ``$``)."""
    if not source_account_id or not destination_account_id or amount is None:
        return (
            "Error: Missing required parameters "
            "(source_account_id, destination_account_id, amount)."
        )
    try:
        amount = float(amount)
    except (ValueError, TypeError):
        return f"Error: Invalid amount '{amount}'. Must be a number."
    if amount <= 0:
        return "Error: Transfer amount must be positive."
    if source_account_id == destination_account_id:
        return "Error: Source and destination accounts cannot be the same."
    source, destination = (
        row(db.accounts, source_account_id),
        row(db.accounts, destination_account_id),
    )
    if source is None:
        return f"Error: Source account '{source_account_id}' not found."
    if destination is None:
        return f"Error: Destination account '{destination_account_id}' not found."
    if source.get("status") not in ("ACTIVE", "OPEN"):
        return f"Error: Source account '{source_account_id}' is not active."
    if destination.get("status") not in ("ACTIVE", "OPEN"):
        return f"Error: Destination account '{destination_account_id}' is not active."
    available = account_balance(source)
    if available < amount:
        return (
            f"Error: Insufficient funds. Source account balance is ${available:.2f}, "
            f"but transfer amount is ${amount:.2f}."
        )
    new_source = available - amount
    new_destination = account_balance(destination) + amount
    edit(db.accounts, source_account_id)["current_holdings"] = f"${new_source:.2f}"
    edit(db.accounts, destination_account_id)["current_holdings"] = f"${new_destination:.2f}"
    return (
        "Transfer completed successfully!\n"
        f"  - Amount: ${amount:.2f}\n"
        f"  - From: {source_account_id} (new balance: ${new_source:.2f})\n"
        f"  - To: {destination_account_id} (new balance: ${new_destination:.2f})"
    )


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
    try:
        amount = float(amount)
    except (TypeError, ValueError):
        return "Error: Invalid credit amount. Must be a number."
    if amount <= 0:
        return "Error: Credit amount must be positive."
    types = (
        ["interest_correction", "fee_refund", "goodwill_credit"]
        if savings
        else ["rebate_credit", "fee_refund"]
    )
    if credit_type not in types:
        return invalid_choice("credit_type", types)
    account = row(db.accounts, account_id)
    if account is None:
        return f"Error: Account '{account_id}' not found."
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
    account = row(db.accounts, account_id)
    if account is None:
        return f"Error: Account '{account_id}' not found."
    user = row(db.users, user_id)
    if user is None:
        return f"Error: User '{user_id}' not found."
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
    if not account_id:
        return "Error: Missing required parameter: account_id"
    if not exists(db.accounts, account_id):
        return f"Error: Account '{account_id}' not found."
    found = [
        (key, record)
        for key, record in rows(db.bank_account_transaction_history)
        if record.get("account_id") == account_id
    ]
    found.sort(key=lambda item: _transaction_time(item[1]), reverse=True)
    lines = executed(
        db, "get_account_transactions", "Bank account transactions retrieved successfully."
    )
    lines.append(f"Transactions for account {account_id}:")
    if found:
        lines.append(render_rows("bank_account_transaction_history", found))
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
    try:
        amount = float(amount)
    except (ValueError, TypeError):
        return "Error: Invalid payment amount. Must be a positive number."
    if amount <= 0:
        return "Error: Payment amount must be a positive number."
    checking = row(db.accounts, checking_account_id)
    if checking is None:
        return f"Error: Checking account '{checking_account_id}' not found."
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
    card = row(db.credit_card_accounts, credit_card_account_id)
    if card is None:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    if card.get("user_id") != user_id:
        return (
            f"Error: Credit card account '{credit_card_account_id}' does not belong to user "
            f"'{user_id}'."
        )
    try:
        owed = parse_balance(str(card.get("current_balance", "$0.00")))
    except (ValueError, TypeError):
        owed = 0.0
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
    open_bank_account,
    close_bank_account,
    get_user_accounts,
    transfer_funds,
    apply_checking_credit,
    apply_savings_credit,
    submit_interest_discrepancy_report,
    get_account_transactions,
    pay_credit_card_from_checking,
)
