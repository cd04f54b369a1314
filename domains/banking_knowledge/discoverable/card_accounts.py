"""Checks and amounts shared by the credit card behaviours (cards and credit limits)."""

from __future__ import annotations

from typing import Any

from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import Answer
from tau_env.domains.banking_knowledge.discoverable.checks import found
from tau_env.domains.banking_knowledge.lookups import is_empty_result, parse_balance, query_by

__all__ = ["check_card_exists", "dollars", "not_owned", "owned_card"]


def check_card_exists(db: BankingDB, account_id: str) -> None:
    """Answer not-found when no card account has that id (looked up by query, as there).

    Raises:
        Answer: ``Error: Credit card account '<id>' not found.``
    """
    if is_empty_result(query_by(db, "credit_card_accounts", "account_id", account_id)):
        raise Answer(f"Error: Credit card account '{account_id}' not found.")


def not_owned(account_id: str, user_id: str) -> str:
    """The error for a card account that belongs to someone else."""
    return f"Error: Credit card account '{account_id}' does not belong to user '{user_id}'."


def owned_card(db: BankingDB, account_id: str, user_id: str) -> dict[str, Any]:
    """The card account's record (shared: read only).

    Raises:
        Answer: No such account, or someone else's.
    """
    card = found(db.credit_card_accounts, account_id, "Credit card account")
    if card.get("user_id") != user_id:
        raise Answer(not_owned(account_id, user_id))
    return card


def dollars(value: Any) -> float:
    """A dollar amount stored as text (``"$5,000.00"``); 0 when it does not parse."""
    try:
        return parse_balance(str(value))
    except (ValueError, TypeError):
        return 0.0
