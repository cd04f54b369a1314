"""Checks the behaviours share, each answering for itself when it fails (`Answer`).

A required argument, one of a list of values, a record that must exist, a number, a record
that must be new, a debit card in the status a change needs.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from tau_env.domains.banking_knowledge.data_model import BankingDB, Row
from tau_env.domains.banking_knowledge.discoverable.base import Answer
from tau_env.domains.banking_knowledge.lookups import add, row
from tau_env.state import Table

__all__ = ["found", "given", "inserted", "linked_account_open", "number", "one_of", "transition"]


def given(value: Any, refusal: str) -> None:
    """Check that a required argument was given (not empty, as the reference's ``if not``).

    Raises:
        Answer: `refusal` (the behaviour's own "missing parameter" text) when it was not.
    """
    if not value:
        raise Answer(refusal)


def one_of(value: Any, field: str, allowed: Collection[str]) -> None:
    """Check that an argument's `value` is one of `allowed` (listed in its order if it is not).

    Raises:
        Answer: ``Error: Invalid <field>. Must be one of: [...]`` (Python's list rendering).
    """
    if value not in allowed:
        raise Answer(f"Error: Invalid {field}. Must be one of: {list(allowed)}")


def found(table: Table[Row], key: str, what: str) -> dict[str, Any]:
    """The record `key` of `table` (shared: read only).

    Raises:
        Answer: ``Error: <what> '<key>' not found.`` when there is none (the behaviour's
            answer, as the reference's methods return it).
    """
    record = row(table, key)
    if record is None:
        raise Answer(f"Error: {what} '{key}' not found.")
    return record


def number(value: Any, refusal: str) -> float:
    """`value` as a float, as the reference reads amounts (``float(value)``).

    Raises:
        Answer: `refusal` when `value` is not a number.
    """
    try:
        return float(value)
    except (TypeError, ValueError):
        raise Answer(refusal) from None


def inserted(table: Table[Row], key: str, record: dict[str, Any], refusal: str) -> None:
    """Add `record` to `table` under `key`.

    Raises:
        Answer: `refusal` when `key` is taken (the table is unchanged).
    """
    if not add(table, key, record):
        raise Answer(refusal)


def transition(card_id: str, card: Mapping[str, Any], before: str, after: str, verb: str) -> None:
    """Check that the debit card `card` may go from status `before` to `after`.

    Raises:
        Answer: The card is already `after`, or is in another status than `before` (`verb`
            names the change in the text: ``frozen``, ``activated``...).
    """
    status = card.get("status")
    if status == after:
        raise Answer(f"Error: Debit card '{card_id}' is already {after.lower()}.")
    if status != before:
        raise Answer(
            f"Error: Debit card '{card_id}' cannot be {verb}. Current status: "
            f"{status}. Only {before} cards can be {verb}."
        )


def linked_account_open(db: BankingDB, card: Mapping[str, Any], verb: str) -> None:
    """Check that the checking account of the debit card `card` is open (or unknown).

    Raises:
        Answer: The account exists and is not open (`verb`: ``unfrozen``, ``activated``).
    """
    account_id = card.get("account_id")
    account = row(db.accounts, account_id) if account_id else None
    if account is not None and account.get("status") != "OPEN":
        raise Answer(
            f"Error: The linked checking account '{account_id}' is no longer open. "
            f"Card cannot be {verb}."
        )
