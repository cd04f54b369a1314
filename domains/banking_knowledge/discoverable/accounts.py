"""Bank account behaviours: open, close, list, transfer between accounts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tau_env.data_files import builtin_toml
from tau_env.domains.banking_knowledge.constants import NOW, TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import behaviour
from tau_env.domains.banking_knowledge.discoverable.checks import (
    found,
    given,
    inserted,
    number,
    one_of,
)
from tau_env.domains.banking_knowledge.discoverable.texts import executed
from tau_env.domains.banking_knowledge.ids import hex_digest
from tau_env.domains.banking_knowledge.lookups import (
    account_balance,
    edit,
    is_empty_result,
    query_by,
    rows_where,
)

__all__ = ["BEHAVIOURS"]

_EARLY_CLOSURE: dict[str, dict[str, list[int]]] = builtin_toml(__package__, "early_closure.toml")
"""Account class -> tier -> [early closure fee in dollars, window in days since opening]."""

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
    given(all((user_id, account_type, account_class)), "Error: Missing required parameters.")
    types = ["checking", "savings", "business_checking", "business_savings"]
    one_of(account_type, "account_type", types)
    owned = [a for _, a in rows_where(db.accounts, "user_id", user_id)]
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
    taken = f"Failed to open account: Account ID '{account_id}' may already exist."
    inserted(db.accounts, account_id, record, taken)
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
    table = _EARLY_CLOSURE.get(account.get("class", ""))
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
    given(account_id, "Error: Missing required parameter (account_id).")
    account = found(db.accounts, account_id, "Account")
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
    given(user_id, "Error: Missing required parameter: user_id")
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
    amount = number(amount, f"Error: Invalid amount '{amount}'. Must be a number.")
    if amount <= 0:
        return "Error: Transfer amount must be positive."
    if source_account_id == destination_account_id:
        return "Error: Source and destination accounts cannot be the same."
    source = found(db.accounts, source_account_id, "Source account")
    destination = found(db.accounts, destination_account_id, "Destination account")
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


BEHAVIOURS = (
    open_bank_account,
    close_bank_account,
    get_user_accounts,
    transfer_funds,
)
