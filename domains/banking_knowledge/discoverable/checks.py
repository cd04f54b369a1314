"""Checks the behaviours share, each answering for itself when it fails (`Answer`).

A record that must exist, a number, a record that must be new.
"""

from __future__ import annotations

from typing import Any

from tau_env.domains.banking_knowledge.data_model import Row
from tau_env.domains.banking_knowledge.discoverable.base import Answer
from tau_env.domains.banking_knowledge.lookups import add, row
from tau_env.state import Table

__all__ = ["found", "inserted", "number"]


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
