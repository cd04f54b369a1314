"""Checks and amounts shared by the credit card behaviours (cards and credit limits)."""

from __future__ import annotations

from typing import Any

from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.lookups import is_empty_result, parse_balance, query_by, row

__all__ = ["card_missing", "dollars", "not_owned", "owned_card"]


def card_missing(db: BankingDB, account_id: str) -> str | None:
    """The not-found error when no card account has that id (looked up by query, as there)."""
    if is_empty_result(query_by(db, "credit_card_accounts", "account_id", account_id)):
        return f"Error: Credit card account '{account_id}' not found."
    return None


def not_owned(account_id: str, user_id: str) -> str:
    """The error for a card account that belongs to someone else."""
    return f"Error: Credit card account '{account_id}' does not belong to user '{user_id}'."


def owned_card(db: BankingDB, account_id: str, user_id: str) -> dict[str, Any] | str:
    """The card account's record, or the error text: no such account, or someone else's."""
    card = row(db.credit_card_accounts, account_id)
    if card is None:
        return f"Error: Credit card account '{account_id}' not found."
    if card.get("user_id") != user_id:
        return not_owned(account_id, user_id)
    return card


def dollars(value: Any) -> float:
    """A dollar amount stored as text (``"$5,000.00"``); 0 when it does not parse."""
    try:
        return parse_balance(str(value))
    except (ValueError, TypeError):
        return 0.0
